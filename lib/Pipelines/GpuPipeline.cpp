//===- GpuPipeline.cpp - The stages every GPU target shares ---------------===//
//
// buildGpuMappingPipeline and buildGpuHostToLLVMPipeline: what the Vulkan
// and OpenCL pipelines have in common. The first maps the ABI form's
// outermost loop nests onto workgroups and outlines one gpu.module per
// kernel; the second takes the host code, once the kernels are gpu.binary
// ops, to the LLVM dialect with the launch ABI of docs/ABI.md section 6.
// Targets differ only in what they make of the outlined kernels.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Pipelines/Pipelines.h"

#include "plaidml/Target/Cpu/Passes.h"
#include "plaidml/Target/GPU/Passes.h"
#include "plaidml/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::plaidml;

void mlir::plaidml::buildGpuMappingPipeline(OpPassManager &pm) {
  // No work on tensors without elements, which the lowerings refuse.
  pm.addNestedPass<func::FuncOp>(createEraseZeroSizeBuffersPass());
  // Elementwise consumers into their producers' nests: one kernel per
  // chain, epilogues inside the contraction kernels, no intermediate
  // buffers.
  pm.addNestedPass<func::FuncOp>(createFuseElementwisePass());
  // The schedule, decided and recorded on the affine loops, then applied
  // there: matrix products become kernels with their operands staged in
  // workgroup memory; a block of outputs per invocation for other reduction
  // nests (the
  // copies' identical loads merged by CSE), then the grid loop over
  // workgroups and the workgroup loop over invocations.
  pm.addNestedPass<func::FuncOp>(createGpuConfigurePass());
  pm.addNestedPass<func::FuncOp>(createGpuStageContractionPass());
  pm.addNestedPass<func::FuncOp>(createGpuRegisterTilePass());
  pm.addNestedPass<func::FuncOp>(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createGpuTileWorkgroupsPass());

  // affine.parallel -> scf.parallel -> gpu.launch. No canonicalization before
  // the mapping: it would fold away one-iteration grid loops.
  pm.addPass(createLowerAffinePass());
  // Our own mapping (innermost dimension on x, outer ones beyond three
  // sequential): upstream's innermost-first policy maps the outermost three
  // dimensions of a 4-D loop, leaving the channels of a convolution as a
  // loop in one invocation.
  pm.addNestedPass<func::FuncOp>(createGpuMapLoopsPass());
  pm.addNestedPass<func::FuncOp>(createConvertParallelLoopToGpuPass());
  pm.addPass(createCanonicalizerPass());

  // Kernels: constants and index arithmetic sink into the launch bodies, so
  // kernels take only memrefs (storage buffers, no push constants yet).
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
}

std::string mlir::plaidml::validateMaxWorkgroupSize(int64_t size) {
  if (size < 1 || size > 1024)
    return "max-workgroup-size must be in [1, 1024], not " +
           std::to_string(size);
  return "";
}

void mlir::plaidml::buildGpuHostToLLVMPipeline(OpPassManager &pm) {
  // Buffers of the host code are device buffers (handles the runtime
  // resolves); everything then goes on one stream, synchronized once.
  pm.addPass(createGpuHostBuffersPass());
  pm.addPass(createGpuLaunchBoolsAsBytesPass());
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  // The launch ABI of the runtimes (bare pointers, byte sizes) and the
  // bare-pointer host calling convention of docs/ABI.md.
  GpuToLLVMConversionPassOptions toLLVM;
  toLLVM.hostBarePtrCallConv = true;
  toLLVM.kernelBarePtrCallConv = true;
  toLLVM.kernelIntersperseSizeCallConv = true;
  pm.addPass(createGpuToLLVMConversionPass(toLLVM));
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  buildScalarsAndFunctionsToLLVM(pm);
  pm.addPass(createReconcileUnrealizedCastsPass());
  // The artifact's entry points and manifest: the device kind and host CPU
  // of the module's plaidml.target, the kernels' plaidml.requirements.
  pm.addPass(createEmitEntryPointsPass());
}
