#!/usr/bin/python3
"""each.py SCRIPT ARGS...: runs SCRIPT's main() once per ARGS, in one process.

Each ARGS is one command line of SCRIPT with its arguments joined by commas (e.g.
`PTOC,a2a3,f32,WORK,16x128`); the runs go in the order given and stop at the first
that fails, whose exit status is returned. The point is the cost: a lit test that
checks sixty shapes and types starts Python and imports numpy once, not sixty times
(docs/testing.md). SCRIPT's module globals are put back as they were before each run,
so a run sees the same defaults as a process of its own would."""
import copy
import importlib.util
import os
import sys
import types


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    script = os.path.abspath(argv[1])
    sys.path.insert(0, os.path.dirname(script))
    spec = importlib.util.spec_from_file_location("each_target", script)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    keep = {k: copy.copy(v) for k, v in vars(mod).items()
            if not k.startswith("__") and not isinstance(v, (types.ModuleType, types.FunctionType, type))}
    sys.stdout.reconfigure(line_buffering=True)  # ptoc run writes to the same stdout
    for one in argv[2:]:
        vars(mod).update(copy.copy(keep))
        sys.argv = [script] + one.split(",")
        rc = mod.main()
        if rc:
            return rc
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
