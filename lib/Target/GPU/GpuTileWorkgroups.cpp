//===- GpuTileWorkgroups.cpp - Grid and workgroup loops -------------------===//
//
// plaidml-gpu-tile-workgroups: splits every affine.parallel configured by
// plaidml-gpu-configure into a grid loop over workgroups and a workgroup loop
// over invocations with the recorded constant sizes, guarding the body with
// an affine.if where a tile does not divide its range. lower-affine and
// plaidml-gpu-map-loops then map the two loops to blocks and threads.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/GPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IntegerSet.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_GPUTILEWORKGROUPSPASS
#include "plaidml/Target/GPU/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;

static LogicalResult tile(affine::AffineParallelOp op) {
  auto sizesAttr =
      op->getAttrOfType<DenseI64ArrayAttr>(kGpuWorkgroupSizeAttrName);
  ArrayRef<int64_t> sizes = sizesAttr.asArrayRef();
  unsigned n = op.getNumDims();
  std::optional<SmallVector<int64_t>> ranges = op.getConstantRanges();
  if (sizes.size() != n || !ranges || op.getNumResults() != 0 ||
      llvm::any_of(op.getSteps(), [](int64_t s) { return s != 1; }) ||
      llvm::any_of(sizes, [](int64_t s) { return s < 1; }))
    return op.emitOpError("cannot apply ")
           << kGpuWorkgroupSizeAttrName
           << ": needs one positive size per dimension, constant bounds, "
              "unit steps and no reductions";
  SmallVector<int64_t> lbs, grid;
  for (unsigned d = 0; d < n; ++d) {
    AffineMap lb = op.getLowerBoundMap(d);
    if (!lb.isSingleConstant())
      return op.emitOpError("needs constant lower bounds");
    lbs.push_back(lb.getSingleConstantResult());
    grid.push_back(llvm::divideCeil((*ranges)[d], sizes[d]));
  }

  OpBuilder builder(op);
  Location loc = op.getLoc();
  auto outer = affine::AffineParallelOp::create(
      builder, loc, TypeRange{}, ArrayRef<arith::AtomicRMWKind>{}, grid);
  builder.setInsertionPoint(outer.getBody()->getTerminator());
  auto inner = affine::AffineParallelOp::create(
      builder, loc, TypeRange{}, ArrayRef<arith::AtomicRMWKind>{}, sizes);
  builder.setInsertionPoint(inner.getBody()->getTerminator());

  // The guard: lb + b * T + t < lb + range for every dimension whose tile
  // does not divide its range.
  MLIRContext *ctx = op.getContext();
  AffineExpr b = getAffineDimExpr(0, ctx), t = getAffineDimExpr(1, ctx);
  SmallVector<AffineExpr> constraints;
  SmallVector<Value> guardOperands;
  for (unsigned d = 0; d < n; ++d) {
    if ((*ranges)[d] % sizes[d] == 0)
      continue;
    unsigned k = guardOperands.size();
    AffineExpr bk = getAffineDimExpr(k, ctx), tk = getAffineDimExpr(k + 1, ctx);
    constraints.push_back((*ranges)[d] - 1 - bk * sizes[d] - tk);
    guardOperands.push_back(outer.getIVs()[d]);
    guardOperands.push_back(inner.getIVs()[d]);
  }
  if (!constraints.empty()) {
    auto set = IntegerSet::get(guardOperands.size(), 0, constraints,
                               SmallVector<bool>(constraints.size(), false));
    auto guard = affine::AffineIfOp::create(builder, loc, set, guardOperands,
                                            /*withElseRegion=*/false);
    builder.setInsertionPoint(guard.getThenBlock()->getTerminator());
  }

  // The original induction variables, then the body.
  for (unsigned d = 0; d < n; ++d) {
    auto map = AffineMap::get(2, 0, b * sizes[d] + t + lbs[d]);
    Value iv = affine::AffineApplyOp::create(
        builder, loc, map, ValueRange{outer.getIVs()[d], inner.getIVs()[d]});
    op.getIVs()[d].replaceAllUsesWith(iv);
  }
  Block *body = op.getBody();
  Operation *insertBefore = &*builder.getInsertionPoint();
  for (Operation &nested : llvm::make_early_inc_range(
           llvm::make_range(body->begin(), std::prev(body->end()))))
    nested.moveBefore(insertBefore);
  op.erase();
  return success();
}

namespace {
struct GpuTileWorkgroupsPass
    : public plaidml::impl::GpuTileWorkgroupsPassBase<GpuTileWorkgroupsPass> {
  void runOnOperation() override {
    SmallVector<affine::AffineParallelOp> loops;
    getOperation().walk([&](affine::AffineParallelOp op) {
      if (op->hasAttr(kGpuWorkgroupSizeAttrName))
        loops.push_back(op);
    });
    for (affine::AffineParallelOp op : loops)
      if (failed(tile(op)))
        return signalPassFailure();
  }
};
} // namespace
