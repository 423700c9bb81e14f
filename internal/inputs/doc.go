// Package inputs reads what a run reads from disk, and checks it: a suite
// folder (its tasks with their contracts, fixture web, baseline.json, the
// tool servers file beside it, every transcript and the screenshot
// classes), or any one of those files alone. Each file is read once, so
// what a run uses is what was checked, and every problem names the file
// and the path inside it (problem.List). `contractbench validate` prints
// them; run, record, compare and judge refuse a suite that has any.
// validate's one check that needs a browser is here too: which tasks are
// new (NewTasks), and the problem of each whose contract holds on its
// start page for an agent that does nothing (CheckStartPages).
package inputs
