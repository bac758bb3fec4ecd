//===- ScalarOps.cpp - Tile element semantics on arith values -------------===//
//
// The element arithmetic of docs/Design.md section 3, built from arith, math
// and scf ops on signless values, matching the reference interpreter
// (lib/Reference/Scalar.cpp) case by case: conversions (saturating float to
// integer, `!= 0` to i1), signed versus unsigned division, remainder,
// shifts, comparisons, max and min, NaN-propagating float max and min,
// integer power by squaring, and the unary ops. Transcendental functions on
// f16 and bf16 are computed in f32 and rounded once, which is what the
// reference's compute-in-double-and-round does up to the last bit.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::plaidml;
using namespace mlir::plaidml::tile_to_affine;

Type tile_to_affine::getTileElementType(Value tensor) {
  return cast<ShapedType>(tensor.getType()).getElementType();
}

Type tile_to_affine::getSignlessType(Type type) {
  if (auto intTy = dyn_cast<IntegerType>(type))
    return IntegerType::get(type.getContext(), intTy.getWidth());
  return type;
}

bool tile_to_affine::isUnsignedLike(Type type) {
  auto intTy = dyn_cast<IntegerType>(type);
  return intTy && (intTy.isUnsigned() || intTy.getWidth() == 1);
}

namespace {
Value intConst(OpBuilder &b, Location loc, Type signlessTy, const APInt &v) {
  return arith::ConstantOp::create(b, loc, IntegerAttr::get(signlessTy, v));
}

Value intConst(OpBuilder &b, Location loc, Type signlessTy, int64_t v) {
  unsigned w = cast<IntegerType>(signlessTy).getWidth();
  return intConst(b, loc, signlessTy,
                  APInt(w, static_cast<uint64_t>(v), /*isSigned=*/true,
                        /*implicitTrunc=*/true));
}

Value floatConst(OpBuilder &b, Location loc, Type floatTy, double v) {
  return arith::ConstantOp::create(b, loc, FloatAttr::get(floatTy, v));
}

/// `value` rounded to `type`'s semantics (overflow gives infinity).
Value floatConstRounded(OpBuilder &b, Location loc, FloatType type,
                        double value, bool &isInf) {
  APFloat f(value);
  bool losesInfo;
  f.convert(type.getFloatSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
  isInf = f.isInfinity();
  return arith::ConstantOp::create(b, loc, FloatAttr::get(type, f));
}

Value cmpf(OpBuilder &b, Location loc, arith::CmpFPredicate pred, Value lhs,
           Value rhs) {
  return arith::CmpFOp::create(b, loc, pred, lhs, rhs);
}

Value cmpi(OpBuilder &b, Location loc, arith::CmpIPredicate pred, Value lhs,
           Value rhs) {
  return arith::CmpIOp::create(b, loc, pred, lhs, rhs);
}

Value select(OpBuilder &b, Location loc, Value cond, Value t, Value f) {
  return arith::SelectOp::create(b, loc, cond, t, f);
}

/// Float to integer, truncating toward zero and saturating at the integer
/// range; NaN gives 0. fptosi/fptoui only ever see in-range values (an
/// out-of-range operand would be poison), the saturated values are
/// selected afterwards.
Value buildFloatToInt(OpBuilder &b, Location loc, Value v, FloatType from,
                      IntegerType to) {
  unsigned w = to.getWidth();
  Type intTy = getSignlessType(to);
  Value zero = floatConst(b, loc, from, 0.0);
  bool hiInf, loInf;
  if (to.isUnsigned()) {
    Value hi = floatConstRounded(b, loc, from, std::ldexp(1.0, w), hiInf);
    Value lo = floatConst(b, loc, from, -1.0);
    Value inRange = arith::AndIOp::create(
        b, loc, cmpf(b, loc, arith::CmpFPredicate::OGT, v, lo),
        cmpf(b, loc, arith::CmpFPredicate::OLT, v, hi));
    Value safe = select(b, loc, inRange, v, zero);
    Value conv = arith::FPToUIOp::create(b, loc, intTy, safe);
    Value max = intConst(b, loc, intTy, APInt::getMaxValue(w));
    return select(b, loc, cmpf(b, loc, arith::CmpFPredicate::OGE, v, hi), max,
                  conv);
  }
  // Signed: in range when -2^(w-1) < v < 2^(w-1); v <= -2^(w-1) saturates
  // to INT_MIN (with -2^(w-1) itself exact), which also covers a bound that
  // overflowed to -inf in a narrow float type.
  Value hi = floatConstRounded(b, loc, from, std::ldexp(1.0, w - 1), hiInf);
  Value lo = floatConstRounded(b, loc, from, -std::ldexp(1.0, w - 1), loInf);
  Value inRange = arith::AndIOp::create(
      b, loc, cmpf(b, loc, arith::CmpFPredicate::OGT, v, lo),
      cmpf(b, loc, arith::CmpFPredicate::OLT, v, hi));
  Value safe = select(b, loc, inRange, v, zero);
  Value conv = arith::FPToSIOp::create(b, loc, intTy, safe);
  Value max = intConst(b, loc, intTy, APInt::getSignedMaxValue(w));
  Value min = intConst(b, loc, intTy, APInt::getSignedMinValue(w));
  Value low =
      select(b, loc, cmpf(b, loc, arith::CmpFPredicate::OLE, v, lo), min, conv);
  return select(b, loc, cmpf(b, loc, arith::CmpFPredicate::OGE, v, hi), max,
                low);
}

/// f64 to bf16 with one rounding. LLVM truncates f64 -> bf16 through f32,
/// which rounds twice (1 + 2^-8 + 2^-40 becomes 1, not 1 + 2^-7). So round
/// to f32 toward zero, set the last bit when that was inexact (round to odd,
/// which keeps the information a second rounding needs), then round to bf16.
Value buildF64ToBF16(OpBuilder &b, Location loc, Value v) {
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  Value nearest = arith::TruncFOp::create(b, loc, f32, v);
  Value back = arith::ExtFOp::create(b, loc, v.getType(), nearest);
  Value bits = arith::BitcastOp::create(b, loc, i32, nearest);
  // |nearest| > |v|: step one ulp toward zero (the magnitude is in the bits).
  Value absBack = math::AbsFOp::create(b, loc, back);
  Value absV = math::AbsFOp::create(b, loc, v);
  Value tooBig = cmpf(b, loc, arith::CmpFPredicate::OGT, absBack, absV);
  Value one = intConst(b, loc, i32, 1);
  bits = select(b, loc, tooBig, arith::SubIOp::create(b, loc, bits, one), bits);
  // Inexact (or NaN): make the last bit sticky.
  Value inexact = cmpf(b, loc, arith::CmpFPredicate::UNE, back, v);
  bits = select(b, loc, inexact, arith::OrIOp::create(b, loc, bits, one), bits);
  Value odd = arith::BitcastOp::create(b, loc, f32, bits);
  return arith::TruncFOp::create(b, loc, b.getBF16Type(), odd);
}

/// Applies `fn` to `args` in `type`, or in f32 for f16 and bf16 with the
/// result rounded back once.
template <typename Fn>
Value inWideFloat(OpBuilder &b, Location loc, Type type, ValueRange args,
                  Fn fn) {
  if (!type.isF16() && !type.isBF16())
    return fn(args);
  Type f32 = b.getF32Type();
  SmallVector<Value> wide;
  for (Value a : args)
    wide.push_back(arith::ExtFOp::create(b, loc, f32, a));
  return arith::TruncFOp::create(b, loc, type, fn(wide));
}

/// Integer power by squaring over the `width` bits of the exponent, with
/// wrapping multiplication. A negative signed exponent gives 1 for base 1,
/// +-1 for base -1 and 0 otherwise (truncating repeated division).
Value buildIntPow(OpBuilder &b, Location loc, Value base, Value exp,
                  IntegerType type) {
  Type t = base.getType();
  unsigned w = type.getWidth();
  Value one = intConst(b, loc, t, 1), zero = intConst(b, loc, t, 0);
  Value lb = arith::ConstantIndexOp::create(b, loc, 0);
  Value ub = arith::ConstantIndexOp::create(b, loc, w);
  Value step = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, lb, ub, step, ValueRange{one, base},
      [&](OpBuilder &nb, Location l, Value iv, ValueRange acc) {
        Value shift = arith::IndexCastOp::create(nb, l, t, iv);
        Value bit = arith::AndIOp::create(
            nb, l, arith::ShRUIOp::create(nb, l, exp, shift), one);
        Value isSet = cmpi(nb, l, arith::CmpIPredicate::ne, bit, zero);
        Value product = arith::MulIOp::create(nb, l, acc[0], acc[1]);
        Value result = select(nb, l, isSet, product, acc[0]);
        Value square = arith::MulIOp::create(nb, l, acc[1], acc[1]);
        scf::YieldOp::create(nb, l, ValueRange{result, square});
      });
  Value result = loop.getResult(0);
  if (isUnsignedLike(type))
    return result;
  Value minusOne = intConst(b, loc, t, -1);
  Value odd = cmpi(b, loc, arith::CmpIPredicate::ne,
                   arith::AndIOp::create(b, loc, exp, one), zero);
  Value negPow = select(
      b, loc, cmpi(b, loc, arith::CmpIPredicate::eq, base, one), one,
      select(b, loc, cmpi(b, loc, arith::CmpIPredicate::eq, base, minusOne),
             select(b, loc, odd, minusOne, one), zero));
  Value negative = cmpi(b, loc, arith::CmpIPredicate::slt, exp, zero);
  return select(b, loc, negative, negPow, result);
}

/// Integer division or remainder that cannot trap: the divisor becomes 1
/// where it is 0 or where INT_MIN / -1 would overflow (x86 idiv faults on
/// both). The quotient there is unspecified by Tile; INT_MIN / -1 gives
/// INT_MIN and remainder 0, as the reference's two's complement wrap does.
Value buildIntDivRem(OpBuilder &b, Location loc, bool isDiv, Value lhs,
                     Value rhs, IntegerType type) {
  Type t = lhs.getType();
  unsigned w = type.getWidth();
  Value zero = intConst(b, loc, t, 0), one = intConst(b, loc, t, 1);
  Value bad = cmpi(b, loc, arith::CmpIPredicate::eq, rhs, zero);
  bool isUnsigned = isUnsignedLike(type);
  if (!isUnsigned) {
    Value intMin = intConst(b, loc, t, APInt::getSignedMinValue(w));
    Value minusOne = intConst(b, loc, t, -1);
    Value overflow = arith::AndIOp::create(
        b, loc, cmpi(b, loc, arith::CmpIPredicate::eq, lhs, intMin),
        cmpi(b, loc, arith::CmpIPredicate::eq, rhs, minusOne));
    bad = arith::OrIOp::create(b, loc, bad, overflow);
  }
  Value divisor = select(b, loc, bad, one, rhs);
  if (isDiv)
    return isUnsigned ? Value(arith::DivUIOp::create(b, loc, lhs, divisor))
                      : Value(arith::DivSIOp::create(b, loc, lhs, divisor));
  return isUnsigned ? Value(arith::RemUIOp::create(b, loc, lhs, divisor))
                    : Value(arith::RemSIOp::create(b, loc, lhs, divisor));
}
} // namespace

