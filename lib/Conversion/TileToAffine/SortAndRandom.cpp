//===- SortAndRandom.cpp - tile.argsort and tile.prng to affine -----------===//
//
// tile.argsort becomes one affine.parallel nest over the operand: each
// element counts, in an affine.for along its line, the elements that come
// before it in the stable order (smaller keys, NaN above every number, and
// equal keys at lower positions), and stores its own position at that rank
// with memref.store. The ranks of a line are a permutation, so the stores
// never collide and the nest is parallel; O(n^2) comparisons per line of n,
// but no data-dependent control flow, which suits every target.
//
// tile.prng becomes two parallel nests: one over the values, where each
// element computes its Philox4x32-10 block from the state and keeps its own
// word of it, and one over the six state words for the advanced counter.
// Everything is 32-bit integer arithmetic (mulhi through 16-bit halves, the
// 128-bit counter add through explicit carries) so GPUs without 64-bit
// integers run it, and the floats are exact scalings of integers, so every
// device produces the same bits as the reference interpreter.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <cmath>

using namespace mlir;
using namespace mlir::plaidml;
using namespace mlir::plaidml::tile_to_affine;
using namespace mlir::plaidml::tile;

namespace {
MemRefType convertToMemRef(const TypeConverter &converter, Value tensor) {
  return dyn_cast_or_null<MemRefType>(converter.convertType(tensor.getType()));
}

//===----------------------------------------------------------------------===//
// tile.argsort
//===----------------------------------------------------------------------===//

/// `a` sorts strictly before `b` by key alone, ascending: `a < b` in the
/// Tile element type, and for floats every number before every NaN.
Value buildKeyLess(OpBuilder &b, Location loc, Value lhs, Value rhs,
                   Type type) {
  Value less = buildCompare(b, loc, CmpPredicate::lt, lhs, rhs, type);
  if (!isa<FloatType>(type))
    return less;
  Value lhsNaN = buildCompare(b, loc, CmpPredicate::ne, lhs, lhs, type);
  Value rhsNaN = buildCompare(b, loc, CmpPredicate::ne, rhs, rhs, type);
  Value lhsNumber = arith::XOrIOp::create(
      b, loc, lhsNaN, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
  return arith::OrIOp::create(b, loc, less,
                              arith::AndIOp::create(b, loc, lhsNumber, rhsNaN));
}

struct ArgSortLowering : OpConversionPattern<ArgSortOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ArgSortOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType type = convertToMemRef(*getTypeConverter(), op.getResult());
    if (!type)
      return rewriter.notifyMatchFailure(op, "result type does not convert");
    Value source = adaptor.getOperand();
    Type elementType = getTileElementType(op.getOperand());
    unsigned axis = op.getAxis();
    int64_t size = type.getDimSize(axis);
    bool descending = op.getDirection() == SortDirection::desc;
    Value dest = getResultBuffer(rewriter, op, type);
    buildParallelNest(
        rewriter, op.getLoc(), type.getShape(),
        [&](OpBuilder &b, Location loc, ValueRange ivs) {
          Value self = affine::AffineLoadOp::create(b, loc, source, ivs);
          Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
          auto loop =
              affine::AffineForOp::create(b, loc, 0, size, 1, ValueRange{zero});
          {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPointToStart(loop.getBody());
            Value other = loop.getInductionVar();
            SmallVector<Value> coords(ivs.begin(), ivs.end());
            coords[axis] = other;
            Value value = affine::AffineLoadOp::create(b, loc, source, coords);
            // `other` comes before `self` when its key is strictly first,
            // or the keys tie and it sits earlier on the line.
            Value first = descending
                              ? buildKeyLess(b, loc, self, value, elementType)
                              : buildKeyLess(b, loc, value, self, elementType);
            Value last = descending
                             ? buildKeyLess(b, loc, value, self, elementType)
                             : buildKeyLess(b, loc, self, value, elementType);
            Value earlier = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::ult, other, ivs[axis]);
            Value tie = arith::XOrIOp::create(
                b, loc, last,
                arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
            Value before = arith::OrIOp::create(
                b, loc, first, arith::AndIOp::create(b, loc, tie, earlier));
            Value step = arith::ExtUIOp::create(b, loc, b.getI32Type(), before);
            Value count = arith::AddIOp::create(
                b, loc, loop.getRegionIterArgs()[0], step);
            affine::AffineYieldOp::create(b, loc, count);
          }
          // A signed cast (the rank is below 2^31): on a line of one the
          // count folds to extui(i1), and canonicalization would turn an
          // index_castui of that into an i1 -> index cast, which SPIR-V
          // cannot convert.
          Value rank = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                                  loop.getResult(0));
          Value position = arith::IndexCastUIOp::create(
              b, loc, type.getElementType(), ivs[axis]);
          SmallVector<Value> at(ivs.begin(), ivs.end());
          at[axis] = rank;
          memref::StoreOp::create(b, loc, position, dest, at);
        });
    rewriter.replaceOp(op, dest);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// tile.prng
//===----------------------------------------------------------------------===//

/// 32-bit integer arithmetic on i32 values, unsigned.
struct Word {
  OpBuilder &b;
  Location loc;

