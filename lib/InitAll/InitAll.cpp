//===- InitAll.cpp - Register everything PlaidML provides -----------------===//
//
// Implements the registration entry points of InitAll.h.
//
//===----------------------------------------------------------------------===//

#include "plaidml/InitAll.h"

#include "plaidml/Conversion/Passes.h"
#include "plaidml/Dialect/PlaidML/IR/PlaidMLDialect.h"
#include "plaidml/Dialect/Tile/IR/TileDialect.h"
#include "plaidml/Dialect/Tile/Transforms/Passes.h"
#include "plaidml/Pipelines/Pipelines.h"
#include "plaidml/Target/Cpu/Passes.h"
#include "plaidml/Target/GPU/Passes.h"
#include "plaidml/Target/OpenCL/Passes.h"
#include "plaidml/Target/SPIRV/Passes.h"
#include "plaidml/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"

void mlir::plaidml::registerAllDialects(DialectRegistry &registry) {
  registry.insert<tile::TileDialect, PlaidMLDialect>();
  // The plaidml.* attributes are checked wherever they appear, also in IR
  // that uses no plaidml attribute syntax (which would load the dialect):
  // loading func or llvm loads plaidml too.
  registry.addExtension(+[](MLIRContext *context, func::FuncDialect *) {
    context->getOrLoadDialect<PlaidMLDialect>();
  });
  registry.addExtension(+[](MLIRContext *context, LLVM::LLVMDialect *) {
    context->getOrLoadDialect<PlaidMLDialect>();
  });
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
}

void mlir::plaidml::registerAllPasses() {
  tile::registerTilePasses();
  registerPlaidMLConversionPasses();
  registerPlaidMLTransformsPasses();
  registerTargetCpuPasses();
  registerCpuPipelines();
  registerTargetGPUPasses();
  registerTargetSPIRVPasses();
  registerVulkanPipelines();
  registerTargetOpenCLPasses();
  registerOpenCLPipelines();
  mlir::registerAllPasses();
}
