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

#endif // PLAIDML_DIALECT_TILE_TRANSFORMS_PASSES_TD
