//===- Passes.h - SPIR-V kernel passes --------------------------*- C++ -*-===//
//
// Declares the passes that take outlined GPU kernels to SPIR-V for Vulkan and
// OpenCL (generated from Passes.td), and their registration: the glue around
// upstream's convert-gpu-to-spirv, the approximated math and the device
// support check.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_TARGET_SPIRV_PASSES_H
#define PLAIDML_TARGET_SPIRV_PASSES_H

#include "plaidml/Dialect/PlaidML/IR/PlaidMLDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::plaidml {

#define GEN_PASS_DECL
#include "plaidml/Target/SPIRV/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "plaidml/Target/SPIRV/Passes.h.inc"

} // namespace mlir::plaidml

#endif // PLAIDML_TARGET_SPIRV_PASSES_H
