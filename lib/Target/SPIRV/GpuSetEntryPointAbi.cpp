//===- GpuSetEntryPointAbi.cpp - Workgroup sizes of SPIR-V entry points ---===//
//
// plaidml-gpu-set-entry-point-abi: gives every launched gpu.func the
// spirv.entry_point_abi that convert-gpu-to-spirv needs, with the constant
// block sizes of its gpu.launch_func (upstream only has the test pass
// test-spirv-entry-point-abi, which takes one size for all kernels).
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/SPIRV/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_GPUSETENTRYPOINTABIPASS
#include "plaidml/Target/SPIRV/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;

namespace {
struct GpuSetEntryPointAbiPass
    : public plaidml::impl::GpuSetEntryPointAbiPassBase<
          GpuSetEntryPointAbiPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    StringRef abiName = spirv::getEntryPointABIAttrName();
    WalkResult result = module.walk([&](gpu::LaunchFuncOp launch) {
      auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernel());
      if (!kernel) {
        launch.emitOpError("launches no gpu.func");
        return WalkResult::interrupt();
      }
      SmallVector<int32_t> sizes;
      for (Value v : {launch.getBlockSizeX(), launch.getBlockSizeY(),
                      launch.getBlockSizeZ()}) {
        std::optional<int64_t> c = getConstantIntValue(v);
        if (!c) {
          launch.emitOpError("needs constant block sizes for Vulkan");
          return WalkResult::interrupt();
        }
        sizes.push_back(*c);
      }
      auto abi = spirv::getEntryPointABIAttr(&getContext(), sizes);
      if (auto old = kernel->getAttr(abiName); old && old != abi) {
        launch.emitOpError("launches ")
            << kernel.getName() << " with another workgroup size than " << old;
        return WalkResult::interrupt();
      }
      kernel->setAttr(abiName, abi);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
