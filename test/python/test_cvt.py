"""ptoc.cvt against the C references: `ptoc cvt --target` (one ptort_cvt1 per value,
the target's chain run by cmd_cvt.c) on every pair, round mode and saturation of both
targets' legality tables; the runtime's slow reference ptort_cvt1 on every pair and
mode the generic semantics define; numpy's own float16 where it applies; the errors."""
import csv
import io
import subprocess
import unittest
import warnings
import zlib

import numpy as np

import ptoc
from util import PTOC, bits_of, carrier, cvt1, cvt_defined, patterns, ptoc_cvt


def as_ints(a, t):
    return [int(x) for x in np.asarray(a).view(carrier(t)).reshape(-1)]


def table(target):
    out = subprocess.run([PTOC, "legality", "--target", target, "--format", "csv"],
                         capture_output=True, text=True, check=True).stdout
    return [r for r in csv.DictReader(io.StringIO(out))
            if r["verdict"] in ("native", "decomposed")]


def source_array(t, bits):
    """The array ptoc.cvt takes for type t: its numpy dtype holding the patterns."""
    return bits.view(ptoc.dtype(t)) if bits_of(t) >= 8 else bits


class TargetTables(unittest.TestCase):
    """Every row of `ptoc legality --format csv` (native and decomposed), each round
    mode it accepts, and each saturation the target honours or forces (ON, OFF and
    none requested), against `ptoc cvt --target`."""

    def sweep(self, target):
        rows = table(target)
        self.assertGreater(len(rows), 40)
        combos = 0
        for r in rows:
            s, d = r["src"], r["dst"]
            x = patterns(s, 600, zlib.crc32((s + d).encode()))  # the same inputs every run
            sats = [None, "on", "off"] if r["sat_explicit"] in ("honoured", "forced ON") else [None]
            for rm in r["rmodes"].split():
                for sat in sats:
                    want = ptoc_cvt(s, d, [int(v) for v in x], rm, sat, target)
                    self.assertIsInstance(want, list, "%s %s->%s %s: %s" % (target, s, d, rm, want))
                    with warnings.catch_warnings(record=True) as w:
                        warnings.simplefilter("always")
                        got = ptoc.cvt(source_array(s, x), d, rmode=rm, sat=sat, target=target,
                                       src=s)
                    self.assertEqual(got.dtype, ptoc.dtype(d))
                    g = as_ints(got, d)
                    bad = [i for i in range(len(g)) if g[i] != want[i]]
                    self.assertEqual(len(bad), 0, "%s %s -> %s %s sat %s: input 0x%x gives 0x%x, ptoc cvt "
                                     "0x%x (%d of %d differ)" % (
                                         target, s, d, rm, sat, int(x[bad[0]]), g[bad[0]],
                                         want[bad[0]], len(bad), len(g)) if bad else "")
                    if sat == "off" and r["sat_explicit"] == "forced ON":
                        self.assertTrue(any("saturation OFF" in str(m.message) for m in w))
                    combos += 1
        return combos

    def test_a2a3(self):
        self.assertGreater(self.sweep("a2a3"), 100)

    def test_a5(self):
        self.assertGreater(self.sweep("a5"), 100)

    def test_default_mode_with_target(self):
        # the default RINT gives what `ptoc cvt --target` gives with its default NONE
        x = np.array([1.1, -3.3, 1e9, 1e-9, np.nan], np.float32)
        for target, d in (("a2a3", "f16"), ("a5", "bf16"), ("a2a3", "i16"), ("a5", "f8E4M3FN")):
            want = ptoc_cvt("f32", d, as_ints(x, "f32"), target=target)
            self.assertEqual(as_ints(ptoc.cvt(x, d, target=target), d), want, (target, d))


class Generic(unittest.TestCase):
    """Every pair and round mode of the generic semantics (no target), saturation
    default, ON and OFF, against ptort_cvt1."""

    def test_every_pair_and_mode(self):
        n = 0
        for s in ptoc.TYPES:
            x = patterns(s, 96, 7)
            for d in ptoc.TYPES:
                for rm in ptoc.RMODES:
                    if not cvt_defined(s, d, rm):
                        with self.assertRaises(ValueError):
                            ptoc.cvt(source_array(s, x), d, rmode=rm, src=s)
                        continue
                    for sat in (None, True, False):
                        got = as_ints(ptoc.cvt(source_array(s, x), d, rmode=rm, sat=sat, src=s), d)
                        want = cvt1(s, d, x, rm, None if sat is None else int(sat))
                        bad = [i for i in range(len(got)) if got[i] != want[i]]
                        self.assertEqual(len(bad), 0, "%s -> %s %s sat %s: 0x%x gives 0x%x, ptort_cvt1 "
                                         "0x%x" % (s, d, rm, sat, int(x[bad[0]]), got[bad[0]],
                                                   want[bad[0]]) if bad else "")
                        n += 1
        self.assertGreater(n, 1000)

    def test_against_ptoc_cvt(self):
        # the command line's generic path, on a few pairs with every value
        for s, d, rm in (("f16", "f32", "RINT"), ("bf16", "f16", "FLOOR"), ("f32", "f8E5M2", "RINT"),
                         ("hif8", "f32", "RINT"), ("f4E1M2", "bf16", "RINT"), ("i32", "f16", "ROUND")):
            x = patterns(s, 4000, 3)
            got = as_ints(ptoc.cvt(source_array(s, x), d, rmode=rm, src=s), d)
            self.assertEqual(got, ptoc_cvt(s, d, [int(v) for v in x], rm))


