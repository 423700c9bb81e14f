package cli

// The sandbox suite end to end: its gate, the state each task starts from,
// its near-miss controls, a do-nothing agent, and the web modes it
// refuses.

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"contractbench/internal/contract"
	"contractbench/internal/llm/llmfake"
	"contractbench/internal/report"
	"contractbench/internal/suite"
)

const (
	sandboxDir    = "../../benchmarks/sandbox"
	controlsDir   = "../../benchmarks/sandbox/controls"
	alternatesDir = "../../benchmarks/sandbox/alternates"
)

// TestSandbox runs the sandbox's end-to-end checks one after the other:
// each runs two browsers at a time, and the package's other end-to-end
// tests run beside them.
func TestSandbox(t *testing.T) {
	t.Parallel()
	t.Run("refuses the network", testSandboxRefusesTheNetwork)
	t.Run("state per task", testSandboxStatePerTask)
	t.Run("near-miss controls", testSandboxControls)
	t.Run("alternates", testSandboxAlternates)
	t.Run("a do-nothing agent scores 0", testSandboxDoNothing)
	t.Run("web check", testSandboxWebCheck)
}

// sandboxWriters are tasks, one per site, whose write creates the first
// numbered thing of the site (order SH-1001, booking BK-2041) or adds to
// a count the contract checks (the user's posts in a thread): a state
// left by any other attempt changes what they see.
var sandboxWriters = []string{
	"sandbox-01-shop-cheapest-rated-kitchen",
	"sandbox-06-stays-second-free-night",
	"sandbox-10-forum-reply",
}

// testSandboxStatePerTask runs the writers once, then again at -j 2
// --repeat 3: every attempt must pass with the evidence of the first run,
// clause for clause. A cart, order, booking or post that leaked from one
// attempt into another would change a number the contracts check. (The
// whole suite's gate is make bench's.)
func testSandboxStatePerTask(t *testing.T) {
	s, err := suite.Load(sandboxDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tasks) < 12 {
		t.Errorf("the sandbox has %d tasks, want at least 12", len(s.Tasks))
	}
	run := func(more ...string) *report.Run {
		t.Helper()
		out := t.TempDir()
		args := append([]string{"run", "--suite", sandboxDir, "-j", "2", "--out", out}, more...)
		for _, id := range sandboxWriters {
			args = append(args, "--task", id)
		}
		if r := runE2E(t, nil, args...); r.code != exitOK {
			t.Fatalf("%q: want exit 0, got:\n%v", args, r)
		}
		return readReport(t, out)
	}
	evidence := map[string][]contract.Evidence{}
	for _, res := range run().Results {
		if res.Outcome != report.OutcomePassed || len(res.WebMisses) > 0 {
			t.Errorf("%s: %s (%s), misses %q; want passed", res.Task, res.Outcome, res.Reason, res.WebMisses)
		}
		evidence[res.Task] = res.Evidence
	}
	results := run("--repeat", "3").Results
	if len(results) != 3*len(sandboxWriters) {
		t.Fatalf("want %d results, got %d", 3*len(sandboxWriters), len(results))
	}
	for _, res := range results {
		if res.Outcome != report.OutcomePassed {
			t.Errorf("%s attempt %d: %s (%s); want passed", res.Task, res.Attempt, res.Outcome, res.Reason)
			continue
		}
		if !reflect.DeepEqual(res.Evidence, evidence[res.Task]) {
			t.Errorf("%s attempt %d: evidence differs from the first run's:\n got %+v\nwant %+v", res.Task, res.Attempt, res.Evidence, evidence[res.Task])
		}
	}
}

