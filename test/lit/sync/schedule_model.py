#!/usr/bin/env python3
"""schedule_model.py (sync/schedule.test): an independent model of the adversarial
schedule, written from docs/semantics.md §8.8b, sharing no code with
runtime/src/schedule.c.

Where the runtime keeps per pipe a stack of runnable instructions and its first fence,
this model keeps one list of queued events and, at every step, tests each of them
against the rules as written, then runs the latest-issued one that may run.

  schedule_model.py random DRIVE N SEED   N generated runs through the driver
                                          (Inputs/drive.c): `DRIVE adv` must run the
                                          instructions in the model's order, end with the
                                          model's UB bytes and report a deadlock exactly
                                          when the model does (at the same wait); when
                                          `DRIVE ub` (program order, the sync sanitizer
                                          on) finds nothing, both runs end with the same
                                          UB bytes.
Prints `agree on N runs: ...` with counts, or the first disagreement."""
import random
import subprocess
import sys

PIPES = ["S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"]


def simulate(events, inorder):
    """events: (kind, pipe or (src, dst, id), a, b) in program order; returns (ran, ub, error
    line or None)"""
    inorder = set(inorder) | {"S"}
    ub = bytearray((i + 1) % 256 for i in range(256))
    queue = []  # dicts: n, kind, pipe, key, ord, a, b
    fired, waits = {}, {}
    ran, error = [], []

    def move(a, b):
        ub[b:b + 32] = ub[a:a + 32]

    def may_run(x):
        before = [y for y in queue if y["pipe"] == x["pipe"] and y["n"] < x["n"]]
        flag_ok = x["kind"] != "W" or fired.get(x["key"], 0) >= x["ord"]
        if x["pipe"] in inorder:
            return not before and flag_ok
        fences = [y for y in before if y["kind"] in "WB"]
        if x["kind"] == "I":
            return not fences
        if x["kind"] == "W":
            return not fences and flag_ok
        return not before  # a set or a barrier: everything before it on its pipe ran

    def run(x):
        queue.remove(x)
        if x["kind"] == "S":
            fired[x["key"]] = fired.get(x["key"], 0) + 1
        elif x["kind"] == "I":
            move(x["a"], x["b"])
            ran.append(x["n"])

    def drain(done):
        while not done():
            ready = [x for x in queue if may_run(x)]
            if not ready:
                return False
            run(max(ready, key=lambda x: x["n"]))
        return True

    def stuck():  # the first-issued wait that blocks its pipe
        ws = []
        for p in PIPES:
            mine = [x for x in queue if x["pipe"] == p]
            if p in inorder:
                mine = mine[:1]
            else:
                mine = [x for x in mine if x["kind"] in "WB"][:1]
            ws += [x for x in mine if x["kind"] == "W"]
        return min(ws, key=lambda x: x["n"])["n"] if ws else 0

    for n, (kind, where, a, b) in enumerate(events, 1):
        x = {"n": n, "kind": kind, "a": a, "b": b}
        if kind == "I":
            x["pipe"] = where
            if where == "S":
                move(a, b)
                ran.append(n)
                continue
        elif kind == "B":
            x["pipe"] = where
            if where == "ALL":
                if not drain(lambda: not queue):
                    error.append(stuck())
                continue
            if where == "S":
                continue
        else:
            src, dst, i = where
            x["key"] = where
            if kind == "S":
                x["pipe"] = src
                if src == "S":
                    fired[where] = fired.get(where, 0) + 1
                    continue
            else:
                waits[where] = waits.get(where, 0) + 1
                x["pipe"], x["ord"] = dst, waits[where]
                if dst == "S":
                    if not drain(lambda: fired.get(where, 0) >= x["ord"]):
                        error.append(n)
                    continue
        queue.append(x)
    if not drain(lambda: not queue):
        error.append(stuck())
    return ran, bytes(ub).hex(), error[0] if error else None


