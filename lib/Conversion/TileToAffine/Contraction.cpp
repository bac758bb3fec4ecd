//===- Contraction.cpp - tile.contract to affine loop nests ---------------===//
//
// Lowers tile.contract over the index space box that tile-compute-bounds
// recorded (lower_bounds / upper_bounds, inclusive).
//
// Reductions (an aggregation other than assign, and a sink naming distinct
// indices) become one affine.parallel over the sink's indices whose body
// starts from the init, carries the partial result through affine.for
// loops over the other indices as iter_args and stores it once: the
// accumulator lives in a register, the CPU passes find the reduction in
// one place, and the output is written once. Only when the box does not
// cover the whole output is the output first filled with the init.
//
// Otherwise (assign, or a sink that may map distinct points to one
// element) the output is filled with the init and the box is visited by a
// nest that loads, aggregates and stores per point: an outer affine.parallel
// over the indices the sink maps injectively (below), sequential affine.for
// loops for the rest.
//
// Indices whose range is a single value are folded into the sink where they
// appear inside a compound expression (`g + c` with c in [0, 0] becomes `g`),
// so a depthwise convolution's sink is a permutation again; a result that is
// the index alone (batch 1) stays. In the load/aggregate/store form, every
// sink result `d` or `d + constant` over distinct indices d makes d parallel:
// two points that differ in d write different output elements, so padding
// (`O[h + 1] = I[h]`) and offset copies run in parallel too.
//
// The constraints tile-compute-bounds left in `cons` (those the box does not
// imply) guard the aggregation with affine.if. The body loads the inputs
// through the `srcs` maps, combines them (add/mul in the result type,
// eq/cond comparisons in the promoted input type) and aggregates.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::plaidml;
using namespace mlir::plaidml::tile_to_affine;
using namespace mlir::plaidml::tile;

