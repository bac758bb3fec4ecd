#!/usr/bin/env bash
#===- bench/run-cpu.sh - Build and run the CPU benchmark -----------------===#
#
# One command for docs/Performance.md's table: builds plaidml-bench-cpu in
# build/ (configuring with the ci preset when there is no build yet; the
# build runs under nice with two jobs, JOBS=N for more), then runs every
# case at 1 and 2 threads and writes the report to build/bench/cpu.md.
# Arguments go to plaidml-bench-cpu, e.g. `bench/run-cpu.sh --filter sgemm
# --threads 1`. The benchmark itself is not niced: run it on a quiet machine.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
jobs=${JOBS:-2}

if [[ ! -f "$build/build.ninja" && ! -f "$build/Makefile" ]]; then
  if [[ "$build" != "$root/build" ]]; then
    echo "run-cpu: $build is not a configured build directory" >&2
    exit 1
  fi
  (cd "$root" && cmake --preset ci)
fi
if ! nice cmake --build "$build" --target plaidml-bench-cpu -j "$jobs"; then
  echo "run-cpu: cannot build plaidml-bench-cpu; when CMake says 'Not" \
    "building plaidml-bench-cpu', install OpenBLAS and oneDNN" \
    "(scripts/install-deps.sh) and configure again" >&2
  exit 1
fi
bench="$build/bin/plaidml-bench-cpu"
mkdir -p "$build/bench"
exec "$bench" --output "$build/bench/cpu.md" "$@"
