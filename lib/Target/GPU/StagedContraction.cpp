//===- StagedContraction.cpp - Workgroup-memory GEMM kernels --------------===//
//
// The analysis, the choice and the kernel behind plaidml.gpu.staged_tile.
// A reduction nest that sums products of two factors, where every parallel
// dimension is read by one factor, by both or by none, is a batch of matrix
// products C[b, m, n] = sum_k A[b, m, k] * B[b, n, k] whatever its memory
// layouts: M, N, K and the batch are the products of their dimensions, and
// each index is recovered from the linear one by division. A convolution is
// one too (its input is A, read at `x + i`: an implicit GEMM), its padding
// guard a condition on A alone.
//
// The kernel (docs/GpuKernels.md, "The SIMT contraction schedule"): each
// workgroup of 256 invocations computes a tm x tn block of C. Per step of tk
// along K it copies A's tm x tk and B's tk x tn tiles into workgroup memory
// (A transposed, rows padded by 4 elements against bank conflicts), waits,
// and each invocation accumulates its rm x rn outputs (strided by the
// number of invocations along each side, so that neighbours read
// neighbouring elements) from the staged tiles. The global loads of the
// next step are issued before the arithmetic of the current one and carried
// in registers. Edges: indices clamp into range (an address is always
// valid), reduction steps past K contribute 0, and only outputs in range
// are stored; the fused epilogue runs per output before its store. The
// cooperative-matrix kernel is CoopContraction.cpp; what both use of the
// builder is KernelBuilder.h.
//
//===----------------------------------------------------------------------===//

#include "StagedContraction.h"

#include "KernelBuilder.h"

#include "RegisterTile.h"

#include "plaidml/Dialect/PlaidML/IR/PlaidMLDialect.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::plaidml;
using namespace mlir::plaidml::detail;

IndexOf mlir::plaidml::detail::classifyIndex(const StagedNest &nest, Value v) {
  IndexOf result;
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg)
    return result;
  affine::AffineParallelOp par = nest.par;
  if (arg.getOwner() == par.getBody()) {
    result.parDim = arg.getArgNumber();
    return result;
  }
  for (auto [pos, loop] : llvm::enumerate(nest.chain))
    if (arg == affine::AffineForOp(loop).getInductionVar())
      result.chainPos = pos;
  return result;
}

/// Whether `v` can be used in the kernel as it is or through the index
/// mapping: an index of the nest, or a value defined outside it.
static bool isAvailable(const StagedNest &nest, Value v) {
  IndexOf index = classifyIndex(nest, v);
  if (index.parDim >= 0 || index.chainPos >= 0)
    return true;
  Operation *owner = isa<BlockArgument>(v)
                         ? cast<BlockArgument>(v).getOwner()->getParentOp()
                         : v.getDefiningOp();
  return !nest.par->isAncestor(owner);
}

/// The operands `op` depends on: those of an affine access or guard that its
/// map or set actually uses (convert-tile-to-affine passes every index of
/// the nest to each access), all of them otherwise.
static SmallVector<Value> usedOperands(Operation *op) {
  ArrayRef<AffineExpr> exprs;
  unsigned numDims = 0;
  ValueRange mapOperands;
  SmallVector<Value> used;
  if (auto load = dyn_cast<affine::AffineLoadOp>(op)) {
    used.push_back(load.getMemRef());
    exprs = load.getAffineMap().getResults();
    numDims = load.getAffineMap().getNumDims();
    mapOperands = load.getMapOperands();
  } else if (auto guard = dyn_cast<affine::AffineIfOp>(op)) {
    exprs = guard.getIntegerSet().getConstraints();
    numDims = guard.getIntegerSet().getNumDims();
    mapOperands = guard.getOperands();
  } else {
    return llvm::to_vector(op->getOperands());
  }
  for (auto [i, operand] : llvm::enumerate(mapOperands)) {
    unsigned pos = i;
    if (llvm::any_of(exprs, [&](AffineExpr e) {
          return pos < numDims ? e.isFunctionOfDim(pos)
                               : e.isFunctionOfSymbol(pos - numDims);
        }))
      used.push_back(operand);
  }
  return used;
}

/// The smallest and largest value of `expr` over the nest's loops, where
/// `operands` gives each dimension's index (a loop's induction variable);
/// none for expressions other than sums of constant multiples of indices.
static std::optional<std::pair<int64_t, int64_t>>
getExprRange(const StagedNest &nest, AffineExpr expr, ValueRange operands,
             unsigned numDims) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return std::pair{c.getValue(), c.getValue()};
  if (auto d = dyn_cast<AffineDimExpr>(expr)) {
    if (d.getPosition() >= numDims)
      return std::nullopt;
    IndexOf index = classifyIndex(nest, operands[d.getPosition()]);
    if (index.parDim >= 0)
      return std::pair<int64_t, int64_t>{0, nest.ranges[index.parDim] - 1};
    if (index.chainPos >= 0)
      return std::pair{nest.kLowerBounds[index.chainPos],
                       nest.kLowerBounds[index.chainPos] +
                           nest.kRanges[index.chainPos] - 1};
    return std::nullopt;
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return std::nullopt;
  auto lhs = getExprRange(nest, bin.getLHS(), operands, numDims);
  auto rhs = getExprRange(nest, bin.getRHS(), operands, numDims);
  if (!lhs || !rhs)
    return std::nullopt;
  if (expr.getKind() == AffineExprKind::Add)
    return std::pair{lhs->first + rhs->first, lhs->second + rhs->second};
  if (expr.getKind() == AffineExprKind::Mul && rhs->first == rhs->second) {
    int64_t c = rhs->first;
    return c >= 0 ? std::pair{lhs->first * c, lhs->second * c}
                  : std::pair{lhs->second * c, lhs->first * c};
  }
  return std::nullopt;
}

