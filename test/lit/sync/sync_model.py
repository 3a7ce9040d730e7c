#!/usr/bin/env python3
"""sync_model.py (sync/model.test): an independent model of the sync sanitizer,
written from docs/semantics.md §8.8a, sharing no code with runtime/src/sanitize*.c.

Where the runtime keeps vector clocks and a shadow cell per granule, this model builds
the happens-before relation as an explicit graph (edges from in-order pipes, barriers
and the k-th set -> k-th wait of each flag) and compares every pair of accesses; it
decides deadlocks by a fixpoint of "can complete" over the dependencies of each event
(its queue, dispatch behind S and PIPE_ALL, a wait's set, a PIPE_ALL barrier's earlier
events).

  sync_model.py check TRACE FINDINGS   the trace the runtime dumped (PTORT_SYNC_TRACE)
                                       against the findings it printed
  sync_model.py random DRIVE N SEED    N generated runs through the driver program
                                       (Inputs/drive.c), each compared the same way
Agreement: the same deadlocks; without a deadlock, the same event findings, a race
reported exactly when the model finds one, and every reported race (kind, both
locations) one of the model's (the runtime reports each op's first conflict per other
op, the model all of them)."""
import os
import random
import re
import subprocess
import sys
import tempfile

PIPES = ["S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"]


def parse_trace(path):
    runs, cur = [], None
    for line in open(path):
        w = line.split()
        if not w:
            continue
        if w[0] == "block":
            cur = {"inorder": set(w[3:]), "ev": []}
        elif w[0] == "end":
            runs.append(cur)
        else:
            e = {"kind": w[0]}
            if w[0] in "IB":
                e["pipe"], e["loc"], rest = w[2], w[3], w[4:]
            else:
                e["src"], e["dst"], e["id"], e["loc"], rest = w[2], w[3], int(w[4]), w[5], w[6:]
                e["pipe"] = e["src"] if w[0] == "S" else e["dst"]
            e["acc"] = [(rest[i] == "W", rest[i + 1], int(rest[i + 2]), int(rest[i + 3]))
                        for i in range(0, len(rest), 4)]
            cur["ev"].append(e)
    return runs


def model(run):
    ev, inorder = run["ev"], run["inorder"] | {"S"}
    n = len(ev)
    succ = [set() for _ in range(n)]
    key = lambda e: (e["src"], e["dst"], e["id"])
    sets, waits = {}, {}
    for i, e in enumerate(ev):
        if e["kind"] == "S":
            sets.setdefault(key(e), []).append(i)
        if e["kind"] == "W":
            waits.setdefault(key(e), []).append(i)
    match = {}
    for k, ws in waits.items():
        for j, w in enumerate(ws):
            if j < len(sets.get(k, [])):
                match[w] = sets[k][j]
    # happens-before edges
    last = {}
    for i, e in enumerate(ev):
        p = e["pipe"]
        if p in inorder and p in last:
            succ[last[p]].add(i)
        last[p] = i
        if e["kind"] == "B":
            for j in range(n):
                if (p == "ALL" or ev[j]["pipe"] == p) and j != i:
                    (succ[j].add(i) if j < i else succ[i].add(j))
        if e["kind"] == "S":
            for j in range(i):
                if ev[j]["pipe"] == p:
                    succ[j].add(i)
        if e["kind"] == "W":
            if i in match:
                succ[match[i]].add(i)
            for j in range(i + 1, n):
                if ev[j]["pipe"] == p:
                    succ[i].add(j)
    reach = []
    for i in range(n):
        seen, todo = set(), [i]
        while todo:
            for k in succ[todo.pop()]:
                if k not in seen:
                    seen.add(k)
                    todo.append(k)
        reach.append(seen)
    hb = lambda a, b: b in reach[a]
    # deadlocks: which events can complete
    deps = []
    for i, e in enumerate(ev):
        d = set()
        q = [j for j in range(i) if ev[j]["pipe"] == e["pipe"]]
        if q:
            d.add(q[-1])
        d |= {j for j in range(i) if ev[j]["pipe"] in ("S", "ALL")}
        if e["kind"] == "W":
            d.add(match.get(i, -1))
        if e["kind"] == "B" and e["pipe"] == "ALL":
            d |= set(range(i))
        deps.append(d)
    done = set()
    changed = True
    while changed:
        changed = False
        for i in range(n):
            if i not in done and all(j in done for j in deps[i]):
                done.add(i)
                changed = True
    found = set()
    blocked = [i for i in range(n) if i not in done]
    if blocked:
        for p in PIPES + ["ALL"]:
            heads = [i for i in blocked if ev[i]["pipe"] == p]
            if not heads or ev[heads[0]]["kind"] != "W":
                continue
            w = heads[0]
            if w not in match:
                ss = sets.get(key(ev[w]), [])
                found.add(("deadlock", "noset", ev[w]["loc"], ev[ss[-1]]["loc"] if ss else None))
                continue
            seen, todo = set(), [w]
            while todo:
                for k in deps[todo.pop()]:
                    if k >= 0 and k not in done and k not in seen:
                        seen.add(k)
                        todo.append(k)
            if w in seen:
                found.add(("deadlock", "cycle", ev[w]["loc"], ev[match[w]]["loc"]))
        return found, True
    # events
    for k, ss in sets.items():
        ws = waits.get(k, [])
        for j in range(1, len(ss)):
            if j - 1 >= len(ws) or not hb(ws[j - 1], ss[j]):
                found.add(("event", "pending", ev[ss[j]]["loc"], ev[ss[j - 1]]["loc"]))
        if len(ss) > len(ws):
            found.add(("event", "left", ev[ss[-1]]["loc"], None))
    # races: every pair of instructions
    ins = [i for i in range(n) if ev[i]["kind"] == "I"]
    for x in ins:
        for y in ins:
            if x >= y or hb(x, y) or hb(y, x):
                continue
            for wa, sa, la, ha in ev[x]["acc"]:
                for wb, sb, lb, hb_ in ev[y]["acc"]:
                    if sa == sb and la < hb_ and lb < ha and (wa or wb):
                        kind = "WAW" if wa and wb else "RAW" if wa else "WAR"
                        found.add(("race", kind, ev[y]["loc"], ev[x]["loc"]))
    return found, False


