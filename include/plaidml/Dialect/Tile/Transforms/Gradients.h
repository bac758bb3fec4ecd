//===- Gradients.h - Reverse-mode differentiation of Tile IR ----*- C++ -*-===//
//
// buildGradients emits, at a builder's insertion point, the Tile ops that
// compute the gradient of a loss value with respect to chosen values of the
// same block (reverse-mode automatic differentiation). The gradient of a
// contraction is a contraction over the same index space with the roles of
// the output and an input access swapped; elementwise ops, reshape, gather,
// scatter, select and cast have their own rules. docs/Training.md lists the
// rules. The EDSL's gradients() and the tile-append-gradients pass use it.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_DIALECT_TILE_TRANSFORMS_GRADIENTS_H
#define PLAIDML_DIALECT_TILE_TRANSFORMS_GRADIENTS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::plaidml::tile {

/// Builds d(loss)/d(wrt[i]) for every i, each of wrt[i]'s type, at the
/// builder's insertion point (which must come after `loss` in its block).
/// `loss` and every wrt value must have float element types and live in the
/// same block (as block arguments or op results); a loss of several elements
/// is differentiated as the sum of its elements. A value the loss does not
/// depend on gets a zero gradient. Integer values carry no gradient. An op
/// on the path from a wrt value to the loss that has no gradient rule is an
/// error (emitted at the op, naming it); the function then returns failure.
FailureOr<SmallVector<Value>> buildGradients(OpBuilder &builder, Value loss,
                                             ArrayRef<Value> wrt);

} // namespace mlir::plaidml::tile

#endif // PLAIDML_DIALECT_TILE_TRANSFORMS_GRADIENTS_H
