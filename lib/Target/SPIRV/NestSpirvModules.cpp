//===- NestSpirvModules.cpp - spirv.module into its gpu.module ------------===//
//
// plaidml-nest-spirv-modules: moves every `spirv.module @__spv__K` that
// convert-gpu-to-spirv put beside `gpu.module @K` into that gpu.module, where
// gpu-module-to-binary looks for it (upstream does this only in the test pass
// test-convert-to-spirv{nest-in-gpu-module}).
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/SPIRV/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_NESTSPIRVMODULESPASS
#include "plaidml/Target/SPIRV/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;

namespace {
struct NestSpirvModulesPass
    : public plaidml::impl::NestSpirvModulesPassBase<NestSpirvModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto spv : llvm::make_early_inc_range(
             module.getBody()->getOps<spirv::ModuleOp>())) {
      std::optional<StringRef> name = spv.getName();
      if (!name || !name->consume_front("__spv__"))
        continue;
      auto gpuModule = symbols.lookup<gpu::GPUModuleOp>(*name);
      if (!gpuModule) {
        spv.emitOpError("has no gpu.module @") << *name;
        return signalPassFailure();
      }
      Block &body = gpuModule.getBodyRegion().front();
      spv->moveBefore(&body, body.begin());
    }
  }
};
} // namespace
