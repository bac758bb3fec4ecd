//===- GpuStageContraction.cpp - Workgroup-memory matrix products ---------===//
//
// plaidml-gpu-stage-contraction: replaces every outermost affine.parallel
// carrying plaidml.gpu.staged_tile, plaidml.gpu.coop_tile or
// plaidml.gpu.split_k with the
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
          par->hasAttr(kGpuSplitKAttrName) ||
          par->hasAttr(kGpuCoopTileAttrName))
        nests.push_back(par);
    });
    for (affine::AffineParallelOp par : nests) {
      auto staged =
          par->getAttrOfType<DenseI64ArrayAttr>(kGpuStagedTileAttrName);
      auto split = par->getAttrOfType<DenseI64ArrayAttr>(kGpuSplitKAttrName);
      auto coop = par->getAttrOfType<DenseI64ArrayAttr>(kGpuCoopTileAttrName);
      StringRef name = split  ? kGpuSplitKAttrName
                       : coop ? kGpuCoopTileAttrName
                              : kGpuStagedTileAttrName;
      StagedNest nest;
      StagedTile tile{};
      SplitKTile splitTile{};
      CoopTile coopTile{};
      std::string why;
      if (par->getParentOp() != func)
        why = "not an outermost loop of the function";
      else if (!!staged + !!split + !!coop > 1)
        why = "the nest has more than one of a staged, a split-K and a "
              "cooperative-matrix tile";
      else if (split && split.size() != 2)
        why = "not an array<i64: TN, S>";
      else if (staged && staged.size() != 5)
        why = "not an array<i64: TM, TN, TK, RM, RN>";
      else if (coop && coop.size() != 6)
        why = "not an array<i64: TM, TN, TK, SM, SN, STAGES>";
      else if (split)
        splitTile = {split[0], split[1]};
      else if (coop)
        coopTile = {coop[0], coop[1], coop[2], coop[3], coop[4], coop[5]};
      else
        tile = {staged[0], staged[1], staged[2], staged[3], staged[4]};
      if (why.empty() && (split  ? isValidSplitKTile(splitTile, why)
                          : coop ? isValidCoopTile(coopTile, why)
                                 : isValidStagedTile(tile, why)))
        (void)analyzeStagedNest(par, nest, why);
      if (why.empty() && coop && (!nest.halfFactor[0] || !nest.halfFactor[1]))
        why = "the factors are not f16 values summed in f32";
      if (why.empty() && coop)
        (void)fitsCoopWorkgroupMemory(nest, coopTile, why);
      // Several stages: PTX cp.async in the OpenCL C, on NVIDIA's OpenCL
      // only.
      if (why.empty() && coop && coopTile.stages > 1) {
        if (!hasAsyncCopies(getTargetOrDefault(func)))
          why = ("several stages need asynchronous copies: an opencl target "
                 "with " +
                 kAsyncCopyFeature)
                    .str();
        else
          (void)canCopyCoopAsync(nest, coopTile, why);
      }
      if (!why.empty()) {
        par.emitOpError("cannot apply ") << name << ": " << why;
        return signalPassFailure();
      }
      if (split)
        applySplitKTile(nest, splitTile);
      else if (coop)
        applyCoopTile(nest, coopTile);
      else
        applyStagedTile(nest, tile);
    }
  }
};
} // namespace
