//===- Elementwise.cpp - Tile elementwise ops to affine.parallel ----------===//
//
// Lowers the elementwise Tile ops (unary math, binary arithmetic, bitwise
// and logical ops, comparisons, select, cast) to one affine.parallel nest
// over the result shape. Operands are read with broadcasting access maps
// (size-1 and missing dimensions read index 0), converted to the type the
// op computes in (the result type for arithmetic, the promoted operand type
// for comparisons, each operand's own type for truthiness), and combined by
// the scalar builders of ScalarOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::plaidml;
using namespace mlir::plaidml::tile_to_affine;
using namespace mlir::plaidml::tile;

namespace {
using ScalarFn = function_ref<Value(OpBuilder &, Location, ValueRange)>;

/// Writes `fn(operand elements)` for every element of `op`'s result, with
/// `buffers` (the converted operands) read through broadcasting maps.
LogicalResult lowerElementwise(Operation *op, ValueRange buffers,
                               ConversionPatternRewriter &rewriter,
                               const TypeConverter &converter, ScalarFn fn) {
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  auto memrefType =
      dyn_cast_or_null<MemRefType>(converter.convertType(resultType));
  if (!memrefType)
    return rewriter.notifyMatchFailure(op, "result type does not convert");
  MLIRContext *ctx = op->getContext();
  ArrayRef<int64_t> shape = resultType.getShape();
  Value dest = getResultBuffer(rewriter, op, memrefType);
  buildParallelNest(
      rewriter, op->getLoc(), shape,
      [&](OpBuilder &b, Location loc, ValueRange ivs) {
        SmallVector<Value> elements;
        for (Value buffer : buffers) {
          auto type = cast<MemRefType>(buffer.getType());
          AffineMap map = getBroadcastMap(type.getShape(), shape, ctx);
          elements.push_back(
              affine::AffineLoadOp::create(b, loc, buffer, map, ivs));
        }
        affine::AffineStoreOp::create(b, loc, fn(b, loc, elements), dest, ivs);
      });
  rewriter.replaceOp(op, dest);
  return success();
}

/// neg, abs, relu, exp, ..., bit_not, logical_not.
template <typename OpTy> struct UnaryLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef name = op->getName().stripDialect();
    Type type = getTileElementType(op.getOperand());
    return lowerElementwise(op, adaptor.getOperands(), rewriter,
                            *this->getTypeConverter(),
                            [&](OpBuilder &b, Location loc, ValueRange x) {
                              return buildUnary(b, loc, name, x[0], type);
                            });
  }
};

/// Arithmetic and bitwise binary ops, computed in the result element type.
template <typename OpTy, BinaryKind Kind>
struct BinaryLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type lhsType = getTileElementType(op.getLhs());
    Type rhsType = getTileElementType(op.getRhs());
    Type type = getTileElementType(op.getResult());
    return lowerElementwise(
        op, adaptor.getOperands(), rewriter, *this->getTypeConverter(),
        [&](OpBuilder &b, Location loc, ValueRange x) {
          Value lhs = buildConversion(b, loc, x[0], lhsType, type);
          Value rhs = buildConversion(b, loc, x[1], rhsType, type);
          return buildBinary(b, loc, Kind, lhs, rhs, type);
        });
  }
};

/// logical_and / or / xor on the truthiness of each operand in its own type.
template <typename OpTy> struct LogicalLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type lhsType = getTileElementType(op.getLhs());
    Type rhsType = getTileElementType(op.getRhs());
    return lowerElementwise(
        op, adaptor.getOperands(), rewriter, *this->getTypeConverter(),
        [&](OpBuilder &b, Location loc, ValueRange x) -> Value {
          Value lhs = buildTruthy(b, loc, x[0], lhsType);
          Value rhs = buildTruthy(b, loc, x[1], rhsType);
          if (isa<LogicalAndOp>(op))
            return arith::AndIOp::create(b, loc, lhs, rhs);
          if (isa<LogicalOrOp>(op))
            return arith::OrIOp::create(b, loc, lhs, rhs);
          return arith::XOrIOp::create(b, loc, lhs, rhs);
        });
  }
};

