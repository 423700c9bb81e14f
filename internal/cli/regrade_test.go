package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"contractbench/internal/report"
)

// Regrading a run against the contracts it was judged by reproduces every
// verdict exactly; regrading it against a changed contract changes the
// verdict offline, and warns where the stored Observation cannot tell.
func TestRegrade(t *testing.T) {
	t.Parallel()
	runDir := t.TempDir()
	r := runE2E(t, nil, "run", "--suite", suiteDir, "--task", task01, "--task", "task-03", "--task", "task-10", "-j", "2", "--out", runDir)
	if r.code != exitOK {
		t.Fatalf("run: %s", r)
	}
	old := readReport(t, runDir)
	files, _ := filepath.Glob(filepath.Join(runDir, "*.json"))
	reportFile := files[0]

	// The same contracts: the same verdicts, evidence and reasons.
	r = run(t, nil, "regrade", "--suite", suiteDir, reportFile)
	if r.code != exitOK || !strings.Contains(r.stdout, "; 0 outcome(s) changed") {
		t.Fatalf("regrade: want exit 0 and no change, got %s", r)
	}
	same := readReport(t, filepath.Join(runDir, "regraded"))
	if same.Regraded == nil || same.Regraded.From != reportFile || same.Regraded.FromGitSHA != old.GitSHA || same.Regraded.Changed != 0 {
		t.Errorf("regraded %+v, want it to name %s and the run's sha %s", same.Regraded, reportFile, old.GitSHA)
	}
	for i := range old.Results {
		o, n := old.Results[i], same.Results[i]
		if o.Outcome != n.Outcome || o.Reason != n.Reason || o.Failed.String() != n.Failed.String() || !reflect.DeepEqual(o.Evidence, n.Evidence) {
			t.Errorf("%s: regraded %s %q %q, was %s %q %q (or the evidence differs)", o.Task, n.Outcome, n.Failed.String(), n.Reason,
				o.Outcome, o.Failed.String(), o.Reason)
		}
	}

	// A contract fixed after the run: task-01 now also wants a paragraph
	// saying something the page does not say.
	suite := t.TempDir()
	if err := os.Mkdir(filepath.Join(suite, "tasks"), 0o755); err != nil {
		t.Fatal(err)
	}
	spec, err := os.ReadFile(filepath.Join(suiteDir, "tasks", task01+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(spec), "  - kind: no_dialog\n",
		"  - kind: no_dialog\n  - kind: dom_text\n    selector: p\n    contains: not on the page\n", 1)
	if err := os.WriteFile(filepath.Join(suite, "tasks", task01+".yaml"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	r = run(t, nil, "regrade", "--suite", suite, "--out", out, reportFile)
	if r.code != exitFailed || !hasLine(r.stdout, task01+": passed -> failed") {
		t.Fatalf("regrade with the changed contract: want exit 1 and task-01 passed -> failed, got %s", r)
	}
	for _, want := range []string{
		`task-01-example-com-title: the contract names selector "p", which the stored Observation lacks`,
		"task-03-wikipedia-eiffel-height: not in the suite at " + suite + "; kept as it was",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks the warning %q:\n%s", want, r.stderr)
		}
	}
	rep := readReport(t, out)
	if rep.Results[0].Failed.String() != "postconditions[5] (dom_text)" || rep.Regraded.Changed != 1 {
		t.Errorf("task-01 regraded with failed clause %q, %d changed; want postconditions[5] (dom_text), 1", rep.Results[0].Failed.String(), rep.Regraded.Changed)
	}
	md := readFile(t, out, "*.md")
	if !strings.Contains(md, "- regraded: from `"+reportFile+"`") || !strings.Contains(md, "warning: task-01-example-com-title: the contract names selector") {
		t.Errorf("the Markdown report does not say it was regraded, or lacks the warning:\n%s", md)
	}
}

func TestRegradeBadInput(t *testing.T) {
	t.Parallel()
	bad := filepath.Join(t.TempDir(), "bad.json")
	data, _ := json.Marshal(map[string]any{"schema_version": 1, "surprise": true})
	if err := os.WriteFile(bad, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"regrade"}, {"regrade", bad}, {"regrade", bad + ".missing"}} {
		r := run(t, nil, args...)
		if r.code != exitUsage {
			t.Errorf("%q: want exit %d, got %s", args, exitUsage, r)
		}
	}
	r := run(t, nil, "regrade", bad)
	if !strings.Contains(r.stderr, bad) || !strings.Contains(r.stderr, "surprise") {
		t.Errorf("the error should name the file and the field, got %s", r)
	}
}

// v1Report is a report of schema_version 1 as that version's run wrote it,
// and v1Suite the tasks it ran (../report/testdata/v1/README.md).
const (
	v1Report = "../report/testdata/v1/d198bffdb656-dirty-replay-builtin-replay-5tasks-d23699a7.json"
	v1Suite  = "../report/testdata/v1/suite"
)

// Regrading a version 1 report against the contracts it was judged by
// keeps every outcome, reason and failed clause, and writes version 2: the
// stop and the drift it reads from the old report decide as the runner
// did. The stale transcript's verdict, which version 1 kept beside its
// outcome, is cleared.
func TestRegradeVersion1Report(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	r := run(t, nil, "regrade", "--suite", v1Suite, "--out", out, v1Report)
	if r.code != exitFailed || !strings.Contains(r.stdout, "regraded 5 result(s) from "+v1Report+"; 0 outcome(s) changed") {
		t.Fatalf("regrade: want exit 1 (not every result passed) and no change, got %s", r)
	}
	f, err := os.Open(v1Report)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	old, err := report.ReadJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	if raw := readFile(t, out, "*.json"); !strings.HasPrefix(raw, "{\n  \"schema_version\": 2,") {
		t.Errorf("the regraded report is not version 2: %.40q", raw)
	}
	regraded := readReport(t, out)
	for i, o := range old.Results {
		n := regraded.Results[i]
		if n.Outcome != o.Outcome || n.Reason != o.Reason || n.Failed.String() != o.Failed.String() || n.Stop != o.Stop {
			t.Errorf("%s: regraded %s %q, failed %q, stop %+v; was %s %q, failed %q, stop %+v", o.Task,
				n.Outcome, n.Reason, n.Failed, n.Stop, o.Outcome, o.Reason, o.Failed, o.Stop)
		}
		switch {
		case o.Stop.Stale && (n.Evidence != nil || n.Failed != nil):
			t.Errorf("%s: a stale transcript keeps the judge's verdict of the start page", o.Task)
		case !o.Stop.Stale && !reflect.DeepEqual(n.Evidence, o.Evidence):
			t.Errorf("%s: the evidence changed", o.Task)
		}
	}
}
