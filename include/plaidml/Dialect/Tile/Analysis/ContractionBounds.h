//===- ContractionBounds.h - Index ranges of a contraction ------*- C++ -*-===//
//
// The exact integer analysis behind tile-compute-bounds, kept apart from the
// pass so that the Tile-to-affine lowering and the reference interpreter can
// ask the same question: over which box does a tile.contract iterate, and
// which constraints still guard its body inside that box.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_DIALECT_TILE_ANALYSIS_CONTRACTIONBOUNDS_H
#define PLAIDML_DIALECT_TILE_ANALYSIS_CONTRACTIONBOUNDS_H

#include "mlir/IR/IntegerSet.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::plaidml::tile {
class ContractionOp;

/// The iteration box of a contraction and the guard of its body.
struct ContractionBounds {
  /// Inclusive bounds, one per index in map-dimension order: the tightest
  /// integer interval of each index over the valid points, or [0, -1] for
  /// every index when there is no valid point.
  SmallVector<int64_t> lower, upper;
  /// The constraints the box does not imply, drawn from `cons` and the
  /// tensor-range checks of the sink and source accesses, in that order and
  /// without duplicates; null when the box implies every one of them.
  /// Valid points = box points that satisfy these.
  IntegerSet cons;
  /// True when the contraction has no valid point (its result is its init).
  bool empty = false;
};

/// Computes the bounds of `op` exactly over the integers (Presburger
/// arithmetic, not a rational relaxation). `lower_bounds` / `upper_bounds`
/// already on `op` count as constraints, so recording the result on the op
/// and computing again yields the same result. Emits an error at `op` and
/// fails when an index is unbounded, a bound does not fit in 64 bits, or an
/// expression cannot be flattened to affine form (a division by a
/// non-positive constant). Emptiness is decided first: a contraction without
/// valid points gets the empty box even if some index is unconstrained.
FailureOr<ContractionBounds> computeContractionBounds(ContractionOp op);

/// computeContractionBounds, recorded on `op`: its `lower_bounds`,
/// `upper_bounds` and `cons` (removed when the box implies every
/// constraint) become the result's. What tile-compute-bounds does per op,
/// and what a pass that rewrites a contraction's maps calls to tighten them.
FailureOr<ContractionBounds> recordContractionBounds(ContractionOp op);

/// `expr` (over `numDims` dims, no symbols) as coefficients of the dims plus
/// a constant (the last entry), or nothing when it is not linear (floordiv,
/// mod, ceildiv need local variables).
std::optional<SmallVector<int64_t>> getLinearForm(AffineExpr expr,
                                                  unsigned numDims);

} // namespace mlir::plaidml::tile

#endif // PLAIDML_DIALECT_TILE_ANALYSIS_CONTRACTIONBOUNDS_H
