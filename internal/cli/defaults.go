package cli

// defaultSuite is the suite commands use without --suite, relative to the
// working directory (the repository root for make targets).
const defaultSuite = "benchmarks/webvoyager"
