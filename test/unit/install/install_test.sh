#!/usr/bin/env bash
# install_test.sh BUILD SRC CC: installs BUILD under a temporary prefix, moves the
# prefix elsewhere (nothing may point at the first place), then builds the embedder's
# example (examples/embed) outside the tree against it twice, through the CMake package
# and through pkg-config, and runs both; also runs the installed `ptoc` on a kernel
# (`ptoc run` finds the installed runtime beside its binary) and the installed Python
# package's example.
set -euo pipefail
B=$1 S=$2 CC=$3
T=$(mktemp -d /tmp/ptoc-install-XXXXXX)
trap 'rm -rf "$T"' EXIT

cmake --install "$B" --prefix "$T/first" > "$T/install.log"
mv "$T/first" "$T/prefix"
P=$T/prefix
for f in bin/ptoc include/ptort.h include/ptoc/ptoc.h include/ptoc/legality.h include/ptoc/mlir.h \
         lib/libptoc.a lib/libptoc.so lib/libptort.a lib/libptort.so lib/libptoc_mlir.a lib/libptoc_mlir.so \
         lib/cmake/ptoc/ptocConfig.cmake lib/cmake/ptoc/ptocConfigVersion.cmake \
         lib/pkgconfig/ptoc.pc lib/pkgconfig/ptort.pc lib/pkgconfig/ptoc-mlir.pc; do
  test -e "$P/$f" || { echo "not installed: $f"; exit 1; }
done
if grep -rl "$T/first" "$P/lib/cmake" "$P/lib/pkgconfig"; then
  echo "the package files name the prefix they were installed to"; exit 1
fi

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
echo "install_test: installed, moved, built against both ways, ran"