/// Whether every index of `load` stays within its buffer at every point of
/// the nest's loops.
static bool isInBoundsEverywhere(const StagedNest &nest,
                                 affine::AffineLoadOp load) {
  MemRefType type = load.getMemRefType();
  AffineMap map = load.getAffineMap();
  if (!type.hasStaticShape())
    return false;
  for (auto [expr, size] : llvm::zip_equal(map.getResults(), type.getShape())) {
    auto range =
        getExprRange(nest, expr, load.getMapOperands(), map.getNumDims());
    if (!range || range->first < 0 || range->second >= size)
      return false;
  }
  return true;
}

LogicalResult mlir::plaidml::analyzeStagedNest(affine::AffineParallelOp par,
                                               StagedNest &nest,
                                               std::string &why) {
  nest = StagedNest();
  nest.par = par;
  if (failed(getZeroBasedRanges(par, nest.ranges, why)))
    return failure();

  // The body: copyable ops, one reduction chain, copyable ops and one store.
  affine::AffineForOp top;
  affine::AffineStoreOp store;
  for (Operation &op : par.getBody()->without_terminator()) {
    if (auto loop = dyn_cast<affine::AffineForOp>(op)) {
      if (top) {
        why = "more than one reduction loop nest";
        return failure();
      }
      top = loop;
    } else if (auto s = dyn_cast<affine::AffineStoreOp>(op)) {
      if (!top || store) {
        why = top ? "more than one store after the reduction"
                  : "no reduction loop before the store";
        return failure();
      }
      store = s;
    } else if (!isCopyable(&op)) {
      why = "the body has regions or writes besides the reduction and its "
            "store";
      return failure();
    }
  }
  if (!top || !store) {
    why = "no reduction loop with one store";
    return failure();
  }

  // The chain: perfectly nested loops, one accumulator threaded through.
  for (affine::AffineForOp loop = top; loop;) {
    if (!loop.hasConstantBounds() || loop.getStepAsInt() != 1 ||
        loop.getNumIterOperands() != 1) {
      why = "a reduction loop is not one accumulator over constant bounds "
            "with unit step";
      return failure();
    }
    nest.chain.push_back(loop);
    nest.kLowerBounds.push_back(loop.getConstantLowerBound());
    nest.kRanges.push_back(loop.getConstantUpperBound() -
                           loop.getConstantLowerBound());
    if (nest.kRanges.back() < 1) {
      why = "a reduction loop runs no iteration";
      return failure();
    }
    Block *body = loop.getBody();
    auto inner = dyn_cast<affine::AffineForOp>(body->front());
    if (!inner) {
      loop = nullptr;
      continue;
    }
    if (body->getOperations().size() != 2 || inner.getNumResults() != 1 ||
        inner.getInits()[0] != loop.getRegionIterArgs()[0] ||
        body->getTerminator()->getOperand(0) != inner.getResult(0)) {
      why = "the reduction loops are not perfectly nested";
      return failure();
    }
    loop = inner;
  }

  // The innermost body: acc + a * b, possibly under a guard.
  affine::AffineForOp innermost = nest.chain.back();
  Value acc = innermost.getRegionIterArgs()[0];
  Block *compute = innermost.getBody();
  Value sum = compute->getTerminator()->getOperand(0);
  if (auto guard = sum.getDefiningOp<affine::AffineIfOp>()) {
    Block *otherwise =
        guard.hasElse() ? guard.getElseBlock() : static_cast<Block *>(nullptr);
    if (compute->getOperations().size() != 2 || guard.getNumResults() != 1 ||
        !otherwise || otherwise->getOperations().size() != 1 ||
        otherwise->getTerminator()->getOperand(0) != acc) {
      why = "the innermost body is not a guarded accumulation";
      return failure();
    }
    nest.guard = guard;
    compute = guard.getThenBlock();
    sum = compute->getTerminator()->getOperand(0);
  }
  auto add = sum.getDefiningOp<arith::AddFOp>();
  Value product;
  if (add && add->getBlock() == compute)
    product = add.getLhs() == acc   ? add.getRhs()
              : add.getRhs() == acc ? add.getLhs()
                                    : Value();
  auto mul = product ? product.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!mul || mul->getBlock() != compute || !mul->hasOneUse()) {
    why = "the reduction is not a floating-point sum of products";
    return failure();
  }
  nest.add = add;
  nest.mul = mul;

  // Each op of the body computes one factor.
  DenseMap<Operation *, int> side;
  for (int s = 0; s < 2; ++s) {
    SmallVector<Value> worklist{mul->getOperand(s)};
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      Operation *def = v.getDefiningOp();
      if (!def || def->getBlock() != compute)
        continue;
      auto [it, inserted] = side.try_emplace(def, s);
      if (!inserted && it->second != s) {
        why = "an op feeds both factors";
        return failure();
      }
      if (inserted)
        llvm::append_range(worklist, def->getOperands());
    }
  }
  std::array<llvm::SmallDenseSet<unsigned>, 2> parDims;
  for (Operation &op : compute->without_terminator()) {
    if (&op == mul || &op == add)
      continue;
    auto it = side.find(&op);
    if (it == side.end() || !isCopyable(&op)) {
      why = "the innermost body computes more than the product";
      return failure();
    }
    (it->second == 0 ? nest.sliceA : nest.sliceB).push_back(&op);
    for (Value operand : usedOperands(&op)) {
      if (operand.getDefiningOp() &&
          operand.getDefiningOp()->getBlock() == compute)
        continue;
      if (!isAvailable(nest, operand)) {
        why = "a factor reads a value the loops carry";
        return failure();
      }
      if (int64_t d = classifyIndex(nest, operand).parDim; d >= 0)
        parDims[it->second].insert(d);
    }
    if (auto load = dyn_cast<affine::AffineLoadOp>(op);
        load && load.getMemRef() == store.getMemRef()) {
      why = "a factor reads the buffer the nest writes";
      return failure();
    }
  }
  for (int s = 0; s < 2; ++s)
    if (Value x = mul->getOperand(s);
        !(x.getDefiningOp() && x.getDefiningOp()->getBlock() == compute) &&
        !isAvailable(nest, x)) {
      why = "a factor is a value the loops carry";
      return failure();
    }

  for (unsigned d = 0, e = par.getNumDims(); d < e; ++d) {
    bool a = parDims[0].contains(d), b = parDims[1].contains(d);
    if (a && !b)
      nest.mDims.push_back(d);
    else if (b && !a)
      nest.nDims.push_back(d);
    else
      nest.batchDims.push_back(d);
  }
  if (nest.nDims.empty() && !nest.mDims.empty()) {
    // Only the first operand has dimensions of its own (a matrix times a
    // vector): it is the second factor, its dimensions N.
    std::swap(nest.mDims, nest.nDims);
    std::swap(nest.sliceA, nest.sliceB);
    nest.aOperand = 1;
  }
  if (nest.nDims.empty()) {
    why = "not a matrix product: no dimension is read by one factor only";
    return failure();
  }
  if (nest.guard) {
    for (Value operand : usedOperands(nest.guard)) {
      IndexOf index = classifyIndex(nest, operand);
      if ((index.parDim < 0 && index.chainPos < 0) ||
          llvm::is_contained(nest.nDims, index.parDim)) {
        why = "the reduction's guard depends on more than the first "
              "factor's indices";
        return failure();
      }
    }
    // The guard only decides whether the first factor is read: the second
    // one's loads must be in bounds at every point of the loops.
    for (Operation *op : nest.sliceB)
      if (auto load = dyn_cast<affine::AffineLoadOp>(op);
          load && !isInBoundsEverywhere(nest, load)) {
        why = "the reduction's guard may protect the second factor's loads";
        return failure();
      }
  }

  for (unsigned d : nest.mDims)
    nest.m *= nest.ranges[d];
  for (unsigned d : nest.nDims)
    nest.n *= nest.ranges[d];
  for (unsigned d : nest.batchDims)
    nest.batch *= nest.ranges[d];
  for (int64_t r : nest.kRanges)
    nest.k *= r;

  // Whether the innermost memory index of a factor's first load follows a
  // reduction index.
  auto alongK = [&](ArrayRef<Operation *> slice) {
    for (Operation *op : slice) {
      auto load = dyn_cast<affine::AffineLoadOp>(op);
      if (!load)
        continue;
      AffineMap map = load.getAffineMap();
      if (map.getNumResults() == 0)
        return false;
      AffineExpr last = map.getResults().back();
      for (auto [pos, operand] : llvm::enumerate(load.getMapOperands()))
        if (pos < map.getNumDims() && last.isFunctionOfDim(pos) &&
            classifyIndex(nest, operand).chainPos >= 0)
          return true;
      return false;
    }
    return false;
  };
  nest.aAlongK = alongK(nest.sliceA);
  nest.bAlongK = alongK(nest.sliceB);

  // f16 factors extended to f32 for an f32 sum: what cooperative matrices
  // multiply.
  auto halfOf = [&](Value factor) -> Value {
    auto ext = factor.getDefiningOp<arith::ExtFOp>();
    if (!ext || ext->getBlock() != compute || !ext.getIn().getType().isF16() ||
        !ext.getType().isF32() || !add.getType().isF32())
      return Value();
    return ext.getIn();
  };
  nest.halfFactor[0] = halfOf(mul->getOperand(nest.aOperand));
  nest.halfFactor[1] = halfOf(mul->getOperand(1 - nest.aOperand));
  return success();
}

