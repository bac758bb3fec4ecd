//===- Buffer.cpp - Host tensors of the reference interpreter -------------===//
//
// Storage of the reference interpreter's tensors (compact, at each element
// type's width, allocated with checks), exact rounding and wrapping to each
// element type, and conversion from constants and raw bytes.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Reference/Interpreter.h"

#include "Scalar.h"

#include "llvm/ADT/APFloat.h"

#include <cstdlib>
#include <cstring>
#include <iterator>

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

void Buffer::Free::operator()(uint8_t *p) const { std::free(p); }

/// "1.5 GiB" and the like, for allocation errors.
static std::string formatSize(uint64_t bytes) {
  const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  unsigned unit = 0;
  while (value >= 1024 && unit + 1 < std::size(units)) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof(text), unit ? "%.1f %s" : "%.0f %s", value,
                units[unit]);
  return text;
}

Buffer::Buffer(RankedTensorType type, int64_t numElements)
    : type(type), numElements(numElements) {
  Type elem = type.getElementType();
  if (elem.isF64()) {
    storage = Storage::F64;
  } else if (isa<FloatType>(elem)) {
    storage = Storage::F32; // f16 and bf16 included
  } else {
    auto intTy = cast<IntegerType>(elem);
    bool u = intTy.isUnsigned();
    switch (intTy.getWidth()) {
    case 1:
      storage = Storage::I1;
      break;
    case 8:
      storage = u ? Storage::U8 : Storage::S8;
      break;
    case 16:
      storage = u ? Storage::U16 : Storage::S16;
      break;
    case 32:
      storage = u ? Storage::U32 : Storage::S32;
      break;
    default:
      storage = u ? Storage::U64 : Storage::S64;
      break;
    }
  }
  switch (storage) {
  case Storage::I1:
  case Storage::S8:
  case Storage::U8:
    elementBytes = 1;
    break;
  case Storage::S16:
  case Storage::U16:
    elementBytes = 2;
    break;
  case Storage::S32:
  case Storage::U32:
  case Storage::F32:
    elementBytes = 4;
    break;
  default:
    elementBytes = 8;
    break;
  }
}

FailureOr<Buffer> Buffer::create(RankedTensorType type, Location loc) {
  // The element count and byte size, with overflow checks (the type's own
  // getNumElements wraps silently).
  uint64_t count = 1;
  bool overflow = false;
  for (int64_t d : type.getShape()) {
    if (d < 0)
      return emitError(loc) << "the reference interpreter cannot allocate "
                            << type << ": it has a dynamic or negative size";
    overflow |= d != 0 && count > uint64_t(INT64_MAX) / uint64_t(d);
    if (!overflow)
      count *= uint64_t(d);
  }
  if (llvm::is_contained(type.getShape(), 0))
    overflow = false, count = 0;
  Buffer buffer(type, static_cast<int64_t>(count));
  if (overflow || count > uint64_t(INT64_MAX) / buffer.elementBytes) {
    InFlightDiagnostic diag = emitError(loc)
                              << "the reference interpreter cannot allocate "
                              << type << ": its number of elements (";
    llvm::interleave(type.getShape(), diag, " x ");
    return diag << ") overflows 64 bits";
  }
  uint64_t bytes = count * buffer.elementBytes;
  // calloc, not std::vector: a failed allocation returns null here, where a
  // vector would abort (the interpreter is built without exceptions).
  buffer.data.reset(
      static_cast<uint8_t *>(std::calloc(std::max<uint64_t>(bytes, 1), 1)));
  if (!buffer.data)
    return emitError(loc) << "out of memory: the reference interpreter "
                             "cannot allocate "
                          << bytes << " bytes (" << formatSize(bytes)
                          << ") for " << type;
  return buffer;
}

FailureOr<Buffer> Buffer::clone(Location loc) const {
  FailureOr<Buffer> copy = create(type, loc);
  if (succeeded(copy) && numElements)
    std::memcpy(copy->data.get(), data.get(),
                static_cast<size_t>(numElements) * elementBytes);
  return copy;
}

double Buffer::getFloat(int64_t i) const {
  const uint8_t *p = data.get() + i * elementBytes;
  if (storage == Storage::F64) {
    double d;
    std::memcpy(&d, p, 8);
    return d;
  }
  if (storage == Storage::F32) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  Scalar v;
  v.i = getInt(i);
  return convertScalar(v, getElementType(), Float64Type::get(type.getContext()))
      .f;
}

