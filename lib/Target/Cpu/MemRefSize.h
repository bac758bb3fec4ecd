//===- MemRefSize.h - Byte sizes of the CPU pipeline's buffers --*- C++ -*-===//
//
// The bytes of a static memref as the CPU code lays it out, shared by the
// passes that place buffers in one argument (plaidml-cpu-plan-workspace,
// plaidml-cpu-split-prepare).
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_TARGET_CPU_MEMREFSIZE_H
#define PLAIDML_LIB_TARGET_CPU_MEMREFSIZE_H

#include "mlir/IR/BuiltinTypes.h"

#include <optional>

namespace mlir::plaidml::cpu {

/// Alignment of the buffers placed in one argument (the workspace, the
/// prepared buffer), as the runtime aligns its buffers.
inline constexpr int64_t kBufferAlignment = 64;

/// Bytes of a static memref of identity layout, or nullopt (a dynamic
/// shape, a layout, an element type of unknown size, or an overflow).
inline std::optional<int64_t> getByteSize(MemRefType type) {
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return std::nullopt;
  Type element = type.getElementType();
  if (!element.isIntOrFloat())
    return std::nullopt;
  // One byte per i1 element, as memrefs of i1 are laid out on the CPU.
  int64_t bytes = (element.getIntOrFloatBitWidth() + 7) / 8;
  for (int64_t dim : type.getShape())
    if (__builtin_mul_overflow(bytes, dim, &bytes))
      return std::nullopt;
  return bytes;
}

} // namespace mlir::plaidml::cpu

#endif // PLAIDML_LIB_TARGET_CPU_MEMREFSIZE_H
