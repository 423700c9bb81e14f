// Package stats holds the statistics used to report and compare benchmark
// runs: intervals for one pass rate, tests and intervals for the paired
// comparison of two runs over the same tasks, a paired bootstrap for
// repeated attempts, cluster-robust intervals for tasks that come from
// shared templates, the pass@k and pass^k estimators, and the planning
// functions that say how many tasks a comparison needs.
//
// The package uses the standard library only and imports nothing else of
// the module. Every function is deterministic; the bootstrap is
// deterministic for a given seed. docs/statistics.md gives each statistic's
// definition, when the reports use it, and a worked example.
//
// # Conventions
//
// Run A is the candidate and run B the baseline; a difference is always
// A − B, so a positive difference means A passes more. Confidence levels are
// given as a fraction (0.95), except for the Wilson-based intervals, which
// take the standard normal quantile z (Z95 for 95%). Invalid input (a
// negative count, more successes than trials, a level outside (0, 1))
// returns an error, or NaN from the functions that return a bare number.
//
// # Numerical methods
//
// The regularized incomplete beta function is evaluated by its continued
// fraction with the modified Lentz method (Press et al., Numerical Recipes,
// 3rd ed., 2007, §6.4), and inverted by Newton steps kept inside a
// bisection bracket. The t and binomial distributions, and the
// Clopper-Pearson interval, are built on it. Normal quantiles start from
// math.Erfinv (Wichura's algorithm AS 241) and are refined with math.Erfc.
package stats
