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
    config.substitutions.append(("%clang", config.clang))
if config.mlir_opt:
    config.available_features.add("mlir-opt")
    config.substitutions.append(("%mlir-opt", config.mlir_opt))
if os.path.exists(os.path.join(config.ptoc_tools_dir, "ptoc-irdl")):
    config.available_features.add("ptoc-irdl")  # built with the MLIR bridge (mlir/)
if os.path.isdir(os.path.join(config.ptoc_shared_dir, "corpus", "ptoas")):
    config.available_features.add("shared")
if config.sanitize in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("sanitize")
