#!/bin/sh
# The whole generated suite (make bench-generated): TestGenerated of
# internal/cli on every instance and every control instead of its sample,
# with the wall time of each run in its log.
set -eu
CONTRACTBENCH_LONG=1 go test ./internal/cli -run '^TestGenerated$' -count=1 -v -timeout 120m |
	grep -E '^(=== RUN|--- |\s+generated_test.go:|ok|FAIL|PASS)'
