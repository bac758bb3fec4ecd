//===- GpuStageContraction.cpp - Workgroup-memory matrix products ---------===//
//
// plaidml-gpu-stage-contraction: replaces every outermost affine.parallel
// carrying plaidml.gpu.staged_tile with the gpu.launch of
// StagedContraction.cpp (operands staged in workgroup memory, register
// accumulators, the epilogue per output).
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/GPU/Passes.h"

#include "StagedContraction.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_GPUSTAGECONTRACTIONPASS
#include "plaidml/Target/GPU/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;

namespace {
struct GpuStageContractionPass
    : public plaidml::impl::GpuStageContractionPassBase<
          GpuStageContractionPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<affine::AffineParallelOp> nests;
    func.walk([&](affine::AffineParallelOp par) {
      if (par->hasAttr(kGpuStagedTileAttrName))
        nests.push_back(par);
    });
    for (affine::AffineParallelOp par : nests) {
      auto values =
          par->getAttrOfType<DenseI64ArrayAttr>(kGpuStagedTileAttrName);
      StagedNest nest;
      StagedTile tile{};
      std::string why;
      if (par->getParentOp() != func)
        why = "not an outermost loop of the function";
      else if (!values || values.size() != 5)
        why = "not an array<i64: TM, TN, TK, RM, RN>";
      else if (tile = {values[0], values[1], values[2], values[3], values[4]};
               isValidStagedTile(tile, why))
        (void)analyzeStagedNest(par, nest, why);
      if (!why.empty()) {
        par.emitOpError("cannot apply ")
            << kGpuStagedTileAttrName << ": " << why;
        return signalPassFailure();
      }
      applyStagedTile(nest, tile);
    }
  }
};
} // namespace
