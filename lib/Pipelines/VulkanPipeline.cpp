//===- VulkanPipeline.cpp - Tile to GPU kernels in SPIR-V for Vulkan ------===//
//
// buildVulkanPipeline and buildVulkanLoweringPipeline and their textual
// registrations. The lowering half takes the ABI form of docs/ABI.md section 1
// to host functions that launch kernels: one gpu.module per outermost loop
// nest, holding its spirv.module (Shader, storage buffers), and optionally to
// a gpu.binary and LLVM-dialect host code. docs/VulkanPipeline.md explains it.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Pipelines/Pipelines.h"

#include "Registration.h"

#include "plaidml/Target/GPU/Passes.h"
#include "plaidml/Target/SPIRV/Passes.h"
#include "plaidml/Transforms/Passes.h"

#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRVPass.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::plaidml;

std::string mlir::plaidml::validateVulkanPipelineOptions(
    const VulkanPipelineOptions &options) {
  std::string error = validateMaxWorkgroupSize(options.maxWorkgroupSize);
  if (!error.empty())
    return error;
  StringRef version = options.spirvVersion;
  if (!version.consume_front("v1.") || version.size() != 1 ||
      version[0] < '0' || version[0] > '6')
    return "spirv-version must be v1.0 ... v1.6, not '" + options.spirvVersion +
           "'";
  return "";
}

void mlir::plaidml::buildVulkanLoweringPipeline(
    OpPassManager &pm, const VulkanPipelineOptions &options) {
  AttachTargetPassOptions device;
  device.device = "vulkan";
  device.triple = options.triple;
  device.cpu = options.cpu;
  device.features = options.features;
  device.caps.assign(options.caps.begin(), options.caps.end());
  device.exts.assign(options.exts.begin(), options.exts.end());
  device.maxWorkgroupSize = options.maxWorkgroupSize;
  device.label = options.label;
  pm.addPass(createAttachTargetPass(device));
  buildGpuMappingPipeline(pm);

  // SPIR-V for Vulkan, nested in each gpu.module.
  GpuSPIRVAttachTargetOptions target;
  target.spirvVersion = options.spirvVersion;
  // MLIR's spirv.KHR.CooperativeMatrix* ops need SPIR-V 1.6 (Vulkan 1.3,
  // which every driver with VK_KHR_cooperative_matrix implements);
  // spirv-update-vce still gives every module the lowest version its ops
  // need.
  if (llvm::is_contained(options.caps, "CooperativeMatrixKHR") &&
      StringRef(options.spirvVersion) < "v1.6")
    target.spirvVersion = "v1.6";
  target.clientApi = "Vulkan";
  target.spirvCapabilities = {"Shader"};
  // Device properties (coopmat-..., subgroup-size-32) are not SPIR-V
  // capabilities; plaidml-gpu-configure reads them from the target.
  for (const std::string &cap : options.caps)
    if (!StringRef(cap).contains('-'))
      target.spirvCapabilities.push_back(cap);
  target.spirvExtensions = {"SPV_KHR_storage_buffer_storage_class"};
  target.spirvExtensions.append(options.exts.begin(), options.exts.end());
  pm.addPass(createGpuSPIRVAttachTarget(target));
  pm.addNestedPass<gpu::GPUModuleOp>(createGpuExposeTargetEnvPass());
  pm.addPass(createGpuSetEntryPointAbiPass());
  pm.addNestedPass<gpu::GPUModuleOp>(memref::createFoldMemRefAliasOpsPass());
  // 64-bit index checks (gather, scatter) narrowed to 32 bits where the
  // values' ranges allow: cheaper on GPUs, and lavapipe (Mesa 22.3) got a
  // 64-bit comparison of a scatter's bounds check wrong.
  arith::ArithIntRangeNarrowingOptions narrowing;
  narrowing.bitwidthsSupported = {32};
  pm.addNestedPass<gpu::GPUModuleOp>(
      arith::createArithIntRangeNarrowing(narrowing));
  // convert-gpu-to-spirv has no math patterns: expand what has no GLSL
  // instruction (tanh, powf, erf, ...), then math -> spirv.GL.* inside the
  // kernels.
  pm.addNestedPass<gpu::GPUModuleOp>(createGpuApproximateMathPass());
  pm.addNestedPass<gpu::GPUModuleOp>(math::createMathExpandOpsPass());
  // Types the device cannot run are errors at the op, before the math ops
  // become SPIR-V (docs/VulkanPipeline.md).
  pm.addNestedPass<gpu::GPUModuleOp>(createGpuCheckDeviceSupportPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertMathToSPIRVPass());
  // Also maps memref memory spaces to SPIR-V storage classes (the work of
  // map-memref-spirv-storage-class) with the target's client API.
  pm.addPass(createConvertGPUToSPIRVPass(/*mapMemorySpace=*/true));
  pm.addPass(createNestSpirvModulesPass());
  OpPassManager &spirvPM = pm.nest<gpu::GPUModuleOp>().nest<spirv::ModuleOp>();
  spirvPM.addPass(spirv::createSPIRVLowerABIAttributesPass());
  spirvPM.addPass(spirv::createSPIRVUpdateVCEPass());
  spirvPM.addPass(createSpirvBuiltinCapabilitiesPass());

  if (!options.hostToLLVM)
    return;
  // What the kernels need of the device, from their VCE triples; then the
  // SPIR-V blob into the host module, and the host code to LLVM.
  pm.addPass(createGpuCollectRequirementsPass());
  pm.addPass(createGpuModuleToBinaryPass());
  buildGpuHostToLLVMPipeline(pm);
}

void mlir::plaidml::buildVulkanPipeline(OpPassManager &pm,
                                        const VulkanPipelineOptions &options) {
  buildTileToAffinePipeline(pm, /*cpu=*/false);
  buildVulkanLoweringPipeline(pm, options);
}

void mlir::plaidml::registerVulkanPipelines() {
  registerTypedPipeline<VulkanPipelineOptions>(
      "plaidml-vulkan-pipeline",
      "Tile dialect to host code launching SPIR-V kernels "
      "for Vulkan (docs/VulkanPipeline.md)",
      buildVulkanPipeline, validateVulkanPipelineOptions);
  registerTypedPipeline<VulkanPipelineOptions>(
      "plaidml-vulkan-lowering-pipeline",
      "ABI-form affine/memref IR (docs/ABI.md section 1) "
      "to host code launching SPIR-V kernels for Vulkan",
      buildVulkanLoweringPipeline, validateVulkanPipelineOptions);
}
