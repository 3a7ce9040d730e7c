#!/usr/bin/env bash
# install_test.sh BUILD SRC CC [--no-mlir]: installs BUILD under a temporary prefix,
# moves the prefix elsewhere (nothing may point at the first place), then builds the
# embedder's example (examples/embed) outside the tree against it twice, through the
# CMake package and through pkg-config, and runs both; also runs the installed `ptoc`
# on a kernel (`ptoc run` finds the installed runtime beside its binary) and the
# installed Python package's example.
# --no-mlir: BUILD was configured without the MLIR bridge. Then the bridge's files
# must not be installed, the package must say so (ptoc_HAVE_MLIR OFF), and instead of
# the MLIR example a client of the public C API (ptoc.h, legality.h, ptort.h) is built
# both ways and run.
set -euo pipefail
B=$1 S=$2 CC=$3 NOMLIR=${4:-}
T=$(mktemp -d /tmp/ptoc-install-XXXXXX)
trap 'rm -rf "$T"' EXIT

cmake --install "$B" --prefix "$T/first" > "$T/install.log"
mv "$T/first" "$T/prefix"
P=$T/prefix
files="bin/ptoc include/ptort.h include/ptoc/ptoc.h include/ptoc/legality.h
       lib/libptoc.a lib/libptoc.so lib/libptort.a lib/libptort.so
       lib/cmake/ptoc/ptocConfig.cmake lib/cmake/ptoc/ptocConfigVersion.cmake
       lib/pkgconfig/ptoc.pc lib/pkgconfig/ptort.pc"
mlir_files="include/ptoc/mlir.h lib/libptoc_mlir.a lib/libptoc_mlir.so lib/pkgconfig/ptoc-mlir.pc"
if [ "$NOMLIR" = --no-mlir ]; then
  for f in $mlir_files; do
    test ! -e "$P/$f" || { echo "installed without the bridge, yet: $f"; exit 1; }
  done
else
  files="$files $mlir_files"
fi
for f in $files; do
  test -e "$P/$f" || { echo "not installed: $f"; exit 1; }
done
if grep -rl "$T/first" "$P/lib/cmake" "$P/lib/pkgconfig"; then
  echo "the package files name the prefix they were installed to"; exit 1
fi

if [ "$NOMLIR" = --no-mlir ]; then
  grep -q 'set(ptoc_HAVE_MLIR OFF)' "$P/lib/cmake/ptoc/ptocConfig.cmake" ||
    { echo "the package does not say it has no bridge"; exit 1; }
  # 1: the CMake package, a client of the C API
  mkdir -p "$T/capi"
  cat > "$T/capi/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(capi C)
find_package(ptoc 0.1 REQUIRED CONFIG)
add_executable(capi capi.c)
target_link_libraries(capi PRIVATE ptoc::ptoc ptoc::ptort m)
CM
  cat > "$T/capi/capi.c" <<'C'
#include <stdio.h>
#include <string.h>
#include "ptoc/legality.h"
#include "ptoc/ptoc.h"
int main(void)
{
	ptoc_context *ctx = ptoc_context_create();
	const char *src = "func.func @k() { return }";
	ptoc_module *m = ptoc_parse(ctx, src, strlen(src), "k.pto");
	int rc = m ? 0 : 1;
	ptoc_context_destroy(ctx);
	puts(rc ? "capi: parse failed" : "capi: parsed");
	return rc;
}
C
  cmake -S "$T/capi" -B "$T/capi-b" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_C_COMPILER="$CC" > "$T/cmake.log"
  cmake --build "$T/capi-b" > "$T/cmake-build.log" || { cat "$T/cmake-build.log"; exit 1; }
  "$T/capi-b/capi"
  # 2: pkg-config
  export PKG_CONFIG_PATH="$P/lib/pkgconfig"
  ! pkg-config --exists ptoc-mlir || { echo "pkg-config finds ptoc-mlir"; exit 1; }
  "$CC" -std=c11 -Wall -Wextra -Wpedantic -Werror -o "$T/capi-pc" "$T/capi/capi.c" \
    $(pkg-config --cflags --libs ptoc ptort) -lm -Wl,-rpath,"$P/lib"
  "$T/capi-pc"
else
# 1: the CMake package
cmake -S "$S/examples/embed" -B "$T/cmake" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_C_COMPILER="$CC" > "$T/cmake.log"
cmake --build "$T/cmake" > "$T/cmake-build.log" || { cat "$T/cmake-build.log"; exit 1; }
"$T/cmake/embed" "$S/examples/cvt_kernel.pto" "$P/include" "$P/lib"

# 2: pkg-config
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
test "$(pkg-config --modversion ptoc)" = "$(pkg-config --modversion ptoc-mlir)"
"$CC" -std=c11 -Wall -Wextra -Wpedantic -Werror -o "$T/embed-pc" "$S/examples/embed/embed.c" \
  $(pkg-config --cflags --libs ptoc-mlir ptort) -lm -ldl -Wl,-rpath,"$P/lib"
"$T/embed-pc" "$S/examples/cvt_kernel.pto" "$P/include" "$P/lib"
fi

# 3: the installed driver, with its runtime beside it
head -c 2048 /dev/zero > "$T/in.bin"
"$P/bin/ptoc" run "$S/examples/cvt_kernel.pto" --in src="$T/in.bin" --out f16="$T/h.bin" --out bf16="$T/b.bin"
test "$(od -An -tx1 -v "$T/h.bin" | tr -d ' \n' | tr -d 0)" = ""
# 4: the installed Python package, which finds the libraries and the driver from its
# own place (docs/python.md), through the example run against its numpy golden
test -e "$P/lib/python3/dist-packages/ptoc/__init__.py" || { echo "not installed: the Python package"; exit 1; }
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  (cd "$T" && PYTHONPATH="$P/lib/python3/dist-packages" /usr/bin/python3 "$S/examples/python_golden.py") \
    > "$T/py.log" 2>&1 || { cat "$T/py.log"; exit 1; }
fi
echo "install_test${NOMLIR:+ $NOMLIR}: installed, moved, built against both ways, ran"
