//===- Passes.td - Target-independent affine passes --------*- tablegen -*-===//
//
// Passes on the ABI form of docs/ABI.md section 1 (affine loop nests on
// memrefs, after convert-tile-to-affine) that every target may use.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_TRANSFORMS_PASSES_TD
#define PLAIDML_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def AttachTargetPass : Pass<"plaidml-attach-target", "mlir::ModuleOp"> {
  let summary = "Record what the module is compiled for as its plaidml.target";
  let description = [{
    Sets the module's `plaidml.target` (a `#plaidml.target`, see
    docs/generated/PlaidMLDialect.md) from the options, replacing any there
    is. Every pass that depends on the target reads that attribute, so this
    is the one place target options enter the IR; the pipelines add this
    pass first, from their own options.

    ```
    plaidml-opt -plaidml-attach-target="device=vulkan caps=Float64 label={vulkan:0 (llvmpipe)}"
    ```

    gives `module attributes {plaidml.target = #plaidml.target<device =
    vulkan, cpu = "x86-64", caps = ["Float64"], label = "vulkan:0
    (llvmpipe)">}`. An empty `cpu` is the default of the device: `native`
    for `cpu`, the portable `x86-64` baseline (`generic` on other
    architectures) for the host code of a GPU artifact, so that it runs on
    any machine the GPU artifact is copied to. The options are checked as
    the attribute's verifier checks them; an unknown device is an error.
  }];
  let dependentDialects = ["mlir::plaidml::PlaidMLDialect"];
  let options = [
    Option<"device", "device", "std::string", /*default=*/"\"cpu\"",
           "Device kind: cpu, vulkan or opencl">,
    Option<"triple", "triple", "std::string", /*default=*/"\"\"",
           "Target triple of the CPU code (empty: the host's)">,
    Option<"cpu", "cpu", "std::string", /*default=*/"\"\"",
           "LLVM CPU name or 'native' (empty: native for cpu, a portable "
           "baseline for a GPU's host code)">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "Subtarget features '+a,-b' (empty: the CPU's own, the host's "
           "for native)">,
    ListOption<"caps", "caps", "std::string",
               "What the kernels may use (vulkan: SPIR-V capabilities)">,
    ListOption<"exts", "exts", "std::string",
               "What the kernels may use (vulkan: SPIR-V extensions; "
               "opencl: device extensions such as cl_khr_fp64)">,
    Option<"maxWorkgroupSize", "max-workgroup-size", "int64_t",
           /*default=*/"256", "Most invocations per workgroup (1-1024)">,
    Option<"label", "label", "std::string", /*default=*/"\"\"",
           "How diagnostics name the device, e.g. 'vulkan:0 (llvmpipe)'">,
  ];
}

