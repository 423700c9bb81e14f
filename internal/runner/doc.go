// Package runner orchestrates benchmark tasks. For each task it starts the
// web layer (the hermetic replay server, or nothing for the live web), a
// fresh browser context in its worker's browser (IsolateContext: the web
// through the context's proxy) or a fresh browser (IsolateProcess: the web
// through its launch flags), the judge's own CDP session confined to that
// context, the MCP tool server and the agent loop; then it lets the judge
// capture the browser's final state and grades it with contract.Evaluate.
// Tasks run in parallel with -j workers, each with a browser of its own
// (launched, or one of Spec.BrowserURLs), or, under IsolateContext, sharing
// Spec.Browsers browsers among them, every task still in a context of its
// own. A replayed agent can wait before each model turn as a model would
// (Spec.Pace), so that a run holds tasks open as long as a model's would.
// A run is a Plan, made and checked by NewPlan before it starts and only
// read after; every check of its settings is NewPlan's, each refusal a
// FieldError naming the Spec's fields. A SpendLimit holds one run, or
// several one after another, to a total budget. The agents a Spec names
// are built here as well (ReferenceAgent, ReplayAgent, PaidAgent), from
// what the command read.
//
// A task the agent fails is a result. A browser or server that dies ends
// that task as an error; the run goes on with the next task, in a new
// browser.
package runner
