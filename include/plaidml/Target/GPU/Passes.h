//===- Passes.h - Target-neutral GPU passes ---------------------*- C++ -*-===//
//
// Declares the passes every GPU target shares (generated from Passes.td) and
// their registration: the workgroup mapping of the ABI form's loop nests and
// the host code's device buffers and launch arguments.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_TARGET_GPU_PASSES_H
#define PLAIDML_TARGET_GPU_PASSES_H

#include "plaidml/Dialect/PlaidML/IR/PlaidMLDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::plaidml {

#define GEN_PASS_DECL
#include "plaidml/Target/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "plaidml/Target/GPU/Passes.h.inc"

} // namespace mlir::plaidml

#endif // PLAIDML_TARGET_GPU_PASSES_H