bool mlir::plaidml::isValidStagedTile(const StagedTile &tile,
                                      std::string &why) {
  if (tile.tm < 1 || tile.tn < 1 || tile.tk < 1 || tile.rm < 1 || tile.rn < 1 ||
      tile.tm % tile.rm || tile.tn % tile.rn) {
    why = "the tile must be positive and divisible by the invocation block";
    return false;
  }
  if (tile.invocations() != kInvocations ||
      (tile.tm * tile.tk) % kInvocations ||
      (tile.tn * tile.tk) % kInvocations) {
    why = "the tile must have 256 invocations, each copying whole shares of "
          "both staged tiles";
    return false;
  }
  return true;
}

/// Whether `nest` can take a 256-invocation tile of at least `smallest` x
/// `smallest` outputs (`why` says why not).
bool mlir::plaidml::detail::fitsWorkgroupTiles(const StagedNest &nest,
                                               int64_t maxWorkgroupSize,
                                               int64_t smallest,
                                               std::string &why) {
  if (maxWorkgroupSize < kInvocations) {
    why = "the device's workgroups hold fewer than 256 invocations";
    return false;
  }
  if (nest.m < 16 || nest.n < 16) {
    why = "M or N is below 16";
    return false;
  }
  // 65535 workgroups per dimension is all Vulkan guarantees.
  if (nest.batch > 65535 || llvm::divideCeil(nest.m, smallest) > 65535 ||
      llvm::divideCeil(nest.n, smallest) > 65535) {
    why = "the grid would exceed 65535 workgroups along a dimension";
    return false;
  }
  return true;
}

/// The workgroups of `nest` with tm x tn tiles.
int64_t mlir::plaidml::detail::countWorkgroups(const StagedNest &nest,
                                               int64_t tm, int64_t tn) {
  return llvm::divideCeil(nest.m, tm) * llvm::divideCeil(nest.n, tn) *
         nest.batch;
}

