//===- Passes.td - Target-neutral GPU passes ---------------*- tablegen -*-===//
//
// The passes every GPU target shares (Vulkan and OpenCL): the workgroup
// mapping of the ABI form's loop nests, decided and applied on the affine
// loops, and the host code's device buffers and launch arguments. The
// SPIR-V specific passes are in Target/SPIRV, the OpenCL C ones in
// Target/OpenCL.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_TARGET_GPU_PASSES_TD
#define PLAIDML_TARGET_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def GpuConfigurePass : Pass<"plaidml-gpu-configure", "mlir::func::FuncOp"> {
  let summary = "Choose the register tile and the workgroup mapping of every "
                "outermost loop nest";
  let description = [{
    Runs on ABI-form functions (docs/ABI.md section 1), after
    `plaidml-fuse-elementwise`. Every outermost `affine.parallel` with
    constant bounds, unit steps and no reductions gets a schedule that the
    passes after it apply:

    - `plaidml.gpu.register_tile = array<i64: ...>` (one factor per
      dimension) on a reduction nest (one chain of `affine.for` loops with
      `iter_args`, fused elementwise consumers after it): how many outputs
      one invocation computes along each dimension, applied by
      `plaidml-gpu-register-tile`. Powers of two up to `max-register-tile`
      along the two innermost dimensions, and only when each of the two has
      a load in the reduction that does not depend on it (a matmul's A
      along n, B along m; a pooling or depthwise nest, whose every load
      depends on the channels, gets none: a block would save no load);
      halved (the outer one first) while fewer than `min-invocations`
      iterations would remain or more than `max-accumulators` accumulators
      would be live; and only when at most `max-reduction-loops` of its
      reduction loops have more than one iteration (matmuls and 1x1
      convolutions: a 3x3 convolution's window ran slower with register
      tiles than without on the H200, docs/PerformanceGpu.md). A nest that
      would keep all ones gets no attribute.
    - `plaidml.gpu.staged_tile = array<i64: TM, TN, TK, RM, RN>` on a
      reduction nest that is a batch of matrix products (a sum of products
      of two factors, every parallel dimension read by one factor, by both
      or by neither: matmuls, batched matmuls, 1x1 and windowed
      convolutions as implicit GEMMs, padding guards on the input), applied
      by `plaidml-gpu-stage-contraction`: 128x128x8 with 8x8 outputs per
      invocation when the grid keeps at least `min-staged-workgroups`
      workgroups (128x32x16 or 128x64x16 with 8x2 or 8x4 when N is at most
      32 or 64), else 64x64x16 with 4x4 when it keeps half as many, else
      32x32x16 with 2x2; none when a guard (a padded window) reads more
      than the first factor's and the reduction's indices or the second
      factor's loads are not provably in bounds without it, or M or N is
      below 16 (a
      matrix-vector product), the device's workgroups hold fewer than 256
      invocations, or `staged=false`. Such a nest gets neither of the two
      attributes below.
    - `plaidml.gpu.coop_tile = array<i64: TM, TN, TK, SM, SN, STAGES>` instead of
      a staged tile when both factors are f16 values extended to f32 for
      an f32 sum and the module's `plaidml.target` lists the
      `CooperativeMatrixKHR` capability, the `coopmat-16x16x16-f16-f32`
      shape and `subgroup-size-32` among its `caps` (a device with
      `VK_KHR_cooperative_matrix`; `coop-matrix=false` turns it off):
      128x128x32 in 4 subgroups of 64x64 (128 invocations) where its tiles
      and steps divide both factors and each is a plain load of a
      row-major buffer whose innermost index follows the staged chunks
      (staged 8 halves at a time), not both along K, and the grid keeps 90% of
      `min-staged-workgroups`; else when the grid keeps
      `min-staged-workgroups` workgroups, 128x256x32
      where the second factor's memory follows N, else 256x128x32 where the
      first factor's follows M (64x64 per subgroup), else 128x128x64 (32x64
      per subgroup); otherwise 64x64x32 with 32x16. STAGES is 1, or 2
      where the target is OpenCL with `nv-ptx-cp-async` (NVIDIA, compute
      capability 8.0 or later) and the tile copies both factors 8 halves
      at a time: TK is then halved (down to 32) until both stages fit the
      48 KiB of workgroup memory (128x128x64 becomes 128x128x32).
    - `plaidml.gpu.split_k = array<i64: TN, S>` on such a nest whose M is
      below 16 (a matrix-vector product; with the factors' roles swapped
      when only the first has dimensions of its own) and K at least 256,
      also applied by `plaidml-gpu-stage-contraction`: 8 outputs x 32
      invocations each per workgroup.
    - `plaidml.gpu.workgroup_size = array<i64: ...>`, one tile size per
      dimension of the ranges left after the register tile
      (`ceildiv(N, R)`): the innermost (up to three) dimensions sharing at
      most the module's `plaidml.target` `max_workgroup_size` invocations
      (256 without a target), powers of two, the third one at most 64
      (Vulkan's guaranteed z limit), and grids of at most 65535 workgroups
      per mapped dimension.

    An `affine.parallel` that already has a workgroup size is left alone; a
    register tile set by hand is kept and the workgroup chosen for it, so
    tests can set either. With `remarks=1` every nest gets a remark saying
    what was chosen, or why it has no staged or register tile.

    Every maximal run of other top-level operations with effects (an
    `affine.for` nest whose sink is not a projected permutation, scalar
    loads and stores) is wrapped in a one-iteration `affine.parallel` with
    workgroup size 1: it runs in a single-invocation kernel. Allocations,
    constants and the return stay on the host. A top-level `memref.copy`
    (an output aliasing an input) first becomes an elementwise
    `affine.parallel` copy, since kernels cannot call memcpy.
  }];
  let options = [
    Option<"maxRegisterTile", "max-register-tile", "int64_t", "4",
           "Largest register tile factor per dimension (1: no register "
           "tiles)">,
    Option<"minInvocations", "min-invocations", "int64_t", "16384",
           "Fewest iterations (invocations) a register tile may leave">,
    Option<"maxAccumulators", "max-accumulators", "int64_t", "64",
           "Most accumulators one invocation may carry">,
    Option<"maxReductionLoops", "max-reduction-loops", "int64_t", "1",
           "Most reduction loops of more than one iteration a register-tiled "
           "nest may have (3x3 convolutions have three)">,
    Option<"staged", "staged", "bool", /*default=*/"true",
           "Stage the operands of matrix-product nests in workgroup memory "
           "(plaidml.gpu.staged_tile)">,
    Option<"coopMatrix", "coop-matrix", "bool", /*default=*/"true",
           "Compute f16 matrix products with cooperative matrices "
           "(plaidml.gpu.coop_tile) where the target offers them">,
    Option<"minStagedWorkgroups", "min-staged-workgroups", "int64_t", "264",
           "Fewest workgroups a 128x128 staged tile may leave (twice the "
           "compute units of a large GPU); below, 64x64 tiles">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark per nest: the schedule chosen, or why no "
           "staged or register tile">,
  ];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::plaidml::PlaidMLDialect"];
}

