//===- CpuPipeline.cpp - Tile to the LLVM dialect for CPUs ----------------===//
//
// buildCpuPipeline and buildCpuLoweringPipeline and their textual
// registrations. The lowering half takes the ABI form of docs/ABI.md
// section 1 to the LLVM dialect: memrefs become bare pointers, every entry
// function gets its `_plaidml_entry_*` wrapper and the module its manifest.
// docs/CpuPipeline.md explains the order.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Pipelines/Pipelines.h"

#include "Registration.h"

#include "plaidml/Target/Cpu/Passes.h"
#include "plaidml/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::plaidml;

std::string
mlir::plaidml::validateCpuPipelineOptions(const CpuPipelineOptions &options) {
  if (options.optLevel > 3)
    return "opt-level must be 0, 1, 2 or 3, not " +
           std::to_string(options.optLevel);
  if (options.threads < 1)
    return "threads must be at least 1";
  return "";
}

void mlir::plaidml::buildCpuLoweringPipeline(
    OpPassManager &pm, const CpuPipelineOptions &options) {
  // The target, once, as the module's plaidml.target: the configure pass
  // and the entry points read it.
  AttachTargetPassOptions target;
  target.device = "cpu";
  target.triple = options.triple;
  target.cpu = options.cpu;
  target.features = options.features;
  pm.addPass(createAttachTargetPass(target));

  // Elementwise consumers into their producers' nests, before anything
  // else looks at the loops: no temporaries for fused values. Then the
  // reduction nests: a schedule each, then register-blocked vector code.
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  // No work on tensors without elements, which the LLVM lowering refuses.
  funcPm.addPass(createEraseZeroSizeBuffersPass());
  funcPm.addPass(createFuseElementwisePass());
  funcPm.addPass(createCpuConfigurePass());
  funcPm.addPass(createCpuTileContractionsPass());
  // What the code generator packs from parameters (weights) moves into a
  // preparation the runtime runs once (docs/ABI.md section 2).
  pm.addPass(createCpuSplitPreparePass());

  // Math first, while the IR is still structured: x86 has no f16/bf16 libm,
  // so compute those in f32; integer and integer-exponent powers become
  // outlined functions (with scf loops, hence before convert-scf-to-cf).
  pm.addPass(math::createMathExtendToSupportedTypes());
  pm.addPass(createConvertMathToFuncs());

  // Threads: the affine.parallel loops worth a thread team stay, the others
  // become sequential affine.for loops (all of them with threads=1).
  CpuParallelizePassOptions parallelOptions;
  parallelOptions.threads = options.threads;
  OpPassManager &lateFuncPm = pm.nest<func::FuncOp>();
  lateFuncPm.addPass(createCpuParallelizePass(parallelOptions));
  // Temporaries in the workspace the runtime allocates and checks.
  lateFuncPm.addPass(createCpuPlanWorkspacePass());

  // Loops: affine -> scf (affine.parallel -> scf.parallel) -> OpenMP
  // worksharing loops on `threads` threads (omp.parallel num_threads, so
  // OMP_NUM_THREADS does not change it) -> cf.
  pm.addPass(createLowerAffinePass());
  // The register-blocked nests compute every access's address on its own;
  // merged here, the IR the rest of the pipeline and LLVM see is smaller
  // (MobileNetV2: a fifth fewer lines, and the pipeline itself faster).
  pm.addPass(createCSEPass());
  bool openMP = options.threads > 1;
  if (openMP) {
    ConvertSCFToOpenMPPassOptions openMPOptions;
    openMPOptions.numThreads = options.threads;
    pm.addPass(createConvertSCFToOpenMPPass(openMPOptions));
  }
  pm.addPass(arith::createArithExpandOpsPass());
  // Memrefs to LLVM: with OpenMP before scf-to-cf, since every OpenMP loop
  // body is a memref.alloca_scope, whose region must stay one block (its
  // lowering inlines it into the loop body, which may have several).
  auto addMemRefToLLVM = [&] {
    pm.addPass(memref::createExpandStridedMetadataPass());
    pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  };
  if (openMP)
    addMemRefToLLVM();
  pm.addPass(createSCFToControlFlowPass());

  // Math ops with an LLVM intrinsic become intrinsics; the rest (erf, tanh,
  // atan, ...) libm calls, declared as func.func for func-to-llvm below.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertVectorToLLVMPass());

  // Memrefs, then scalars and control flow, then functions with the
  // bare-pointer calling convention of docs/ABI.md.
  if (!openMP)
    addMemRefToLLVM();
  buildScalarsAndFunctionsToLLVM(pm);
  // The omp ops on LLVM types. After func-to-llvm: this pass also carries
  // func-to-llvm's patterns, with memref descriptors in signatures.
  if (openMP)
    pm.addPass(createConvertOpenMPToLLVMPass());

  // Memref descriptors unpacked once per block, not once per access: LLVM
  // gets half the IR to translate, optimize and select.
  pm.addPass(createCSEPass());
  // Wrappers and manifest, on llvm.func, now that the signatures are final.
  pm.addPass(createEmitEntryPointsPass());

  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::plaidml::buildCpuPipeline(OpPassManager &pm,
                                     const CpuPipelineOptions &options) {
  buildTileToAffinePipeline(pm);
  buildCpuLoweringPipeline(pm, options);
}

void mlir::plaidml::registerCpuPipelines() {
  registerTypedPipeline<CpuPipelineOptions>(
      "plaidml-cpu-pipeline",
      "Tile dialect to the LLVM dialect of a CPU artifact "
      "(docs/CpuPipeline.md)",
      buildCpuPipeline, validateCpuPipelineOptions);
  registerTypedPipeline<CpuPipelineOptions>(
      "plaidml-cpu-lowering-pipeline",
      "ABI-form affine/memref IR (docs/ABI.md section 1) to "
      "the LLVM dialect of a CPU artifact",
      buildCpuLoweringPipeline, validateCpuPipelineOptions);
}
