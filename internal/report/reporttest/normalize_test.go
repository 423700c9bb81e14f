package reporttest

import (
	"bytes"
	"os"
	"testing"
	"time"

	"contractbench/internal/report"
)

// run reads the report package's golden run, a report with every kind of
// result.
func run(tb testing.TB) *report.Run {
	tb.Helper()
	f, err := os.Open("../testdata/run.golden.json")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	r, err := report.ReadJSON(f)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

func TestNormalize(t *testing.T) {
	t.Parallel()
	// retimed is the same run measured on another day with other timings.
	retimed := func(tb testing.TB) *report.Run {
		r := run(tb)
		r.Started = r.Started.Add(26 * time.Hour)
		r.DurationMS += 913
		for i := range r.Results {
			res := &r.Results[i]
			res.DurationMS += int64(17 * i)
			for j := range res.Calls {
				res.Calls[j].DurationMS += 3
			}
			if res.Observation != nil {
				for j := range res.Observation.Network {
					res.Observation.Network[j].StartMS += 40
				}
			}
		}
		return r
	}
	tests := []struct {
		name  string
		a, b  func(testing.TB) *report.Run
		equal bool
	}{
		{"same run, other timings", run, retimed, true},
		{"a different outcome still differs", run, func(tb testing.TB) *report.Run {
			r := retimed(tb)
			r.Results[0].Outcome = report.OutcomeFailed
			return r
		}, false},
		{"a different response size still differs", run, func(tb testing.TB) *report.Run {
			r := retimed(tb)
			r.Results[4].Calls[1].ResponseBytes++
			return r
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var ja, jb bytes.Buffer
			a, b := tc.a(t), tc.b(t)
			Normalize(a)
			Normalize(b)
			if err := report.WriteJSON(&ja, a); err != nil {
				t.Fatal(err)
			}
			if err := report.WriteJSON(&jb, b); err != nil {
				t.Fatal(err)
			}
			if got := bytes.Equal(ja.Bytes(), jb.Bytes()); got != tc.equal {
				t.Errorf("normalized JSON equal = %v, want %v", got, tc.equal)
			}
		})
	}
}
