// Package compare owns comparing runs: one paired-task model and its
// views. NewRun reads a report as every comparison reads it, per task the
// attempts that count (report.Finished: an error of the harness or an
// interrupted attempt says nothing about the agent) and the digests of
// what they were produced from; match pairs two runs task by task,
// refusing or leaving out the tasks whose task file or contract changed.
//
// The views read that pairing and nothing else, so they cannot disagree:
//
//   - Diff, with WriteText and WriteJSON (schema_version SchemaVersion):
//     the outcome pairs, the scores with their Wilson intervals, the
//     difference with the exact McNemar test and Newcombe's interval, the
//     paired bootstrap with repeated attempts, and the interval clustered
//     by template; per tag and per template as well (contractbench diff).
//   - WriteBoard: the leaderboard of runs, each tested against the run
//     ranked below it with the exact McNemar test on the first finished
//     attempt of every paired task (contractbench board).
//   - CompareRow, WriteComparison, PairsWithBase and WriteComparisonHTML:
//     one suite run against several tool servers, their costs side by
//     side and each tested against the base server as the board tests
//     two runs (contractbench compare).
//
// docs/statistics.md gives every formula. The package imports report and
// stats and the standard library only; it reads no file, no environment,
// and prints nothing: callers pass the reports and an io.Writer.
package compare
