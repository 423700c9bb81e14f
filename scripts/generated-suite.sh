#!/bin/sh
# Writes benchmarks/generated again from its seed and count, then records
# the reference transcripts of every task on the built-in server and of a
# sample on both peers (make generated). Run it after changing a template
# or an application's pages: TestGenerated fails until the committed suite
# is what the templates make.
#
# The peers' sample is the first two instances of every template: each
# template, and so each widget, on each server. A peer runs a browser per
# task (process isolation, docs/decisions/0011-browser-per-worker.md) and
# takes about three times as long per task as the built-in server, so the
# whole suite on three servers would cost a regeneration three times the
# time; the built-in server's transcripts cover every instance.
#
#   scripts/generated-suite.sh            SEED=1 COUNT=... to override
set -eu
BIN=${CONTRACTBENCH_BIN:-bin/contractbench}
DIR=benchmarks/generated
SEED=${SEED:-1}
J=${J:-2}
if [ -z "${COUNT:-}" ]; then
	COUNT=$(sed -n 's/^  "count": \([0-9]*\),$/\1/p' "$DIR/generated.json" 2>/dev/null || true)
fi
COUNT=${COUNT:-320}

rm -rf "$DIR"
"$BIN" generate --seed "$SEED" --count "$COUNT" --out "$DIR"
"$BIN" validate "$DIR"
"$BIN" record --agent reference --suite "$DIR" -j "$J"

sample=""
for id in $(ls "$DIR/tasks" | sed -n 's/\.yaml$//p' | grep -E -- '-0[12]$'); do
	sample="$sample --task $id"
done
for server in playwright chrome-devtools; do
	# shellcheck disable=SC2086 # one --task flag per word
	"$BIN" record --agent reference --suite "$DIR" --server "$server" -j "$J" $sample
done
