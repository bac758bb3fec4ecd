//===- TileOps.h - Tile dialect operations ----------------------*- C++ -*-===//
//
// Declares the Tile operations generated from TileOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_DIALECT_TILE_IR_TILEOPS_H
#define PLAIDML_DIALECT_TILE_IR_TILEOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "plaidml/Dialect/Tile/IR/TileDialect.h"
#include "plaidml/Dialect/Tile/IR/TileTraits.h"
#include "plaidml/Dialect/Tile/IR/TileTypes.h"

#define GET_OP_CLASSES
#include "plaidml/Dialect/Tile/IR/TileOps.h.inc"

namespace mlir::plaidml::tile {

/// The arithmetic and bitwise binary elementwise ops as one enumeration, for
/// code that treats them alike (the lowering, the reference interpreter,
/// contraction combinations and aggregations).
enum class BinaryKind {
  Add,
  Sub,
  Mul,
  Div,
  Mod,
  Pow,
  Max,
  Min,
  BitAnd,
  BitOr,
  BitXor,
  Shl,
  Shr
};

/// The kind of `op` when it is one of those ops.
std::optional<BinaryKind> getBinaryKind(Operation *op);

} // namespace mlir::plaidml::tile

#endif // PLAIDML_DIALECT_TILE_IR_TILEOPS_H
