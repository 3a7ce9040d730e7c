#!/usr/bin/env bash
# make demo: show ptoc on an example: convert a few values with `ptoc cvt`, then
# compile examples/cvt_kernel.pto to C and run it with `ptoc run` on deterministic
# f32 inputs, printing some inputs beside their f16 (RINT) and bf16 (TRUNC) results.
set -euo pipefail
BUILD=${1:-build}
P=$BUILD/bin/ptoc
ROOT=$(cd "$(dirname "$0")/.." && pwd)
echo "== ptoc cvt: f32 -> f16, f32 -> hif8 =="
$P cvt --from f32 --to f16 --rmode ODD 0x42F67777 || true
$P cvt --from f32 --to hif8 --rmode HYBRID 0x42F67777 || true

T=$(mktemp -d "${TMPDIR:-/tmp}/ptoc-demo-XXXXXX")
trap 'rm -rf "$T"' EXIT
echo
echo "== ptoc examples/cvt_kernel.pto (the generated C, first instructions) =="
$P "$ROOT/examples/cvt_kernel.pto" -o "$T/cvt_kernel.c"
grep -m 6 -A1 '^	/\* .*pto\.i\.' "$T/cvt_kernel.c" | grep -v '^--' || true
echo
echo "== ptoc run examples/cvt_kernel.pto =="
/usr/bin/python3 - "$T/in.bin" <<'PY'
import struct, sys
vals = [1.0, -2.5, 3.14159265, 65504.0, 65520.0, 1e-8, 6.1e-5, -0.0, 1e30, 0.1]
vals += [((i * 2654435761) % 100003 - 50000) / 37.0 for i in range(512 - len(vals))]
open(sys.argv[1], "wb").write(struct.pack("<512f", *vals))
PY
$P run "$ROOT/examples/cvt_kernel.pto" --in src="$T/in.bin" --out f16="$T/f16.bin" --out bf16="$T/bf16.bin"
/usr/bin/python3 - "$T" <<'PY'
import struct, sys
d = sys.argv[1]
x = struct.unpack("<512I", open(d + "/in.bin", "rb").read())
h = struct.unpack("<512H", open(d + "/f16.bin", "rb").read())
b = struct.unpack("<512H", open(d + "/bf16.bin", "rb").read())
f32 = lambda u: struct.unpack("<f", struct.pack("<I", u))[0]
f16 = lambda u: struct.unpack("<e", struct.pack("<H", u))[0]
print("  %-28s %-24s %s" % ("f32 input", "f16 (RINT, sat on)", "bf16 (TRUNC)"))
for i in range(12):
    print("  0x%08x %-17.9g 0x%04x %-17.9g 0x%04x %.9g" % (x[i], f32(x[i]), h[i], f16(h[i]), b[i], f32(b[i] << 16)))
PY
