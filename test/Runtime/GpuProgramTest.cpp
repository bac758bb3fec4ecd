//===- GpuProgramTest.cpp - The runtime side of the GPU launch ABI --------===//
//
// Loads the hand-written GPU artifacts of Inputs/fake_gpu_artifact.cpp on
// vulkan:0 and opencl:0 and runs their entry points: kernels launched through
// the _plaidml_gpu_abi table on device buffers (inputs uploaded by prepare(),
// outputs downloaded by getOutputs()), a temporary buffer between two
// dependent dispatches, memset and host-to-device copies, and every failure
// of a launch reported as a message naming the device and the kernel. On
// OpenCL also the kernel bundle (SPIR-V and OpenCL C of one kernel): the
// format chosen for opencl:0 and why, the format forced by LoadOptions or
// PLAIDML_OPENCL_KERNEL_FORMAT, and a truncated bundle. Also two programs
// called from two threads, and artifacts of another launch ABI version. Skips
// without the device (or without Inputs/add.spv and add-opencl.spv, which need
// spirv-as).
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "plaidml/Runtime/Device.h"
#include "plaidml/Runtime/KernelBundle.h"
#include "plaidml/Runtime/Program.h"

#include <gtest/gtest.h>

#include <functional>
#include <thread>

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
const Target vulkan0{FAKE_GPU_ARTIFACT_GOOD, {"vulkan", 0}, "main"};
const Target opencl0{FAKE_GPU_ARTIFACT_OPENCL, {"opencl", 0}, "add"};
const Target openclBundle{
    FAKE_GPU_ARTIFACT_OPENCL_BUNDLE, {"opencl", 0}, "add"};

#define SKIP_WITHOUT_OPENCL_SPV()                                              \
  do {                                                                         \
    SKIP_WITHOUT_OPENCL();                                                     \
    if (std::string(PLAIDML_SPV_DIR).empty())                                  \
      GTEST_SKIP() << "spirv-as was not found at build time: no "              \
                      "add-opencl.spv for the kernel bundle";                  \
  } while (false)