  Value constant(uint32_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                        static_cast<int32_t>(v));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value bitXor(Value x, Value y) { return arith::XOrIOp::create(b, loc, x, y); }
  Value bitAnd(Value x, uint32_t mask) {
    return arith::AndIOp::create(b, loc, x, constant(mask));
  }
  Value shr(Value x, unsigned bits) {
    return arith::ShRUIOp::create(b, loc, x, constant(bits));
  }
  /// 1 when `x < y` (unsigned), else 0.
  Value lessAsWord(Value x, Value y) {
    Value less = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
    return arith::ExtUIOp::create(b, loc, b.getI32Type(), less);
  }
  /// 1 when `x == 0`, else 0.
  Value isZeroAsWord(Value x) {
    Value zero =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, constant(0));
    return arith::ExtUIOp::create(b, loc, b.getI32Type(), zero);
  }
  /// The high 32 bits of the 64-bit product `x * m`, in 32-bit arithmetic.
  Value mulhi(Value x, uint32_t m) {
    Value xl = bitAnd(x, 0xffff), xh = shr(x, 16);
    Value ml = constant(m & 0xffff), mh = constant(m >> 16);
    Value ll = mul(xl, ml), lh = mul(xl, mh), hl = mul(xh, ml),
          hh = mul(xh, mh);
    Value mid = add(add(shr(ll, 16), bitAnd(lh, 0xffff)), bitAnd(hl, 0xffff));
    return add(add(hh, shr(lh, 16)), add(shr(hl, 16), shr(mid, 16)));
  }
  /// The 128-bit counter `c + n` (n a word), wrapping.
  SmallVector<Value, 4> addToCounter(ArrayRef<Value> c, Value n) {
    SmallVector<Value, 4> out;
    Value sum = add(c[0], n);
    out.push_back(sum);
    Value carry = lessAsWord(sum, n);
    for (unsigned i = 1; i < 4; ++i) {
      Value word = add(c[i], carry);
      out.push_back(word);
      // A carry leaves this word only when it wrapped to zero.
      carry = arith::AndIOp::create(b, loc, carry, isZeroAsWord(word));
    }
    return out;
  }
  /// philox4x32 with 10 rounds.
  SmallVector<Value, 4> philox(ArrayRef<Value> counter, Value k0, Value k1) {
    SmallVector<Value, 4> x(counter.begin(), counter.end());
    for (int round = 0; round < 10; ++round) {
      if (round > 0) {
        k0 = add(k0, constant(0x9E3779B9u));
        k1 = add(k1, constant(0xBB67AE85u));
      }
      Value hi0 = mulhi(x[0], 0xD2511F53u);
      Value lo0 = mul(x[0], constant(0xD2511F53u));
      Value hi1 = mulhi(x[2], 0xCD9E8D57u);
      Value lo1 = mul(x[2], constant(0xCD9E8D57u));
      x = {bitXor(bitXor(hi1, x[1]), k0), lo1, bitXor(bitXor(hi0, x[3]), k1),
           lo0};
    }
    return x;
  }
  /// `words[i]` for the index-typed `i` in [0, words.size()).
  Value pick(ArrayRef<Value> words, Value i) {
    Value result = words.back();
    for (int k = static_cast<int>(words.size()) - 2; k >= 0; --k) {
      Value isK =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, i,
                                arith::ConstantIndexOp::create(b, loc, k));
      result = arith::SelectOp::create(b, loc, isK, words[k], result);
    }
    return result;
  }
};

