//===- CodeGen.h - LLVM optimization and code generation --------*- C++ -*-===//
//
// The LLVM half of compileToArtifact: the optimization pipeline and object
// emission for a CPU target, on one module or on parts of it at once.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_COMPILER_CODEGEN_H
#define PLAIDML_LIB_COMPILER_CODEGEN_H

#include "plaidml/Target/Cpu/CpuTarget.h"

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::plaidml {

/// Object files written by emitObjectFiles, removed with this object.
struct ObjectFiles {
  SmallVector<std::string> paths;
  /// Whether the code calls the OpenMP runtime (libomp must be linked).
  bool openMP = false;

  ObjectFiles() = default;
  ObjectFiles(const ObjectFiles &) = delete;
  ObjectFiles &operator=(const ObjectFiles &) = delete;
  ~ObjectFiles();
};

/// Optimizes `module` with LLVM's -O<optLevel> pipeline and writes its
/// machine code for `target` into `objects`. With `parts` > 1 and more than
/// one function defined, the functions are divided into up to `parts`
/// modules of about the same number of instructions (largest first, each to
/// the lightest part; variables to the first), which are optimized and
/// compiled on up to `parts` threads, one object file each. The division
/// depends only on the module, so the object files do too. Modifies
/// `module`. On failure the reason has been emitted at `loc`.
LogicalResult emitObjectFiles(Location loc, llvm::Module &module,
                              const CpuTarget &target, unsigned optLevel,
                              unsigned parts, ObjectFiles &objects);

} // namespace mlir::plaidml

#endif // PLAIDML_LIB_COMPILER_CODEGEN_H