class NumpyFloat16(unittest.TestCase):
    """numpy's float16 conversions are IEEE's: RINT, overflow to inf (saturation OFF)."""

    def test_f32_to_f16(self):
        rng = np.random.default_rng(1)
        bits = np.concatenate([rng.integers(0, 1 << 32, 1 << 20, dtype=np.uint64).astype(np.uint32),
                               patterns("f32", 1000, 2)])
        x = bits.view(np.float32)
        with np.errstate(over="ignore", invalid="ignore"):
            ref = x.astype(np.float16)
        got = ptoc.cvt(x, "f16", sat=False)
        nan = np.isnan(ref)
        self.assertTrue(np.array_equal(np.isnan(got), nan))
        self.assertTrue(np.array_equal(got.view(np.uint16)[~nan], ref.view(np.uint16)[~nan]))

    def test_f16_to_f32(self):
        x = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
        ref = x.astype(np.float32)
        got = ptoc.cvt(x, "f32")
        self.assertEqual(got.dtype, np.float32)
        nan = np.isnan(ref)
        self.assertTrue(np.array_equal(np.isnan(got), nan))
        self.assertTrue(np.array_equal(got.view(np.uint32)[~nan], ref.view(np.uint32)[~nan]))

    def test_f32_to_i32_trunc(self):
        x = np.linspace(-1e6, 1e6, 10001, dtype=np.float32)
        self.assertTrue(np.array_equal(ptoc.cvt(x, "i32", rmode="TRUNC"), x.astype(np.int32)))


class Arrays(unittest.TestCase):
    def test_shapes_and_layouts(self):
        x = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7
        ref = x.astype(np.float16)
        self.assertEqual(ptoc.cvt(x, "f16").shape, (2, 3, 4))
        self.assertTrue(np.array_equal(ptoc.cvt(x, "f16"), ref))
        self.assertTrue(np.array_equal(ptoc.cvt(np.asfortranarray(x), "f16"), ref))
        self.assertTrue(np.array_equal(ptoc.cvt(x[:, ::2, 1:], "f16"), ref[:, ::2, 1:]))
        self.assertEqual(ptoc.cvt(np.zeros((0, 5), np.float32), "bf16").shape, (0, 5))
        self.assertEqual(ptoc.cvt(np.float32(1.5), "f16")[()], np.float16(1.5))
        self.assertTrue(np.array_equal(ptoc.cvt(np.array([1.0, 2.5], np.float32), "i32"),
                                       np.array([1, 2], np.int32)))

    def test_four_bit_packing(self):
        # odd lengths, both nibbles: f4E2M1FN codes -> bf16 -> back
        codes = np.arange(16, dtype=np.uint8)
        for n in (1, 2, 15, 16, 31):
            c = np.resize(codes, n)
            b = ptoc.cvt(c, "bf16", src="f4E2M1FN")
            self.assertEqual(b.dtype, np.uint16)
            self.assertEqual(as_ints(b, "bf16"), cvt1("f4E2M1FN", "bf16", c, "RINT", None))
            back = ptoc.cvt(b, "f4E2M1FN", src="bf16")
            self.assertEqual(back.dtype, np.uint8)
            self.assertTrue(np.array_equal(back, c))

    def test_types_by_numpy_dtype(self):
        x = np.array([1.25, -7.5], np.float32)
        self.assertTrue(np.array_equal(ptoc.cvt(x, np.float16), x.astype(np.float16)))
        self.assertEqual(ptoc.dtype("bf16"), np.uint16)
        self.assertEqual(ptoc.dtype("e4m3"), np.uint8)
        self.assertEqual(ptoc.dtype("i4"), np.uint8)
        self.assertEqual(ptoc.dtype("half"), np.float16)
        self.assertIn("hif8", ptoc.TYPES)
        self.assertIn("HYBRID", ptoc.RMODES)
        self.assertEqual(ptoc.TARGETS, ("a2a3", "a5"))


class Errors(unittest.TestCase):
    def test_errors(self):
        x = np.ones(4, np.float32)
        with self.assertRaisesRegex(ValueError, r"unknown type 'f33' \(f32, f16, bf16"):
            ptoc.cvt(x, "f33")
        with self.assertRaisesRegex(ValueError, r"^no conversion from f32 to f8E8M0FNU$"):
            ptoc.cvt(x, "e8m0")
        with self.assertRaisesRegex(ValueError, r"^round mode ODD is not allowed for f32 -> bf16"):
            ptoc.cvt(x, "bf16", rmode="ODD")
        with self.assertRaisesRegex(ValueError, r"unknown round mode 'RNE'"):
            ptoc.cvt(x, "bf16", rmode="RNE")
        with self.assertRaisesRegex(ValueError, r"unknown target 'a9'"):
            ptoc.cvt(x, "bf16", target="a9")
        with self.assertRaisesRegex(ValueError, r"^f16 -> f8E4M3FN is not supported on a2a3; legal "
                                    "destinations of f16: "):
            ptoc.cvt(x.astype(np.float16), "f8E4M3FN", target="a2a3")
        with self.assertRaisesRegex(TypeError, r"a float64 array needs src="):
            ptoc.cvt(np.ones(3), "f16")
        with self.assertRaisesRegex(TypeError, r"src='bf16' takes uint16 arrays, not float32"):
            ptoc.cvt(x, "f32", src="bf16")
        with self.assertRaisesRegex(ValueError, r"element 2 is 0x10, not a 4-bit pattern"):
            ptoc.cvt(np.array([1, 2, 16], np.uint8), "bf16", src="f4E2M1FN")
        with self.assertRaisesRegex(ValueError, r"sat must be"):
            ptoc.cvt(x, "i16", sat="yes")


if __name__ == "__main__":
    unittest.main()
