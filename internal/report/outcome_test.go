package report

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"contractbench/internal/contract"
)

// The verdicts the outcome tables are decided with.
var (
	passing = contract.Verdict{Passed: true, Evidence: []contract.Evidence{
		{Path: "postconditions[0]", Kind: contract.KindURL, Passed: true, Expected: "URL matches ^https://a\\.test/$", Seen: "https://a.test/"},
	}}
	failing = contract.Verdict{FailedPath: "postconditions[1]", FailedKind: contract.KindOr, Evidence: []contract.Evidence{
		{Path: "postconditions[0]", Kind: contract.KindURL, Passed: true, Expected: "URL matches ^https://a\\.test/$", Seen: "https://a.test/"},
		{Path: "postconditions[1].children[0]", Kind: contract.KindDOMText, Expected: `visible text of h1 contains "A"`, Seen: "h1: 1 match"},
		{Path: "postconditions[1].children[1]", Kind: contract.KindDOMText, Expected: `visible text of h1 contains "B"`, Seen: "h1: 1 match"},
	}}
	unsettled = contract.Verdict{FailedPath: "postconditions[0]", FailedKind: contract.KindURL, Evidence: passing.Evidence,
		Unstable: "the contract held when the agent stopped but not 500 ms of the page's time later (postconditions[0] (url)): a transient state never passes"}
)

