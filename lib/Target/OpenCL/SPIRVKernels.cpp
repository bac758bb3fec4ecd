//===- SPIRVKernels.cpp - OpenCL kernel modules as SPIR-V -----------------===//
//
// getOpenCLTargetEnv and buildOpenCLSPIRVConversion (SPIRVKernels.h): the
// Vulkan pipeline's SPIR-V steps for the OpenCL client API. The Kernel
// capability makes kernel arguments CrossWorkgroup pointers (the OpenCL
// argument list), Addresses with 64-bit indices Physical64 addressing; math
// ops map one to one onto OpenCL.std, which has them for every float width.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/OpenCL/SPIRVKernels.h"

#include "plaidml/Target/GPU/Passes.h"
#include "plaidml/Target/SPIRV/Passes.h"

#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRVPass.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::plaidml;

Attribute mlir::plaidml::getOpenCLTargetEnv(MLIRContext *context, bool fp16,
                                            bool fp64) {
  // The integer widths are in every OpenCL full profile; f16 and f64
  // arithmetic only with cl_khr_fp16 / cl_khr_fp64.
  using spirv::Capability;
  SmallVector<Capability> caps = {Capability::Kernel, Capability::Addresses,
                                  Capability::Int8, Capability::Int16,
                                  Capability::Int64};
  if (fp16)
    caps.push_back(Capability::Float16);
  if (fp64)
    caps.push_back(Capability::Float64);
  auto triple = spirv::VerCapExtAttr::get(
      spirv::Version::V_1_0, caps, ArrayRef<spirv::Extension>(), context);
  return spirv::TargetEnvAttr::get(triple,
                                   spirv::getDefaultResourceLimits(context),
                                   spirv::ClientAPI::OpenCL);
}

void mlir::plaidml::buildOpenCLSPIRVConversion(OpPassManager &pm,
                                               bool serialize) {
  pm.addNestedPass<gpu::GPUModuleOp>(createGpuExposeTargetEnvPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createGpuCheckDeviceSupportPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertMathToSPIRVPass());
  // Memory spaces become CrossWorkgroup for the OpenCL client API; index
  // is 64-bit to match Physical64 pointers.
  std::unique_ptr<Pass> toSPIRV =
      createConvertGPUToSPIRVPass(/*mapMemorySpace=*/true);
  (void)toSPIRV->initializeOptions("use-64bit-index=true",
                                   [](const Twine &) { return failure(); });
  pm.addPass(std::move(toSPIRV));
  pm.addPass(createNestSpirvModulesPass());
  OpPassManager &spirvPM = pm.nest<gpu::GPUModuleOp>().nest<spirv::ModuleOp>();
  spirvPM.addPass(spirv::createSPIRVLowerABIAttributesPass());
  spirvPM.addPass(spirv::createSPIRVUpdateVCEPass());
  if (serialize) {
    // What the kernels need, from their VCE triples, before serialization.
    pm.addPass(createGpuCollectRequirementsPass());
    pm.addPass(createGpuModuleToBinaryPass());
  }
}
