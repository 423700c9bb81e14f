#!/bin/sh
# Measures how many tasks one machine holds open at a model's pace: the
# replay agent waits before each model turn (--pace, 3 s by default), and
# the suites run at each -j given, the workers sharing a browser per
# CONTRACTBENCH_CAPACITY_PER_BROWSER of them (8 by default; --browsers).
#
# Each level runs the WebVoyager suite, then the sandbox suite, each with
# max(-j x WAVES, MIN) task attempts (WAVES 1 and MIN 6 by default,
# CONTRACTBENCH_CAPACITY_WAVES and CONTRACTBENCH_CAPACITY_MIN): the first
# tasks of the suite, repeated (--repeat) when the suite has fewer. It
# prints, per level, over both runs:
#
#   tasks/min       attempts finished per minute of wall time
#   over p50, p90   each attempt's duration beyond its paced waits (the
#                   pace times its turns, tool calls + 1): set-up, tool
#                   calls, judging, and any wait for a processor; the
#                   median and the 90th percentile (nearest rank), of the
#                   attempts that did not end in an error
#   peak PSS        the largest sum, over samples every second, of the
#                   proportional set size of contractbench and every
#                   process under it (browsers, renderers, tool servers)
#   CPU s/task      the user and system time of that process tree (the
#                   last reading of each process), per attempt
#   errors          attempts that ended in a harness error, or were
#                   interrupted
#
# Every attempt that did not pass is listed on stderr with its outcome
# and the start of its reason, counted.
#
#   scripts/bench-capacity.sh [J...]        default: -j 1 8 16 32 64
#
# CONTRACTBENCH_CAPACITY_PACE sets the pace (3s), CONTRACTBENCH_CAPACITY_FLAGS
# adds flags to every run, CONTRACTBENCH_BENCH_BIN runs another build than
# bin/contractbench. Needs jq.
set -eu
cd "$(dirname "$0")/.."
js=${*:-1 8 16 32 64}
bin=${CONTRACTBENCH_BENCH_BIN:-bin/contractbench}
pace=${CONTRACTBENCH_CAPACITY_PACE:-3s}
per=${CONTRACTBENCH_CAPACITY_PER_BROWSER:-8}
waves=${CONTRACTBENCH_CAPACITY_WAVES:-1}
least=${CONTRACTBENCH_CAPACITY_MIN:-6}
extra=${CONTRACTBENCH_CAPACITY_FLAGS:-}
suites="benchmarks/webvoyager benchmarks/sandbox"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
hz=$(getconf CLK_TCK)
pace_ms=$(awk -v p="$pace" 'BEGIN {
	n = p + 0; u = p; sub(/^[0-9.]+/, "", u)
	f = (u == "ms") ? 1 : (u == "s") ? 1000 : (u == "m") ? 60000 : -1
	if (f < 0) { print "bad pace " p > "/dev/stderr"; exit 1 }
	print n * f }')

SAMPLE_EVERY=1
. "$(dirname "$0")/sample.sh"

echo "pace $pace, a browser per $per workers, $(nproc) cores, $(awk '/MemTotal/ { printf "%.1f", $2 / 1048576 }' /proc/meminfo) GiB"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| -j | browsers | attempts | wall s | tasks/min | over p50 s | over p90 s | peak PSS MiB | CPU s/task | errors |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for j in $js; do
	browsers=$(((j + per - 1) / per))
	want=$((j * waves))
	[ "$want" -lt "$least" ] && want=$least
	: >"$out/over"
	wall=0 peak=0 ticks=0 attempts=0 errors=0
	for suite in $suites; do
		ids=$(ls "$suite/tasks" | sed -n 's/\.yaml$//p')
		n=$(echo "$ids" | wc -l)
		repeat=$(((want + n - 1) / n))
		take=$(((want + repeat - 1) / repeat))
		flags=""
		for id in $(echo "$ids" | head -n "$take"); do flags="$flags --task $id"; done
		rm -rf "$out/report" && mkdir "$out/report"
		start=$(date +%s.%N)
		# shellcheck disable=SC2086 # flags are words on purpose
		"$bin" run --suite "$suite" -j "$j" --browsers "$browsers" --pace "$pace" --repeat "$repeat" \
			--out "$out/report" $flags $extra >"$out/stdout" 2>"$out/err" &
		pid=$!
		echo 0 >"$out/peak"
		sample "$pid" "$out/peak" "$out/ticks" &
		sampler=$!
		code=0
		wait "$pid" || code=$?
		end=$(date +%s.%N)
		wait "$sampler" || true
		json=$(ls "$out"/report/*.json 2>/dev/null | head -n 1)
		if [ "$code" -gt 3 ] || [ -z "$json" ]; then
			echo "run failed at -j $j on $suite (exit $code):" >&2
			cat "$out/err" >&2
			exit 1
		fi
		wall=$(awk -v w="$wall" -v a="$start" -v b="$end" 'BEGIN { print w + b - a }')
		p=$(cat "$out/peak")
		[ "$p" -gt "$peak" ] && peak=$p
		ticks=$((ticks + $(cat "$out/ticks")))
		attempts=$((attempts + $(jq '.results | length' "$json")))
		errors=$((errors + $(jq '[.results[] | select(.outcome == "error" or .outcome == "interrupted")] | length' "$json")))
		# What did not pass, and why, counted by the start of the reason
		# (on stderr: a timeout or a drift under load is worth knowing).
		jq -r --arg j "$j" --arg suite "$suite" '.results[] | select(.outcome != "passed")
			| "-j \($j) \($suite): \(.outcome): \(.reason // "" | .[0:90])"' "$json" | sort | uniq -c >&2
		jq -r --argjson pace "$pace_ms" '.results[] | select(.outcome != "error" and .outcome != "interrupted")
			| (.duration_ms - $pace * (.tool_calls + 1)) / 1000' "$json" >>"$out/over"
	done
	sort -n "$out/over" >"$out/over.sorted"
	q() { awk -v p="$1" '{ v[NR] = $1 } END { if (NR == 0) { print "-"; exit } r = int(p * NR + 0.999999); if (r < 1) r = 1; printf "%.2f", v[r] }' "$out/over.sorted"; }
	printf '| %d | %d | %d | %.0f | %.1f | %s | %s | %.0f | %.2f | %d |\n' "$j" "$browsers" "$attempts" "$wall" \
		"$(awk -v n="$attempts" -v w="$wall" 'BEGIN { print n * 60 / w }')" "$(q 0.5)" "$(q 0.9)" \
		"$(awk -v k="$peak" 'BEGIN { print k / 1024 }')" \
		"$(awk -v t="$ticks" -v hz="$hz" -v n="$attempts" 'BEGIN { print t / hz / n }')" "$errors"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
