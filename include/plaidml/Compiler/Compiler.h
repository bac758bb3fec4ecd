//===- Compiler.h - Compile a module to an artifact -------------*- C++ -*-===//
//
// The compiler driver behind plaidml-compile and plaidml-run: runs the target
// pipeline on a module, generates machine code with LLVM and links the
// artifact of docs/ABI.md section 4 (a shared library: CPU code, or host
// code with the kernels it launches). The device is an input: the tools
// resolve a device name into CompileOptions (DeviceTarget.h), this library
// does not look at the machine's devices. Errors
// are reported as MLIR diagnostics on the module's context, each naming what
// failed. Cache.h adds the on-disk compile cache on top.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_COMPILER_COMPILER_H
#define PLAIDML_COMPILER_COMPILER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::plaidml {

struct CpuPipelineOptions;

/// What to compile for. The CPU fields mirror CpuPipelineOptions (a plain,
/// copyable struct, unlike PassPipelineOptions).
struct CompileOptions {
  /// `cpu`, `vulkan:N` or `opencl:N`: the device kind, and the name the
  /// cache and diagnostics use. What a GPU's kernels may use is in `caps`
  /// and `exts` (resolveDeviceTarget in DeviceTarget.h fills them).
  std::string device = "cpu";
  /// LLVM CPU name or "native" for the CPU code (all of a CPU artifact, the
  /// host code of a GPU one). Empty: "native" for cpu, the portable
  /// baseline of the triple's architecture ("x86-64") for the host code of
  /// a GPU artifact, so that the artifact runs on other machines.
  std::string cpu;
  /// Target triple; empty for the host's.
  std::string triple;
  /// Subtarget features "+a,-b"; empty for the host's (native) or the
  /// CPU's own (named CPU).
  std::string features;
  /// LLVM optimization level, 0-3.
  unsigned optLevel = 3;
  /// Threads of CPU code: 1 is sequential; more runs the large loops as
  /// OpenMP worksharing loops and links libomp (docs/CpuPipeline.md).
  unsigned threads = 1;
  /// Parts of the program that LLVM optimizes and compiles at once, on as
  /// many threads (up to the machine's): the functions divided by size
  /// (lib/Compiler/CodeGen.h). The artifact's bytes depend on it, what it
  /// computes does not; the host's core count does not change it.
  unsigned codegenParts = 2;
  /// What the kernels may use: SPIR-V capabilities and extensions
  /// (vulkan), device extensions such as cl_khr_fp64 (opencl). Empty: the
  /// baseline every device of the kind has.
  std::vector<std::string> caps, exts;
  /// How diagnostics name the device, e.g. "vulkan:0 (llvmpipe)".
  std::string label;
  /// Path of ld.lld; empty to look next to the LLVM tools, then on PATH.
  std::string linker;
  /// Directory holding libomp.so (threads > 1); empty to look next to the
  /// LLVM libraries, then in the system library directories.
  std::string openMPDir;
  /// When not empty, compileToArtifact also writes the LLVM IR it
  /// translated, before LLVM's optimizations, to this file: what
  /// `plaidml-opt` with getCompilePipeline's pipeline and `plaidml-translate
  /// --mlir-to-llvmir` give (plaidml-compile --emit-llvm-ir).
  std::string llvmIROutput;

  /// Copies the fields into pipeline options.
  void toPipelineOptions(CpuPipelineOptions &options) const;
  /// `cpu`, or the default for the device when it is empty.
  std::string getCpu() const;
};

/// Checks what can be checked without a module: the device, opt-level and
/// threads. Returns a one-line message, or an empty string when valid.
std::string validateCompileOptions(const CompileOptions &options);

/// The most elements an entry point's input or output may have: the
/// runtime's limit for the shapes of a manifest (2^60 - 1, so that the byte
/// size of any element type fits in 63 bits).
constexpr int64_t kMaxEntryElements = INT64_MAX / 8;

/// Checks that `module` has what the runtime needs of an artifact's entry
/// points: at least one function, each with an input or an output, and no
/// input or output of more than kMaxEntryElements elements. compileToArtifact
/// runs it first. On failure the reasons have been emitted.
LogicalResult checkEntryFunctions(ModuleOp module);

/// Compiles `module` (Tile-dialect functions, or the ABI form of docs/ABI.md
/// section 1) for `options.device` and writes the artifact to `outputPath`.
/// Modifies `module` (it holds the LLVM dialect afterwards). On failure the
/// reason has been emitted as a diagnostic and no artifact is written.
LogicalResult compileToArtifact(ModuleOp module, const CompileOptions &options,
                                StringRef outputPath);

/// The MLIR pass pipeline compileToArtifact runs on `module` for `options`
/// (the form of the module, Tile or ABI, picks the pipeline), as text for
/// `plaidml-opt --pass-pipeline`. Emits a diagnostic and fails when the
/// options are invalid.
FailureOr<std::string> getCompilePipeline(ModuleOp module,
                                          const CompileOptions &options);

/// The options string that identifies generated code: every CPU option with
/// "native" and the defaults resolved for this machine, so the same text on
/// two machines differs when their CPUs do, and the GPU's caps and exts. The
/// cache key uses it. Fails with a message when the options are invalid or the
/// target does not resolve.
llvm::Expected<std::string>
getResolvedOptionsString(const CompileOptions &options);

} // namespace mlir::plaidml

#endif // PLAIDML_COMPILER_COMPILER_H
