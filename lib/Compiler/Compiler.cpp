//===- Compiler.cpp - Compile a module to a shared library ----------------===//
//
// compileToArtifact: the CPU or Vulkan pipeline (lib/Pipelines; for Vulkan,
// the host code plus its kernels as SPIR-V constants, bound to the launch
// ABI by translateToLLVMIR), translation to LLVM IR, the LLVM optimization
// pipeline of the requested level, object emission for the resolved target, and
// a link into a shared library with ld.lld (against libm, libc, libomp for CPU
// code on several threads and, when installed, compiler-rt's builtins for the
// f16/bf16 conversions libgcc lacks). Every failure becomes one diagnostic that
// says which step failed and why.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Compiler/Compiler.h"

#include "CodeGen.h"

#include "plaidml/Dialect/PlaidML/IR/PlaidMLDialect.h"
#include "plaidml/Dialect/Tile/IR/TileDialect.h"
#include "plaidml/Pipelines/Pipelines.h"
#include "plaidml/Target/Cpu/CpuTarget.h"
#include "plaidml/Target/Cpu/Passes.h"
#include "plaidml/Target/LLVMIR/Translation.h"
#include "plaidml/Target/OpenCL/EmitOpenCLC.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <optional>

using namespace mlir;
using namespace mlir::plaidml;

// Set by lib/Compiler/CMakeLists.txt from the LLVM installation.
#ifndef PLAIDML_LLVM_TOOLS_DIR
#define PLAIDML_LLVM_TOOLS_DIR ""
#endif
#ifndef PLAIDML_CLANG_RESOURCE_DIR
#define PLAIDML_CLANG_RESOURCE_DIR ""
#endif
#ifndef PLAIDML_LLVM_LIBRARY_DIR
#define PLAIDML_LLVM_LIBRARY_DIR ""
#endif

void CompileOptions::toPipelineOptions(CpuPipelineOptions &options) const {
  options.cpu = getCpu();
  options.triple = triple;
  options.features = features;
  options.optLevel = optLevel;
  options.threads = threads;
}

/// N of "KIND:N", or nothing for another device.
static std::optional<unsigned> getDeviceIndex(StringRef device,
                                              StringRef kind) {
  auto [prefix, index] = device.split(':');
  unsigned number;
  if (prefix != kind || index.empty() || index.getAsInteger(10, number))
    return std::nullopt;
  return number;
}
static std::optional<unsigned> getVulkanIndex(StringRef device) {
  return getDeviceIndex(device, "vulkan");
}
static std::optional<unsigned> getOpenCLIndex(StringRef device) {
  return getDeviceIndex(device, "opencl");
}

/// The device kind of a valid device name.
static DeviceKind getDeviceKind(StringRef device) {
  if (getVulkanIndex(device))
    return DeviceKind::vulkan;
  if (getOpenCLIndex(device))
    return DeviceKind::opencl;
  return DeviceKind::cpu;
}

std::string CompileOptions::getCpu() const {
  if (!cpu.empty())
    return cpu;
  return getDefaultCpu(getDeviceKind(device), triple).str();
}

std::string
mlir::plaidml::validateCompileOptions(const CompileOptions &options) {
  StringRef device = options.device;
  if (device != "cpu" && !getVulkanIndex(device) && !getOpenCLIndex(device))
    return "unknown device '" + options.device +
           "' (expected cpu, vulkan:N or opencl:N)";
  if (options.codegenParts < 1)
    return "codegen-parts must be at least 1";
  CpuPipelineOptions pipelineOptions;
  options.toPipelineOptions(pipelineOptions);
  return validateCpuPipelineOptions(pipelineOptions);
}

llvm::Expected<std::string>
mlir::plaidml::getResolvedOptionsString(const CompileOptions &options) {
  std::string error = validateCompileOptions(options);
  if (!error.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), error);
  llvm::Expected<CpuTarget> target =
      resolveCpuTarget(options.triple, options.getCpu(), options.features);
  if (!target)
    return target.takeError();
  std::string resolved =
      llvm::formatv("cpu={0} features={1} opt-level={2} threads={3} "
                    "triple={4} codegen-parts={5} cache-block-bytes={6}",
                    target->cpu, target->features, options.optLevel,
                    options.threads, target->triple, options.codegenParts,
                    getCacheBlockBytes(*target))
          .str();
  // Kernels depend on what the device offers.
  if (getVulkanIndex(options.device))
    resolved += " spirv-caps=" + llvm::join(options.caps, ",") +
                " spirv-exts=" + llvm::join(options.exts, ",");
  if (getOpenCLIndex(options.device))
    resolved += " opencl-exts=" + llvm::join(options.exts, ",");
  return resolved;
}

