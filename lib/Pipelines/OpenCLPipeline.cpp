//===- OpenCLPipeline.cpp - Tile to GPU kernels for OpenCL ----------------===//
//
// buildOpenCLPipeline and buildOpenCLLoweringPipeline and their textual
// registrations. After the GPU mapping the Vulkan pipeline uses too, each
// outlined kernel module becomes OpenCL C 1.2 text in a gpu.binary (the
// default: every OpenCL driver builds source) or SPIR-V for the OpenCL
// environment (Kernel capability, Physical64 addressing); the host code
// then lowers as Vulkan's does. docs/OpenCLPipeline.md explains it.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Pipelines/Pipelines.h"

#include "Registration.h"

#include "plaidml/Target/OpenCL/Passes.h"
#include "plaidml/Target/Vulkan/Passes.h"

#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRVPass.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::plaidml;

std::string mlir::plaidml::validateOpenCLPipelineOptions(
    const OpenCLPipelineOptions &options) {
  if (options.maxWorkgroupSize < 1 || options.maxWorkgroupSize > 1024)
    return "max-workgroup-size must be in [1, 1024], not " +
           std::to_string(options.maxWorkgroupSize);
  return "";
}

/// The kernels as SPIR-V for the OpenCL environment, nested in their
/// gpu.modules (and serialized with host-to-llvm).
static void buildOpenCLSPIRVKernels(OpPassManager &pm,
                                    const OpenCLPipelineOptions &options) {
  // Kernel (not Shader): pointers to CrossWorkgroup memory as kernel
  // arguments, Physical64 addressing (Addresses) for 64-bit devices. The
  // integer widths are in every OpenCL full profile; f16 and f64 arithmetic
  // only with cl_khr_fp16 / cl_khr_fp64.
  GpuSPIRVAttachTargetOptions target;
  target.spirvVersion = "v1.0";
  target.clientApi = "OpenCL";
  target.spirvCapabilities = {"Kernel", "Addresses", "Int8", "Int16", "Int64"};
  if (options.fp16)
    target.spirvCapabilities.push_back("Float16");
  if (options.fp64)
    target.spirvCapabilities.push_back("Float64");
  pm.addPass(createGpuSPIRVAttachTarget(target));
  pm.addNestedPass<gpu::GPUModuleOp>(createGpuExposeTargetEnvPass());
  pm.addPass(createGpuSetEntryPointAbiPass());
  pm.addNestedPass<gpu::GPUModuleOp>(memref::createFoldMemRefAliasOpsPass());
  // OpenCL.std has exp, erf, pow, ... for every float width: math ops map
  // one to one (spirv.CL.*), no expansion needed.
  GpuCheckDeviceSupportPassOptions check;
  check.device = options.device;
  pm.addNestedPass<gpu::GPUModuleOp>(createGpuCheckDeviceSupportPass(check));
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
  if (options.hostToLLVM)
    pm.addPass(createGpuModuleToBinaryPass());
}

void mlir::plaidml::buildOpenCLLoweringPipeline(
    OpPassManager &pm, const OpenCLPipelineOptions &options) {
  buildGpuMappingPipeline(pm, options.maxWorkgroupSize);

  if (options.kernelFormat == OpenCLKernelFormat::SPIRV) {
    buildOpenCLSPIRVKernels(pm, options);
  } else {
    // Views folded into the loads and stores: kernels index flat buffers.
    pm.addNestedPass<gpu::GPUModuleOp>(memref::createFoldMemRefAliasOpsPass());
    // Always, not only with host-to-llvm: the translation is where a kernel
    // the device cannot run is reported.
    GpuModuleToOpenCLCPassOptions emit;
    emit.fp16 = options.fp16;
    emit.fp64 = options.fp64;
    emit.device = options.device;
    pm.addPass(createGpuModuleToOpenCLCPass(emit));
  }

  if (options.hostToLLVM)
    buildGpuHostToLLVMPipeline(pm);
}

void mlir::plaidml::buildOpenCLPipeline(OpPassManager &pm,
                                        const OpenCLPipelineOptions &options) {
  buildTileToAffinePipeline(pm);
  buildOpenCLLoweringPipeline(pm, options);
}

void mlir::plaidml::registerOpenCLPipelines() {
  registerTypedPipeline<OpenCLPipelineOptions>(
      "plaidml-opencl-pipeline",
      "Tile dialect to host code launching OpenCL C (or SPIR-V) kernels "
      "(docs/OpenCLPipeline.md)",
      buildOpenCLPipeline, validateOpenCLPipelineOptions);
  registerTypedPipeline<OpenCLPipelineOptions>(
      "plaidml-opencl-lowering-pipeline",
      "ABI-form affine/memref IR (docs/ABI.md section 1) "
      "to host code launching OpenCL C (or SPIR-V) kernels",
      buildOpenCLLoweringPipeline, validateOpenCLPipelineOptions);
}
