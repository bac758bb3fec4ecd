//===- Passes.h - Tile dialect passes ---------------------------*- C++ -*-===//
//
// Declares the Tile passes (generated from Passes.td) and their registration.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_DIALECT_TILE_TRANSFORMS_PASSES_H
#define PLAIDML_DIALECT_TILE_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::plaidml::tile {

#define GEN_PASS_DECL
#include "plaidml/Dialect/Tile/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "plaidml/Dialect/Tile/Transforms/Passes.h.inc"

} // namespace mlir::plaidml::tile

#endif // PLAIDML_DIALECT_TILE_TRANSFORMS_PASSES_H
