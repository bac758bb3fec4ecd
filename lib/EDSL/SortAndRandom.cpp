//===- SortAndRandom.cpp - The argsort and prng intrinsics ----------------===//
//
// argsort builds tile.argsort (stable sort positions along an axis, si32)
// and prng builds tile.prng (Philox4x32-10 values of a shape and element
// type, and the advanced state); prngSeed makes the state constant that
// starts a stream. Axes count from the end when negative; bad axes, shapes
// and element types are Errors naming the tensor.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "plaidml/Dialect/Tile/IR/TileOps.h"

using namespace mlir;
using namespace mlir::plaidml::tile;
using namespace ::plaidml::edsl;
namespace edetail = ::plaidml::edsl::detail;

namespace plaidml::edsl {

Tensor argsort(const Tensor &x, int64_t axis, SortDirection direction) {
  edetail::checkNotNull(x, "argsort");
  RankedTensorType type = edetail::getTensorType(x);
  int64_t rank = type.getRank();
  int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank)
    throw Error("argsort of " + edetail::describe(x) + ": axis " +
                std::to_string(axis) + " is out of range for rank " +
                std::to_string(rank));
  OpBuilder b = getBuilder();
  auto resultType =
      RankedTensorType::get(type.getShape(), edetail::toMLIRType(DType::si32));
  auto dir = direction == SortDirection::Asc
                 ? mlir::plaidml::tile::SortDirection::asc
                 : mlir::plaidml::tile::SortDirection::desc;
  auto op = ArgSortOp::create(b, b.getUnknownLoc(), resultType,
                              SortDirectionAttr::get(b.getContext(), dir),
                              getValue(x), b.getI64IntegerAttr(a));
  std::string what = "argsort of " + edetail::describe(x);
  edetail::verifyOrThrow(op, what);
  return makeTensor(op.getResult());
}

PrngResult prng(const Tensor &state, const std::vector<int64_t> &shape,
                DType dtype) {
  edetail::checkNotNull(state, "prng state");
  RankedTensorType stateType = edetail::getTensorType(state);
  auto word = dyn_cast<IntegerType>(stateType.getElementType());
  if (stateType.getShape() != ArrayRef<int64_t>{6} || !word ||
      word.getWidth() != 32)
    throw Error("prng: the state " + edetail::describe(state) +
                " must be 6 32-bit integers (key k0, k1 and counter c0..c3)");
  switch (dtype) {
  case DType::f16:
  case DType::bf16:
  case DType::f32:
  case DType::f64:
  case DType::si32:
  case DType::ui32:
    break;
  default:
    throw Error(std::string("prng: values of element type ") +
                rt::getDTypeName(dtype) +
                " are not generated (f16, bf16, f32, f64, si32, ui32 are)");
  }
  for (int64_t d : shape)
    if (d <= 0)
      throw Error("prng: the shape " + edetail::formatShape(shape) +
                  " has a dimension that is not positive");
  OpBuilder b = getBuilder();
  auto valuesType = RankedTensorType::get(shape, edetail::toMLIRType(dtype));
  auto op = PrngOp::create(b, b.getUnknownLoc(), valuesType, stateType,
                           getValue(state));
  edetail::verifyOrThrow(op, "prng of " + edetail::formatShape(shape) +
                                 " from " + edetail::describe(state));
  return PrngResult{makeTensor(op.getValues()), makeTensor(op.getNewState())};
}

Tensor prngSeed(uint64_t seed) {
  rt::HostArray a;
  a.dtype = DType::ui32;
  a.shape = {6};
  uint32_t words[6] = {static_cast<uint32_t>(seed),
                       static_cast<uint32_t>(seed >> 32),
                       0,
                       0,
                       0,
                       0};
  const auto *bytes = reinterpret_cast<const uint8_t *>(words);
  a.bytes.assign(bytes, bytes + sizeof(words));
  return Constant(a, "prng_seed");
}

} // namespace plaidml::edsl
