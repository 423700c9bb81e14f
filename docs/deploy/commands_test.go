package deploy

// No cluster runs here. What a pod would run can: each Job container's
// command, exactly as written in the manifest (sh -c and its script), with
// the variables Kubernetes gives it (JOB_COMPLETION_INDEX) and the
// manifest's own, contractbench built from this tree on PATH, real
// Chromium, and the hermetic fixture web. Only the image's paths are
// replaced by this machine's: RESULTS by a temporary folder, SUITE by the
// suite in this tree.

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"

	"contractbench/internal/report"
)

// commandTimeout bounds one pod's command. A shard of this test runs a
// task or two in one Chromium; on a loaded machine that can take minutes.
const commandTimeout = 10 * time.Minute

// pod runs a Job's container commands here.
type pod struct {
	bin   string // folder holding the contractbench built from this tree
	suite string // the suite in this tree, absolute
}

// buildContractbench builds the binary the image holds, from this tree,
// into a temporary folder.
func buildContractbench(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	// go test puts its own go first on PATH.
	build := exec.CommandContext(t.Context(), "go", "build", "-o", filepath.Join(dir, "contractbench"), "./cmd/contractbench")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building contractbench: %v\n%s", err, out)
	}
	return dir
}

// outcome is how a container's command ended.
type outcome struct {
	code           int
	stdout, stderr string
}

func (o outcome) String() string {
	return "exit " + strconv.Itoa(o.code) + "\n--- stdout\n" + o.stdout + "--- stderr\n" + o.stderr
}

// run runs container c's command and arguments with the manifest's
// variables, set replaced by the values given (each must be one the
// manifest sets, or JOB_COMPLETION_INDEX), in a fresh working folder.
func (p pod) run(t *testing.T, file string, c corev1.Container, set map[string]string) outcome {
	t.Helper()
	argv := append(append([]string(nil), c.Command...), c.Args...)
	if len(argv) == 0 {
		t.Fatalf("%s: container %s has no command", file, c.Name)
	}
	// The machine's environment, less anything that would change what
	// contractbench does: only the manifest's variables may.
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "CONTRACTBENCH_") && name != "CONTRACTBENCH_CHROMIUM" {
			continue
		}
		if name == "PATH" {
			kv = "PATH=" + p.bin + string(os.PathListSeparator) + os.Getenv("PATH")
		}
		env = append(env, kv)
	}
	seen := map[string]bool{}
	for _, e := range c.Env {
		if e.ValueFrom != nil {
			t.Fatalf("%s: container %s: %s comes from elsewhere; this test can only give it a value", file, c.Name, e.Name)
		}
		v := e.Value
		if s, ok := set[e.Name]; ok {
			v = s
		}
		seen[e.Name] = true
		env = append(env, e.Name+"="+v)
	}
	for name, v := range set {
		switch {
		case name == "JOB_COMPLETION_INDEX":
			env = append(env, name+"="+v)
		case !seen[name]:
			t.Fatalf("%s: container %s does not set %s", file, c.Name, name)
		}
	}

	ctx, cancel := context.WithTimeout(t.Context(), commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Dir = t.TempDir()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("%s: container %s: %v", file, c.Name, err)
	}
	return outcome{cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()}
}

// onlyReport reads the one report JSON in dir.
func onlyReport(t *testing.T, dir string) (string, *report.Run) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) != 1 {
		t.Fatalf("%s: want one report JSON, found %v (%v)", dir, files, err)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := report.ReadJSON(f)
	if err != nil {
		t.Fatalf("%s: %v", files[0], err)
	}
	return files[0], r
}

