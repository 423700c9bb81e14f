package cli

// Inputs are checked before anything starts: validate looks at every file
// a suite has, and run refuses what validate refuses, before a browser
// starts, with the same located message.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// withTranscripts adds the suite's builtin transcripts of ids to suite,
// each passed through edit (nil keeps it).
func withTranscripts(t *testing.T, suite string, edit func([]byte) []byte, ids ...string) {
	t.Helper()
	dir := filepath.Join(suite, "transcripts", "builtin")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		data, err := os.ReadFile(suiteTranscript(id))
		if err != nil {
			t.Fatal(err)
		}
		if edit != nil {
			data = edit(data)
		}
		if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func writeFileT(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestValidateChecksEveryFileOfASuite(t *testing.T) {
	t.Parallel()
	const task02 = "task-02-mdn-fetch-syntax"
	replace := func(id, old, new string) func(string, []byte) []byte {
		return func(got string, spec []byte) []byte {
			if got != id {
				return spec
			}
			if !bytes.Contains(spec, []byte(old)) {
				t.Fatalf("%s lacks %q", id, old)
			}
			return bytes.Replace(spec, []byte(old), []byte(new), 1)
		}
	}
	tests := []struct {
		name string
		// suite builds the suite; its problem is in a file of task02 or
		// of the suite, never of task01, which run then selects.
		suite func(t *testing.T) string
		want  string
	}{
		{
			name: "garbage baseline.json",
			suite: func(t *testing.T) string {
				s := suiteCopy(t, nil, task01, task02)
				writeFileT(t, filepath.Join(s, "baseline.json"), "{\"expected_pass_count\": 2, \"tasks\": [\n")
				return s
			},
			want: "baseline.json",
		},
		{
			name: "baseline naming a task the suite lacks",
			suite: func(t *testing.T) string {
				s := suiteCopy(t, nil, task01, task02)
				writeFileT(t, filepath.Join(s, "baseline.json"), `{"expected_pass_count": 2, "tasks": ["`+task01+`", "task-99-gone"]}`)
				return s
			},
			want: `baseline.json: tasks[1]: "task-99-gone" is not a task of the suite`,
		},
		{
			name: "truncated transcript",
			suite: func(t *testing.T) string {
				s := suiteCopy(t, nil, task01, task02)
				withTranscripts(t, s, func(b []byte) []byte {
					lines := bytes.SplitAfter(b, []byte("\n"))
					return bytes.Join(lines[:len(lines)-2], nil) // the answer line gone
				}, task02)
				return s
			},
			want: "ends without the final answer line",
		},
		{
			name: "selector Chromium rejects",
			suite: func(t *testing.T) string {
				return suiteCopy(t, replace(task02, "selector: ", "selector: 'h1[' # "), task01, task02)
			},
			want: "is not a valid CSS selector",
		},
		{
			name: "reference step naming a tool the server lacks",
			suite: func(t *testing.T) string {
				return suiteCopy(t, replace(task02, "tool: type", "tool: teleport"), task01, task02)
			},
			want: `reference: on server builtin: reference[0]: server builtin offers no tool "teleport"`,
		},
		{
			name: "a second YAML document in a task file",
			suite: func(t *testing.T) string {
				return suiteCopy(t, func(id string, spec []byte) []byte {
					if id != task02 {
						return spec
					}
					return append(spec, "---\ntimeout: 1s\n"...)
				}, task01, task02)
			},
			want: "a second YAML document: a file holds one document",
		},
		{
			name: "a timeout no task can start in",
			suite: func(t *testing.T) string {
				return suiteCopy(t, func(id string, spec []byte) []byte {
					if id != task02 {
						return spec
					}
					return regexpReplace(t, spec, `(?m)^timeout: .*$`, "timeout: 1ns")
				}, task01, task02)
			},
			want: "timeout: 1ns must be at least 10s",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := tc.suite(t)
			v := run(t, nil, "validate", s)
			if v.code != exitUsage || !strings.Contains(v.stdout, tc.want) {
				t.Errorf("validate: want exit %d with %q, got:\n%v", exitUsage, tc.want, v)
			}
			out := t.TempDir()
			r := runE2E(t, nil, "run", "--suite", s, "--task", task01, "--agent", "reference", "--out", out)
			if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("run: want exit %d with %q, got:\n%v", exitUsage, tc.want, r)
			}
			if strings.Contains(r.stderr, "[1/1]") || len(filesUnder(t, out)) > 0 {
				t.Errorf("run started a task or wrote a report before refusing:\n%v", r)
			}
		})
	}
}

