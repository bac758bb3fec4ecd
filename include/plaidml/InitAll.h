//===- InitAll.h - Register everything PlaidML provides ---------*- C++ -*-===//
//
// The one registration point: the Tile and plaidml dialects, every PlaidML pass
// and pipeline, PlaidML's translations, and the upstream dialects, extensions
// and passes the pipelines use. Tools call these functions; an embedding
// compiler may call them or pick the pieces it needs.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_INITALL_H
#define PLAIDML_INITALL_H

#include "mlir/IR/DialectRegistry.h"

namespace mlir::plaidml {

/// Registers the Tile dialect and every upstream dialect and dialect
/// extension that PlaidML pipelines produce or consume.
void registerAllDialects(DialectRegistry &registry);

/// Registers every PlaidML pass and pipeline, and the upstream passes.
void registerAllPasses();

/// Registers PlaidML's translations (InitAllTranslations.cpp):
/// --mlir-to-llvmir (replacing upstream's of that name: do not also call
/// mlir::registerToLLVMIRTranslation), --import-tile, --mlir-to-opencl-c.
/// Calling it again does nothing.
void registerAllTranslations();

} // namespace mlir::plaidml

#endif // PLAIDML_INITALL_H