std::optional<StagedTile>
mlir::plaidml::chooseStagedTile(const StagedNest &nest,
                                int64_t maxWorkgroupSize, int64_t minWorkgroups,
                                std::string &why) {
  if (!fitsWorkgroupTiles(nest, maxWorkgroupSize, 32, why))
    return std::nullopt;
  // The largest tile that leaves enough workgroups: minWorkgroups for
  // 128x128, half as many for 64x64, else 32x32; a narrow N (a convolution
  // with 32 or 64 output channels) gets 128 x 32 or 128 x 64 instead of
  // computing columns it never stores.
  auto groups2 = [&](int64_t tm, int64_t tn) {
    return countWorkgroups(nest, tm, tn);
  };
  int64_t narrow = nest.n <= 32 ? 32 : 64;
  if (nest.n <= 64 && groups2(128, narrow) >= minWorkgroups)
    return StagedTile{128, narrow, 16, 8, narrow / 16};
  auto groups = [&](int64_t t) { return groups2(t, t); };
  // Steps of 16 along a long K (K = 4096: 4.03 -> 3.61 ms on the H200),
  // of 8 along a short one (a 1x1 convolution with K = 64: 0.21 -> 0.27 ms
  // with 16). A grid 90 % full still takes 128x128 (2048^3: 256 of 264
  // workgroups, 0.63 -> 0.49 ms against 64x64).
  if (groups(128) * 10 >= minWorkgroups * 9)
    return StagedTile{128, 128, nest.k >= 1024 ? 16 : 8, 8, 8};
  if (groups(64) >= minWorkgroups / 2)
    return StagedTile{64, 64, 16, 4, 4};
  return StagedTile{32, 32, 16, 2, 2};
}

bool mlir::plaidml::isValidSplitKTile(const SplitKTile &tile,
                                      std::string &why) {
  if (tile.tn < 1 || tile.splits < 1 || tile.tn * tile.splits != kInvocations) {
    why = "outputs x splits must be 256 invocations";
    return false;
  }
  return true;
}

std::optional<SplitKTile>
mlir::plaidml::chooseSplitKTile(const StagedNest &nest,
                                int64_t maxWorkgroupSize, std::string &why) {
  if (maxWorkgroupSize < kInvocations) {
    why = "the device's workgroups hold fewer than 256 invocations";
    return std::nullopt;
  }
  if (nest.m >= 16) {
    why = "M is 16 or more";
    return std::nullopt;
  }
  if (nest.k < 256) {
    why = "K is below 256, too short to split";
    return std::nullopt;
  }
  SplitKTile tile{8, 32};
  if (nest.batch > 65535 || llvm::divideCeil(nest.n, tile.tn) > 65535) {
    why = "the grid would exceed 65535 workgroups along a dimension";
    return std::nullopt;
  }
  return tile;
}

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

SmallVector<Value> KernelBuilder::delinearize(Value v,
                                              ArrayRef<int64_t> ranges) {
  SmallVector<Value> out(ranges.size());
  for (int64_t i = static_cast<int64_t>(ranges.size()) - 1; i >= 0; --i) {
    if (ranges[i] == 1) {
      out[i] = index(0);
      continue;
    }
    int64_t outer = 1;
    for (int64_t j = 0; j < i; ++j)
      outer *= ranges[j];
    if (outer == 1) {
      // Every dimension outside this one has range 1.
      out[i] = v;
      for (int64_t j = 0; j < i; ++j)
        out[j] = index(0);
      break;
    }
    out[i] = arith::RemUIOp::create(b, loc, v, index(ranges[i]));
    v = arith::DivUIOp::create(b, loc, v, index(ranges[i]));
  }
  return out;
}

void KernelBuilder::mapDims(IRMapping &mapping, ArrayRef<unsigned> dims,
                            Value v) {
  SmallVector<int64_t> ranges;
  for (unsigned d : dims)
    ranges.push_back(nest.ranges[d]);
  for (auto [d, iv] : llvm::zip_equal(dims, delinearize(v, ranges)))
    mapping.map(nest.par.getIVs()[d], iv);
}

void KernelBuilder::mapBatch(IRMapping &mapping) {
  SmallVector<int64_t> ranges;
  for (unsigned d : nest.batchDims)
    ranges.push_back(nest.ranges[d]);
  for (auto [d, iv] :
       llvm::zip_equal(nest.batchDims, delinearize(batchIndex, ranges)))
    mapping.map(nest.par.getIVs()[d], iv);
}

void KernelBuilder::mapChain(IRMapping &mapping, Value k) {
  for (auto [loop, lb, iv] : llvm::zip_equal(nest.chain, nest.kLowerBounds,
                                             delinearize(k, nest.kRanges)))
    mapping.map(loop.getInductionVar(), add(iv, lb));
}

void KernelBuilder::cloneConverted(Operation *op, IRMapping &mapping) {
  auto operands = [&](ValueRange values) {
    return llvm::map_to_vector(
        values, [&](Value v) { return mapping.lookupOrDefault(v); });
  };
  if (auto load = dyn_cast<affine::AffineLoadOp>(op)) {
    auto indices = affine::expandAffineMap(b, loc, load.getAffineMap(),
                                           operands(load.getMapOperands()));
    mapping.map(load.getResult(),
                memref::LoadOp::create(b, loc, load.getMemRef(), *indices));
    return;
  }
  if (auto store = dyn_cast<affine::AffineStoreOp>(op)) {
    auto indices = affine::expandAffineMap(b, loc, store.getAffineMap(),
                                           operands(store.getMapOperands()));
    memref::StoreOp::create(b, loc,
                            mapping.lookupOrDefault(store.getValueToStore()),
                            store.getMemRef(), *indices);
    return;
  }
  if (auto apply = dyn_cast<affine::AffineApplyOp>(op)) {
    auto values = affine::expandAffineMap(b, loc, apply.getAffineMap(),
                                          operands(apply.getMapOperands()));
    mapping.map(apply.getResult(), (*values)[0]);
    return;
  }
  b.clone(*op, mapping);
}

