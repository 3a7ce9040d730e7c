# lit configuration for ptoc's FileCheck tests.
#
# Substitutions:
#   %ptoc        the ptoc driver            FileCheck, not, count: LLVM 19's tools
#   %shared      PTOC_SHARED_DIR, default ../shared (REQUIRES: shared when a test reads it)
#   %cc          the C compiler of the build    %tcc, %clang: other compilers (REQUIRES: tcc/clang)
#   %rtinc       -I flag for runtime/include    %rtlib: the static runtime library
#                (with the sanitizer runtimes in a sanitizer build)
#   %mlir-opt    LLVM 19's mlir-opt (REQUIRES: mlir-opt); ptoc-irdl on PATH (REQUIRES: ptoc-irdl)
#   %project-version  the version in CMakeLists.txt's project()
#   %corpus_sample TEST  filter of a corpus test's file list (all files, or a sample
#                under the sanitizers; see below)
import os
import lit.formats

config.name = "ptoc"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".pto", ".test", ".c"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ptoc_obj_root, "test", "lit")

llvm_bin = "/usr/lib/llvm-19/bin"
config.environment["PATH"] = os.pathsep.join(
    [config.ptoc_tools_dir, llvm_bin, config.environment.get("PATH", os.environ.get("PATH", ""))])
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "HOME", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# numpy loads OpenBLAS (libopenblas-dev is installed for the mmad benchmark), whose
# threads start at import and cost a numpy process about 0.15 s of CPU more, on about
# 300 processes a run; the tests' arrays are small, and CTest runs tests side by side.
config.environment["OPENBLAS_NUM_THREADS"] = "1"

ptoc = os.path.join(config.ptoc_tools_dir, "ptoc")
config.substitutions.append(("%ptoc", ptoc))
config.substitutions.append(("%shared", config.ptoc_shared_dir))
config.substitutions.append(("%rtinc", "-I" + os.path.join(config.ptoc_src_root, "runtime", "include")))
# %rtlib links the static runtime; in a sanitizer build it was compiled with ASan+UBSan,
# so the link also needs their runtimes (%cc is clang-19 there, as for the build).
_rtlib = os.path.join(config.ptoc_lib_dir, "libptort.a")
if config.sanitize in ("ON", "1", "TRUE", "YES"):
    _rtlib += " -fsanitize=address,undefined"
config.substitutions.append(("%rtlib", _rtlib))
config.substitutions.append(("%cc", config.cc))
config.substitutions.append(("%srcroot", config.ptoc_src_root))
config.substitutions.append(("%project-version", config.project_version))
if config.tcc:
    config.available_features.add("tcc")
    config.substitutions.append(("%tcc", config.tcc))
if config.clang:
    config.available_features.add("clang")
    config.substitutions.append(("%clang_or_empty", config.clang))
    config.substitutions.append(("%clang", config.clang))
else:
    config.substitutions.append(("%clang_or_empty", ""))
if config.mlir_opt:
    config.available_features.add("mlir-opt")
    config.substitutions.append(("%mlir-opt", config.mlir_opt))
if os.path.exists(os.path.join(config.ptoc_tools_dir, "ptoc-irdl")):
    config.available_features.add("ptoc-irdl")  # built with the MLIR bridge (mlir/)
if os.path.isdir(os.path.join(config.ptoc_shared_dir, "corpus", "ptoas")):
    config.available_features.add("shared")
if config.sanitize in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("sanitize")
# %corpus_sample TEST: the filter between a corpus test's list of files and its loop.
# **[decision]** The tests that run ptoc once or more per corpus file check every file
# in every build but the sanitizer one, where a sanitized process costs ~0.1 s to start
# and exit (LeakSanitizer's scan): there each checks every fourth file, from an offset
# that depends on the test, so the folder as a whole still meets every file under
# ASan+UBSan (docs/testing.md). PTOC_CORPUS_STRIDE overrides the stride (1: all).
_stride = os.environ.get("PTOC_CORPUS_STRIDE") or (
    "4" if config.sanitize in ("ON", "1", "TRUE", "YES") else "1")
config.environment["PTOC_CORPUS_STRIDE"] = _stride
config.substitutions.append(("%corpus_sample", "/usr/bin/python3 %s %s" % (
    os.path.join(config.test_source_root, "corpus_sample.py"), _stride)))