Value tile_to_affine::buildConstant(OpBuilder &b, Location loc, Type type,
                                    int64_t value) {
  if (isa<FloatType>(type))
    return floatConst(b, loc, type, static_cast<double>(value));
  return intConst(b, loc, getSignlessType(type), value);
}

Value tile_to_affine::buildTruthy(OpBuilder &b, Location loc, Value v,
                                  Type type) {
  if (isa<FloatType>(type))
    return cmpf(b, loc, arith::CmpFPredicate::UNE, v,
                floatConst(b, loc, type, 0.0));
  if (cast<IntegerType>(type).getWidth() == 1)
    return v;
  return cmpi(b, loc, arith::CmpIPredicate::ne, v,
              intConst(b, loc, v.getType(), 0));
}

Value tile_to_affine::buildConversion(OpBuilder &b, Location loc, Value v,
                                      Type from, Type to) {
  if (from == to)
    return v;
  auto fromInt = dyn_cast<IntegerType>(from);
  auto toInt = dyn_cast<IntegerType>(to);
  if (toInt && toInt.getWidth() == 1)
    return buildTruthy(b, loc, v, from);
  Type target = getSignlessType(to);
  if (fromInt && toInt) {
    unsigned fw = fromInt.getWidth(), tw = toInt.getWidth();
    if (fw == tw)
      return v; // signedness lives in the Tile type, not in the bits
    if (tw < fw)
      return arith::TruncIOp::create(b, loc, target, v);
    return isUnsignedLike(fromInt)
               ? Value(arith::ExtUIOp::create(b, loc, target, v))
               : Value(arith::ExtSIOp::create(b, loc, target, v));
  }
  if (fromInt)
    return isUnsignedLike(fromInt)
               ? Value(arith::UIToFPOp::create(b, loc, target, v))
               : Value(arith::SIToFPOp::create(b, loc, target, v));
  auto fromFloat = cast<FloatType>(from);
  if (toInt)
    return buildFloatToInt(b, loc, v, fromFloat, toInt);
  auto toFloat = cast<FloatType>(to);
  if (fromFloat.getWidth() == toFloat.getWidth()) {
    // f16 <-> bf16: every value of either is exact in f32.
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), v);
    return arith::TruncFOp::create(b, loc, target, wide);
  }
  if (fromFloat.getWidth() < toFloat.getWidth())
    return arith::ExtFOp::create(b, loc, target, v);
  if (fromFloat.isF64() && toFloat.isBF16())
    return buildF64ToBF16(b, loc, v);
  return arith::TruncFOp::create(b, loc, target, v);
}

