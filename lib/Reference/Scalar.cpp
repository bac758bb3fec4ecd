//===- Scalar.cpp - Scalar semantics of the reference interpreter ---------===//
//
// Element conversions and arithmetic, written out case by case so that each
// rule of docs/Design.md section 3 is visible: integers wrap to their width,
// signed and unsigned differ in division, shifts and comparisons, floats are
// rounded to their element type after every operation.
//
//===----------------------------------------------------------------------===//

#include "Scalar.h"

#include "plaidml/Dialect/Tile/IR/TileTypes.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::plaidml;
using namespace mlir::plaidml::reference;

namespace {
bool isUnsignedInt(Type type) {
  auto intTy = dyn_cast<IntegerType>(type);
  return intTy && intTy.isUnsigned();
}

/// Float to integer: truncate toward zero, saturate at the type's range,
/// NaN gives 0 (the conversion itself is unspecified there; saturating keeps
/// the oracle deterministic).
int64_t floatToInt(double f, IntegerType type) {
  if (std::isnan(f))
    return 0;
  f = std::trunc(f);
  unsigned w = type.getWidth();
  if (type.isUnsigned()) {
    double max = std::ldexp(1.0, w) - 1;
    if (f <= 0)
      return 0;
    if (f >= max)
      return w == 64 ? -1 : static_cast<int64_t>(max);
    return static_cast<int64_t>(static_cast<uint64_t>(f));
  }
  double max = std::ldexp(1.0, w - 1) - 1, min = -std::ldexp(1.0, w - 1);
  if (f >= max)
    return w == 64 ? std::numeric_limits<int64_t>::max()
                   : static_cast<int64_t>(max);
  if (f <= min)
    return static_cast<int64_t>(min);
  return static_cast<int64_t>(f);
}
} // namespace

Scalar reference::convertScalar(Scalar v, Type from, Type to) {
  Scalar r;
  auto toInt = dyn_cast<IntegerType>(to);
  bool fromFloat = isa<FloatType>(from);
  if (!toInt) {
    auto toFloat = cast<FloatType>(to);
    if (fromFloat) {
      r.f = roundFloat(v.f, toFloat);
      return r;
    }
    // Round the exact integer once (going through double would round
    // integers above 2^53 twice).
    auto fromInt = cast<IntegerType>(from);
    bool isSigned = !fromInt.isUnsigned() && fromInt.getWidth() > 1;
    llvm::APFloat f(toFloat.getFloatSemantics());
    f.convertFromAPInt(llvm::APInt(64, static_cast<uint64_t>(v.i)), isSigned,
                       llvm::APFloat::rmNearestTiesToEven);
    r.f = f.convertToDouble();
    return r;
  }
  if (toInt.getWidth() == 1) {
    r.i = isTruthy(v, from) ? 1 : 0;
    return r;
  }
  r.i = fromFloat ? wrapInteger(floatToInt(v.f, toInt), toInt)
                  : wrapInteger(v.i, toInt);
  return r;
}

bool reference::isTruthy(Scalar v, Type type) {
  return isa<FloatType>(type) ? v.f != 0.0 : v.i != 0;
}

Scalar reference::readAs(const Buffer &buffer, int64_t idx, Type type) {
  Scalar v;
  if (buffer.isFloat())
    v.f = buffer.getFloat(idx);
  else
    v.i = buffer.getInt(idx);
  return convertScalar(v, buffer.getElementType(), type);
}

void reference::writeScalar(Buffer &buffer, int64_t idx, Scalar v) {
  if (buffer.isFloat())
    buffer.setFloat(idx, v.f);
  else
    buffer.setInt(idx, v.i);
}

//===----------------------------------------------------------------------===//
// Binary arithmetic
//===----------------------------------------------------------------------===//

static std::optional<Scalar> floatBinary(BinaryKind kind, double a, double b,
                                         FloatType type) {
  double r;
  switch (kind) {
  case BinaryKind::Add:
    r = a + b;
    break;
  case BinaryKind::Sub:
    r = a - b;
    break;
  case BinaryKind::Mul:
    r = a * b;
    break;
  case BinaryKind::Div:
    r = a / b;
    break;
  case BinaryKind::Mod:
    r = std::fmod(a, b);
    break;
  case BinaryKind::Pow:
    r = std::pow(a, b);
    break;
  case BinaryKind::Max: // NaN-propagating, like arith.maximumf
    r = (std::isnan(a) || std::isnan(b)) ? NAN : std::max(a, b);
    break;
  case BinaryKind::Min:
    r = (std::isnan(a) || std::isnan(b)) ? NAN : std::min(a, b);
    break;
  default:
    return std::nullopt; // bitwise ops on floats never verify
  }
  Scalar s;
  s.f = roundFloat(r, type);
  return s;
}

/// Integer power with wrapping; negative exponents truncate toward zero
/// like repeated division (1 and -1 stay exact, everything else gives 0).
static uint64_t intPow(int64_t base, int64_t exp, bool isUnsigned) {
  if (!isUnsigned && exp < 0) {
    if (base == 1)
      return 1;
    if (base == -1)
      return (exp % 2 == 0) ? 1 : static_cast<uint64_t>(-1);
    return 0;
  }
  uint64_t result = 1, b = static_cast<uint64_t>(base);
  uint64_t e = static_cast<uint64_t>(exp);
  while (e) {
    if (e & 1)
      result *= b;
    b *= b;
    e >>= 1;
  }
  return result;
}

