//===- Passes.h - Vulkan target passes --------------------------*- C++ -*-===//
//
// Declares the Vulkan target passes (generated from Passes.td) and their
// registration: the GPU mapping configuration and the SPIR-V glue that
// upstream MLIR only has as test passes.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_TARGET_VULKAN_PASSES_H
#define PLAIDML_TARGET_VULKAN_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::plaidml {

/// The attribute plaidml-gpu-configure records on an outermost
/// affine.parallel: the workgroup tile, one size per loop dimension.
constexpr llvm::StringLiteral kGpuWorkgroupSizeAttrName =
    "plaidml.gpu.workgroup_size";

#define GEN_PASS_DECL
#include "plaidml/Target/Vulkan/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "plaidml/Target/Vulkan/Passes.h.inc"

} // namespace mlir::plaidml

#endif // PLAIDML_TARGET_VULKAN_PASSES_H
