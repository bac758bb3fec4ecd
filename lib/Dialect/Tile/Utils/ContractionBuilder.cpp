//===- ContractionBuilder.cpp - Helpers for frontends building contractions
//===//
//
// Rational affine forms, their integral scaling, aggregation identities and
// contraction result types, shared by the Tile-language importer and the
// C++ EDSL.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Dialect/Tile/Utils/ContractionBuilder.h"

#include "llvm/Support/CheckedArithmetic.h"

#include <numeric>

using namespace mlir;
using namespace mlir::plaidml::tile;

std::optional<Rational> Rational::make(int64_t num, int64_t den) {
  if (den == 0 || num == INT64_MIN || den == INT64_MIN)
    return std::nullopt;
  if (den < 0) {
    num = -num;
    den = -den;
  }
  int64_t g = std::gcd(num, den);
  return Rational{num / g, den / g};
}

std::optional<Rational> mlir::plaidml::tile::addRational(Rational a,
                                                         Rational b) {
  std::optional<int64_t> x = llvm::checkedMul(a.num, b.den);
  std::optional<int64_t> y = llvm::checkedMul(b.num, a.den);
  std::optional<int64_t> d = llvm::checkedMul(a.den, b.den);
  if (!x || !y || !d)
    return std::nullopt;
  std::optional<int64_t> n = llvm::checkedAdd(*x, *y);
  if (!n)
    return std::nullopt;
  return Rational::make(*n, *d);
}

std::optional<Rational> mlir::plaidml::tile::mulRational(Rational a,
                                                         Rational b) {
  std::optional<int64_t> n = llvm::checkedMul(a.num, b.num);
  std::optional<int64_t> d = llvm::checkedMul(a.den, b.den);
  if (!n || !d)
    return std::nullopt;
  return Rational::make(*n, *d);
}

bool LinearForm::isConstant() const {
  return llvm::all_of(coeffs, [](Rational r) { return r.isZero(); });
}

std::optional<LinearForm> mlir::plaidml::tile::combineForms(const LinearForm &a,
                                                            const LinearForm &b,
                                                            Rational scaleB) {
  LinearForm r;
  std::optional<Rational> sb = mulRational(b.constant, scaleB);
  std::optional<Rational> c = sb ? addRational(a.constant, *sb) : std::nullopt;
  if (!c)
    return std::nullopt;
  r.constant = *c;
  r.coeffs.resize(std::max(a.coeffs.size(), b.coeffs.size()));
  for (size_t i = 0; i < r.coeffs.size(); ++i) {
    Rational x = i < a.coeffs.size() ? a.coeffs[i] : Rational();
    Rational y = i < b.coeffs.size() ? b.coeffs[i] : Rational();
    std::optional<Rational> sy = mulRational(y, scaleB);
    std::optional<Rational> s = sy ? addRational(x, *sy) : std::nullopt;
    if (!s)
      return std::nullopt;
    r.coeffs[i] = *s;
  }
  return r;
}

std::optional<LinearForm> mlir::plaidml::tile::scaleForm(const LinearForm &a,
                                                         Rational s) {
  return combineForms(LinearForm(), a, s);
}

std::optional<std::pair<AffineExpr, int64_t>>
mlir::plaidml::tile::toIntegralForm(const LinearForm &form,
                                    MLIRContext *context) {
  constexpr int64_t kLimit = int64_t(1) << 32;
  int64_t d = form.constant.den;
  for (Rational c : form.coeffs) {
    if (d > kLimit)
      return std::nullopt;
    int64_t g = std::gcd(d, c.den);
    std::optional<int64_t> l = llvm::checkedMul(d / g, c.den);
    if (!l)
      return std::nullopt;
    d = *l;
  }
  auto scaled = [&](Rational r) -> std::optional<int64_t> {
    std::optional<int64_t> v = llvm::checkedMul(r.num, d / r.den);
    if (!v || *v > kLimit || *v < -kLimit)
      return std::nullopt;
    return v;
  };
  std::optional<int64_t> c0 = scaled(form.constant);
  if (!c0)
    return std::nullopt;
  AffineExpr expr = getAffineConstantExpr(*c0, context);
  for (auto [i, c] : llvm::enumerate(form.coeffs)) {
    if (c.isZero())
      continue;
    std::optional<int64_t> ci = scaled(c);
    if (!ci)
      return std::nullopt;
    expr = expr + getAffineDimExpr(i, context) * *ci;
  }
  return std::make_pair(expr, d);
}

TypedAttr mlir::plaidml::tile::getAggregationIdentity(AggregationKind agg,
                                                      Type type) {
  bool lowest = agg == AggregationKind::max;
  bool highest = agg == AggregationKind::min;
  if (auto floatTy = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = floatTy.getFloatSemantics();
    if (lowest || highest)
      return FloatAttr::get(floatTy, APFloat::getInf(sem, /*Negative=*/lowest));
    return FloatAttr::get(floatTy, agg == AggregationKind::mul ? 1.0 : 0.0);
  }
  auto intTy = cast<IntegerType>(type);
  unsigned width = intTy.getWidth();
  APInt value(width, agg == AggregationKind::mul ? 1 : 0);
  if (width == 1)
    value = APInt(1, highest || agg == AggregationKind::mul ? 1 : 0);
  else if (lowest)
    value = intTy.isUnsigned() ? APInt::getMinValue(width)
                               : APInt::getSignedMinValue(width);
  else if (highest)
    value = intTy.isUnsigned() ? APInt::getMaxValue(width)
                               : APInt::getSignedMaxValue(width);
  return IntegerAttr::get(type, value);
}

Type mlir::plaidml::tile::getContractionElementType(AggregationKind agg,
                                                    CombinationKind combo,
                                                    ArrayRef<Type> inputs) {
  MLIRContext *ctx = inputs.front().getContext();
  switch (combo) {
  case CombinationKind::none:
    return inputs[0];
  case CombinationKind::add:
  case CombinationKind::mul:
    return promoteElementTypes(inputs[0], inputs[1]);
  case CombinationKind::eq:
    return agg == AggregationKind::add
               ? IntegerType::get(ctx, 32, IntegerType::Signed)
               : IntegerType::get(ctx, 1);
  case CombinationKind::cond:
    return inputs[2];
  }
  return inputs[0];
}
