//===- Contraction.cpp - tile.contract to affine loop nests ---------------===//
//
// Lowers tile.contract in two steps. First the output buffer is filled with
// the init, broadcast to the result shape. Then the index space box that
// tile-compute-bounds recorded (lower_bounds / upper_bounds, inclusive) is
// visited: when the sink is a projected permutation, distinct points of its
// dimensions write distinct elements, so those dimensions become an outer
// affine.parallel and the reduction dimensions inner affine.for loops;
// otherwise writes may collide and every dimension is a sequential
// affine.for. The constraints tile-compute-bounds left in `cons` (those the
// box does not imply) guard the body with affine.if. The body loads the
// inputs through the `srcs` maps, combines them (add/mul in the result
// type, eq/cond comparisons in the promoted input type) and aggregates into
// the element `sink` names.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IntegerSet.h"

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

struct ContractionLowering : OpConversionPattern<ContractionOp> {
  using OpConversionPattern::OpConversionPattern;

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

    // The result starts as the broadcast init.
    Value init = adaptor.getInit();
    Type initType = getTileElementType(op.getInit());
    AffineMap initMap = getBroadcastMap(
        cast<MemRefType>(init.getType()).getShape(), shape, ctx);
    buildParallelNest(
        rewriter, loc, shape, [&](OpBuilder &b, Location l, ValueRange ivs) {
          Value v = affine::AffineLoadOp::create(b, l, init, initMap, ivs);
          v = buildConversion(b, l, v, initType, outType);
          affine::AffineStoreOp::create(b, l, v, out, ivs);
        });

    ArrayRef<int64_t> lbs = *op.getLowerBounds();
    ArrayRef<int64_t> ubs = *op.getUpperBounds();
    unsigned numIdxs = op.getNumIdxs();
    if (lbs.size() != numIdxs || ubs.size() != numIdxs)
      return rewriter.notifyMatchFailure(op, "bounds do not match the indices");
    bool empty = llvm::any_of(llvm::zip_equal(lbs, ubs), [](auto bounds) {
      return std::get<1>(bounds) < std::get<0>(bounds);
    });
    if (!empty)
      buildIndexSpace(rewriter, op, adaptor, out, outType, lbs, ubs);
    rewriter.replaceOp(op, out);
    return success();
  }

private:
  void buildIndexSpace(ConversionPatternRewriter &rewriter, ContractionOp op,
                       OpAdaptor adaptor, Value out, Type outType,
                       ArrayRef<int64_t> lbs, ArrayRef<int64_t> ubs) const {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    unsigned numIdxs = op.getNumIdxs();
    AffineMap sink = op.getSink();

    // Dimensions the sink maps one-to-one to output coordinates run in
    // parallel (outer, in output order); the rest run sequentially.
    SmallVector<unsigned> parallelDims;
    if (sink.isProjectedPermutation())
      for (AffineExpr e : sink.getResults())
        parallelDims.push_back(cast<AffineDimExpr>(e).getPosition());
    SmallVector<Value> ivs(numIdxs);
    OpBuilder::InsertionGuard guard(rewriter);
    if (!parallelDims.empty()) {
      SmallVector<AffineMap> lbMaps, ubMaps;
      for (unsigned d : parallelDims) {
        lbMaps.push_back(AffineMap::getConstantMap(lbs[d], ctx));
        ubMaps.push_back(AffineMap::getConstantMap(ubs[d] + 1, ctx));
      }
      SmallVector<int64_t> steps(parallelDims.size(), 1);
      auto par = affine::AffineParallelOp::create(
          rewriter, loc, TypeRange{}, ArrayRef<arith::AtomicRMWKind>{}, lbMaps,
          ValueRange{}, ubMaps, ValueRange{}, steps);
      for (auto [d, iv] : llvm::zip_equal(parallelDims, par.getIVs()))
        ivs[d] = iv;
      rewriter.setInsertionPointToStart(par.getBody());
    }
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

    SmallVector<Value> elements;
    for (auto [buffer, map] :
         llvm::zip_equal(adaptor.getInputs(),
                         op.getSrcs().getAsValueRange<AffineMapAttr>()))
      elements.push_back(
          affine::AffineLoadOp::create(rewriter, loc, buffer, map, ivs));
    Value value = buildCombination(rewriter, loc, op, elements, outType);

    if (op.getAgg() != AggregationKind::assign) {
      BinaryKind kind;
      switch (op.getAgg()) {
      case AggregationKind::add:
        kind = BinaryKind::Add;
        break;
      case AggregationKind::mul:
        kind = BinaryKind::Mul;
        break;
      case AggregationKind::max:
        kind = BinaryKind::Max;
        break;
      default:
        kind = BinaryKind::Min;
        break;
      }
      Value current =
          affine::AffineLoadOp::create(rewriter, loc, out, sink, ivs);
      value = buildBinary(rewriter, loc, kind, current, value, outType);
    }
    affine::AffineStoreOp::create(rewriter, loc, value, out, sink, ivs);
  }
};
} // namespace

void tile_to_affine::populateContractionPatterns(TypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<ContractionLowering>(converter, patterns.getContext());
}
