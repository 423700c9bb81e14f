package cli

// The end-to-end tests in this package run Main in-process, exactly as the
// contractbench binary does, against the real WebVoyager suite, real
// Chromium and the hermetic fixture web. What the program spawns, the MCP
// tool server (`contractbench mcp --cdp URL`), is the real binary, built
// once by TestMain from this tree, so the MCP boundary the tests cross is
// the one users cross.
//
// They write reports and transcripts only to temporary folders; the suite
// under benchmarks/ is read, never written.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"contractbench/internal/browser"
	"contractbench/internal/llm"
	"contractbench/internal/llm/llmfake"
	"contractbench/internal/report"
	"contractbench/internal/transcript"
	"contractbench/internal/transcript/transcripttest"
	"contractbench/internal/webreplay"
)

// suiteDir is the WebVoyager suite, relative to this package.
const suiteDir = "../../benchmarks/webvoyager"

// task01 is the smallest task of the suite: navigate, read, answer.
const task01 = "task-01-example-com-title"

// e2e is what TestMain prepares for the end-to-end tests.
var e2e struct {
	// bin is contractbench built from this tree.
	bin string
	// browserURL is the DevTools endpoint of the package's shared
	// Chromium, in which only the fixture web's hosts resolve. Runs launch
	// browsers of their own; the shared one is for tests that attach.
	browserURL string
}

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "contractbench-cli-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)

	e2e.bin = filepath.Join(dir, "contractbench")
	// go test puts its own go first on PATH, so this builds with the
	// toolchain that builds the tests.
	build := exec.Command("go", "build", "-o", e2e.bin, "./cmd/contractbench")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building contractbench for the end-to-end tests: %v\n%s", err, out)
		return 1
	}

	archive, err := webreplay.Open(filepath.Join(suiteDir, "web"))
	if err != nil {
		fmt.Fprintf(os.Stderr, "opening the fixture web: %v\n", err)
		return 1
	}
	srv, err := webreplay.NewServer(webreplay.Replay(archive), webreplay.ServerOptions{Hosts: archive.Hosts()})
	if err != nil {
		fmt.Fprintf(os.Stderr, "starting the fixture web: %v\n", err)
		return 1
	}
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := browser.Launch(ctx, browser.Options{NoSandbox: os.Geteuid() == 0, Flags: srv.ChromiumFlags(), TempDir: dir})
	if err != nil {
		// Without a browser nothing here can be verified: fail, never skip.
		fmt.Fprintf(os.Stderr, "the end-to-end tests need Chromium at %s (apt-get install chromium): %v\n",
			browser.DefaultExecPaths[0], err)
		return 1
	}
	defer b.Close()
	e2e.browserURL = b.URL()
	return m.Run()
}

// longVar asks the tests that check a sample of a whole (TestGenerated,
// TestNullAgentsScoreZero, TestEverySuiteOnEveryServer) for the whole
// instead: the make targets bench-generated, bench-null and
// bench-servers set it. make test runs the samples.
const longVar = "CONTRACTBENCH_LONG"

// long reports whether the long version was asked for.
func long() bool { return os.Getenv(longVar) == "1" }

// e2eState is testState with the built binary as the MCP tool server.
func e2eState(env map[string]string) (*State, *bytes.Buffer, *bytes.Buffer) {
	st, stdout, stderr := testState(env)
	st.Executable = e2e.bin
	return st, stdout, stderr
}

// runE2E runs the program as a user does: the binary built from this
// tree, with env as its whole environment besides the test's PATH (where
// it finds git, and the peers their node), in this package's folder.
// The binary is built without the race detector, which would double the
// harness's share of a task's cost in the tests that play hundreds of
// tasks (docs/decisions/0044); runRaced runs the program in-process,
// under the detector with the test.
func runE2E(t *testing.T, env map[string]string, args ...string) result {
	t.Helper()
	cmd := exec.Command(e2e.bin, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil && cmd.ProcessState == nil {
		t.Fatalf("running %s: %v", e2e.bin, err)
	}
	return result{cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()}
}

// runRaced runs the program in-process with e2eState, so that the race
// detector watches the whole harness at work: the runner's workers, the
// judge and its relay, the report's writers.
func runRaced(t *testing.T, env map[string]string, args ...string) result {
	t.Helper()
	st, stdout, stderr := e2eState(env)
	code := Main(args, st)
	return result{code, stdout.String(), stderr.String()}
}

// String shows a result in failure messages.
func (r result) String() string {
	return fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", r.code, r.stdout, r.stderr)
}

// hasLine reports whether out has a line equal to line.
func hasLine(out, line string) bool {
	for _, l := range strings.Split(out, "\n") {
		if l == line {
			return true
		}
	}
	return false
}

// lineWithPrefix returns the first line of out that starts with prefix, or
// "".
func lineWithPrefix(out, prefix string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}

// readReport reads the one JSON report the run wrote into dir.
func readReport(t *testing.T, dir string) *report.Run {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 {
		t.Fatalf("%s: want exactly one JSON report, found %q", dir, files)
	}
	return readReportFile(t, files[0])
}

// onlyResult returns the run's single result, for runs of one task.
func onlyResult(t *testing.T, r *report.Run) report.TaskResult {
	t.Helper()
	if len(r.Results) != 1 {
		t.Fatalf("want 1 result, the report has %d", len(r.Results))
	}
	return r.Results[0]
}

// filesUnder lists every regular file under dir; a missing dir has none.
func filesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			out = append(out, path)
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}

