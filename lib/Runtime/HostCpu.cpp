//===- HostCpu.cpp - The host CPU and its features ------------------------===//
//
// Reads /proc/cpuinfo (model name, flags), uname (architecture) and the CPU
// affinity mask (usable cores), and maps LLVM target feature names to cpuinfo
// flags. On x86 most LLVM names equal the kernel's flag names once '.' and
// '-' become '_' (sse4.2 -> sse4_2, amx-tile -> amx_tile); the table below
// lists the x86 features the runtime checks, with the flag where it differs
// (sse3 -> pni, lzcnt -> abm, ...). Features outside the tables (evex512,
// crc32, ...) cannot be checked and are ignored.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runtime/HostCpu.h"

#include "FileUtil.h"

#include <sstream>

#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

using namespace plaidml::rt;

namespace {
using detail::trim;
/// An LLVM feature name and its cpuinfo flag (null: the default spelling,
/// the LLVM name with '.' and '-' replaced by '_').
struct FeatureFlag {
  const char *llvm;
  const char *cpuinfo;
};

constexpr FeatureFlag kX86Features[] = {
    // Base and SSE.
    {"x87", "fpu"},
    {"cmov", nullptr},
    {"cx8", nullptr},
    {"cx16", nullptr},
    {"mmx", nullptr},
    {"fxsr", nullptr},
    {"64bit", "lm"},
    {"sahf", "lahf_lm"},
    {"sse", nullptr},
    {"sse2", nullptr},
    {"sse3", "pni"},
    {"ssse3", nullptr},
    {"sse4.1", nullptr},
    {"sse4.2", nullptr},
    {"sse4a", nullptr},
    {"popcnt", nullptr},
    {"lzcnt", "abm"},
    {"prfchw", "3dnowprefetch"},
    {"movbe", nullptr},
    {"pclmul", "pclmulqdq"},
    {"aes", nullptr},
    {"rdrnd", "rdrand"},
    {"rdseed", nullptr},
    {"sha", "sha_ni"},
    {"adx", nullptr},
    {"bmi", "bmi1"},
    {"bmi2", nullptr},
    {"f16c", nullptr},
    {"fma", nullptr},
    {"fma4", nullptr},
    {"xop", nullptr},
    {"tbm", nullptr},
    {"xsave", nullptr},
    {"xsaveopt", nullptr},
    {"xsavec", nullptr},
    {"xsaves", nullptr},
    {"clflushopt", nullptr},
    {"clwb", nullptr},
    {"clzero", nullptr},
    {"mwaitx", nullptr},
    {"rdpid", nullptr},
    {"fsgsbase", nullptr},
    {"invpcid", nullptr},
    {"pku", nullptr},
    {"rtm", nullptr},
    {"movdiri", nullptr},
    {"movdir64b", nullptr},
    {"serialize", nullptr},
    {"waitpkg", nullptr},
    {"cldemote", nullptr},
    {"gfni", nullptr},
    {"vaes", nullptr},
    {"vpclmulqdq", nullptr},
    // AVX and AVX-512.
    {"avx", nullptr},
    {"avx2", nullptr},
    {"avxvnni", "avx_vnni"},
    {"avx512f", nullptr},
    {"avx512cd", nullptr},
    {"avx512dq", nullptr},
    {"avx512bw", nullptr},
    {"avx512vl", nullptr},
    {"avx512ifma", nullptr},
    {"avx512vbmi", nullptr},
    {"avx512vbmi2", "avx512_vbmi2"},
    {"avx512vnni", "avx512_vnni"},
    {"avx512bitalg", "avx512_bitalg"},
    {"avx512vpopcntdq", "avx512_vpopcntdq"},
    {"avx512bf16", "avx512_bf16"},
    {"avx512fp16", "avx512_fp16"},
    {"avx512vp2intersect", "avx512_vp2intersect"},
    {"avx512er", nullptr},
    {"avx512pf", nullptr},
    // AMX.
    {"amx-tile", nullptr},
    {"amx-int8", nullptr},
    {"amx-bf16", nullptr},
    {"amx-fp16", nullptr},
};

constexpr FeatureFlag kAArch64Features[] = {
    {"fp-armv8", "fp"}, {"neon", "asimd"},    {"crc", "crc32"},
    {"aes", nullptr},   {"sha2", nullptr},    {"sha3", nullptr},
    {"lse", "atomics"}, {"fullfp16", "fphp"}, {"dotprod", "asimddp"},
    {"rcpc", "lrcpc"},  {"sve", nullptr},     {"sve2", nullptr},
    {"i8mm", nullptr},  {"bf16", nullptr},    {"sme", nullptr},
};

std::string defaultFlag(std::string_view llvm) {
  std::string flag(llvm);
  for (char &c : flag)
    if (c == '.' || c == '-')
      c = '_';
  return flag;
}

unsigned countUsableCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
    return CPU_COUNT(&set);
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<unsigned>(n) : 1;
}
} // namespace

