#!/usr/bin/python3
"""cvt_check.py: the independent checker of the end-to-end conversion tests.

  cvt_check.py gen NBYTES SEED FILE
      deterministic input bytes: special patterns (zeros, all ones, sign bits, exponent
      extremes) mixed with xorshift noise, so every type sees signs, NaN/inf,
      subnormals, large and small magnitudes
  cvt_check.py check PTOC FROM TO RMODE on|off IN OUT ROWS COLS VROWS VCOLS
      element (r, c) of OUT must be `ptoc cvt` of element (r, c) of IN for r < VROWS,
      c < VCOLS, and zero elsewhere (an --out buffer starts zeroed). Files are raw
      row-major ROWS x COLS elements (4-bit types two per byte, low nibble first).

`ptoc cvt` (no --target) runs ptort_cvt1, which has its own exhaustive tests; it shares
nothing with the compiler's passes, emit-c, the harness or the instruction model.
"""
import subprocess
import sys

BITS = {"f32": 32, "f16": 16, "bf16": 16, "f8E4M3FN": 8, "f8E5M2": 8, "hif8": 8,
        "f4E2M1FN": 4, "f4E1M2": 4, "f8E8M0FNU": 8, "i4": 4, "i8": 8, "i16": 16,
        "i32": 32, "i64": 64, "ui8": 8, "ui16": 16, "ui32": 32, "ui64": 64,
        "si8": 8, "si16": 16, "si32": 32, "si64": 64, "u8": 8, "u16": 16, "u32": 32,
        "u64": 64}


def elems(data, bits, n):
    if bits == 4:
        return [(data[i // 2] >> (4 * (i % 2))) & 0xF for i in range(n)]
    w = bits // 8
    if len(data) >= n * w and sys.byteorder == "little":  # the same integers, read at once
        return memoryview(data[:n * w]).cast({1: "B", 2: "H", 4: "I", 8: "Q"}[w]).tolist()
    return [int.from_bytes(data[i * w:(i + 1) * w], "little") for i in range(n)]


def gen(nbytes, seed, path):
    special = [0x00, 0xFF, 0x80, 0x7F, 0x7C, 0x3C, 0xFC, 0x01]
    s = (0x9E3779B97F4A7C15 ^ seed) & (2**64 - 1)
    out = bytearray()
    for _ in range(nbytes):
        s ^= (s << 13) & (2**64 - 1)
        s ^= s >> 7
        s ^= (s << 17) & (2**64 - 1)
        out.append(special[(s >> 40) % 8] if (s >> 29) % 5 == 0 else (s >> 32) & 0xFF)
    with open(path, "wb") as f:
        f.write(out)


def check(ptoc, frm, to, rmode, sat, inp, outp, rows, cols, vr, vc):
    n = rows * cols
    fb, tb = BITS[frm], BITS[to]
    data_in, data_out = open(inp, "rb").read(), open(outp, "rb").read()
    if len(data_in) * 8 != n * fb or len(data_out) * 8 != n * tb:
        print("cvt_check: sizes %d and %d bytes do not match %dx%d elements"
              % (len(data_in), len(data_out), rows, cols))
        return 1
    x, y = elems(data_in, fb, n), elems(data_out, tb, n)
    sel = [r * cols + c for r in range(vr) for c in range(vc)]
    text = "".join("0x%x\n" % x[i] for i in sel)
    res = subprocess.run([ptoc, "cvt", "--from", frm, "--to", to, "--rmode", rmode, "--sat", sat],
                         input=text, capture_output=True, text=True)
    if res.returncode != 0:
        print("cvt_check: ptoc cvt failed: " + res.stderr)
        return 1
    want = [0] * n
    for i, line in zip(sel, res.stdout.split()):
        want[i] = int(line, 16)
    bad = [i for i in range(n) if want[i] != y[i]]
    for i in bad[:10]:
        print("cvt_check: (%d, %d): %s 0x%x -> got 0x%x, expected 0x%x"
              % (i // cols, i % cols, frm, x[i], y[i], want[i]))
    if bad:
        print("cvt_check: %d mismatches" % len(bad))
        return 1
    print("cvt_check: %d elements ok" % n)
    return 0


def main(argv):
    if len(argv) == 5 and argv[1] == "gen":
        gen(int(argv[2]), int(argv[3]), argv[4])
        return 0
    if len(argv) == 13 and argv[1] == "check":
        a = argv[2:]
        return check(a[0], a[1], a[2], a[3], a[4], a[5], a[6], *map(int, a[7:11]))
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
