//===- Buffer.cpp - Host tensors of the reference interpreter -------------===//
//
// Storage of the reference interpreter's tensors, exact rounding and wrapping
// to each element type, and conversion from constants and raw bytes.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Reference/Interpreter.h"

#include "Scalar.h"

#include "llvm/ADT/APFloat.h"

#include <cstring>

using namespace mlir;
using namespace mlir::plaidml::reference;

int64_t mlir::plaidml::reference::wrapInteger(int64_t v, IntegerType type) {
  unsigned w = type.getWidth();
  if (w == 1)
    return v & 1;
  if (w >= 64)
    return v;
  uint64_t mask = (uint64_t(1) << w) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if (type.isUnsigned())
    return static_cast<int64_t>(u);
  if (u >> (w - 1))
    return static_cast<int64_t>(u | ~mask); // sign-extend
  return static_cast<int64_t>(u);
}

double mlir::plaidml::reference::roundFloat(double v, FloatType type) {
  if (type.isF64())
    return v;
  if (type.isF32())
    return static_cast<double>(static_cast<float>(v));
  llvm::APFloat f(v);
  bool losesInfo;
  f.convert(type.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven,
            &losesInfo);
  return f.convertToDouble();
}

Buffer::Buffer(RankedTensorType type) : type(type) {
  if (isFloat())
    floats.assign(getNumElements(), 0.0);
  else
    ints.assign(getNumElements(), 0);
}

double Buffer::getFloat(int64_t i) const {
  if (isFloat())
    return floats[i];
  Scalar v;
  v.i = ints[i];
  return convertScalar(v, getElementType(), Float64Type::get(type.getContext()))
      .f;
}

int64_t Buffer::getInt(int64_t i) const {
  if (!isFloat())
    return ints[i];
  Scalar v;
  v.f = floats[i];
  return convertScalar(v, getElementType(),
                       IntegerType::get(type.getContext(), 64))
      .i;
}

void Buffer::setFloat(int64_t i, double v) {
  if (isFloat()) {
    floats[i] = roundFloat(v, cast<FloatType>(getElementType()));
    return;
  }
  Scalar s;
  s.f = v;
  ints[i] =
      convertScalar(s, Float64Type::get(type.getContext()), getElementType()).i;
}

void Buffer::setInt(int64_t i, int64_t v) {
  if (!isFloat()) {
    ints[i] = wrapInteger(v, cast<IntegerType>(getElementType()));
    return;
  }
  Scalar s;
  s.i = v;
  floats[i] = convertScalar(s, IntegerType::get(type.getContext(), 64),
                            getElementType())
                  .f;
}

/// Bytes per element in the storage layout (i1 takes one byte).
static unsigned storageBytes(Type type) {
  return std::max(1u, type.getIntOrFloatBitWidth() / 8);
}

std::vector<uint8_t> Buffer::toBytes() const {
  Type elem = getElementType();
  unsigned size = storageBytes(elem);
  std::vector<uint8_t> bytes(getNumElements() * size);
  for (int64_t i = 0, e = getNumElements(); i < e; ++i) {
    uint64_t bits;
    if (elem.isF64()) {
      double d = floats[i];
      std::memcpy(&bits, &d, 8);
    } else if (elem.isF32()) {
      float f = static_cast<float>(floats[i]);
      uint32_t b32;
      std::memcpy(&b32, &f, 4);
      bits = b32;
    } else if (auto floatTy = dyn_cast<FloatType>(elem)) {
      llvm::APFloat f(floats[i]);
      bool losesInfo;
      f.convert(floatTy.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo);
      bits = f.bitcastToAPInt().getZExtValue();
    } else {
      bits = static_cast<uint64_t>(ints[i]);
    }
    for (unsigned b = 0; b < size; ++b)
      bytes[i * size + b] = static_cast<uint8_t>(bits >> (8 * b));
  }
  return bytes;
}

LogicalResult Buffer::fromBytes(ArrayRef<uint8_t> bytes) {
  Type elem = getElementType();
  unsigned size = storageBytes(elem);
  if (bytes.size() != static_cast<size_t>(getNumElements()) * size)
    return failure();
  for (int64_t i = 0, e = getNumElements(); i < e; ++i) {
    uint64_t bits = 0;
    for (unsigned b = 0; b < size; ++b)
      bits |= static_cast<uint64_t>(bytes[i * size + b]) << (8 * b);
    if (elem.isF64()) {
      std::memcpy(&floats[i], &bits, 8);
    } else if (elem.isF32()) {
      uint32_t b32 = static_cast<uint32_t>(bits);
      float f;
      std::memcpy(&f, &b32, 4);
      floats[i] = f;
    } else if (auto floatTy = dyn_cast<FloatType>(elem)) {
      llvm::APFloat f(floatTy.getFloatSemantics(), llvm::APInt(16, bits));
      floats[i] = f.convertToDouble();
    } else if (elem.isInteger(1)) {
      ints[i] = bits != 0;
    } else {
      setInt(i, static_cast<int64_t>(bits));
    }
  }
  return success();
}

Buffer Buffer::fromAttr(DenseElementsAttr attr) {
  Buffer buffer(cast<RankedTensorType>(attr.getType()));
  int64_t i = 0;
  if (buffer.isFloat()) {
    for (const llvm::APFloat &v : attr.getValues<llvm::APFloat>())
      buffer.floats[i++] = v.convertToDouble();
  } else {
    auto intTy = cast<IntegerType>(buffer.getElementType());
    for (const llvm::APInt &v : attr.getValues<llvm::APInt>())
      buffer.ints[i++] =
          wrapInteger(intTy.isUnsigned() || intTy.getWidth() == 1
                          ? static_cast<int64_t>(v.getZExtValue())
                          : v.getSExtValue(),
                      intTy);
  }
  return buffer;
}
