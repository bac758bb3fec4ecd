//===- consumer.cpp - Use the installed PlaidML package -------------------===//
//
// The program the package test builds against an installed PlaidML: it loads
// the Tile dialect into a fresh MLIRContext, parses a matmul written as a
// tile.contract (plus a dead tile.relu for canonicalize to remove), checks
// that the Tile passes are registered by name, runs the pass pipeline given on
// the command line on the module and prints the result. It exercises
// the installed headers (including the generated .inc files), the exported
// library targets and their link to libMLIR.so.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Dialect/Tile/IR/TileDialect.h"
#include "plaidml/Dialect/Tile/IR/TileOps.h"
#include "plaidml/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

static constexpr const char *kMatmul = R"mlir(
func.func @matmul(%A: tensor<4x8xf32>, %B: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %dead = tile.relu %A : tensor<4x8xf32>
  %C = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  return %C : tensor<4x16xf32>
}
)mlir";

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: " << argv[0]
                 << " <passes to run on the module, e.g. canonicalize,cse>\n";
    return 2;
  }

  mlir::MLIRContext context;
  context
      .loadDialect<mlir::plaidml::tile::TileDialect, mlir::func::FuncDialect>();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kMatmul, &context);
  if (!module)
    return 1; // The parser has reported the error.

  mlir::registerTransformsPasses(); // canonicalize, cse, ...
  mlir::plaidml::tile::registerTilePasses();
  if (!mlir::PassInfo::lookup("tile-compute-bounds")) {
    llvm::errs() << "tile-compute-bounds is not registered\n";
    return 1;
  }

  // Anchored on the module: the pipeline text names the passes to run on it
  // (an "any"-anchored manager would take `builtin.module(...)` as nested
  // modules and run nothing).
  auto pm = mlir::PassManager::on<mlir::ModuleOp>(&context);
  if (mlir::failed(mlir::parsePassPipeline(argv[1], pm, llvm::errs())))
    return 1;
  if (mlir::failed(pm.run(*module)))
    return 1;

  unsigned contractions = 0;
  module->walk([&](mlir::plaidml::tile::ContractionOp) { ++contractions; });
  module->print(llvm::outs());
  llvm::outs() << "contractions: " << contractions << "\n";
  return 0;
}