/// True when `module` still holds Tile IR (Tile ops or functions on
/// tensors), which needs the full pipeline; the ABI form skips the Tile
/// passes.
static bool isTileForm(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    if (isa_and_nonnull<tile::TileDialect>(op->getDialect()))
      return WalkResult::interrupt();
    if (auto func = dyn_cast<func::FuncOp>(op))
      if (llvm::any_of(func.getFunctionType().getInputs(),
                       llvm::IsaPred<TensorType>) ||
          llvm::any_of(func.getFunctionType().getResults(),
                       llvm::IsaPred<TensorType>))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// ld.lld: the given path, else next to the LLVM tools, else on PATH.
static FailureOr<std::string> findLinker(Location loc, StringRef requested) {
  if (!requested.empty()) {
    if (llvm::sys::fs::can_execute(requested))
      return requested.str();
    emitError(loc) << "linker '" << requested
                   << "' does not exist or is not executable";
    return failure();
  }
  SmallString<128> beside(PLAIDML_LLVM_TOOLS_DIR);
  if (!beside.empty()) {
    llvm::sys::path::append(beside, "ld.lld");
    if (llvm::sys::fs::can_execute(beside))
      return beside.str().str();
  }
  for (StringRef name : {"ld.lld-22", "ld.lld"})
    if (llvm::ErrorOr<std::string> path = llvm::sys::findProgramByName(name))
      return *path;
  emitError(loc) << "linker ld.lld not found (looked in '"
                 << PLAIDML_LLVM_TOOLS_DIR
                 << "' and on PATH for ld.lld-22 and ld.lld; install lld-22)";
  return failure();
}

/// The directory of the OpenMP runtime (libomp.so, from libomp-22-dev) that
/// CPU code on several threads links against: the given one, else next to
/// the LLVM libraries, else in the system library directories of `triple`.
static FailureOr<std::string> findOpenMPRuntime(Location loc,
                                                StringRef requested,
                                                const llvm::Triple &triple) {
  std::string multiarch = (triple.getArchName() + "-linux-gnu").str();
  SmallVector<std::string> dirs;
  if (!requested.empty()) {
    dirs.push_back(requested.str());
  } else {
    if (!StringRef(PLAIDML_LLVM_LIBRARY_DIR).empty())
      dirs.push_back(PLAIDML_LLVM_LIBRARY_DIR);
    dirs.push_back("/usr/lib/" + multiarch);
    dirs.push_back("/lib/" + multiarch);
  }
  for (const std::string &dir : dirs) {
    SmallString<128> path(dir);
    llvm::sys::path::append(path, "libomp.so");
    if (llvm::sys::fs::exists(path))
      return dir;
  }
  emitError(loc) << "threads > 1 needs the OpenMP runtime, but libomp.so is "
                    "not in '"
                 << llvm::join(dirs, "', '")
                 << "' (install libomp-22-dev, or compile with threads=1)";
  return failure();
}

/// compiler-rt's builtins archive for `triple`, if installed (both the
/// per-target and the old per-OS layouts of the resource directory).
static std::optional<std::string> findBuiltins(const llvm::Triple &triple) {
  StringRef resourceDir = PLAIDML_CLANG_RESOURCE_DIR;
  if (resourceDir.empty())
    return std::nullopt;
  SmallString<256> perTarget(resourceDir);
  llvm::sys::path::append(perTarget, "lib", triple.str(),
                          "libclang_rt.builtins.a");
  SmallString<256> perOS(resourceDir);
  llvm::sys::path::append(perOS, "lib", "linux",
                          "libclang_rt.builtins-" + triple.getArchName() +
                              ".a");
  for (const SmallString<256> &path : {perTarget, perOS})
    if (llvm::sys::fs::exists(path))
      return path.str().str();
  return std::nullopt;
}

/// The Vulkan pipeline, with host-to-llvm (entry points and the manifest
/// included), for the ABI or Tile form of `module`.
static void buildVulkan(OpPassManager &pm, bool tileForm,
                        const CompileOptions &options,
                        const CpuTarget &target) {
  VulkanPipelineOptions pipelineOptions;
  pipelineOptions.hostToLLVM = true;
  pipelineOptions.caps = ArrayRef<std::string>(options.caps);
  pipelineOptions.exts = ArrayRef<std::string>(options.exts);
  pipelineOptions.label = options.label;
  pipelineOptions.cpu = target.cpu;
  pipelineOptions.triple = target.triple;
  pipelineOptions.features = target.features;
  if (tileForm)
    buildVulkanPipeline(pm, pipelineOptions);
  else
    buildVulkanLoweringPipeline(pm, pipelineOptions);
}

/// The OpenCL pipeline, with host-to-llvm: kernel bundles (SPIR-V and OpenCL
/// C of each kernel module, the runtime picks per device), entry points and
/// the manifest.
static void buildOpenCL(OpPassManager &pm, bool tileForm,
                        const CompileOptions &options,
                        const CpuTarget &target) {
  OpenCLPipelineOptions pipelineOptions;
  pipelineOptions.hostToLLVM = true;
  pipelineOptions.kernelFormat = OpenCLKernelFormat::Both;
  pipelineOptions.fp64 = llvm::is_contained(options.exts, "cl_khr_fp64");
  pipelineOptions.fp16 = llvm::is_contained(options.exts, "cl_khr_fp16");
  pipelineOptions.ptxWmma = llvm::is_contained(options.exts, "nv-ptx-wmma");
  pipelineOptions.ptxCpAsync =
      llvm::is_contained(options.exts, "nv-ptx-cp-async");
  pipelineOptions.emulateNvPtx =
      llvm::is_contained(options.exts, kEmulateNvPtxFeature);
  pipelineOptions.label = options.label;
  pipelineOptions.cpu = target.cpu;
  pipelineOptions.triple = target.triple;
  pipelineOptions.features = target.features;
  if (tileForm)
    buildOpenCLPipeline(pm, pipelineOptions);
  else
    buildOpenCLLoweringPipeline(pm, pipelineOptions);
}

/// The MLIR pipeline for the ABI or Tile form of `module`.
static void buildPipeline(OpPassManager &pm, ModuleOp module,
                          const CompileOptions &options,
                          const CpuTarget &target) {
  bool tileForm = isTileForm(module);
  if (getVulkanIndex(options.device))
    return buildVulkan(pm, tileForm, options, target);
  if (getOpenCLIndex(options.device))
    return buildOpenCL(pm, tileForm, options, target);
  CpuPipelineOptions pipelineOptions;
  options.toPipelineOptions(pipelineOptions);
  // The resolved target, so the manifest describes exactly the code.
  pipelineOptions.cpu = target.cpu;
  pipelineOptions.triple = target.triple;
  pipelineOptions.features = target.features;
  pipelineOptions.cacheBlockBytes = getCacheBlockBytes(target);
  if (tileForm)
    buildCpuPipeline(pm, pipelineOptions);
  else
    buildCpuLoweringPipeline(pm, pipelineOptions);
}

/// The validated options' CPU target, resolved; emits at `loc` otherwise.
static FailureOr<CpuTarget> resolveTarget(Location loc,
                                          const CompileOptions &options) {
  std::string error = validateCompileOptions(options);
  if (!error.empty())
    return emitError(loc) << error;
  llvm::Expected<CpuTarget> target =
      resolveCpuTarget(options.triple, options.getCpu(), options.features);
  if (!target)
    return emitError(loc) << llvm::toString(target.takeError());
  return *target;
}

FailureOr<std::string>
mlir::plaidml::getCompilePipeline(ModuleOp module,
                                  const CompileOptions &options) {
  FailureOr<CpuTarget> target = resolveTarget(module.getLoc(), options);
  if (failed(target))
    return failure();
  PassManager pm(module->getName());
  buildPipeline(pm, module, options, *target);
  std::string text;
  llvm::raw_string_ostream os(text);
  pm.printAsTextualPipeline(os);
  return text;
}

/// Links `objectPaths` into the shared library `outputPath`, with libomp
/// when `openMP`.
static LogicalResult link(Location loc, const CompileOptions &options,
                          const llvm::Triple &triple,
                          ArrayRef<std::string> objectPaths, bool openMP,
                          StringRef outputPath) {
  FailureOr<std::string> linker = findLinker(loc, options.linker);
  if (failed(linker))
    return failure();

  // The system libraries of this triple (Debian's multiarch layout), so
  // libm and libc become DT_NEEDED and -z defs can check every symbol now
  // rather than at dlopen time.
  std::string multiarch = (triple.getArchName() + "-linux-gnu").str();
  SmallVector<std::string> args = {*linker, "-shared", "-z",
                                   "defs",  "-o",      outputPath.str()};
  llvm::append_range(args, objectPaths);
  if (std::optional<std::string> builtins = findBuiltins(triple))
    args.push_back(*builtins);
  for (StringRef dir : {"/usr/lib/", "/lib/"})
    args.push_back(("-L" + dir + multiarch).str());
  args.append({"-L/usr/lib", "-L/lib", "-lm", "-lc"});
  // CPU code on several threads calls libomp; the runpath lets the
  // runtime's dlopen find it where it was linked.
  if (openMP) {
    FailureOr<std::string> openMPDir =
        findOpenMPRuntime(loc, options.openMPDir, triple);
    if (failed(openMPDir))
      return failure();
    args.append({"-L" + *openMPDir, "-rpath", *openMPDir, "-lomp"});
  }

  SmallString<128> logPath;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("plaidml-ld", "log", logPath))
    return emitError(loc) << "cannot create a temporary file for the "
                             "linker's messages: "
                          << ec.message();
  llvm::FileRemover removeLog(logPath);
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  std::optional<StringRef> redirects[] = {std::nullopt, logPath.str(),
                                          logPath.str()};
  std::string execError;
  int status = llvm::sys::ExecuteAndWait(*linker, argRefs, /*Env=*/std::nullopt,
                                         redirects, /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &execError);
  if (status == 0)
    return success();

  // The linker's messages on one line: lld indents its ">>> referenced by"
  // notes on lines of their own.
  std::string log;
  if (auto buffer = llvm::MemoryBuffer::getFile(logPath)) {
    SmallVector<StringRef> words;
    llvm::SplitString((*buffer)->getBuffer(), words);
    log = llvm::join(words, " ");
  }
  InFlightDiagnostic diag = emitError(loc);
  diag << "linking '" << outputPath << "' with " << *linker << " failed";
  if (!execError.empty())
    diag << ": " << execError;
  else
    diag << " (exit status " << status << ")";
  if (!log.empty())
    diag << ": " << log;
  return failure();
}

