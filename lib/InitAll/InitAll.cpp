//===- InitAll.cpp - Register everything PlaidML provides -----------------===//
//
// Implements the registration entry points of InitAll.h.
//
//===----------------------------------------------------------------------===//

#include "plaidml/InitAll.h"

#include "plaidml/Conversion/Passes.h"
#include "plaidml/Dialect/Tile/IR/TileDialect.h"
#include "plaidml/Dialect/Tile/Transforms/Passes.h"
#include "plaidml/Pipelines/Pipelines.h"
#include "plaidml/Target/Cpu/Passes.h"
#include "plaidml/Target/OpenCL/Passes.h"
#include "plaidml/Target/Vulkan/Passes.h"
#include "plaidml/Transforms/Passes.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"

void mlir::plaidml::registerAllDialects(DialectRegistry &registry) {
  registry.insert<tile::TileDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
}

void mlir::plaidml::registerAllPasses() {
  tile::registerTilePasses();
  registerPlaidMLConversionPasses();
  registerPlaidMLTransformsPasses();
  registerTargetCpuPasses();
  registerCpuPipelines();
  registerTargetVulkanPasses();
  registerVulkanPipelines();
  registerTargetOpenCLPasses();
  registerOpenCLPipelines();
  mlir::registerAllPasses();
}
