//===- GpuStageContraction.cpp - Workgroup-memory matrix products ---------===//
//
// plaidml-gpu-stage-contraction: replaces every outermost affine.parallel
// carrying plaidml.gpu.staged_tile or plaidml.gpu.split_k with the
// gpu.launch of StagedContraction.cpp (operands staged in workgroup memory
// and register accumulators, or a matrix-vector product's reduction split
// over the invocations of a workgroup; the epilogue per output).
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
      if (par->hasAttr(kGpuStagedTileAttrName) ||
          par->hasAttr(kGpuSplitKAttrName))
        nests.push_back(par);
    });
    for (affine::AffineParallelOp par : nests) {
      auto staged =
          par->getAttrOfType<DenseI64ArrayAttr>(kGpuStagedTileAttrName);
      auto split = par->getAttrOfType<DenseI64ArrayAttr>(kGpuSplitKAttrName);
      StringRef name = split ? kGpuSplitKAttrName : kGpuStagedTileAttrName;
      StagedNest nest;
      StagedTile tile{};
      SplitKTile splitTile{};
      std::string why;
      if (par->getParentOp() != func)
        why = "not an outermost loop of the function";
      else if (staged && split)
        why = "the nest has both a staged and a split-K tile";
      else if (split && split.size() != 2)
        why = "not an array<i64: TN, S>";
      else if (staged && staged.size() != 5)
        why = "not an array<i64: TM, TN, TK, RM, RN>";
      else if (split)
        splitTile = {split[0], split[1]};
      else
        tile = {staged[0], staged[1], staged[2], staged[3], staged[4]};
      if (why.empty() && (split ? isValidSplitKTile(splitTile, why)
                                : isValidStagedTile(tile, why)))
        (void)analyzeStagedNest(par, nest, why);
      if (!why.empty()) {
        par.emitOpError("cannot apply ") << name << ": " << why;
        return signalPassFailure();
      }
      if (split)
        applySplitKTile(nest, splitTile);
      else
        applyStagedTile(nest, tile);
    }
  }
};
} // namespace