/// tile.cmp, in the promoted type of its operands.
struct CmpLowering : OpConversionPattern<CmpOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CmpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type lhsType = getTileElementType(op.getLhs());
    Type rhsType = getTileElementType(op.getRhs());
    Type type = promoteElementTypes(lhsType, rhsType);
    CmpPredicate pred = op.getPredicate();
    return lowerElementwise(
        op, adaptor.getOperands(), rewriter, *getTypeConverter(),
        [&](OpBuilder &b, Location loc, ValueRange x) {
          Value lhs = buildConversion(b, loc, x[0], lhsType, type);
          Value rhs = buildConversion(b, loc, x[1], rhsType, type);
          return buildCompare(b, loc, pred, lhs, rhs, type);
        });
  }
};

/// tile.select: the condition by truthiness, the values in the result type.
struct SelectLowering : OpConversionPattern<SelectOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type condType = getTileElementType(op.getCond());
    Type trueType = getTileElementType(op.getTrueValue());
    Type falseType = getTileElementType(op.getFalseValue());
    Type type = getTileElementType(op.getResult());
    return lowerElementwise(
        op, adaptor.getOperands(), rewriter, *getTypeConverter(),
        [&](OpBuilder &b, Location loc, ValueRange x) -> Value {
          Value cond = buildTruthy(b, loc, x[0], condType);
          Value t = buildConversion(b, loc, x[1], trueType, type);
          Value f = buildConversion(b, loc, x[2], falseType, type);
          return arith::SelectOp::create(b, loc, cond, t, f);
        });
  }
};

/// tile.cast: saturating float to integer, `!= 0` to i1, extension by the
/// source signedness.
struct CastLowering : OpConversionPattern<CastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type from = getTileElementType(op.getOperand());
    Type to = getTileElementType(op.getResult());
    return lowerElementwise(op, adaptor.getOperands(), rewriter,
                            *getTypeConverter(),
                            [&](OpBuilder &b, Location loc, ValueRange x) {
                              return buildConversion(b, loc, x[0], from, to);
                            });
  }
};
} // namespace

void tile_to_affine::populateElementwisePatterns(TypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<
      UnaryLowering<NegOp>, UnaryLowering<AbsOp>, UnaryLowering<ReluOp>,
      UnaryLowering<ExpOp>, UnaryLowering<LogOp>, UnaryLowering<SqrtOp>,
      UnaryLowering<TanhOp>, UnaryLowering<SinOp>, UnaryLowering<CosOp>,
      UnaryLowering<FloorOp>, UnaryLowering<CeilOp>, UnaryLowering<RoundOp>,
      UnaryLowering<ErfOp>, UnaryLowering<SigmoidOp>, UnaryLowering<BitNotOp>,
      UnaryLowering<LogicalNotOp>>(converter, ctx);
  patterns.add<BinaryLowering<AddOp, BinaryKind::Add>,
               BinaryLowering<SubOp, BinaryKind::Sub>,
               BinaryLowering<MulOp, BinaryKind::Mul>,
               BinaryLowering<DivOp, BinaryKind::Div>,
               BinaryLowering<ModOp, BinaryKind::Mod>,
               BinaryLowering<PowOp, BinaryKind::Pow>,
               BinaryLowering<MaxOp, BinaryKind::Max>,
               BinaryLowering<MinOp, BinaryKind::Min>,
               BinaryLowering<BitAndOp, BinaryKind::BitAnd>,
               BinaryLowering<BitOrOp, BinaryKind::BitOr>,
               BinaryLowering<BitXorOp, BinaryKind::BitXor>,
               BinaryLowering<ShlOp, BinaryKind::Shl>,
               BinaryLowering<ShrOp, BinaryKind::Shr>>(converter, ctx);
  patterns.add<LogicalLowering<LogicalAndOp>, LogicalLowering<LogicalOrOp>,
               LogicalLowering<LogicalXorOp>, CmpLowering, SelectLowering,
               CastLowering>(converter, ctx);
}