Value tile_to_affine::buildBinary(OpBuilder &b, Location loc, BinaryKind kind,
                                  Value lhs, Value rhs, Type type) {
  if (isa<FloatType>(type)) {
    switch (kind) {
    case BinaryKind::Add:
      return arith::AddFOp::create(b, loc, lhs, rhs);
    case BinaryKind::Sub:
      return arith::SubFOp::create(b, loc, lhs, rhs);
    case BinaryKind::Mul:
      return arith::MulFOp::create(b, loc, lhs, rhs);
    case BinaryKind::Div:
      return arith::DivFOp::create(b, loc, lhs, rhs);
    case BinaryKind::Mod:
      return arith::RemFOp::create(b, loc, lhs, rhs);
    case BinaryKind::Pow:
      return inWideFloat(b, loc, type, {lhs, rhs}, [&](ValueRange a) {
        return math::PowFOp::create(b, loc, a[0], a[1]);
      });
    case BinaryKind::Max:
      return arith::MaximumFOp::create(b, loc, lhs, rhs);
    case BinaryKind::Min:
      return arith::MinimumFOp::create(b, loc, lhs, rhs);
    default:
      llvm_unreachable("bitwise ops on floats do not verify");
    }
  }
  auto intTy = cast<IntegerType>(type);
  bool isUnsigned = isUnsignedLike(intTy);
  switch (kind) {
  case BinaryKind::Add:
    return arith::AddIOp::create(b, loc, lhs, rhs);
  case BinaryKind::Sub:
    return arith::SubIOp::create(b, loc, lhs, rhs);
  case BinaryKind::Mul:
    return arith::MulIOp::create(b, loc, lhs, rhs);
  case BinaryKind::Div:
  case BinaryKind::Mod:
    return buildIntDivRem(b, loc, kind == BinaryKind::Div, lhs, rhs, intTy);
  case BinaryKind::Pow:
    return buildIntPow(b, loc, lhs, rhs, intTy);
  case BinaryKind::Max:
    return isUnsigned ? Value(arith::MaxUIOp::create(b, loc, lhs, rhs))
                      : Value(arith::MaxSIOp::create(b, loc, lhs, rhs));
  case BinaryKind::Min:
    return isUnsigned ? Value(arith::MinUIOp::create(b, loc, lhs, rhs))
                      : Value(arith::MinSIOp::create(b, loc, lhs, rhs));
  case BinaryKind::BitAnd:
    return arith::AndIOp::create(b, loc, lhs, rhs);
  case BinaryKind::BitOr:
    return arith::OrIOp::create(b, loc, lhs, rhs);
  case BinaryKind::BitXor:
    return arith::XOrIOp::create(b, loc, lhs, rhs);
  case BinaryKind::Shl:
    return arith::ShLIOp::create(b, loc, lhs, rhs);
  case BinaryKind::Shr:
    return isUnsigned ? Value(arith::ShRUIOp::create(b, loc, lhs, rhs))
                      : Value(arith::ShRSIOp::create(b, loc, lhs, rhs));
  }
  llvm_unreachable("unknown binary kind");
}

