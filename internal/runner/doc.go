// Package runner orchestrates benchmark tasks. For each task it starts the
// web layer (the hermetic replay server, or nothing for the live web), a
// fresh browser, the judge's own CDP session, the MCP tool server and the
// agent loop; then it lets the judge capture the browser's final state and
// grades it with contract.Evaluate. Tasks run in parallel with -j, each with
// its own browser and server.
//
// A task the agent fails is a result. A browser or server that dies ends
// that task as an error; the run goes on with the next task.
package runner