def parse_findings(text):
    out, lines = set(), text.splitlines()
    for i, l in enumerate(lines):
        m = re.match(r"(\S+): error: sync (race \((\w+)\)|deadlock|event)(.*)", l)
        if not m:
            continue
        note = None
        if i + 1 < len(lines) and ": note: " in lines[i + 1]:
            note = lines[i + 1].split(": note: ")[0]
        if m.group(3):
            out.add(("race", m.group(3), m.group(1), note))
        elif m.group(2) == "deadlock":
            out.add(("deadlock", "noset" if "waits for the" in l else "cycle", m.group(1), note))
        else:
            out.add(("event", "left" if "leaves the flag" in l else "pending", m.group(1), note))
    return out


def compare(run, text):
    want, dead = model(run)
    got = parse_findings(text)
    if dead:
        return want == {f for f in got if f[0] == "deadlock"}, want, got
    ok = {f for f in got if f[0] == "event"} == {f for f in want if f[0] == "event"}
    gr, wr = {f for f in got if f[0] == "race"}, {f for f in want if f[0] == "race"}
    ok = ok and gr <= wr and bool(gr) == bool(wr) and not any(f[0] == "deadlock" for f in got)
    return ok, want, got


def gen(rng):
    pipes = ["V", "MTE2", "MTE3", "M", "S"]
    lines, later = ["O %d" % rng.choice([1, 1 | 2 | 4 | 8 | 64])], []
    for _ in range(rng.randint(3, 12)):
        r = rng.random()
        if r < 0.55:
            lines.append("I %s %d %d" % (rng.choice(pipes), 32 * rng.randrange(4), 32 * rng.randrange(4)))
        elif r < 0.85:
            a, b = rng.sample(pipes, 2)
            ev = rng.randrange(2)
            lines.append("S %s %s %d" % (a, b, ev))
            w = "W %s %s %d" % (a, b, ev)
            x = rng.random()
            if x < 0.8:  # the wait a few events later
                later.append([rng.randrange(3), w])
            elif x < 0.9:  # before its set in program order
                lines.insert(rng.randint(1, len(lines) - 1), w)
        elif r < 0.95:
            lines.append("B %s" % rng.choice(["V", "MTE2", "MTE3", "M"]))
        else:
            lines.append("B ALL")
        for l in later:
            l[0] -= 1
        lines += [l[1] for l in later if l[0] < 0]
        later = [l for l in later if l[0] >= 0]
    lines += [l[1] for l in later]
    return "\n".join(lines) + "\n"


def main():
    if sys.argv[1] == "check":
        runs = parse_trace(sys.argv[2])
        text = open(sys.argv[3]).read()
        ok, want, got = compare(runs[-1], text)
        print("agree" if ok else "DISAGREE\nmodel: %s\nsanitizer: %s" % (sorted(want, key=str), sorted(got, key=str)))
        return 0 if ok else 1
    drive, count, seed = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)
    stats = {"clean": 0, "race": 0, "deadlock": 0, "event": 0}
    with tempfile.TemporaryDirectory() as d:
        for t in range(count):
            prog = gen(rng)
            tr = os.path.join(d, "trace%d.txt" % t)
            env = dict(os.environ, PTORT_SYNC_TRACE=tr)
            p = subprocess.run([drive], input=prog, capture_output=True, text=True, env=env)
            if p.returncode:
                print("driver failed on:\n" + prog + p.stderr)
                return 1
            ok, want, got = compare(parse_trace(tr)[-1], p.stdout)
            if not ok:
                print("DISAGREE on:\n%s\nmodel: %s\nsanitizer:\n%s" % (prog, sorted(want, key=str), p.stdout))
                return 1
            kinds = {f[0] for f in want}
            stats["deadlock" if "deadlock" in kinds else "race" if "race" in kinds else
                  "event" if "event" in kinds else "clean"] += 1
    print("agree on %d runs: %s" % (count, " ".join("%s %d" % kv for kv in sorted(stats.items()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
