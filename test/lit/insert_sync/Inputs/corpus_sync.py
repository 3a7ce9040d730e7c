#!/usr/bin/env python3
"""insert-sync over the corpus (test/lit/insert_sync/corpus.test).

usage: corpus_sync.py PTOC CORPUS_DIR TMP_DIR

For every .pto of the corpus that ptoc places (the default pipeline up to place-tiles):
* `ptoc FILE --insert-sync --emit=ir` succeeds; its output reads back (`ptoc OUT
  --emit=ir`) and is clean under the independent model (sync_model.py, trip counts 0-3
  for run-time loops);
* a kernel synchronised by hand is compiled again with its sync ops stripped: the
  inserted plan is clean too and has no more synchronisation points than the
  hand-written one, a point being a set_flag/wait_flag pair (record_event/wait_event)
  or a barrier: a pto.barrier <PIPE_ALL> is one op but drains every pipe, so counting
  ops would favour it over a flag between two pipes.
Under PTOC_CORPUS_STRIDE=N (the sanitizer build, test/lit/lit.cfg.py) only every N-th
file is checked, every kernel synchronised by hand, and the files corpus.test names
(NAMED).
Prints one line per finding (FAIL ...) and a summary."""
import contextlib
import io
import os
import re
import subprocess
import sys
import traceback
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sync_model  # noqa: E402

PLACE = "inline,check-cube,legalize-cvt,bufferize,place-tiles"



# the files whose lines corpus.test checks by name, checked in every build
NAMED = {"basic/tinsert_a5_vec_pipe_selection.pto", "samples/Qwen3DecodeA5/qwen3_decode_incore_1.pto"}

def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def model_check(path, target):
    """`sync_model.py check PATH --target TARGET`, run in this process rather than a
    new Python per kernel: (exit status, its output)"""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            rc = sync_model.main(["sync_model.py", "check", path, "--target", target])
        except SystemExit as e:
            rc = e.code if isinstance(e.code, int) else 1
            if not isinstance(e.code, int):
                print(e.code, file=sys.stderr)
        except Exception:  # as the process would: a traceback and status 1
            traceback.print_exc()
            rc = 1
    return rc, out.getvalue().strip()


def one(ptoc, src, out, target):
    """Inserts syncs into src; returns (status, detail): ok, skipped, unmodelled, FAIL."""
    rc, _, err = run([ptoc, src, "--target", target, "--insert-sync", "--emit=ir",
                      "-Rpass=insert-sync", "-o", out])
    if rc:
        rc2, _, _ = run([ptoc, src, "--target", target, "--pass-pipeline=" + PLACE, "--emit=ir",
                         "-o", os.devnull])
        if rc2:  # not placeable here (another target, invalid on purpose): why
            return None, (err.strip().splitlines() or [""])[0]
        return "FAIL", "insert-sync failed: " + err.strip().splitlines()[0]
    if "left as written" in err:
        return "skipped", ""
    rc, _, err = run([ptoc, out, "--emit=ir", "-o", os.devnull])
    if rc:
        return "FAIL", "the output does not read back: " + err.strip().splitlines()[0]
    rc, msg = model_check(out, target)
    if "not modelled" in msg:
        return "unmodelled", msg
    if rc:
        return "FAIL", msg
    return "ok", msg


def main(argv):
    ptoc, corpus, tmp = argv[1:4]
    os.makedirs(tmp, exist_ok=True)
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(corpus) for f in fs if f.endswith(".pto"))
    stats = {"ok": 0, "skipped": 0, "unmodelled": 0, "FAIL": 0}
    hand = []
    stride = int(os.environ.get("PTOC_CORPUS_STRIDE", "1"))
    offset = zlib.crc32(b"insert_sync/corpus") % stride
    for i, src in enumerate(files):
        rel = os.path.relpath(src, corpus)
        name = rel.replace("/", "_")
        text = open(src).read()
        written = sync_model.count_syncs(text)
        if i % stride != offset and not written and rel not in NAMED:
            continue
        wpoints = sync_model.count_points(text)
        if written:
            stripped = os.path.join(tmp, name + ".stripped.pto")
            sync_model.main(["", "strip", src, stripped])
            src = stripped
        # the files written for A5 run there, as in the other corpus tests, and on
        # a2a3 as well: there each is refused by the verifier or synchronised and clean
        a5 = re.search(r"A5|_mx_|level3|_a5_|_fp_a3_lowering", rel)
        target = "a5" if a5 else "a2a3"
        if a5:
            st, det = one(ptoc, src, os.path.join(tmp, name + ".a2a3.ir"), "a2a3")
            if st is None:
                print("on a2a3 too: %s: refused: %s" % (rel, det.split(": error: ", 1)[-1]))
            else:
                stats[st] += 1
                print("%s on a2a3 too: %s: %s" % ("FAIL" if st == "FAIL" else "ok", rel,
                                                 det if st == "FAIL" else st))
        status, detail = one(ptoc, src, os.path.join(tmp, name + ".ir"), target)
        if status is None:
            continue
        stats[status] += 1
        if status == "FAIL":
            print("FAIL %s: %s" % (rel, detail))
            continue
        if written and status in ("ok", "unmodelled"):
            ir = open(os.path.join(tmp, name + ".ir")).read()
            inserted, ipoints = sync_model.count_syncs(ir), sync_model.count_points(ir)
            hand.append((rel, ipoints, inserted, wpoints, written))
            if ipoints > wpoints:
                print("FAIL %s: %d synchronisation points inserted, %d written by hand" %
                      (rel, ipoints, wpoints))
                stats["FAIL"] += 1
    for rel, ipoints, inserted, wpoints, written in hand:
        print("hand-synchronised %s: inserted %d points (%d ops), written %d points (%d ops)" %
              (rel, ipoints, inserted, wpoints, written))
    print("kernels: %(ok)d clean, %(skipped)d left as written, %(unmodelled)d not modelled, "
          "%(FAIL)d failed" % stats)
    return 1 if stats["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
