// RUN: plaidml-opt %s -plaidml-cpu-pipeline="cpu=x86-64 opt-level=2 threads=4 cache-block-bytes=65536" \
// RUN:   -dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: plaidml-opt %s -plaidml-cpu-lowering-pipeline \
// RUN:   -dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOWER
// RUN: not plaidml-opt %s -plaidml-cpu-pipeline="opt-level=4" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OPT
// RUN: not plaidml-opt %s -plaidml-cpu-lowering-pipeline="threads=0" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=THREADS
// RUN: not plaidml-opt %s -plaidml-cpu-pipeline="cache-block-bytes=0" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BLOCK
// RUN: not plaidml-opt %s -plaidml-cpu-pipeline="nosuch=1" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNKNOWN

// The pass order of the CPU pipelines (docs/CpuPipeline.md explains it).
// After plaidml-cpu-outline-nests, the passes that work on one function
// at a time are nested on the functions (MLIR runs them in parallel).

// FULL:      builtin.module(
// FULL-NEXT:   func.func(
// FULL-NEXT:     tile-compute-bounds,
// FULL-NEXT:     tile-output-stationary
// FULL-NEXT:   ),
// FULL-NEXT:   convert-tile-to-affine{border-fill=true split-guards=true},
// FULL-NEXT:   plaidml-attach-target{{{.*}}cpu=x86-64 device=cpu {{.*}}},
// FULL-NEXT:   func.func(
// FULL-NEXT:     plaidml-erase-zero-size-buffers,
// FULL-NEXT:     plaidml-cpu-exact-min-max,
// FULL-NEXT:     plaidml-fuse-elementwise,
// FULL-NEXT:     plaidml-cpu-configure{block-bytes=65536 chunk-bytes=16384 remarks=false vector-bits=0}
// FULL-NEXT:     plaidml-cpu-tile-contractions
// FULL-NEXT:   ),
// FULL-NEXT:   plaidml-cpu-split-prepare,
// FULL-NEXT:   math-extend-to-supported-types
// LOWER:     builtin.module(
// LOWER-NEXT:  plaidml-attach-target{{{.*}}cpu=native device=cpu {{.*}}},
// LOWER-NEXT:  func.func(
// LOWER-NEXT:    plaidml-erase-zero-size-buffers,
// LOWER-NEXT:    plaidml-cpu-exact-min-max,
// LOWER-NEXT:    plaidml-fuse-elementwise,
// LOWER-NEXT:    plaidml-cpu-configure{block-bytes=262144 chunk-bytes=16384 remarks=false vector-bits=0},
// LOWER-NEXT:    plaidml-cpu-tile-contractions
// LOWER-NEXT:  ),
// LOWER-NEXT:  plaidml-cpu-split-prepare,
// LOWER-NEXT:  math-extend-to-supported-types{ target-type=f32},
// LOWER-NEXT:  convert-math-to-funcs{
// LOWER-NEXT:  func.func(
// LOWER-NEXT:    plaidml-cpu-parallelize{min-work=32768 threads=1},
// LOWER-NEXT:    plaidml-cpu-plan-workspace
// LOWER-NEXT:  ),
// LOWER-NEXT:  plaidml-cpu-outline-nests,
// LOWER-NEXT:  func.func(
// LOWER-NEXT:    lower-affine,
// LOWER-NEXT:    cse,
// LOWER-NEXT:    plaidml-cpu-expand-arith,
// LOWER-NEXT:    convert-scf-to-cf{
// LOWER-NEXT:    convert-math-to-llvm{
// LOWER-NEXT:  ),
// LOWER-NEXT:  convert-math-to-libm,
// LOWER-NEXT:  func.func(
// LOWER-NEXT:    convert-vector-to-llvm{
// LOWER-NEXT:    expand-strided-metadata
// LOWER-NEXT:  ),
// LOWER-NEXT:  finalize-memref-to-llvm{
// LOWER-NEXT:  func.func(
// LOWER-NEXT:    convert-arith-to-llvm{
// LOWER-NEXT:  ),
// LOWER-NEXT:  convert-arith-to-llvm{
// LOWER-NEXT:  convert-cf-to-llvm{
// LOWER-NEXT:  convert-func-to-llvm{{{.*}}use-bare-ptr-memref-call-conv=true},
// LOWER-NEXT:  llvm.func(
// LOWER-NEXT:    cse
// LOWER-NEXT:  ),
// LOWER-NEXT:  plaidml-emit-entry-points,
// LOWER-NEXT:  convert-ub-to-llvm{
// LOWER-NEXT:  reconcile-unrealized-casts
// LOWER-NEXT: )

// With threads > 1, the parallel loops that stay become OpenMP loops on that
// many threads, memrefs reach LLVM before scf-to-cf (the OpenMP loop bodies
// are alloca_scopes), and the omp ops after func-to-llvm.
// FULL:      plaidml-cpu-parallelize{min-work=32768 threads=4},
// FULL-NEXT: plaidml-cpu-plan-workspace
// FULL-NEXT: ),
// FULL-NEXT: plaidml-cpu-outline-nests,
// FULL-NEXT: func.func(
// FULL-NEXT:   lower-affine,
// FULL-NEXT:   cse
// FULL-NEXT: ),
// FULL-NEXT: convert-scf-to-openmp{num-threads=4},
// FULL-NEXT: func.func(
// FULL-NEXT:   plaidml-cpu-expand-arith,
// FULL-NEXT:   expand-strided-metadata
// FULL-NEXT: ),
// FULL-NEXT: finalize-memref-to-llvm{
// FULL-NEXT: func.func(
// FULL-NEXT:   convert-scf-to-cf{
// FULL-NEXT:   convert-math-to-llvm{
// FULL-NEXT: ),
// FULL-NEXT: convert-math-to-libm,
// FULL-NEXT: func.func(
// FULL-NEXT:   convert-vector-to-llvm{
// FULL-NEXT:   convert-arith-to-llvm{
// FULL-NEXT: ),
// FULL-NEXT: convert-arith-to-llvm{
// FULL-NEXT: convert-cf-to-llvm{
// FULL-NEXT: convert-func-to-llvm{{{.*}}use-bare-ptr-memref-call-conv=true},
// FULL-NEXT: convert-openmp-to-llvm,
// FULL-NEXT: llvm.func(
// FULL-NEXT:   cse
// FULL-NEXT: ),

// The target options enter the IR once, as the module's plaidml.target
// (plaidml-attach-target, above), unresolved ("native" is resolved where it
// is read); opt-level is for the compiler driver.
// FULL-NEXT: plaidml-emit-entry-points,

// OPT: opt-level must be 0, 1, 2 or 3, not 4
// THREADS: threads must be at least 1
// BLOCK: cache-block-bytes must be at least 1, not 0
// UNKNOWN: no such option nosuch

module {
}