Value tile_to_affine::buildCompare(OpBuilder &b, Location loc,
                                   tile::CmpPredicate pred, Value lhs,
                                   Value rhs, Type type) {
  using tile::CmpPredicate;
  if (isa<FloatType>(type)) {
    arith::CmpFPredicate p;
    switch (pred) {
    case CmpPredicate::eq:
      p = arith::CmpFPredicate::OEQ;
      break;
    case CmpPredicate::ne:
      p = arith::CmpFPredicate::UNE; // NaN != x is true
      break;
    case CmpPredicate::lt:
      p = arith::CmpFPredicate::OLT;
      break;
    case CmpPredicate::le:
      p = arith::CmpFPredicate::OLE;
      break;
    case CmpPredicate::gt:
      p = arith::CmpFPredicate::OGT;
      break;
    case CmpPredicate::ge:
      p = arith::CmpFPredicate::OGE;
      break;
    }
    return cmpf(b, loc, p, lhs, rhs);
  }
  bool u = isUnsignedLike(type);
  arith::CmpIPredicate p;
  switch (pred) {
  case CmpPredicate::eq:
    p = arith::CmpIPredicate::eq;
    break;
  case CmpPredicate::ne:
    p = arith::CmpIPredicate::ne;
    break;
  case CmpPredicate::lt:
    p = u ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    break;
  case CmpPredicate::le:
    p = u ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
    break;
  case CmpPredicate::gt:
    p = u ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
    break;
  case CmpPredicate::ge:
    p = u ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
    break;
  }
  return cmpi(b, loc, p, lhs, rhs);
}

