package compare

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"contractbench/internal/report"
	"contractbench/internal/stats"
)

// ServerRow sums up one run of a suite against one tool server, for
// comparing servers on the same tasks judged the same way.
type ServerRow struct {
	Server string `json:"server"`
	Passed int    `json:"passed"`
	Total  int    `json:"total"`
	// MedianToolCalls is per task.
	MedianToolCalls float64 `json:"median_tool_calls"`
	// MedianCallBytes and P90CallBytes are over every tool call's reply.
	MedianCallBytes float64 `json:"median_call_bytes"`
	P90CallBytes    float64 `json:"p90_call_bytes"`
	// MedianPageBytes is over the replies of the server's page tools
	// (read_page, browser_snapshot, take_snapshot): what reading one page
	// costs an agent.
	MedianPageBytes float64 `json:"median_page_bytes"`
	MedianCallMS    float64 `json:"median_call_ms"`
	MedianTaskMS    float64 `json:"median_task_ms"`
	// Trust is the run's trust label (TrustUnrestricted or empty).
	Trust string `json:"trust,omitempty"`
}

// CompareRow computes the row of run, a run against one server whose page
// tools are pageTools.
func CompareRow(server string, run *report.Run, pageTools []string) ServerRow {
	row := ServerRow{Server: server, Total: len(run.Results), Trust: run.Settings.Trust}
	var calls, callBytes, pageBytes, callMS, taskMS []float64
	for _, r := range run.Results {
		if r.Outcome.Passed() {
			row.Passed++
		}
		calls = append(calls, float64(r.ToolCalls))
		taskMS = append(taskMS, float64(r.DurationMS))
		for _, c := range r.Calls {
			if c.Refused {
				continue
			}
			callBytes = append(callBytes, float64(c.ResponseBytes))
			callMS = append(callMS, float64(c.DurationMS))
			if slices.Contains(pageTools, c.Tool) {
				pageBytes = append(pageBytes, float64(c.ResponseBytes))
			}
		}
	}
	row.MedianToolCalls = report.Median(calls)
	row.MedianCallBytes = report.Median(callBytes)
	row.P90CallBytes = percentile(callBytes, 0.9)
	row.MedianPageBytes = report.Median(pageBytes)
	row.MedianCallMS = report.Median(callMS)
	row.MedianTaskMS = report.Median(taskMS)
	return row
}

// percentile is the nearest-rank p-quantile of xs (0 for none).
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	rank := int(math.Ceil(p*float64(len(s)))) - 1
	return s[max(rank, 0)]
}

// WriteComparison renders rows as a Markdown table with each measure also
// as a ratio to the row of base (the server compared against), when base
// is among the rows.
func WriteComparison(w io.Writer, rows []ServerRow, base string) error {
	var ref *ServerRow
	for i := range rows {
		if rows[i].Server == base {
			ref = &rows[i]
		}
	}
	ratio := func(v, b float64) string {
		if ref == nil || b == 0 {
			return fmt.Sprintf("%.0f", v)
		}
		return fmt.Sprintf("%.0f (%.2f×)", v, v/b)
	}
	var rb ServerRow
	if ref != nil {
		rb = *ref
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| server | passed | median tool calls per task | median bytes per call | p90 bytes per call | median bytes per page read | median ms per call | median ms per task |\n")
	fmt.Fprintf(&b, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range rows {
		name := r.Server
		if r.Trust != "" {
			name += " (trust: " + r.Trust + ")"
		}
		fmt.Fprintf(&b, "| %s | %d / %d | %.1f | %s | %s | %s | %s | %s |\n", name, r.Passed, r.Total, r.MedianToolCalls,
			ratio(r.MedianCallBytes, rb.MedianCallBytes), ratio(r.P90CallBytes, rb.P90CallBytes),
			ratio(r.MedianPageBytes, rb.MedianPageBytes), ratio(r.MedianCallMS, rb.MedianCallMS),
			ratio(r.MedianTaskMS, rb.MedianTaskMS))
	}
	if ref != nil {
		fmt.Fprintf(&b, "\nRatios (×) are against %s on the same tasks.\n", base)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ServerPair is a server's run tested against the base server's run with
// the exact McNemar test, on the first finished attempt of every task
// match compares: the pairs and p-value the board gives two neighbouring
// runs, and diff two runs of one attempt per task.
type ServerPair struct {
	Server string `json:"server"`
	// Shared counts the tasks compared; OnlyServer and OnlyBase those
	// only one of the two passed.
	Shared     int     `json:"shared"`
	OnlyServer int     `json:"only_server"`
	OnlyBase   int     `json:"only_base"`
	P          float64 `json:"mcnemar_exact_p"`
}

// PairsWithBase tests every server's run but base's against base's; nil
// when base is not among runs.
func PairsWithBase(runs []ServerRun, base string) []ServerPair {
	i := slices.IndexFunc(runs, func(r ServerRun) bool { return r.Server == base })
	if i < 0 {
		return nil
	}
	ref := NewRun("", base, runs[i].Run)
	var out []ServerPair
	for _, r := range runs {
		if r.Server == base {
			continue
		}
		onlyBase, onlyServer, shared := match(ref, NewRun("", r.Server, r.Run)).FirstPairs()
		out = append(out, ServerPair{Server: r.Server, Shared: shared, OnlyServer: onlyServer, OnlyBase: onlyBase,
			P: stats.McNemarExact(onlyServer, onlyBase)})
	}
	return out
}

// WriteServerPairs writes pairs, each server against base, as a Markdown
// table.
func WriteServerPairs(w io.Writer, pairs []ServerPair, base string) error {
	if len(pairs) == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nEach server against %s on the first finished attempt of every task both finished (exact McNemar test):\n\n", base)
	fmt.Fprintf(&b, "| server | tasks | passed only here | passed only on %s | p |\n| --- | ---: | ---: | ---: | ---: |\n", base)
	for _, p := range pairs {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %s |\n", p.Server, p.Shared, p.OnlyServer, p.OnlyBase, PValue(p.P))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
