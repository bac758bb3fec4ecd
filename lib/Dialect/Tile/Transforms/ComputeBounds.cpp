//===- ComputeBounds.cpp - Infer contraction index ranges -----------------===//
//
// tile-compute-bounds: records on every tile.contract the box its indices
// range over and the constraints left to check inside it, as computed by
// recordContractionBounds (Dialect/Tile/Analysis). The pass only applies the
// analysis and reports: an error per unbounded index, a warning for a
// contraction without a valid point.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Dialect/Tile/Analysis/ContractionBounds.h"
#include "plaidml/Dialect/Tile/IR/TileOps.h"
#include "plaidml/Dialect/Tile/Transforms/Passes.h"

namespace mlir::plaidml::tile {
#define GEN_PASS_DEF_TILECOMPUTEBOUNDSPASS
#include "plaidml/Dialect/Tile/Transforms/Passes.h.inc"

namespace {
struct TileComputeBoundsPass
    : public impl::TileComputeBoundsPassBase<TileComputeBoundsPass> {
  void runOnOperation() override {
    bool failedAny = false;
    getOperation()->walk([&](ContractionOp op) {
      FailureOr<ContractionBounds> bounds = recordContractionBounds(op);
      if (failed(bounds)) {
        failedAny = true;
        return;
      }
      if (bounds->empty)
        op.emitWarning("contraction has no valid index point; its result is "
                       "its init");
    });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::plaidml::tile
