//===- Passes.td - Vulkan target passes --------------------*- tablegen -*-===//
//
// The passes of the Vulkan pipeline that upstream MLIR lacks: choosing and
// applying the mapping of ABI-form loops onto workgroups, and the SPIR-V glue
// (entry-point ABI, spirv.module nested in its gpu.module) for which upstream
// only has test passes. docs/VulkanPipeline.md shows where they run.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_TARGET_VULKAN_PASSES_TD
#define PLAIDML_TARGET_VULKAN_PASSES_TD

include "mlir/Pass/PassBase.td"

def GpuConfigurePass : Pass<"plaidml-gpu-configure", "mlir::func::FuncOp"> {
  let summary = "Choose the workgroup mapping of every outermost loop nest";
  let description = [{
    Runs on ABI-form functions (docs/ABI.md section 1). Every outermost
    `affine.parallel` with constant bounds, unit steps and no reductions gets
    `plaidml.gpu.workgroup_size = array<i64: ...>`, one tile size per
    dimension: one invocation per iteration, the innermost (up to three)
    dimensions sharing at most `max-workgroup-size` invocations, powers of two,
    the third one at most 64 (Vulkan's guaranteed z limit). An
    `affine.parallel` that already has the attribute is left alone, so tests
    can set it by hand.

    Every maximal run of other top-level operations with effects (an
    `affine.for` nest whose sink is not a projected permutation, scalar
    loads and stores) is wrapped in a one-iteration `affine.parallel` with
    workgroup size 1: it runs in a single-invocation kernel. Allocations,
    constants and the return stay on the host. A top-level `memref.copy`
    (an output aliasing an input) first becomes an elementwise
    `affine.parallel` copy, since kernels cannot call memcpy.
  }];
  let options = [
    Option<"maxWorkgroupSize", "max-workgroup-size", "int64_t", "256",
           "Most invocations per workgroup">,
  ];
  let dependentDialects = ["mlir::affine::AffineDialect"];
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

def GpuApproximateMathPass : Pass<"plaidml-gpu-approximate-math"> {
  let summary = "Replace math ops without a SPIR-V instruction by "
                "polynomials";
  let description = [{
    GLSL.std.450 has no `erf`/`erfc`, and `convert-math-to-spirv` leaves
    them; this rewrites `math.erf` and `math.erfc` as the polynomial
    approximations of upstream's math transforms (the patterns of
    `populatePolynomialApproximateErf(c)Pattern`), whose exp, fma and
    division ops convert to SPIR-V. Runs inside the `gpu.module`s.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::math::MathDialect"];
}

def GpuExposeTargetEnvPass
    : Pass<"plaidml-gpu-expose-target-env", "mlir::gpu::GPUModuleOp"> {
  let summary = "Copy a gpu.module's SPIR-V target into spirv.target_env";
  let description = [{
    `spirv-attach-target` records the target environment in the
    `gpu.module`'s `targets`, where `convert-gpu-to-spirv` looks, but the
    per-dialect conversions run inside kernels (`convert-math-to-spirv`,
    ...) look up a `spirv.target_env` attribute and otherwise assume a bare
    Shader target, so f16 math failed to convert even with Float16. This
    sets the attribute from the module's first `#spirv.target_env` target.
  }];
}

def GpuCheckDeviceSupportPass
    : Pass<"plaidml-gpu-check-device-support", "mlir::gpu::GPUModuleOp"> {
  let summary = "Reject kernel ops whose types the SPIR-V target cannot run";
  let description = [{
    Runs on each `gpu.module` before the SPIR-V conversions, with the target
    that `convert-gpu-to-spirv` uses (the module's `#spirv.target_env`
    target from `spirv-attach-target`, else a `spirv.target_env` attribute).
    For every op inside the kernels it asks MLIR's SPIR-V type converter
    what becomes of the op's types and of the buffers it reads or writes,
    and reports at the op, whose location is still the user's Tile op, what
    the device lacks:

    ```
    'arith.addf' computes on f64, which needs the SPIR-V capability Float64;
    vulkan:0 (llvmpipe) does not have it
    'memref.load' reads f16 from a buffer, which needs the SPIR-V capability
    StorageBuffer16BitAccess (extension SPV_KHR_16bit_storage); ...
    ```

    Without the pass these are "failed to legalize operation 'gpu.func'"
    in `convert-gpu-to-spirv`, or, for f16 and bf16 buffers, kernels that
    convert but read the buffer as f32 elements. What is rejected:

    - i64 and f64 anywhere without `Int64`/`Float64`: the converter does
      not narrow them.
    - f16 in a buffer without `StorageBuffer16BitAccess` (and, below
      SPIR-V 1.3, `SPV_KHR_16bit_storage`): it would become f32 words.
    - a buffer of i8/i16/f16 (i1 is stored as i8) that the device holds
      natively while lacking `Int8`/`Int16`/`Float16`: the load or store
      of the narrow value does not convert.
    - on i8/i16/f16 values the device lacks, the ops that 32-bit emulation
      cannot do: math ops (`convert-math-to-spirv` leaves casts behind) and
      unsigned division, remainder and comparison.
    - f64 math without a 64-bit SPIR-V form on any device: GLSL.std.450
      has exp, log, sin, pow, ... for 16- and 32-bit floats only, and erf
      is approximated for f16 and f32 only.
    - bf16 (and the f8 types) anywhere: the SPIR-V conversion has no type
      for them.

    Everything else the converter emulates is accepted, as before: i8/i16
    buffers packed into i32 words, signed and float arithmetic on
    i8/i16/f16 in 32 bits. Within a kernel there is one error per missing
    requirement and source location (and per op name), loads, stores and
    arithmetic before constants; then the pass fails.
  }];
  let options = [
    Option<"device", "device", "std::string", "\"the target device\"",
           "The device in messages (e.g. 'vulkan:0 (llvmpipe)')">,
  ];
}

def GpuSetEntryPointAbiPass
    : Pass<"plaidml-gpu-set-entry-point-abi", "mlir::ModuleOp"> {
  let summary = "Set spirv.entry_point_abi on kernels from their launches";
  let description = [{
    For every `gpu.launch_func` with constant block sizes, sets
    `spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [x, y, z]>`
    on the launched `gpu.func`, which `convert-gpu-to-spirv` turns into the
    entry point's LocalSize. A kernel launched with non-constant or
    conflicting block sizes is an error.
  }];
  let dependentDialects = ["mlir::spirv::SPIRVDialect"];
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

def NestSpirvModulesPass
    : Pass<"plaidml-nest-spirv-modules", "mlir::ModuleOp"> {
  let summary = "Move each spirv.module into the gpu.module it came from";
  let description = [{
    `convert-gpu-to-spirv` puts `spirv.module @__spv__K` beside
    `gpu.module @K`; `gpu-module-to-binary` expects it inside. This pass
    moves it there. The `gpu.func`s stay until `gpu-module-to-binary`
    replaces the whole `gpu.module`, so `gpu.launch_func` still verifies:

    ```mlir
    gpu.module @K [#spirv.target_env<...>] {
      spirv.module @__spv__K Logical GLSL450 { ... }
      gpu.func @k(...) kernel { ... }
    }
    ```
  }];
}

#endif // PLAIDML_TARGET_VULKAN_PASSES_TD
