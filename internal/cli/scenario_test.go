package cli

// The seed's verification scenarios 1, 2 and 5, run through the CLI with
// the replay agent: reproducibility, the contract as the only judge, and
// the CI regression gate.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"contractbench/internal/report"
	"contractbench/internal/report/reporttest"
	"contractbench/internal/suite"
	"contractbench/internal/transcript"
)

// suiteRunArgs runs every task of the suite, gated, reporting into out.
func suiteRunArgs(out string, more ...string) []string {
	return append([]string{"run", "--suite", suiteDir, "--gate", "-j", "2", "--out", out}, more...)
}

// allTaskIDs lists the suite's tasks.
func allTaskIDs(t *testing.T) []string {
	t.Helper()
	s, err := suite.Load(suiteDir)
	if err != nil {
		t.Fatal(err)
	}
	return s.IDs()
}

// baseline is the suite's committed gate.
func baseline(t *testing.T) *report.Baseline {
	t.Helper()
	b, err := report.LoadBaseline(filepath.Join(suiteDir, "baseline.json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Scenarios 1 and 5 (first half): the unmodified suite passes the gate, and
// two replay runs of it give the same report once the clock is taken out.
// Anything else that differs between the two is a reproducibility bug,
// reported with its JSON path. The two runs go one after the other: a run
// keeps two cores busy, and on a starved machine a page that has not
// settled within the tool server's bound changes the reply's bytes. The
// first runs in-process, so that a whole suite at -j 2 is played under the
// race detector; the second is the built binary, as a user runs it.
func TestReplayedSuite(t *testing.T) {
	t.Parallel()
	var runs [2]result
	var dirs [2]string
	for i, play := range []func(*testing.T, map[string]string, ...string) result{runRaced, runE2E} {
		dirs[i] = t.TempDir()
		runs[i] = play(t, nil, suiteRunArgs(dirs[i])...)
	}

	t.Run("gate passes", func(t *testing.T) {
		b := baseline(t)
		passed := fmt.Sprintf("gate: passed (%d / %d)", b.ExpectedPassCount, len(b.Tasks))
		for i, r := range runs {
			if r.code != exitOK {
				t.Errorf("run %d: run --gate on the unmodified suite: want exit 0, got:\n%v", i+1, r)
				continue
			}
			if !hasLine(r.stdout, passed) {
				t.Errorf("run %d: stdout lacks the line %q:\n%s", i+1, passed, r.stdout)
			}
			for _, id := range allTaskIDs(t) {
				if !hasLine(r.stdout, id+": passed") {
					t.Errorf("run %d: stdout lacks the line %q", i+1, id+": passed")
				}
			}
		}
		rep := readReport(t, dirs[0])
		if rep.Incomplete {
			t.Errorf("%s: report marked incomplete", dirs[0])
		}
		for _, res := range rep.Results {
			if res.Outcome != report.OutcomePassed || res.Drift() != "" || len(res.WebMisses) > 0 {
				t.Errorf("%s: outcome %s, drift %q, web misses %q; want passed with neither", res.Task, res.Outcome, res.Drift(), res.WebMisses)
			}
			// --trace auto traces every step of a run of up to 20 task
			// attempts; beyond that only the steps of tasks that did not
			// pass, so a passed task of the thirty has none.
			for _, c := range res.Calls {
				th := c.Thumbnail
				switch {
				case len(rep.Results) > 20 && th != nil:
					t.Errorf("%s: call %d (%s): thumbnail %+v in a run of %d passed tasks, want none", res.Task, c.Seq, c.Tool, th, len(rep.Results))
				case len(rep.Results) <= 20 && (th == nil || (th.File == "") == (th.Error == "")):
					t.Errorf("%s: call %d (%s): thumbnail %+v, want a file or why there is none", res.Task, c.Seq, c.Tool, th)
				}
			}
		}
		if html, _ := filepath.Glob(filepath.Join(dirs[0], "*.html")); len(html) != 1 {
			t.Errorf("%s: HTML reports %q, want one", dirs[0], html)
		}
	})

	t.Run("reports reproducible", func(t *testing.T) {
		a, b := normalized(t, dirs[0]), normalized(t, dirs[1])
		if !bytes.Equal(a, b) {
			t.Errorf("the normalized reports of two replay runs differ (%s vs %s):\n%s",
				dirs[0], dirs[1], strings.Join(jsonDiff(t, a, b), "\n"))
		}
	})
}

// normalized returns the report in dir, normalized and re-encoded.
func normalized(t *testing.T, dir string) []byte {
	t.Helper()
	r := readReport(t, dir)
	if len(r.Results) == 0 {
		t.Fatalf("%s: the report has no results", dir)
	}
	reporttest.Normalize(r)
	var b bytes.Buffer
	if err := report.WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// jsonDiff lists the paths at which two JSON documents differ, with both
// values, at most 20 of them.
func jsonDiff(t *testing.T, a, b []byte) []string {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(path string, x, y any)
	walk = func(path string, x, y any) {
		if len(out) >= 20 {
			return
		}
		switch xv := x.(type) {
		case map[string]any:
			yv, ok := y.(map[string]any)
			if !ok {
				break
			}
			keys := slices.Sorted(maps.Keys(xv))
			for k := range yv {
				if _, ok := xv[k]; !ok {
					keys = append(keys, k)
				}
			}
			for _, k := range keys {
				walk(path+"."+k, xv[k], yv[k])
			}
			return
		case []any:
			yv, ok := y.([]any)
			if !ok || len(xv) != len(yv) {
				break
			}
			for i := range xv {
				walk(fmt.Sprintf("%s[%d]", path, i), xv[i], yv[i])
			}
			return
		}
		xs, _ := json.Marshal(x)
		ys, _ := json.Marshal(y)
		if !bytes.Equal(xs, ys) {
			out = append(out, fmt.Sprintf("  %s: %.200s vs %.200s", path, xs, ys))
		}
	}
	walk("", va, vb)
	return out
}

// Scenario 5, second half: one transcript mutated so that task-03 searches
// for another article makes the gate fail, naming the task, the failing
// clause and what the judge saw, while its neighbours, run beside it
// with their own transcripts, pass. (TestReplayedSuite runs the whole
// suite twice; this gate covers the three tasks selected.)
func TestGateFailsOnAMutatedTranscript(t *testing.T) {
	t.Parallel()
	const mutated = "task-03-wikipedia-eiffel-height"
	transcripts := t.TempDir()
	ids := allTaskIDs(t)
	i := slices.Index(ids, mutated)
	if i < 1 || i+1 >= len(ids) {
		t.Fatalf("%s has no neighbours in %q", mutated, ids)
	}
	others := []string{ids[i-1], ids[i+1]}
	linkTranscripts(t, transcripts, others...)
	writeEdited(t, transcripts, mutated, func(tr *transcript.Transcript) {
		i := slices.IndexFunc(tr.Calls, func(c transcript.Call) bool { return c.Tool == "type" })
		if i < 0 {
			t.Fatalf("%s: no type call to mutate", mutated)
		}
		tr.Calls[i].Args = json.RawMessage(`{"ref":"e4","submit":true,"text":"Speed of light"}`)
	})

	r := runE2E(t, nil, suiteRunArgs(t.TempDir(), "--transcripts", transcripts, "--task", ids[i-1], "--task", mutated, "--task", ids[i+1])...)
	if r.code != exitFailed {
		t.Fatalf("run --gate with a mutated transcript: want exit %d, got:\n%v", exitFailed, r)
	}
	verdict := fmt.Sprintf("gate: FAILED (1 of 3 covered tasks, the 3 of the baseline's %d that were selected)", len(baseline(t).Tasks))
	if !hasLine(r.stdout, verdict) {
		t.Errorf("stdout lacks the gate's verdict %q:\n%s", verdict, r.stdout)
	}
	// The gate's own line: task, outcome, clause, then the evidence.
	prefix := "  " + mutated + ": failed | failed_postcondition: postconditions[0] (url) | "
	gateLine := lineWithPrefix(r.stdout, prefix)
	if gateLine == "" {
		t.Fatalf("stdout has no gate line starting %q:\n%s", prefix, r.stdout)
	}
	if !strings.Contains(gateLine, "https://en.wikipedia.org/wiki/Speed_of_light") {
		t.Errorf("gate line %q does not show the URL the judge saw (.../wiki/Speed_of_light)", gateLine)
	}
	for _, id := range others {
		if !hasLine(r.stdout, id+": passed") {
			t.Errorf("stdout lacks %q: one mutated transcript must not affect the other tasks", id+": passed")
		}
	}
}

// Scenario 2: the contract evaluator is the only judge. Whatever the
// transcript claims, the browser's final state decides, and drift is never
// silently tolerated.
func TestTheContractJudges(t *testing.T) {
	t.Parallel()
	const wrongURL = `{"url":"https://wrong.example/"}`
	tests := []struct {
		name string
		// prepare writes task-01's transcript into the folder.
		prepare     func(t *testing.T, dir string)
		wantOutcome report.Outcome
		wantLine    string
		wantClause  string
		wantDrift   string // a substring of the result's drift; "" wants none
	}{
		{
			// A consistent recording that navigates to a host that does
			// not exist and then claims the heading was found.
			name: "wrong URL, digests consistent",
			prepare: func(t *testing.T, dir string) {
				writeEdited(t, dir, task01, func(tr *transcript.Transcript) {
					tr.Calls[0].Args = json.RawMessage(wrongURL)
					tr.Calls[0].ResponseKind = transcript.ResponseError // the host does not resolve
					tr.Final.Answer = task01Answer
				})
			},
			wantOutcome: report.OutcomeFailed,
			wantLine:    task01 + ": failed | failed_postcondition: postconditions[0] (url)",
			wantClause:  "postconditions[0] (url)",
		},
		{
			// The browser ends where it should, but read_page no longer
			// answers as recorded: drift, never passed.
			name: "passing state, drifting replay",
			prepare: func(t *testing.T, dir string) {
				writeEdited(t, dir, task01, func(tr *transcript.Transcript) {
					tr.Calls[1].ResponseKind = transcript.ResponseError
				})
			},
			wantOutcome: report.OutcomeReplayDrift,
			wantLine:    task01 + ": replay_drift",
			wantDrift:   "read_page answered ok, the recording says error",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			transcripts, out := t.TempDir(), t.TempDir()
			tc.prepare(t, transcripts)
			r := runE2E(t, nil, "run", "--suite", suiteDir, "--task", task01, "--transcripts", transcripts, "--out", out)
			if r.code != exitFailed {
				t.Fatalf("want exit %d, got:\n%v", exitFailed, r)
			}
			// The line may go on with a hint (" | re-record with: ...").
			if lineWithPrefix(r.stdout, tc.wantLine) == "" {
				t.Errorf("stdout lacks a line starting %q:\n%s", tc.wantLine, r.stdout)
			}
			res := onlyResult(t, readReport(t, out))
			if res.Outcome != tc.wantOutcome {
				t.Errorf("report: outcome %s, want %s (reason %q)", res.Outcome, tc.wantOutcome, res.Reason)
			}
			if res.Failed.String() != tc.wantClause {
				t.Errorf("report: failed_postcondition %q, want %q", res.Failed.String(), tc.wantClause)
			}
			switch {
			case tc.wantDrift == "" && res.Drift() != "":
				t.Errorf("report: drift %q, want none", res.Drift())
			case !strings.Contains(res.Drift(), tc.wantDrift):
				t.Errorf("report: drift %q, want it to contain %q", res.Drift(), tc.wantDrift)
			}
			if res.Observation == nil {
				t.Fatal("report: no observation: the judge did not grade")
			}
			if tc.wantClause == "" {
				if len(res.Evidence) == 0 {
					t.Error("report: no evidence: the contract was not evaluated")
				}
				for _, e := range res.Evidence {
					if !e.Passed {
						t.Errorf("report: %s (%s) failed (saw %s); the state was meant to pass", e.Path, e.Kind, e.Seen)
					}
				}
				return
			}
			// The failure is the judge's: contract.Evaluate is named and
			// the URL clause shows what the browser really ended on.
			if !strings.Contains(r.stdout, "judged by contract.Evaluate on the browser's final state:") {
				t.Errorf("stdout does not name the judge (contract.Evaluate):\n%s", r.stdout)
			}
			evidence := `  postconditions[0] (url): expected URL matches ^https://example\.com/$; saw ` + res.Observation.URL
			if !hasLine(r.stdout, evidence) {
				t.Errorf("stdout lacks the evidence line %q:\n%s", evidence, r.stdout)
			}
			if strings.HasPrefix(res.Observation.URL, "https://example.com/") {
				t.Errorf("report: final URL %s, but the edited transcript never loads example.com", res.Observation.URL)
			}
		})
	}
}
