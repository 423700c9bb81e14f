package runner

import (
	"context"
	"sync"
	"time"

	"contractbench/internal/report"
	"contractbench/internal/transcript"
)

// Run makes the plan's attempts, its Parallel at a time, and returns the
// run's report, with the results it kept from the run it resumes in their
// places. When ctx is cancelled (Ctrl-C) the tasks in flight are stopped,
// tasks not started are skipped, and the report is marked incomplete.
func Run(ctx context.Context, p *Plan, h Hooks) *report.Run {
	if h.Now == nil {
		h.Now = time.Now
	}
	if h.Progress == nil {
		h.Progress = func(Event) {}
	}
	if h.Wait == nil {
		h.Wait = sleep
	}
	cfg := &config{Spec: &p.spec, Hooks: h, admission: newAdmission(p.spec.Processors, memAvailable)}
	run := &report.Run{
		SchemaVersion: report.SchemaVersion,
		GitSHA:        p.spec.GitSHA,
		Started:       cfg.Now(),
		Settings:      p.Settings(),
		Provenance:    p.spec.Provenance,
	}
	results := make([]*report.TaskResult, len(p.kept))
	for i, res := range p.kept {
		if res != nil {
			r := *res
			results[i] = &r
		}
	}
	queue := make(chan job)
	slots := newSlots(cfg)
	var wg sync.WaitGroup
	for i := range cfg.Parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := newWorker(cfg, i, slots)
			w.work(ctx, queue, func(j job, res *report.TaskResult, rec *transcript.Recorder) {
				results[j.slot] = res
				if cfg.TaskDone != nil {
					cfg.TaskDone(j.task, res, rec)
				}
			})
		}()
	}
feed:
	for _, j := range p.jobs {
		if cfg.Admit != nil && !cfg.Admit(j.task) {
			break
		}
		select {
		case queue <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(queue)
	wg.Wait()
	for _, s := range slots {
		s.close()
	}

	for _, r := range results {
		if r != nil {
			run.Results = append(run.Results, *r)
		}
	}
	run.Incomplete = ctx.Err() != nil || len(run.Results) < len(results)
	run.DurationMS = cfg.Now().Sub(run.Started).Milliseconds()
	return run
}
