//===- TileTypes.h - Tile types: promotion, broadcasting --------*- C++ -*-===//
//
// The typing rules of docs/Design.md section 3 in one place: which element
// types Tile accepts, how mixed element types promote, and how shapes
// broadcast. Verifiers, builders, the frontend and the lowerings all call these
// so the rules cannot drift apart.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_DIALECT_TILE_IR_TILETYPES_H
#define PLAIDML_DIALECT_TILE_IR_TILETYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace mlir::plaidml::tile {

/// True for i1, 8/16/32/64-bit integers of any signedness, f16, bf16, f32, f64.
bool isTileElementType(Type type);

/// True for signed or signless integers wider than i1 (signless is signed).
bool isSignedInteger(Type type);

/// The promoted element type of `a` and `b`:
///   i1 < integers by width (unsigned above signed of equal width)
///      < f16/bf16 < f32 < f64,
/// f16 with bf16 gives f32 and signless with signed of one width gives the
/// signed type, so the result does not depend on the operand order (which
/// commutative ops may swap).
Type promoteElementTypes(Type a, Type b);

/// True when converting `from` to `to` never narrows in the promotion order
/// (promoteElementTypes(from, to) == to, up to signless/signed ties).
bool isPromotableTo(Type from, Type to);

/// NumPy broadcast of `shapes` (right-aligned, size-1 dimensions stretch),
/// or std::nullopt when two dimensions differ and neither is 1.
std::optional<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<llvm::ArrayRef<int64_t>> shapes);

/// The number of elements of `shape`, or std::nullopt when it overflows
/// int64_t (ShapedType::getNumElements silently wraps).
std::optional<int64_t> getCheckedNumElements(llvm::ArrayRef<int64_t> shape);

/// True when `from` broadcasts to exactly `to`.
bool isBroadcastableTo(llvm::ArrayRef<int64_t> from,
                       llvm::ArrayRef<int64_t> to);

} // namespace mlir::plaidml::tile

#endif // PLAIDML_DIALECT_TILE_IR_TILETYPES_H
