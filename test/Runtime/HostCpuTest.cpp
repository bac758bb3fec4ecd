//===- HostCpuTest.cpp - Tests of host CPU detection and feature checks ---===//
//
// /proc/cpuinfo parsing (model name, flags, only the first processor), the
// map from LLVM target features to cpuinfo flags (sse4.2 -> sse4_2,
// sse3 -> pni, ...), and checkCpuFeatures() refusing a feature the CPU lacks
// while ignoring "-feature" entries and names it cannot check.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runtime/HostCpu.h"

#include <gtest/gtest.h>

using namespace plaidml::rt;

namespace {
const char *kCpuinfo = "processor\t: 0\n"
                       "vendor_id\t: GenuineIntel\n"
                       "model name\t: Intel(R) Xeon(R) Test CPU @ 2.00GHz\n"
                       "flags\t\t: fpu lm pni ssse3 sse4_1 sse4_2 avx avx2 "
                       "fma abm bmi1 avx512f avx512_vnni\n"
                       "\n"
                       "processor\t: 1\n"
                       "model name\t: Some other CPU\n"
                       "flags\t\t: fpu\n";

HostCpu withFlags(std::set<std::string> flags) {
  HostCpu cpu;
  cpu.arch = "x86_64";
  cpu.flags = std::move(flags);
  return cpu;
}
} // namespace

TEST(HostCpu, ParsesCpuinfo) {
  HostCpu cpu = HostCpu::fromCpuinfo(kCpuinfo, "x86_64");
  EXPECT_EQ(cpu.modelName, "Intel(R) Xeon(R) Test CPU @ 2.00GHz");
  ASSERT_TRUE(cpu.flags.has_value());
  EXPECT_TRUE(cpu.hasFlag("avx512_vnni"));
  EXPECT_TRUE(cpu.hasFlag("pni"));
  EXPECT_FALSE(cpu.hasFlag("avx512bw"));
  EXPECT_EQ(cpu.flags->size(), 13u);
}

TEST(HostCpu, ArmFeaturesLine) {
  HostCpu cpu = HostCpu::fromCpuinfo(
      "processor\t: 0\nFeatures\t: fp asimd crc32 atomics\n", "aarch64");
  EXPECT_TRUE(cpu.hasFlag("asimd"));
  EXPECT_TRUE(checkCpuFeatures("aarch64", {"+neon", "+crc", "+lse"}, cpu).ok());
  Status s = checkCpuFeatures("aarch64", {"+neon", "+sve"}, cpu);
  EXPECT_EQ(s.message(), "artifact needs CPU feature 'sve', which this "
                         "machine lacks");
}

TEST(HostCpu, ThisMachine) {
  const HostCpu &cpu = HostCpu::get();
  EXPECT_GE(cpu.numCores, 1u);
  EXPECT_FALSE(cpu.arch.empty());
#if defined(__linux__) && defined(__x86_64__)
  EXPECT_EQ(cpu.arch, "x86_64");
  ASSERT_TRUE(cpu.flags.has_value());
  // Every x86-64 CPU has SSE2; the table maps it to the right flag.
  EXPECT_TRUE(
      checkCpuFeatures("x86_64", {"+sse2", "+64bit", "+x87"}, cpu).ok());
#endif
}

TEST(HostCpu, FeatureNameMapping) {
  EXPECT_EQ(getCpuinfoFlagForFeature("x86_64", "sse4.2"), "sse4_2");
  EXPECT_EQ(getCpuinfoFlagForFeature("x86_64", "sse3"), "pni");
  EXPECT_EQ(getCpuinfoFlagForFeature("x86_64", "lzcnt"), "abm");
  EXPECT_EQ(getCpuinfoFlagForFeature("x86_64", "bmi"), "bmi1");
  EXPECT_EQ(getCpuinfoFlagForFeature("x86_64", "avx512vnni"), "avx512_vnni");
  EXPECT_EQ(getCpuinfoFlagForFeature("x86_64", "avx512f"), "avx512f");
  EXPECT_EQ(getCpuinfoFlagForFeature("x86_64", "amx-tile"), "amx_tile");
  EXPECT_EQ(getCpuinfoFlagForFeature("x86_64", "evex512"), std::nullopt);
  EXPECT_EQ(getCpuinfoFlagForFeature("riscv64", "v"), std::nullopt);
  EXPECT_EQ(getCpuinfoFlagForFeature("aarch64", "neon"), "asimd");
}

TEST(HostCpu, CheckFeatures) {
  HostCpu cpu = HostCpu::fromCpuinfo(kCpuinfo, "x86_64");
  EXPECT_TRUE(checkCpuFeatures("x86_64",
                               {"+sse3", "+sse4.2", "+avx2", "+fma", "+lzcnt",
                                "+avx512f", "+avx512vnni"},
                               cpu)
                  .ok());
  Status s = checkCpuFeatures("x86_64", {"+avx2", "+avx512bw"}, cpu);
  EXPECT_EQ(s.message(), "artifact needs CPU feature 'avx512bw', which this "
                         "machine lacks");
  // "-feature" entries and features that cannot be checked are ignored.
  EXPECT_TRUE(checkCpuFeatures("x86_64",
                               {"-avx512bw", "+evex512", "+crc32",
                                "+avx512fp16x-nonexistent"},
                               cpu)
                  .ok());
  // Without flags (not Linux, no /proc), nothing can be checked.
  HostCpu unknown;
  unknown.arch = "x86_64";
  EXPECT_TRUE(checkCpuFeatures("x86_64", {"+avx512f"}, unknown).ok());
  EXPECT_FALSE(
      checkCpuFeatures("x86_64", {"+avx512f"}, withFlags({"fpu"})).ok());
}