std::unique_ptr<Program> load(const Target &target,
                              const std::string &openclKernelFormat = "") {
  LoadOptions options;
  options.device = target.device;
  if (!openclKernelFormat.empty())
    options.driverOptions["kernel-format"] = openclKernelFormat;
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

/// The error of loading `artifact` on opencl:0 with `openclKernelFormat`.
std::string loadError(const char *artifact,
                      const std::string &openclKernelFormat = "") {
  LoadOptions options;
  options.device = {"opencl", 0};
  if (!openclKernelFormat.empty())
    options.driverOptions["kernel-format"] = openclKernelFormat;
  StatusOr<std::unique_ptr<Program>> program = Program::load(artifact, options);
  return program.ok() ? "(loaded)" : program.message();
}

/// "opencl:0 (<name>)", and whether that device takes SPIR-V.
std::string opencl0Label(bool &takesSpirv) {
  StatusOr<std::shared_ptr<Device>> device =
      openDevice(DeviceName{"opencl", 0});
  EXPECT_TRUE(device.ok()) << device.message();
  if (!device.ok())
    return "";
  takesSpirv = (*device)->getInfo().hasFeature("spirv");
  return (*device)->getLabel();
}

void checkDependentKernels(const Target &target,
                           const std::string &openclKernelFormat = "") {
  std::unique_ptr<Program> program = load(target, openclKernelFormat);
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
  // Buffers of the device, not of the host.
  ASSERT_EQ(inv->getBuffers().size(), 3u);
  for (const std::unique_ptr<Buffer> &buffer : inv->getBuffers())
    EXPECT_EQ(&buffer->getDevice(), &program->getDevice());
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
  std::unique_ptr<Program> program = load(vulkan0);
  ASSERT_TRUE(program);
  std::vector<std::string> modules = program->describeKernelModules();
  ASSERT_EQ(modules.size(), 1u);
  EXPECT_EQ(modules[0].rfind("vulkan:0 (", 0), 0u) << modules[0];
  EXPECT_NE(modules[0].find("): kernel module 0: SPIR-V"), std::string::npos)
      << modules[0];
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

/// From a bundle of SPIR-V and OpenCL C, opencl:0 builds SPIR-V when it
/// takes it (PoCL here does not) and OpenCL C otherwise, and says so.
TEST(GpuProgram, OpenCLBundlePicksTheFormatOfTheDevice) {
  SKIP_WITHOUT_OPENCL_SPV();
  bool takesSpirv = false;
  std::string label = opencl0Label(takesSpirv);
  std::unique_ptr<Program> program = load(openclBundle);
  ASSERT_TRUE(program);
  std::vector<std::string> modules = program->describeKernelModules();
  ASSERT_EQ(modules.size(), 1u);
  EXPECT_EQ(modules[0],
            label + ": kernel module 'add': " +
                (takesSpirv ? "SPIR-V (the device takes SPIR-V; the module "
                              "has OpenCL C too)"
                            : "OpenCL C (the device takes no SPIR-V (no "
                              "SPIR-V in its CL_DEVICE_IL_VERSION, no "
                              "cl_khr_il_program); the module has SPIR-V "
                              "too)"));
  checkDependentKernels(openclBundle);
  checkLaunchErrors(openclBundle, "opencl");
}

TEST(GpuProgram, OpenCLForcedKernelFormats) {
  SKIP_WITHOUT_OPENCL_SPV();
  bool takesSpirv = false;
  std::string label = opencl0Label(takesSpirv);
  std::string prefix = std::string("cannot load artifact '") +
                       FAKE_GPU_ARTIFACT_OPENCL_BUNDLE + "': " + label + ": ";
  // OpenCL C, which every device builds.
  std::unique_ptr<Program> program = load(openclBundle, "opencl-c");
  ASSERT_TRUE(program);
  EXPECT_EQ(program->describeKernelModules(),
            std::vector<std::string>{
                label + ": kernel module 'add': OpenCL C (forced by "
                        "kernel-format=opencl-c)"});
  checkDependentKernels(openclBundle, "opencl-c");
  // SPIR-V, which PoCL cannot build: an error naming the device.
  if (takesSpirv)
    checkDependentKernels(openclBundle, "spirv");
  else
    EXPECT_EQ(loadError(FAKE_GPU_ARTIFACT_OPENCL_BUNDLE, "spirv"),
              prefix +
                  "kernel module 0: kernel-format=spirv "
                  "asks for SPIR-V, but " +
                  label +
                  " takes no SPIR-V (no SPIR-V in its CL_DEVICE_IL_VERSION, "
                  "no cl_khr_il_program)");
  // A single-format module has only the one.
  EXPECT_EQ(loadError(FAKE_GPU_ARTIFACT_OPENCL, "spirv"),
            std::string("cannot load artifact '") + FAKE_GPU_ARTIFACT_OPENCL +
                "': " + label +
                ": kernel module 0: kernel-format=spirv "
                "asks for SPIR-V, but the kernel module has none");
  EXPECT_EQ(loadError(FAKE_GPU_ARTIFACT_OPENCL, "ptx"),
            std::string("cannot load artifact '") + FAKE_GPU_ARTIFACT_OPENCL +
                "': kernel-format=ptx is not a kernel "
                "format (expected auto, spirv or opencl-c)");

  // The environment variable, unless LoadOptions says otherwise.
  {
    test::ScopedEnv env(kOpenCLKernelFormatVariable, "opencl-c");
    std::unique_ptr<Program> forced = load(openclBundle);
    ASSERT_TRUE(forced);
    EXPECT_EQ(forced->describeKernelModules()[0],
              label + ": kernel module 'add': OpenCL C (forced by "
                      "PLAIDML_OPENCL_KERNEL_FORMAT=opencl-c)");
  }
  {
    test::ScopedEnv env(kOpenCLKernelFormatVariable, "SPIR-V");
    EXPECT_EQ(loadError(FAKE_GPU_ARTIFACT_OPENCL_BUNDLE),
              std::string("cannot load artifact '") +
                  FAKE_GPU_ARTIFACT_OPENCL_BUNDLE +
                  "': PLAIDML_OPENCL_KERNEL_FORMAT=SPIR-V is not a kernel "
                  "format (expected auto, spirv or opencl-c)");
    EXPECT_TRUE(load(openclBundle, "auto"));
  }
}

TEST(GpuProgram, OpenCLSingleFormatModule) {
  SKIP_WITHOUT_OPENCL();
  bool takesSpirv = false;
  std::string label = opencl0Label(takesSpirv);
  std::unique_ptr<Program> program = load(opencl0);
  ASSERT_TRUE(program);
  EXPECT_EQ(program->describeKernelModules(),
            std::vector<std::string>{
                label + ": kernel module 0: OpenCL C (the module has no "
                        "SPIR-V)"});
}

/// A bundle cut short: the load fails, naming the module and what is cut.
TEST(GpuProgram, OpenCLTruncatedBundle) {
  SKIP_WITHOUT_OPENCL_SPV();
  bool takesSpirv = false;
  std::string label = opencl0Label(takesSpirv);
  // 48 bytes of header, 592 of SPIR-V, 175 of OpenCL C (padded to 176) and
  // 3 of name (padded to 4), less 8: the OpenCL C is cut.
  EXPECT_EQ(loadError(FAKE_GPU_ARTIFACT_OPENCL_TRUNCATED),
            std::string("cannot load artifact '") +
                FAKE_GPU_ARTIFACT_OPENCL_TRUNCATED + "': " + label +
                ": kernel module 0: kernel bundle of 812 bytes: truncated: "
                "entry 1 (OpenCL C, 175 bytes at 640) ends past the end");
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

/// Two programs of one artifact on one device, each with its own ABI table
/// and context, called from two threads at once: each call finds its own
/// program (no thread-local or global state) and gets its own result.
TEST(GpuProgram, TwoProgramsOnTwoThreads) {
  SKIP_WITHOUT_GPU();
  std::unique_ptr<Program> first = load(vulkan0);
  std::unique_ptr<Program> second = load(vulkan0);
  ASSERT_TRUE(first && second);
  auto work = [](const Program &program, float scale, std::string &error) {
    std::vector<float> a(100), b(100, scale), want(100);
    for (int i = 0; i < 100; ++i) {
      a[i] = static_cast<float>(i);
      want[i] = 2 * a[i] + scale;
    }
    for (int run = 0; run < 10 && error.empty(); ++run) {
      StatusOr<std::vector<HostArray>> out =
          program.run("add", {makeF32({100}, a), makeF32({100}, b)});
      if (!out.ok())
        error = out.message();
      else if (toF32((*out)[0]) != want)
        error = "wrong result in run " + std::to_string(run) +
                ": c[1] = " + std::to_string(toF32((*out)[0])[1]);
    }
  };
  std::string error1, error2;
  std::thread t1(work, std::cref(*first), 1.0f, std::ref(error1));
  std::thread t2(work, std::cref(*second), 7.0f, std::ref(error2));
  t1.join();
  t2.join();
  EXPECT_EQ(error1, "");
  EXPECT_EQ(error2, "");
}

/// Artifacts of another launch ABI version are refused by name.
TEST(GpuProgram, LaunchAbiVersionIsChecked) {
  SKIP_WITHOUT_GPU();
  LoadOptions options;
  options.device = {"vulkan", 0};
  StatusOr<std::unique_ptr<Program>> v3 =
      Program::load(FAKE_GPU_ARTIFACT_ABI_V3, options);
  ASSERT_FALSE(v3.ok());
  EXPECT_EQ(v3.message(), std::string("cannot load artifact '") +
                              FAKE_GPU_ARTIFACT_ABI_V3 +
                              "': the artifact uses GPU launch ABI version 3, "
                              "but this runtime implements version 2; "
                              "compile it again");
  StatusOr<std::unique_ptr<Program>> v1 =
      Program::load(FAKE_GPU_ARTIFACT_ABI_V1, options);
  ASSERT_FALSE(v1.ok());
  EXPECT_EQ(v1.message(),
            std::string("cannot load artifact '") + FAKE_GPU_ARTIFACT_ABI_V1 +
                "': the artifact uses GPU launch ABI version 1 (it exports "
                "no '_plaidml_gpu_abi_version'), but this runtime implements "
                "version 2; compile it again");
}

TEST(GpuProgram, NoSuchDevice) {
  LoadOptions options;
  options.device = {"vulkan", 99};
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