namespace {
/// The combination of the loaded inputs `x`, converted to `outType`.
Value buildCombination(OpBuilder &b, Location loc, ContractionOp op,
                       ValueRange x, Type outType) {
  SmallVector<Type> types;
  for (Value input : op.getInputs())
    types.push_back(getTileElementType(input));
  CombinationKind combo = op.getCombo();
  if (combo == CombinationKind::none)
    return buildConversion(b, loc, x[0], types[0], outType);
  if (combo == CombinationKind::add || combo == CombinationKind::mul) {
    // In the result type, which the verifier guarantees holds every input
    // exactly: si8 products accumulate in si32 without wrapping in si8.
    Value lhs = buildConversion(b, loc, x[0], types[0], outType);
    Value rhs = buildConversion(b, loc, x[1], types[1], outType);
    BinaryKind kind =
        combo == CombinationKind::add ? BinaryKind::Add : BinaryKind::Mul;
    return buildBinary(b, loc, kind, lhs, rhs, outType);
  }
  // eq / cond compare in the promoted input type, like tile.cmp.
  Type pairType = promoteElementTypes(types[0], types[1]);
  Value lhs = buildConversion(b, loc, x[0], types[0], pairType);
  Value rhs = buildConversion(b, loc, x[1], types[1], pairType);
  Value equal = buildCompare(b, loc, CmpPredicate::eq, lhs, rhs, pairType);
  if (combo == CombinationKind::eq)
    return buildConversion(b, loc, equal, b.getI1Type(), outType);
  // cond: a == b ? c : 0, in c's type.
  Value zero = buildConstant(b, loc, types[2], 0);
  Value value = arith::SelectOp::create(b, loc, equal, x[2], zero);
  return buildConversion(b, loc, value, types[2], outType);
}

/// The arithmetic of aggregation `agg` (not assign).
BinaryKind getAggregationKind(AggregationKind agg) {
  switch (agg) {
  case AggregationKind::add:
    return BinaryKind::Add;
  case AggregationKind::mul:
    return BinaryKind::Mul;
  case AggregationKind::max:
    return BinaryKind::Max;
  default:
    return BinaryKind::Min;
  }
}

/// `current` aggregated with the combination of the inputs at index point
/// `ivs` (all of the contraction's indices).
Value buildAggregation(OpBuilder &b, Location loc, ContractionOp op,
                       ValueRange inputs, ValueRange ivs, Value current,
                       Type outType) {
  SmallVector<Value> elements;
  for (auto [buffer, map] :
       llvm::zip_equal(inputs, op.getSrcs().getAsValueRange<AffineMapAttr>()))
    elements.push_back(affine::AffineLoadOp::create(b, loc, buffer, map, ivs));
  Value value = buildCombination(b, loc, op, elements, outType);
  if (op.getAgg() == AggregationKind::assign)
    return value;
  return buildBinary(b, loc, getAggregationKind(op.getAgg()), current, value,
                     outType);
}

/// The sink the nest stores through: `op`'s sink with every index of a
/// single-value range (lbs[d] == ubs[d]) replaced by that value inside
/// compound results. A result that is such an index alone keeps it, so a
/// permutation sink stays one.
AffineMap getLoweringSink(ContractionOp op, ArrayRef<int64_t> lbs,
                          ArrayRef<int64_t> ubs) {
  AffineMap sink = op.getSink();
  MLIRContext *ctx = op.getContext();
  SmallVector<AffineExpr> dimValues;
  for (unsigned d = 0; d < sink.getNumDims(); ++d)
    dimValues.push_back(lbs[d] == ubs[d] ? getAffineConstantExpr(lbs[d], ctx)
                                         : getAffineDimExpr(d, ctx));
  SmallVector<AffineExpr> results;
  for (AffineExpr e : sink.getResults())
    results.push_back(isa<AffineDimExpr>(e) ? e : e.replaceDims(dimValues));
  return AffineMap::get(sink.getNumDims(), sink.getNumSymbols(), results, ctx);
}

/// True when each output element is reduced by one sequential nest of its
/// own: the sink names distinct indices (so those run in parallel) and the
/// aggregation combines values (assign writes, it does not reduce).
bool isRegisterReduction(ContractionOp op, AffineMap sink) {
  return op.getAgg() != AggregationKind::assign &&
         sink.isProjectedPermutation();
}

/// `e` as `base + offset` when it adds a constant, else `e + 0`.
std::pair<AffineExpr, int64_t> splitConstantOffset(AffineExpr e) {
  if (auto sum = dyn_cast<AffineBinaryOpExpr>(e);
      sum && sum.getKind() == AffineExprKind::Add)
    if (auto c = dyn_cast<AffineConstantExpr>(sum.getRHS()))
      return {sum.getLHS(), c.getValue()};
  return {e, 0};
}

/// The indices that may run in parallel in the load/aggregate/store form,
/// in output order: those of the results `d` or `d + constant`, each index
/// once. Distinct values of such an index write distinct output elements.
SmallVector<unsigned> getInjectiveSinkDims(AffineMap sink) {
  SmallVector<unsigned> dims;
  llvm::SmallBitVector seen(sink.getNumDims());
  for (AffineExpr result : sink.getResults()) {
    AffineExpr e = splitConstantOffset(result).first;
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim || seen.test(dim.getPosition()))
      continue;
    seen.set(dim.getPosition());
    dims.push_back(dim.getPosition());
  }
  return dims;
}

/// True when the index box visits every element of an output of `shape`
/// through the permutation sink `sink`.
bool coversOutput(AffineMap sink, ArrayRef<int64_t> shape,
                  ArrayRef<int64_t> lbs, ArrayRef<int64_t> ubs) {
  for (auto [pos, e] : llvm::enumerate(sink.getResults())) {
    unsigned d = cast<AffineDimExpr>(e).getPosition();
    if (lbs[d] != 0 || ubs[d] + 1 != shape[pos])
      return false;
  }
  return true;
}

/// An affine.parallel over the index dimensions `dims` (within the
/// inclusive bounds `lbs`..`ubs`), none if `dims` is empty; records its
/// induction variables in `ivs` (indexed by dimension) and moves the
/// builder into its body.
void buildSinkParallel(OpBuilder &b, Location loc, ArrayRef<unsigned> dims,
                       ArrayRef<int64_t> lbs, ArrayRef<int64_t> ubs,
                       SmallVectorImpl<Value> &ivs) {
  if (dims.empty())
    return;
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> lbMaps, ubMaps;
  for (unsigned d : dims) {
    lbMaps.push_back(AffineMap::getConstantMap(lbs[d], ctx));
    ubMaps.push_back(AffineMap::getConstantMap(ubs[d] + 1, ctx));
  }
  SmallVector<int64_t> steps(dims.size(), 1);
  auto par = affine::AffineParallelOp::create(
      b, loc, TypeRange{}, ArrayRef<arith::AtomicRMWKind>{}, lbMaps,
      ValueRange{}, ubMaps, ValueRange{}, steps);
  for (auto [d, iv] : llvm::zip_equal(dims, par.getIVs()))
    ivs[d] = iv;
  b.setInsertionPointToStart(par.getBody());
}

