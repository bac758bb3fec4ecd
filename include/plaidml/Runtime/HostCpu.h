//===- HostCpu.h - The host CPU and its features ----------------*- C++ -*-===//
//
// What the runtime knows about the CPU it runs on: model name, number of
// usable cores, architecture and feature flags (from /proc/cpuinfo on Linux).
// Artifacts list the LLVM target features they were compiled with
// ("+avx2,+fma,..."); checkCpuFeatures() maps those LLVM names to cpuinfo
// flags and refuses an artifact that needs a feature this CPU lacks. Names the
// runtime cannot check (no cpuinfo counterpart, another architecture) and
// "-feature" entries are ignored.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_RUNTIME_HOSTCPU_H
#define PLAIDML_RUNTIME_HOSTCPU_H

#include "plaidml/Runtime/Status.h"

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace plaidml::rt {

struct HostCpu {
  /// "x86_64", "aarch64", ... (from uname).
  std::string arch;
  /// "Intel(R) Xeon(R) ..." (cpuinfo "model name"), or empty if unknown.
  std::string modelName;
  /// Cores this process may run on.
  unsigned numCores = 1;
  /// cpuinfo "flags" (x86) or "Features" (Arm); nullopt when they could not
  /// be read, in which case features are not checked.
  std::optional<std::set<std::string>> flags;

  /// Describes this machine's CPU (cached after the first call).
  static const HostCpu &get();
  /// Parses the text of /proc/cpuinfo (the first processor's entries).
  static HostCpu fromCpuinfo(std::string_view text, std::string arch);

  bool hasFlag(const std::string &flag) const {
    return flags && flags->count(flag);
  }
};

/// The cpuinfo flag that tells whether the CPU has LLVM target feature
/// `llvmName` on architecture `arch` (as in a target triple: "x86_64",
/// "aarch64"), or nullopt when the runtime cannot check that feature.
std::optional<std::string> getCpuinfoFlagForFeature(std::string_view arch,
                                                    std::string_view llvmName);

/// Checks LLVM target features (entries like "+avx2" or "-avx512f") of an
/// artifact compiled for architecture `arch` against `host`. Fails with
/// "artifact needs CPU feature 'avx512f', which this machine lacks".
Status checkCpuFeatures(std::string_view arch,
                        const std::vector<std::string> &features,
                        const HostCpu &host);

} // namespace plaidml::rt

#endif // PLAIDML_RUNTIME_HOSTCPU_H
