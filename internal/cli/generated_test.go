package cli

// The generated suite end to end: it is what its seed makes, its builtin
// transcripts replay, its controls fail on their clause, its alternates
// pass, the null agents
// score 0 on it, and a fresh seed makes a suite whose references pass.
// Each check takes a sample of the first instance of every template (the
// replays and the controls half of it each, the alternates the controls'
// half, the random agent an eighth and the tasks that cannot be done);
// make bench-generated runs them on the whole suite
// (docs/benchmarks/generated.md).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"contractbench/internal/generate"
	"contractbench/internal/generate/templates"
	"contractbench/internal/report"
)

const generatedDir = "../../benchmarks/generated"

// readManifest reads the generated.json of the suite at dir.
func readManifest(t *testing.T, dir string) generate.Manifest {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, generate.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	var m generate.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// sample is the instances TestGenerated checks: the first of each
// template, in manifest order, or in the long version every one.
func sample(m generate.Manifest) []generate.ManifestInstance {
	if long() {
		return m.Instances
	}
	var out []generate.ManifestInstance
	seen := map[string]bool{}
	for _, in := range m.Instances {
		if !seen[in.Template] {
			seen[in.Template] = true
			out = append(out, in)
		}
	}
	return out
}

// half is every other instance of the sample, from the first (parity 0)
// or the second (1), so that two checks share the templates between them;
// in the long version, all of them.
func half(instances []generate.ManifestInstance, parity int) []generate.ManifestInstance {
	if long() {
		return instances
	}
	var out []generate.ManifestInstance
	for i, in := range instances {
		if i%2 == parity {
			out = append(out, in)
		}
	}
	return out
}

// controlsOf is the controls TestGenerated plays for instances: the first
// of each, or in the long version every one.
func controlsOf(instances []generate.ManifestInstance) []generate.ManifestControl {
	var out []generate.ManifestControl
	for _, in := range instances {
		if long() {
			out = append(out, in.Controls...)
		} else if len(in.Controls) > 0 {
			out = append(out, in.Controls[0])
		}
	}
	return out
}

// timed runs the command args end to end and logs how long it took.
func timed(t *testing.T, env map[string]string, args ...string) result {
	t.Helper()
	start := time.Now()
	r := runE2E(t, env, args...)
	t.Logf("%s %s: %s", args[0], strings.Join(args[1:min(len(args), 5)], " "), time.Since(start).Round(time.Second))
	return r
}

func TestGenerated(t *testing.T) {
	t.Parallel()
	m := readManifest(t, generatedDir)
	t.Run("is what its seed makes", func(t *testing.T) { testGeneratedIsCurrent(t, m) })
	t.Run("transcripts replay", func(t *testing.T) { testGeneratedReplays(t, m) })
	t.Run("controls fail on their clause", func(t *testing.T) { testGeneratedControls(t, m) })
	t.Run("alternates pass", func(t *testing.T) { testGeneratedAlternates(t, m) })
	t.Run("null agents score 0", func(t *testing.T) { testGeneratedNullAgents(t, m) })
	t.Run("random agent fails what cannot be done", func(t *testing.T) { testGeneratedRandomCannotBeDone(t, m) })
	t.Run("a fresh seed", testGeneratedFreshSeed)
}

// testGeneratedIsCurrent generates the committed suite's seed and count
// again: every file generate writes must be byte for byte the committed
// one, so the suite is what the templates make, and a changed template
// shows up as a changed suite in the same commit.
func testGeneratedIsCurrent(t *testing.T, m generate.Manifest) {
	out := filepath.Join(t.TempDir(), "gen")
	args := []string{"generate", "--seed", fmt.Sprint(m.Seed), "--count", fmt.Sprint(m.Count), "--from", sandboxDir, "--out", out}
	if r := runE2E(t, nil, args...); r.code != exitOK {
		t.Fatalf("%q: %v", args, r)
	}
	var files []string
	for _, pattern := range []string{"tasks/*.yaml", "controls/tasks/*.yaml", "alternates/tasks/*.yaml", "*.json", "README.md"} {
		got, _ := filepath.Glob(filepath.Join(out, pattern))
		want, _ := filepath.Glob(filepath.Join(generatedDir, pattern))
		if len(got) != len(want) {
			t.Errorf("%s: %d files generated, %d committed; run make generated", pattern, len(got), len(want))
		}
		for _, f := range got {
			files = append(files, strings.TrimPrefix(f, out+"/"))
		}
	}
	for _, f := range files {
		got, _ := os.ReadFile(filepath.Join(out, f))
		want, err := os.ReadFile(filepath.Join(generatedDir, f))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s differs from what seed %d makes (%v); run make generated", f, m.Seed, err)
		}
	}
}