LogicalResult mlir::plaidml::compileToArtifact(ModuleOp module,
                                               const CompileOptions &options,
                                               StringRef outputPath) {
  Location loc = module.getLoc();
  FailureOr<CpuTarget> target = resolveTarget(loc, options);
  if (failed(target) || failed(checkEntryFunctions(module)))
    return failure();

  {
    PassManager pm(module->getName());
    // Verified once, after the pipeline, not after every pass: that was
    // about 45% of the pipeline's time on MobileNetV2 (docs/Performance.md).
    // plaidml-opt still verifies after each pass.
    pm.enableVerifier(false);
    buildPipeline(pm, module, options, *target);
    // The failing pass has said why; so does the verifier.
    if (failed(pm.run(module)) || failed(verify(module)))
      return failure();
  }

  {
    DialectRegistry registry;
    registerToLLVMIRTranslations(registry);
    module.getContext()->appendDialectRegistry(registry);
  }
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return failure();
  if (!options.llvmIROutput.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(options.llvmIROutput, ec);
    if (ec)
      return emitError(loc) << "cannot write '" << options.llvmIROutput
                            << "': " << ec.message();
    llvmModule->removeDebugIntrinsicDeclarations();
    llvmModule->print(os, nullptr);
  }

  ObjectFiles objects;
  if (failed(emitObjectFiles(loc, *llvmModule, *target, options.optLevel,
                             options.codegenParts, objects)))
    return failure();
  return link(loc, options, llvm::Triple(target->triple), objects.paths,
              objects.openMP, outputPath);
}