def FuseElementwisePass
    : Pass<"plaidml-fuse-elementwise", "mlir::func::FuncOp"> {
  let summary = "Fuse elementwise consumer nests into the nests that produce "
                "their operands";
  let description = [{
    `convert-tile-to-affine` gives every Tile op its own `affine.parallel`
    nest and every intermediate tensor its own `memref.alloc`. This pass
    moves the body of a *consumer* nest into the body of its *producer*, so
    that a value goes from the producer to the consumer in a register
    instead of through memory, and deletes the intermediate buffers nobody
    reads any more. It repeats until nothing changes, so a chain (a
    contraction, then a bias add, a relu and a scale) becomes one nest:

    ```mlir
    affine.parallel (%m, %n) = (0, 0) to (512, 512) {
      %init = affine.load %zero[] : memref<f32>
      %sum = affine.for %k = 0 to 512 iter_args(%acc = %init) -> (f32) {
        ...
      }
      affine.store %sum, %T[%m, %n] : memref<512x512xf32>
    }
    affine.parallel (%i, %j) = (0, 0) to (512, 512) {
      %t = affine.load %T[%i, %j] : memref<512x512xf32>
      %b = affine.load %bias[%j] : memref<512xf32>
      %s = arith.addf %t, %b : f32
      affine.store %s, %out[%i, %j] : memref<512x512xf32>
    }
    memref.dealloc %T : memref<512x512xf32>
    ```

    becomes

    ```mlir
    affine.parallel (%m, %n) = (0, 0) to (512, 512) {
      %init = affine.load %zero[] : memref<f32>
      %sum = affine.for %k = 0 to 512 iter_args(%acc = %init) -> (f32) {
        ...
      }
      %b = affine.load %bias[%n] : memref<512xf32>
      %s = arith.addf %sum, %b : f32
      affine.store %s, %out[%m, %n] : memref<512x512xf32>
    }
    ```

    A consumer is fused into a producer when all of this holds:

    - both are `affine.parallel` ops without reductions, in the same block,
      with constant bounds and steps, the consumer after the producer;
    - at most one of the two bodies holds a loop (a contraction's
      reduction): a nest computing two contractions (the two operands of a
      residual add) is one the CPU code generator cannot block;
    - the producer's body stores a value `V` into a buffer `T` with an
      `affine.store` directly in the body (not nested in a loop or an
      `affine.if`) whose indices are the producer's induction variables in
      some order, each once: every iteration writes its own element. No
      other op in the producer reads or writes `T`;
    - the consumer is the first op after the producer that uses such a
      `T`, and every use of a `T` in it is an `affine.load` whose indices
      are the consumer's induction variables in some order, each at most
      once, or constants where the producer's variable takes that one value
      (`T[0, %y, %x, %c]` for a batch of one), all loads agreeing on one
      correspondence between the consumer's and the producer's induction
      variables, under which both have the same bounds and steps (variables
      no load names must take one value). So each consumer iteration reads
      exactly the elements that one producer iteration wrote; a broadcast
      read (`T[%j]` in a 2-D nest) does not qualify;
    - the consumer (its other loads) reads no buffer the producer writes,
      and writes no buffer the producer reads or writes; the ops between the
      two read no buffer the producer writes and write none it reads or
      writes (the producer moves down to the consumer). Every memory effect
      must be on a known buffer, or nothing is fused.

    Buffers are compared by their root (through view ops): a
    `memref.alloc`/`alloca` aliases only itself, `memref.get_global` only
    the same global, and two distinct arguments of a `plaidml.entry`
    function do not alias (docs/ABI.md: inputs are read-only, outputs alias
    nothing). Anything else may alias anything.

    The fused nest replaces each load of `T` in the consumer's body by `V`.
    When `T` is a `memref.alloc` (or `alloca`) that nothing reads any more
    (its other users are stores into it, like the init fill of an `assign`
    contraction, and its `memref.dealloc`), the stores, the allocation, the
    deallocation and the top-level nests left without any effect are
    removed; when other ops read `T` later (or it is an argument), the store
    stays. Elementwise producers (no reduction loop) fuse the same way as
    contractions.
  }];
}

def EraseZeroSizeBuffersPass
    : Pass<"plaidml-erase-zero-size-buffers", "mlir::func::FuncOp"> {
  let summary = "Remove the work on tensors without elements and give "
                "zero-size arguments a type every lowering accepts";
  let description = [{
    A tensor with a zero dimension (`tensor<3x0xf32>`) holds no element, so
    nothing that reads or writes it does anything. The lowerings do not all
    agree: the bare-pointer calling convention of `convert-func-to-llvm`
    refuses `memref<3x0xf32>` (a layout without strides), and the GPU
    lowerings refuse loads from such buffers. This pass, first in every
    lowering pipeline, makes the ABI form of docs/ABI.md section 1 free of
    them:

    - an `affine.for` or `affine.parallel` with constant bounds that runs no
      iteration is erased;
    - a `memref.alloc`/`alloca` of a zero-size buffer whose only users are
      deallocations or `memref.copy` ops is erased with them (they move no
      data), and so is a `memref.copy` of a zero-size buffer;
    - an argument of the function whose type has a zero dimension becomes a
      rank-1 `memref<0xT>` when nothing uses it any more (an output that is
      never written, or an input only reduced over, whose contraction
      `convert-tile-to-affine` already folds to its init). The function's
      `plaidml.inputs`/`plaidml.outputs` keep the logical tensor types, so
      the runtime passes the same buffers.

    A zero-size argument that is still used after this (no such program is
    known) keeps its type and the lowering reports it.

    ```mlir
    func.func @f(%a: memref<3x0xf32>, %o: memref<3x0xf32>) {
      affine.parallel (%i, %j) = (0, 0) to (3, 0) {
        %x = affine.load %a[%i, %j] : memref<3x0xf32>
        %e = math.exp %x : f32
        affine.store %e, %o[%i, %j] : memref<3x0xf32>
      }
      return
    }
    ```

    becomes `func.func @f(%a: memref<0xf32>, %o: memref<0xf32>)` with an
    empty body.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

#endif // PLAIDML_TRANSFORMS_PASSES_TD