std::optional<Scalar> reference::applyBinary(BinaryKind kind, Scalar a,
                                             Scalar b, Type type,
                                             std::string &error) {
  if (auto floatTy = dyn_cast<FloatType>(type))
    return floatBinary(kind, a.f, b.f, floatTy);

  auto intTy = cast<IntegerType>(type);
  bool isUnsigned = intTy.isUnsigned();
  unsigned width = intTy.getWidth();
  uint64_t ua = static_cast<uint64_t>(a.i), ub = static_cast<uint64_t>(b.i);
  // Values are stored wrapped: sign-extended for signed types, zero-extended
  // for unsigned ones, so unsigned comparisons on the uint64_t are exact.
  uint64_t r;
  switch (kind) {
  case BinaryKind::Add:
    r = ua + ub;
    break;
  case BinaryKind::Sub:
    r = ua - ub;
    break;
  case BinaryKind::Mul:
    r = ua * ub;
    break;
  case BinaryKind::Div:
  case BinaryKind::Mod: {
    if (b.i == 0) {
      error = "integer division by zero";
      return std::nullopt;
    }
    bool div = kind == BinaryKind::Div;
    if (isUnsigned)
      r = div ? ua / ub : ua % ub;
    else if (a.i == std::numeric_limits<int64_t>::min() && b.i == -1)
      r = div ? ua : 0; // wraps, like the hardware's two's complement
    else
      r = static_cast<uint64_t>(div ? a.i / b.i : a.i % b.i);
    break;
  }
  case BinaryKind::Pow:
    r = intPow(a.i, b.i, isUnsigned);
    break;
  case BinaryKind::Max:
    r = isUnsigned ? std::max(ua, ub)
                   : static_cast<uint64_t>(std::max(a.i, b.i));
    break;
  case BinaryKind::Min:
    r = isUnsigned ? std::min(ua, ub)
                   : static_cast<uint64_t>(std::min(a.i, b.i));
    break;
  case BinaryKind::BitAnd:
    r = ua & ub;
    break;
  case BinaryKind::BitOr:
    r = ua | ub;
    break;
  case BinaryKind::BitXor:
    r = ua ^ ub;
    break;
  case BinaryKind::Shl:
  case BinaryKind::Shr: {
    bool negative = !isUnsigned && b.i < 0;
    if (negative || ub >= width) {
      error = "shift amount " +
              (negative ? std::to_string(b.i) : std::to_string(ub)) +
              " is out of range for a " + std::to_string(width) +
              "-bit integer";
      return std::nullopt;
    }
    if (kind == BinaryKind::Shl)
      r = ua << ub;
    else
      r = isUnsigned ? ua >> ub : static_cast<uint64_t>(a.i >> b.i);
    break;
  }
  }
  Scalar s;
  s.i = wrapInteger(static_cast<int64_t>(r), intTy);
  return s;
}

bool reference::compare(StringRef pred, Scalar a, Scalar b, Type type) {
  if (isa<FloatType>(type)) {
    if (std::isnan(a.f) || std::isnan(b.f))
      return pred == "ne";
    return llvm::StringSwitch<bool>(pred)
        .Case("eq", a.f == b.f)
        .Case("ne", a.f != b.f)
        .Case("lt", a.f < b.f)
        .Case("le", a.f <= b.f)
        .Case("gt", a.f > b.f)
        .Case("ge", a.f >= b.f);
  }
  if (isUnsignedInt(type)) {
    uint64_t ua = a.i, ub = b.i;
    return llvm::StringSwitch<bool>(pred)
        .Case("eq", ua == ub)
        .Case("ne", ua != ub)
        .Case("lt", ua < ub)
        .Case("le", ua <= ub)
        .Case("gt", ua > ub)
        .Case("ge", ua >= ub);
  }
  return llvm::StringSwitch<bool>(pred)
      .Case("eq", a.i == b.i)
      .Case("ne", a.i != b.i)
      .Case("lt", a.i < b.i)
      .Case("le", a.i <= b.i)
      .Case("gt", a.i > b.i)
      .Case("ge", a.i >= b.i);
}

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

Scalar reference::applyUnary(StringRef name, Scalar a, Type type) {
  Scalar r;
  if (name == "logical_not") {
    r.i = isTruthy(a, type) ? 0 : 1;
    return r;
  }
  if (auto floatTy = dyn_cast<FloatType>(type)) {
    double x = a.f;
    double v = llvm::StringSwitch<double>(name)
                   .Case("neg", -x)
                   .Case("abs", std::fabs(x))
                   .Case("relu", std::isnan(x) ? x : std::max(x, 0.0))
                   .Case("exp", std::exp(x))
                   .Case("log", std::log(x))
                   .Case("sqrt", std::sqrt(x))
                   .Case("tanh", std::tanh(x))
                   .Case("sin", std::sin(x))
                   .Case("cos", std::cos(x))
                   .Case("floor", std::floor(x))
                   .Case("ceil", std::ceil(x))
                   .Case("round", std::round(x))
                   .Case("erf", std::erf(x))
                   .Case("sigmoid", 1.0 / (1.0 + std::exp(-x)))
                   .Default(NAN);
    r.f = roundFloat(v, floatTy);
    return r;
  }
  auto intTy = cast<IntegerType>(type);
  uint64_t ux = static_cast<uint64_t>(a.i);
  uint64_t v = 0;
  if (name == "neg")
    v = 0 - ux;
  else if (name == "abs")
    v = (!intTy.isUnsigned() && a.i < 0) ? 0 - ux : ux;
  else if (name == "relu")
    v = (!intTy.isUnsigned() && a.i < 0) ? 0 : ux;
  else if (name == "bit_not")
    v = ~ux;
  r.i = wrapInteger(static_cast<int64_t>(v), intTy);
  return r;
}
