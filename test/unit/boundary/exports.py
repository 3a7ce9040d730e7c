#!/usr/bin/env python3
"""exports.py NM LIB MACRO HEADER...: the library boundary (docs/architecture.md):
the shared library LIB exports exactly the functions HEADER... declare, every one of
them marked MACRO (PTOC_API, PTORT_API). Reads the exported list with
`NM -D --defined-only` and the declarations with cdecl.py, and reports each name on
one side only, and each declaration without the mark. The linker's own symbols
(_edata, _end, __bss_start, _init, _fini, and the __start_/__stop_ bounds of a section,
which clang's AddressSanitizer exports for its globals) are not the library's.
Exit 0 when the lists agree, 1 otherwise."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdecl import declarations  # noqa: E402

nm, lib, macro, headers = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
LINKER = {"_edata", "_end", "__bss_start", "_init", "_fini"}

declared = {}
bad = 0
for h in headers:
    with open(h, encoding="utf-8") as f:
        for name, line, marked in declarations(f.read(), macro):
            declared[name] = f"{h}:{line}"
            if not marked:
                print(f"{h}:{line}: {name} is declared without {macro}")
                bad += 1

out = subprocess.run([nm, "-D", "--defined-only", lib], check=True, capture_output=True,
                     text=True).stdout
exported = set()
for row in out.splitlines():
    parts = row.split()
    if len(parts) == 3 and parts[2] not in LINKER \
            and not parts[2].startswith(("__start_", "__stop_")):
        exported.add(parts[2].split("@")[0])

for name in sorted(exported - set(declared)):
    print(f"{os.path.basename(lib)} exports {name}, which no public header declares")
    bad += 1
for name in sorted(set(declared) - exported):
    print(f"{declared[name]}: {name} is declared but {os.path.basename(lib)} does not export it")
    bad += 1
# a floor, so that an empty header list or library does not pass
if len(declared) < 5:
    print(f"exports: only {len(declared)} declarations read from {' '.join(headers)}")
    bad += 1
print(f"exports: {os.path.basename(lib)}: {len(exported)} exported, {len(declared)} declared, "
      f"{bad} differences")
sys.exit(1 if bad else 0)
