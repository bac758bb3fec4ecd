//===- RegisterTile.cpp - Register tiles of GPU reduction nests -----------===//
//
// The analysis, the choice and the rewrite behind plaidml.gpu.register_tile:
// an outermost affine.parallel whose body is one chain of affine.for
// reductions (what convert-tile-to-affine makes of a contraction, with the
// elementwise consumers plaidml-fuse-elementwise moved after it) is
// rewritten so that each iteration (one GPU invocation) computes a block of
// outputs. The blocked dimensions shrink by their factors; the body is
// copied once per point of the block, with strided indices, and the copies'
// reduction chains are jammed into one chain carrying every copy's
// accumulators, so that a value loaded in the chain serves all the copies
// that read it.
//
//===----------------------------------------------------------------------===//

#include "RegisterTile.h"

#include "plaidml/Dialect/PlaidML/IR/PlaidMLDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

#include <functional>

using namespace mlir;
using namespace mlir::plaidml;

bool mlir::plaidml::isCopyable(Operation *op) {
  if (op->getNumRegions() != 0)
    return false;
  return isMemoryEffectFree(op) ||
         isa<affine::AffineLoadOp, memref::LoadOp>(op);
}

LogicalResult mlir::plaidml::getZeroBasedRanges(affine::AffineParallelOp par,
                                                SmallVector<int64_t> &ranges,
                                                std::string &why) {
  std::optional<SmallVector<int64_t>> constant = par.getConstantRanges();
  if (par.getNumResults() != 0 || !constant) {
    why = "not a parallel nest with constant ranges and no reductions";
    return failure();
  }
  for (unsigned d = 0, e = par.getNumDims(); d < e; ++d) {
    AffineMap lb = par.getLowerBoundMap(d);
    if (!lb.isSingleConstant() || lb.getSingleConstantResult() != 0 ||
        par.getSteps()[d] != 1) {
      why = "needs lower bounds 0 and unit steps";
      return failure();
    }
  }
  ranges = std::move(*constant);
  return success();
}

LogicalResult mlir::plaidml::analyzeRegisterTileNest(
    affine::AffineParallelOp par, RegisterTileNest &nest, std::string &why) {
  nest.par = par;
  if (failed(getZeroBasedRanges(par, nest.ranges, why)))
    return failure();

  if (par.getBody()->getOps<affine::AffineForOp>().empty()) {
    why = "no reduction loop";
    return failure();
  }
  // The body: copyable ops, one affine.for with results, then anything
  // without regions (the stores and fused elementwise consumers).
  affine::AffineForOp top;
  for (Operation &op : par.getBody()->without_terminator()) {
    if (auto loop = dyn_cast<affine::AffineForOp>(op)) {
      if (top || loop.getNumResults() == 0) {
        why = "the body is not one reduction loop chain";
        return failure();
      }
      top = loop;
      continue;
    }
    if (op.getNumRegions() != 0 || (!top && !isCopyable(&op))) {
      why = "the body has other nested regions or writes before the "
            "reduction";
      return failure();
    }
  }
  if (!top) {
    why = "no reduction loop";
    return failure();
  }

  // The chain: each loop's body is copyable ops, at most one nested
  // affine.for and more copyable ops; bounds constant.
  for (affine::AffineForOp loop = top; loop;) {
    if (!loop.hasConstantBounds()) {
      why = "a reduction loop has bounds that are not constant";
      return failure();
    }
    nest.chain.push_back(loop);
    affine::AffineForOp inner;
    bool nestedRegions = false;
    for (Operation &op : loop.getBody()->without_terminator()) {
      if (auto f = dyn_cast<affine::AffineForOp>(op); f && !inner)
        inner = f;
      else if (op.getNumRegions() != 0)
        nestedRegions = true;
    }
    // The innermost body may hold anything (the guard of a padded
    // convolution); above it, only the nested loop may have regions.
    if (inner && nestedRegions) {
      why = "a reduction loop holds other regions beside its nested loop";
      return failure();
    }
    loop = inner;
  }
  return success();
}

/// Whether some affine.load in the chain does not depend on dimension `d`
/// of the nest: a copy along `d` then reuses that load (a matmul's A along
/// n, B along m).
static bool hasLoadReusedAlong(const RegisterTileNest &nest, unsigned d) {
  affine::AffineParallelOp par = nest.par;
  affine::AffineForOp top = nest.chain.front();
  Value iv = par.getIVs()[d];
  bool found = false;
  top.walk([&](affine::AffineLoadOp load) {
    // The map may take every loop index as an operand and use only some
    // (convert-tile-to-affine's loads do): ask the map.
    AffineMap map = load.getAffineMap();
    bool uses = false;
    for (auto [i, operand] : llvm::enumerate(load.getMapOperands()))
      if (operand == iv)
        uses |= i < map.getNumDims()
                    ? map.isFunctionOfDim(i)
                    : map.isFunctionOfSymbol(i - map.getNumDims());
    if (!uses)
      found = true;
  });
  return found;
}

