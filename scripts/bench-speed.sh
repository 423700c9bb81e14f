#!/bin/sh
# Measures how long `contractbench run` takes for the whole suite, end to
# end (process start, a fresh Chromium and MCP server per task, judging,
# report), at several -j, and prints the median of N runs for each.
#
# It also prints the CPU time the whole machine spent during each run, from
# /proc/stat: Chromium's renderers are forked by its zygote, not by us, so
# the CPU time of our child processes would miss most of it. Run it on an
# otherwise idle machine.
#
#   scripts/bench-speed.sh [RUNS] [J...]      default: 5 runs at -j 1 2 3
set -eu
cd "$(dirname "$0")/.."
runs=${1:-5}
shift 2>/dev/null || true
js=${*:-1 2 3}
bin=bin/contractbench
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# cpu prints the CPU time all processors have spent so far, in clock ticks
# (user, nice, system, irq, softirq; not idle or iowait).
cpu() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }
hz=$(getconf CLK_TCK)
# median reads sorted numbers, one per line.
median() { awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "suite: benchmarks/webvoyager, $(nproc) cores, $runs runs per setting"
echo "| -j | median s | min s | max s | median CPU s |"
echo "| ---: | ---: | ---: | ---: | ---: |"
for j in $js; do
	times=""
	cpus=""
	i=0
	while [ "$i" -lt "$runs" ]; do
		cpu0=$(cpu)
		start=$(date +%s.%N)
		if ! "$bin" run -j "$j" --gate --out "$out" >/dev/null 2>"$out/err"; then
			echo "run failed at -j $j:" >&2
			cat "$out/err" >&2
			exit 1
		fi
		end=$(date +%s.%N)
		cpu1=$(cpu)
		times="$times $(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')"
		cpus="$cpus $(awk -v a="$cpu0" -v b="$cpu1" -v hz="$hz" 'BEGIN { print (b - a) / hz }')"
		i=$((i + 1))
	done
	w=$(echo "$times" | tr ' ' '\n' | grep . | sort -n)
	c=$(echo "$cpus" | tr ' ' '\n' | grep . | sort -n)
	printf '| %d | %.2f | %.2f | %.2f | %.1f |\n' "$j" "$(echo "$w" | median)" \
		"$(echo "$w" | head -n 1)" "$(echo "$w" | tail -n 1)" "$(echo "$c" | median)"
done
