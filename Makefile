# Thin wrapper over CMake so the README's commands are make words.
#   make          configure and build build/bin/ptoc, libptoc, libptort
#   make check    install what is missing (scripts/setup.sh), build, run every test
#   make demo     the same set-up, then compile and run an example
#   make bench    build and run the benchmarks (figures, not assertions), the Python
#                 package's ptoc.cvt beside numpy included (bench/python_cvt.py)
#   make bench-qwen3   PTOAS's Qwen3 decode layer through ptoc, timed in parts, beside
#                      PTOAS's numpy goldens (needs ../shared; bench/qwen3_layer.py)
#   make check-sanitize   under ASan+UBSan (clang-19), in build-asan/: every unit test, every
#                         lit test that builds no program and a sample of those that do
#                         (test/lit/sanitize-sample.txt; docs/testing.md)
#   make check-nomlir     configured as without libmlir-19-dev (find_package(MLIR) disabled:
#                         no bridge), in build-nomlir/: the tests that differ there (label
#                         nomlir: the install, the driver, the C API, ptoc-irdl)
#   make fuzz     a bounded libFuzzer run on the frontend (clang-19), in build-fuzz/
#   make fuzz-kernels SECONDS=N   random differential testing for N seconds (default 300):
#                 generated kernels through `ptoc run` against test/e2e/pto_ref.py;
#                 reproducers in fuzz-kernels-out/ (FUZZ_PTOC=build-asan/bin/ptoc: under
#                 the sanitizers; FUZZ_SEED=S another seed)
#   make check-exhaustive  sweep all 2^32 f32 inputs for the f32 conversions and the
#                          f32 vector ops, all 2^32 f16/bf16 operand pairs (EXHAUSTIVE_JOBS)
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
# ccache when installed (scripts/setup.sh installs it): the build without MLIR then
# reuses the objects of the main build. Paths are made relative to the source tree and
# the working directory is left out of the hash, so that build directories share.
LAUNCHER := $(shell command -v ccache >/dev/null 2>&1 && echo -DCMAKE_C_COMPILER_LAUNCHER=ccache)
# Ninja when installed (scripts/setup.sh installs it): a build whose objects all come
# from ccache takes 9 s with it against 22 s with CMake's Makefiles (they start a
# helper process per object). CMake reads CMAKE_GENERATOR for a new build tree only: an
# existing one keeps its generator; set CMAKE_GENERATOR to choose another.
ifneq ($(shell command -v ninja 2>/dev/null),)
export CMAKE_GENERATOR ?= Ninja
endif
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1

.PHONY: all build setup check demo bench bench-qwen3 check-sanitize check-nomlir fuzz fuzz-kernels check-exhaustive clean

all: build

setup:
	@bash scripts/setup.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) $(LAUNCHER) $(CMAKE_FLAGS)

build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

check: setup
	cmake -S . -B $(BUILD) $(LAUNCHER) $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

demo: setup build
	@bash scripts/demo.sh $(BUILD)

bench: setup build
	cmake --build $(BUILD) -j $(JOBS) --target ptoc-bench
	$(BUILD)/bin/ptoc-bench cvt
	$(BUILD)/bin/ptoc-bench mmad
	$(BUILD)/bin/ptoc-bench parse
	$(BUILD)/bin/ptoc-bench mlir
	$(BUILD)/bin/ptoc-bench kernel
	$(BUILD)/bin/ptoc-bench vop
	$(BUILD)/bin/ptoc-bench launch
	PYTHONPATH=$(BUILD)/python /usr/bin/python3 bench/python_cvt.py

bench-qwen3: setup build
	/usr/bin/python3 bench/qwen3_layer.py --ptoc $(BUILD)/bin/ptoc --rtlib $(BUILD)/lib/libptort.a --runs 3

check-sanitize: setup
	cmake -S . -B build-asan $(LAUNCHER) -DCMAKE_C_COMPILER=clang-19 -DPTOC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug \
		'-DCMAKE_C_FLAGS_DEBUG=-g -O1'
	cmake --build build-asan -j $(JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j $(JOBS)

check-nomlir: setup
	cmake -S . -B build-nomlir $(LAUNCHER) -DCMAKE_DISABLE_FIND_PACKAGE_MLIR=ON
	cmake --build build-nomlir -j $(JOBS)
	cd build-nomlir && ctest --output-on-failure -j $(JOBS) -L nomlir

fuzz: setup
	cmake -S . -B build-fuzz $(LAUNCHER) -DCMAKE_C_COMPILER=clang-19 -DPTOC_FUZZ=ON -DPTOC_SANITIZE=ON \
		-DCMAKE_BUILD_TYPE=Debug '-DCMAKE_C_FLAGS_DEBUG=-g -O1'
	cmake --build build-fuzz -j $(JOBS) --target ptoc-fuzz-frontend
	bash scripts/fuzz.sh build-fuzz $${FUZZ_SECONDS:-120}

fuzz-kernels: build
	/usr/bin/python3 test/e2e/fuzz_kernels.py --ptoc $(or $(FUZZ_PTOC),$(BUILD)/bin/ptoc) \
		--seconds $(or $(SECONDS),300) --seed $(or $(FUZZ_SEED),$(shell date +%s)) \
		--per-run 25 --out fuzz-kernels-out

check-exhaustive: setup build
	cmake --build $(BUILD) -j $(JOBS) --target test_cvt_exhaustive test_vop_exhaustive
	$(BUILD)/bin/test_cvt_exhaustive
	$(BUILD)/bin/test_vop_exhaustive -j $(or $(EXHAUSTIVE_JOBS),1)

clean:
	rm -rf $(BUILD) build-asan build-fuzz build-nomlir