// validate knows every kind of file a suite holds.
func TestValidateKnowsEveryFile(t *testing.T) {
	t.Parallel()
	for _, path := range []string{
		suiteTranscript(task01),
		filepath.Join(suiteDir, "..", "servers.yaml"),
		filepath.Join(suiteDir, "baseline.json"),
	} {
		r := run(t, nil, "validate", path)
		if r.code != exitOK || !strings.Contains(r.stdout, "ok: 1 file(s) valid") {
			t.Errorf("validate %s: want ok, got:\n%v", path, r)
		}
	}
	dir := t.TempDir()
	cut := filepath.Join(dir, task01+".jsonl")
	data, err := os.ReadFile(suiteTranscript(task01))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	writeFileT(t, cut, string(bytes.Join(lines[:2], nil)))
	if r := run(t, nil, "validate", cut); r.code != exitUsage || !strings.Contains(r.stdout, "ends without the final answer line") {
		t.Errorf("validate of a cut transcript: want exit 2 saying so, got:\n%v", r)
	}
}

// --web live checks the network once, before any browser starts, and says
// that the network is missing rather than blaming every task.
func TestLiveWebWithoutNetwork(t *testing.T) {
	t.Parallel()
	st, stdout, stderr := e2eState(nil)
	var dialed []string
	st.Dial = func(_ context.Context, network, addr string) (net.Conn, error) {
		dialed = append(dialed, addr)
		return nil, errors.New("connect: network is unreachable")
	}
	out := t.TempDir()
	code := Main([]string{"run", "--suite", suiteDir, "--task", task01, "--web", "live", "--agent", "reference", "--out", out}, st)
	r := result{code, stdout.String(), stderr.String()}
	if code != exitUsage || !strings.Contains(r.stderr, "--web live needs the network, but example.com:443 cannot be reached") {
		t.Errorf("want exit 2 naming the unreachable host, got:\n%v", r)
	}
	if len(dialed) != 1 {
		t.Errorf("dialed %q, want one check", dialed)
	}
	if strings.Contains(r.stderr, "[1/1]") || len(filesUnder(t, out)) > 0 {
		t.Errorf("a task ran or a report was written:\n%v", r)
	}
}

// regexpReplace replaces the one match of pattern in b.
func regexpReplace(t *testing.T, b []byte, pattern, repl string) []byte {
	t.Helper()
	re := regexp.MustCompile(pattern)
	if n := len(re.FindAllIndex(b, -1)); n != 1 {
		t.Fatalf("%q matches %d times, want once", pattern, n)
	}
	return re.ReplaceAll(b, []byte(repl))
}

// triggerWriter calls fire once, the first time what is written to it
// contains mark, then passes everything on to w.
type triggerWriter struct {
	w    *bytes.Buffer
	mark string
	fire func()
	done bool
}

func (t *triggerWriter) Write(p []byte) (int, error) {
	if !t.done && bytes.Contains(p, []byte(t.mark)) {
		t.done = true
		t.fire()
	}
	return t.w.Write(p)
}

// A report folder that breaks while the run is under way (removed and
// replaced by a file here; full or read-only elsewhere) loses nothing: the
// results are printed and the report goes to a folder the user is told.
func TestReportRescuedWhenTheFolderBreaks(t *testing.T) {
	t.Parallel()
	st, stdout, stderr := e2eState(nil)
	out := filepath.Join(t.TempDir(), "reports")
	var breakErr error
	st.Stderr = &triggerWriter{w: stderr, mark: "[1/1]", fire: func() {
		if breakErr = os.RemoveAll(out); breakErr == nil {
			breakErr = os.WriteFile(out, []byte("in the way\n"), 0o644)
		}
	}}
	code := Main([]string{"run", "--suite", suiteDir, "--task", task01, "--out", out}, st)
	r := result{code, stdout.String(), stderr.String()}
	if breakErr != nil {
		t.Fatalf("breaking the report folder: %v", breakErr)
	}
	if code != exitInternal || !strings.Contains(r.stdout, "| "+task01+" | passed |") {
		t.Fatalf("want exit %d with the results printed, got:\n%v", exitInternal, r)
	}
	line := lineWithPrefix(r.stderr, "contractbench: the report could not be written to "+out+"; it was written to ")
	rescue, ok := strings.CutSuffix(strings.TrimPrefix(line, "contractbench: the report could not be written to "+out+"; it was written to "), " instead")
	if line == "" || !ok {
		t.Fatalf("stderr does not say where the report went:\n%s", r.stderr)
	}
	defer os.RemoveAll(rescue)
	// Not the default run of the commit (one task of ten), so its name
	// says what it is.
	if files, _ := filepath.Glob(filepath.Join(rescue, "*-replay-builtin-replay-"+task01+".json")); len(files) != 1 {
		t.Errorf("%s: want one report named <sha>-replay-builtin-replay-%s.json, found %q", rescue, task01, filesUnder(t, rescue))
	}
	if rep := readReport(t, rescue); len(rep.Results) != 1 || !rep.Results[0].Outcome.Passed() {
		t.Errorf("the rescued report holds %d results, want the passed task", len(rep.Results))
	}
}

