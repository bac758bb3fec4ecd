#!/usr/bin/env bash
#===- bench/compile/run.sh - Compile time of large programs --------------===#
#
# One command for the compile-time measurements of docs/Performance.md:
# generates programs of growing size with gen-program.py (thousands of
# constants; chains of matmuls and elementwise ops), and for each prints the
# seconds of the whole CPU compile (plaidml-compile, LLVM and linking
# included) and of the MLIR pipeline alone, with the passes that took the
# most time (--mlir-timing). Time that grows faster than the program (the
# seconds per 1000 ops column) points at a super-linear pass. Uses the tools
# in build/bin (BUILD_DIR=... for another build); `SIZES="1000 10000"` and
# `KINDS=constants` narrow the run. Nothing is asserted: this measures.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$root/build}
bin="$build/bin"
sizes=${SIZES:-"1000 2000 5000 10000"}
kinds=${KINDS:-"constants mixed"}
top=${TOP:-3}
for tool in plaidml-opt plaidml-compile; do
  if [[ ! -x "$bin/$tool" ]]; then
    echo "run.sh: no $bin/$tool; build first (ninja -C $build)" >&2
    exit 1
  fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Seconds since the epoch with nanoseconds.
now() { date +%s.%N; }

printf '%-10s %7s %10s %10s %14s\n' kind ops compile_s mlir_s s_per_1000ops
for kind in $kinds; do
  for ops in $sizes; do
    prog="$work/$kind-$ops.mlir"
    python3 "$root/bench/compile/gen-program.py" "$kind" "$ops" > "$prog"
    start=$(now)
    "$bin/plaidml-compile" "$prog" --device cpu -o "$work/out.so"
    compile=$(echo "$(now) - $start" | bc)
    start=$(now)
    "$bin/plaidml-opt" "$prog" --mlir-timing \
      --pass-pipeline='builtin.module(plaidml-cpu-pipeline)' \
      -o /dev/null 2> "$work/timing.txt"
    mlir=$(echo "$(now) - $start" | bc)
    printf '%-10s %7d %10.2f %10.2f %14.3f\n' "$kind" "$ops" "$compile" \
      "$mlir" "$(echo "$compile * 1000 / $ops" | bc -l)"
    # The slowest passes: "  1.2345 ( 12.3%)  name" lines of --mlir-timing.
    grep -E '^ +[0-9.]+ +\( *[0-9.]+%\) +' "$work/timing.txt" |
      grep -v 'Total\|Parser\|Output\|Rest' | sort -rn | head -n "$top" |
      sed 's/^/    /'
  done
done