int64_t Buffer::getInt(int64_t i) const {
  const uint8_t *p = data.get() + i * elementBytes;
  switch (storage) {
  case Storage::I1:
  case Storage::U8:
    return *p;
  case Storage::S8:
    return static_cast<int8_t>(*p);
  case Storage::S16: {
    int16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  case Storage::U16: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  case Storage::S32: {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case Storage::U32: {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case Storage::S64:
  case Storage::U64: {
    int64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  case Storage::F32:
  case Storage::F64:
    break;
  }
  Scalar v;
  v.f = getFloat(i);
  return convertScalar(v, getElementType(),
                       IntegerType::get(type.getContext(), 64))
      .i;
}

void Buffer::setFloat(int64_t i, double v) {
  uint8_t *p = data.get() + i * elementBytes;
  if (storage == Storage::F64) {
    std::memcpy(p, &v, 8);
    return;
  }
  if (storage == Storage::F32) {
    // Rounded to the element type first: f16 and bf16 values are exact
    // floats, and f32 rounds once.
    float f =
        static_cast<float>(roundFloat(v, cast<FloatType>(getElementType())));
    std::memcpy(p, &f, 4);
    return;
  }
  Scalar s;
  s.f = v;
  setInt(i,
         convertScalar(s, Float64Type::get(type.getContext()), getElementType())
             .i);
}

void Buffer::setInt(int64_t i, int64_t v) {
  if (isFloat()) {
    Scalar s;
    s.i = v;
    setFloat(i, convertScalar(s, IntegerType::get(type.getContext(), 64),
                              getElementType())
                    .f);
    return;
  }
  // Storing the low bytes wraps to the width; reading sign- or
  // zero-extends by the signedness.
  uint64_t bits = storage == Storage::I1 ? (v & 1) : static_cast<uint64_t>(v);
  uint8_t *p = data.get() + i * elementBytes;
  for (unsigned b = 0; b < elementBytes; ++b)
    p[b] = static_cast<uint8_t>(bits >> (8 * b));
}

/// Bytes per element in the storage layout (i1 takes one byte).
static unsigned storageBytes(Type type) {
  return std::max(1u, type.getIntOrFloatBitWidth() / 8);
}

size_t Buffer::getByteSize() const {
  return static_cast<size_t>(numElements) * storageBytes(getElementType());
}

void Buffer::writeBytes(MutableArrayRef<uint8_t> bytes) const {
  assert(bytes.size() == getByteSize() && "wrong byte count");
  Type elem = getElementType();
  unsigned size = storageBytes(elem);
  if (size == elementBytes) {
    // The storage is the layout (integers, f32, f64).
    if (!bytes.empty())
      std::memcpy(bytes.data(), data.get(), bytes.size());
    return;
  }
  // f16 and bf16, kept as float.
  auto floatTy = cast<FloatType>(elem);
  for (int64_t i = 0; i < numElements; ++i) {
    llvm::APFloat f(static_cast<float>(getFloat(i)));
    bool losesInfo;
    f.convert(floatTy.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven,
              &losesInfo);
    uint64_t bits = f.bitcastToAPInt().getZExtValue();
    bytes[i * 2] = static_cast<uint8_t>(bits);
    bytes[i * 2 + 1] = static_cast<uint8_t>(bits >> 8);
  }
}

std::vector<uint8_t> Buffer::toBytes() const {
  std::vector<uint8_t> bytes(getByteSize());
  writeBytes(bytes);
  return bytes;
}

LogicalResult Buffer::fromBytes(ArrayRef<uint8_t> bytes) {
  Type elem = getElementType();
  unsigned size = storageBytes(elem);
  if (bytes.size() != getByteSize())
    return failure();
  if (size == elementBytes && storage != Storage::I1) {
    if (!bytes.empty())
      std::memcpy(data.get(), bytes.data(), bytes.size());
    return success();
  }
  for (int64_t i = 0; i < numElements; ++i) {
    if (storage == Storage::I1) {
      setInt(i, bytes[i] != 0);
      continue;
    }
    auto floatTy = cast<FloatType>(elem);
    uint64_t bits = bytes[i * 2] | (uint64_t(bytes[i * 2 + 1]) << 8);
    llvm::APFloat f(floatTy.getFloatSemantics(), llvm::APInt(16, bits));
    float value = static_cast<float>(f.convertToDouble());
    std::memcpy(data.get() + i * 4, &value, 4);
  }
  return success();
}

FailureOr<Buffer> Buffer::fromAttr(DenseElementsAttr attr, Location loc) {
  FailureOr<Buffer> buffer =
      create(cast<RankedTensorType>(attr.getType()), loc);
  if (failed(buffer))
    return failure();
  int64_t i = 0;
  if (buffer->isFloat()) {
    for (const llvm::APFloat &v : attr.getValues<llvm::APFloat>())
      buffer->setFloat(i++, v.convertToDouble());
  } else {
    auto intTy = cast<IntegerType>(buffer->getElementType());
    for (const llvm::APInt &v : attr.getValues<llvm::APInt>())
      buffer->setInt(i++, intTy.isUnsigned() || intTy.getWidth() == 1
                              ? static_cast<int64_t>(v.getZExtValue())
                              : v.getSExtValue());
  }
  return buffer;
}
