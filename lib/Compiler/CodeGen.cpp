//===- CodeGen.cpp - LLVM optimization and code generation, in parts ------===//
//
// emitObjectFiles: LLVM's optimization pipeline and object emission for the
// CPU code of an artifact. A large program (a network, whose loop nests
// plaidml-cpu-outline-nests made functions of their own) is divided into
// parts by function, each part written as bitcode and read back into a
// context of its own (LLVM contexts are not shared between threads), then
// optimized and compiled on a thread of its own, as LTO's parallel code
// generation does.
//
//===----------------------------------------------------------------------===//

#include "CodeGen.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <memory>

using namespace mlir;
using namespace mlir::plaidml;

ObjectFiles::~ObjectFiles() {
  for (const std::string &path : paths)
    llvm::sys::fs::remove(path);
}

/// LLVM's -O<level> module pipeline.
static void optimize(llvm::Module &module, llvm::TargetMachine &machine,
                     unsigned optLevel) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  // The code generators unroll what is worth it (register blocks, inner
  // reduction loops); LLVM's loop unrolling on top made the code bigger,
  // not faster, and cost a third of LLVM's time on networks.
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = false;
  llvm::PassBuilder builder(&machine, tuning);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel level = llvm::OptimizationLevel::O0;
  if (optLevel == 1)
    level = llvm::OptimizationLevel::O1;
  else if (optLevel == 2)
    level = llvm::OptimizationLevel::O2;
  else if (optLevel >= 3)
    level = llvm::OptimizationLevel::O3;
  llvm::ModulePassManager passes =
      optLevel == 0 ? builder.buildO0DefaultPipeline(level)
                    : builder.buildPerModuleDefaultPipeline(level);
  passes.run(module, mam);
}

/// Whether `module` calls the OpenMP runtime (the outlined parallel loops
/// of convert-scf-to-openmp call __kmpc_fork_call and friends).
static bool callsOpenMPRuntime(const llvm::Module &module) {
  return llvm::any_of(module.functions(), [](const llvm::Function &f) {
    return f.isDeclaration() && f.getName().starts_with("__kmpc_");
  });
}

namespace {

/// What one part needs to become an object file: everything but the module
/// is shared, read-only, between the threads.
struct CodeGenJob {
  const llvm::Target *llvmTarget;
  const CpuTarget *target;
  unsigned optLevel;

  std::unique_ptr<llvm::TargetMachine> createMachine() const {
    llvm::CodeGenOptLevel level =
        llvm::CodeGenOpt::getLevel(static_cast<int>(optLevel))
            .value_or(llvm::CodeGenOptLevel::Default);
    return std::unique_ptr<llvm::TargetMachine>(llvmTarget->createTargetMachine(
        llvm::Triple(target->triple), target->cpu, target->features,
        llvm::TargetOptions(), llvm::Reloc::PIC_, std::nullopt, level));
  }

