//===- GpuApproximateMath.cpp - Polynomials for erf and erfc in kernels ---===//
//
// plaidml-gpu-approximate-math: math.erf and math.erfc have no GLSL.std.450
// instruction, so inside kernels they become upstream's polynomial
// approximations, made of ops that convert-math-to-spirv and
// convert-gpu-to-spirv handle.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/SPIRV/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_GPUAPPROXIMATEMATHPASS
#include "plaidml/Target/SPIRV/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;

namespace {
struct GpuApproximateMathPass
    : public plaidml::impl::GpuApproximateMathPassBase<GpuApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populatePolynomialApproximateErfPattern(patterns);
    populatePolynomialApproximateErfcPattern(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
