package cli

// defaultSuite is the suite commands use without --suite, relative to the
// working directory (the repository root for make targets).
const defaultSuite = "benchmarks/webvoyager"

// sandboxSuite is the suite of the sandbox's sites, whose web and uploads
// folders generated suites share.
const sandboxSuite = "benchmarks/sandbox"