// testGeneratedReplays replays the builtin transcripts of half the sample
// (make bench replays them all): each passes.
func testGeneratedReplays(t *testing.T, m generate.Manifest) {
	out := t.TempDir()
	args := []string{"run", "--suite", generatedDir, "-j", "2", "--out", out}
	for _, in := range half(sample(m), 0) {
		args = append(args, "--task", in.ID)
	}
	if r := timed(t, nil, args...); r.code != exitOK {
		t.Fatalf("want exit 0, got:\n%v", r)
	}
	for _, res := range readReport(t, out).Results {
		if res.Outcome != report.OutcomePassed || len(res.WebMisses) > 0 {
			t.Errorf("%s: %s (%s), misses %q; want passed", res.Task, res.Outcome, res.Reason, res.WebMisses)
		}
	}
}

// testGeneratedControls plays the first control of the other half of the
// sample: each must fail on the clause the manifest names.
func testGeneratedControls(t *testing.T, m generate.Manifest) {
	want := map[string]string{}
	out := t.TempDir()
	args := []string{"run", "--suite", filepath.Join(generatedDir, "controls"), "--agent", "reference", "-j", "2", "--out", out}
	for _, c := range controlsOf(half(sample(m), 1)) {
		want[c.ID] = fmt.Sprintf("postconditions[%d]", c.FailsOn)
		args = append(args, "--task", c.ID)
	}
	if r := timed(t, nil, args...); r.code != exitFailed {
		t.Fatalf("want exit %d, got:\n%v", exitFailed, r)
	}
	for _, res := range readReport(t, out).Results {
		got := ""
		if res.Failed != nil {
			got = res.Failed.Path
		}
		if res.Outcome != report.OutcomeFailed || got != want[res.Task] {
			t.Errorf("%s: %s on %q (%s); want failed on %s", res.Task, res.Outcome, got, res.Reason, want[res.Task])
		}
	}
}

// testGeneratedAlternates plays, with the reference agent, the first
// alternate of each instance of the half of the sample whose controls
// are played: each must pass, as the instance's own reference does.
func testGeneratedAlternates(t *testing.T, m generate.Manifest) {
	out := t.TempDir()
	args := []string{"run", "--suite", filepath.Join(generatedDir, "alternates"), "--agent", "reference", "-j", "2", "--out", out}
	played := 0
	for _, in := range half(sample(m), 1) {
		alternates := in.Alternates
		if !long() {
			alternates = alternates[:min(len(alternates), 1)]
		}
		for _, a := range alternates {
			args = append(args, "--task", a.ID)
			played++
		}
	}
	if played == 0 {
		t.Skip("no instance of the sample has an alternate")
	}
	if r := timed(t, nil, args...); r.code != exitOK {
		t.Fatalf("want exit 0, got:\n%v", r)
	}
	for _, res := range readReport(t, out).Results {
		if res.Outcome != report.OutcomePassed {
			t.Errorf("%s: %s on %q (%s); want passed", res.Task, res.Outcome, res.Failed.String(), res.Reason)
		}
	}
}

