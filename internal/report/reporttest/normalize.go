// Package reporttest holds test helpers for code that compares reports.
package reporttest

import (
	"time"

	"contractbench/internal/report"
)

// Normalize zeroes everything in r that depends on the clock: the start
// time, every duration, the start time of every observed network request,
// how long the judge waited for the page to settle, whether it was quiet
// within the bound, and when it read it,
// and the thumbnails taken after tool calls. Two runs of the same tree in
// replay mode must then encode to the same JSON bytes; any difference left
// is a reproducibility bug. Medians of
// duration in the derived summary become 0 as well.
func Normalize(r *report.Run) {
	r.Started = time.Time{}
	r.DurationMS = 0
	for i := range r.Results {
		res := &r.Results[i]
		res.DurationMS = 0
		for j := range res.Calls {
			res.Calls[j].DurationMS = 0
			// What a thumbnail shows, and whether one was taken in
			// time, depends on when the page was caught.
			res.Calls[j].Thumbnail = nil
		}
		if obs := res.Observation; obs != nil {
			for j := range obs.Network {
				obs.Network[j].StartMS = 0
			}
			if obs.Settling != nil {
				// Whether the page was quiet within the bound, and what
				// was busy, depend on how fast it loaded.
				obs.Settling.WaitedMS, obs.Settling.Quiet, obs.Settling.Busy = 0, true, ""
				if obs.Settling.First != nil {
					obs.Settling.First.AtMS = 0
				}
			}
		}
	}
}
