#!/usr/bin/env bash
# config_test.sh CMAKE SRC CC: configures SRC three times in temporary build folders:
#   1. against a stand-in MLIR 20 installation (an MLIRConfig.cmake saying 20.1.8):
#      the configuration must fail and say which version it found and which it supports;
#   2. with find_package(MLIR) disabled (as without libmlir-19-dev) and 3. with
#      -DPTOC_MLIR=OFF: it must succeed, say why the bridge is left out, define no
#      libptoc_mlir target and register none of the bridge's tests, while ptoc-irdl
#      (no MLIR) and the rest stay.
# Also: no C file outside the bridge and its tests includes an MLIR header.
set -euo pipefail
CMAKE=$1 S=$2 CC=$3
T=$(mktemp -d /tmp/ptoc-config-XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "config_test: $*"; exit 1; }

# 1: an untested major version
mkdir -p "$T/mlir20/include"
cat > "$T/mlir20/MLIRConfig.cmake" <<CFG
set(LLVM_VERSION 20.1.8)
set(MLIR_INSTALL_PREFIX "$T/mlir20")
set(MLIR_INCLUDE_DIRS "$T/mlir20/include")
CFG
if "$CMAKE" -S "$S" -B "$T/b20" -DCMAKE_C_COMPILER="$CC" -DMLIR_DIR="$T/mlir20" > "$T/b20.log" 2>&1; then
  cat "$T/b20.log"; fail "configuring against MLIR 20 succeeded"
fi
# CMake wraps the message: compare it as one line.
tr -s ' \n' '  ' < "$T/b20.log" > "$T/b20.flat"
grep -q "CMake Error at mlir/CMakeLists.txt" "$T/b20.flat" || { cat "$T/b20.log"; fail "no configure error from mlir/"; }
grep -q "found MLIR 20.1.8 (MLIR_DIR=$T/mlir20)" "$T/b20.flat" || { cat "$T/b20.log"; fail "the error does not name the MLIR found"; }
grep -q "tested against MLIR 19 only" "$T/b20.flat" || { cat "$T/b20.log"; fail "the error does not name the supported version"; }
grep -q -- "-DPTOC_MLIR=OFF" "$T/b20.flat" || fail "the error does not say how to build without the bridge"

# 2 and 3: without the bridge
check_without() { # NAME WHY CMAKE-ARGS...
  local b=$T/$1 why=$2
  shift 2
  "$CMAKE" -S "$S" -B "$b" -DCMAKE_C_COMPILER="$CC" "$@" > "$b.log" 2>&1 || { cat "$b.log"; fail "$b: configuring failed"; }
  grep -q "$why" "$b.log" || { cat "$b.log"; fail "$b: no message '$why'"; }
  grep -q "^PTOC_HAVE_MLIR" "$b/CMakeCache.txt" && fail "$b: PTOC_HAVE_MLIR cached"
  # the targets as the generator lists them: `... NAME` (Makefiles) or `NAME: phony` (Ninja)
  "$CMAKE" --build "$b" --target help > "$b.targets"
  grep -q "ptoc_mlir" "$b.targets" && fail "$b: a libptoc_mlir target exists"
  for t in ptoc ptoc_static ptoc_shared ptort_static ptoc-irdl; do
    grep -qE "^(\.\.\. $t|$t: phony)\$" "$b.targets" || fail "$b: target $t missing"
  done
  (cd "$b" && ctest -N) > "$b.tests"
  grep -qE "unit_mlir|boundary.exports.ptoc_mlir" "$b.tests" && fail "$b: a test of the bridge is registered"
  grep -qE "Test +#[0-9]+: lit_driver$" "$b.tests" || fail "$b: the lit suite is not registered"
  return 0
}
check_without nomlir "MLIR C API not found" -DCMAKE_DISABLE_FIND_PACKAGE_MLIR=ON
check_without off "PTOC_MLIR=OFF" -DPTOC_MLIR=OFF

# Layering: only the bridge, its tests and the embedder's example include MLIR headers.
if grep -rlE '#include +"mlir-c/' "$S" --include='*.c' --include='*.h' \
     | grep -vE "^$S/(mlir|test/unit/mlir|examples/embed|include/ptoc/mlir\.h|bench/bench_mlir\.c|build[^/]*)(/|$)"; then
  fail "the files above include MLIR headers outside the bridge"
fi
echo "config_test: MLIR 20 refused; configured without the bridge (absent, and PTOC_MLIR=OFF)"
