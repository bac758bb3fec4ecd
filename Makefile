#===- Makefile - One-command entry points --------------------------------===#
#
# Thin wrapper over scripts/install-deps.sh, the CMake presets and CTest, so
# a fresh Debian 12 machine needs one command: `make demo` (set up, build,
# run the examples) or `make check` (set up, build, run every test). Builds
# with the `ci` preset into build/ unless PRESET=dev is given.
#
#===----------------------------------------------------------------------===#

PRESET ?= ci
BUILD_DIR := build
# The machines this runs on are shared: never more than two jobs.
JOBS ?= 2
PLAIDML_OPT := $(BUILD_DIR)/bin/plaidml-opt
PLAIDML_RUN := $(BUILD_DIR)/bin/plaidml-run
DEMO_PASSES := -tile-compute-bounds -canonicalize

.PHONY: all deps configure build demo check format docs clean

all: build

deps:
	scripts/install-deps.sh

configure: deps
	cmake --preset $(PRESET)

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

demo: build
	@for example in examples/matmul.mlir examples/conv.mlir; do \
	  echo "=== plaidml-opt $$example $(DEMO_PASSES)"; \
	  $(PLAIDML_OPT) $$example $(DEMO_PASSES) || exit 1; \
	done
	@echo "=== plaidml-run examples/dense.tile --device cpu (the same layer in the Tile language)"
	@$(PLAIDML_RUN) examples/dense.tile --device cpu --bind A=4x8xf32 \
	  --bind B=8x16xf32 --bind Bias=16xf32 --random-inputs=1 --print
	@for device in cpu reference; do \
	  echo "=== plaidml-run examples/matmul.mlir --device $$device --random-inputs=1 --print --repeat 5"; \
	  $(PLAIDML_RUN) examples/matmul.mlir --device $$device --random-inputs=1 \
	    --print --repeat 5 || exit 1; \
	done

check: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure

format:
	find include lib tools test bench \( -name '*.h' -o -name '*.cpp' \) -print0 \
	  | xargs -0 clang-format-22 -i

docs: configure
	cmake --build $(BUILD_DIR) --target plaidml-update-docs

clean:
	rm -rf $(BUILD_DIR)
