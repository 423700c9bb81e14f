package cli

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"contractbench/internal/llm"
	"contractbench/internal/report"
	"contractbench/internal/runner"
)

var compareCommand = command{
	name:    "compare",
	summary: "run the suite against several MCP tool servers and compare them",
	run:     runCompare,
}

const compareHelp = `
Runs the same tasks, judged the same way, against each named MCP tool
server in turn (the runner owns the browser and the judge observes it
directly, whatever the server), writes each server's report (named as run
names its reports, and one junit.xml with a testsuite per server), and prints one
table with a row per server: pass count, median tool calls per task, median
and p90 bytes per tool call, median bytes per page read (the server's
snapshot tools), median latency per call and per task, with ratios against
the --base server. The table is also written to
<out>/<git-sha>-servers.md, and <out>/<git-sha>-servers.html shows it with
every task's result on each server side by side, linked to each server's
HTML report.

Peer servers come from benchmarks/servers.yaml and need "make peers". With
the default replay agent each server replays its own reference transcripts
(transcripts/<server>/).
`

func runCompare(st *State, args []string) error {
	fs := newFlags(st, "contractbench compare [--server a,b,c] [flags]", compareHelp)
	f := runFlags{web: string(runner.WebReplay), repeat: 1}
	fs.StringVar(&f.suiteDir, "suite", defaultSuite, "suite folder")
	fs.Var(&f.tasks, "task", "task id or number prefix (repeatable; default all)")
	list := fs.String("server", "builtin,playwright,chrome-devtools", "comma-separated servers to compare")
	base := fs.String("base", "playwright", "server the ratios are against")
	fs.StringVar(&f.serversFile, "servers", "", "file describing the MCP tool servers (default: servers.yaml beside the suite folder)")
	fs.StringVar(&f.agent, "agent", "replay", "replay, reference or exec (paid agents: use run per server)")
	fs.StringVar(&f.agentCmd, "agent-cmd", "", "with --agent exec: the agent's command (docs/agents.md)")
	fs.BoolVar(&f.agentCDP, "agent-cdp", false, "with --agent exec: also give the agent raw CDP; every verdict is then labelled unrestricted")
	fs.IntVar(&f.parallel, "j", 1, "tasks run in parallel (workers), each worker with a browser of its own")
	out := fs.String("out", "", "report folder (default <suite>/reports)")
	fs.StringVar(&f.trace, "trace", "auto", traceUsage)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("compare: unexpected argument %q", fs.Arg(0))
	}
	if err := f.resolve(fs); err != nil {
		return err
	}
	if f.agent != llm.NameReplay && f.agent != agentReference && f.agent != agentExec {
		return usagef("compare: --agent %s: compare replays recordings or plays references; run paid agents with run --server", f.agent)
	}
	ls, err := loadSuite(f.suiteDir, f.serversFile)
	if err != nil {
		return err
	}
	// Every server's plan is made, and so every input checked, before
	// any runs.
	var plans []*runner.Plan
	var pageTools [][]string
	for _, name := range strings.Split(*list, ",") {
		plan, tools, err := serverPlan(st, f, ls, strings.TrimSpace(name))
		if err != nil {
			return err
		}
		plans, pageTools = append(plans, plan), append(pageTools, tools)
	}
	dir := *out
	if dir == "" {
		dir = ls.ReportsDir()
	}
	if err := report.CheckDir(dir); err != nil {
		return usagef("--out: %v", err)
	}
	rows, runs, err := compareRuns(st, dir, plans, pageTools)
	if err != nil {
		return err
	}
	return writeComparison(st, dir, *base, rows, runs)
}

// serverPlan is the plan of the compared run on server, with the tools
// the server reads pages with.
func serverPlan(st *State, f runFlags, ls *loadedSuite, server string) (*runner.Plan, []string, error) {
	f.server = server
	profile, _, err := serverProfile(ls.servers, ls.serversFile, server)
	if err != nil {
		return nil, nil, err
	}
	plan, err := newPlan(st, &f, ls)
	return plan, profile.PageTools(), err
}

// compareRuns runs each plan in turn and writes its report, and a
// junit.xml with a testsuite for each server run so far; it returns each
// server's row of the comparison and its run.
func compareRuns(st *State, dir string, plans []*runner.Plan, pageTools [][]string) ([]report.ServerRow, []report.ServerRun, error) {
	var rows []report.ServerRow
	var runs []report.ServerRun
	var all []*report.Run
	for i, plan := range plans {
		server := plan.Settings().Server
		fmt.Fprintf(st.Stderr, "server %s:\n", server)
		run := execute(st, plan, runner.Hooks{})
		paths, err := report.WriteFiles(dir, report.BaseName(run), run)
		if err != nil {
			return nil, nil, fmt.Errorf("write report: %w", err)
		}
		all = append(all, run)
		var junit bytes.Buffer
		if err := report.WriteJUnitRuns(&junit, all); err != nil {
			return nil, nil, err
		}
		if _, err := report.WriteFile(dir, report.JUnitFile, junit.Bytes()); err != nil {
			return nil, nil, fmt.Errorf("write report: %w", err)
		}
		rows = append(rows, report.CompareRow(server, run, pageTools[i]))
		runs = append(runs, report.ServerRun{Server: server, Run: run, HTMLFile: filepath.Base(paths.HTML)})
		if run.Incomplete {
			return nil, nil, interrupted() // execute said so
		}
	}
	return rows, runs, nil
}

// writeComparison writes the comparison of the servers' runs, against the
// base server, as Markdown (also printed) and as HTML, named by the first
// run's commit; it fails unless every task passed on every server.
func writeComparison(st *State, dir, base string, rows []report.ServerRow, runs []report.ServerRun) error {
	sha := runs[0].Run.GitSHA
	var table bytes.Buffer
	fmt.Fprintf(&table, "# Tool servers compared (%s)\n\n", sha)
	if err := report.WriteComparison(&table, rows, base); err != nil {
		return err
	}
	path, err := report.WriteFile(dir, sha+"-servers.md", table.Bytes())
	if err != nil {
		return fmt.Errorf("write the comparison: %w", err)
	}
	var page bytes.Buffer
	if err := report.WriteComparisonHTML(&page, "Tool servers compared ("+sha+")", runs, rows); err != nil {
		return err
	}
	htmlPath, err := report.WriteFile(dir, sha+"-servers.html", page.Bytes())
	if err != nil {
		return fmt.Errorf("write the comparison: %w", err)
	}
	st.Stdout.Write(table.Bytes())
	fmt.Fprintf(st.Stdout, "\ncomparison: %s, %s\n", path, htmlPath)
	for _, r := range rows {
		if r.Passed < r.Total {
			return failed("")
		}
	}
	return nil
}
