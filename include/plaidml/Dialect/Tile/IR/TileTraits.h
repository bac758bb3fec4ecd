//===- TileTraits.h - Broadcasting traits of Tile elementwise o -*- C++ -*-===//
//
// Native op traits shared by the binary elementwise ops. Each one verifies
// that the result type is the NumPy broadcast of the operand shapes with the
// element type its rule prescribes: the promoted type (arithmetic), an
// integer promoted type (bitwise), or i1 (predicates).
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_DIALECT_TILE_IR_TILETRAITS_H
#define PLAIDML_DIALECT_TILE_IR_TILETRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::plaidml::tile {

/// What element type a broadcasting elementwise op produces.
enum class ElementwiseRule { Arithmetic, Bitwise, Predicate };

/// Verifies the broadcast shape and element type of `op`'s only result
/// against its operands (all of them take part in broadcasting).
LogicalResult verifyElementwiseBroadcast(Operation *op, ElementwiseRule rule);

/// The result type a broadcasting elementwise op with `rule` must have for
/// `operands`, or a null type when the shapes do not broadcast.
Type inferElementwiseResultType(TypeRange operands, ElementwiseRule rule);

template <typename ConcreteType>
class ArithmeticBroadcast
    : public OpTrait::TraitBase<ConcreteType, ArithmeticBroadcast> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyElementwiseBroadcast(op, ElementwiseRule::Arithmetic);
  }
};

template <typename ConcreteType>
class BitwiseBroadcast
    : public OpTrait::TraitBase<ConcreteType, BitwiseBroadcast> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyElementwiseBroadcast(op, ElementwiseRule::Bitwise);
  }
};

template <typename ConcreteType>
class PredicateBroadcast
    : public OpTrait::TraitBase<ConcreteType, PredicateBroadcast> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyElementwiseBroadcast(op, ElementwiseRule::Predicate);
  }
};

} // namespace mlir::plaidml::tile

#endif // PLAIDML_DIALECT_TILE_IR_TILETRAITS_H
