#!/usr/bin/env bash
# Bounded libFuzzer run of the frontend (parse, verify, print both forms, re-parse and
# compare), seeded with the test inputs and the PTOAS corpus of $PTOC_SHARED_DIR
# (default ../shared; left out when absent). Findings (crash-*,
# timeout-*, oom-*) are written to $BUILD/fuzz-artifacts/; the exit status is libFuzzer's.
# usage: scripts/fuzz.sh [BUILD_DIR] [SECONDS]
set -euo pipefail
BUILD=${1:-build-fuzz}
SECONDS_MAX=${2:-120}
seeds=$(mktemp -d)
work=$(mktemp -d)
trap 'rm -rf "$seeds" "$work"' EXIT
i=0
while IFS= read -r -d '' f; do
  cp "$f" "$seeds/seed_$i.pto"; i=$((i + 1))
done < <(find test/lit -name '*.pto' -print0 2>/dev/null)
SHARED=${PTOC_SHARED_DIR:-../shared}
if [ -d "$SHARED/corpus/ptoas" ]; then
  while IFS= read -r -d '' f; do
    cp "$f" "$seeds/corpus_$i.pto"; i=$((i + 1))
  done < <(find "$SHARED/corpus/ptoas" -name '*.pto' -print0)
fi
mkdir -p "$BUILD/fuzz-artifacts"
# A fixed seed (FUZZ_SEED, default 1) makes a CI run a prefix of one reproducible
# sequence of inputs; set FUZZ_SEED=0 for a fresh random seed when hunting.
"$BUILD"/bin/ptoc-fuzz-frontend -seed="${FUZZ_SEED:-1}" -max_total_time="$SECONDS_MAX" -max_len=65536 -timeout=10 \
  -rss_limit_mb=4096 -artifact_prefix="$BUILD/fuzz-artifacts/" "$work" "$seeds"
