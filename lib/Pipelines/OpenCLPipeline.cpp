//===- OpenCLPipeline.cpp - Tile to GPU kernels for OpenCL ----------------===//
//
// buildOpenCLPipeline and buildOpenCLLoweringPipeline and their textual
// registrations. After the GPU mapping the Vulkan pipeline uses too, each
// outlined kernel module becomes OpenCL C 1.2 text in a gpu.binary (the
// default: every OpenCL driver builds source), SPIR-V for the OpenCL
// environment (Kernel capability, Physical64 addressing), or a kernel
// bundle of both (what plaidml-compile emits); the host code then lowers as
// Vulkan's does. docs/OpenCLPipeline.md explains it.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Pipelines/Pipelines.h"

#include "Registration.h"

#include "plaidml/Target/GPU/Passes.h"
#include "plaidml/Target/OpenCL/EmitOpenCLC.h"
#include "plaidml/Target/OpenCL/Passes.h"
#include "plaidml/Target/OpenCL/SPIRVKernels.h"
#include "plaidml/Target/SPIRV/Passes.h"
#include "plaidml/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::plaidml;

std::string mlir::plaidml::validateOpenCLPipelineOptions(
    const OpenCLPipelineOptions &options) {
  return validateMaxWorkgroupSize(options.maxWorkgroupSize);
}

/// What the SPIR-V conversion needs of the whole module: the OpenCL target
/// on every gpu.module (Kernel, not Shader: pointers to CrossWorkgroup
/// memory as kernel arguments, Physical64 addressing), the entry point ABI
/// from the launches' block sizes, and views folded into the accesses (so
/// that kernels index flat buffers, as the OpenCL C translation wants too).
static void prepareOpenCLSPIRVKernels(OpPassManager &pm,
                                      const OpenCLPipelineOptions &options) {
  GpuSPIRVAttachTargetOptions target;
  target.spirvVersion = "v1.0";
  target.clientApi = "OpenCL";
  target.spirvCapabilities = {"Kernel", "Addresses", "Int8", "Int16", "Int64"};
  if (options.fp16)
    target.spirvCapabilities.push_back("Float16");
  if (options.fp64)
    target.spirvCapabilities.push_back("Float64");
  pm.addPass(createGpuSPIRVAttachTarget(target));
  pm.addPass(createGpuSetEntryPointAbiPass());
  pm.addNestedPass<gpu::GPUModuleOp>(memref::createFoldMemRefAliasOpsPass());
}

void mlir::plaidml::buildOpenCLLoweringPipeline(
    OpPassManager &pm, const OpenCLPipelineOptions &options) {
  AttachTargetPassOptions device;
  device.device = "opencl";
  device.triple = options.triple;
  device.cpu = options.cpu;
  device.features = options.features;
  if (options.fp64)
    device.exts.push_back("cl_khr_fp64");
  if (options.fp16)
    device.exts.push_back("cl_khr_fp16");
  // plaidml-gpu-configure reads it as 16x16x16 f16 -> f32 matrices on
  // 32-wide subgroups.
  if (options.ptxWmma)
    device.exts.push_back("nv-ptx-wmma");
  // ... and with it, two-stage kernels staged by asynchronous copies.
  if (options.ptxCpAsync)
    device.exts.push_back("nv-ptx-cp-async");
  // ... printed as portable OpenCL C.
  if (options.emulateNvPtx)
    device.exts.push_back(kEmulateNvPtxFeature.str());
  device.maxWorkgroupSize = options.maxWorkgroupSize;
  device.label = options.label;
  pm.addPass(createAttachTargetPass(device));
  buildGpuMappingPipeline(pm);

  switch (options.kernelFormat) {
  case OpenCLKernelFormat::SPIRV:
    prepareOpenCLSPIRVKernels(pm, options);
    buildOpenCLSPIRVConversion(pm, /*serialize=*/options.hostToLLVM);
    break;
  case OpenCLKernelFormat::OpenCLC: {
    // Views folded into the loads and stores: kernels index flat buffers.
    pm.addNestedPass<gpu::GPUModuleOp>(memref::createFoldMemRefAliasOpsPass());
    // Always, not only with host-to-llvm: the translation is where a kernel
    // the device cannot run is reported.
    pm.addPass(createGpuModuleToOpenCLCPass());
    break;
  }
  case OpenCLKernelFormat::Both: {
    prepareOpenCLSPIRVKernels(pm, options);
    pm.addPass(createGpuModuleToOpenCLBundlePass());
    break;
  }
  }

  if (!options.hostToLLVM)
    return;
  // What the kernel objects need of the device (the SPIR-V format recorded
  // it before serialization, in buildOpenCLSPIRVConversion).
  if (options.kernelFormat != OpenCLKernelFormat::SPIRV)
    pm.addPass(createGpuCollectRequirementsPass());
  buildGpuHostToLLVMPipeline(pm);
}

void mlir::plaidml::buildOpenCLPipeline(OpPassManager &pm,
                                        const OpenCLPipelineOptions &options) {
  buildTileToAffinePipeline(pm, /*cpu=*/false);
  buildOpenCLLoweringPipeline(pm, options);
}

void mlir::plaidml::registerOpenCLPipelines() {
  registerTypedPipeline<OpenCLPipelineOptions>(
      "plaidml-opencl-pipeline",
      "Tile dialect to host code launching OpenCL C and/or SPIR-V kernels "
      "(docs/OpenCLPipeline.md)",
      buildOpenCLPipeline, validateOpenCLPipelineOptions);
  registerTypedPipeline<OpenCLPipelineOptions>(
      "plaidml-opencl-lowering-pipeline",
      "ABI-form affine/memref IR (docs/ABI.md section 1) "
      "to host code launching OpenCL C and/or SPIR-V kernels",
      buildOpenCLLoweringPipeline, validateOpenCLPipelineOptions);
}