/// The random value of element type `type` made from word `w`: an exact
/// multiple of a power of two in [0, 1) for floats, `w` for integers.
Value buildRandomValue(OpBuilder &b, Location loc, Value w, Type type) {
  Word word{b, loc};
  auto floatType = dyn_cast<FloatType>(type);
  if (!floatType)
    return w;
  if (floatType.isF64()) {
    Value f = arith::UIToFPOp::create(b, loc, type, w);
    return arith::MulFOp::create(
        b, loc, f,
        arith::ConstantOp::create(b, loc, b.getFloatAttr(type, 0x1p-32)));
  }
  // At most 24 significant bits: exact in f32, then exact in f16/bf16.
  unsigned bits = floatType.isF32() ? 24 : floatType.isF16() ? 11 : 8;
  Value top = word.shr(w, 32 - bits);
  Value f = arith::UIToFPOp::create(b, loc, b.getF32Type(), top);
  f = arith::MulFOp::create(
      b, loc, f,
      arith::ConstantOp::create(
          b, loc,
          b.getF32FloatAttr(std::ldexp(1.0f, -static_cast<int>(bits)))));
  if (!floatType.isF32())
    f = arith::TruncFOp::create(b, loc, type, f);
  return f;
}

struct PrngLowering : OpConversionPattern<PrngOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(PrngOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter &converter = *getTypeConverter();
    MemRefType valuesType = convertToMemRef(converter, op.getValues());
    MemRefType stateType = convertToMemRef(converter, op.getNewState());
    if (!valuesType || !stateType)
      return rewriter.notifyMatchFailure(op, "result type does not convert");
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    Value state = adaptor.getState();
    Type valueType = getTileElementType(op.getValues());
    ArrayRef<int64_t> shape = valuesType.getShape();
    int64_t count = valuesType.getNumElements();
    Value values =
        getResultBuffer(rewriter, cast<OpResult>(op.getValues()), valuesType);
    Value next =
        getResultBuffer(rewriter, cast<OpResult>(op.getNewState()), stateType);

    auto loadState = [&](OpBuilder &b, Location l) {
      SmallVector<Value, 6> words;
      for (int64_t i = 0; i < 6; ++i)
        words.push_back(affine::AffineLoadOp::create(
            b, l, state, AffineMap::getConstantMap(i, ctx), ValueRange{}));
      return words;
    };

    // Row-major position of each element.
    AffineExpr linear = getAffineConstantExpr(0, ctx);
    int64_t stride = 1;
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      linear = linear + getAffineDimExpr(d, ctx) * stride;
      stride *= shape[d];
    }
    AffineMap linearMap = AffineMap::get(shape.size(), 0, linear);

    buildParallelNest(
        rewriter, loc, shape, [&](OpBuilder &b, Location l, ValueRange ivs) {
          Word word{b, l};
          SmallVector<Value, 6> s = loadState(b, l);
          Value position = affine::AffineApplyOp::create(b, l, linearMap, ivs);
          Value positionWord =
              arith::IndexCastUIOp::create(b, l, b.getI32Type(), position);
          SmallVector<Value, 4> counter = word.addToCounter(
              ArrayRef<Value>(s).slice(2, 4), word.shr(positionWord, 2));
          SmallVector<Value, 4> block = word.philox(counter, s[0], s[1]);
          Value lane = arith::IndexCastUIOp::create(
              b, l, b.getIndexType(), word.bitAnd(positionWord, 3));
          Value v = buildRandomValue(b, l, word.pick(block, lane), valueType);
          affine::AffineStoreOp::create(b, l, v, values, ivs);
        });

    buildParallelNest(
        rewriter, loc, {6}, [&](OpBuilder &b, Location l, ValueRange ivs) {
          Word word{b, l};
          SmallVector<Value, 6> s = loadState(b, l);
          SmallVector<Value, 4> counter = word.addToCounter(
              ArrayRef<Value>(s).slice(2, 4), word.constant((count + 3) / 4));
          Value v = word.pick(
              {s[0], s[1], counter[0], counter[1], counter[2], counter[3]},
              ivs[0]);
          affine::AffineStoreOp::create(b, l, v, next, ivs);
        });
    rewriter.replaceOp(op, {values, next});
    return success();
  }
};
} // namespace

void tile_to_affine::populateSortAndRandomPatterns(
    TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ArgSortLowering, PrngLowering>(converter, patterns.getContext());
}
