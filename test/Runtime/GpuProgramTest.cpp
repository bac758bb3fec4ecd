//===- GpuProgramTest.cpp - The runtime side of the GPU launch ABI --------===//
//
// Loads the hand-written GPU artifacts of Inputs/fake_gpu_artifact.cpp on
// vulkan:0 and opencl:0 and runs their entry points: kernels launched through
// the _plaidml_gpu_abi table on device buffers (inputs uploaded by prepare(),
// outputs downloaded by getOutputs()), a temporary buffer between two
// dependent dispatches, memset and host-to-device copies, and every failure
// of a launch reported as a message naming the device and the kernel. Skips
// without the device (or, for Vulkan, without Inputs/add.spv).
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "plaidml/Runtime/OpenCL.h"
#include "plaidml/Runtime/Program.h"
#include "plaidml/Runtime/Vulkan.h"

#include <gtest/gtest.h>

using namespace plaidml::rt;
using plaidml::rt::test::makeF32;
using plaidml::rt::test::toF32;

namespace {

#define SKIP_WITHOUT_GPU()                                                     \
  do {                                                                         \
    SKIP_WITHOUT_VULKAN();                                                     \
    if (std::string(PLAIDML_SPV_DIR).empty())                                  \
      GTEST_SKIP() << "spirv-as was not found at build time: no add.spv";      \
  } while (false)

/// The artifact and device of a test.
struct Target {
  const char *artifact;
  DeviceName device;
  /// The kernel's name (OpenCL kernels cannot be called main).
  std::string kernel;
};
const Target vulkan0{FAKE_GPU_ARTIFACT_GOOD, {DeviceKind::Vulkan, 0}, "main"};
const Target opencl0{FAKE_GPU_ARTIFACT_OPENCL, {DeviceKind::OpenCL, 0}, "add"};

std::unique_ptr<Program> load(const Target &target) {
  LoadOptions options;
  options.device = target.device;
  StatusOr<std::unique_ptr<Program>> program =
      Program::load(target.artifact, options);
  EXPECT_TRUE(program.ok()) << program.message();
  return program.ok() ? std::move(*program) : nullptr;
}

std::string runError(const Target &target, const std::string &entry) {
  std::unique_ptr<Program> program = load(target);
  if (!program)
    return "(not loaded)";
  StatusOr<std::vector<HostArray>> out = program->run(entry, {});
  return out.ok() ? "(no error)" : out.message();
}

void checkDependentKernels(const Target &target) {
  std::unique_ptr<Program> program = load(target);
  ASSERT_TRUE(program);
  std::vector<float> a(100), b(100), want(100);
  for (int i = 0; i < 100; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f * static_cast<float>(i);
    want[i] = a[i] + b[i] + a[i];
  }
  StatusOr<Invocation> inv =
      program->prepare("add", {makeF32({100}, a), makeF32({100}, b)});
  ASSERT_TRUE(inv.ok()) << inv.message();
  // No host buffers: they live on the device.
  EXPECT_TRUE(inv->getBuffers().empty());
  for (int run = 0; run < 3; ++run) {
    Status status = inv->execute();
    ASSERT_TRUE(status.ok()) << status.message();
    StatusOr<HostArray> c = inv->getOutput(0);
    ASSERT_TRUE(c.ok()) << c.message();
    EXPECT_EQ(toF32(*c), want);
  }
  // A new input is uploaded; the program outlives its Program object.
  program.reset();
  ASSERT_TRUE(
      inv->setInput(1, makeF32({100}, std::vector<float>(100, 1))).ok());
  ASSERT_TRUE(inv->execute().ok());
  StatusOr<std::vector<HostArray>> outs = inv->getOutputs();
  ASSERT_TRUE(outs.ok()) << outs.message();
  EXPECT_EQ(toF32((*outs)[0])[10], 21.0f);
}

void checkMemsetAndHostCopies(const Target &target) {
  std::unique_ptr<Program> program = load(target);
  ASSERT_TRUE(program);
  StatusOr<std::vector<HostArray>> out = program->run("fill", {});
  ASSERT_TRUE(out.ok()) << out.message();
  std::vector<float> want(100, 1.0f);
  want[0] = 5, want[1] = 6, want[2] = 7, want[3] = 8;
  EXPECT_EQ(toF32((*out)[0]), want);
}

void checkLaunchErrors(const Target &target, const std::string &kind) {
  std::string bad = runError(target, "bad_pointer");
  EXPECT_NE(bad.find(kind + ":0 ("), std::string::npos) << bad;
  EXPECT_NE(bad.find("kernel '" + target.kernel + "': argument 0 ("),
            std::string::npos)
      << bad;
  EXPECT_NE(bad.find(") is not a device buffer"), std::string::npos) << bad;

  std::string big = runError(target, "big_grid");
  EXPECT_NE(big.find("kernel '" + target.kernel +
                     "': 1099511627776 workgroups in x, but the device "
                     "allows at most "),
            std::string::npos)
      << big;

  std::string missing = runError(target, "no_kernel");
  EXPECT_NE(missing.find("kernel 'nosuch': "), std::string::npos) << missing;

  // A failed call leaves the device usable.
  std::unique_ptr<Program> program = load(target);
  ASSERT_TRUE(program);
  EXPECT_TRUE(program->run("fill", {}).ok());
}

TEST(GpuProgram, DependentKernelsThroughATemporary) {
  SKIP_WITHOUT_GPU();
  checkDependentKernels(vulkan0);
}

TEST(GpuProgram, OpenCLDependentKernelsThroughATemporary) {
  SKIP_WITHOUT_OPENCL();
  checkDependentKernels(opencl0);
}

TEST(GpuProgram, OpenCLMemsetAndHostCopies) {
  SKIP_WITHOUT_OPENCL();
  checkMemsetAndHostCopies(opencl0);
}

TEST(GpuProgram, OpenCLLaunchErrors) {
  SKIP_WITHOUT_OPENCL();
  checkLaunchErrors(opencl0, "opencl");
}

TEST(GpuProgram, MemsetAndHostCopies) {
  SKIP_WITHOUT_GPU();
  checkMemsetAndHostCopies(vulkan0);
}

TEST(GpuProgram, LaunchErrorsNameDeviceAndKernel) {
  SKIP_WITHOUT_GPU();
  checkLaunchErrors(vulkan0, "vulkan");
}

TEST(GpuProgram, RequirementsAreCheckedAtLoad) {
  SKIP_WITHOUT_GPU();
  LoadOptions options;
  options.device = vulkan0.device;
  StatusOr<std::unique_ptr<Program>> program =
      Program::load(FAKE_GPU_ARTIFACT_NEEDS, options);
  ASSERT_FALSE(program.ok());
  EXPECT_NE(program.message().find("its kernels need NoSuchCapability, which "
                                   "vulkan:0 ("),
            std::string::npos)
      << program.message();
  EXPECT_NE(program.message().find(") does not support"), std::string::npos)
      << program.message();
}

TEST(GpuProgram, NoSuchDevice) {
  LoadOptions options;
  options.device = {DeviceKind::Vulkan, 99};
  StatusOr<std::unique_ptr<Program>> program =
      Program::load(FAKE_GPU_ARTIFACT_GOOD, options);
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(program.message().rfind(std::string("cannot load artifact '") +
                                        FAKE_GPU_ARTIFACT_GOOD + "': ",
                                    0),
            0u)
      << program.message();
}

} // namespace