// testSandboxControls replays the near-miss controls (benchmarks/sandbox/
// controls): each is a sandbox task with its instruction and contract
// unchanged and a reference solution that misses in one way, recorded
// with the tool. Each must fail, on the clause meant to catch it.
func testSandboxControls(t *testing.T) {
	want := map[string]string{
		"sandbox-01-shop-cheapest-rated-kitchen--wrong-item":        "postconditions[0] (network)",
		"sandbox-01-shop-cheapest-rated-kitchen--also-unsubscribed": "postconditions[1] (network)",
		"sandbox-01-shop-cheapest-rated-kitchen--second-order":      "postconditions[1] (network)",
		"sandbox-02-shop-three-trowels--wrong-quantity":             "postconditions[0] (network)",
		"sandbox-04-shop-cancel-order--wrong-order":                 "postconditions[0] (network)",
		"sandbox-05-shop-change-address--saved-then-changed":        "postconditions[1] (network)",
		"sandbox-05-shop-change-address--also-emails":               "postconditions[1] (network)",
		"sandbox-06-stays-second-free-night--first-free-night":      "postconditions[0] (network)",
		"sandbox-06-stays-second-free-night--booked-twice":          "postconditions[1] (network)",
		"sandbox-10-forum-reply--draft-not-sent":                    "postconditions[0] (network)",
		"sandbox-10-forum-reply--sent-twice":                        "postconditions[0] (network)",
	}
	controls, err := suite.Load(controlsDir)
	if err != nil {
		t.Fatal(err)
	}
	if got := controls.IDs(); len(got) != len(want) {
		t.Fatalf("controls %q; this test knows %d", got, len(want))
	}
	onlyTheReferenceDiffers(t, controls)

	out := t.TempDir()
	r := runE2E(t, nil, "run", "--suite", controlsDir, "-j", "2", "--out", out)
	if r.code != exitFailed {
		t.Fatalf("the controls: want exit %d, got:\n%v", exitFailed, r)
	}
	for _, res := range readReport(t, out).Results {
		if res.Outcome != report.OutcomeFailed || res.Failed.String() != want[res.Task] || res.Drift() != "" {
			t.Errorf("%s: %s on %q (drift %q); want failed on %q, no drift", res.Task, res.Outcome, res.Failed.String(), res.Drift(), want[res.Task])
		}
		line := res.Task + ": failed | failed_postcondition: " + want[res.Task]
		if !hasLine(r.stdout, line) {
			t.Errorf("stdout lacks %q", line)
		}
	}
}

