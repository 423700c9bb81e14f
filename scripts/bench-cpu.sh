#!/bin/sh
# What one task costs the processor: a fixed sample run one task at a time
# (-j 1, --trace off), CPU-seconds a task per kind of process and in all.
#
# The sample: the first instance of every template of the generated suite
# and the seed's ten WebVoyager tasks, each with the replay agent and with
# the noop agent (set-up, start page, judge, teardown; no tool call). Each
# of the four runs is repeated RUNS times (3 by default); the table gives
# the medians.
#
# "all" is every process the run started, ended ones included: the run is
# put in a cgroup of its own (cgroup v1 cpuacct, or a child of this shell's
# cgroup v2 group), whose counter the kernel keeps. Where no cgroup can be
# made (not root, a read-only hierarchy), the script says so and "all" is
# the sum of the samples below instead, which misses processes that lived
# less than a sample.
#
# The kinds come from sampling /proc every 0.1 s (the last reading of each
# process): the harness (`contractbench run` itself), the tool server
# (`contractbench mcp`, or a peer's node), Chromium's browser process, its
# renderers, its GPU process, its network service, and "other" (its zygotes
# and other utilities). "unseen" is what the cgroup counted that no sample
# did: processes shorter than a sample, and the last 0.1 s of each one.
#
#   scripts/bench-cpu.sh [RUNS]
#
# CONTRACTBENCH_BENCH_BIN runs another build than bin/contractbench (to
# compare two builds, run them in turn). CONTRACTBENCH_CPU_SAMPLES picks
# some of the four samples by name (generated, generated-noop, seed,
# seed-noop). CONTRACTBENCH_CPU_KEEP=DIR keeps each run's JSON report
# there (to compare verdicts between builds).
set -eu
cd "$(dirname "$0")/.."
runs=${1:-3}
bin=${CONTRACTBENCH_BENCH_BIN:-bin/contractbench}
samples=${CONTRACTBENCH_CPU_SAMPLES:-generated generated-noop seed seed-noop}
keep=${CONTRACTBENCH_CPU_KEEP:-}
out=$(mktemp -d)
cg=""
cleanup() {
	if [ -n "$cg" ] && [ -d "$cg" ]; then
		# Whatever is left would keep the group: move it out first.
		for p in $(cat "$cg/tasks" "$cg/cgroup.procs" 2>/dev/null); do echo "$p" >"$cg_parent/cgroup.procs" 2>/dev/null || true; done
		rmdir "$cg" 2>/dev/null || true
	fi
	rm -rf "$out"
}
trap cleanup EXIT
hz=$(getconf CLK_TCK)

# A cgroup for the runs, v1 cpuacct first, else v2.
usage_s() { :; }
if mkdir "/sys/fs/cgroup/cpuacct/contractbench-cpu.$$" 2>/dev/null; then
	cg=/sys/fs/cgroup/cpuacct/contractbench-cpu.$$
	cg_parent=/sys/fs/cgroup/cpuacct
	usage_s() { awk '{ printf "%.3f", $1 / 1e9 }' "$cg/cpuacct.usage"; }
else
	v2=$(awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup)
	base=/sys/fs/cgroup
	[ -f "$base/cgroup.controllers" ] || base=/sys/fs/cgroup/unified
	if [ -n "$v2" ] && [ -f "$base$v2/cgroup.procs" ] && mkdir "$base$v2/contractbench-cpu.$$" 2>/dev/null; then
		cg=$base$v2/contractbench-cpu.$$
		cg_parent=$base$v2
		usage_s() { awk '$1 == "usage_usec" { printf "%.3f", $2 / 1e6 }' "$cg/cpu.stat"; }
	else
		echo "bench-cpu: no cgroup could be made (needs a writable cpuacct or cgroup v2 hierarchy, usually root);" >&2
		echo "bench-cpu: \"all\" is the sum of /proc samples every 0.1 s, which misses processes shorter than that." >&2
	fi
fi

