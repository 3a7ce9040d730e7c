#!/usr/bin/python3
"""run.py: the tests of the Python package (CTest `python`): python3 -m unittest over
test/python/test_*.py with the package of the build tree on PYTHONPATH (set by
python/CMakeLists.txt). Exit status 0 when every test passed, 1 when one failed or
errored, 77 (skipped) when numpy is missing or every test skipped itself."""
import os
import sys
import unittest

try:
    import numpy  # noqa: F401
except ImportError:
    print("python: skipped: numpy is not installed (apt install python3-numpy)")
    sys.exit(77)

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
suite = unittest.defaultTestLoader.discover(here, pattern="test_*.py", top_level_dir=here)
result = unittest.TextTestRunner(verbosity=2).run(suite)
if not result.wasSuccessful():
    sys.exit(1)
if result.testsRun == len(result.skipped):
    print("python: skipped: every test skipped itself")
    sys.exit(77)
sys.exit(0)
