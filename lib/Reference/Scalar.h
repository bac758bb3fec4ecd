//===- Scalar.h - Scalar semantics of the reference interpreter -*- C++ -*-===//
//
// One element of a Tile tensor read in some element type, and the
// arithmetic of docs/Design.md section 3 on such elements: conversions, the
// binary and unary ops, comparisons. Both the elementwise ops and
// tile.contract's combinations and aggregations evaluate through these
// functions, so the two cannot disagree.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_REFERENCE_SCALAR_H
#define PLAIDML_LIB_REFERENCE_SCALAR_H

#include "plaidml/Dialect/Tile/IR/TileOps.h"
#include "plaidml/Reference/Interpreter.h"

#include <optional>
#include <string>

namespace mlir::plaidml::reference {

/// An element value: `f` for float element types, `i` for integer ones
/// (wrapped to the type; 64-bit unsigned values keep their bit pattern).
struct Scalar {
  int64_t i = 0;
  double f = 0.0;
};

/// The arithmetic ops shared by elementwise ops and contractions.
using tile::BinaryKind;

/// Reads element `idx` of `buffer` converted to `type`.
Scalar readAs(const Buffer &buffer, int64_t idx, Type type);
/// Writes `v`, which is a value of `buffer`'s element type.
void writeScalar(Buffer &buffer, int64_t idx, Scalar v);
/// Converts `v` from element type `from` to `to` (the semantics of tile.cast).
Scalar convertScalar(Scalar v, Type from, Type to);
/// True when `v` of type `type` is nonzero.
bool isTruthy(Scalar v, Type type);

/// `a kind b` in element type `type`. Returns an explanation instead of a
/// value when the result is unspecified (integer division by zero,
/// out-of-range shift amounts).
std::optional<Scalar> applyBinary(BinaryKind kind, Scalar a, Scalar b,
                                  Type type, std::string &error);

/// Comparison `a <pred> b` in element type `type`, with pred one of
/// "eq", "ne", "lt", "le", "gt", "ge" (tile.cmp's keywords).
bool compare(StringRef pred, Scalar a, Scalar b, Type type);

/// Unary op named by its tile mnemonic ("neg", "exp", ...) in `type`.
Scalar applyUnary(StringRef name, Scalar a, Type type);

} // namespace mlir::plaidml::reference

#endif // PLAIDML_LIB_REFERENCE_SCALAR_H
