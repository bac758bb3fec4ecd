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
  if (options.cacheBlockBytes < 1)
    return "cache-block-bytes must be at least 1, not " +
           std::to_string(options.cacheBlockBytes);
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
  // LLVM's maximum/minimum order signed zeros: no need to do it by hand.
  funcPm.addPass(createCpuExactMinMaxPass());
  funcPm.addPass(createFuseElementwisePass());
  CpuConfigurePassOptions configure;
  configure.blockBytes = options.cacheBlockBytes;
  funcPm.addPass(createCpuConfigurePass(configure));
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
  // A function per top-level loop nest: LLVM's time grows faster than the
  // size of a function, and the functions can be compiled on threads.
  pm.addPass(createCpuOutlineNestsPass());

  // From here on every pass that works on one function at a time is nested
  // on the functions, so MLIR runs it on the outlined nests in parallel (on
  // the context's threads); those that add declarations or globals to the
  // module run on the module.
  // Consecutive function passes share one nest.
  OpPassManager *functions = nullptr;
  auto addToFunctions = [&](std::unique_ptr<Pass> pass) {
    if (!functions)
      functions = &pm.nest<func::FuncOp>();
    functions->addPass(std::move(pass));
  };
  auto addToModule = [&](std::unique_ptr<Pass> pass) {
    functions = nullptr;
    pm.addPass(std::move(pass));
  };

  // Loops: affine -> scf (affine.parallel -> scf.parallel) -> OpenMP
  // worksharing loops on `threads` threads (omp.parallel num_threads, so
  // OMP_NUM_THREADS does not change it) -> cf.
  addToFunctions(createLowerAffinePass());
  // The register-blocked nests compute every access's address on its own;
  // merged here, the IR the rest of the pipeline and LLVM see is smaller
  // (MobileNetV2: a fifth fewer lines, and the pipeline itself faster).
  addToFunctions(createCSEPass());
  bool openMP = options.threads > 1;
  if (openMP) {
    ConvertSCFToOpenMPPassOptions openMPOptions;
    openMPOptions.numThreads = options.threads;
    addToModule(createConvertSCFToOpenMPPass(openMPOptions));
  }
  // ceil/floor divisions expanded; float max/min stay for arith-to-llvm
  // (LLVM's maximum/minimum order signed zeros, which
  // plaidml-cpu-exact-min-max relies on).
  addToFunctions(createCpuExpandArithPass());
  // Memrefs to LLVM: with OpenMP before scf-to-cf, since every OpenMP loop
  // body is a memref.alloca_scope, whose region must stay one block (its
  // lowering inlines it into the loop body, which may have several).
  auto addMemRefToLLVM = [&] {
    addToFunctions(memref::createExpandStridedMetadataPass());
    addToModule(createFinalizeMemRefToLLVMConversionPass());
  };
  if (openMP)
    addMemRefToLLVM();
  addToFunctions(createSCFToControlFlowPass());

  // Math ops with an LLVM intrinsic become intrinsics; the rest (erf, tanh,
  // atan, ...) libm calls, declared as func.func for func-to-llvm below.
  addToFunctions(createConvertMathToLLVMPass());
  addToModule(createConvertMathToLibmPass());
  addToFunctions(createConvertVectorToLLVMPass());

  // Memrefs, then scalars and control flow, then functions with the
  // bare-pointer calling convention of docs/ABI.md (the scalars of the
  // functions first, in parallel; the module-level pass finds the rest).
  if (!openMP)
    addMemRefToLLVM();
  addToFunctions(createArithToLLVMConversionPass());
  buildScalarsAndFunctionsToLLVM(pm);
  // The omp ops on LLVM types. After func-to-llvm: this pass also carries
  // func-to-llvm's patterns, with memref descriptors in signatures.
  if (openMP)
    pm.addPass(createConvertOpenMPToLLVMPass());

  // Memref descriptors unpacked once per block, not once per access: LLVM
  // gets half the IR to translate, optimize and select.
  pm.addNestedPass<LLVM::LLVMFuncOp>(createCSEPass());
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
