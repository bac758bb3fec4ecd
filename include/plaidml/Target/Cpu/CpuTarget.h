//===- CpuTarget.h - Resolve a CPU target description -----------*- C++ -*-===//
//
// Turns the user's (triple, cpu, features), where "native" and empty strings
// mean "the host's", into the exact strings an LLVM TargetMachine needs and
// the feature list the artifact manifest records. The CPU pipeline's
// entry-point pass and the compiler driver both call it, so the manifest and
// the generated code always describe the same target.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_TARGET_CPU_CPUTARGET_H
#define PLAIDML_TARGET_CPU_CPUTARGET_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mlir::plaidml {

/// A CPU target with every default resolved.
struct CpuTarget {
  /// Normalized target triple, e.g. "x86_64-pc-linux-gnu".
  std::string triple;
  /// An LLVM CPU name, never "native".
  std::string cpu;
  /// The subtarget feature string for the TargetMachine ("+a,-b,..."): for
  /// "native", every host feature, on or off, then the user's.
  std::string features;
  /// The ISA features the generated code may use, "+a,+b,..." sorted: what
  /// the manifest records and the runtime checks against the machine.
  std::string manifestFeatures;
  /// The host's L2 cache per core in bytes for "native" (Linux: sysfs), 0
  /// when unknown or for a named CPU.
  int64_t l2Bytes = 0;
};

/// Bytes of packed operand data one cache block of the CPU code generator
/// may hold (plaidml-cpu-configure's `block-bytes`): half the target's L2,
/// so that the rows streaming through fit beside it, or
/// kDefaultCacheBlockBytes where the L2 is unknown.
constexpr int64_t kDefaultCacheBlockBytes = 256 * 1024;
int64_t getCacheBlockBytes(const CpuTarget &target);

/// Resolves a target description. `triple` empty means the host's; `cpu`
/// "native" (or empty) the host CPU; `features` empty means the host's
/// features for "native" and the CPU's own otherwise. Fails with a message
/// naming what is wrong (unknown triple, CPU or feature).
llvm::Expected<CpuTarget> resolveCpuTarget(llvm::StringRef triple,
                                           llvm::StringRef cpu,
                                           llvm::StringRef features);

/// Registers the LLVM targets with the TargetRegistry, once per process
/// (thread-safe). resolveCpuTarget calls it.
void initializeLLVMTargets();

} // namespace mlir::plaidml

#endif // PLAIDML_TARGET_CPU_CPUTARGET_H
