package deploy

import (
	"bytes"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

const (
	workflowFile = "github-actions.yml"
	runHelpFile  = "../../internal/cli/testdata/help/run.txt"
	mergeHelp    = "../../internal/cli/testdata/help/merge.txt"
)

// workflow holds every field github-actions.yml uses, and only those: it
// is decoded with unknown fields refused, so a misspelt key fails.
type workflow struct {
	Name        string            `yaml:"name"`
	On          map[string]any    `yaml:"on"`
	Permissions map[string]string `yaml:"permissions"`
	Env         map[string]string `yaml:"env"`
	Jobs        map[string]ghJob  `yaml:"jobs"`
}

type ghJob struct {
	Name           string            `yaml:"name"`
	Needs          string            `yaml:"needs"`
	If             string            `yaml:"if"`
	RunsOn         string            `yaml:"runs-on"`
	Container      string            `yaml:"container"`
	TimeoutMinutes int               `yaml:"timeout-minutes"`
	Strategy       *ghStrategy       `yaml:"strategy"`
	Env            map[string]string `yaml:"env"`
	Steps          []ghStep          `yaml:"steps"`
}

type ghStrategy struct {
	FailFast *bool `yaml:"fail-fast"`
	Matrix   struct {
		Shard []int `yaml:"shard"`
	} `yaml:"matrix"`
}

type ghStep struct {
	Name string            `yaml:"name"`
	Uses string            `yaml:"uses"`
	If   string            `yaml:"if"`
	Run  string            `yaml:"run"`
	With map[string]string `yaml:"with"`
}

func decodeWorkflow(data []byte) (*workflow, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var w workflow
	if err := dec.Decode(&w); err != nil {
		return nil, err
	}
	return &w, nil
}

// stepsUsing returns the steps of a job that use an action (by name,
// without its version).
func stepsUsing(j ghJob, action string) []ghStep {
	var out []ghStep
	for _, s := range j.Steps {
		if name, _, _ := strings.Cut(s.Uses, "@"); name == action {
			out = append(out, s)
		}
	}
	return out
}

// runs returns the shell of every step of a job that runs one.
func runs(j ghJob) string {
	var b strings.Builder
	for _, s := range j.Steps {
		b.WriteString(s.Run + "\n")
	}
	return b.String()
}

// TestWorkflowMatrix: one matrix job per shard, N of them, each keeping
// its report, and a merge job that reads all N, even when a shard failed.
func TestWorkflowMatrix(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(workflowFile)
	if err != nil {
		t.Fatal(err)
	}
	w, err := decodeWorkflow(data)
	if err != nil {
		t.Fatalf("%s: %v", workflowFile, err)
	}
	if _, err := decodeWorkflow(bytes.Replace(data, []byte("runs-on:"), []byte("run-on:"), 1)); err == nil || !strings.Contains(err.Error(), "field run-on not found") {
		t.Errorf("%s with runs-on misspelt: error %v, want the unknown field named", workflowFile, err)
	}

	n, err := strconv.Atoi(w.Env["SHARDS"])
	if err != nil || n < 1 {
		t.Fatalf("%s: env.SHARDS = %q, want the number of shards", workflowFile, w.Env["SHARDS"])
	}
	shard, ok := w.Jobs["shard"]
	if !ok || shard.Strategy == nil {
		t.Fatalf("%s: no job shard with a strategy", workflowFile)
	}
	var want []int
	for i := 1; i <= n; i++ {
		want = append(want, i)
	}
	if got := shard.Strategy.Matrix.Shard; !slices.Equal(got, want) {
		t.Errorf("%s: jobs.shard.strategy.matrix.shard = %v, want %v (1..SHARDS)", workflowFile, got, want)
	}
	if ff := shard.Strategy.FailFast; ff == nil || *ff {
		t.Errorf("%s: jobs.shard.strategy.fail-fast must be false: a shard with a failed task must not cancel the others", workflowFile)
	}
	if run := runs(shard); !strings.Contains(run, `bin/contractbench run --shard "${{ matrix.shard }}/$SHARDS" --out out`) {
		t.Errorf("%s: jobs.shard runs no `bin/contractbench run --shard \"${{ matrix.shard }}/$SHARDS\" --out out`:\n%s", workflowFile, run)
	}
	uploads := stepsUsing(shard, "actions/upload-artifact")
	if len(uploads) != 1 {
		t.Fatalf("%s: jobs.shard: %d upload-artifact steps, want 1", workflowFile, len(uploads))
	}
	up := uploads[0]
	if !strings.Contains(up.If, "!cancelled()") && !strings.Contains(up.If, "always()") {
		t.Errorf("%s: jobs.shard's upload runs only on success (if: %q): a shard with a failed task exits 1, and its report is needed", workflowFile, up.If)
	}
	if up.With["path"] != "out/" || !strings.Contains(up.With["name"], "${{ matrix.shard }}") {
		t.Errorf("%s: jobs.shard's upload: name %q path %q; want a name per shard and the --out folder", workflowFile, up.With["name"], up.With["path"])
	}

	merge, ok := w.Jobs["merge"]
	if !ok {
		t.Fatalf("%s: no job merge", workflowFile)
	}
	if merge.Needs != "shard" {
		t.Errorf("%s: jobs.merge.needs = %q, want shard", workflowFile, merge.Needs)
	}
	if !strings.Contains(merge.If, "!cancelled()") && !strings.Contains(merge.If, "always()") {
		t.Errorf("%s: jobs.merge runs only when every shard passed (if: %q)", workflowFile, merge.If)
	}
	downloads := stepsUsing(merge, "actions/download-artifact")
	if len(downloads) != 1 {
		t.Fatalf("%s: jobs.merge: %d download-artifact steps, want 1", workflowFile, len(downloads))
	}
	down := downloads[0]
	for i := 1; i <= n; i++ {
		name := strings.ReplaceAll(up.With["name"], "${{ matrix.shard }}", strconv.Itoa(i))
		if ok, err := path.Match(down.With["pattern"], name); !ok || err != nil {
			t.Errorf("%s: jobs.merge downloads %q, which misses shard %d's %q", workflowFile, down.With["pattern"], i, name)
		}
	}
	run := runs(merge)
	for _, want := range []string{`$(seq 1 "$SHARDS")`, down.With["path"] + "/" + strings.ReplaceAll(up.With["name"], "${{ matrix.shard }}", `"$i"`), "bin/contractbench merge -o merged"} {
		if !strings.Contains(run, want) {
			t.Errorf("%s: jobs.merge's shell lacks %s:\n%s", workflowFile, want, run)
		}
	}

	// Every flag given to contractbench is one its --help documents.
	flags := regexp.MustCompile(`\s(--?[a-z][a-z-]*)`)
	checked := 0
	for _, j := range []ghJob{shard, merge} {
		for line := range strings.SplitSeq(runs(j), "\n") {
			_, cmd, ok := strings.Cut(line, "bin/contractbench ")
			if !ok {
				continue
			}
			sub, _, _ := strings.Cut(cmd, " ")
			helpFile := map[string]string{"run": runHelpFile, "merge": mergeHelp}[sub]
			if helpFile == "" {
				t.Errorf("%s: %q: no help file for contractbench %s", workflowFile, line, sub)
				continue
			}
			help, err := os.ReadFile(helpFile)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range flags.FindAllStringSubmatch(" "+cmd, -1) {
				checked++
				name := strings.TrimLeft(m[1], "-")
				if !bytes.Contains(help, []byte("\n  -"+name+" ")) && !bytes.Contains(help, []byte("\n  -"+name+"\n")) {
					t.Errorf("%s: %q: contractbench %s has no flag %s (%s)", workflowFile, line, sub, m[1], helpFile)
				}
			}
		}
	}
	if checked < 3 {
		t.Errorf("%s: checked %d flags of contractbench, want at least --shard, --out and -o", workflowFile, checked)
	}
}
