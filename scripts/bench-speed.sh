#!/bin/sh
# Measures how long `contractbench run` takes for the whole suite, end to
# end (process start, a fresh Chromium and MCP server per task, judging,
# report), at several -j, and prints the median of N runs for each.
#
#   scripts/bench-speed.sh [RUNS] [J...]      default: 5 runs at -j 1 2 4
set -eu
cd "$(dirname "$0")/.."
runs=${1:-5}
shift 2>/dev/null || true
js=${*:-1 2 4}
bin=bin/contractbench
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "suite: benchmarks/webvoyager, $(nproc) cores, $runs runs per setting"
echo "| -j | median s | min s | max s |"
echo "| ---: | ---: | ---: | ---: |"
for j in $js; do
	times=""
	i=0
	while [ "$i" -lt "$runs" ]; do
		start=$(date +%s.%N)
		if ! "$bin" run -j "$j" --gate --out "$out" >/dev/null 2>"$out/err"; then
			echo "run failed at -j $j:" >&2
			cat "$out/err" >&2
			exit 1
		fi
		end=$(date +%s.%N)
		times="$times $(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')"
		i=$((i + 1))
	done
	echo "$times" | tr ' ' '\n' | grep . | sort -n | awk -v j="$j" '
		{ t[NR] = $1 }
		END {
			m = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
			printf "| %d | %.2f | %.2f | %.2f |\n", j, m, t[1], t[NR]
		}'
done
