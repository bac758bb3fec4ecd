//===- Passes.h - Target-independent affine passes --------------*- C++ -*-===//
//
// Declares the passes that transform the ABI form of docs/ABI.md section 1
// (affine loop nests on memrefs) for every target (generated from
// Passes.td), and their registration.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_TRANSFORMS_PASSES_H
#define PLAIDML_TRANSFORMS_PASSES_H

#include "plaidml/Dialect/PlaidML/IR/PlaidMLDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::plaidml {

#define GEN_PASS_DECL
#include "plaidml/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "plaidml/Transforms/Passes.h.inc"

} // namespace mlir::plaidml

#endif // PLAIDML_TRANSFORMS_PASSES_H
