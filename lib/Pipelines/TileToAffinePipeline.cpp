//===- TileToAffinePipeline.cpp - What every target's pipeline shares -----===//
//
// docs/Design.md section 2: every target starts from the same Tile -> affine
// spine, and targets differ only after it. The target pipelines call this
// builder first instead of listing the passes again; those that end in the
// LLVM dialect (CPU code, GPU host code) share their last conversions too.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Pipelines/Pipelines.h"

#include "plaidml/Conversion/Passes.h"
#include "plaidml/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"

void mlir::plaidml::buildTileToAffinePipeline(OpPassManager &pm, bool cpu) {
  OpPassManager &fpm = pm.nest<func::FuncOp>();
  fpm.addPass(tile::createTileComputeBoundsPass());
  fpm.addPass(tile::createTileOutputStationaryPass());
  ConvertTileToAffinePassOptions options;
  options.borderFill = cpu;
  options.splitGuards = cpu;
  pm.addPass(createConvertTileToAffinePass(options));
}

void mlir::plaidml::buildScalarsAndFunctionsToLLVM(OpPassManager &pm) {
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  ConvertFuncToLLVMPassOptions funcOptions;
  funcOptions.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcOptions));
}
