#!/usr/bin/env python3
"""cycles.py NM OBJ...: no two files that call each other in a loop (docs/architecture.md,
"Layers"). Reads each object file's defined and undefined global symbols with
`NM -A` (one run for all); file A depends on file B when A uses a
symbol B defines (a call or a table). Prints every loop of files (a strongly connected
component of more than one file) with the symbols of its edges, and with --edges every
edge. Exit 0 when there is no loop, 1 otherwise."""
import os
import subprocess
import sys

args = sys.argv[1:]
show_edges = "--edges" in args
args = [a for a in args if a != "--edges"]
nm, objs = args[0], args[1:]


def name_of(path):
    """ir/CMakeFiles/ptoc_ir.dir/verify.c.o -> ir/verify.c"""
    parts = path.replace("\\", "/").split("/")
    base = parts[-1][:-2] if parts[-1].endswith(".o") else parts[-1]
    if "CMakeFiles" in parts:
        i = parts.index("CMakeFiles")
        folder = parts[i - 1] if i else ""
        sub = parts[i + 2:-1]  # the source's own subfolders (src/ of the runtime)
        return "/".join([folder] + sub + [base])
    return base


defined = {}
uses = {n: set() for n in map(name_of, objs)}
# one nm for every file: "PATH:ADDR KIND NAME", or "PATH: U NAME" for an undefined one
out = subprocess.run([nm, "-A"] + objs, check=True, capture_output=True, text=True).stdout
for row in out.splitlines():
    parts = row.split()
    if len(parts) < 2:
        continue
    path = parts[0].rsplit(":", 1)[0]
    kind, sym = parts[-2], parts[-1]
    n = name_of(path)
    if kind == "U":
        uses[n].add(sym)
    elif kind.isupper() or kind in "vw":  # global (lower case: static functions, data)
        defined.setdefault(sym, n)

edges = {n: {} for n in uses}
for n, us in uses.items():
    for s in us:
        d = defined.get(s)
        if d and d != n:
            edges[n].setdefault(d, []).append(s)

if show_edges:
    for a in sorted(edges):
        for b in sorted(edges[a]):
            print(f"{a} -> {b}: {', '.join(sorted(edges[a][b]))}")

# Tarjan's strongly connected components, iteratively
index, low, on, stack, comps = {}, {}, set(), [], []
counter = [0]
for root in sorted(edges):
    if root in index:
        continue
    work = [(root, iter(sorted(edges[root])))]
    index[root] = low[root] = counter[0]
    counter[0] += 1
    stack.append(root)
    on.add(root)
    while work:
        v, it = work[-1]
        w = next(it, None)
        if w is not None:
            if w not in index:
                index[w] = low[w] = counter[0]
                counter[0] += 1
                stack.append(w)
                on.add(w)
                work.append((w, iter(sorted(edges[w]))))
            elif w in on:
                low[v] = min(low[v], index[w])
            continue
        work.pop()
        if work:
            low[work[-1][0]] = min(low[work[-1][0]], low[v])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

for comp in comps:
    print(f"loop of {len(comp)} files: {', '.join(comp)}")
    for a in comp:
        for b in sorted(edges[a]):
            if b in comp:
                print(f"  {a} -> {b}: {', '.join(sorted(edges[a][b]))}")
# a floor, so that an empty object list does not pass
if len(objs) < 10:
    print(f"cycles: only {len(objs)} object files given")
    sys.exit(1)
print(f"cycles: {len(objs)} files, "
      f"{sum(len(e) for e in edges.values())} edges, {len(comps)} loops")
sys.exit(1 if comps else 0)