// suiteTranscript is the committed transcript of task id.
func suiteTranscript(id string) string {
	return filepath.Join(suiteDir, "transcripts", "builtin", id+".jsonl")
}

// writeEdited writes the suite's transcript of id into dir after edit
// changed it, with its digests recomputed: the edit becomes part of the
// recording rather than drift.
func writeEdited(t *testing.T, dir, id string, edit func(*transcript.Transcript)) {
	t.Helper()
	tr, err := transcripttest.ReadFile(suiteTranscript(id))
	if err != nil {
		t.Fatal(err)
	}
	edit(tr)
	if err := transcripttest.Rehash(tr); err != nil {
		t.Fatal(err)
	}
	if err := transcript.WriteFile(filepath.Join(dir, id+".jsonl"), tr); err != nil {
		t.Fatal(err)
	}
}

// writeReplaced writes the suite's transcript of id into dir with old
// replaced by new in its text, once, and nothing recomputed: a hand edit
// that leaves the recorded digests as they were.
func writeReplaced(t *testing.T, dir, id, old, new string) {
	t.Helper()
	data, err := os.ReadFile(suiteTranscript(id))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(data, []byte(old)); n != 1 {
		t.Fatalf("%s: %q occurs %d times, want once", suiteTranscript(id), old, n)
	}
	data = bytes.Replace(data, []byte(old), []byte(new), 1)
	if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// linkTranscripts fills dir with links to the suite's transcripts of ids.
func linkTranscripts(t *testing.T, dir string, ids ...string) {
	t.Helper()
	for _, id := range ids {
		abs, err := filepath.Abs(suiteTranscript(id))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(abs, filepath.Join(dir, id+".jsonl")); err != nil {
			t.Fatal(err)
		}
	}
}

// suiteCopy makes a suite in a temporary folder holding the given tasks of
// the WebVoyager suite, each passed through edit (nil keeps it), and a link
// to its fixture web.
func suiteCopy(t *testing.T, edit func(id string, spec []byte) []byte, ids ...string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "tasks"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		spec, err := os.ReadFile(filepath.Join(suiteDir, "tasks", id+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if edit != nil {
			spec = edit(id, spec)
		}
		if err := os.WriteFile(filepath.Join(dir, "tasks", id+".yaml"), spec, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	web, err := filepath.Abs(filepath.Join(suiteDir, "web"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(web, filepath.Join(dir, "web")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// The fake Messages API plays a model through task-01: navigate to
// example.com, read the page, answer.
var (
	navigateExample = llmfake.ToolCall{Name: "navigate", Args: json.RawMessage(`{"url":"https://example.com/"}`)}
	readPageText    = llmfake.ToolCall{Name: "read_page", Args: json.RawMessage(`{"mode":"text"}`)}
)

const task01Answer = `The main heading says "Example Domain".`

// task01Script is a model's run of task-01, each turn with usage u.
func task01Script(u llmfake.Usage) []llmfake.Turn {
	return []llmfake.Turn{
		{ToolCalls: []llmfake.ToolCall{navigateExample}, Usage: u},
		{ToolCalls: []llmfake.ToolCall{readPageText}, Usage: u},
		{Text: task01Answer, Usage: u},
	}
}

// fakeAnthropic starts a fake Messages API playing script, closed with the
// test.
func fakeAnthropic(t *testing.T, script []llmfake.Turn) *llmfake.Server {
	t.Helper()
	fake := llmfake.NewAnthropic(script)
	t.Cleanup(fake.Close)
	return fake
}

// paidEnv is the environment of an opted-in run against fake with key.
func paidEnv(fake *llmfake.Server, key string) map[string]string {
	return map[string]string{
		"CONTRACTBENCH_REAL": "1",
		"ANTHROPIC_API_KEY":  key,
		"ANTHROPIC_BASE_URL": fake.URL,
	}
}

// checkFakeServed fails the test if the fake API saw a request a real API
// would have rejected (max_tokens, tool schemas, tool_use/tool_result
// pairing, roles), or a request after its script ended.
func checkFakeServed(t *testing.T, fake *llmfake.Server) {
	t.Helper()
	for _, p := range fake.Problems() {
		t.Errorf("fake Messages API: request problem: %s", p)
	}
}

// sentMaxTokens returns the max_tokens of every request fake received.
func sentMaxTokens(t *testing.T, fake *llmfake.Server) []int {
	t.Helper()
	var out []int
	for i, req := range fake.Requests() {
		var body struct {
			MaxTokens int `json:"max_tokens"`
		}
		if err := json.Unmarshal(req.Body, &body); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		out = append(out, body.MaxTokens)
	}
	return out
}

// defaultModelCost is what usage costs at the price table's price of the
// default Anthropic model.
func defaultModelCost(t *testing.T, u llm.Usage) float64 {
	t.Helper()
	prices, err := llm.DefaultPrices()
	if err != nil {
		t.Fatal(err)
	}
	price, err := prices.Lookup(llm.DefaultAnthropicModel)
	if err != nil {
		t.Fatal(err)
	}
	return price.Cost(u)
}