// A transcript recorded for another instruction cannot be replayed: the
// result is replay_drift, and the headline says so and how to re-record
// (with the run's own flags, its servers file included), not a contract
// failure. A gate on a selection covers the selected tasks.
func TestStaleTranscriptAndAGateOnASelection(t *testing.T) {
	t.Parallel()
	s := suiteCopy(t, func(_ string, spec []byte) []byte {
		return regexpReplace(t, spec, `(?m)^instruction: .*$`, "instruction: Open example.com and tell me what its main heading says, word for word.")
	}, task01)
	writeFileT(t, filepath.Join(s, "baseline.json"), `{"expected_pass_count": 1, "tasks": ["`+task01+`"]}`)
	transcripts := t.TempDir()
	linkTranscripts(t, transcripts, task01)
	serversFile := filepath.Join(t.TempDir(), "servers.yaml")
	copyTree(t, filepath.Join(suiteDir, "..", "servers.yaml"), serversFile)
	r := runE2E(t, nil, "run", "--suite", s, "--servers", serversFile, "--transcripts", transcripts, "--out", t.TempDir())
	if r.code != exitFailed {
		t.Fatalf("want exit %d, got:\n%v", exitFailed, r)
	}
	head := lineWithPrefix(r.stdout, task01+": ")
	want := task01 + ": replay_drift | the transcript no longer matches; re-record with: contractbench record --suite " + s + " --server builtin --servers " + serversFile + " --agent reference --task " + task01
	if head != want {
		t.Errorf("headline\n got %q\nwant %q", head, want)
	}
	if !strings.Contains(r.stdout, "reason: transcript not replayed: replay drift: the transcript is stale") {
		t.Errorf("stdout does not give the reason:\n%s", r.stdout)
	}

	// The real suite's gate on one task of ten covers that task.
	g := runE2E(t, nil, "run", "--suite", suiteDir, "--task", task01, "--gate", "--out", t.TempDir())
	wantGate := fmt.Sprintf("gate: passed (1 / 1, the 1 of the baseline's %d that were selected)", len(baseline(t).Tasks))
	if g.code != exitOK || !hasLine(g.stdout, wantGate) {
		t.Errorf("want exit 0 and %q, got:\n%v", wantGate, g)
	}
}

// record --keep-failing writes a finished task whose contract failed, but
// never over a transcript that is already there unless asked to: a good
// recording is not lost to a failed or interrupted re-recording.
func TestKeepFailingNeverOverwrites(t *testing.T) {
	t.Parallel()
	s := suiteCopy(t, func(_ string, spec []byte) []byte {
		return regexpReplace(t, spec, `(?m)^    pattern: .*$`, `    pattern: '^https://example\.org/$'`)
	}, task01)
	out := t.TempDir()
	existing := filepath.Join(out, task01+".jsonl")
	good, err := os.ReadFile(suiteTranscript(task01))
	if err != nil {
		t.Fatal(err)
	}
	writeFileT(t, existing, string(good))

	r := runE2E(t, nil, "record", "--suite", s, "--task", task01, "--keep-failing", "--out", out)
	if r.code != exitFailed || !strings.Contains(r.stdout, task01+": failed: transcript not written over the existing "+existing+" (--overwrite replaces it)") {
		t.Fatalf("want exit %d and the existing transcript kept, got:\n%v", exitFailed, r)
	}
	if now, err := os.ReadFile(existing); err != nil || !bytes.Equal(now, good) {
		t.Errorf("the existing transcript changed (err %v)", err)
	}

	r = runE2E(t, nil, "record", "--suite", s, "--task", task01, "--keep-failing", "--overwrite", "--out", out)
	if r.code != exitFailed || !strings.Contains(r.stdout, task01+": failed: wrote "+existing) {
		t.Fatalf("with --overwrite: want the failing transcript written, got:\n%v", r)
	}
}
