package cli

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

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
	var f runFlags
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
	fs.StringVar(&f.runOptions.trace, "trace", "auto", traceUsage)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("compare: unexpected argument %q", fs.Arg(0))
	}
	if f.agent != "replay" && f.agent != "mock" && f.agent != agentReference && f.agent != agentExec {
		return usagef("compare: --agent %s: compare replays recordings or plays references; run paid agents with run --server", f.agent)
	}
	names := strings.Split(*list, ",")
	f.runOptions.tasks, f.runOptions.web = f.tasks, runner.WebReplay
	// Check every server's inputs before running any.
	cfgs := make([]*runner.Config, len(names))
	pageTools := make([][]string, len(names))
	for i, name := range names {
		o := f.runOptions
		o.server = strings.TrimSpace(name)
		cfg, server, err := loadRun(st, o)
		if err != nil {
			return err
		}
		if err := chooseAgent(st, cfg, server, o); err != nil {
			return err
		}
		cfgs[i], pageTools[i] = cfg, server.PageTools()
	}
	dir := *out
	if dir == "" {
		dir = cfgs[0].Suite.ReportsDir()
	}
	sha := gitSHA(st, cfgs[0].Suite.Dir)
	if err := report.CheckDir(dir); err != nil {
		return usagef("--out: %v", err)
	}
	var rows []report.ServerRow
	var runs []report.ServerRun
	var allRuns []*report.Run
	for i, cfg := range cfgs {
		fmt.Fprintf(st.Stderr, "server %s:\n", cfg.Settings.Server)
		run, err := execute(st, cfg)
		if err != nil {
			return err
		}
		run.GitSHA = sha
		paths, err := report.WriteFiles(dir, report.BaseName(run), run)
		if err != nil {
			return fmt.Errorf("write report: %w", err)
		}
		allRuns = append(allRuns, run)
		// Each run's files hold its own junit.xml; this one holds every
		// server's run so far, a testsuite each.
		var junit bytes.Buffer
		if err := report.WriteJUnitRuns(&junit, allRuns); err != nil {
			return err
		}
		if _, err := report.WriteFile(dir, report.JUnitFile, junit.Bytes()); err != nil {
			return fmt.Errorf("write report: %w", err)
		}
		rows = append(rows, report.CompareRow(cfg.Settings.Server, run, pageTools[i]))
		runs = append(runs, report.ServerRun{Server: cfg.Settings.Server, Run: run, HTMLFile: filepath.Base(paths.HTML)})
		if run.Incomplete {
			return interrupted() // execute said so
		}
	}
	var table bytes.Buffer
	fmt.Fprintf(&table, "# Tool servers compared (%s)\n\n", sha)
	if err := report.WriteComparison(&table, rows, *base); err != nil {
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