def GpuRegisterTilePass
    : Pass<"plaidml-gpu-register-tile", "mlir::func::FuncOp"> {
  let summary = "Give each invocation of a reduction nest a block of outputs";
  let description = [{
    Applies the `plaidml.gpu.register_tile = array<i64: R0, ...>` that
    `plaidml-gpu-configure` records (or a test sets) on an outermost
    `affine.parallel` (constant bounds from 0, unit steps, no reductions)
    whose body holds one chain of nested `affine.for` reductions with
    `iter_args`, with copyable ops (loads, pure ops) before it and the
    stores and fused elementwise consumers after it. Each iteration then
    computes `R_d` outputs along each dimension `d`: the dimension's range
    becomes `ceildiv(N_d, R_d)`, and copy `r` of the body uses the index
    `b + r * ceildiv(N_d, R_d)` (strided, so that adjacent invocations still
    read adjacent elements). The reduction chains of all copies are jammed
    into one chain whose `iter_args` are all the copies' accumulators, so a
    value loaded once serves every copy that reads it (CSE merges the
    identical loads later). Where `R_d` does not divide `N_d`, a copy whose
    index can leave the range uses it mod `N_d` (a valid address; the copy
    computes a duplicate) and the code after the chain (the epilogue and
    the stores) is guarded by an `affine.if` on the unwrapped index.

    The new loop keeps the other attributes (the workgroup size, chosen for
    the new ranges). A register tile the nest cannot take (no reduction
    chain, other regions in the body, a wrong number of factors) is an
    error naming the reason.
  }];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::plaidml::PlaidMLDialect"];
}

