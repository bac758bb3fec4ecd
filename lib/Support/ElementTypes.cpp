//===- ElementTypes.cpp - Tile element types and runtime DTypes
//------------===//
//
// getRuntimeDType and getTileElementType (ElementTypes.h).
//
//===----------------------------------------------------------------------===//

#include "plaidml/Support/ElementTypes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

using namespace mlir;
using ::plaidml::rt::DType;

std::optional<DType> mlir::plaidml::getRuntimeDType(Type type) {
  if (auto intTy = dyn_cast<IntegerType>(type)) {
    bool u = intTy.isUnsigned();
    switch (intTy.getWidth()) {
    case 1:
      return DType::i1;
    case 8:
      return u ? DType::ui8 : DType::si8;
    case 16:
      return u ? DType::ui16 : DType::si16;
    case 32:
      return u ? DType::ui32 : DType::si32;
    case 64:
      return u ? DType::ui64 : DType::si64;
    default:
      return std::nullopt;
    }
  }
  if (type.isF16())
    return DType::f16;
  if (type.isBF16())
    return DType::bf16;
  if (type.isF32())
    return DType::f32;
  if (type.isF64())
    return DType::f64;
  return std::nullopt;
}

Type mlir::plaidml::getTileElementType(DType dtype, MLIRContext *context) {
  auto si = [&](unsigned w) {
    return IntegerType::get(context, w, IntegerType::Signed);
  };
  auto ui = [&](unsigned w) {
    return IntegerType::get(context, w, IntegerType::Unsigned);
  };
  switch (dtype) {
  case DType::i1:
    return IntegerType::get(context, 1);
  case DType::si8:
    return si(8);
  case DType::si16:
    return si(16);
  case DType::si32:
    return si(32);
  case DType::si64:
    return si(64);
  case DType::ui8:
    return ui(8);
  case DType::ui16:
    return ui(16);
  case DType::ui32:
    return ui(32);
  case DType::ui64:
    return ui(64);
  case DType::f16:
    return Float16Type::get(context);
  case DType::bf16:
    return BFloat16Type::get(context);
  case DType::f32:
    return Float32Type::get(context);
  case DType::f64:
    return Float64Type::get(context);
  }
  return {};
}
