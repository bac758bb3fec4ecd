//===- Passes.h - CPU target passes -----------------------------*- C++ -*-===//
//
// Declares the CPU target passes (generated from Passes.td) and their
// registration.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_TARGET_CPU_PASSES_H
#define PLAIDML_TARGET_CPU_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::plaidml {

/// The bytes of an entry function's workspace (plaidml-cpu-plan-workspace),
/// an i64 attribute that plaidml-emit-cpu-entry-points writes into the
/// manifest (docs/ABI.md sections 2 and 3).
inline constexpr llvm::StringLiteral kWorkspaceAttrName = "plaidml.workspace";

#define GEN_PASS_DECL
#include "plaidml/Target/Cpu/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "plaidml/Target/Cpu/Passes.h.inc"

} // namespace mlir::plaidml

#endif // PLAIDML_TARGET_CPU_PASSES_H
