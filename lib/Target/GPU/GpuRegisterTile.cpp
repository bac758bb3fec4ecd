//===- GpuRegisterTile.cpp - Apply the register tiles ---------------------===//
//
// plaidml-gpu-register-tile: rewrites every outermost affine.parallel that
// carries plaidml.gpu.register_tile (chosen by plaidml-gpu-configure, or set
// by hand in a test) so that each iteration, one GPU invocation, computes a
// block of outputs with the reduction chains jammed (RegisterTile.cpp). A
// tile the nest cannot take is an error naming the reason.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/GPU/Passes.h"

#include "RegisterTile.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_GPUREGISTERTILEPASS
#include "plaidml/Target/GPU/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;

namespace {
struct GpuRegisterTilePass
    : public plaidml::impl::GpuRegisterTilePassBase<GpuRegisterTilePass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<affine::AffineParallelOp> nests;
    func.walk([&](affine::AffineParallelOp par) {
      if (par->hasAttr(kGpuRegisterTileAttrName))
        nests.push_back(par);
    });
    for (affine::AffineParallelOp par : nests) {
      auto factors =
          par->getAttrOfType<DenseI64ArrayAttr>(kGpuRegisterTileAttrName);
      RegisterTileNest nest;
      std::string why;
      if (par->getParentOp() != func)
        why = "not an outermost loop of the function";
      else if (!factors)
        why = "not an array<i64: ...>";
      else if (static_cast<size_t>(factors.size()) != par.getNumDims() ||
               llvm::any_of(factors.asArrayRef(),
                            [](int64_t f) { return f < 1; }))
        why = "needs one factor of at least 1 per dimension";
      else
        (void)analyzeRegisterTileNest(par, nest, why);
      if (!why.empty()) {
        par.emitOpError("cannot apply ")
            << kGpuRegisterTileAttrName << ": " << why;
        return signalPassFailure();
      }
      if (llvm::all_of(factors.asArrayRef(), [](int64_t f) { return f == 1; }))
        par->removeAttr(kGpuRegisterTileAttrName);
      else
        applyRegisterTile(nest, factors.asArrayRef());
    }
  }
};
} // namespace