/// The box of output elements (inclusive bounds per output dimension) that
/// the index box writes through `sink`, when every result is a constant, or
/// an index of its own plus a constant, and no constraint cuts the box.
std::optional<SmallVector<std::pair<int64_t, int64_t>>>
getWrittenBox(ContractionOp op, AffineMap sink, ArrayRef<int64_t> lbs,
              ArrayRef<int64_t> ubs) {
  if (op.getCons())
    return std::nullopt;
  SmallVector<std::pair<int64_t, int64_t>> box;
  llvm::SmallBitVector seen(sink.getNumDims());
  for (AffineExpr result : sink.getResults()) {
    auto [e, offset] = splitConstantOffset(result);
    if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      box.emplace_back(c.getValue() + offset, c.getValue() + offset);
      continue;
    }
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim || seen.test(dim.getPosition()))
      return std::nullopt;
    seen.set(dim.getPosition());
    box.emplace_back(lbs[dim.getPosition()] + offset,
                     ubs[dim.getPosition()] + offset);
  }
  return box;
}

/// Stores the init into the elements of `out` (of `shape`) outside `box`:
/// for each dimension k, the slabs before and after the box along k, within
/// the box along the dimensions before k. A zero-padded copy fills its
/// border, not the whole buffer it then overwrites.
void fillOutsideBox(
    OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
    ArrayRef<std::pair<int64_t, int64_t>> box,
    function_ref<void(OpBuilder &, Location, ValueRange)> fill) {
  unsigned rank = shape.size();
  SmallVector<unsigned> dims = llvm::to_vector(llvm::seq<unsigned>(0, rank));
  for (unsigned k = 0; k < rank; ++k) {
    auto [lo, hi] = box[k];
    for (auto [first, last] :
         {std::pair<int64_t, int64_t>(0, lo - 1),
          std::pair<int64_t, int64_t>(hi + 1, shape[k] - 1)}) {
      if (last < first)
        continue;
      SmallVector<int64_t> slabLbs, slabUbs;
      for (unsigned d = 0; d < rank; ++d) {
        slabLbs.push_back(d < k ? box[d].first : d == k ? first : 0);
        slabUbs.push_back(d < k ? box[d].second : d == k ? last : shape[d] - 1);
      }
      OpBuilder::InsertionGuard guard(b);
      SmallVector<Value> ivs(rank);
      buildSinkParallel(b, loc, dims, slabLbs, slabUbs, ivs);
      fill(b, loc, ivs);
    }
  }
}

struct ContractionLowering : OpConversionPattern<ContractionOp> {
  ContractionLowering(TypeConverter &converter, MLIRContext *ctx,
                      bool borderFill, bool splitGuards)
      : OpConversionPattern(converter, ctx), borderFill(borderFill),
        splitGuards(splitGuards) {}

  LogicalResult
  matchAndRewrite(ContractionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.hasBounds())
      return rewriter.notifyMatchFailure(
          op, "no index bounds; run tile-compute-bounds first");
    auto resultType = cast<RankedTensorType>(op.getType());
    auto memrefType = dyn_cast_or_null<MemRefType>(
        getTypeConverter()->convertType(resultType));
    if (!memrefType)
      return rewriter.notifyMatchFailure(op, "result type does not convert");
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    Type outType = resultType.getElementType();
    ArrayRef<int64_t> shape = resultType.getShape();
    Value out = getResultBuffer(rewriter, op, memrefType);

    ArrayRef<int64_t> lbs = *op.getLowerBounds();
    ArrayRef<int64_t> ubs = *op.getUpperBounds();
    unsigned numIdxs = op.getNumIdxs();
    if (lbs.size() != numIdxs || ubs.size() != numIdxs)
      return rewriter.notifyMatchFailure(op, "bounds do not match the indices");
    bool empty = llvm::any_of(llvm::zip_equal(lbs, ubs), [](auto bounds) {
      return std::get<1>(bounds) < std::get<0>(bounds);
    });

