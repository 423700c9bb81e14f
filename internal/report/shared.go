package report

// The pieces of the report's views that the comparisons of runs (package
// compare) show the same way: its style sheet, how results are named and
// linked, and how numbers are written. They are exported here so that the
// pages of a comparison and the report they link to never disagree.

// StyleSheet is the HTML report's style sheet, which every other page of
// the project inlines so that all of them look alike and load nothing.
func StyleSheet() ([]byte, error) { return htmlFiles.ReadFile("html/report.css") }

// ComparabilityNote is the line every view gives about comparing its
// numbers with LLM-judged ones.
const ComparabilityNote = comparabilityNote

// Repeated reports whether some task of r has more than one attempt, in
// which case views name each result by task and attempt (ResultName).
func Repeated(r *Run) bool { return repeated(r) }

// ResultName names a result in views: the task, and the attempt when the
// run has several.
func ResultName(res *TaskResult, repeated bool) string { return resultName(res, repeated) }

// ResultAnchor is the id of the i-th result's section in a run's HTML page.
func ResultAnchor(i int) string { return resultAnchor(i) }

// SafeName reports whether name is a file name WriteFile accepts: letters,
// digits, '.', '-' and '_', and neither "." nor "..".
func SafeName(name string) bool { return safeName(name) }

// Median returns the median of xs, 0 for none. It sorts xs.
func Median(xs []float64) float64 { return median(xs) }

// Percent writes a rate as a percentage to one decimal; Seconds a
// duration in milliseconds as seconds to one decimal; OrNone an empty
// setting as "none".
func Percent(f float64) string  { return percent(f) }
func Seconds(ms float64) string { return seconds(ms) }
func OrNone(s string) string    { return orNone(s) }