def GpuStageContractionPass
    : Pass<"plaidml-gpu-stage-contraction", "mlir::func::FuncOp"> {
  let summary = "Compute matrix-product nests with operands staged in "
                "workgroup memory";
  let description = [{
    Applies the `plaidml.gpu.staged_tile = array<i64: TM, TN, TK, RM, RN>`
    that `plaidml-gpu-configure` records (or a test sets) on an outermost
    `affine.parallel`: the nest becomes a `gpu.launch` of
    `ceildiv(N, TN) x ceildiv(M, TM) x batch` workgroups of 256 invocations
    (`(TM / RM) * (TN / RN)` must be 256). Per step of `TK` along the
    reduction, each workgroup copies the first factor's `TM x TK` tile
    (transposed) and the second's `TK x TN` tile into workgroup memory
    (`memref.alloc` in memory space 3, rows padded by 4 elements), meets
    at a `gpu.barrier`, and each invocation accumulates `RM x RN` outputs
    (rows `ty + i * TM / RM`, columns `tx + j * TN / RN`; where `RM` and
    `RN` are multiples of 4 and the copies come in whole groups, f32 tiles
    are staged as `vector<4xf32>` elements, written and read 128 bits at a
    time, and the rows are `4 * (ty + (i / 4) * TM / RM) + i % 4`) from them; the
    next step's global loads are issued before the arithmetic and carried
    as loop values. M, N and K are the products of their dimensions, each
    index recovered by division from the linear one; indices past an edge
    are clamped (the addresses stay valid), steps past K add 0, the
    guard of a padded window makes the element 0 without loading it, and
    only outputs in range run the epilogue (the nest's other ops, with the
    reduction's result = its initial value + the accumulator) and the
    store.

    `plaidml.gpu.split_k = array<i64: TN, S>` (TN * S = 256): a launch of
    `ceildiv(N, TN) x M x batch` workgroups; invocation `(nn, s)` sums the
    products of output `n0 + nn` over `k = s, s + S, ...` (four of them per
    iteration into four accumulators; neighbouring
    invocations differ in `nn`, or in `s` when the second factor's memory
    follows K), writes its partial sum to workgroup memory, and after a
    barrier the `s = 0` invocation adds the `S` partial sums in order and
    runs the epilogue and the store.

    `plaidml.gpu.coop_tile = array<i64: TM, TN, TK, SM, SN, STAGES>` (f16
    factors summed in f32; `(TM / SM) * (TN / SN)` subgroups of 32
    invocations must be 256 or 128 invocations, 16 must divide SM, SN and
    TK, every invocation must copy whole chunks of 4 elements of both
    tiles, and the tiles of every stage and the scratch must fit 48 KiB):
    with STAGES = 1 the same launch and carried next-step loads as the
    staged tile; with STAGES = 2 (an OpenCL target with `nv-ptx-cp-async`,
    both factors copied 8 halves at a time) two buffers per factor, each
    step's chunks copied by `memref.dma_start` (one tag for all; the OpenCL
    C translation prints PTX `cp.async`) into the stage the step after
    reads, `memref.dma_wait` and one barrier at the start of each step, and
    the next step's copies issued (but for the last step) before its
    products; the tiles staged as f16 in the order of each
    factor's memory (`[row][k]` where its innermost index follows K, else
    `[k][row]`; rows padded by 8 halves so that every 16x16 matrix starts
    16-byte aligned) as arrays of `vector<4xf16>`, each invocation loading
    chunks of 4 elements adjacent in memory and storing each as one vector;
    subgroup `g`
    (`gpu.subgroup_id`) owns the `SM x SN` block at `(g / (TN / SN)) * SM,
    (g % (TN / SN)) * SN` as 16x16 f32 `!gpu.mma_matrix` accumulators and
    per 16 steps of K loads its A and B matrices from workgroup memory
    with `gpu.subgroup_mma_load_matrix` (`transpose`, i.e. column-major,
    for an A staged `[k][m]` and a B staged `[n][k]`)
    and accumulates them with `gpu.subgroup_mma_compute`. After the loop,
    where the nest stores its sums as they are (an initial value of 0, no
    epilogue) into a row-major output that the tiles divide, each
    accumulator is stored straight into it (`gpu.subgroup_mma_store_matrix`);
    otherwise it goes through the subgroup's 16x16 f32 scratch matrix in
    workgroup memory (barrier), and each lane (`gpu.lane_id`) runs the
    epilogue and the guarded store of 8 of its elements. convert-gpu-to-spirv makes the `spirv.KHR.
    CooperativeMatrix*` ops of them.

    A staged tile the nest cannot take (not a product of two factors, a
    wrong tile, a cooperative-matrix tile on factors that are not f16) is
    an error naming the reason.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::gpu::GPUDialect",
                           "mlir::math::MathDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::nvgpu::NVGPUDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::plaidml::PlaidMLDialect"];
}