    // The result starts as the broadcast init, unless every output element
    // is produced by a reduction nest that starts from the init itself.
    Value init = adaptor.getInit();
    Type initType = getTileElementType(op.getInit());
    AffineMap initMap = getBroadcastMap(
        cast<MemRefType>(init.getType()).getShape(), shape, ctx);
    AffineMap sink = getLoweringSink(op, lbs, ubs);
    bool reduceInRegisters = !empty && isRegisterReduction(op, sink);
    auto fill = [&](OpBuilder &b, Location l, ValueRange ivs) {
      Value v = affine::AffineLoadOp::create(b, l, init, initMap, ivs);
      v = buildConversion(b, l, v, initType, outType);
      affine::AffineStoreOp::create(b, l, v, out, ivs);
    };
    // Where every element of a box is written from scratch (by a register
    // reduction, which starts from the init, or by an assignment), only the
    // rest of the output needs the init.
    std::optional<SmallVector<std::pair<int64_t, int64_t>>> box;
    if (borderFill && !empty &&
        (reduceInRegisters || op.getAgg() == AggregationKind::assign))
      box = getWrittenBox(op, sink, lbs, ubs);
    if (box && !shape.empty())
      fillOutsideBox(rewriter, loc, shape, *box, fill);
    else if (!reduceInRegisters || !coversOutput(sink, shape, lbs, ubs))
      buildParallelNest(rewriter, loc, shape, fill);

    if (reduceInRegisters)
      buildRegisterReduction(rewriter, op, adaptor, sink, out, outType, initMap,
                             lbs, ubs);
    else if (!empty)
      buildIndexSpace(rewriter, op, adaptor, sink, out, outType, lbs, ubs);
    rewriter.replaceOp(op, out);
    return success();
  }

