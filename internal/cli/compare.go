package cli

import (
	"bytes"
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"contractbench/internal/compare"
	"contractbench/internal/inputs"
	"contractbench/internal/nullagent"
	"contractbench/internal/report"
	"contractbench/internal/runner"
)

const compareHelp = `
Runs the same tasks, judged the same way, against each named MCP tool
server in turn (the runner owns the browser and the judge observes it
directly, whatever the server), writes each server's report (named as run
names its reports, and one junit.xml with a testsuite per server), and prints one
table with a row per server: pass count, median tool calls per task, median
and p90 bytes per tool call, median bytes per page read (the server's
snapshot tools), median latency per call and per task, with ratios against
the --base server, and each server tested against the --base server with
the exact McNemar test on the tasks both finished, as board and diff pair
them. The table is also written to
<out>/<git-sha>-servers.md, and <out>/<git-sha>-servers.html shows it with
every task's result on each server side by side, linked to each server's
HTML report.

Peer servers come from benchmarks/servers.yaml and need "make peers". With
the default replay agent each server replays its own reference transcripts
(transcripts/<server>/). Any other agent (reference, exec, or a paid model:
anthropic, openai) runs the same tasks, with the same caps and --repeat,
against every server. Before a paid run starts, compare prints its
worst-case spend (attempts on every server, each at its max_usd cap); it
needs the same opt-in as run (CONTRACTBENCH_REAL=1 and the provider's key),
and --max-total-usd stops it, on whichever server it has reached, before
the spend could pass that total: the servers run so far are compared, the
last one's report is marked incomplete, and the exit code is 1.
`

func runCompare(st *State, args []string) error {
	fs := newFlags(st, "contractbench compare [--server a,b,c] [flags]", compareHelp)
	var f runFlags
	f.register(fs, "replay", "replay (each server's own transcripts), reference, anthropic (alias claude), openai, or exec (your own, --agent-cmd)")
	all := "builtin,playwright,chrome-devtools"
	server := fs.Lookup("server")
	server.Usage, server.DefValue, f.server = "comma-separated servers to compare", all, all
	base := fs.String("base", "playwright", "server the ratios are against")
	fs.IntVar(&f.repeat, "repeat", 1, "run every task K times on every server")
	fs.Float64Var(&f.maxTotalUSD, "max-total-usd", 0, "over every server: "+maxTotalUsage)
	out := fs.String("out", "", "report folder (default <suite>/reports)")
	fs.StringVar(&f.trace, "trace", "auto", traceUsage)
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if err := f.resolve(fs); err != nil {
		return err
	}
	switch f.agent {
	case nullagent.NameNoop, nullagent.NameRandom:
		return usagef("compare: --agent %s scores 0 on every server by design; run it with run", f.agent)
	}
	if f.web == string(runner.WebRecord) {
		return usagef("compare: --web record: record the archive once with run, then compare on it")
	}
	list := f.server
	ls, err := loadSuite(f.suiteDir, f.serversFile)
	if err != nil {
		return err
	}
	// Every server's plan is made, and so every input checked, before
	// any runs.
	var plans []*runner.Plan
	var pageTools [][]string
	for _, name := range strings.Split(list, ",") {
		plan, tools, err := serverPlan(st, f, ls, strings.TrimSpace(name))
		if err != nil {
			return err
		}
		plans, pageTools = append(plans, plan), append(pageTools, tools)
	}
	dir := cmp.Or(*out, ls.ReportsDir())
	if err := report.CheckDir(dir); err != nil {
		return usagef("--out: %v", err)
	}
	limit, err := spendLimit(st, f.maxTotalUSD, plans)
	if err != nil {
		return err
	}
	rows, runs, err := compareRuns(st, dir, plans, pageTools, limit)
	if err != nil {
		return err
	}
	if err := writeComparison(st, dir, *base, rows, runs); err != nil && spendStop(limit) == nil {
		return err
	}
	return spendStop(limit)
}

// serverPlan is the plan of the compared run on server, with the tools
// the server reads pages with.
func serverPlan(st *State, f runFlags, ls *inputs.Suite, server string) (*runner.Plan, []string, error) {
	f.server = server
	profile, _, err := inputs.Server(ls.Servers, ls.ServersFile, server)
	if err != nil {
		return nil, nil, asUsage(err)
	}
	plan, err := newPlan(st, &f, ls)
	return plan, profile.PageTools(), err
}

// compareRuns runs each plan in turn and writes its report, and a
// junit.xml with a testsuite for each server run so far; it returns each
// server's row of the comparison and its run.
func compareRuns(st *State, dir string, plans []*runner.Plan, pageTools [][]string, limit *runner.SpendLimit) ([]compare.ServerRow, []compare.ServerRun, error) {
	var rows []compare.ServerRow
	var runs []compare.ServerRun
	var all []*report.Run
	for i, plan := range plans {
		server := plan.Settings().Server
		fmt.Fprintf(st.Stderr, "server %s:\n", server)
		run := execute(st, plan, limit.Hooks(plan))
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
		rows = append(rows, compare.CompareRow(server, run, pageTools[i]))
		runs = append(runs, compare.ServerRun{Server: server, Run: run, HTMLFile: filepath.Base(paths.HTML)})
		if spendStop(limit) != nil {
			break // the servers compared so far are compared
		}
		if run.Incomplete {
			return nil, nil, interrupted() // execute said so
		}
	}
	return rows, runs, nil
}

// writeComparison writes the comparison of the servers' runs, against the
// base server, as Markdown (also printed) and as HTML, named by the first
// run's commit; it fails unless every task passed on every server.
func writeComparison(st *State, dir, base string, rows []compare.ServerRow, runs []compare.ServerRun) error {
	sha := runs[0].Run.GitSHA
	var table bytes.Buffer
	fmt.Fprintf(&table, "# Tool servers compared (%s)\n\n", sha)
	if err := compare.WriteComparison(&table, rows, base); err != nil {
		return err
	}
	if err := compare.WriteServerPairs(&table, compare.PairsWithBase(runs, base), base); err != nil {
		return err
	}
	path, err := report.WriteFile(dir, sha+"-servers.md", table.Bytes())
	if err != nil {
		return fmt.Errorf("write the comparison: %w", err)
	}
	var page bytes.Buffer
	if err := compare.WriteComparisonHTML(&page, "Tool servers compared ("+sha+")", runs, rows); err != nil {
		return err
	}
	htmlPath, err := report.WriteFile(dir, sha+"-servers.html", page.Bytes())
	if err != nil {
		return fmt.Errorf("write the comparison: %w", err)
	}
	st.Stdout.Write(table.Bytes())
	fmt.Fprintf(st.Stdout, "\ncomparison: %s, %s\n", path, htmlPath)
	if slices.ContainsFunc(rows, func(r compare.ServerRow) bool { return r.Passed < r.Total }) {
		return failed("")
	}
	return nil
}
