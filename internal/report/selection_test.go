package report

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseShard(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"1/1", "2/3", "3/3"} {
		if s, err := ParseShard(v); err != nil || s.String() != v {
			t.Errorf("ParseShard(%q) = %v, %v", v, s, err)
		}
	}
	for _, v := range []string{"", "0/3", "4/3", "1/0", "a/b", "1", "1/2/3", "-1/2"} {
		if _, err := ParseShard(v); err == nil {
			t.Errorf("ParseShard(%q) accepted", v)
		}
	}
}

// TestShardsPartitionTheSelection: for any N, the N shards hold every
// attempt of the whole selection exactly once, and their sizes differ by
// at most one.
func TestShardsPartitionTheSelection(t *testing.T) {
	t.Parallel()
	whole := Settings{Tasks: []string{"a", "b", "c", "d", "e", "f", "g"}, Repeat: 3}
	all := Attempts(whole)
	if len(all) != 21 {
		t.Fatalf("whole selection has %d attempts, want 21", len(all))
	}
	for n := 1; n <= 8; n++ {
		count := map[Attempt]int{}
		minSize, maxSize := len(all), 0
		for i := 1; i <= n; i++ {
			s := whole
			s.Shard = &Shard{Index: i, Count: n}
			part := Attempts(s)
			minSize, maxSize = min(minSize, len(part)), max(maxSize, len(part))
			for _, a := range part {
				count[a]++
			}
		}
		for _, a := range all {
			if count[a] != 1 {
				t.Errorf("N=%d: %v is in %d shards, want 1", n, a, count[a])
			}
		}
		if len(count) != len(all) || maxSize-minSize > 1 {
			t.Errorf("N=%d: %d attempts over the shards (want %d), sizes %d..%d", n, len(count), len(all), minSize, maxSize)
		}
	}
}

// wholeRun is a finished run of 4 tasks, 3 attempts each, with mixed
// outcomes.
func wholeRun() *Run {
	r := &Run{SchemaVersion: SchemaVersion, GitSHA: "abc123", Started: time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC), DurationMS: 60000,
		Settings:   Settings{Suite: "s", Agent: "replay", Server: "builtin", Web: "replay", Repeat: 3, Parallel: 2, Tasks: []string{"t1", "t2", "t3", "t4"}},
		Provenance: Provenance{Contractbench: "v0.0.0-20261101100000-abc123abc123"}}
	outcomes := []Outcome{OutcomePassed, OutcomeFailed, OutcomePassed, OutcomeTimeout}
	for _, a := range Attempts(r.Settings) {
		o := outcomes[(len(r.Results)*7)%len(outcomes)]
		r.Results = append(r.Results, TaskResult{Task: a.Task, Attempt: a.Attempt, Outcome: o, DurationMS: int64(1000 + len(r.Results)), ToolCalls: len(r.Results) % 5})
	}
	return r
}

// split returns the shards of whole as the runs that would have produced
// them, each taking a third of the time.
func split(whole *Run, n int) []*Run {
	var parts []*Run
	for i := 1; i <= n; i++ {
		p := *whole
		p.Settings.Shard = &Shard{Index: i, Count: n}
		p.Started = whole.Started.Add(time.Duration(i) * time.Second)
		p.DurationMS = 20000
		p.Results = nil
		in := map[Attempt]bool{}
		for _, a := range Attempts(p.Settings) {
			in[a] = true
		}
		for _, res := range whole.Results {
			if in[Attempt{res.Task, res.Attempt}] {
				p.Results = append(p.Results, res)
			}
		}
		parts = append(parts, &p)
	}
	return parts
}

func TestMergeOfShardsIsTheWholeRun(t *testing.T) {
	t.Parallel()
	whole := wholeRun()
	for _, n := range []int{1, 2, 3, 5} {
		parts := split(whole, n)
		// Order of the reports does not matter.
		parts[0], parts[len(parts)-1] = parts[len(parts)-1], parts[0]
		merged, err := Merge(parts)
		if err != nil {
			t.Fatalf("N=%d: %v", n, err)
		}
		if !reflect.DeepEqual(merged.Results, whole.Results) {
			t.Errorf("N=%d: merged results differ from the whole run's", n)
		}
		if got, want := Summarize(merged), Summarize(whole); !reflect.DeepEqual(got, want) {
			t.Errorf("N=%d: summary %+v, want %+v", n, got, want)
		}
		if merged.Provenance != whole.Provenance {
			t.Errorf("N=%d: merged provenance %+v, want the parts' %+v", n, merged.Provenance, whole.Provenance)
		}
		if merged.Incomplete || merged.Settings.Shard != nil {
			t.Errorf("N=%d: merged run incomplete=%v shard=%v, want complete and whole", n, merged.Incomplete, merged.Settings.Shard)
		}
	}
}

func TestMergeRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		edit func(parts []*Run)
		want string
	}{
		{"another revision", func(p []*Run) { p[1].GitSHA = "def456" }, "git_sha differs"},
		{"another server", func(p []*Run) { p[1].Settings.Server = "playwright" }, "settings.server differs"},
		{"another model", func(p []*Run) { p[1].Settings.Model = "claude-x" }, "settings.model differs"},
		{"another agent", func(p []*Run) { p[1].Settings.Agent = "openai" }, "settings.agent differs"},
		{"another selection", func(p []*Run) { p[1].Settings.Tasks = p[1].Settings.Tasks[:2] }, "settings.tasks differs"},
		{"another server version", func(p []*Run) { p[1].Provenance.ServerPackage = "@playwright/mcp@0.0.84" }, "provenance.server_package differs"},
		{"another task spec", func(p []*Run) {
			for i := range p[1].Results {
				p[1].Results[i].Provenance = &TaskProvenance{Spec: "sha256:2"}
			}
			for i := range p[0].Results {
				p[0].Results[i].Provenance = &TaskProvenance{Spec: "sha256:1"}
			}
		}, "provenance.spec differs"},
		{"an attempt twice", func(p []*Run) { p[1].Results = append(p[1].Results, p[0].Results[0]) }, "t1 attempt 1 is in report 1 and report 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parts := split(wholeRun(), 3)
			tc.edit(parts)
			if _, err := Merge(parts); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Merge: error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

func TestMergeWithAPartMissingIsIncomplete(t *testing.T) {
	t.Parallel()
	parts := split(wholeRun(), 3)
	merged, err := Merge(parts[:2])
	if err != nil {
		t.Fatal(err)
	}
	if !merged.Incomplete || Summarize(merged).NotRun != 4 {
		t.Errorf("incomplete=%v not_run=%d, want incomplete with 4 attempts not run", merged.Incomplete, Summarize(merged).NotRun)
	}
}
