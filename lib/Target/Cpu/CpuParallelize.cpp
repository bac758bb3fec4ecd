//===- CpuParallelize.cpp - Choose the loops that run on threads ----------===//
//
// plaidml-cpu-parallelize: decides which affine.parallel loops become
// OpenMP worksharing loops (they stay affine.parallel) and turns every other
// one into sequential affine.for loops: all of them with threads=1; with
// more threads, the loops nested in a parallel one and those with too
// little work to pay for waking the thread team (Passes.td has the rule).
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/Cpu/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_CPUPARALLELIZEPASS
#include "plaidml/Target/Cpu/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;
using affine::AffineForOp;
using affine::AffineParallelOp;

/// What a loop whose trip count is not a constant is assumed to run.
static constexpr uint64_t kUnknownTripCount = 64;

static uint64_t getTripCount(AffineForOp loop) {
  if (!loop.hasConstantBounds())
    return kUnknownTripCount;
  int64_t range = loop.getConstantUpperBound() - loop.getConstantLowerBound();
  return range <= 0 ? 0 : llvm::divideCeil(range, loop.getStepAsInt());
}

/// The iterations of all dimensions of `loop` together.
static uint64_t getTripCount(AffineParallelOp loop) {
  std::optional<SmallVector<int64_t, 8>> ranges = loop.getConstantRanges();
  SmallVector<int64_t> steps = loop.getSteps();
  uint64_t trips = 1;
  for (unsigned i = 0, e = loop.getNumDims(); i < e; ++i) {
    uint64_t dim = kUnknownTripCount;
    if (ranges)
      dim = (*ranges)[i] <= 0 ? 0 : llvm::divideCeil((*ranges)[i], steps[i]);
    trips = llvm::SaturatingMultiply(trips, dim);
  }
  return trips;
}

/// The operations one execution of `block` runs, loops unrolled in thought.
static uint64_t estimateWork(Block &block) {
  uint64_t work = 0;
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>())
      continue;
    uint64_t trips = 1, body = 0;
    if (auto loop = dyn_cast<AffineForOp>(op))
      trips = getTripCount(loop);
    else if (auto loop = dyn_cast<AffineParallelOp>(op))
      trips = getTripCount(loop);
    else
      body = 1;
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        body = llvm::SaturatingAdd(body, estimateWork(nested));
    work = llvm::SaturatingAdd(work, llvm::SaturatingMultiply(trips, body));
  }
  return work;
}

/// Replaces `loop` by one affine.for per dimension, outermost first, with
/// the same bounds and steps; reductions are carried as iter_args from
/// their identity and combined at the end of each iteration, as
/// lower-affine combines the reductions of the scf.parallel it makes.
static void serialize(AffineParallelOp loop) {
  OpBuilder builder(loop);
  Location loc = loop.getLoc();
  SmallVector<arith::AtomicRMWKind> kinds;
  SmallVector<Value> carried;
  for (auto [attr, type] :
       llvm::zip_equal(loop.getReductions(), loop.getResultTypes())) {
    arith::AtomicRMWKind kind = cast<arith::AtomicRMWKindAttr>(attr).getValue();
    kinds.push_back(kind);
    carried.push_back(arith::getIdentityValue(kind, type, builder, loc));
  }

  SmallVector<int64_t> steps = loop.getSteps();
  SmallVector<AffineForOp> nest;
  for (unsigned i = 0, e = loop.getNumDims(); i < e; ++i) {
    auto forOp = AffineForOp::create(
        builder, loc, loop.getLowerBoundsOperands(), loop.getLowerBoundMap(i),
        loop.getUpperBoundsOperands(), loop.getUpperBoundMap(i), steps[i],
        carried);
    if (!nest.empty() && !carried.empty())
      affine::AffineYieldOp::create(builder, loc, forOp.getResults());
    nest.push_back(forOp);
    carried = llvm::to_vector_of<Value>(forOp.getRegionIterArgs());
    // Before the yield affine.for made when nothing is carried.
    builder.setInsertionPointToStart(forOp.getBody());
  }

  // The body, at the innermost level.
  Block *body = loop.getBody();
  for (auto [iv, forOp] : llvm::zip_equal(body->getArguments(), nest))
    iv.replaceAllUsesWith(forOp.getInductionVar());
  Block *inner = loop->getBlock();
  Block::iterator at = loop->getIterator();
  if (!nest.empty()) {
    inner = nest.back().getBody();
    at = kinds.empty() ? inner->getTerminator()->getIterator() : inner->end();
  }
  Operation *yield = body->getTerminator();
  inner->getOperations().splice(at, body->getOperations(), body->begin(),
                                yield->getIterator());
  if (!kinds.empty()) {
    builder.setInsertionPoint(inner, at);
    SmallVector<Value> combined;
    for (auto [kind, acc, value] :
         llvm::zip_equal(kinds, carried, yield->getOperands()))
      combined.push_back(arith::getReductionOp(kind, builder, loc, acc, value));
    if (nest.empty())
      loop.replaceAllUsesWith(combined);
    else
      affine::AffineYieldOp::create(builder, loc, combined);
  }
  if (!nest.empty())
    loop.replaceAllUsesWith(nest.front().getResults());
  loop.erase();
}

namespace {
struct CpuParallelizePass
    : public mlir::plaidml::impl::CpuParallelizePassBase<CpuParallelizePass> {
  using Base::Base;

  void runOnOperation() override {
    // Decide outermost first (pre-order), then rewrite.
    DenseSet<Operation *> parallel;
    SmallVector<AffineParallelOp> sequential;
    getOperation()->walk<WalkOrder::PreOrder>([&](AffineParallelOp loop) {
      bool insideParallel = false;
      for (Operation *op = loop->getParentOp(); op && !insideParallel;
           op = op->getParentOp())
        insideParallel = parallel.contains(op);
      uint64_t trips = getTripCount(loop);
      if (threads > 1 && !insideParallel && trips >= threads &&
          llvm::SaturatingMultiply(trips, estimateWork(*loop.getBody())) >=
              minWork)
        parallel.insert(loop);
      else
        sequential.push_back(loop);
    });
    // Innermost first, so every loop is still in place when its turn comes.
    for (AffineParallelOp loop : llvm::reverse(sequential))
      serialize(loop);
  }
};
} // namespace
