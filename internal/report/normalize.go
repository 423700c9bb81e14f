package report

import "time"

// Normalize zeroes everything in r that depends on the clock: the start
// time, every duration, and the start time of every observed network
// request. Two runs of the same tree in replay mode must then encode to the
// same JSON bytes; any difference left is a reproducibility bug. Medians of
// duration in the derived summary become 0 as well.
func Normalize(r *Run) {
	r.Started = time.Time{}
	r.DurationMS = 0
	for i := range r.Results {
		res := &r.Results[i]
		res.DurationMS = 0
		for j := range res.Calls {
			res.Calls[j].DurationMS = 0
		}
		if res.Observation != nil {
			for j := range res.Observation.Network {
				res.Observation.Network[j].StartMS = 0
			}
		}
	}
}