Value KernelBuilder::factorAt(int side, Value mn, Value k, bool guardK,
                              bool clampK) {
  IRMapping mapping;
  mapDims(mapping, side == 0 ? nest.mDims : nest.nDims, mn);
  mapBatch(mapping);
  Value kIn = guardK ? lessThan(k, nest.k) : Value();
  mapChain(mapping, clampK ? clampBelow(k, nest.k) : k);
  ArrayRef<Operation *> slice = side == 0 ? nest.sliceA : nest.sliceB;
  Value factor = half ? nest.halfFactor[side]
                      : nest.mul->getOperand(side == 0 ? nest.aOperand
                                                       : 1 - nest.aOperand);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elementType));

  if (side != 0 || !nest.guard) {
    for (Operation *op : slice)
      cloneConverted(op, mapping);
    Value v = mapping.lookupOrDefault(factor);
    return kIn ? arith::SelectOp::create(b, loc, kIn, v, zero) : v;
  }
  // The guard decides whether the element exists at all (a padded
  // window): load it only then.
  IntegerSet set = nest.guard.getIntegerSet();
  SmallVector<Value> dims, syms;
  for (auto [i, operand] : llvm::enumerate(nest.guard.getOperands()))
    (i < set.getNumDims() ? dims : syms)
        .push_back(mapping.lookupOrDefault(operand));
  Value cond = kIn;
  for (auto [expr, isEq] :
       llvm::zip_equal(set.getConstraints(), set.getEqFlags())) {
    Value v = affine::expandAffineExpr(b, loc, expr, dims, syms);
    Value holds = arith::CmpIOp::create(
        b, loc, isEq ? arith::CmpIPredicate::eq : arith::CmpIPredicate::sge, v,
        index(0));
    cond = cond ? arith::AndIOp::create(b, loc, cond, holds) : holds;
  }
  if (!cond)
    cond = arith::ConstantIntOp::create(b, loc, 1, 1);
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{elementType}, cond,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    for (Operation *op : slice)
      cloneConverted(op, mapping);
    scf::YieldOp::create(b, loc, mapping.lookupOrDefault(factor));
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, loc, zero);
  }
  return ifOp.getResult(0);
}

std::pair<Value, Value> KernelBuilder::shareGroup(int side, int64_t i) {
  int64_t groups = (side == 0 ? tile.tm : tile.tn) / width;
  bool alongK = side == 0 ? nest.aAlongK : nest.bAlongK;
  // Invocation t copies groups t + 256 i: consecutive invocations read
  // consecutive addresses along the factor's innermost index.
  Value linear = add(tid, i * kInvocations);
  if (alongK)
    return {arith::DivUIOp::create(b, loc, linear, index(tile.tk)),
            arith::RemUIOp::create(b, loc, linear, index(tile.tk))};
  return {arith::RemUIOp::create(b, loc, linear, index(groups)),
          arith::DivUIOp::create(b, loc, linear, index(groups))};
}

std::pair<Value, Value> KernelBuilder::transposedBlock(int side) {
  // tid = (high group, chunk, low group), the low group fastest over
  // kChunk groups: the 8 invocations of each 128-bit store phase then
  // write 8 different banks of the staged rows (33 vectors long), and a
  // subgroup's loads of one row are whole runs of 64 or 128 bytes.
  int64_t c = kChunk[side], perRow = tile.tk / c;
  Value low = arith::RemUIOp::create(b, loc, tid, index(c));
  Value rest = arith::DivUIOp::create(b, loc, tid, index(c));
  Value chunk = arith::RemUIOp::create(b, loc, rest, index(perRow));
  Value high = arith::DivUIOp::create(b, loc, rest, index(perRow));
  return {add(mulc(high, c), low), chunk};
}

SmallVector<Value> KernelBuilder::loadShare(int side, Value k0, bool guardK) {
  int64_t rows = side == 0 ? tile.tm : tile.tn;
  int64_t total = side == 0 ? nest.m : nest.n;
  Value base = side == 0 ? tileM0 : tileN0;
  SmallVector<Value> values;
  if (int64_t c = kChunk[side]; c > 1) {
    // `width` rows of c elements adjacent along K, one vector load each
    // (the next step past K: the last chunk again, unused).
    auto [group, chunk] = transposedBlock(side);
    Value first = add(base, mulc(group, width));
    Value k = clampBelow(add(k0, mulc(chunk, c)), nest.k);
    for (int64_t r = 0; r < width; ++r)
      values.push_back(memref::LoadOp::create(
          b, loc, wideMem[side],
          wideIndices(wideLoad[side], side, add(first, r), k, c)));
    return values;
  }
  for (int64_t i = 0, e = rows * tile.tk / (width * kInvocations); i < e; ++i) {
    auto [group, step] = shareGroup(side, i);
    Value first = add(base, mulc(group, width));
    if (wideMem[side]) {
      // One vector of the group's `width` elements, adjacent in memory
      // (steps past K: the last one again, unused).
      values.push_back(memref::LoadOp::create(
          b, loc, wideMem[side],
          wideIndices(wideLoad[side], side, first,
                      clampBelow(add(k0, step), nest.k), width)));
      continue;
    }
    for (int64_t r = 0; r < width; ++r)
      values.push_back(factorAt(side, clampBelow(add(first, r), total),
                                add(k0, step), guardK));
  }
  return values;
}

void KernelBuilder::storeShare(int side, ValueRange values) {
  if (int64_t c = kChunk[side]; c > 1) {
    // Transposed in registers: step j of the chunk is one vector of the
    // group's `width` rows.
    auto [group, chunk] = transposedBlock(side);
    for (int64_t j = 0; j < c; ++j) {
      SmallVector<Value> column = llvm::map_to_vector(values, [&](Value v) {
        return Value(
            vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{j}));
      });
      Value v = vector::FromElementsOp::create(
          b, loc, VectorType::get({width}, elementType), column);
      memref::StoreOp::create(b, loc, v, staged[side],
                              ValueRange{add(mulc(chunk, c), j), group});
    }
    return;
  }
  int64_t perGroup = wideMem[side] ? 1 : width;
  for (int64_t i = 0, e = values.size() / perGroup; i < e; ++i) {
    auto [group, step] = shareGroup(side, i);
    ValueRange elements = values.slice(i * perGroup, perGroup);
    Value v = perGroup == 1 ? elements.front()
                            : vector::FromElementsOp::create(
                                  b, loc, VectorType::get({width}, elementType),
                                  elements);
    memref::StoreOp::create(b, loc, v, staged[side], ValueRange{step, group});
  }
}