# kinds prints, for process $1 and its descendants, "pid kind ticks". The
# kind of a process is read from its command line once and kept in $2.
kinds() {
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v root="$1" -v cache="$2" '
		BEGIN { while ((getline l < cache) > 0) { split(l, g, " "); kind[g[1]] = g[2] } close(cache); kind[root] = "harness" }
		{ pid = $1; s = $0; sub(/.*\) /, "", s); split(s, f, " ")
			parent[pid] = f[2]; ticks[pid] = f[12] + f[13] }
		END {
			keep[root] = 1
			do { changed = 0
				for (p in parent) if (!(p in keep) && (parent[p] in keep)) { keep[p] = 1; changed = 1 }
			} while (changed)
			for (p in keep) {
				if (!(p in kind)) {
					c = ""; cmd = "tr \"\\0\" \" \" 2>/dev/null </proc/" p "/cmdline"
					cmd | getline c; close(cmd)
					k = "other"
					# The built-in tool server is the harness binary run
					# as "mcp"; a peer is a node process.
					if (c ~ /^[^ ]+ mcp / || c ~ /^node /) k = "toolserver"
					else if (c ~ /--type=renderer/) k = "renderer"
					else if (c ~ /--type=gpu-process/) k = "gpu"
					else if (c ~ /NetworkService/) k = "network"
					else if (c ~ /chrom/ && c !~ /--type=/) k = "browser"
					# Between its fork and its exec a process still has
					# the command line of its parent (the harness, or the
					# browser for its GPU process and network service),
					# so a "browser" or "other" reading is taken again at
					# the next sample; the other kinds only an exec gives.
					kind[p] = k; if (k != "other" && k != "browser") print p, k >>cache
				}
				print p, kind[p], ticks[p]
			}
		}'
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) { print "-"; exit } print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "$(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg), $runs runs of each sample, $(sh scripts/version.sh 2>/dev/null || echo unknown)"
for name in $samples; do
	case $name in
	generated | generated-noop)
		suite=benchmarks/generated
		ids=$(ls $suite/tasks | sed -n 's/-01\.yaml$/-01/p') ;;
	seed | seed-noop)
		suite=benchmarks/webvoyager
		ids="task-01 task-02 task-03 task-04 task-05 task-06 task-07 task-08 task-09 task-10" ;;
	*) echo "bench-cpu: unknown sample $name" >&2; exit 2 ;;
	esac
	agent=replay
	case $name in *-noop) agent=noop ;; esac
	n=$(echo $ids | wc -w)
	flags=""
	for id in $ids; do flags="$flags --task $id"; done
	for r in $(seq "$runs"); do
		rm -rf "$out/report" && mkdir "$out/report"
		before=0
		[ -n "$cg" ] && before=$(usage_s)
		: >"$out/samples"
		: >"$out/cache"
		start=$(date +%s.%N)
		# shellcheck disable=SC2086 # flags are words on purpose
		sh -c 'if [ -n "$1" ]; then echo $$ >"$1/cgroup.procs"; fi; shift; exec "$@"' sh "$cg" \
			"$bin" run --suite "$suite" -j 1 --trace off --agent "$agent" --out "$out/report" $flags \
			>"$out/stdout" 2>"$out/err" &
		pid=$!
		while kill -0 "$pid" 2>/dev/null; do
			kinds "$pid" "$out/cache" >>"$out/samples" || true
			sleep 0.1
		done
		code=0
		wait "$pid" || code=$?
		end=$(date +%s.%N)
		if [ "$code" -gt 3 ]; then
			echo "bench-cpu: $name run $r failed (exit $code):" >&2
			cat "$out/err" >&2
			exit 1
		fi
		json=$(ls "$out"/report/*.json | head -n 1)
		if [ -n "$keep" ]; then mkdir -p "$keep" && cp "$json" "$keep/$name-$r.json"; fi
		# The last reading of each process, summed per kind, per task. A
		# process's kind is the last one its command line gave other than
		# "other": a process that has ended but is not yet reaped reads
		# an empty command line, and the browser process, the last to go,
		# would be counted as "other" for its whole life.
		awk -v n="$n" -v hz="$hz" '{ if ($3 > t[$1]) t[$1] = $3; if ($2 != "other" || !($1 in k)) k[$1] = $2 }
			END { for (p in t) s[k[p]] += t[p]; for (x in s) printf "%s %.4f\n", x, s[x] / hz / n }' \
			"$out/samples" >"$out/$name.$r.kinds"
		seen=$(awk '{ s += $2 } END { printf "%.4f", s }' "$out/$name.$r.kinds")
		if [ -n "$cg" ]; then
			total=$(awk -v a="$before" -v b="$(usage_s)" -v n="$n" 'BEGIN { printf "%.4f", (b - a) / n }')
		else
			total=$seen
		fi
		echo "all $total" >>"$out/$name.$r.kinds"
		awk -v a="$total" -v b="$seen" 'BEGIN { printf "unseen %.4f\n", a - b }' >>"$out/$name.$r.kinds"
		passed=$(jq '[.results[] | select(.outcome == "passed")] | length' "$json")
		printf '%s run %d: %d tasks, %d passed, %.1f s wall, %s CPU-s a task\n' "$name" "$r" "$n" "$passed" \
			"$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "$total" >&2
	done
done

echo "| sample | tasks | browser | renderer | gpu | network | other chromium | harness | tool server | unseen | all |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for name in $samples; do
	case $name in generated*) n=53 ;; *) n=10 ;; esac
	row="| $name | $n"
	for k in browser renderer gpu network other harness toolserver unseen all; do
		v=$(cat "$out/$name".*.kinds | awk -v k="$k" '$1 == k { print $2 }' | median)
		[ "$v" = "-" ] && v=0
		row="$row | $(printf '%.2f' "$v")"
	done
	echo "$row |"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
