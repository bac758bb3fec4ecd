//===- Passes.h - OpenCL target passes --------------------------*- C++ -*-===//
//
// Declares the OpenCL target passes (generated from Passes.td) and their
// registration: the kernels of the OpenCL pipeline as OpenCL C text.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_TARGET_OPENCL_PASSES_H
#define PLAIDML_TARGET_OPENCL_PASSES_H

#include "plaidml/Dialect/PlaidML/IR/PlaidMLDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::plaidml {

#define GEN_PASS_DECL
#include "plaidml/Target/OpenCL/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "plaidml/Target/OpenCL/Passes.h.inc"

} // namespace mlir::plaidml

#endif // PLAIDML_TARGET_OPENCL_PASSES_H