private:
  bool borderFill, splitGuards;
  /// The reduction form: a parallel nest over the sink's indices whose body
  /// starts from the init, carries the partial result through the
  /// reduction loops as iter_args and stores it once:
  ///   affine.parallel (sink indices) {
  ///     %init = ...
  ///     %r = affine.for (reduction index) iter_args(%acc = %init) {
  ///       ... affine.yield (aggregate %acc, combination)
  ///     }
  ///     affine.store %r, %out[sink]
  ///   }
  /// `cons` guards the aggregation with an affine.if yielding %acc where the
  /// point is invalid. With `splitGuards`, one such nest per piece of
  /// splitReductionBox, each guarded by the constraints left to it.
  void buildRegisterReduction(ConversionPatternRewriter &rewriter,
                              ContractionOp op, OpAdaptor adaptor,
                              AffineMap sink, Value out, Type outType,
                              AffineMap initMap, ArrayRef<int64_t> lbs,
                              ArrayRef<int64_t> ubs) const {
    std::optional<IntegerSet> cons = op.getCons();
    std::optional<SmallVector<LinearConstraint>> linear;
    if (cons && splitGuards)
      linear = getLinearConstraints(*cons);
    if (!linear) {
      buildRegisterReductionNest(rewriter, op, adaptor, sink, out, outType,
                                 initMap, lbs, ubs, cons);
      return;
    }
    unsigned numIdxs = op.getNumIdxs();
    llvm::SmallBitVector isReduction(numIdxs, true);
    for (AffineExpr e : sink.getResults())
      isReduction.reset(cast<AffineDimExpr>(e).getPosition());
    ReductionPiece box{
        SmallVector<int64_t>(lbs), SmallVector<int64_t>(ubs),
        llvm::to_vector(llvm::seq<unsigned>(0, cons->getNumConstraints()))};
    for (const ReductionPiece &piece :
         splitReductionBox(box, *linear, isReduction)) {
      std::optional<IntegerSet> guard;
      if (!piece.guards.empty()) {
        SmallVector<AffineExpr> exprs;
        SmallVector<bool> eqFlags;
        for (unsigned c : piece.guards) {
          exprs.push_back((*linear)[c].expr);
          eqFlags.push_back((*linear)[c].isEq);
        }
        guard = IntegerSet::get(numIdxs, 0, exprs, eqFlags);
      }
      buildRegisterReductionNest(rewriter, op, adaptor, sink, out, outType,
                                 initMap, piece.lbs, piece.ubs, guard);
    }
  }

  /// One nest of the reduction form over the box `lbs`..`ubs` (inclusive),
  /// its points guarded by `cons` when given.
  void buildRegisterReductionNest(ConversionPatternRewriter &rewriter,
                                  ContractionOp op, OpAdaptor adaptor,
                                  AffineMap sink, Value out, Type outType,
                                  AffineMap initMap, ArrayRef<int64_t> lbs,
                                  ArrayRef<int64_t> ubs,
                                  std::optional<IntegerSet> cons) const {
    Location loc = op.getLoc();
    unsigned numIdxs = op.getNumIdxs();
    SmallVector<unsigned> parallelDims;
    for (AffineExpr e : sink.getResults())
      parallelDims.push_back(cast<AffineDimExpr>(e).getPosition());

    OpBuilder::InsertionGuard guard(rewriter);
    SmallVector<Value> ivs(numIdxs);
    buildSinkParallel(rewriter, loc, parallelDims, lbs, ubs, ivs);

    // The init at this output element: the parallel ivs are its coordinates
    // in output order.
    SmallVector<Value> outCoords;
    for (unsigned d : parallelDims)
      outCoords.push_back(ivs[d]);
    Type initType = getTileElementType(op.getInit());
    Value acc = affine::AffineLoadOp::create(rewriter, loc, adaptor.getInit(),
                                             initMap, outCoords);
    acc = buildConversion(rewriter, loc, acc, initType, outType);

    // Reduction loops, outermost first, each carrying the partial result.
    SmallVector<affine::AffineForOp> loops;
    for (unsigned d = 0; d < numIdxs; ++d) {
      if (ivs[d])
        continue;
      auto loop = affine::AffineForOp::create(rewriter, loc, lbs[d], ubs[d] + 1,
                                              /*step=*/1, acc);
      ivs[d] = loop.getInductionVar();
      acc = loop.getRegionIterArgs()[0];
      loops.push_back(loop);
      rewriter.setInsertionPointToStart(loop.getBody());
    }
    Value value;
    if (cons) {
      auto guardOp = affine::AffineIfOp::create(
          rewriter, loc, acc.getType(), *cons, ivs, /*withElseRegion=*/true);
      // Blocks of an affine.if with results start without terminators.
      rewriter.setInsertionPointToEnd(guardOp.getThenBlock());
      Value updated = buildAggregation(rewriter, loc, op, adaptor.getInputs(),
                                       ivs, acc, outType);
      affine::AffineYieldOp::create(rewriter, loc, updated);
      rewriter.setInsertionPointToEnd(guardOp.getElseBlock());
      affine::AffineYieldOp::create(rewriter, loc, acc);
      value = guardOp.getResult(0);
      rewriter.setInsertionPointAfter(guardOp);
    } else {
      value = buildAggregation(rewriter, loc, op, adaptor.getInputs(), ivs, acc,
                               outType);
    }
    for (affine::AffineForOp loop : llvm::reverse(loops)) {
      affine::AffineYieldOp::create(rewriter, loc, value);
      value = loop.getResult(0);
      rewriter.setInsertionPointAfter(loop);
    }
    affine::AffineStoreOp::create(rewriter, loc, value, out, outCoords);
  }

  void buildIndexSpace(ConversionPatternRewriter &rewriter, ContractionOp op,
                       OpAdaptor adaptor, AffineMap sink, Value out,
                       Type outType, ArrayRef<int64_t> lbs,
                       ArrayRef<int64_t> ubs) const {
    Location loc = op.getLoc();
    unsigned numIdxs = op.getNumIdxs();

    // Dimensions the sink maps injectively to output coordinates run in
    // parallel (outer, in output order); the rest run sequentially.
    SmallVector<unsigned> parallelDims = getInjectiveSinkDims(sink);
    SmallVector<Value> ivs(numIdxs);
    OpBuilder::InsertionGuard guard(rewriter);
    buildSinkParallel(rewriter, loc, parallelDims, lbs, ubs, ivs);
    for (unsigned d = 0; d < numIdxs; ++d) {
      if (ivs[d])
        continue;
      auto loop =
          affine::AffineForOp::create(rewriter, loc, lbs[d], ubs[d] + 1);
      ivs[d] = loop.getInductionVar();
      rewriter.setInsertionPointToStart(loop.getBody());
    }
    if (std::optional<IntegerSet> cons = op.getCons()) {
      auto guardOp = affine::AffineIfOp::create(rewriter, loc, *cons, ivs,
                                                /*withElseRegion=*/false);
      rewriter.setInsertionPointToStart(guardOp.getThenBlock());
    }

    Value current;
    if (op.getAgg() != AggregationKind::assign)
      current = affine::AffineLoadOp::create(rewriter, loc, out, sink, ivs);
    Value value = buildAggregation(rewriter, loc, op, adaptor.getInputs(), ivs,
                                   current, outType);
    affine::AffineStoreOp::create(rewriter, loc, value, out, sink, ivs);
  }
};
} // namespace

void tile_to_affine::populateContractionPatterns(TypeConverter &converter,
                                                 RewritePatternSet &patterns,
                                                 bool borderFill,
                                                 bool splitGuards) {
  patterns.add<ContractionLowering>(converter, patterns.getContext(),
                                    borderFill, splitGuards);
}