gpu::LaunchOp KernelBuilder::createLaunch(int64_t gridX, int64_t gridY,
                                          int64_t threads) {
  auto launch = gpu::LaunchOp::create(b, loc, index(gridX), index(gridY),
                                      index(nest.batch), index(threads),
                                      index(1), index(1));
  Block &body = launch.getBody().front();
  b.setInsertionPointToStart(&body);
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(&body);
  tid = launch.getThreadIds().x;
  batchIndex = launch.getBlockIds().z;
  elementType = nest.mul->getResult(0).getType();
  return launch;
}

void KernelBuilder::emitOutput(Value m, Value n, Value acc) {
  affine::AffineParallelOp par = nest.par;
  affine::AffineForOp top = nest.chain.front();
  IRMapping mapping;
  mapDims(mapping, nest.mDims, m);
  mapDims(mapping, nest.nDims, n);
  mapBatch(mapping);
  for (Operation &op : par.getBody()->without_terminator()) {
    if (&op != top.getOperation()) {
      cloneConverted(&op, mapping);
      continue;
    }
    Value init = mapping.lookupOrDefault(top.getInits()[0]);
    mapping.map(top.getResult(0), arith::AddFOp::create(b, loc, init, acc));
  }
}

void KernelBuilder::emitGuardedOutput(Value m, Value n, int64_t tm, int64_t tn,
                                      Value acc) {
  OpBuilder::InsertionGuard g(b);
  Value cond;
  if (nest.m % tm)
    cond = lessThan(m, nest.m);
  if (nest.n % tn) {
    Value inN = lessThan(n, nest.n);
    cond = cond ? arith::AndIOp::create(b, loc, cond, inN) : inN;
  }
  if (cond) {
    auto guard = scf::IfOp::create(b, loc, cond, /*withElse=*/false);
    b.setInsertionPointToStart(guard.thenBlock());
  }
  emitOutput(m, n, acc);
}

