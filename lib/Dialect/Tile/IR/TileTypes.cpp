//===- TileTypes.cpp - Tile element types, promotion, broadcasting --------===//
//
// Implements the typing rules declared in TileTypes.h: the element type
// lattice used for promotion and NumPy broadcasting of static shapes.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Dialect/Tile/IR/TileTypes.h"

#include "mlir/Dialect/Traits.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::plaidml::tile;

bool mlir::plaidml::tile::isTileElementType(Type type) {
  if (auto intTy = dyn_cast<IntegerType>(type)) {
    unsigned w = intTy.getWidth();
    if (w == 1)
      return intTy.isSignless();
    return w == 8 || w == 16 || w == 32 || w == 64;
  }
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64();
}

bool mlir::plaidml::tile::isSignedInteger(Type type) {
  auto intTy = dyn_cast<IntegerType>(type);
  return intTy && intTy.getWidth() > 1 && !intTy.isUnsigned();
}

namespace {
/// Position in the promotion order; larger wins. Floats sit above every
/// integer; equal ranks only occur for signless/signed pairs of one width and
/// for f16/bf16.
int promotionRank(Type type) {
  if (auto intTy = dyn_cast<IntegerType>(type)) {
    if (intTy.getWidth() == 1)
      return 0;
    return static_cast<int>(intTy.getWidth()) * 2 +
           (intTy.isUnsigned() ? 1 : 0);
  }
  if (type.isF16() || type.isBF16())
    return 1000;
  if (type.isF32())
    return 1001;
  return 1002; // f64
}
} // namespace

Type mlir::plaidml::tile::promoteElementTypes(Type a, Type b) {
  if (a == b)
    return a;
  int ra = promotionRank(a), rb = promotionRank(b);
  if (ra == rb) {
    // f16 with bf16: neither holds the other exactly.
    if (isa<FloatType>(a))
      return Float32Type::get(a.getContext());
    // Signless and signed of one width compute alike; pick the signed one
    // whatever the order, or swapping the operands of a commutative op would
    // change its result type.
    return cast<IntegerType>(a).isSigned() ? a : b;
  }
  return ra > rb ? a : b;
}

bool mlir::plaidml::tile::isPromotableTo(Type from, Type to) {
  if (from == to)
    return true;
  Type promoted = promoteElementTypes(from, to);
  return promotionRank(promoted) == promotionRank(to) &&
         (promoted == to || !isa<FloatType>(to));
}

std::optional<SmallVector<int64_t>>
mlir::plaidml::tile::broadcastShapes(ArrayRef<ArrayRef<int64_t>> shapes) {
  SmallVector<int64_t> result;
  for (ArrayRef<int64_t> shape : shapes) {
    SmallVector<int64_t> next;
    if (!OpTrait::util::getBroadcastedShape(result, shape, next))
      return std::nullopt;
    result = std::move(next);
  }
  return result;
}

bool mlir::plaidml::tile::isBroadcastableTo(ArrayRef<int64_t> from,
                                            ArrayRef<int64_t> to) {
  if (from.size() > to.size())
    return false;
  size_t offset = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i)
    if (from[i] != 1 && from[i] != to[offset + i])
      return false;
  return true;
}

std::optional<int64_t>
mlir::plaidml::tile::getCheckedNumElements(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape)
    if (llvm::MulOverflow(count, dim, count))
      return std::nullopt;
  return count;
}
