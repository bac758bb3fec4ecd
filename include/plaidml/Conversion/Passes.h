//===- Passes.h - PlaidML conversion passes ---------------------*- C++ -*-===//
//
// Declares the conversion passes (generated from Passes.td), their
// registration, and includes the headers of the individual conversions so
// that one include gives a pipeline everything it needs.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_CONVERSION_PASSES_H
#define PLAIDML_CONVERSION_PASSES_H

#include "plaidml/Conversion/TileToAffine/TileToAffine.h"

#include "mlir/Pass/Pass.h"

namespace mlir::plaidml {

#define GEN_PASS_DECL
#include "plaidml/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "plaidml/Conversion/Passes.h.inc"

} // namespace mlir::plaidml

#endif // PLAIDML_CONVERSION_PASSES_H