void KernelBuilder::buildStaged(const StagedTile &chosen) {
  tile = chosen;
  Type accType = nest.add->getResult(0).getType();
  // The factors' type (createLaunch records it as elementType).
  Type factorType = nest.mul->getResult(0).getType();
  // Groups of 4 rows per staged element when every invocation's rows come
  // in whole groups and its copies in whole vectors.
  auto wholeGroups = [&](int64_t rows) {
    return (rows * tile.tk) % (4 * kInvocations) == 0;
  };
  // NVIDIA's OpenCL, with the products as fused multiply-adds, ran the
  // vector tiles 28-34 % faster than scalar ones for 2048^3-4096^3 and
  // 13-27 % for 3x3 convolutions (K = 576), but 20 % slower for a 1x1
  // convolution with K = 64 (docs/PerformanceGpu.md, 2026-12-05): OpenCL
  // targets keep scalar tiles for short reductions.
  bool shortOpenCL =
      getTargetOrDefault(nest.par).getDevice() == DeviceKind::opencl &&
      nest.k < 256;
  width = tile.rm % 4 == 0 && tile.rn % 4 == 0 && wholeGroups(tile.tm) &&
                  wholeGroups(tile.tn) && factorType.isF32() && !shortOpenCL
              ? 4
              : 1;
  // Where the staged elements are vectors of 4 and a factor's
  // memory follows M (N) (a row-major B, a transposed A), each group of 4
  // rows is one 128-bit load through a view of the buffer (the H200: 2048^3
  // 0.50 -> 0.48 ms, 4096^3 3.65 -> 3.60 ms, docs/PerformanceGpu.md). Where
  // it follows K (a row-major A) and each invocation copies 4 rows of 2 or
  // 4 steps, each row's steps are one 64- or 128-bit load, transposed in
  // registers into 2 or 4 staged vectors of 4 rows (the H200: 4096^3 3.59
  // -> 3.40 ms, 2048^3 0.489 -> 0.454 ms with 128x128x16 tiles).
  if (width == 4)
    for (int side = 0; side < 2; ++side) {
      Value factor =
          nest.mul->getOperand(side == 0 ? nest.aOperand : 1 - nest.aOperand);
      int64_t rows = side == 0 ? tile.tm : tile.tn;
      if (!(side == 0 ? nest.aAlongK : nest.bAlongK)) {
        if (affine::AffineLoadOp load =
                canStageWide(factor, side, rows, tile.tk, 4))
          viewWide(load, side, 4, VectorType::get({4}, factorType));
        continue;
      }
      int64_t c = rows * tile.tk / (4 * kInvocations);
      if ((c != 2 && c != 4) || tile.tk % c || (rows / 4) % c)
        continue;
      if (affine::AffineLoadOp load =
              canStageWide(factor, side, rows, tile.tk, c)) {
        viewWide(load, side, c, VectorType::get({c}, factorType));
        kChunk[side] = c;
      }
    }
  auto launch = createLaunch(llvm::divideCeil(nest.n, tile.tn),
                             llvm::divideCeil(nest.m, tile.tm));

  auto memSpace = b.getI64IntegerAttr(kWorkgroupMemorySpace);
  Type stagedType =
      width == 1 ? elementType : Type(VectorType::get({width}, elementType));
  for (int side = 0; side < 2; ++side)
    staged[side] = memref::AllocOp::create(
        b, loc,
        MemRefType::get({tile.tk, (side == 0 ? tile.tm : tile.tn) / width +
                                      kRowPadding / width},
                        stagedType, MemRefLayoutAttrInterface(), memSpace));

  int64_t threadsN = tile.tn / tile.rn;
  Value tx = arith::RemUIOp::create(b, loc, tid, index(threadsN));
  Value ty = arith::DivUIOp::create(b, loc, tid, index(threadsN));
  tileN0 = mulc(launch.getBlockIds().x, tile.tn);
  tileM0 = mulc(launch.getBlockIds().y, tile.tm);
  int64_t threadsM = tile.tm / tile.rm;

  // The first step's loads, then the loop over steps.
  bool guardK = nest.k % tile.tk != 0;
  SmallVector<Value> inits;
  Value accZero = arith::ConstantOp::create(b, loc, b.getZeroAttr(accType));
  inits.append(tile.rm * tile.rn, accZero);
  SmallVector<Value> firstA = loadShare(0, index(0), guardK);
  SmallVector<Value> firstB = loadShare(1, index(0), guardK);
  size_t numA = firstA.size(), numB = firstB.size();
  llvm::append_range(inits, firstA);
  llvm::append_range(inits, firstB);
  int64_t steps = llvm::divideCeil(nest.k, tile.tk);
  auto loop = scf::ForOp::create(b, loc, index(0), index(steps * tile.tk),
                                 index(tile.tk), inits);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    ValueRange args = loop.getRegionIterArgs();
    storeShare(0, args.slice(tile.rm * tile.rn, numA));
    storeShare(1, args.slice(tile.rm * tile.rn + numA, numB));
    gpu::BarrierOp::create(b, loc);
    // The next step's loads (past the end: clamped addresses, unused).
    Value next = add(loop.getInductionVar(), tile.tk);
    SmallVector<Value> nextA = loadShare(0, next, guardK);
    SmallVector<Value> nextB = loadShare(1, next, guardK);
    SmallVector<Value> accs(args.take_front(tile.rm * tile.rn));
    // Row i of an invocation's block is staged row
    // width * (ty + threadsM * (i / width)) + i % width.
    auto readRows = [&](int side, int64_t kk, Value t, int64_t threads,
                        int64_t count) {
      SmallVector<Value> values;
      for (int64_t h = 0; h < count / width; ++h) {
        Value v = memref::LoadOp::create(
            b, loc, staged[side], ValueRange{index(kk), add(t, h * threads)});
        for (int64_t r = 0; r < width; ++r)
          values.push_back(width == 1 ? v
                                      : vector::ExtractOp::create(
                                            b, loc, v, ArrayRef<int64_t>{r}));
      }
      return values;
    };
    for (int64_t kk = 0; kk < tile.tk; ++kk) {
      SmallVector<Value> a = readRows(0, kk, ty, threadsM, tile.rm);
      SmallVector<Value> bv = readRows(1, kk, tx, threadsN, tile.rn);
      for (int64_t i = 0; i < tile.rm; ++i)
        for (int64_t j = 0; j < tile.rn; ++j) {
          Value &acc = accs[i * tile.rn + j];
          acc = multiplyAdd(acc, a[i], bv[j]);
        }
    }
    gpu::BarrierOp::create(b, loc);
    SmallVector<Value> yielded(accs);
    llvm::append_range(yielded, nextA);
    llvm::append_range(yielded, nextB);
    scf::YieldOp::create(b, loc, yielded);
  }

  // Per output: in range, the epilogue and the store.
  for (int64_t i = 0; i < tile.rm; ++i)
    for (int64_t j = 0; j < tile.rn; ++j) {
      OpBuilder::InsertionGuard g(b);
      Value m = add(add(tileM0, mulc(add(ty, (i / width) * threadsM), width)),
                    i % width);
      Value n = add(add(tileN0, mulc(add(tx, (j / width) * threadsN), width)),
                    j % width);
      emitGuardedOutput(m, n, tile.tm, tile.tn,
                        loop.getResult(i * tile.rn + j));
    }
  nest.par.erase();
}

void KernelBuilder::buildSplitK(const SplitKTile &split) {
  Type accType = nest.add->getResult(0).getType();
  auto launch = createLaunch(llvm::divideCeil(nest.n, split.tn), nest.m);
  Value partial = memref::AllocOp::create(
      b, loc,
      MemRefType::get({split.splits, split.tn}, accType,
                      MemRefLayoutAttrInterface(),
                      b.getI64IntegerAttr(kWorkgroupMemorySpace)));
  // Neighbouring invocations read neighbouring addresses of the second
  // factor: along K when its memory follows K, else along N (8 outputs:
  // 32-byte sectors of 4 rows per warp).
  Value nn, s;
  if (nest.bAlongK) {
    s = arith::RemUIOp::create(b, loc, tid, index(split.splits));
    nn = arith::DivUIOp::create(b, loc, tid, index(split.splits));
  } else {
    nn = arith::RemUIOp::create(b, loc, tid, index(split.tn));
    s = arith::DivUIOp::create(b, loc, tid, index(split.tn));
  }
  Value m = launch.getBlockIds().y;
  Value n = add(mulc(launch.getBlockIds().x, split.tn), nn);
  Value nClamped = clampBelow(n, nest.n);
  // kUnroll independent products per iteration, each with its own
  // accumulator: as many loads in flight per invocation (memory-bound).
  constexpr int64_t kUnroll = 4;
  int64_t stride = split.splits * kUnroll;
  bool guardK = nest.k % stride != 0;
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(accType));
  auto loop = scf::ForOp::create(b, loc, s, index(nest.k), index(stride),
                                 SmallVector<Value>(kUnroll, zero));
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> next;
    for (int64_t u = 0; u < kUnroll; ++u) {
      Value k = add(loop.getInductionVar(), u * split.splits);
      Value x = factorAt(0, m, k, guardK);
      Value y = factorAt(1, nClamped, k, guardK);
      next.push_back(multiplyAdd(loop.getRegionIterArgs()[u], x, y));
    }
    scf::YieldOp::create(b, loc, next);
  }
  Value sum = loop.getResult(0);
  for (int64_t u = 1; u < kUnroll; ++u)
    sum = arith::AddFOp::create(b, loc, sum, loop.getResult(u));
  memref::StoreOp::create(b, loc, sum, partial, ValueRange{s, nn});
  gpu::BarrierOp::create(b, loc);
  // The first split of each output adds the partial sums in order.
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, s, index(0));
  Value cond = nest.n % split.tn
                   ? arith::AndIOp::create(b, loc, first, lessThan(n, nest.n))
                   : first;
  auto guard = scf::IfOp::create(b, loc, cond, /*withElse=*/false);
  b.setInsertionPointToStart(guard.thenBlock());
  Value total =
      memref::LoadOp::create(b, loc, partial, ValueRange{index(0), nn});
  for (int64_t j = 1; j < split.splits; ++j)
    total = arith::AddFOp::create(
        b, loc, total,
        memref::LoadOp::create(b, loc, partial, ValueRange{index(j), nn}));
  emitOutput(m, n, total);
  nest.par.erase();
}