// writeReport replaces a report JSON.
func writeReport(t *testing.T, path string, r *report.Run) {
	t.Helper()
	var b bytes.Buffer
	if err := report.WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestJobCommandsRunHere runs the pods of both Jobs: every completion
// index of the shards' Job, a replaced pod that resumes its shard, the
// merge refusing while a shard's report is missing, and the merge of all
// of them; then the exit statuses the podFailurePolicy relies on.
func TestJobCommandsRunHere(t *testing.T) {
	shardsObjs := manifest(t, shardsFile)
	shards := only[*batchv1.Job](t, shardsFile, shardsObjs)
	n := shardCount(t, shards)
	shard := shards.Spec.Template.Spec.Containers[0]
	merge := only[*batchv1.Job](t, mergeFile, manifest(t, mergeFile)).Spec.Template.Spec.Containers[0]

	suite, err := filepath.Abs(filepath.Join("..", "..", "benchmarks", "webvoyager"))
	if err != nil {
		t.Fatal(err)
	}
	p := pod{bin: buildContractbench(t), suite: suite}
	results := t.TempDir()
	// The smallest task, four times: with three shards, shard 1 runs
	// attempts 1 and 4, the others one each.
	const selection = "--task task-01 --repeat 4"
	const attempts = 4
	index := func(i int, runArgs string, results string) map[string]string {
		return map[string]string{"JOB_COMPLETION_INDEX": strconv.Itoa(i), "RESULTS": results, "SUITE": p.suite, "RUN_ARGS": runArgs}
	}

	total := 0
	for i := range n {
		o := p.run(t, shardsFile, shard, index(i, selection, results))
		if o.code != 0 {
			t.Fatalf("%s: completion index %d: %v", shardsFile, i, o)
		}
		_, r := onlyReport(t, filepath.Join(results, "shard-"+strconv.Itoa(i+1)))
		if r.Settings.Shard == nil || *r.Settings.Shard != (report.Shard{Index: i + 1, Count: n}) || r.Incomplete {
			t.Errorf("completion index %d: report of shard %v, incomplete=%v; want shard %d/%d, complete", i, r.Settings.Shard, r.Incomplete, i+1, n)
		}
		total += len(r.Results)
	}
	if total != attempts {
		t.Errorf("the %d shards ran %d attempts together, want %d", n, total, attempts)
	}

	// Index 0's pod is evicted after its first attempt: the report it left
	// lacks the second. The pod that replaces it keeps the first (marked
	// here, so a rerun would show) and runs only the second.
	path, cut := onlyReport(t, filepath.Join(results, "shard-1"))
	if len(cut.Results) < 2 {
		t.Fatalf("shard 1 ran %d attempts, want 2", len(cut.Results))
	}
	const marker = 987654321
	kept, dropped := cut.Results[0], cut.Results[len(cut.Results)-1]
	cut.Results = cut.Results[:len(cut.Results)-1]
	cut.Results[0].DurationMS = marker
	cut.Incomplete = true
	writeReport(t, path, cut)
	if o := p.run(t, shardsFile, shard, index(0, selection, results)); o.code != 0 {
		t.Fatalf("%s: completion index 0, replaced pod: %v", shardsFile, o)
	}
	_, resumed := onlyReport(t, filepath.Join(results, "shard-1"))
	if resumed.Incomplete || len(resumed.Results) != len(cut.Results)+1 {
		t.Fatalf("replaced pod of index 0: %d results, incomplete=%v; want %d, complete", len(resumed.Results), resumed.Incomplete, len(cut.Results)+1)
	}
	if r := resumed.Results[0]; r.Task != kept.Task || r.Attempt != kept.Attempt || r.DurationMS != marker {
		t.Errorf("replaced pod of index 0: first result %s attempt %d (%d ms); want %s attempt %d kept as it was (%d ms)",
			r.Task, r.Attempt, r.DurationMS, kept.Task, kept.Attempt, marker)
	}
	if r := resumed.Results[len(resumed.Results)-1]; r.Task != dropped.Task || r.Attempt != dropped.Attempt || r.Outcome != report.OutcomePassed {
		t.Errorf("replaced pod of index 0: last result %s attempt %d %s; want %s attempt %d passed", r.Task, r.Attempt, r.Outcome, dropped.Task, dropped.Attempt)
	}

	// The merge refuses to start while a shard's report is missing.
	partial := t.TempDir()
	for i := 1; i < n; i++ {
		if err := os.Symlink(filepath.Join(results, "shard-"+strconv.Itoa(i)), filepath.Join(partial, "shard-"+strconv.Itoa(i))); err != nil {
			t.Fatal(err)
		}
	}
	o := p.run(t, mergeFile, merge, map[string]string{"RESULTS": partial})
	if missing := "shard-" + strconv.Itoa(n) + " (0 reports)"; o.code != badUsageExit || !strings.Contains(o.stderr, missing) {
		t.Errorf("%s without shard %d's report: %v\nwant exit %d naming %s", mergeFile, n, o, badUsageExit, missing)
	}
	if _, err := os.Stat(filepath.Join(partial, "merged")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s without shard %d's report wrote merged/ (%v)", mergeFile, n, err)
	}

	o = p.run(t, mergeFile, merge, map[string]string{"RESULTS": results})
	if o.code != 0 {
		t.Fatalf("%s: %v", mergeFile, o)
	}
	_, merged := onlyReport(t, filepath.Join(results, "merged"))
	if merged.Provenance != resumed.Provenance || merged.GitSHA != resumed.GitSHA {
		t.Errorf("merged report: git sha %q, provenance %+v; the shards' are %q, %+v", merged.GitSHA, merged.Provenance, resumed.GitSHA, resumed.Provenance)
	}
	if merged.Incomplete || merged.Settings.Shard != nil || len(merged.Results) != attempts {
		t.Errorf("merged report: %d results, incomplete=%v, shard %v; want %d, complete, no shard", len(merged.Results), merged.Incomplete, merged.Settings.Shard, attempts)
	}
	for _, r := range merged.Results {
		if r.Outcome != report.OutcomePassed {
			t.Errorf("merged report: %s attempt %d %s (%s); the replayed transcripts pass", r.Task, r.Attempt, r.Outcome, r.Reason)
		}
	}

	t.Run("a failed task is a result, not a failed pod", func(t *testing.T) {
		dir := t.TempDir()
		o := p.run(t, shardsFile, shard, index(0, "--agent noop --task task-01", dir))
		if o.code != 0 {
			t.Fatalf("%s: index 0 with the null agent: %v\nwant exit 0: the report holds the failure", shardsFile, o)
		}
		_, r := onlyReport(t, filepath.Join(dir, "shard-1"))
		if len(r.Results) != 1 || r.Results[0].Outcome != report.OutcomeFailed {
			t.Errorf("index 0 with the null agent: results %+v, want one failed", r.Results)
		}
	})
	t.Run("bad usage ends with the status that fails the Job", func(t *testing.T) {
		o := p.run(t, shardsFile, shard, index(0, "--no-such-flag", t.TempDir()))
		if o.code != badUsageExit {
			t.Errorf("%s: index 0 with a flag contractbench lacks: %v\nwant exit %d, which podFailurePolicy turns into FailJob", shardsFile, o, badUsageExit)
		}
	})
}
