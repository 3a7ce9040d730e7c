"""ptoc from Python: conversions, legality, compilation and runs of PTO kernels.

A pure-Python package over the project's shared libraries (libptoc, libptort, through
ctypes) and the ``ptoc`` program, documented in docs/python.md:

* ``cvt(array, to, rmode='RINT', sat=None, target=None, src=None)``: converts a numpy
  array bit-exactly as the runtime does (``ptoc cvt``);
* ``legality(target, src, dst, rmode, sat=None)``: the verdict line of
  ``ptoc legality``;
* ``compile(text_or_path, target=None, emit='c', entry=None)``: the output text of
  ``ptoc``; errors raise ``CompileError``;
* ``run(kernel, target=None, entry=None, inputs=None, outputs=(), args=None,
  blocks=1)``: compiles and runs a kernel (``ptoc run``) on numpy arrays and returns
  its output buffers as arrays shaped as their views; errors raise ``CompileError``
  or ``RunError``.

Types, round modes and targets are named as on the command line ("f32", "bf16",
"hif8", "e4m3", ...; "RINT", "CAST_ROUND", ...; "a2a3", "a3", "a5"). The element
types numpy lacks (bf16, the fp8 and fp4 formats, hif8, e8m0, i4) travel as bit
patterns in the unsigned integers of their storage width: bf16 in uint16, the 8-bit
formats in uint8, the 4-bit ones one per uint8 in its low four bits (``dtype(t)``).
"""

import functools
import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np

from . import _lib

__all__ = ["cvt", "legality", "compile", "run", "dtype", "Error", "CompileError", "RunError",
           "CompileWarning", "TYPES", "RMODES", "TARGETS", "EMITS"]


class Error(Exception):
    """Any error ptoc reports about its input."""


class CompileError(Error):
    """The kernel did not compile; the message holds ptoc's diagnostics
    (``file:line:col: error: ...`` with the source line and a caret)."""


class RunError(Error):
    """The kernel compiled but its run failed: a bad input array (dtype, shape), a
    runtime error of an instruction, a race between blocks, a missing C compiler. The
    message is what ``ptoc run`` reported."""


class CompileWarning(UserWarning):
    """A warning or remark of a successful compile (the rendered diagnostic)."""


def _names(fn):
    out, i = [], 0
    while True:
        n = fn(i).decode()
        if n == "?":
            return tuple(out)
        out.append(n)
        i += 1


TYPES = _names(_lib.type_name)      # canonical spellings, in ptort_type order
RMODES = _names(_lib.rmode_name)
TARGETS = _names(_lib.target_name)
EMITS = ("c", "main", "ir", "generic", "lowered", "none")

# numpy's own dtype of the types it has; every other travels as bits (_carrier)
_NATIVE = {"f32": np.float32, "f16": np.float16, "i8": np.int8, "i16": np.int16,
           "i32": np.int32, "i64": np.int64, "ui8": np.uint8, "ui16": np.uint16,
           "ui32": np.uint32, "ui64": np.uint64}
_BY_DTYPE = {np.dtype(v): k for k, v in _NATIVE.items()}
_UNSIGNED = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def _parse(fn, kind, name, known):
    if isinstance(name, str):
        v = _lib.c_int()
        b = name.encode()
        if fn(b, len(b), _lib.ctypes.byref(v)) == 0:
            return v.value
    raise ValueError("unknown %s %r (%s)" % (kind, name, ", ".join(known)))


@functools.lru_cache(maxsize=256)
def _type(t):
    """A type name (or a numpy dtype numpy has) -> (ptort_type, canonical name)."""
    if not isinstance(t, str):
        try:
            name = _BY_DTYPE[np.dtype(t)]
        except (TypeError, KeyError):
            raise ValueError("unknown type %r (%s, or the numpy dtypes of %s)"
                             % (t, ", ".join(TYPES), ", ".join(_NATIVE))) from None
        t = name
    i = _parse(_lib.type_parse, "type", t, TYPES)
    return i, TYPES[i]


@functools.lru_cache(maxsize=64)
def _rmode(m):
    return _parse(_lib.rmode_parse, "round mode", m, RMODES)