def GpuTileWorkgroupsPass
    : Pass<"plaidml-gpu-tile-workgroups", "mlir::func::FuncOp"> {
  let summary = "Split configured affine.parallel loops into grid and "
                "workgroup loops";
  let description = [{
    Rewrites every `affine.parallel` carrying `plaidml.gpu.workgroup_size`
    (from `plaidml-gpu-configure`) as

    ```mlir
    affine.parallel (%b0, ...) = (0, ...) to (ceildiv(N0, T0), ...) {
      affine.parallel (%t0, ...) = (0, ...) to (T0, ...) {
        affine.if (the iteration is in bounds) { body at lb + b * T + t }
      }
    }
    ```

    so that after `lower-affine`, `plaidml-gpu-map-loops` maps the outer loop
    to workgroups and the inner one to invocations, with constant workgroup
    sizes. The guard is only emitted when a tile does not divide its range.
  }];
  let dependentDialects = ["mlir::affine::AffineDialect"];
}

def GpuMapLoopsPass : Pass<"plaidml-gpu-map-loops", "mlir::func::FuncOp"> {
  let summary = "Map grid and workgroup scf.parallel loops to GPU ids, "
                "innermost dimension on x";
  let description = [{
    Runs after `lower-affine` on the loops of `plaidml-gpu-tile-workgroups`:
    an outermost `scf.parallel` is the grid (block ids), an `scf.parallel`
    directly inside it the workgroup (thread ids), deeper ones run
    sequentially. In each, the innermost dimension maps to x, the one
    before it to y, the one before that to z, and any further (outer)
    dimensions to sequential loops. This is the mapping
    `plaidml-gpu-configure` chose its workgroup sizes for (the innermost
    three dimensions). Upstream's `gpu-map-parallel-loops` with
    `mapping-policy=innermost-first` maps the *outermost* three dimensions
    of a loop with more than three (innermost of those on x), which leaves
    the innermost dimension of every 4-D nest (the channels of an NHWC
    convolution) as a loop in each invocation. Loops that already have a
    mapping are left alone.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect", "mlir::scf::SCFDialect"];
}

def GpuLaunchBoolsAsBytesPass
    : Pass<"plaidml-gpu-launch-bools-as-bytes", "mlir::ModuleOp"> {
  let summary = "Pass i1 buffers to launched kernels as i8 buffers";
  let description = [{
    Runs after `gpu-module-to-binary`, before `gpu-to-llvm`. The SPIR-V
    kernels store `i1` elements as bytes, like the LLVM lowering of the host
    code, but `gpu-to-llvm{intersperse-sizes-for-kernels}` cannot size an
    `i1` element and rejects the launch. Every `memref<...xi1>` operand of a
    `gpu.launch_func` is passed through an `unrealized_conversion_cast` to
    `memref<...xi8>` (same descriptor once lowered, folded by
    `reconcile-unrealized-casts`), so its byte size is its element count.
    Also the other way: an operand that is an `unrealized_conversion_cast`
    of an integer or float buffer to a view with vector elements of the same
    size in bytes (the wide staging of `plaidml-gpu-stage-contraction`,
    whose kernels read the buffer as `vector<4xi32>` or `vector<4xf32>`) is
    replaced by the buffer itself, which `gpu-to-llvm` can size.
  }];
}

def GpuHostBuffersPass
    : Pass<"plaidml-gpu-host-buffers", "mlir::ModuleOp"> {
  let summary = "Give the host code device buffers: gpu.alloc, gpu.memcpy";
  let description = [{
    Runs after kernel outlining, on the host functions (every `func.func` of
    the top module that launches kernels). Their buffers live on the device,
    and the host code only passes them around (docs/VulkanRuntime.md, "The
    launch ABI"):

    - `memref.alloc` becomes `gpu.alloc` and `memref.dealloc` `gpu.dealloc`
      (the runtime allocates a device buffer and returns its handle);
    - a `memref.get_global` (a constant) passed to a kernel is copied into a
      `gpu.alloc`ed buffer with `gpu.memcpy` first, freed before returning.

    Host code that reads or writes a buffer itself (a load, a store, a
    `memref.copy`) would dereference a device handle: it is an error naming
    the op. `plaidml-gpu-configure` already moved such work into kernels.
    `gpu-async-region` afterwards chains all of it on one stream.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

def GpuCollectRequirementsPass
    : Pass<"plaidml-gpu-collect-requirements", "mlir::ModuleOp"> {
  let summary = "Record what the kernels need of the device as the module's "
                "plaidml.requirements";
  let description = [{
    Runs on the host module once the kernels are SPIR-V modules (after
    `spirv-update-vce`, before `gpu-module-to-binary` serializes them) or
    OpenCL kernel objects, and records what they need of the device, sorted
    and unique, as `plaidml.requirements = ["Float64", ...]` on the module;
    `plaidml-emit-entry-points` writes it as the manifest's `requires` line,
    which the runtime checks before it loads the artifact.

    - Every `spirv.module` contributes its `vce_triple`: on a Vulkan target
      (the module's `plaidml.target`) every capability and extension; on an
      OpenCL target `spirv` (the device must take SPIR-V) and the extension
      behind its `Float64` and `Float16` capabilities (`cl_khr_fp64`,
      `cl_khr_fp16`). A Vulkan module's `spirv.KHR.CooperativeMatrixMulAdd`
      ops add their shape as the runtime names the device's
      (`coopmat-16x16x16-f16-f32`: M x N x K, input and accumulator types)
      and `subgroup-size-32` (the cooperative-matrix kernels lay out
      subgroups of 32 invocations).
    - Every `#gpu.object` of a `gpu.binary` contributes its
      `plaidml.requirements` property (the OpenCL passes record what the
      object's OpenCL C enables, or, for a bundle without OpenCL C, what its
      SPIR-V needs).

    A `spirv.module` without a `vce_triple` is an error: the requirements
    would be unknown.
  }];
  let dependentDialects = ["mlir::plaidml::PlaidMLDialect"];
}

#endif // PLAIDML_TARGET_GPU_PASSES_TD