// onlyTheReferenceDiffers checks that every task of variants (controls or
// alternates) is a sandbox task with only its reference changed.
func onlyTheReferenceDiffers(t *testing.T, variants *suite.Suite) {
	t.Helper()
	tasks, err := suite.Load(sandboxDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range variants.Tasks {
		id, _, _ := strings.Cut(c.ID, "--")
		orig, ok := tasks.Task(id)
		if !ok {
			t.Errorf("%s: no sandbox task %s", c.File, id)
			continue
		}
		if c.Instruction != orig.Instruction || c.StartURL != orig.StartURL || !sameJSON(t, c.Postconditions, orig.Postconditions) {
			t.Errorf("%s: instruction, start URL or contract differ from %s; only the reference may change", c.File, orig.File)
		}
	}
}

// testSandboxAlternates replays the alternates (benchmarks/sandbox/
// alternates): each is a sandbox task with its instruction and contract
// unchanged and a reference that reaches the asked outcome another
// reasonable way, recorded with the tool. Each must pass, without drift.
func testSandboxAlternates(t *testing.T) {
	if files, _ := filepath.Glob(filepath.Join(alternatesDir, "tasks", "*.yaml")); len(files) == 0 {
		t.Skip("no alternates yet")
	}
	alternates, err := suite.Load(alternatesDir)
	if err != nil {
		t.Fatal(err)
	}
	onlyTheReferenceDiffers(t, alternates)
	out := t.TempDir()
	if r := runE2E(t, nil, "run", "--suite", alternatesDir, "-j", "2", "--out", out); r.code != exitOK {
		t.Fatalf("the alternates: want exit 0, got:\n%v", r)
	}
	for _, res := range readReport(t, out).Results {
		if res.Outcome != report.OutcomePassed || res.Drift() != "" {
			t.Errorf("%s: %s on %q (drift %q); want passed, no drift", res.Task, res.Outcome, res.Failed.String(), res.Drift())
		}
	}
}

// testSandboxDoNothing plays, on every third sandbox task (each site
// among them), a model that calls no tool and claims it is done (a fake
// Messages API, through the real provider). The browser stays on the start
// page, no write request is made, and every task fails on its first
// clause, the network clause on the write: a null agent scores 0. (The
// noop agent plays every task in TestNullAgentsScoreZero.)
func testSandboxDoNothing(t *testing.T) {
	s, err := suite.Load(sandboxDir)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "--suite", sandboxDir, "--agent", "claude", "-j", "2"}
	var script []llmfake.Turn
	for i, task := range s.Tasks {
		if i%3 == 0 {
			args = append(args, "--task", task.ID)
			script = append(script, llmfake.Turn{Text: "Done: it is all taken care of.", Usage: llmfake.Usage{InputTokens: 900, OutputTokens: 12}})
		}
	}
	fake := fakeAnthropic(t, script)
	out := t.TempDir()
	r := runE2E(t, paidEnv(fake, "sk-ant-test-do-nothing"), append(args, "--out", out)...)
	if r.code != exitFailed {
		t.Fatalf("want exit %d, got:\n%v", exitFailed, r)
	}
	checkFakeServed(t, fake)
	rep := readReport(t, out)
	if len(rep.Results) != len(script) {
		t.Fatalf("want %d results, got %d", len(script), len(rep.Results))
	}
	for _, res := range rep.Results {
		if res.Outcome != report.OutcomeFailed || res.Failed.String() != "postconditions[0] (network)" {
			t.Errorf("%s: %s on %q (%s); want failed on postconditions[0] (network)", res.Task, res.Outcome, res.Failed.String(), res.Reason)
		}
	}
	if want := fmt.Sprintf("0 / %d (0.0%%) [", len(script)); !strings.Contains(r.stdout, want) {
		t.Errorf("the closing table lacks %q:\n%s", want, r.stdout)
	}
}

// testSandboxRefusesTheNetwork: the sandbox's sites exist only here, so
// --web live and --web record are refused before anything starts.
func testSandboxRefusesTheNetwork(t *testing.T) {
	for _, web := range []string{"live", "record"} {
		out := t.TempDir()
		r := runE2E(t, nil, "run", "--suite", sandboxDir, "--agent", "reference", "--web", web, "--task", "sandbox-10", "--out", out)
		if r.code != exitUsage {
			t.Errorf("--web %s: want exit %d, got:\n%v", web, exitUsage, r)
		}
		if !strings.Contains(r.stderr, "forum.sandbox.test, a sandbox site that exists only in this repository") {
			t.Errorf("--web %s: stderr does not say why:\n%s", web, r.stderr)
		}
		if files := filesUnder(t, out); len(files) > 0 {
			t.Errorf("--web %s: refused, yet wrote %q", web, files)
		}
	}
}

// testSandboxWebCheck: web check covers the sandbox, whose pages come from
// the sites and whose static files come from its archive.
func testSandboxWebCheck(t *testing.T) {
	r := runE2E(t, nil, "web", "check", "--suite", sandboxDir, "--task", "sandbox-09")
	if r.code != exitOK || !hasLine(r.stdout, "ok: 1 task(s), no misses, no dangling links") {
		t.Fatalf("web check on the sandbox: want exit 0 and no misses, got:\n%v", r)
	}
	for _, line := range []string{"  303   https://stays.sandbox.test/bookings", "  final https://stays.sandbox.test/bookings/BK-2041?confirmed"} {
		if !hasLine(r.stdout, line) {
			t.Errorf("stdout lacks %q:\n%s", line, r.stdout)
		}
	}
}

func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	ja, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(ja) == string(jb)
}