// testGeneratedNullAgents runs the null agents on the sample (the random
// agent, which plays thirty actions a task, on every eighth of it unless
// the whole suite was asked for; testGeneratedRandomCannotBeDone plays it
// on the sample's tasks that cannot be done): neither may pass a task.
func testGeneratedNullAgents(t *testing.T, m generate.Manifest) {
	for _, agent := range []string{"noop", "random"} {
		out := t.TempDir()
		args := []string{"run", "--suite", generatedDir, "--agent", agent, "-j", "2", "--out", out}
		for i, in := range sample(m) {
			if agent == "noop" || long() || i%(2*randomStride) == 0 {
				args = append(args, "--task", in.ID)
			}
		}
		r := timed(t, nil, args...)
		if r.code != exitFailed {
			t.Fatalf("%s: want exit %d, got:\n%v", agent, exitFailed, r)
		}
		for _, res := range readReport(t, out).Results {
			if res.Outcome != report.OutcomeFailed {
				t.Errorf("%s on %s: %s (%s); a null agent must fail every task", agent, res.Task, res.Outcome, res.Reason)
			}
		}
	}
}

// randomSeeds is how many seeds of the random agent play the tasks that
// cannot be done: testGeneratedRandomCannotBeDone plays randomSeedsShort
// of them on the sample, make bench-generated all of them on every such
// instance.
const (
	randomSeeds      = 20
	randomSeedsShort = 1
)

// testGeneratedRandomCannotBeDone plays the random agent, seed after
// seed, on the instances that cannot be done: a walk that writes nothing
// and lands on an informative page by chance is not the agent trying the
// request as asked, and must fail.
func testGeneratedRandomCannotBeDone(t *testing.T, m generate.Manifest) {
	seeds := randomSeedsShort
	if long() {
		seeds = randomSeeds
	}
	var ids []string
	for _, in := range sample(m) {
		if in.Kind == generate.KindImpossible {
			ids = append(ids, in.ID)
		}
	}
	if len(ids) == 0 {
		t.Fatal("the sample has no instance that cannot be done")
	}
	passed := 0
	for seed := 1; seed <= seeds; seed++ {
		out := t.TempDir()
		args := []string{"run", "--suite", generatedDir, "--agent", "random", "--seed", fmt.Sprint(seed), "-j", "2", "--out", out}
		for _, id := range ids {
			args = append(args, "--task", id)
		}
		r := timed(t, nil, args...)
		if r.code != exitFailed {
			t.Fatalf("seed %d: want exit %d, got:\n%v", seed, exitFailed, r)
		}
		for _, res := range readReport(t, out).Results {
			if res.Outcome != report.OutcomeFailed {
				passed++
				t.Errorf("random --seed %d on %s: %s (%s); a walk at random must fail a task that cannot be done", seed, res.Task, res.Outcome, res.Reason)
			}
		}
	}
	t.Logf("random agent, %d seeds x %d tasks that cannot be done: %d not failed", seeds, len(ids), passed)
}

// testGeneratedFreshSeed draws instances from a seed other than the
// committed suite's, a quarter of the templates' number (generate then
// samples the templates evenly over the applications), validates them
// (validate plays the noop agent on tasks with no transcript yet) and
// plays their references: a suite nobody saw before validates, and its
// references pass.
func testGeneratedFreshSeed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fresh")
	n := (len(templates.All()) + 3) / 4
	if r := runE2E(t, nil, "generate", "--seed", "20261126", "--count", fmt.Sprint(n), "--from", sandboxDir, "--out", dir); r.code != exitOK {
		t.Fatalf("generate: %v", r)
	}
	if r := runE2E(t, nil, "validate", dir); r.code != exitOK {
		t.Fatalf("validate: %v", r)
	}
	out := t.TempDir()
	if r := runE2E(t, nil, "run", "--suite", dir, "--agent", "reference", "-j", "2", "--out", out); r.code != exitOK {
		t.Fatalf("want exit 0, got:\n%v", r)
	}
	results := readReport(t, out).Results
	if len(results) != n {
		t.Errorf("%d results, want %d", len(results), n)
	}
	var ids []string
	for _, res := range results {
		ids = append(ids, res.Task)
	}
	t.Logf("fresh seed: %d references passed: %s", len(ids), strings.Join(ids, " "))
}