SmallVector<int64_t> mlir::plaidml::chooseRegisterTile(
    const RegisterTileNest &nest, int64_t maxFactor, int64_t minIterations,
    int64_t maxAccumulators, int64_t maxReductionLoops, std::string &why) {
  unsigned n = nest.ranges.size();
  SmallVector<int64_t> factors(n, 1);
  // Windowed reductions (a 3x3 convolution's kh, kw and channels) ran
  // slower with register tiles than with one output per invocation on the
  // H200 (docs/PerformanceGpu.md): they wait for workgroup-memory staging.
  int64_t loops = llvm::count_if(nest.chain, [](affine::AffineForOp loop) {
    return loop.getConstantUpperBound() - loop.getConstantLowerBound() >
           loop.getStepAsInt();
  });
  if (loops > maxReductionLoops) {
    why = std::to_string(loops) +
          " reduction loops of more than one "
          "iteration (a window): at most " +
          std::to_string(maxReductionLoops);
    return factors;
  }
  // Pooling and depthwise nests read one element per output along their
  // channels: blocking them only spreads their accesses, so both innermost
  // dimensions must qualify.
  for (unsigned k = 0; k < 2 && k < n; ++k) {
    if (!hasLoadReusedAlong(nest, n - 1 - k)) {
      why = "every load depends on dimension " + std::to_string(n - 1 - k) +
            ": a block would save no load";
      return factors;
    }
  }
  for (unsigned k = 0; k < 2 && k < n; ++k) {
    unsigned d = n - 1 - k;
    // At most an eighth of the range per copy, so a block does not turn a
    // short dimension into mostly wrapped duplicates.
    uint64_t cap = std::max<int64_t>(maxFactor, 1);
    uint64_t fit = nest.ranges[d] / 8 + 1;
    factors[d] = static_cast<int64_t>(
        std::min(llvm::bit_floor(cap), llvm::bit_floor(fit)));
  }
  affine::AffineForOp top = nest.chain.front();
  int64_t accumulators = top.getNumResults();
  auto iterations = [&] {
    int64_t total = 1;
    for (unsigned d = 0; d < n; ++d)
      total *= llvm::divideCeil(nest.ranges[d], factors[d]);
    return total;
  };
  auto copies = [&] {
    int64_t total = 1;
    for (int64_t f : factors)
      total *= f;
    return total;
  };
  while (copies() > 1 && (iterations() < minIterations ||
                          copies() * accumulators > maxAccumulators)) {
    // Halve the outer blocked dimension first: the innermost one keeps
    // adjacent invocations on adjacent elements of more copies.
    unsigned d = n >= 2 && factors[n - 2] >= factors[n - 1] ? n - 2 : n - 1;
    factors[d] /= 2;
  }
  if (copies() == 1)
    why = "too few iterations (" + std::to_string(iterations()) +
          ") to leave " + std::to_string(minIterations) + " after a block";
  return factors;
}