@functools.lru_cache(maxsize=64)
def _target(t):
    return _parse(_lib.target_parse, "target", t, ("a2a3", "a3", "a2", "a5"))


def _bits(t):
    return _lib.type_bits(t)


@functools.lru_cache(maxsize=256)
def dtype(t):
    """The numpy dtype that carries element type ``t`` in arrays: numpy's own for f32,
    f16 and the integers, else the unsigned integer of the storage width (bf16: uint16;
    fp8, hif8, e8m0: uint8; f4E2M1FN, f4E1M2, i4: uint8, one element per byte)."""
    i, name = _type(t)
    if name in _NATIVE:
        return np.dtype(_NATIVE[name])
    return np.dtype(_UNSIGNED[max(8, _bits(i))])


def _sat(sat):
    if sat is None:
        return -1
    if isinstance(sat, str):
        if sat.lower() in ("on", "off"):
            return 1 if sat.lower() == "on" else 0
        raise ValueError("sat must be None, True, False, 'on' or 'off', not %r" % sat)
    return 1 if sat else 0


# ---- cvt ---------------------------------------------------------------------------


def _pack4(flat):
    """One 4-bit element per byte -> two per byte, element 2k in the low nibble."""
    if flat.size and int(flat.max()) > 0xF:
        k = int(np.argmax(flat > 0xF))
        raise ValueError("element %d is 0x%X, not a 4-bit pattern (0 to 0xF, one per uint8)"
                         % (k, int(flat[k])))
    if flat.size % 2:
        flat = np.concatenate([flat, np.zeros(1, np.uint8)])
    return flat[0::2] | (flat[1::2] << 4)