// Every combination of how the agent stopped, what the judge saw, a taint,
// the trust label, web misses and web faults decides one outcome and one
// reason.
func TestDecideEveryCombination(t *testing.T) {
	t.Parallel()
	const (
		drift     = "replay drift at seq 2: read_page answered error, the recording says ok"
		staleText = "replay drift: the transcript is stale: it was recorded for task digest sha256:1"
		budget    = "budget exceeded: max_tool_iterations: 51 tool calls, cap 50"
		broken    = "tool server: mcp: call navigate: connection closed"
		misses    = "replay misses: GET https://a.test/x, GET https://a.test/y"
		taint     = "call 2 used evaluate_script, which runs page script: a tainted result never counts as passed"
		signal    = "tamper signal: the final URL was never loaded"
	)
	verdicts := map[string]contract.Verdict{"holds": passing, "fails": failing, "unsettled": unsettled}
	// The outcome of each stop and verdict, alone, with a taint, for an
	// unrestricted agent, and with both; and the reason alone.
	type row struct {
		stop     Stop
		verdict  string
		outcomes [4]Outcome
		reason   string
	}
	const (
		P, F, D, B, T, E, X, I = OutcomePassed, OutcomeFailed, OutcomeReplayDrift, OutcomeBudgetExceeded,
			OutcomeTimeout, OutcomeError, OutcomeTainted, OutcomeInterrupted
	)
	rows := []row{
		{Stop{Kind: StopAnswer}, "holds", [4]Outcome{P, X, X, X}, ""},
		{Stop{Kind: StopAnswer}, "fails", [4]Outcome{F, X, F, X}, ""},
		{Stop{Kind: StopAnswer}, "unsettled", [4]Outcome{F, X, F, X}, unsettled.Unstable},
		{Stop{Kind: StopDrift, Error: drift}, "holds", [4]Outcome{D, X, D, X}, drift},
		{Stop{Kind: StopDrift, Error: drift}, "fails", [4]Outcome{F, X, F, X}, "contract failed; replay also drifted: " + drift},
		{Stop{Kind: StopDrift, Error: drift}, "unsettled", [4]Outcome{F, X, F, X}, "contract failed; replay also drifted: " + drift},
		{Stop{Kind: StopDrift, Error: staleText, Stale: true}, "holds", [4]Outcome{D, X, D, X}, "transcript not replayed: " + staleText},
		{Stop{Kind: StopDrift, Error: staleText, Stale: true}, "fails", [4]Outcome{D, X, D, X}, "transcript not replayed: " + staleText},
		{Stop{Kind: StopDrift, Error: staleText, Stale: true}, "unsettled", [4]Outcome{D, X, D, X}, "transcript not replayed: " + staleText},
		{Stop{Kind: StopBudget, Error: budget}, "holds", [4]Outcome{B, X, B, X}, budget},
		{Stop{Kind: StopBudget, Error: budget}, "fails", [4]Outcome{B, X, B, X}, budget},
		{Stop{Kind: StopBudget, Error: budget}, "unsettled", [4]Outcome{B, X, B, X}, budget},
		{Stop{Kind: StopTimeout, Error: "context deadline exceeded"}, "holds", [4]Outcome{T, X, T, X}, "the task's timeout passed before the agent answered"},
		{Stop{Kind: StopTimeout, Error: "context deadline exceeded"}, "fails", [4]Outcome{T, X, T, X}, "the task's timeout passed before the agent answered"},
		{Stop{Kind: StopTimeout, Error: "context deadline exceeded"}, "unsettled", [4]Outcome{T, X, T, X}, "the task's timeout passed before the agent answered"},
		{Stop{Kind: StopError, Error: broken}, "holds", [4]Outcome{E, E, E, E}, broken},
		{Stop{Kind: StopError, Error: broken}, "fails", [4]Outcome{E, E, E, E}, broken},
		{Stop{Kind: StopError, Error: broken}, "unsettled", [4]Outcome{E, E, E, E}, broken},
		{Stop{Kind: StopInterrupted, Error: "context canceled"}, "holds", [4]Outcome{I, I, I, I}, "interrupted: the run was stopped before the agent finished"},
		{Stop{Kind: StopInterrupted, Error: "context canceled"}, "fails", [4]Outcome{I, I, I, I}, "interrupted: the run was stopped before the agent finished"},
		{Stop{Kind: StopInterrupted, Error: "context canceled"}, "unsettled", [4]Outcome{I, I, I, I}, "interrupted: the run was stopped before the agent finished"},
	}
	for _, r := range rows {
		for i, with := range []struct{ taint, trust bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
			for _, missed := range []bool{false, true} {
				f := facts{Verdict: verdicts[r.verdict], Stop: r.stop}
				if with.taint {
					f.Taint = &Taint{Seq: 2, Tool: "evaluate_script", Why: "runs page script"}
				}
				if with.trust {
					f.Trust, f.Signals = TrustUnrestricted, []string{"the final URL was never loaded"}
				}
				if missed {
					f.WebMisses = []string{"GET https://a.test/x", "GET https://a.test/y"}
				}
				name := fmt.Sprintf("%s%s, contract %s, taint %v, trust %v, misses %v", r.stop.Kind, map[bool]string{true: " (stale)"}[r.stop.Stale],
					r.verdict, with.taint, with.trust, missed)
				want := r.outcomes[i]
				// The reason is the stop's, then the misses (of a result
				// that did not pass), the taint, the trust label's
				// sentence (of a pass it made tainted) and the signals;
				// an interrupted attempt says only that.
				parts := []string{r.reason}
				if missed && r.outcomes[0] != P && want != I {
					parts = append(parts, misses)
				}
				if with.taint && want == X {
					parts = append(parts, taint)
				}
				if with.trust && r.outcomes[0] == P && !with.taint {
					parts = []string{"the contract held, but the agent held raw CDP access to the browser, " +
						"so it could have written the evidence itself: an unrestricted result never counts as passed"}
				}
				if with.trust && want != I {
					parts = append(parts, signal)
				}
				wantReason := joinReasons(parts...)
				got, reason := decideOutcome(f)
				if got != want || reason != wantReason {
					t.Errorf("%s:\n got %s, %q\nwant %s, %q", name, got, reason, want, wantReason)
				}
				// A web failed on purpose makes every attempt the run
				// did not interrupt an error of the harness.
				f.WebFaults = []string{"GET https://a.test/x (fault injected: 500)"}
				want, wantReason = E, "harness: the web failed on purpose (fault injection), so the attempt says nothing of the agent: GET https://a.test/x (fault injected: 500)"
				if r.stop.Kind == StopInterrupted {
					want, wantReason = I, r.reason
				}
				if got, reason := decideOutcome(f); got != want || reason != wantReason {
					t.Errorf("%s, web faults:\n got %s, %q\nwant %s, %q", name, got, reason, want, wantReason)
				}
			}
		}
	}
}

