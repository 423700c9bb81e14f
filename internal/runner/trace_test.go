package runner

import (
	"strings"
	"testing"
	"time"

	"contractbench/internal/report"
	"contractbench/internal/suite"
)

// TestKeepThumbnails: which results keep the thumbnails taken after their
// calls, for each --trace.
func TestKeepThumbnails(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		trace   Trace
		outcome report.Outcome
		want    bool
	}{
		{TraceOn, report.OutcomePassed, true},
		{TraceOn, report.OutcomeFailed, true},
		{TraceFailed, report.OutcomePassed, false},
		{TraceFailed, report.OutcomeFailed, true},
		{TraceFailed, report.OutcomeError, true},
	} {
		t.Run(string(tc.trace)+"/"+string(tc.outcome), func(t *testing.T) {
			t.Parallel()
			r := &taskRun{cfg: &config{Spec: &Spec{Trace: tc.trace}, Hooks: Hooks{Now: time.Now}}, thumbs: map[int]*report.Thumbnail{
				1: {JPEG: []byte{0xff, 0xd8}, URL: "https://example.com/"},
				2: {Error: "thumbnail: a dialog is showing"},
			}}
			res := &report.TaskResult{Outcome: tc.outcome, Calls: []report.Call{{Seq: 1}, {Seq: 2}, {Seq: 3}}}
			r.keepThumbnails(res)
			for _, c := range res.Calls {
				want := tc.want && c.Seq != 3
				if got := c.Thumbnail != nil; got != want {
					t.Errorf("call %d: thumbnail kept %v, want %v", c.Seq, got, want)
				}
			}
		})
	}
}

// TestThumbnailShare: once thumbnails have taken a tenth of the task's
// timeout, no more are taken, and the step says why.
func TestThumbnailShare(t *testing.T) {
	t.Parallel()
	r := &taskRun{cfg: &config{Spec: &Spec{Trace: TraceOn}, Hooks: Hooks{Now: time.Now}}, task: &suite.Task{ID: "t", Timeout: 60 * time.Second},
		thumbTime: 6 * time.Second} // no judge: it must not be asked
	r.thumbnail(t.Context(), 4)
	th := r.thumbs[4]
	if th == nil || len(th.JPEG) > 0 || !strings.Contains(th.Error, "a tenth of the task's 1m0s timeout") {
		t.Errorf("thumbnail after the share was used: %+v, want none, saying why", th)
	}
}