HostCpu HostCpu::fromCpuinfo(std::string_view text, std::string arch) {
  HostCpu cpu;
  cpu.arch = std::move(arch);
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    std::string_view line = text.substr(pos, eol - pos);
    pos = eol == std::string_view::npos ? text.size() : eol + 1;
    // Only the first processor's block: a blank line ends it.
    if (trim(line).empty()) {
      if (cpu.flags || !cpu.modelName.empty())
        break;
      continue;
    }
    size_t colon = line.find(':');
    if (colon == std::string_view::npos)
      continue;
    std::string key = trim(line.substr(0, colon));
    std::string value = trim(line.substr(colon + 1));
    if (key == "model name" || key == "Model Name") {
      cpu.modelName = value;
    } else if (key == "flags" || key == "Features") {
      std::set<std::string> flags;
      std::istringstream words(value);
      std::string word;
      while (words >> word)
        flags.insert(word);
      cpu.flags = std::move(flags);
    }
  }
  return cpu;
}

const HostCpu &HostCpu::get() {
  static const HostCpu host = [] {
    struct utsname u;
    std::string arch = uname(&u) == 0 ? u.machine : "";
    std::string text, error;
    if (!detail::readWholeFile("/proc/cpuinfo", text, error))
      text.clear();
    HostCpu cpu = fromCpuinfo(text, arch);
    cpu.numCores = countUsableCores();
    return cpu;
  }();
  return host;
}

std::optional<std::string>
plaidml::rt::getCpuinfoFlagForFeature(std::string_view arch,
                                      std::string_view llvmName) {
  auto lookup = [&](const auto &table) -> std::optional<std::string> {
    for (const FeatureFlag &f : table)
      if (llvmName == f.llvm)
        return f.cpuinfo ? std::string(f.cpuinfo) : defaultFlag(llvmName);
    return std::nullopt;
  };
  if (arch == "x86_64" || arch == "i386" || arch == "i686")
    return lookup(kX86Features);
  if (arch == "aarch64" || arch == "arm64")
    return lookup(kAArch64Features);
  return std::nullopt;
}

Status plaidml::rt::checkCpuFeatures(std::string_view arch,
                                     const std::vector<std::string> &features,
                                     const HostCpu &host) {
  if (!host.flags)
    return Status::success(); // Nothing to check against.
  for (const std::string &feature : features) {
    if (feature.empty() || feature[0] != '+')
      continue; // "-feature": the artifact does not use it.
    std::string_view name = std::string_view(feature).substr(1);
    std::optional<std::string> flag = getCpuinfoFlagForFeature(arch, name);
    if (!flag)
      continue; // Cannot be checked.
    if (!host.hasFlag(*flag))
      return Status::failedPrecondition("artifact needs CPU feature '" +
                                        std::string(name) +
                                        "', which this machine lacks");
  }
  return Status::success();
}
