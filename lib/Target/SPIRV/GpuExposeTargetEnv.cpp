//===- GpuExposeTargetEnv.cpp - spirv.target_env on gpu.module ------------===//
//
// plaidml-gpu-expose-target-env: copies the #spirv.target_env that
// spirv-attach-target put in a gpu.module's targets into the module's
// spirv.target_env attribute, where the dialect-by-dialect SPIR-V conversions
// (convert-math-to-spirv, ...) look it up.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/SPIRV/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_GPUEXPOSETARGETENVPASS
#include "plaidml/Target/SPIRV/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;

namespace {
struct GpuExposeTargetEnvPass
    : public plaidml::impl::GpuExposeTargetEnvPassBase<GpuExposeTargetEnvPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    ArrayAttr targets = module.getTargetsAttr();
    if (!targets)
      return;
    for (Attribute target : targets) {
      if (auto env = dyn_cast<spirv::TargetEnvAttr>(target)) {
        module->setAttr(spirv::getTargetEnvAttrName(), env);
        return;
      }
    }
  }
};
} // namespace
