#!/usr/bin/env python3
"""layers.py SRC: the layer rule of docs/architecture.md ("Layers"): a folder of the
compiler includes only from itself and the folders below it, never above. Reads every
#include "X/..." and "../X/..." of the compiler's folders (X a folder of the project)
and fails on one the table does not allow. Exit 0 when all are allowed, 1 otherwise."""
import os
import re
import sys

SRC = sys.argv[1]
# folder -> the project folders it may include from (besides itself); include/ptoc
# (public API, "ptoc/...") and the runtime's header ("ptort.h") are open to all.
ALLOWED = {
    "target": set(),
    "ir": {"target"},
    "frontend": {"ir", "target"},
    "passes": {"ir", "target"},
    "codegen": {"ir", "target", "passes"},
    "tools": set(),
}
PROJECT = {"target", "ir", "frontend", "passes", "codegen", "tools", "mlir", "runtime", "bench", "test"}
INC = re.compile(r'^\s*#\s*include\s+"(?:\.\./)?([A-Za-z_]+)/')

bad = 0
seen = 0
for folder, allowed in ALLOWED.items():
    d = os.path.join(SRC, folder)
    for name in sorted(os.listdir(d)):
        if not name.endswith((".c", ".h", ".def", ".y", ".l")):
            continue
        seen += 1
        with open(os.path.join(d, name), encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                m = INC.match(line)
                if m and m.group(1) in PROJECT and m.group(1) != folder \
                        and m.group(1) not in allowed:
                    print(f"{folder}/{name}:{n}: {folder}/ includes from {m.group(1)}/, "
                          f"which is not below it: {line.strip()}")
                    bad += 1
# a floor, so that a moved tree does not pass on nothing
if seen < 40:
    print(f"layers: only {seen} files found under {SRC}")
    sys.exit(1)
print(f"layers: {seen} files, {bad} includes against the layer table")
sys.exit(1 if bad else 0)
