//===- ComputeBounds.cpp - Infer contraction index ranges -----------------===//
//
// tile-compute-bounds (the algorithm lands in the next change; until then the
// pass refuses to run rather than pretend).
//
//===----------------------------------------------------------------------===//

#include "plaidml/Dialect/Tile/IR/TileOps.h"
#include "plaidml/Dialect/Tile/Transforms/Passes.h"

namespace mlir::plaidml::tile {
#define GEN_PASS_DEF_TILECOMPUTEBOUNDSPASS
#include "plaidml/Dialect/Tile/Transforms/Passes.h.inc"

namespace {
struct TileComputeBoundsPass
    : public impl::TileComputeBoundsPassBase<TileComputeBoundsPass> {
  void runOnOperation() override {
    getOperation()->emitError("tile-compute-bounds is not implemented yet");
    signalPassFailure();
  }
};
} // namespace
} // namespace mlir::plaidml::tile
