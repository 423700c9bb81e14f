package cli

// The seed's scenario 3, offline: a paid agent recorded end to end against
// a fake Messages API that checks requests the way the real one does.

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"contractbench/internal/inputs"
	"contractbench/internal/llm"
	"contractbench/internal/llm/llmfake"
	"contractbench/internal/report"
	"contractbench/internal/suite"
	"contractbench/internal/transcript"
	"contractbench/internal/transcript/transcripttest"
)

func TestRecordWithClaude(t *testing.T) {
	t.Parallel()
	perTurn := llmfake.Usage{InputTokens: 1800, OutputTokens: 120, CacheReadTokens: 300, CacheWriteTokens: 50}
	fake := fakeAnthropic(t, task01Script(perTurn))
	out := t.TempDir()

	r := runE2E(t, paidEnv(fake, "sk-ant-test-record"),
		"record", "--suite", suiteDir, "--agent", "claude", "--task", task01, "--out", out)
	if r.code != exitOK {
		t.Fatalf("record --agent claude: want exit 0, got:\n%v", r)
	}
	checkFakeServed(t, fake)
	if n := fake.Remaining(); n != 0 {
		t.Errorf("fake Messages API: %d scripted turns never requested; the loop stopped early", n)
	}
	for i, got := range sentMaxTokens(t, fake) {
		if got != llm.MaxTokensPerTurn {
			t.Errorf("request %d: max_tokens %d, want the cap %d", i, got, llm.MaxTokensPerTurn)
		}
	}

	// The cost printed is the price table's price of the fake's usage.
	three := llm.Usage{InputTokens: 3 * perTurn.InputTokens, OutputTokens: 3 * perTurn.OutputTokens,
		CacheReadTokens: 3 * perTurn.CacheReadTokens, CacheWriteTokens: 3 * perTurn.CacheWriteTokens}
	cost := llm.FormatUSD(defaultModelCost(t, three))
	for _, line := range []string{
		task01 + ": passed | cost " + cost,
		"estimated cost: " + cost + " in total",
	} {
		if !hasLine(r.stdout, line) {
			t.Errorf("stdout lacks the line %q:\n%s", line, r.stdout)
		}
	}
	// Scenario 3 asks for a finished task in under 30 s.
	m := regexp.MustCompile(`\[1/1\] ` + task01 + `: passed \((\d+) ms`).FindStringSubmatch(r.stderr)
	if m == nil {
		t.Errorf("stderr lacks the progress line of the task:\n%s", r.stderr)
	} else if ms, _ := strconv.Atoi(m[1]); ms >= 30000 {
		t.Errorf("the task took %d ms, want under 30 s", ms)
	}

	path := filepath.Join(out, task01+".jsonl")
	if !strings.Contains(r.stdout, "wrote "+path+" (2 calls)") {
		t.Errorf("stdout does not say it wrote %s with 2 calls:\n%s", path, r.stdout)
	}
	tr, err := transcripttest.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	wantBy := "anthropic:" + llm.DefaultAnthropicModel
	if tr.Header.RecordedBy != wantBy || tr.Header.Model != llm.DefaultAnthropicModel {
		t.Errorf("header: recorded_by %q, model %q; want %q, %q", tr.Header.RecordedBy, tr.Header.Model, wantBy, llm.DefaultAnthropicModel)
	}
	task, err := suite.LoadTask(filepath.Join(suiteDir, "tasks", task01+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	digest, err := inputs.TaskDigest(task)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Header.TaskDigest != digest {
		t.Errorf("header: task_digest %s, want the spec's %s", tr.Header.TaskDigest, digest)
	}
	want := []struct{ tool, args string }{
		{"navigate", `{"url":"https://example.com/"}`},
		{"read_page", `{"mode":"text"}`},
	}
	if len(tr.Calls) != len(want) {
		t.Fatalf("transcript: %d calls, want %d", len(tr.Calls), len(want))
	}
	for i, w := range want {
		c := tr.Calls[i]
		if c.Tool != w.tool || string(c.Args) != w.args || c.ResponseKind != transcript.ResponseOK || c.ResponseBytes <= 0 {
			t.Errorf("call %d: %s %s %s (%d bytes); want %s %s ok with a response", i+1, c.Tool, c.Args, c.ResponseKind, c.ResponseBytes, w.tool, w.args)
		}
	}
	if tr.Final == nil || tr.Final.Answer != task01Answer {
		t.Errorf("transcript: final %+v, want answer %q", tr.Final, task01Answer)
	}

	// The recording replays: the replay agent follows it without drift and
	// the judge passes it, at no cost.
	reportDir := t.TempDir()
	rr := runE2E(t, nil, "run", "--suite", suiteDir, "--task", task01, "--transcripts", out, "--out", reportDir)
	if rr.code != exitOK {
		t.Fatalf("replaying the recording: want exit 0, got:\n%v", rr)
	}
	res := onlyResult(t, readReport(t, reportDir))
	if res.Outcome != report.OutcomePassed || res.Drift() != "" || res.USD != 0 || res.Answer != task01Answer {
		t.Errorf("replay: outcome %s, drift %q, usd %v, answer %q; want passed, no drift, free, the recorded answer",
			res.Outcome, res.Drift(), res.USD, res.Answer)
	}
}
