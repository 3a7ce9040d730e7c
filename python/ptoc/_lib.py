"""The shared libraries through ctypes: libptoc (include/ptoc/ptoc.h, legality.h) and
libptort (runtime/include/ptort.h). Only functions of those public headers are
called. The C structures that cross (ptoc_location, ptoc_compile_opts) are mirrored
here field by field; test/python/test_abi.py compares the mirrors with the C
compiler's layout."""

import ctypes
import os

from . import _location

_here = os.path.dirname(os.path.abspath(__file__))


def _dir(rel, env):
    d = os.environ.get(env)
    return os.path.abspath(d if d else os.path.join(_here, rel))


LIBDIR = _dir(_location.LIBDIR, "PTOC_PY_LIBDIR")
BINDIR = _dir(_location.BINDIR, "PTOC_PY_BINDIR")


def _load(name):
    path = os.path.join(LIBDIR, name)
    try:
        return ctypes.CDLL(path)
    except OSError as e:
        raise ImportError("ptoc: cannot load %s (%s); build the project (make) or set "
                          "PTOC_PY_LIBDIR to the folder of libptoc.so and libptort.so"
                          % (path, e)) from None


ptoc = _load("libptoc.so")
ptort = _load("libptort.so")

c_int, c_uint, c_size_t, c_char_p, c_void_p = (ctypes.c_int, ctypes.c_uint, ctypes.c_size_t,
                                              ctypes.c_char_p, ctypes.c_void_p)
PCHAR = ctypes.POINTER(ctypes.c_char)


class Location(ctypes.Structure):
    """ptoc_location (ptoc.h)."""
    _fields_ = [("file", c_char_p), ("line", ctypes.c_uint32), ("col", ctypes.c_uint32)]


WRITE_FN = ctypes.CFUNCTYPE(c_int, c_void_p, PCHAR, c_size_t)          # ptoc_write_fn
DIAG_FN = ctypes.CFUNCTYPE(None, c_void_p, c_int, Location, PCHAR, c_size_t)  # ptoc_diag_handler
MSG_FN = ctypes.CFUNCTYPE(None, c_void_p, PCHAR, c_size_t)             # ptoc_msg_fn


class CompileOpts(ctypes.Structure):
    """ptoc_compile_opts (ptoc.h), in its order."""
    _fields_ = [("target", c_char_p), ("pipeline", c_char_p), ("remarks", c_char_p),
                ("verify_each", c_int), ("dump", WRITE_FN), ("dump_user", c_void_p),
                ("dump_form", c_int), ("output", c_int), ("entry", c_char_p),
                ("print_locations", c_int)]


# ptoc_output
OUTPUT_NONE, OUTPUT_IR, OUTPUT_GENERIC, OUTPUT_C, OUTPUT_MAIN = range(5)
# ptoc_severity
SEVERITY = ("error", "warning", "note", "remark")


def _proto(lib, name, res, *args):
    f = getattr(lib, name)
    f.restype = res
    f.argtypes = list(args)
    return f


# ptort.h section 1-2
type_name = _proto(ptort, "ptort_type_name", c_char_p, c_int)
type_parse = _proto(ptort, "ptort_type_parse", c_int, c_char_p, c_size_t, ctypes.POINTER(c_int))
type_bits = _proto(ptort, "ptort_type_bits", c_uint, c_int)
rmode_name = _proto(ptort, "ptort_rmode_name", c_char_p, c_int)
rmode_parse = _proto(ptort, "ptort_rmode_parse", c_int, c_char_p, c_size_t, ctypes.POINTER(c_int))
# legality.h
target_name = _proto(ptoc, "ptoc_target_name", c_char_p, c_int)
target_parse = _proto(ptoc, "ptoc_target_parse", c_int, c_char_p, c_size_t, ctypes.POINTER(c_int))
cvt_verdict_str = _proto(ptoc, "ptoc_cvt_verdict_str", c_size_t, c_int, c_int, c_int, c_int,
                         c_int, ctypes.c_char_p, c_size_t)
cvt_array = _proto(ptoc, "ptoc_cvt_array", c_int, ctypes.POINTER(c_int), c_int, c_int, c_int,
                   c_int, c_void_p, c_void_p, c_size_t, MSG_FN, c_void_p, ctypes.c_char_p,
                   c_size_t)
# ptoc.h
context_create = _proto(ptoc, "ptoc_context_create", c_void_p)
context_destroy = _proto(ptoc, "ptoc_context_destroy", None, c_void_p)
context_set_diag_handler = _proto(ptoc, "ptoc_context_set_diag_handler", None, c_void_p, DIAG_FN,
                                  c_void_p)
context_error_count = _proto(ptoc, "ptoc_context_error_count", c_uint, c_void_p)
context_add_source = _proto(ptoc, "ptoc_context_add_source", None, c_void_p, c_char_p, c_void_p,
                            c_size_t)
context_render_diag = _proto(ptoc, "ptoc_context_render_diag", c_int, c_void_p, c_int, Location,
                             PCHAR, c_size_t, WRITE_FN, c_void_p)
parse_part = _proto(ptoc, "ptoc_parse_part", c_void_p, c_void_p, c_void_p, c_size_t, c_char_p,
                    c_uint)
module_compile = _proto(ptoc, "ptoc_module_compile", c_int, c_void_p, ctypes.POINTER(CompileOpts),
                        WRITE_FN, c_void_p)
default_pipeline = _proto(ptoc, "ptoc_default_pipeline", c_char_p)