// A result decides from what it records, and a stale transcript's verdict
// does not stay behind to be named by one view and not another.
func TestResultDecide(t *testing.T) {
	t.Parallel()
	res := TaskResult{Stop: Stop{Kind: StopDrift, Error: "replay drift: stale", Stale: true}}
	res.SetVerdict(failing)
	res.Decide()
	if res.Outcome != OutcomeReplayDrift || res.Failed != nil || res.Evidence != nil {
		t.Errorf("stale transcript: %s, failed %s, %d evidence; want replay_drift and no verdict", res.Outcome, res.Failed, len(res.Evidence))
	}
	res = TaskResult{Stop: Stop{Kind: StopAnswer}}
	res.Decide()
	if res.Outcome != OutcomeFailed {
		t.Errorf("an answer the judge never graded is %s, want failed", res.Outcome)
	}
	res.SetVerdict(failing)
	if got := res.Verdict(); got.Passed || got.FailedPath != failing.FailedPath || got.FailedKind != failing.FailedKind {
		t.Errorf("Verdict() = %+v, want the recorded failure", got)
	}
	res.ClearVerdict()
	if res.Failed != nil || res.Evidence != nil || res.Verdict().Passed {
		t.Errorf("after ClearVerdict: failed %s, %d evidence, passed %v", res.Failed, len(res.Evidence), res.Verdict().Passed)
	}
}

// resultsOfEveryOutcome has a result of each outcome, each decided by
// decideOutcome from a verdict, failing where one can, and a stale drift whose
// failing verdict the judge did record.
func resultsOfEveryOutcome(t *testing.T) []TaskResult {
	t.Helper()
	cases := []struct {
		stop    Stop
		verdict contract.Verdict
		taint   *Taint
		want    Outcome
	}{
		{Stop{Kind: StopAnswer}, passing, nil, OutcomePassed},
		{Stop{Kind: StopAnswer}, failing, nil, OutcomeFailed},
		{Stop{Kind: StopDrift, Error: "replay drift at seq 2: x"}, failing, nil, OutcomeFailed},
		{Stop{Kind: StopDrift, Error: "replay drift at seq 2: x"}, passing, nil, OutcomeReplayDrift},
		{Stop{Kind: StopDrift, Error: "replay drift: stale", Stale: true}, failing, nil, OutcomeReplayDrift},
		{Stop{Kind: StopBudget, Error: "budget exceeded"}, failing, nil, OutcomeBudgetExceeded},
		{Stop{Kind: StopTimeout}, failing, nil, OutcomeTimeout},
		{Stop{Kind: StopError, Error: "tool server: closed"}, failing, nil, OutcomeError},
		{Stop{Kind: StopAnswer}, failing, &Taint{Seq: 1, Tool: "evaluate_script", Why: "runs page script"}, OutcomeTainted},
		{Stop{Kind: StopInterrupted}, failing, nil, OutcomeInterrupted},
	}
	var out []TaskResult
	seen := map[Outcome]bool{}
	for i, c := range cases {
		res := TaskResult{Task: fmt.Sprintf("task-%02d", i+1), Attempt: 1, Stop: c.stop, Taint: c.taint, Observation: &contract.Observation{URL: "https://a.test/"}}
		res.SetVerdict(c.verdict)
		res.Decide()
		if res.Outcome != c.want {
			t.Fatalf("%s: decided %s, want %s", res.Task, res.Outcome, c.want)
		}
		seen[res.Outcome] = true
		out = append(out, res)
	}
	for _, o := range Outcomes {
		if !seen[o] {
			t.Fatalf("no result is %s", o)
		}
	}
	return out
}

