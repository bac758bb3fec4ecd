//===- ElementTypes.h - Tile element types and runtime DTypes ----*- C++
//-*-===//
//
// The one mapping between the Tile dialect's element types (i1, si8..si64,
// ui8..ui64, f16, bf16, f32, f64, as MLIR types) and the runtime's
// plaidml::rt::DType, for the code that has both: the runner, the EDSL and
// the C API. Signless integers read as signed, as in the Tile dialect.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_SUPPORT_ELEMENTTYPES_H
#define PLAIDML_SUPPORT_ELEMENTTYPES_H

#include "plaidml/Runtime/HostArray.h"

#include "mlir/IR/Types.h"

#include <optional>

namespace mlir::plaidml {

/// The runtime DType of a Tile element type, or nullopt for any other type.
std::optional<::plaidml::rt::DType> getRuntimeDType(Type type);

/// The Tile element type of `dtype` (signed or unsigned integers, i1).
Type getTileElementType(::plaidml::rt::DType dtype, MLIRContext *context);

} // namespace mlir::plaidml

#endif // PLAIDML_SUPPORT_ELEMENTTYPES_H
