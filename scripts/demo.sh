#!/usr/bin/env bash
# make demo: show ptoc on an example. Grows as the pipeline does.
set -euo pipefail
BUILD=${1:-build}
P=$BUILD/bin/ptoc
echo "== ptoc cvt: f32 -> f16, f32 -> hif8 =="
$P cvt --from f32 --to f16 --rmode ODD 0x42F67777 || true
