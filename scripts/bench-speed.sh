#!/bin/sh
# Measures how long `contractbench run` takes for the whole suite, end to
# end (process start, browsers, MCP servers, judging, report), at several
# -j, and prints the median of N runs for each.
#
# CPU time is measured twice. The machine's: what all processors spent
# during the run, from /proc/stat, which counts whatever else runs on the
# machine too. The run's: the user and system time of contractbench and
# every process under it (browsers with their renderers, tool servers),
# read from /proc every 0.2 s, the last reading of each process; a process
# that lives less than a sample is missed. Chromium's renderers are forked
# by its zygote and reaped there, so the CPU time of our own child
# processes alone would miss most of it. The CPU seconds per task and
# tasks per CPU-second are from the run's CPU time.
#
# Peak memory is the largest sum, over the run's samples (every 0.2 s), of
# the proportional set size (PSS: shared pages split between the processes
# sharing them) of contractbench and every process under it (browsers, tool
# servers), divided by -j: the memory one worker needs.
#
#   scripts/bench-speed.sh [RUNS] [J...]      default: 5 runs at -j 1 2 3
#
# Extra flags for `contractbench run` go in CONTRACTBENCH_BENCH_FLAGS (for
# example "--isolate process" to measure a browser per task). The tasks
# to run go in CONTRACTBENCH_BENCH_TASKS, ids or number prefixes separated
# by spaces (for example "task-01 task-02"; each must select one task, as
# the per-task figures divide by their number); the default is the whole
# suite. CONTRACTBENCH_BENCH_BIN runs another build than bin/contractbench
# (to compare two builds, run them in turn, one run at a time).
set -eu
cd "$(dirname "$0")/.."
runs=${1:-5}
shift 2>/dev/null || true
js=${*:-1 2 3}
bin=${CONTRACTBENCH_BENCH_BIN:-bin/contractbench}
suite=${CONTRACTBENCH_BENCH_SUITE:-benchmarks/webvoyager}
flags=${CONTRACTBENCH_BENCH_FLAGS:-}
tasks=${CONTRACTBENCH_BENCH_TASKS:-}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# cpu prints the CPU time all processors have spent so far, in clock ticks
# (user, nice, system, irq, softirq; not idle or iowait).
cpu() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }
hz=$(getconf CLK_TCK)
# median reads sorted numbers, one per line.
median() { awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

. "$(dirname "$0")/sample.sh"

if [ -n "$tasks" ]; then
	n=0
	for t in $tasks; do
		flags="$flags --task $t"
		n=$((n + 1))
	done
	what="$n of its tasks: $tasks"
else
	n=$(find "$suite" -maxdepth 2 -name '*.yaml' -path '*/tasks/*' | wc -l)
	what="$n tasks"
fi
echo "suite: $suite ($what), $(nproc) cores, $runs runs per setting${CONTRACTBENCH_BENCH_FLAGS:+, flags: $CONTRACTBENCH_BENCH_FLAGS}"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| -j | median s | min s | max s | machine CPU s | run's CPU s | CPU s per task | tasks per CPU s | peak MiB per worker |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for j in $js; do
	times=""
	cpus=""
	mems=""
	trees=""
	i=0
	while [ "$i" -lt "$runs" ]; do
		cpu0=$(cpu)
		start=$(date +%s.%N)
		# shellcheck disable=SC2086 # flags are words on purpose
		"$bin" run --suite "$suite" -j "$j" --gate --out "$out" $flags >/dev/null 2>"$out/err" &
		pid=$!
		echo 0 >"$out/peak"
		sample "$pid" "$out/peak" "$out/ticks" &
		sampler=$!
		if ! wait "$pid"; then
			wait "$sampler" || true
			echo "run failed at -j $j:" >&2
			cat "$out/err" >&2
			exit 1
		fi
		end=$(date +%s.%N)
		cpu1=$(cpu)
		wait "$sampler" || true
		times="$times $(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')"
		cpus="$cpus $(awk -v a="$cpu0" -v b="$cpu1" -v hz="$hz" 'BEGIN { print (b - a) / hz }')"
		mems="$mems $(cat "$out/peak")"
		trees="$trees $(awk -v t="$(cat "$out/ticks")" -v hz="$hz" 'BEGIN { print t / hz }')"
		i=$((i + 1))
	done
	w=$(echo "$times" | tr ' ' '\n' | grep . | sort -n)
	c=$(echo "$cpus" | tr ' ' '\n' | grep . | sort -n)
	m=$(echo "$mems" | tr ' ' '\n' | grep . | sort -n)
	t=$(echo "$trees" | tr ' ' '\n' | grep . | sort -n)
	mt=$(echo "$t" | median)
	printf '| %d | %.2f | %.2f | %.2f | %.1f | %.1f | %.2f | %.2f | %.0f |\n' "$j" "$(echo "$w" | median)" \
		"$(echo "$w" | head -n 1)" "$(echo "$w" | tail -n 1)" "$(echo "$c" | median)" "$mt" \
		"$(awk -v c="$mt" -v n="$n" 'BEGIN { print c / n }')" \
		"$(awk -v c="$mt" -v n="$n" 'BEGIN { print n / c }')" \
		"$(awk -v k="$(echo "$m" | median)" -v j="$j" 'BEGIN { print k / 1024 / j }')"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
