"""The C structures the package mirrors in ctypes (python/ptoc/_lib.py) have the
layout the C compiler gives them: ptoc_location and ptoc_compile_opts, field by field,
from a small C program built against the public headers."""
import os
import shutil
import subprocess
import tempfile
import unittest

from ptoc import _lib
from util import SRC_ROOT

STRUCTS = {"ptoc_location": _lib.Location, "ptoc_compile_opts": _lib.CompileOpts}


class Layout(unittest.TestCase):
    def test_layout(self):
        # the system's compiler, whose layout the package's users get (the CTest test sets
        # CC to tcc for the kernels ptoc.run builds)
        cc = shutil.which("cc") or shutil.which("gcc")
        if not cc:
            self.skipTest("no C compiler")
        lines = ['#include <stddef.h>', '#include <stdio.h>', '#include "ptoc/ptoc.h"',
                 "int main(void) {"]
        for name, cls in STRUCTS.items():
            lines.append('printf("%s size %%zu\\n", sizeof(%s));' % (name, name))
            for f in cls._fields_:
                lines.append('printf("%s %s %%zu\\n", offsetof(%s, %s));' % (name, f[0], name, f[0]))
        lines.append("return 0; }")
        with tempfile.TemporaryDirectory() as d:
            c, exe = os.path.join(d, "l.c"), os.path.join(d, "l")
            with open(c, "w") as f:
                f.write("\n".join(lines))
            subprocess.run([cc, "-I", os.path.join(SRC_ROOT, "include"), "-I",
                            os.path.join(SRC_ROOT, "runtime", "include"), c, "-o", exe], check=True)
            out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
        got = {tuple(l.split()[:2]): int(l.split()[2]) for l in out.splitlines()}
        for name, cls in STRUCTS.items():
            self.assertEqual(got[(name, "size")], _lib.ctypes.sizeof(cls), name)
            for f in cls._fields_:
                self.assertEqual(got[(name, f[0])], getattr(cls, f[0]).offset, (name, f[0]))


if __name__ == "__main__":
    unittest.main()