// The HTML and the Markdown of the same run name the same failed clause
// for every result, whatever its outcome: in the Markdown's table and
// section, in the HTML's table, section and evidence tree, where the only
// combinators marked failed are the named clause and those around it.
func TestViewsNameTheSameFailedClause(t *testing.T) {
	t.Parallel()
	v1, _ := readV1(t)
	runs := map[string]*Run{
		"every outcome":      {SchemaVersion: SchemaVersion, Results: resultsOfEveryOutcome(t)},
		"a version 1 report": v1,
	}
	for name, r := range runs {
		var md, page strings.Builder
		if err := WriteMarkdown(&md, r); err != nil {
			t.Fatal(err)
		}
		if err := WriteHTML(&page, r); err != nil {
			t.Fatal(err)
		}
		hp, err := newHTMLPage(r)
		if err != nil {
			t.Fatal(err)
		}
		for i, res := range r.Results {
			want := res.Failed.String()
			named := map[string]string{
				"Markdown table":   find(md.String(), `(?m)^\| `+regexp.QuoteMeta(res.Task)+` \| [^|]* \| \d+ \| \d+ \| \d+ \| `+"`?([^|`]*)`?"+` \|`),
				"Markdown section": find(section(md.String(), "### "+res.Task+": ", "\n### "), "(?m)^- failed_postcondition: `([^`]*)`$"),
				"HTML table":       find(page.String(), `<a href="#`+ResultAnchor(i)+`">.*<td class="mono">([^<]*)</td></tr>`),
				"HTML section":     find(section(page.String(), `<section class="task" id="`+ResultAnchor(i)+`"`, "</section>"), `<code class="failed-clause">([^<]*)</code>`),
			}
			for view, got := range named {
				if got != want {
					t.Errorf("%s: %s (%s): the %s names %q, the result %q", name, res.Task, res.Outcome, view, got, want)
				}
			}
			walk(hp.Results[i].Tree, func(n *evidenceNode) {
				named := res.Failed != nil && (n.Path == res.Failed.Path || under(res.Failed.Path, n.Path))
				if !n.Leaf && (n.State == "failed") != named {
					t.Errorf("%s: %s (%s): the HTML tree marks %s %s, the clause named is %q", name, res.Task, res.Outcome, n.Path, n.State, want)
				}
			})
		}
	}
}

