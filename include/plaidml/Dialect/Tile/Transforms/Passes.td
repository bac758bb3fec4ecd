//===- Passes.td - Tile dialect passes ---------------------*- tablegen -*-===//
//
// The passes that transform Tile IR in place.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define PLAIDML_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileComputeBoundsPass : Pass<"tile-compute-bounds"> {
  let summary = "Infer the integer range of every contraction index";
  let description = [{
    For every `tile.contract`, computes the tightest integer interval of each
    index that contains all valid points (see the `tile.contract`
    semantics): the points whose every access lies inside its tensor and
    that satisfy `cons`. The intervals are exact over the integers (the
    Presburger library's simplex with integer bounds), not rational
    relaxations.

    The pass records them as `lower_bounds` / `upper_bounds` (inclusive) and
    rewrites `cons` to hold exactly the constraints the box does not imply:
    user constraints and tensor-range checks alike (for example the padding
    checks of a "same" convolution). Lowerings loop over the box and guard
    the body with the remaining `cons`.

    Bounds already on an op are constraints like any other (they may be
    all that is left of a dropped `i < 2`), so the pass is idempotent and
    tightens hand-written bounds.

    An index that is unbounded is an error naming it. A contraction with no
    valid point gets the empty box `[0, -1]` for every index and a warning:
    its result is its init. (With no index at all there is no box to empty;
    the failing check stays in `cons`.)

    Input:
    ```mlir
    %0 = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"],
           sink = affine_map<(m, n, k) -> (m, n)>,
           srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
         : tensor<f32>, tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
    ```
    Output: the same op with
    `lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 3, 15, 7>`.
  }];
}

def TileOutputStationaryPass : Pass<"tile-output-stationary"> {
  let summary = "Make windowed reduction sinks plain indices by a change of variables";
  let description = [{
    A reduction (any aggregation but `assign`) whose sink result is a sum
    such as `h + kh` sends many index points to one output element, so it
    can only be lowered as a sequential nest. For each such result, this
    pass substitutes `h = y - kh` everywhere (`y` takes `h`'s slot, the
    sink result becomes `y`) and adds `lb(h) <= y - kh <= ub(h)` to `cons`,
    which keeps exactly the old index points: each output element becomes
    one reduction over the window, lowered in parallel over the output.
    The index eliminated has coefficient 1, appears in no other sink result
    and has the widest range among the result's indices; results without
    one (a strided `2 * h + kh`) stay. Needs the bounds of
    `tile-compute-bounds` (ops without them are left alone) and tightens the
    rewritten ops' bounds and constraints the same way.

    Input (the input gradient of a 1-D convolution):
    ```mlir
    %dI = tile.contract add, mul, %zero, %dO, %F {idxs = ["x", "k"],
            sink = affine_map<(x, k) -> (x + k)>,
            srcs = [affine_map<(x, k) -> (x)>, affine_map<(x, k) -> (k)>],
            lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 5, 2>}
          : tensor<f32>, tensor<6xf32>, tensor<3xf32> -> tensor<8xf32>
    ```
    Output: `sink = (x, k) -> (x)`, `srcs = [(x, k) -> (x - k), (x, k) -> (k)]`,
    bounds `[0, 0]..[7, 2]` and `cons = (x - k >= 0, -x + k + 5 >= 0)`.
  }];
}

def TileAppendGradientsPass : Pass<"tile-append-gradients", "::mlir::func::FuncOp"> {
  let summary = "Return the gradients of a function's first result";
  let description = [{
    Differentiates every function's first result (the loss, a float tensor;
    one of several elements counts as the sum of its elements) with respect
    to the arguments that carry the `tile.wrt` unit attribute (all float
    arguments when none does), and appends the gradients, one per such
    argument and of its type, to the function's results. The backward ops
    come from `buildGradients` (Dialect/Tile/Transforms/Gradients.h); the
    rules are in docs/Training.md. An op on the path from an argument to
    the loss that has no gradient is an error naming it.

    Input:
    ```mlir
    func.func @f(%x: tensor<3xf32>) -> tensor<f32> {
      %z = tile.constant dense<0.0> : tensor<f32>
      %s = tile.contract add, none, %z, %x {sink = affine_map<(i) -> ()>,
             srcs = [affine_map<(i) -> (i)>]} : tensor<f32>, tensor<3xf32> -> tensor<f32>
      return %s : tensor<f32>
    }
    ```
    Output: the function also returns `d s / d x`, a `tile.contract`
    broadcasting the seed `1.0` back to `tensor<3xf32>`.
  }];
  let dependentDialects = ["::mlir::plaidml::tile::TileDialect"];
}

#endif // PLAIDML_DIALECT_TILE_TRANSFORMS_PASSES_TD