  /// Optimizes `module` and writes its object file to `path`; returns an
  /// error message, or an empty string.
  std::string run(llvm::Module &module, llvm::TargetMachine &machine,
                  StringRef path, bool &openMP) const {
    optimize(module, machine, optLevel);
    openMP = callsOpenMPRuntime(module);
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return ("cannot write the object file '" + path + "': " + ec.message())
          .str();
    llvm::legacy::PassManager codeGen;
    if (machine.addPassesToEmitFile(codeGen, os, nullptr,
                                    llvm::CodeGenFileType::ObjectFile))
      return "LLVM cannot emit object files for '" + target->triple + "'";
    codeGen.run(module);
    os.close();
    if (os.has_error())
      return ("cannot write the object file '" + path +
              "': " + os.error().message())
          .str();
    return "";
  }
};

/// Whether `module` holds something that must not be divided: aliases,
/// ifuncs, comdats, module-level assembly or appending variables (the code
/// this compiler generates has none of them).
bool isIndivisible(const llvm::Module &module) {
  if (!module.alias_empty() || !module.ifunc_empty() ||
      !module.getComdatSymbolTable().empty() ||
      !module.getModuleInlineAsm().empty())
    return true;
  return llvm::any_of(module.globals(), [](const llvm::GlobalVariable &g) {
    return g.hasAppendingLinkage();
  });
}

/// The part of each function definition (largest first, by instructions,
/// to the part with the fewest so far; ties to the lowest part).
DenseMap<const llvm::GlobalValue *, unsigned>
assignParts(const llvm::Module &module, unsigned parts) {
  SmallVector<std::pair<uint64_t, const llvm::Function *>> functions;
  for (const llvm::Function &f : module)
    if (!f.isDeclaration())
      functions.push_back({f.getInstructionCount(), &f});
  llvm::stable_sort(functions, [](const auto &a, const auto &b) {
    return a.first > b.first;
  });
  SmallVector<uint64_t> load(parts, 0);
  DenseMap<const llvm::GlobalValue *, unsigned> assignment;
  for (auto [size, f] : functions) {
    unsigned part = llvm::min_element(load) - load.begin();
    assignment[f] = part;
    load[part] += size;
  }
  return assignment;
}

/// `module` divided into `parts` modules, as bitcode. Definitions of
/// internal linkage become hidden external ones, so the parts can refer to
/// each other's (hidden: the artifact still exports only what it did); so
/// do linkonce ones (convert-math-to-funcs' helpers), which a part that
/// does not call them would otherwise drop while another part calls them.
SmallVector<SmallString<0>> divide(llvm::Module &module, unsigned parts) {
  auto externalize = [](llvm::GlobalValue &value) {
    if (value.hasLocalLinkage() || value.hasLinkOnceLinkage()) {
      value.setLinkage(llvm::GlobalValue::ExternalLinkage);
      value.setVisibility(llvm::GlobalValue::HiddenVisibility);
    }
    // A name the other parts can use (setName makes it unique).
    if (!value.hasName())
      value.setName("__plaidml_part_unnamed");
  };
  for (llvm::Function &f : module)
    externalize(f);
  for (llvm::GlobalVariable &g : module.globals())
    externalize(g);

  DenseMap<const llvm::GlobalValue *, unsigned> assignment =
      assignParts(module, parts);
  SmallVector<SmallString<0>> bitcode(parts);
  for (unsigned part = 0; part < parts; ++part) {
    llvm::ValueToValueMapTy map;
    std::unique_ptr<llvm::Module> clone =
        llvm::CloneModule(module, map, [&](const llvm::GlobalValue *value) {
          auto it = assignment.find(value);
          return it == assignment.end() ? part == 0 : it->second == part;
        });
    llvm::raw_svector_ostream os(bitcode[part]);
    llvm::WriteBitcodeToFile(*clone, os);
  }
  return bitcode;
}

} // namespace

LogicalResult mlir::plaidml::emitObjectFiles(Location loc, llvm::Module &module,
                                             const CpuTarget &target,
                                             unsigned optLevel, unsigned parts,
                                             ObjectFiles &objects) {
  llvm::Triple triple(target.triple);
  std::string lookupError;
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(triple, lookupError);
  if (!llvmTarget)
    return emitError(loc) << "no LLVM target for '" << target.triple
                          << "': " << lookupError;
  CodeGenJob job{llvmTarget, &target, optLevel};
  std::unique_ptr<llvm::TargetMachine> machine = job.createMachine();
  if (!machine)
    return emitError(loc) << "cannot create an LLVM target machine for '"
                          << target.triple << "', CPU '" << target.cpu << "'";
  module.setTargetTriple(triple);
  module.setDataLayout(machine->createDataLayout());

  unsigned definitions = llvm::count_if(
      module, [](const llvm::Function &f) { return !f.isDeclaration(); });
  parts = std::max(1u, std::min(parts, definitions));
  if (isIndivisible(module))
    parts = 1;

  for (unsigned part = 0; part < parts; ++part) {
    SmallString<128> path;
    int fd;
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("plaidml", "o", fd, path))
      return emitError(loc)
             << "cannot create a temporary object file: " << ec.message();
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
    objects.paths.push_back(path.str().str());
  }

  if (parts == 1) {
    std::string error =
        job.run(module, *machine, objects.paths.front(), objects.openMP);
    if (!error.empty())
      return emitError(loc) << error;
    return success();
  }

  SmallVector<SmallString<0>> bitcode = divide(module, parts);
  SmallVector<std::string> errors(parts);
  SmallVector<char> openMP(parts, false);
  {
    unsigned threads =
        std::min(parts, llvm::hardware_concurrency().compute_thread_count());
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(threads));
    for (unsigned part = 0; part < parts; ++part)
      pool.async([&, part] {
        llvm::LLVMContext context;
        llvm::Expected<std::unique_ptr<llvm::Module>> partModule =
            llvm::parseBitcodeFile(
                llvm::MemoryBufferRef(StringRef(bitcode[part]), "part"),
                context);
        if (!partModule) {
          errors[part] =
              "cannot read back part " + std::to_string(part) +
              " of the LLVM module: " + llvm::toString(partModule.takeError());
          return;
        }
        std::unique_ptr<llvm::TargetMachine> partMachine = job.createMachine();
        bool calls = false;
        errors[part] =
            job.run(**partModule, *partMachine, objects.paths[part], calls);
        openMP[part] = calls;
      });
    pool.wait();
  }
  for (const std::string &error : errors)
    if (!error.empty())
      return emitError(loc) << error;
  objects.openMP = llvm::is_contained(openMP, true);
  return success();
}
