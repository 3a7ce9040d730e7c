#!/usr/bin/env bash
# Bounded libFuzzer run of the frontend, seeded with the test inputs and the corpus.
set -euo pipefail
BUILD=${1:-build-fuzz}
SECONDS_MAX=${2:-120}
seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
find test/lit -name '*.pto' -exec cp {} "$seeds"/ \; 2>/dev/null || true
if [ -d ../shared/corpus/ptoas ]; then
  find ../shared/corpus/ptoas -name '*.pto' | while read -r f; do cp "$f" "$seeds/corpus_$(basename "$f")"; done
fi
work=$(mktemp -d)
"$BUILD"/bin/ptoc-fuzz-frontend -max_total_time="$SECONDS_MAX" -max_len=65536 -timeout=10 -rss_limit_mb=4096 "$work" "$seeds"
rm -rf "$work"