def _unpack4(packed, n):
    out = np.empty(n, np.uint8)
    out[0::2] = packed[:(n + 1) // 2] & 0xF
    out[1::2] = packed[:n // 2] >> 4
    return out


_NO_WARN = _lib.MSG_FN(0)  # a NULL ptoc_msg_fn


def cvt(array, to, rmode="RINT", sat=None, target=None, src=None):
    """Converts the elements of ``array`` to type ``to`` bit-exactly as ptoc's runtime
    (``ptoc cvt``; docs/semantics.md §3) and returns a new array of the same shape, of
    ``dtype(to)``.

    The source type is ``src`` when given (the array then holds its values in
    ``dtype(src)``, bit patterns for the types numpy lacks), else the array's dtype
    (float32, float16, int8 .. uint64). ``rmode``: RINT, ROUND, FLOOR, CEIL, TRUNC,
    ODD, NONE, HYBRID (with a target NONE is RINT wherever the pair rounds). ``sat``: None (the pair's
    default; with a target, none requested), True/'on' or False/'off'. ``target``:
    None for ptoc's generic semantics, or a target whose tcvt rules apply
    (``ptoc cvt --target``): an illegal pair or mode raises ValueError, saturation is
    what the target executes, a decomposition runs its chain, and the target's
    warnings are issued as Python warnings.
    """
    a = np.asarray(array)
    if src is None:
        if a.dtype not in _BY_DTYPE:
            raise TypeError("a %s array needs src= (the element type whose values or bit "
                            "patterns it holds); without src the dtype must be one of %s"
                            % (a.dtype, ", ".join(np.dtype(v).name for v in _NATIVE.values())))
        s, sname = _type(_BY_DTYPE[a.dtype])
    else:
        s, sname = _type(src)
        want = dtype(sname)
        if a.dtype != want and not (a.dtype.kind == "u" and a.dtype.itemsize == want.itemsize):
            raise TypeError("src=%r takes %s arrays, not %s" % (sname, want.name, a.dtype))
    d, dname = _type(to)
    rm = _rmode(rmode)
    tg = None if target is None else _lib.ctypes.byref(_lib.c_int(_target(target)))
    sb, db = _bits(s), _bits(d)
    flat = np.ascontiguousarray(a).reshape(-1)
    n = flat.size
    if sb == 4:
        flat = _pack4(flat.view(np.uint8))
    out = np.empty(((n + 1) // 2) if db == 4 else n, np.uint8 if db == 4 else dtype(dname))
    msgs = []
    warn = _NO_WARN
    if tg is not None:
        warn = _lib.MSG_FN(lambda u, m, ln: msgs.append(_lib.ctypes.string_at(m, ln).decode()))
    err = _lib.ctypes.create_string_buffer(1024)
    if _lib.cvt_array(tg, s, d, rm, _sat(sat), flat.__array_interface__["data"][0],
                      out.__array_interface__["data"][0], n, warn, None,
                      err, len(err)):
        raise ValueError(err.value.decode())
    for m in msgs:
        warnings.warn(m, stacklevel=2)
    if db == 4:
        out = _unpack4(out, n)
    return out.reshape(a.shape)


# ---- legality ------------------------------------------------------------------------


def legality(target, src, dst, rmode, sat=None):
    """The verdict of ``ptoc legality --target T --from SRC --to DST --rmode M``:
    'native', 'decomposed via T: SRC -> T -> DST' or 'illegal: REASON'. ``sat``
    (None, True/'on', False/'off') is the requested saturation."""
    s = _sat(sat)
    req = 0 if s < 0 else (1 if s else 2)  # ptoc_sat_request
    buf = _lib.ctypes.create_string_buffer(1024)
    n = _lib.cvt_verdict_str(_target(target), _type(src)[0], _type(dst)[0], _rmode(rmode), req,
                             buf, len(buf))
    if n >= len(buf):
        buf = _lib.ctypes.create_string_buffer(n + 1)
        _lib.cvt_verdict_str(_target(target), _type(src)[0], _type(dst)[0], _rmode(rmode), req,
                             buf, len(buf))
    return buf.value.decode()


# ---- compile -------------------------------------------------------------------------


def _source(x, filename):
    """(text bytes, file name, path or None) of a kernel given as text or as a file."""
    if isinstance(x, bytes):
        return x, filename or "<string>", None
    if isinstance(x, str) and ("\n" in x or "{" in x):
        return x.encode(), filename or "<string>", None
    path = os.fspath(x)
    with open(path, "rb") as f:
        return f.read(), filename or path, path


def compile(text_or_path, target=None, emit="c", entry=None, filename=None):
    """Compiles a kernel as ``ptoc FILE --emit=EMIT [--target T] [--entry NAME]`` and
    returns the output text. ``text_or_path``: the kernel's text (bytes, or a str
    holding a newline or a '{'), else the name of a .pto file. ``emit``: 'c' (C99 calling the
    runtime), 'main' (the harness of ``ptoc run``), 'ir', 'generic', 'lowered' or
    'none' (verify and run the passes only: returns ''). ``filename`` names a text in
    diagnostics (default '<string>'). Errors raise CompileError holding the rendered
    diagnostics; warnings and remarks of a successful compile are Python warnings."""
    if emit not in EMITS:
        raise ValueError("unknown emit %r (%s)" % (emit, ", ".join(EMITS)))
    if target is not None:
        _target(target)
    text, name, _ = _source(text_or_path, filename)
    name_b = name.encode()
    ctx = _lib.context_create()
    if not ctx:
        raise MemoryError("ptoc: out of memory")
    diags, out = [], []

    def collect(into):
        def write(user, data, n):
            into.append(_lib.ctypes.string_at(data, n))
            return 0
        return _lib.WRITE_FN(write)

    def on_diag(user, sev, loc, msg, n):
        chunks = []
        _lib.context_render_diag(ctx, sev, loc, msg, n, collect(chunks), None)
        diags.append((sev, b"".join(chunks).decode(errors="replace")))

    handler = _lib.DIAG_FN(on_diag)
    src = _lib.ctypes.create_string_buffer(text, len(text) + 1)
    try:
        _lib.context_set_diag_handler(ctx, handler, None)
        _lib.context_add_source(ctx, name_b, src, len(text))
        m = _lib.parse_part(ctx, src, len(text), name_b, 1)
        rc = -1
        if m and not _lib.context_error_count(ctx):
            o = _lib.CompileOpts()
            o.target = None if target is None else target.encode()
            o.entry = None if entry is None else entry.encode()
            o.output = {"c": _lib.OUTPUT_C, "main": _lib.OUTPUT_MAIN, "ir": _lib.OUTPUT_IR,
                        "lowered": _lib.OUTPUT_IR, "generic": _lib.OUTPUT_GENERIC,
                        "none": _lib.OUTPUT_NONE}[emit]
            if emit == "lowered":
                o.pipeline = _lib.default_pipeline()
            rc = _lib.module_compile(m, _lib.ctypes.byref(o), collect(out), None)
        errors = _lib.context_error_count(ctx)
    finally:
        _lib.context_destroy(ctx)
    text_diags = "".join(d for _, d in diags)
    if rc or errors:
        raise CompileError(text_diags.rstrip("\n") or "%s: error: compilation failed" % name)
    for sev, d in diags:
        warnings.warn(d.rstrip("\n"), CompileWarning, stacklevel=2)
    return b"".join(out).decode()


# ---- run -----------------------------------------------------------------------------


def _exe():
    p = os.environ.get("PTOC_PY_EXE") or os.path.join(_lib.BINDIR, "ptoc")
    if not os.path.exists(p):
        raise Error("ptoc: the ptoc program is not at %s (set PTOC_PY_EXE)" % p)
    return p


def run(kernel, target=None, entry=None, inputs=None, outputs=(), args=None, blocks=1,
        threads=None, cc=None, filename=None):
    """Compiles ``kernel`` (text or .pto file, as ``compile``) and runs its entry
    function once on the CPU through ``ptoc run``, returning ``{name: array}`` for each
    name in ``outputs``, shaped as that argument's view (docs/runtime.md "NumPy files").

    ``inputs`` maps GM arguments (names without %, or positions from 0) to arrays of
    the buffer's dtype (``dtype(type)``) and shape; the other buffers start zeroed.
    ``args`` maps scalar arguments to integers (or 'block*K+C' strings, as
    ``--arg``). ``blocks`` runs blocks 0..N-1 (``--blocks``; ``threads``: their worker
    threads). ``target``, ``entry`` and ``cc`` as for ``ptoc run``. A compile error
    raises CompileError, anything ``ptoc run`` reports afterwards RunError."""
    inputs = dict(inputs or {})
    args = dict(args or {})
    if isinstance(outputs, (str, int)):
        outputs = [outputs]
    outputs = list(outputs)
    text, name, path = _source(kernel, filename)
    compile(text if path is None else path, target=target, emit="main", entry=entry,
            filename=name if path is None else None)
    exe = _exe()
    with tempfile.TemporaryDirectory(prefix="ptoc-py-") as tmp:
        if path is None:
            kfile = os.path.join(tmp, name)
            if os.path.dirname(os.path.normpath(name)) not in ("", "."):
                kfile = os.path.join(tmp, "kernel.pto")
            with open(kfile, "wb") as f:
                f.write(text)
            kfile = os.path.relpath(kfile, tmp)
        else:
            kfile = os.path.abspath(path)
        cmd = [exe, "run", kfile]
        if target is not None:
            cmd += ["--target", target]
        if entry is not None:
            cmd += ["--entry", entry]
        if cc is not None:
            cmd += ["--cc", cc]
        cmd += ["--blocks", str(int(blocks))]
        if threads is not None:
            cmd += ["--threads", str(int(threads))]
        for k, (arg, arr) in enumerate(inputs.items()):
            f = os.path.join(tmp, "in%d.npy" % k)
            np.save(f, np.asarray(arr), allow_pickle=False)
            cmd += ["--in", "%s=%s" % (arg, f)]
        outs = []
        for k, arg in enumerate(outputs):
            f = os.path.join(tmp, "out%d.npy" % k)
            outs.append((arg, f))
            cmd += ["--out", "%s=%s" % (arg, f)]
        for arg, v in args.items():
            cmd += ["--arg", "%s=%s" % (arg, v if isinstance(v, str) else int(v))]
        p = subprocess.run(cmd, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.stdout:
            sys.stdout.write(p.stdout.decode(errors="replace"))
        if p.returncode:
            msg = p.stderr.decode(errors="replace").rstrip("\n")
            raise RunError(msg or "ptoc run failed (exit status %d)" % p.returncode)
        return {arg: np.load(f, allow_pickle=False) for arg, f in outs}
