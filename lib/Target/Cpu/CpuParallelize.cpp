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

/// The iterations of each dimension of `loop`.
static SmallVector<uint64_t> getTripCounts(AffineParallelOp loop) {
  std::optional<SmallVector<int64_t, 8>> ranges = loop.getConstantRanges();
  SmallVector<int64_t> steps = loop.getSteps();
  SmallVector<uint64_t> trips;
  for (unsigned i = 0, e = loop.getNumDims(); i < e; ++i) {
    uint64_t dim = kUnknownTripCount;
    if (ranges)
      dim = (*ranges)[i] <= 0 ? 0 : llvm::divideCeil((*ranges)[i], steps[i]);
    trips.push_back(dim);
  }
  return trips;
}

/// The iterations of the first `numDims` dimensions of `loop` together.
static uint64_t getTripCount(AffineParallelOp loop, unsigned numDims = ~0u) {
  uint64_t trips = 1;
  for (uint64_t dim : ArrayRef(getTripCounts(loop)).take_front(numDims))
    trips = llvm::SaturatingMultiply(trips, dim);
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

/// Replaces `loop` by an affine.parallel over its first `keep` dimensions
/// (none when `keep` is 0) around one affine.for per other dimension,
/// outermost first, with the same bounds and steps. Reductions (only with
/// `keep` = 0) are carried as iter_args from their identity and combined at
/// the end of each iteration, as lower-affine combines the reductions of
/// the scf.parallel it makes.
static void makeSequential(AffineParallelOp loop, unsigned keep) {
  OpBuilder builder(loop);
  Location loc = loop.getLoc();
  SmallVector<int64_t> steps = loop.getSteps();
  SmallVector<Value> ivs;
  if (keep > 0) {
    assert(loop.getNumResults() == 0 && "a parallel part with reductions");
    SmallVector<AffineMap> lowerMaps, upperMaps;
    for (unsigned i = 0; i < keep; ++i) {
      lowerMaps.push_back(loop.getLowerBoundMap(i));
      upperMaps.push_back(loop.getUpperBoundMap(i));
    }
    auto outer = AffineParallelOp::create(
        builder, loc, TypeRange(), ArrayRef<arith::AtomicRMWKind>(), lowerMaps,
        loop.getLowerBoundsOperands(), upperMaps, loop.getUpperBoundsOperands(),
        ArrayRef(steps).take_front(keep));
    llvm::append_range(ivs, outer.getIVs());
    builder.setInsertionPoint(outer.getBody()->getTerminator());
  }

  SmallVector<arith::AtomicRMWKind> kinds;
  SmallVector<Value> carried;
  for (auto [attr, type] :
       llvm::zip_equal(loop.getReductions(), loop.getResultTypes())) {
    arith::AtomicRMWKind kind = cast<arith::AtomicRMWKindAttr>(attr).getValue();
    kinds.push_back(kind);
    carried.push_back(arith::getIdentityValue(kind, type, builder, loc));
  }
  SmallVector<AffineForOp> nest;
  for (unsigned i = keep, e = loop.getNumDims(); i < e; ++i) {
    auto forOp = AffineForOp::create(
        builder, loc, loop.getLowerBoundsOperands(), loop.getLowerBoundMap(i),
        loop.getUpperBoundsOperands(), loop.getUpperBoundMap(i), steps[i],
        carried);
    if (!nest.empty() && !carried.empty())
      affine::AffineYieldOp::create(builder, loc, forOp.getResults());
    nest.push_back(forOp);
    ivs.push_back(forOp.getInductionVar());
    carried = llvm::to_vector_of<Value>(forOp.getRegionIterArgs());
    // Before the yield affine.for made when nothing is carried.
    builder.setInsertionPointToStart(forOp.getBody());
  }

  // The body, at the innermost level.
  Block *body = loop.getBody();
  for (auto [iv, replacement] : llvm::zip_equal(body->getArguments(), ivs))
    iv.replaceAllUsesWith(replacement);
  Block *inner = builder.getInsertionBlock();
  Block::iterator at = builder.getInsertionPoint();
  if (!nest.empty())
    at = kinds.empty() ? inner->getTerminator()->getIterator() : inner->end();
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

/// How many outer dimensions of a loop that runs in parallel stay parallel:
/// as few as give every thread `kIterationsPerThread` iterations, so the
/// inner dimensions stay plain loops that LLVM vectorizes (a collapsed
/// OpenMP loop recomputes every index from one counter), and, where a
/// further outer dimension (not the innermost) gets there, as many as
/// split the iterations evenly (within `kMaxImbalance`): 9 cache blocks on
/// 2 threads keep one thread idle for a ninth of the loop, 9 x 56 blocks
/// and rows for 1/504. Loops with reductions stay whole.
static constexpr uint64_t kIterationsPerThread = 4;
static constexpr double kMaxImbalance = 1.05;
static unsigned getParallelDims(AffineParallelOp loop, unsigned threads) {
  unsigned numDims = loop.getNumDims();
  if (loop.getNumResults() != 0)
    return numDims;
  auto imbalance = [&](uint64_t trips) {
    return double(llvm::divideCeil(trips, threads) * threads) / trips;
  };
  unsigned keep = 1;
  while (keep < numDims &&
         getTripCount(loop, keep) < kIterationsPerThread * threads)
    ++keep;
  // Then the evenest split among the outer dimensions from there, the
  // first that is even enough.
  unsigned best = keep;
  double bestSplit = imbalance(getTripCount(loop, keep));
  for (unsigned more = keep; more < numDims && bestSplit > kMaxImbalance;
       ++more) {
    double split = imbalance(getTripCount(loop, more));
    if (split < bestSplit) {
      best = more;
      bestSplit = split;
    }
  }
  return best;
}

namespace {
struct CpuParallelizePass
    : public mlir::plaidml::impl::CpuParallelizePassBase<CpuParallelizePass> {
  using Base::Base;

  void runOnOperation() override {
    // Decide outermost first (pre-order), then rewrite.
    DenseSet<Operation *> parallel;
    SmallVector<std::pair<AffineParallelOp, unsigned>> rewrites;
    getOperation()->walk<WalkOrder::PreOrder>([&](AffineParallelOp loop) {
      bool insideParallel = false;
      for (Operation *op = loop->getParentOp(); op && !insideParallel;
           op = op->getParentOp())
        insideParallel = parallel.contains(op);
      uint64_t trips = getTripCount(loop);
      if (threads > 1 && !insideParallel && trips >= threads &&
          llvm::SaturatingMultiply(trips, estimateWork(*loop.getBody())) >=
              minWork) {
        parallel.insert(loop);
        unsigned keep = getParallelDims(loop, threads);
        if (keep < loop.getNumDims())
          rewrites.push_back({loop, keep});
      } else {
        rewrites.push_back({loop, 0});
      }
    });
    // Innermost first, so every loop is still in place when its turn comes.
    for (auto [loop, keep] : llvm::reverse(rewrites))
      makeSequential(loop, keep);
  }
};
} // namespace
