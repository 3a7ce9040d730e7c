#!/usr/bin/python3
"""syntax_check.py: many C files through one compiler's full front end, in few processes.

  syntax_check.py CC [FLAG...] -- FILE...

Checks every FILE as `CC FLAG... -fsyntax-only FILE` would (every diagnostic of a
compile, no code): prints `ok FILE` for each file that passes and `FAILED FILE` followed
by the compiler's messages for each one that does not; exit 1 when any failed.

A compiler process costs more than the front end's work on one generated kernel (a
clang process starts in about 0.12 s on a 2-core virtual machine, most of it loading
its libraries; gcc's cc1 in about 0.04 s), and emit/corpus.test checks about 450 files,
so the files go in batches:
  * clang: its front end (`clang -cc1`) takes several input files and checks each in
    turn, so the command the driver would run for the first file (`CC -###`) is run
    once with every file as its input;
  * gcc, or a compiler whose `-###` names no `-cc1`: one driver process for all the
    files (it still starts one cc1 per file).
A batch that fails is checked again one file a process, so that each failure is
reported against its own file; a file passes only in a batch that exits 0 or alone.
"""
import shlex
import subprocess
import sys

BATCH = 64


def cc1_command(cc, flags, first):
    """The argv of clang's front end for `first`, without its input, or None."""
    p = subprocess.run(cc + flags + ["-fsyntax-only", "-###", first],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode:
        return None
    jobs = [l for l in p.stderr.splitlines() if l.startswith(" \"")]
    if len(jobs) != 1:
        return None
    argv = shlex.split(jobs[0])
    if "-cc1" not in argv or argv[-1] != first:
        return None
    argv = argv[:-1]
    if "-main-file-name" in argv:  # names the first file; each input is its own file
        i = argv.index("-main-file-name")
        del argv[i:i + 2]
    return argv


def run(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def main(argv):
    if "--" not in argv:
        sys.exit("usage: syntax_check.py CC [FLAG...] -- FILE...")
    i = argv.index("--")
    cc_flags, files = argv[:i], argv[i + 1:]
    if not cc_flags or not files:
        sys.exit("usage: syntax_check.py CC [FLAG...] -- FILE...")
    cc, flags = shlex.split(cc_flags[0]), cc_flags[1:]
    front = cc1_command(cc, flags, files[0])
    failed = 0
    for b in range(0, len(files), BATCH):
        batch = files[b:b + BATCH]
        argv_b = front + batch if front else cc + flags + ["-fsyntax-only"] + batch
        rc, _ = run(argv_b)
        if rc == 0:
            for f in batch:
                print("ok", f)
            continue
        for f in batch:  # find which
            rc, out = run(cc + flags + ["-fsyntax-only", f])
            if rc == 0:
                print("ok", f)
            else:
                failed += 1
                print("FAILED", f)
                sys.stdout.write(out)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
