//===- Passes.td - CPU target passes -----------------------*- tablegen -*-===//
//
// The passes that turn lowered PlaidML functions into a CPU artifact: the
// choice of the loops that run on several threads, and the entry-point
// wrappers and the manifest of docs/ABI.md sections 2 and 3.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_TARGET_CPU_PASSES_TD
#define PLAIDML_TARGET_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def EmitEntryPointsPass
    : Pass<"plaidml-emit-entry-points", "mlir::ModuleOp"> {
  let summary = "Emit the entry-point wrappers and the manifest of an "
                "artifact (CPU code, or a GPU artifact's host code)";
  let description = [{
    Runs on the LLVM dialect, after `convert-func-to-llvm` with the
    bare-pointer calling convention (`use-bare-ptr-memref-call-conv=1`). For
    every `llvm.func @f` that carries `plaidml.entry` (set by
    `convert-tile-to-affine`, see docs/ABI.md section 1), it emits

    ```mlir
    llvm.func @_plaidml_entry_f(%buffers: !llvm.ptr) {
      // load buffers[0], buffers[1], ... and call @f with them
    }
    ```

    with default visibility, gives `@f` internal linkage (the runtime calls
    only the wrappers, and LLVM may inline `@f` into its wrapper), and drops
    the `plaidml.*` attributes, whose content moves into the manifest: one
    exported, null-terminated global `@plaidml_manifest` that records the
    compiler version, the device, the target triple, the CPU and its ISA
    features (the names `llvm::sys::getHostCPUFeatures` uses, so the runtime
    can compare them with the machine's), and, for each entry point, its
    inputs and outputs with their original tensor types (docs/ABI.md
    section 3):

    ```
    plaidml-artifact 1
    compiler 0.1.0
    device cpu
    triple x86_64-pc-linux-gnu
    cpu skylake-avx512
    features +avx,+avx2,...
    entry f _plaidml_entry_f
    input arg0 2x3xsi32
    output result0 2x3xf32
    end
    ```

    Signless integer tensors are recorded as signed (`i32` as `si32`), as
    the Tile dialect treats them. The pass also sets `llvm.target_triple` on
    the module, so a later `--mlir-to-llvmir` produces IR for that target.

    The device kind, triple, CPU and features come from the module's
    `plaidml.target` (`plaidml-attach-target`; without one, a CPU artifact
    for the host). `cpu = "native"` means the host CPU and, when `features`
    is empty, its features; a named CPU with empty `features` records the
    features the CPU implies. For a GPU artifact (`device = vulkan` or
    `opencl`), the host code is CPU code like any other, and the module's
    `plaidml.requirements` (`plaidml-gpu-collect-requirements`: what the
    kernels need of the device) become the `requires` line
    (`requires Shader,Float64,SPV_KHR_8bit_storage`), which the runtime
    checks before it loads the artifact. An entry function that is not in
    bare-pointer form, or whose `plaidml.inputs`/`plaidml.outputs` do not
    match its arguments, is an error naming the function.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect",
                           "mlir::plaidml::PlaidMLDialect"];
}

def CpuConfigurePass
    : Pass<"plaidml-cpu-configure", "mlir::func::FuncOp"> {
  let summary = "Choose the register blocking, cache blocking and packing "
                "of every reduction nest";
  let description = [{
    Looks at every top-level `affine.parallel` reduction nest of the ABI
    form (the shape `convert-tile-to-affine` and `plaidml-fuse-elementwise`
    give a contraction: a prologue, perfectly nested reduction `affine.for`
    loops carrying one f32 or f64 value, an elementwise epilogue and one
    `affine.store` at the parallel indices) and records how
    `plaidml-cpu-tile-contractions` should generate it, as

    ```mlir
    affine.parallel ... {
      ...
    } {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 14,
          vectors = 2, panels_per_block = 4, pack = true,
          unroll_inner = false>}
    ```

    The vector dimension is the index of the stored element's contiguous
    coordinate, the row dimension the one before it. A register block is
    `rows` x `vectors` vectors of `lanes` elements (accumulators kept in
    registers for the whole reduction); the cost model counts, per
    reduction step, the FMAs (two per cycle) against the loads and
    broadcasts (two per cycle), and at least one FMA latency (4 cycles: an
    accumulator's FMAs depend on each other, so a block of fewer than 8
    accumulators, such as a 2 x 2 remainder, leaves the FMA units idle),
    plus, without AVX-512, 0.3 cycles per load or broadcast, so that among
    blocks bound by their FMAs the one with fewer loads per FMA wins (on a
    Zen 3 core, 4 x 3 blocks ran ResNet-50's 3 x 3 convolutions 4-21%
    faster than 5 x 2 or 6 x 2, though a loop of each alone reaches the FMA
    bound; AVX-512 folds a broadcast into its FMA), over the whole
    iteration space, remainder blocks included, and takes
    the cheapest block that fits the register file (28 accumulators with
    AVX-512's 32 registers; with AVX2's 16, 12 and no more than leave a
    register for each vector of the step's operand and the broadcast).
    Where the row dimension is narrower than a block could be (a 7 x 7
    map), `rows` may be a multiple of its extent: the block then spans
    `rows / extent` whole rows of the outer dimension (the store's
    coordinate before the row's; `14` on a 7-wide row is two rows of 7),
    compared with the row-at-a-time blocks over all the outer rows, among
    equal costs the larger block with fewer vectors (half the packed-data
    vector loads per FMA). Only where nothing in the nest reads the outer
    index without the row index, and no operand is read per row and vector
    (a window that slides with the row). Column panels are grouped into cache blocks whose packable operand data
    (read along the vector dimension and the reduction only, like a matmul's
    right-hand side or a convolution's filter) stays within `block-bytes`, and that
    data is packed into a contiguous buffer per block when several row
    blocks reuse it, or when all of it is parameters (`plaidml.param`,
    packed once for all calls: a GEMV's single row then reads contiguous
    panels instead of a few vectors per row of the matrix). `unroll_inner` unrolls an innermost reduction loop of
    at most 4 steps whose index slides a window with the row index (a
    depthwise convolution's `kw`), so that overlapping windows load once.
    Where a panel's packable data is larger than a cache block and more
    than one row block reads it, the block may instead run the reduction
    in chunks (`reduction_chunk`: iterations of the innermost reduction
    loop, the largest divisor of its trip count whose slice of a panel fits
    `chunk-bytes`, at least 32 reduction points): each chunk's slice stays
    in the L1 cache for every row block, at the cost of loading and storing
    the accumulators once per chunk (counted as two steps per chunk),
    instead of the larger panel's 25% penalty. The 3 x 3 convolutions of
    ResNet-50's 7 x 7 stage (4608 reduction points) take 4 x 3 blocks in
    chunks of 16 channels with AVX2 instead of 7 x 1 blocks.

    `vector-bits` is the vector register width; 0 takes it from the
    module's `plaidml.target` (its `cpu` and `features`: 512 with avx512f, 256 with avx, 128 otherwise on
    x86 and on AArch64). `lanes` is that width in elements, or half or a
    quarter of it (down to 4) when the narrower vectors cover the vector
    dimension in fewer steps, counting a vector step and a scalar remainder
    step alike (14 columns: 3 vectors of 4 and 2 scalars, not 14 scalars;
    56 columns: 7 vectors of 8, not 3 of 16 and 8 scalars). Nests that do
    not have the shape, or whose vector dimension is shorter than 4
    elements, get no schedule and stay as they are. A nest that already
    carries a schedule (written by hand, say, to compare blocks) keeps it.
    With `remarks=1` every nest gets a remark saying what was chosen, kept,
    or why not.
  }];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::plaidml::PlaidMLDialect"];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"0",
           "Vector register width in bits (0: from the target)">,
    Option<"blockBytes", "block-bytes", "int64_t", /*default=*/"262144",
           "Bytes of packed operand data one cache block holds (the CPU "
           "pipeline passes half the target's L2)">,
    Option<"chunkBytes", "chunk-bytes", "int64_t", /*default=*/"16384",
           "Bytes of one reduction chunk's packed data per column panel, "
           "read from the L1 cache by every row block (0: no chunks)">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark per nest with the schedule or the reason for none">,
  ];
}

def CpuTileContractionsPass
    : Pass<"plaidml-cpu-tile-contractions", "mlir::func::FuncOp"> {
  let summary = "Generate register-blocked, cache-blocked vector code for "
                "scheduled reduction nests";
  let description = [{
    Replaces every nest carrying a `plaidml.cpu.schedule` (see
    `plaidml-cpu-configure`) by

    ```
    affine.parallel (%block) over cache blocks of column panels
        (and over the other parallel indices, unless the blocks pack
        their operands at run time and there are several) {
      [copy the packable operands of the block into a contiguous buffer]
      affine.parallel over the other parallel indices {
        affine.for %row over row blocks of `rows` rows {
          affine.for %col over the block's panels of `vectors` vectors {
            rows x vectors accumulators, from the prologue (the init)
            affine.for reduction loops iter_args(accumulators) {
              loads: a vector where the operand runs along the vector
              dimension, a broadcast scalar where it does not;
              multiply-adds as vector.fma
            }
            the epilogue on the vectors; affine.vector_store
          }
        }
      }
    }
    ```

    followed by the same code for the remainder rows (a smaller register
    block; with blocks of whole outer rows, the loop runs over groups of
    outer rows and row i of a block is row i % extent of outer row
    i / extent, the remainder being the outer rows left), the remainder
    vectors (one narrower panel, packed like the others when the schedule
    packs, a parameter's once, in blocks of as many rows as keep the full
    block's accumulators, up to the row extent: 7 x 1 rather than 4 x 1
    after 4 x 3 blocks on a 7-wide map), and a copy of the original nest for the
    columns that do not fill a vector. The multiply-add of an `add, mul`
    reduction becomes one fused `vector.fma` (one rounding instead of two,
    as in BLAS). The nest's values stay in registers: no temporary buffer
    but the packed one.

    A packable operand that is a parameter (an argument of the function
    marked `plaidml.param`, the same values on every call) is packed whole
    instead, all of its panels, at the top of the function: a `memref.alloc`
    marked `plaidml.cpu.prepared` (freed before the return) filled by a copy
    nest marked `plaidml.cpu.prepare`, which the cache blocks read at their
    panels' offset. `plaidml-cpu-split-prepare` then moves that copy into
    the entry's preparation, run once for all calls.

    With a `reduction_chunk` of C, the innermost reduction loop runs in
    chunks of C iterations, and each panel of a cache block becomes

    ```
    every row block: scratch[rows, vectors] = the initial values
    affine.for %chunk {
      affine.parallel over the other parallel indices {   // sequential
        every row block: scratch += the reduction's chunk %chunk
      }
    }
    every row block: out = epilogue(scratch)
    ```

    where `scratch` is a temporary of the function shaped like the
    parallel indices (`memref.alloc` before the nest, freed after it), so
    that a chunk's slice of the packed panel is read by every row block
    while it is in the L1 cache. The packed buffer is then chunk-major,
    `[panel][chunk][reduction points of the chunk][lanes]`, a chunk's slice
    contiguous. The cache blocks alone are the parallel loop. A chunk that
    does not divide the innermost loop, or an unrolled innermost loop, is an
    error.
  }];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::memref::MemRefDialect"];
}

def CpuParallelizePass
    : Pass<"plaidml-cpu-parallelize", "mlir::func::FuncOp"> {
  let summary = "Keep the affine.parallel loops worth a thread team; make "
                "the others sequential";
  let description = [{
    Runs after the code generator, before `lower-affine`: every
    `affine.parallel` that stays becomes an OpenMP worksharing loop in the
    CPU pipeline (`convert-scf-to-openmp`), everything else runs on the
    calling thread. The decision is the IR shape: a loop that should not run
    in parallel becomes a nest of `affine.for` loops, one per dimension,
    outermost first, with the same bounds and steps (reductions become
    `iter_args` starting from the reduction's identity):

    ```mlir
    affine.parallel (%i, %j) = (0, 0) to (4, 8) { ... }
    // becomes
    affine.for %i = 0 to 4 {
      affine.for %j = 0 to 8 { ... }
    }
    ```

    With `threads=1`, every `affine.parallel` becomes sequential. With more
    threads, a loop stays parallel when

    - no enclosing loop stayed parallel (a nested OpenMP region is pure
      overhead: the outer one already occupies every thread),
    - it has at least `threads` iterations, and
    - its estimated work is at least `min-work` scalar operations (default
      2^15 = 32768, where waking a second thread, some microseconds, costs a
      few percent at most): the product of its trip counts times the
      operations of its body, where a nested loop counts its body times its
      trip count, an `affine.if` both branches, and a loop whose trip count
      is not a constant 64 iterations.

    A loop that does not stay parallel is tested again for its nested
    loops, so a parallel loop inside a one-iteration one can still take the
    threads.

    Of a loop that stays parallel, only as many outer dimensions stay as
    give every thread 4 iterations or more, and then, where the iterations
    do not split evenly among the threads (more than 5% of one thread's
    share idle), as many more outer dimensions (never the innermost) as
    split them evenly, or else the evenest of them: 9 cache blocks on 2
    threads leave one thread idle for a ninth of the loop, 9 blocks x 56
    rows do not. The others become `affine.for` loops inside it (a loop
    with reductions stays whole):

    ```mlir
    affine.parallel (%i, %j) = (0, 0) to (4096, 4096) { ... }
    // becomes, with threads=2
    affine.parallel (%i) = (0) to (4096) {
      affine.for %j = 0 to 4096 { ... }
    }
    ```

    An OpenMP loop over several dimensions is collapsed into one counter
    that every iteration divides back into indices, which keeps LLVM from
    vectorizing the innermost dimension; a plain inner loop vectorizes as
    with one thread.
  }];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::arith::ArithDialect"];
  let options = [
    Option<"threads", "threads", "unsigned", /*default=*/"1",
           "Threads the generated code runs on (1: every loop sequential)">,
    Option<"minWork", "min-work", "uint64_t", /*default=*/"32768",
           "Estimated scalar operations a loop needs to stay parallel">,
  ];
}

def CpuExactMinMaxPass
    : Pass<"plaidml-cpu-exact-min-max", "mlir::func::FuncOp"> {
  let summary = "Drop the by-hand ordering of signed zeros around float "
                "max and min";
  let description = [{
    `convert-tile-to-affine` computes a float max or min as IEEE 754
    maximum/minimum (NaN in, NaN out; -0 < +0), and since the GLSL `FMax`
    and `FMin` that `arith.maximumf` and `minimumf` become on Vulkan return
    either zero, it combines two zeros by hand:

    ```mlir
    %m = arith.maximumf %x, %y : f32
    %zx = arith.cmpf oeq, %x, %zero : f32
    %zy = arith.cmpf oeq, %y, %zero : f32
    %zz = arith.andi %zx, %zy : i1
    %s = arith.addf %x, %y : f32       // +0 unless both are -0
    %r = arith.select %zz, %s, %m : f32
    ```

    (for min, `-((-x) + (-y))`). `convert-arith-to-llvm` lowers
    `arith.maximumf` and `minimumf` to LLVM's `maximum` and `minimum`, which
    order the zeros themselves, so on the CPU `%r` is `%m` (provided nothing
    expands them into a comparison and a select first: the CPU pipeline
    runs `plaidml-cpu-expand-arith`, not `arith-expand`): this pass replaces every such `select` (scalar or
    vector) by the `maximumf` or `minimumf`, and the comparisons and the sum
    go away. A max-pool or a ReLU6 (`Clip`) epilogue then costs one
    `maximum`/`minimum` per element instead of six or seven operations.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def CpuExpandArithPass
    : Pass<"plaidml-cpu-expand-arith", "mlir::func::FuncOp"> {
  let summary = "Expand the arith ops LLVM has no lowering for, and keep "
                "float max and min";
  let description = [{
    Upstream's `arith-expand` rewrites `arith.ceildivsi`, `ceildivui` and
    `floordivsi` (which `convert-arith-to-llvm` does not lower) into
    divisions and selects, but also `arith.maximumf`/`minimumf` into a
    comparison and a select: `x > y ? x : y` with a NaN test, which returns
    the second operand for two zeros, so max(-0, +0) is -0 unless the
    ordering that `plaidml-cpu-exact-min-max` removes stays. This pass
    applies the division and scaling-extension/truncation expansions alone;
    `maximumf`, `minimumf`, `maxnumf` and `minnumf` stay for
    `convert-arith-to-llvm`, which lowers them to LLVM's `maximum`,
    `minimum`, `maxnum` and `minnum` (IEEE 754-2019: NaN in, NaN out for
    the first two, and -0 < +0).

    ```mlir
    %q = arith.floordivsi %a, %b : i32   // -> divsi, remsi, compare, select
    %m = arith.maximumf %x, %y : f32     // unchanged
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::vector::VectorDialect"];
}

def CpuSplitPreparePass
    : Pass<"plaidml-cpu-split-prepare", "mlir::ModuleOp"> {
  let summary = "Move what an entry function computes from its parameters "
                "into a preparation function run once";
  let description = [{
    `plaidml-cpu-tile-contractions` packs an operand that is a parameter
    (an input argument with the unit attribute `plaidml.param`: a model's
    weights) whole, at the top of the entry function: a `memref.alloc`
    marked `plaidml.cpu.prepared` and the copy nest that fills it, marked
    `plaidml.cpu.prepare`. As it stands that code still runs on every call.
    This pass moves it out: the marked nests go into a new function
    `@<f>_prepare(inputs..., %prepared: memref<Nxi8>)`, every prepared
    buffer becomes a `memref.view` of one *prepared buffer* (64-byte aligned
    offsets) that both functions take, `@f` gets it as a new last argument
    and the attributes `plaidml.prepare = @<f>_prepare`, `plaidml.prepared =
    N : i64` and `plaidml.prepare_inputs = array<i64: ...>` (the inputs the
    preparation reads), which `plaidml-emit-entry-points` writes into the
    manifest. The runtime calls the preparation once, and again only when
    one of those inputs changes (docs/ABI.md section 2).

    ```mlir
    func.func @f(%x: memref<64x32xf32>, %w: memref<32x64xf32> {plaidml.param},
                 %o: memref<64x64xf32>) attributes {plaidml.entry, ...} {
      %p = memref.alloc() {plaidml.cpu.prepared} : memref<1x32x64xf32>
      affine.for ... { ... %w ... %p ... } {plaidml.cpu.prepare}
      ... reads of %p ...
      memref.dealloc %p : memref<1x32x64xf32>
    }
    // becomes
    func.func @f(%x: ..., %w: ..., %o: ..., %prepared: memref<8192xi8>)
        attributes {plaidml.prepare = @f_prepare, plaidml.prepared = 8192,
                    plaidml.prepare_inputs = array<i64: 1>, ...} {
      %p = memref.view %prepared[%c0][] : ... to memref<1x32x64xf32>
      ... reads of %p ...
    }
    func.func private @f_prepare(%x: ..., %w: ..., %prepared: memref<8192xi8>) {
      %p = memref.view %prepared[%c0][] : ...
      affine.for ... { ... %w ... %p ... }
    }
    ```

    A marked nest that reads anything but parameters, prepared buffers and
    values it defines is an error, as is a prepared buffer of dynamic shape.
    Functions without marked ops are left alone. Runs after
    `plaidml-cpu-tile-contractions` and before `plaidml-cpu-plan-workspace`
    (whose workspace argument then follows the prepared buffer).
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect"];
}

def CpuPlanWorkspacePass
    : Pass<"plaidml-cpu-plan-workspace", "mlir::func::FuncOp"> {
  let summary = "Place an entry function's temporaries in one workspace "
                "buffer that the runtime allocates and checks";
  let description = [{
    Compiled code cannot report a failed allocation: a `memref.alloc` that
    `malloc` cannot satisfy would be a null pointer and a crash. So the
    temporaries of a `plaidml.entry` function (the `memref.alloc` ops of
    static shape in its body's top-level block, which
    `convert-tile-to-affine` makes for every intermediate tensor) move into
    one buffer, the *workspace*, that the runtime allocates before the call
    with a checked allocation; a program too large for the machine is then an
    error saying how many bytes were asked for (docs/ABI.md section 2).

    Each temporary becomes a `memref.view` of a new last argument
    `%workspace: memref<Nxi8>` at an offset aligned to 64 bytes, and its
    `memref.dealloc` goes. Temporaries whose lifetimes do not overlap share
    bytes: a temporary lives from its allocation to the last op of the block
    that uses it or a view of it (first fit, in allocation order). The
    function gets `plaidml.workspace = N : i64`, which
    `plaidml-emit-cpu-entry-points` writes into the manifest. A function
    without temporaries is left alone. Allocations nested in loops (packing
    buffers of the code generator, a few kilobytes per thread) stay.

    ```mlir
    func.func @f(%a: memref<64xf32>, %o: memref<64xf32>)
        attributes {plaidml.entry} {
      %t = memref.alloc() : memref<64xf32>
      ...
      memref.dealloc %t : memref<64xf32>
      return
    }
    // becomes
    func.func @f(%a: memref<64xf32>, %o: memref<64xf32>,
                 %workspace: memref<256xi8>)
        attributes {plaidml.entry, plaidml.workspace = 256 : i64} {
      %c0 = arith.constant 0 : index
      %t = memref.view %workspace[%c0][] : memref<256xi8> to memref<64xf32>
      ...
      return
    }
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect"];
}

def CpuOutlineNestsPass
    : Pass<"plaidml-cpu-outline-nests", "mlir::ModuleOp"> {
  let summary = "Move each top-level loop nest of an entry function into a "
                "function of its own";
  let description = [{
    LLVM optimizes and selects instructions one function at a time, and
    several of its passes (register allocation, induction-variable and loop
    passes) grow faster than linearly with the size of a function. A whole
    network lowers to one entry function of hundreds of loop nests, so this
    pass gives LLVM many small functions instead: every loop
    (`LoopLikeOpInterface`, without results) in the top-level block of a
    `plaidml.entry` function becomes the body of a new private function
    `@<entry>_nest<i>` (numbered in program order, placed after the entry
    and the nests before it), and a `func.call` takes its place.

    The values the nest uses from outside become the new function's
    arguments, in the order of their first use; constants and global
    addresses (ops without operands, regions or memory effects) are copied
    into it instead. A nest that uses a value that is neither copyable nor a
    scalar or a memref of static shape, strides and offset (what the
    bare-pointer calling convention passes as one pointer) stays where it
    is. The functions get `llvm.linkage = internal` (not exported from the
    artifact) and `passthrough = ["noinline"]` (LLVM's inliner would undo
    the split).

    ```mlir
    func.func @f(%a: memref<8xf32>, %o: memref<8xf32>) attributes {plaidml.entry} {
      %c = arith.constant 2.0 : f32
      affine.for %i = 0 to 8 { ... %a ... %c ... %o ... }
      return
    }
    // becomes
    func.func @f(%a: memref<8xf32>, %o: memref<8xf32>) attributes {plaidml.entry} {
      call @f_nest0(%a, %o) : (memref<8xf32>, memref<8xf32>) -> ()
      return
    }
    func.func private @f_nest0(%a: memref<8xf32>, %o: memref<8xf32>)
        attributes {llvm.linkage = #llvm.linkage<internal>,
                    passthrough = ["noinline"]} {
      %c = arith.constant 2.0 : f32
      affine.for %i = 0 to 8 { ... }
      return
    }
    ```
  }];
  let dependentDialects = ["mlir::func::FuncDialect",
                           "mlir::LLVM::LLVMDialect"];
}

#endif // PLAIDML_TARGET_CPU_PASSES_TD
