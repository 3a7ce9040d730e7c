#!/usr/bin/env bash
# Installs the Debian 12 packages ptoc needs to build and test. Idempotent: does
# nothing when everything is present. `--if-missing` is the same (kept for clarity in
# the Makefile); `--check` only reports what is missing (exit 1 if anything is).
set -euo pipefail

PACKAGES=(
  build-essential cmake flex bison        # build
  lld                                     # the linker of the builds (faster than GNU ld)
  ninja-build                             # the builds' generator (faster than make's)
  ccache                                  # the builds of make check-* share objects
  llvm-19-tools                           # FileCheck, lit, not
  mlir-19-tools                           # mlir-opt: generic-form interop test, parse benchmark
  libmlir-19-dev llvm-19-dev              # MLIR C API: libptoc_mlir (mlir/), its tests and bench
  clang-19 libclang-rt-19-dev             # sanitizer and libFuzzer builds
  tcc                                     # generated C must compile with tcc too
  python3 python3-numpy                   # lit; numpy float16 cross-checks
  python3-mpmath                          # test/qwen3: correctly rounded exp for the exact reference
  libopenblas-dev                         # mmad benchmark baseline
  libmpfr-dev                             # vector ops: correctly rounded references (tests only)
)

# A package is present when dpkg says it is installed.
missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${1:-}" = "--check" ]; then
  if [ ${#missing[@]} -gt 0 ]; then echo "missing: ${missing[*]}"; exit 1; fi
  echo "all packages present"; exit 0
fi

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