# `ptoc run` builds each kernel with $CC. **[decision]** Where the C compiler is not
# under test, the suite builds with tcc when it is installed: the generated C is a list
# of calls into the prebuilt runtime, and tcc builds it in a fraction of gcc's time.
# In the sanitizer build tcc links the program against the instrumented shared runtime
# and clang's shared ASan runtime, named first so that it loads first (ASan and UBSan
# then check every runtime call; only the generated calls themselves go uninstrumented,
# and %cc / %clang tests still build whole programs with the sanitizers): a sanitized
# program costs about 0.15 s to build that way against 1.5 s with clang.
# Portability stays tested: emit/corpus.test compiles every corpus kernel's C with gcc
# and clang at -std=c99 -pedantic -Wall -Wextra -Werror, and tests that name %cc,
# %clang or %tcc build with that compiler. PTOC_TEST_CC overrides the choice (e.g. cc).
_sanitize = config.sanitize in ("ON", "1", "TRUE", "YES")
_run_cc = os.environ.get("PTOC_TEST_CC")
if not _run_cc and config.tcc and not _sanitize:
    _run_cc = config.tcc
elif not _run_cc and config.tcc and _sanitize and config.asan_shared_rt:
    _run_cc = "%s -Wl,-rpath,%s %s" % (config.tcc, os.path.dirname(config.asan_shared_rt),
                                       config.asan_shared_rt)
if _run_cc:
    config.environment["CC"] = _run_cc
else:
    config.environment.pop("CC", None)
# tcc cannot link the thread-local variables of the static runtime (its relocations for
# TLS are missing), so with tcc the programs link the shared runtime of this build,
# found at run time through LD_LIBRARY_PATH (ptoc run's PTOC_RUNTIME_* variables).
if _run_cc and os.path.basename(_run_cc.split()[0]).startswith("tcc"):
    config.environment["PTOC_RUNTIME_INCLUDE"] = os.path.join(config.ptoc_src_root, "runtime", "include")
    config.environment["PTOC_RUNTIME_LIB"] = os.path.join(config.ptoc_lib_dir, "libptort.so")
    config.environment["LD_LIBRARY_PATH"] = os.pathsep.join(
        [config.ptoc_lib_dir] + [p for p in [os.environ.get("LD_LIBRARY_PATH")] if p])
# Built programs are cached per build tree (tools/run_cache.c), so that a kernel run
# many times by a test, or by two tests, is built once.
config.environment["PTOC_CACHE_DIR"] = os.path.join(config.ptoc_obj_root, "test", "ptoc-run-cache")
config.environment["PTOC_CACHE_MAX_MB"] = "2048"

# The sanitizer build runs every test that builds no program, and of the tests that
# build programs (ptoc run, %cc, %clang, %tcc, or an e2e driver that does) only the
# sample listed in sanitize-sample.txt: each family at least once per target, so that
# every runtime and compiler path still runs under ASan+UBSan (docs/testing.md). lit
# notes each test it leaves out.
if config.sanitize in ("ON", "1", "TRUE", "YES"):
    # LeakSanitizer scans no global variables for pointers in the lit tests [decision]:
    # that scan reads the sanitizer runtime's own 9 MiB of globals at every exit (about
    # 35 of a sanitized ptoc's 55 ms, on about 2,000 ptoc processes a run). Memory only a
    # global points to would then be reported: ptoc frees what it allocates, and
    # lsan.supp names glibc's few such blocks. The unit tests keep the full scan (the
    # runtime's lazily built tables and the MLIR libraries hold memory in globals).
    config.environment["LSAN_OPTIONS"] = ":".join(o for o in (
        os.environ.get("LSAN_OPTIONS"), "use_globals=0", "print_suppressions=0",
        "suppressions=" + os.path.join(config.test_source_root, "lsan.supp")) if o)
    import sys
    sys.path.insert(0, config.test_source_root)
    from sanitize_sample import SampledShTest
    with open(os.path.join(config.test_source_root, "sanitize-sample.txt")) as f:
        _sample = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    config.test_format = SampledShTest(_sample, execute_external=True)
