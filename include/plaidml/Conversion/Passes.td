//===- Passes.td - PlaidML conversion passes ---------------*- tablegen -*-===//
//
// The passes that lower one dialect to another: Tile to affine (the spine of
// every target), and later the target-specific conversions.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_CONVERSION_PASSES_TD
#define PLAIDML_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileToAffinePass : Pass<"convert-tile-to-affine", "ModuleOp"> {
  let summary = "Lower Tile functions to affine loop nests on memrefs";
  let description = [{
    Rewrites every function made of Tile ops into a function on memrefs with
    the calling convention of `docs/ABI.md` section 1: inputs become memref
    arguments with signless element types, every result becomes a trailing
    output memref argument, the function returns nothing, and it carries
    `plaidml.entry` (public functions), `plaidml.inputs` and
    `plaidml.outputs` (the original tensor types, so the signedness
    survives).

    - `tile.contract` needs the `lower_bounds` / `upper_bounds` of
      `tile-compute-bounds`. The output is first filled with the broadcast
      init (with `border-fill`, only outside the box an assignment or a
      register reduction writes whole); then the index space is visited: when the sink is a projected
      permutation its dimensions form an outer `affine.parallel` and the
      others inner `affine.for` loops, otherwise every dimension is an
      `affine.for`. The remaining `cons` guard the body with `affine.if`.
    - Elementwise ops become an `affine.parallel` over the result shape with
      broadcasting loads; arithmetic follows the element semantics of the
      reference interpreter (signed vs unsigned ops, NaN-propagating float
      max/min, saturating float-to-integer casts, non-trapping integer
      division).
    - Constants become private `memref.global`s; reshape, index, gather and
      scatter become loop nests.
    - A result computed by an op is written straight into its output buffer;
      returned arguments, constants and values returned twice are copied.
      Intermediates are `memref.alloc`ed and deallocated before the return.

    Upstream passes take the result to LLVM, e.g. `-lower-affine
    -convert-scf-to-cf -convert-math-to-llvm -convert-math-to-libm
    -expand-strided-metadata -finalize-memref-to-llvm -convert-arith-to-llvm
    -convert-cf-to-llvm -convert-func-to-llvm -reconcile-unrealized-casts`
    (`test/Integration/Cpu` runs that with `mlir-runner`).

    Input:
    ```mlir
    func.func @double(%a: tensor<4xsi32>) -> tensor<4xsi32> {
      %0 = tile.add %a, %a : tensor<4xsi32>
      return %0 : tensor<4xsi32>
    }
    ```
    Output:
    ```mlir
    func.func @double(%arg0: memref<4xi32>, %arg1: memref<4xi32>)
        attributes {plaidml.entry, plaidml.inputs = [tensor<4xsi32>],
                    plaidml.outputs = [tensor<4xsi32>]} {
      affine.parallel (%i) = (0) to (4) {
        %0 = affine.load %arg0[%i] : memref<4xi32>
        %1 = affine.load %arg0[%i] : memref<4xi32>
        %2 = arith.addi %0, %1 : i32
        affine.store %2, %arg1[%i] : memref<4xi32>
      }
      return
    }
    ```
  }];
  let options = [
    Option<"borderFill", "border-fill", "bool", /*default=*/"true",
           "A contraction whose writes cover a box of its output (a "
           "zero-padded copy, a convolution stored into the interior of the "
           "next one's padded input) stores its init only outside that box, "
           "one nest per side of each dimension, instead of filling the whole "
           "output first. The GPU pipelines turn it off: there one fill "
           "kernel costs less than a launch per side.">,
    Option<"splitGuards", "split-guards", "bool", /*default=*/"true",
           "A reduction whose constraints guard its points (an implicitly "
           "padded window) becomes one nest without guards over the "
           "interior, where they hold for the whole window, and one nest per "
           "border value of the output index (at most 3 per side, 49 nests), "
           "in which they bound the window instead; the same points in the "
           "same order. The CPU code generator takes no nest with a guard "
           "inside. The GPU pipelines turn it off (a launch per nest).">
  ];
  let dependentDialects = [
    "affine::AffineDialect", "arith::ArithDialect", "func::FuncDialect",
    "math::MathDialect", "memref::MemRefDialect", "scf::SCFDialect",
    "PlaidMLDialect"
  ];
}

#endif // PLAIDML_CONVERSION_PASSES_TD
