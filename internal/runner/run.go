package runner

import (
	"context"
	"fmt"
	"sync"

	"contractbench/internal/report"
	"contractbench/internal/suite"
	"contractbench/internal/transcript"
)

// Run runs every selected task cfg.Repeat times (of those, only cfg.Shard's
// part, and none that cfg.Keep already holds), cfg.Parallel at a time, and
// returns the run's report, with cfg.Keep's results in their places. When ctx is cancelled (Ctrl-C) the tasks in
// flight are stopped, tasks not started are skipped, and the report is
// marked incomplete; Run still returns it so it can be written.
func Run(ctx context.Context, cfg *Config) (*report.Run, error) {
	repeat := max(cfg.Repeat, 1)
	parallel := max(cfg.Parallel, 1)
	if n := len(cfg.BrowserURLs); n > 0 && n != parallel {
		return nil, fmt.Errorf("%d browser endpoints for %d workers: each worker needs a browser of its own (-j %d, or as many endpoints as -j)", n, parallel, n)
	}
	switch cfg.isolate() {
	case IsolateContext, IsolateProcess:
	default:
		return nil, fmt.Errorf("unknown isolation %q: want %s or %s", cfg.Isolate, IsolateContext, IsolateProcess)
	}
	run := &report.Run{
		SchemaVersion: report.SchemaVersion,
		Started:       cfg.now(),
		Settings:      cfg.Settings,
		Provenance:    cfg.Provenance,
	}
	byID := make(map[string]*suite.Task, len(cfg.Tasks))
	settings := cfg.Settings
	settings.Tasks, settings.Repeat = nil, repeat
	for _, t := range cfg.Tasks {
		byID[t.ID] = t
		settings.Tasks = append(settings.Tasks, t.ID)
	}
	kept := make(map[report.Attempt]report.TaskResult, len(cfg.Keep))
	for _, res := range cfg.Keep {
		kept[report.Attempt{Task: res.Task, Attempt: res.Attempt}] = res
	}
	var jobs []job
	results := make([]*report.TaskResult, 0)
	for _, a := range report.Attempts(settings) {
		if res, ok := kept[a]; ok {
			results = append(results, &res)
			continue
		}
		jobs = append(jobs, job{byID[a.Task], a.Attempt, len(results)})
		results = append(results, nil)
	}
	queue := make(chan job)
	var wg sync.WaitGroup
	for i := range parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := newWorker(cfg, i)
			defer w.close()
			w.work(ctx, queue, func(j job, res *report.TaskResult, rec *transcript.Recorder) {
				results[j.slot] = res
				if cfg.TaskDone != nil {
					cfg.TaskDone(j.task, res, rec)
				}
			})
		}()
	}
feed:
	for _, j := range jobs {
		select {
		case queue <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(queue)
	wg.Wait()

	for _, r := range results {
		if r != nil {
			run.Results = append(run.Results, *r)
		}
	}
	run.Incomplete = ctx.Err() != nil || len(run.Results) < len(results)
	run.DurationMS = cfg.now().Sub(run.Started).Milliseconds()
	return run, nil
}