Value tile_to_affine::buildUnary(OpBuilder &b, Location loc, StringRef name,
                                 Value x, Type type) {
  if (name == "logical_not") {
    Value truthy = buildTruthy(b, loc, x, type);
    Value one = intConst(b, loc, b.getI1Type(), 1);
    return arith::XOrIOp::create(b, loc, truthy, one);
  }
  if (isa<FloatType>(type)) {
    if (name == "neg")
      return arith::NegFOp::create(b, loc, x);
    if (name == "abs")
      return math::AbsFOp::create(b, loc, x);
    if (name == "relu") { // keeps NaN and -0.0, like the reference's max(x, 0)
      Value zero = floatConst(b, loc, type, 0.0);
      return select(b, loc, cmpf(b, loc, arith::CmpFPredicate::OLT, x, zero),
                    zero, x);
    }
    if (name == "sqrt")
      return math::SqrtOp::create(b, loc, x);
    if (name == "floor")
      return math::FloorOp::create(b, loc, x);
    if (name == "ceil")
      return math::CeilOp::create(b, loc, x);
    if (name == "round") // half away from zero
      return math::RoundOp::create(b, loc, x);
    return inWideFloat(b, loc, type, {x}, [&](ValueRange a) -> Value {
      Value v = a[0];
      if (name == "exp")
        return math::ExpOp::create(b, loc, v);
      if (name == "log")
        return math::LogOp::create(b, loc, v);
      if (name == "tanh")
        return math::TanhOp::create(b, loc, v);
      if (name == "sin")
        return math::SinOp::create(b, loc, v);
      if (name == "cos")
        return math::CosOp::create(b, loc, v);
      if (name == "erf")
        return math::ErfOp::create(b, loc, v);
      assert(name == "sigmoid" && "unknown float unary op");
      Type t = v.getType();
      Value one = floatConst(b, loc, t, 1.0);
      Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, v));
      return arith::DivFOp::create(b, loc, one,
                                   arith::AddFOp::create(b, loc, one, e));
    });
  }
  Type t = x.getType();
  bool isUnsigned = isUnsignedLike(type);
  if (name == "bit_not")
    return arith::XOrIOp::create(b, loc, x, intConst(b, loc, t, -1));
  Value zero = intConst(b, loc, t, 0);
  if (name == "neg")
    return arith::SubIOp::create(b, loc, zero, x);
  if (name == "abs") {
    if (isUnsigned)
      return x;
    Value negative = cmpi(b, loc, arith::CmpIPredicate::slt, x, zero);
    return select(b, loc, negative, arith::SubIOp::create(b, loc, zero, x), x);
  }
  assert(name == "relu" && "unknown integer unary op");
  if (isUnsigned)
    return x;
  return arith::MaxSIOp::create(b, loc, x, zero);
}
