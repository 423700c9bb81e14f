# The process-tree sampling that scripts/bench-speed.sh and
# scripts/bench-capacity.sh share: sourced, never run alone.
# SAMPLE_EVERY is the time between samples in seconds (default 0.2).

# snapshot prints, for process $1 and all its descendants, one line per
# process: "pid ticks pss", its CPU time so far (user + system, in clock
# ticks) and its PSS in KiB.
snapshot() {
	# A process can end between the listing and the reading: cat skips
	# it (awk would stop).
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v root="$1" '
		{ pid = $1
			# the command may hold spaces and parentheses: the fields
			# after it start after the last ")".
			s = $0; sub(/.*\) /, "", s); split(s, f, " ")
			parent[pid] = f[2]; ticks[pid] = f[12] + f[13] }
		END {
			keep[root] = 1
			do { changed = 0
				for (p in parent) if (!(p in keep) && (parent[p] in keep)) { keep[p] = 1; changed = 1 }
			} while (changed)
			for (p in keep) {
				kib = 0
				file = "/proc/" p "/smaps_rollup"
				while ((getline line < file) > 0) if (line ~ /^Pss:/) { split(line, g, " "); kib = g[2] }
				close(file)
				print p, ticks[p], kib
			}
		}'
}

# sample follows process $1's tree until it exits: $2 gets the peak of its
# summed PSS in KiB, $3 the CPU ticks of every process it saw (the last
# reading of each; a process that lived less than a sample is missed).
sample() {
	peak=0
	: >"$3.all"
	while kill -0 "$1" 2>/dev/null; do
		snapshot "$1" >"$3.now" || true
		cat "$3.now" >>"$3.all"
		now=$(awk '{ s += $3 } END { print s + 0 }' "$3.now")
		[ "$now" -gt "$peak" ] && peak=$now
		echo "$peak" >"$2"
		sleep "${SAMPLE_EVERY:-0.2}"
	done
	awk '{ if ($2 > t[$1]) t[$1] = $2 } END { for (p in t) s += t[p]; print s + 0 }' "$3.all" >"$3"
}
