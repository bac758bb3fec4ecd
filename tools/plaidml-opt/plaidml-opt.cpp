//===- plaidml-opt.cpp - mlir-opt with PlaidML ----------------------------===//
//
// mlir-opt with the Tile dialect, every PlaidML pass and pipeline, and the
// upstream dialects and passes they use.
//
//===----------------------------------------------------------------------===//

#include "plaidml/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::plaidml::registerAllDialects(registry);
  mlir::plaidml::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "PlaidML optimizer driver\n", registry));
}
