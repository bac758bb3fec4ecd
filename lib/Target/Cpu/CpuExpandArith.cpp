//===- CpuExpandArith.cpp - arith-expand without float max and min --------===//
//
// plaidml-cpu-expand-arith: the expansions of upstream's arith-expand that
// LLVM needs (integer ceil/floor divisions, scaling ext/trunc), without the
// one that turns maximumf/minimumf into a compare-and-select, so that
// convert-arith-to-llvm gives LLVM's maximum/minimum, which order signed
// zeros (Passes.td).
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/Cpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_CPUEXPANDARITHPASS
#include "plaidml/Target/Cpu/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;

namespace {
struct CpuExpandArithPass
    : public plaidml::impl::CpuExpandArithPassBase<CpuExpandArithPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    arith::populateExpandScalingExtTruncPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