affine::AffineParallelOp
mlir::plaidml::applyRegisterTile(RegisterTileNest &nest,
                                 ArrayRef<int64_t> factors) {
  affine::AffineParallelOp par = nest.par;
  unsigned n = nest.ranges.size();
  MLIRContext *ctx = par.getContext();
  Location loc = par.getLoc();
  SmallVector<int64_t> newRanges;
  for (unsigned d = 0; d < n; ++d)
    newRanges.push_back(llvm::divideCeil(nest.ranges[d], factors[d]));
  // Copy r of dimension d uses b + r * stride: adjacent invocations still
  // read adjacent elements.
  ArrayRef<int64_t> strides = newRanges;

  OpBuilder builder(par);
  auto newPar = affine::AffineParallelOp::create(
      builder, loc, TypeRange{}, ArrayRef<arith::AtomicRMWKind>{}, newRanges);
  for (NamedAttribute attr : par->getDiscardableAttrs())
    if (attr.getName() != kGpuRegisterTileAttrName)
      newPar->setAttr(attr.getName(), attr.getValue());
  builder.setInsertionPoint(newPar.getBody()->getTerminator());

  // Whether copy index r of dimension d can leave the range unwrapped.
  auto wraps = [&](unsigned d, int64_t r) {
    return factors[d] != 1 && (r + 1) * strides[d] > nest.ranges[d];
  };

  // One mapping per copy (point of the block): the original indices become
  // b + r * stride, taken mod the range where the copy can leave it; the
  // guard keeps the unwrapped index in range.
  int64_t numCopies = 1;
  for (int64_t f : factors)
    numCopies *= f;
  SmallVector<IRMapping> maps(numCopies);
  SmallVector<IntegerSet> guards(numCopies);
  SmallVector<SmallVector<Value>> guardOperands(numCopies);
  AffineExpr b0 = getAffineDimExpr(0, ctx);
  for (int64_t c = 0; c < numCopies; ++c) {
    int64_t rest = c;
    SmallVector<AffineExpr> constraints;
    for (int d = n - 1; d >= 0; --d) {
      int64_t r = rest % factors[d];
      rest /= factors[d];
      Value iv = newPar.getIVs()[d];
      if (factors[d] == 1) {
        maps[c].map(par.getIVs()[d], iv);
        continue;
      }
      AffineExpr index = b0 + r * strides[d];
      Value mapped;
      if (!wraps(d, r)) {
        mapped = affine::AffineApplyOp::create(
            builder, loc, AffineMap::get(1, 0, index), ValueRange{iv});
      } else {
        // Wrapped into the range (mod N, a valid affine dimension where
        // min would not be): the copy computes a duplicate of another
        // output, and its stores are guarded off.
        mapped = affine::AffineApplyOp::create(
            builder, loc, AffineMap::get(1, 0, index % nest.ranges[d]),
            ValueRange{iv});
        unsigned pos = guardOperands[c].size();
        constraints.push_back(getAffineConstantExpr(nest.ranges[d] - 1, ctx) -
                              getAffineDimExpr(pos, ctx) - r * strides[d]);
        guardOperands[c].push_back(iv);
      }
      maps[c].map(par.getIVs()[d], mapped);
    }
    if (!constraints.empty())
      guards[c] = IntegerSet::get(guardOperands[c].size(), 0, constraints,
                                  SmallVector<bool>(constraints.size(), false));
  }

  // The jammed chain, level by level.
  std::function<ValueRange(OpBuilder &, unsigned, ArrayRef<Value>)> jam =
      [&](OpBuilder &b, unsigned level, ArrayRef<Value> inits) -> ValueRange {
    affine::AffineForOp orig = nest.chain[level];
    unsigned perCopy = orig.getNumResults();
    auto loop = affine::AffineForOp::create(
        b, loc, orig.getConstantLowerBound(), orig.getConstantUpperBound(),
        orig.getStepAsInt(), inits,
        [&](OpBuilder &nb, Location, Value iv, ValueRange args) {
          for (int64_t c = 0; c < numCopies; ++c) {
            maps[c].map(orig.getInductionVar(), iv);
            for (unsigned i = 0; i < perCopy; ++i)
              maps[c].map(orig.getRegionIterArgs()[i], args[c * perCopy + i]);
          }
          affine::AffineForOp inner =
              level + 1 < nest.chain.size() ? nest.chain[level + 1] : nullptr;
          for (Operation &op : orig.getBody()->without_terminator()) {
            if (inner && &op == inner.getOperation()) {
              SmallVector<Value> innerInits;
              for (int64_t c = 0; c < numCopies; ++c)
                for (Value init : inner.getInits())
                  innerInits.push_back(maps[c].lookupOrDefault(init));
              ValueRange results = jam(nb, level + 1, innerInits);
              unsigned innerPerCopy = inner.getNumResults();
              for (int64_t c = 0; c < numCopies; ++c)
                for (unsigned i = 0; i < innerPerCopy; ++i)
                  maps[c].map(inner.getResult(i),
                              results[c * innerPerCopy + i]);
              continue;
            }
            for (int64_t c = 0; c < numCopies; ++c)
              nb.clone(op, maps[c]);
          }
          SmallVector<Value> yields;
          auto yield =
              cast<affine::AffineYieldOp>(orig.getBody()->getTerminator());
          for (int64_t c = 0; c < numCopies; ++c)
            for (Value v : yield.getOperands())
              yields.push_back(maps[c].lookupOrDefault(v));
          affine::AffineYieldOp::create(nb, loc, yields);
        });
    return loop.getResults();
  };

  affine::AffineForOp top = nest.chain.front();
  bool afterTop = false;
  SmallVector<Operation *> post;
  for (Operation &op : par.getBody()->without_terminator()) {
    if (&op == top.getOperation()) {
      SmallVector<Value> inits;
      for (int64_t c = 0; c < numCopies; ++c)
        for (Value init : top.getInits())
          inits.push_back(maps[c].lookupOrDefault(init));
      ValueRange results = jam(builder, 0, inits);
      unsigned perCopy = top.getNumResults();
      for (int64_t c = 0; c < numCopies; ++c)
        for (unsigned i = 0; i < perCopy; ++i)
          maps[c].map(top.getResult(i), results[c * perCopy + i]);
      afterTop = true;
      continue;
    }
    if (afterTop) {
      post.push_back(&op);
      continue;
    }
    for (int64_t c = 0; c < numCopies; ++c)
      builder.clone(op, maps[c]);
  }

  // The code after the chain (the epilogue and the stores), once per copy,
  // guarded where the copy's unwrapped index can leave the range.
  for (int64_t c = 0; c < numCopies; ++c) {
    OpBuilder::InsertionGuard g(builder);
    if (guards[c]) {
      auto guard = affine::AffineIfOp::create(
          builder, loc, guards[c], guardOperands[c], /*withElseRegion=*/false);
      builder.setInsertionPoint(guard.getThenBlock()->getTerminator());
    }
    for (Operation *op : post)
      builder.clone(*op, maps[c]);
  }
  par.erase();
  return newPar;
}