affine::AffineLoadOp KernelBuilder::canStageWide(Value factor, int side,
                                                 int64_t rows, int64_t tk,
                                                 int64_t chunk) {
  return wideFactorLoad(nest, factor, side, rows, tk, chunk);
}

affine::AffineLoadOp
mlir::plaidml::detail::wideFactorLoad(const StagedNest &nest, Value factor,
                                      int side, int64_t rows, int64_t tk,
                                      int64_t chunk) {
  auto load = factor.getDefiningOp<affine::AffineLoadOp>();
  if (!load || (side == 0 && nest.guard))
    return {};
  MemRefType type = load.getMemRefType();
  AffineMap map = load.getAffineMap();
  if (!type.getLayout().isIdentity() || !type.hasStaticShape() ||
      type.getMemorySpace() || type.getRank() == 0 ||
      type.getShape().back() % chunk || map.getNumSymbols() ||
      !llvm::all_of(map.getResults(), llvm::IsaPred<AffineDimExpr>))
    return {};
  // Whole tiles and steps: every chunk lies inside the buffer, no clamps.
  if ((side == 0 ? nest.m : nest.n) % rows || nest.k % tk)
    return {};
  bool alongK = side == 0 ? nest.aAlongK : nest.bAlongK;
  ArrayRef<unsigned> dims = side == 0 ? nest.mDims : nest.nDims;
  ValueRange operands = load.getMapOperands();
  auto operandOf = [&](AffineExpr e) {
    return operands[cast<AffineDimExpr>(e).getPosition()];
  };
  Value chunkIndex = operandOf(map.getResults().back());
  IndexOf of = classifyIndex(nest, chunkIndex);
  if (alongK ? nest.chain.size() != 1 || of.chainPos != 0 ||
                   nest.kLowerBounds[0] % chunk
             : dims.size() != 1 || of.parDim != static_cast<int64_t>(dims[0]))
    return {};
  // Every other index is one the kernel maps (the factor's own parallel
  // dimensions, the batch, the reduction chain) or a value from outside
  // the nest, and none is the chunks' index: B[k, n, n] (a diagonal) reads
  // one element per n, not 4 adjacent ones.
  for (AffineExpr e : map.getResults().drop_back()) {
    Value v = operandOf(e);
    if (v == chunkIndex)
      return {};
    IndexOf other = classifyIndex(nest, v);
    bool mapped = other.chainPos >= 0 ||
                  (other.parDim >= 0 &&
                   (llvm::is_contained(dims, other.parDim) ||
                    llvm::is_contained(nest.batchDims, other.parDim)));
    if (!mapped && nest.par->isAncestor(v.getParentRegion()->getParentOp()))
      return {};
  }
  return load;
}

Value KernelBuilder::multiplyAdd(Value acc, Value x, Value y) {
  Type t = acc.getType();
  if ((t.isF32() || t.isF64()) && x.getType() == t && y.getType() == t)
    return math::FmaOp::create(b, loc, x, y, acc);
  Value p = arith::MulFOp::create(b, loc, x, y);
  return arith::AddFOp::create(b, loc, acc, p);
}

void KernelBuilder::viewWide(affine::AffineLoadOp load, int side, int64_t chunk,
                             Type vectorType) {
  MemRefType type = load.getMemRefType();
  SmallVector<int64_t> shape(type.getShape());
  shape.back() /= chunk;
  wideLoad[side] = load;
  wideMem[side] = UnrealizedConversionCastOp::create(
                      b, loc, TypeRange{MemRefType::get(shape, vectorType)},
                      ValueRange{load.getMemRef()})
                      .getResult(0);
}

SmallVector<Value> KernelBuilder::wideIndices(affine::AffineLoadOp load,
                                              int side, Value mn, Value k,
                                              int64_t chunk) {
  IRMapping mapping;
  mapDims(mapping, side == 0 ? nest.mDims : nest.nDims, mn);
  mapBatch(mapping);
  mapChain(mapping, k);
  SmallVector<Value> indices;
  for (AffineExpr e : load.getAffineMap().getResults())
    indices.push_back(mapping.lookupOrDefault(
        load.getMapOperands()[cast<AffineDimExpr>(e).getPosition()]));
  indices.back() = arith::DivUIOp::create(b, loc, indices.back(), index(chunk));
  return indices;
}

void mlir::plaidml::applyStagedTile(StagedNest &nest, const StagedTile &tile) {
  OpBuilder b(nest.par);
  KernelBuilder(nest, b).buildStaged(tile);
}

void mlir::plaidml::applySplitKTile(StagedNest &nest, const SplitKTile &tile) {
  OpBuilder b(nest.par);
  KernelBuilder(nest, b).buildSplitK(tile);
}
