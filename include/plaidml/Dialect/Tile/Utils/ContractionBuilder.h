//===- ContractionBuilder.h - Helpers for frontends building tile.contract ===//
//
// What every frontend that writes contractions needs (the Tile-language
// importer and the C++ EDSL): exact affine forms with rational coefficients
// for index polynomials, their scaling to integer affine expressions (an
// access `q/d` becomes `q floordiv d` plus the constraint `q mod d == 0`),
// the identity of an aggregation (the init of an output without a default)
// and the element type a contraction's result takes.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_DIALECT_TILE_UTILS_CONTRACTIONBUILDER_H
#define PLAIDML_DIALECT_TILE_UTILS_CONTRACTIONBUILDER_H

#include "plaidml/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <utility>

namespace mlir::plaidml::tile {

/// An exact fraction num/den, den > 0, in lowest terms. Every operation
/// returns nullopt instead of overflowing.
struct Rational {
  int64_t num = 0, den = 1;

  static std::optional<Rational> make(int64_t num, int64_t den);
  bool isZero() const { return num == 0; }
};
std::optional<Rational> addRational(Rational a, Rational b);
std::optional<Rational> mulRational(Rational a, Rational b);

/// constant + sum(coeffs[i] * index_i), exactly.
struct LinearForm {
  Rational constant;
  llvm::SmallVector<Rational> coeffs;

  bool isConstant() const;
};
/// a + b * scaleB, or nullopt on overflow.
std::optional<LinearForm> combineForms(const LinearForm &a, const LinearForm &b,
                                       Rational scaleB);
std::optional<LinearForm> scaleForm(const LinearForm &a, Rational s);

/// `form` scaled to integers: the affine expression q over dims
/// 0..coeffs-1 and the lcm d of the denominators (form = q / d). Fails
/// (nullopt) when a scaled coefficient leaves [-2^32, 2^32], which later
/// stages need to compute in 64 bits.
std::optional<std::pair<AffineExpr, int64_t>>
toIntegralForm(const LinearForm &form, MLIRContext *context);

/// The identity of `agg` in element type `type`: 0 for add and assign, 1
/// for mul, the lowest value (-inf) for max, the highest (+inf) for min.
TypedAttr getAggregationIdentity(AggregationKind agg, Type type);

/// The result element type of a contraction with `inputs` (their element
/// types): the first input's for none, the promotion for add and mul, si32
/// for eq summed and i1 otherwise, the third input's for cond.
Type getContractionElementType(AggregationKind agg, CombinationKind combo,
                               ArrayRef<Type> inputs);

} // namespace mlir::plaidml::tile

#endif // PLAIDML_DIALECT_TILE_UTILS_CONTRACTIONBUILDER_H