// readV1 reads the stored version 1 report and returns it with its
// Markdown as that version wrote it.
func readV1(t *testing.T) (*Run, []byte) {
	t.Helper()
	const base = "testdata/v1/d198bffdb656-dirty-replay-builtin-replay-5tasks-d23699a7"
	f, err := os.Open(base + ".json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ReadJSON(f)
	if err != nil {
		t.Fatalf("ReadJSON of a version 1 report: %v", err)
	}
	md, err := os.ReadFile(base + ".md")
	if err != nil {
		t.Fatal(err)
	}
	return r, md
}

// A report of schema_version 1, written by that version's runner, is read
// as version 2: the failed clause the version's views named, the stop and
// the drift as data, its outcomes and reasons as Decide gives them from
// that data, and its Markdown the same bytes.
func TestReadVersion1(t *testing.T) {
	t.Parallel()
	r, md := readV1(t)
	if r.SchemaVersion != SchemaVersion {
		t.Errorf("schema_version %d after reading, want %d", r.SchemaVersion, SchemaVersion)
	}
	want := map[string]struct {
		outcome Outcome
		stop    StopKind
		stale   bool
		failed  string
	}{
		"task-01-example-com-title":                {OutcomeFailed, StopAnswer, false, "postconditions[0] (url)"},
		"task-04-rfc-9110-section-9-title":         {OutcomePassed, StopAnswer, false, ""},
		"task-12-gutenberg-pride-and-prejudice":    {OutcomeFailed, StopDrift, false, "postconditions[0] (url)"},
		"task-22-python-genindex-functools-reduce": {OutcomeReplayDrift, StopDrift, true, ""},
		"task-28-gutenberg-browse-frankenstein":    {OutcomeReplayDrift, StopDrift, false, ""},
	}
	if len(r.Results) != len(want) {
		t.Fatalf("%d results, want %d", len(r.Results), len(want))
	}
	for _, res := range r.Results {
		w := want[res.Task]
		if res.Outcome != w.outcome || res.Stop.Kind != w.stop || res.Stop.Stale != w.stale || res.Failed.String() != w.failed {
			t.Errorf("%s: %s, stop %+v, failed %q; want %s, stop %s (stale %v), failed %q",
				res.Task, res.Outcome, res.Stop, res.Failed, w.outcome, w.stop, w.stale, w.failed)
		}
		f := facts{Verdict: res.Verdict(), Stop: res.Stop, Taint: res.Taint, Trust: res.Trust, WebMisses: res.WebMisses}
		if o, reason := decideOutcome(f); o != res.Outcome || reason != res.Reason {
			t.Errorf("%s: its data decides %s, %q; it was written %s, %q", res.Task, o, reason, res.Outcome, res.Reason)
		}
	}
	var b strings.Builder
	if err := WriteMarkdown(&b, r); err != nil {
		t.Fatal(err)
	}
	// Views have since added numbers they derive from the results; all
	// else is as that version wrote it.
	got := sinceVersion1.ReplaceAllString(b.String(), "")
	if got != string(md) {
		t.Errorf("the version 1 report renders another Markdown than it was written with:\n%s", firstDiff(string(md), got))
	}
}

// sinceVersion1 matches what the Markdown view has added since version 1
// reports were written: the smallest detectable difference.
var sinceVersion1 = regexp.MustCompile(`(?m)^(Smallest detectable difference|Denominator): .*\n\n`)

// Whatever version 1 wrote from its stop, taint, trust and misses,
// upgrading gives them back: the combinations of TestDecideEveryCombination,
// written as version 1 wrote them, decide again the outcome and reason they
// were written with.
func TestUpgradeVersion1(t *testing.T) {
	t.Parallel()
	stops := []Stop{
		{Kind: StopAnswer},
		{Kind: StopDrift, Error: "replay drift at seq 2: read_page answered error"},
		{Kind: StopDrift, Error: "replay drift: the transcript is stale", Stale: true},
		{Kind: StopBudget, Error: "budget exceeded: max_usd: spent $0.51, cap $0.50"},
		{Kind: StopTimeout},
		{Kind: StopError, Error: "browser: ended during the task"},
		{Kind: StopInterrupted},
	}
	forged := &contract.Observation{URL: "https://a.test/forged", Network: []contract.NetworkEntry{{URL: "https://a.test/", ResourceType: "Document"}}}
	for _, stop := range stops {
		for _, v := range []contract.Verdict{passing, failing, unsettled} {
			for _, taint := range []*Taint{nil, {Seq: 3, Tool: "evaluate_script", Why: "runs page script, which can rewrite the page"}} {
				for _, trust := range []string{"", TrustUnrestricted} {
					for _, misses := range [][]string{nil, {"GET https://a.test/x"}} {
						res := TaskResult{Stop: stop, Taint: taint, Trust: trust, WebMisses: misses, Observation: forged}
						res.SetVerdict(v)
						res.Decide()
						// Version 1 wrote the drift apart and the clause
						// as a string, and nothing of the stop or taint.
						old := v1Result{TaskResult: res, Drift: res.Drift(), FailedPostcondition: res.Failed.String()}
						if res.Failed != nil {
							old.FailedPath, old.FailedKind = res.Failed.Path, res.Failed.Kind
						}
						old.Stop, old.Taint, old.Failed = Stop{}, nil, nil
						got := old.upgrade()
						name := fmt.Sprintf("%+v, verdict failed %q, taint %v, trust %q, misses %q: %s", stop, v.FailedClause(), taint != nil, trust, misses, res.Outcome)
						f := facts{Verdict: got.Verdict(), Stop: got.Stop, Taint: got.Taint, Trust: got.Trust, WebMisses: got.WebMisses}
						if trust != "" {
							f.Signals = TamperSignals(got.Observation)
						}
						if o, reason := decideOutcome(f); o != res.Outcome || reason != res.Reason {
							t.Errorf("%s:\nupgraded decides %s, %q\n   written as %s, %q", name, o, reason, res.Outcome, res.Reason)
						}
						if res.Outcome == OutcomeTainted && taint != nil && (got.Taint == nil || *got.Taint != *taint) {
							t.Errorf("%s: taint %+v, want %+v", name, got.Taint, taint)
						}
					}
				}
			}
		}
	}
}

// find returns the first group of the first match of pattern in s; "" for
// none.
func find(s, pattern string) string {
	if m := regexp.MustCompile(pattern).FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}

// section returns the part of s after start and before the next end; ""
// when s has no start.
func section(s, start, end string) string {
	_, after, ok := strings.Cut(s, start)
	if !ok {
		return ""
	}
	before, _, _ := strings.Cut(after, end)
	return before
}

// walk calls f on every node of the tree.
func walk(nodes []*evidenceNode, f func(*evidenceNode)) {
	for _, n := range nodes {
		f(n)
		walk(n.Children, f)
	}
}