def generate(rng):
    inorder = [p for p in ("V", "M", "MTE1", "FIX") if rng.random() < 0.3]
    pipes = rng.sample(PIPES, rng.randint(2, 4))
    events, pending = [], []
    for _ in range(rng.randint(4, 22)):
        r = rng.random()
        if r < 0.55:
            a, b = rng.sample(range(0, 256, 32), 2)
            events.append(("I", rng.choice(pipes), a, b))
        elif r < 0.75:
            src, dst = rng.sample(pipes, 2)
            key = (src, dst, rng.randint(0, 1))
            events.append(("S", key, 0, 0))
            pending.append(key)
        elif r < 0.92 and pending:
            key = pending.pop(rng.randrange(len(pending))) if rng.random() < 0.9 else \
                (rng.choice(pipes), rng.choice(pipes), 0)
            if key[0] != key[1]:
                events.append(("W", key, 0, 0))
        else:
            events.append(("B", rng.choice([p for p in pipes if p != "S"] + ["ALL"]), 0, 0))
    for key in pending:
        if rng.random() < 0.8:
            events.append(("W", key, 0, 0))
    mask = sum(1 << PIPES.index(p) for p in inorder)
    return events, inorder, mask


def text(events, mask):
    out = ["O %d" % mask]
    for kind, where, a, b in events:
        if kind == "I":
            out.append("I %s %d %d" % (where, a, b))
        elif kind == "B":
            out.append("B %s" % where)
        else:
            out.append("%s %s %s %d" % (kind, where[0], where[1], where[2]))
    return "\n".join(out) + "\n"


def drive(prog, mode, inp):
    p = subprocess.run([prog, mode], input=inp, stdout=subprocess.PIPE, text=True)
    got = {"ran": [], "error": None, "rest": []}
    for ln in p.stdout.splitlines():
        w = ln.split()
        if w and w[0] == "ran":
            got["ran"] = [int(v) for v in w[1:]]
        elif w and w[0] == "ub":
            got["ub"] = w[1]
        elif w and w[0] == "error":
            got["error"] = int(w[1])
            got["message"] = ln
        else:
            got["rest"].append(ln)
    return p.returncode, got


def main(argv):
    if len(argv) != 5 or argv[1] != "random":
        print(__doc__)
        return 2
    prog, n, rng = argv[2], int(argv[3]), random.Random(int(argv[4]))
    stats = {"clean": 0, "reordered": 0, "racing": 0, "changed": 0, "deadlock": 0}
    for k in range(n):
        events, inorder, mask = generate(rng)
        inp = text(events, mask)
        ran, ub, err = simulate(events, inorder)
        rc, got = drive(prog, "adv", inp)
        rc2, plain = drive(prog, "ub", inp)
        why = None
        if rc or rc2:
            why = "the driver failed (%d, %d)" % (rc, rc2)
        elif got["ran"] != ran:
            why = "ran %s, the model %s" % (got["ran"], ran)
        elif got.get("ub") != ub:
            why = "UB differs from the model's"
        elif got["error"] != err:
            why = "error at %s (%s), the model at %s" % (got["error"], got.get("message"), err)
        elif not plain["rest"] and (got["ub"] != plain.get("ub") or err):
            why = "clean under the sanitizer, yet the schedule changed the result or deadlocked"
        if why:
            print("run %d disagrees: %s\n%s" % (k, why, inp))
            return 1
        if err:
            stats["deadlock"] += 1
        elif not plain["rest"]:
            stats["clean"] += 1
            stats["reordered"] += ran != sorted(ran)
        else:
            stats["racing"] += 1
            stats["changed"] += got["ub"] != plain["ub"]
    print("agree on %d runs: clean %d (reordered %d), racing %d (bits changed %d), deadlock %d" % (
        n, stats["clean"], stats["reordered"], stats["racing"], stats["changed"], stats["deadlock"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
