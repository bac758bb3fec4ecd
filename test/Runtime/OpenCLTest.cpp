//===- OpenCLTest.cpp - Tests of the OpenCL device layer ------------------===//
//
// Enumerates the OpenCL devices (PoCL's CPU device on CI), round-trips data
// through buffers and buffer-to-buffer copies, runs hand-written OpenCL 1.2 C
// kernels (saxpy with scalar arguments, a 2-D matmul with 8x8 workgroups, a
// chain of dependent adds on the in-order queue, four threads on one device)
// and checks the results exactly against C++ loops, and checks the program
// cache and the error messages: missing loader, build errors with the build
// log, missing kernel names, too-large buffers, IL on a device without IL
// support, wrong arguments and sizes. Every test that needs a device is
// skipped with a message when this machine has no OpenCL.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "opencl/OpenCLDevice.h"
#include "plaidml/Runtime/Device.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using namespace plaidml::rt;

namespace {

std::shared_ptr<OpenCLDevice> device0() {
  StatusOr<std::shared_ptr<OpenCLDevice>> device = OpenCLDevice::get(0);
  EXPECT_TRUE(device.ok()) << device.message();
  return device.ok() ? *device : nullptr;
}

bool isPocl(const OpenCLDeviceInfo &info) {
  return info.platformName == "Portable Computing Language";
}

std::unique_ptr<OpenCLBuffer> makeBuffer(OpenCLDevice &device,
                                         const std::vector<float> &values) {
  return test::makeFloatBuffer(device, values);
}

std::vector<float> read(OpenCLDevice &device, const OpenCLBuffer &buffer) {
  return test::readFloats(device, buffer);
}

// OpenCL 1.2 C kernels. Each takes its buffers first, then its scalars.
const char *kKernels = R"(
__kernel void add(__global const float *a, __global const float *b,
                  __global float *c, const uint n) {
  size_t i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}

__kernel void saxpy(__global const float *x, __global float *y,
                    const float a, const uint n) {
  size_t i = get_global_id(0);
  if (i < n)
    y[i] = a * x[i] + y[i];
}
)";

// C[m][n] = sum_k A[m][k] * B[k][n], one work item per element of C; x runs
// along the columns, y along the rows.
const char *kMatmul = R"(
__kernel void matmul(__global const float *A, __global const float *B,
                     __global float *C, const uint M, const uint N,
                     const uint K) {
  size_t col = get_global_id(0), row = get_global_id(1);
  if (row >= M || col >= N)
    return;
  float sum = 0.0f;
  for (uint k = 0; k < K; ++k)
    sum += A[row * K + k] * B[k * N + col];
  C[row * N + col] = sum;
}
)";

StatusOr<std::unique_ptr<OpenCLKernel>>
kernel(OpenCLDevice &device, const char *source, const std::string &name) {
  StatusOr<std::shared_ptr<OpenCLProgram>> program =
      device.createProgramFromSource(source);
  if (!program.ok())
    return program.status();
  return device.createKernel(*program, name);
}

} // namespace

TEST(OpenCL, MissingLoader) {
  Status status =
      detail::probeOpenCLLoader("libplaidml-no-such-opencl-loader.so.1");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::Unavailable);
  EXPECT_EQ(status.message().rfind("OpenCL unavailable: cannot load "
                                   "libplaidml-no-such-opencl-loader.so.1 (",
                                   0),
            0u)
      << status.message();
  // A library that is not an OpenCL loader.
  status = detail::probeOpenCLLoader("libdl.so.2");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "OpenCL unavailable: libdl.so.2 has no clGetPlatformIDs");
}

TEST(OpenCL, ErrorNames) {
  EXPECT_EQ(detail::getOpenCLErrorName(0), "CL_SUCCESS");
  EXPECT_EQ(detail::getOpenCLErrorName(-5), "CL_OUT_OF_RESOURCES");
  EXPECT_EQ(detail::getOpenCLErrorName(-11), "CL_BUILD_PROGRAM_FAILURE");
  EXPECT_EQ(detail::getOpenCLErrorName(-54), "CL_INVALID_WORK_GROUP_SIZE");
  EXPECT_EQ(detail::getOpenCLErrorName(-72),
            "CL_MAX_SIZE_RESTRICTION_EXCEEDED");
  EXPECT_EQ(detail::getOpenCLErrorName(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
  EXPECT_EQ(detail::getOpenCLErrorName(-12345), "CL error -12345");
}

TEST(OpenCL, Enumerates) {
  SKIP_WITHOUT_OPENCL();
  std::vector<OpenCLDeviceInfo> devices = *enumerateOpenCLDevices();
  for (size_t i = 0; i < devices.size(); ++i) {
    const OpenCLDeviceInfo &d = devices[i];
    EXPECT_EQ(d.index, i);
    EXPECT_FALSE(d.name.empty());
    EXPECT_FALSE(d.vendor.empty()) << d.name;
    EXPECT_FALSE(d.platformName.empty()) << d.name;
    EXPECT_EQ(d.platformVersion.rfind("OpenCL ", 0), 0u) << d.platformVersion;
    EXPECT_GE(d.version, 120u) << d.deviceVersion;
    EXPECT_EQ(d.openclCVersion.rfind("OpenCL C ", 0), 0u) << d.openclCVersion;
    EXPECT_GT(d.globalMemory, 0u) << d.name;
    EXPECT_GT(d.maxAllocSize, 0u) << d.name;
    EXPECT_LE(d.maxAllocSize, d.globalMemory) << d.name;
    EXPECT_GT(d.localMemory, 0u) << d.name;
    EXPECT_GE(d.maxWorkgroupSize, 64u) << d.name;
    EXPECT_GE(d.maxWorkItemSizes[0], 64u) << d.name;
    EXPECT_GE(d.computeUnits, 1u) << d.name;
    EXPECT_FALSE(d.extensions.empty()) << d.name;
    EXPECT_EQ(d.fp16, d.hasExtension("cl_khr_fp16"));
    std::string line = d.describe();
    EXPECT_EQ(line.rfind(d.name + " (", 0), 0u) << line;
    EXPECT_EQ(line.find('\n'), std::string::npos) << line;
  }
  // listDevices(): the CPU, the Vulkan devices, then these.
  std::vector<std::string> notes;
  std::vector<DeviceInfo> listed = listDevices(&notes);
  std::vector<DeviceInfo> opencl;
  for (const DeviceInfo &info : listed)
    if (info.name.driver == "opencl")
      opencl.push_back(info);
  ASSERT_EQ(opencl.size(), devices.size());
  for (size_t i = 0; i < devices.size(); ++i) {
    EXPECT_EQ(opencl[i].name.str(), "opencl:" + std::to_string(i));
    EXPECT_EQ(opencl[i].description, devices[i].describe());
  }
  EXPECT_EQ(listed.back().name.str(),
            "opencl:" + std::to_string(devices.size() - 1));
  for (const std::string &note : notes)
    EXPECT_EQ(note.find("OpenCL"), std::string::npos) << note;
  // PoCL, when it is there, is a CPU device with 64-bit integers and
  // doubles, OpenCL C 1.2 or later.
  for (const OpenCLDeviceInfo &d : devices)
    if (isPocl(d)) {
      EXPECT_EQ(d.type, "cpu");
      EXPECT_TRUE(d.int64);
      EXPECT_TRUE(d.fp64);
      EXPECT_NE(d.deviceVersion.find("PoCL"), std::string::npos)
          << d.deviceVersion;
      EXPECT_NE(d.describe().find("(cpu, Portable Computing Language, "
                                  "OpenCL "),
                std::string::npos)
          << d.describe();
    }
}

TEST(OpenCL, DeviceIsCreatedOnce) {
  SKIP_WITHOUT_OPENCL();
  std::shared_ptr<OpenCLDevice> a = device0(), b = device0();
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a.get(), b.get());
  EXPECT_EQ(a->label(), "opencl:0 (" + a->info().name + ")");
  StatusOr<std::shared_ptr<OpenCLDevice>> missing = OpenCLDevice::get(999);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.code(), StatusCode::NotFound);
  EXPECT_EQ(missing.message().rfind("no OpenCL device opencl:999 (found ", 0),
            0u)
      << missing.message();
}

TEST(OpenCL, RoundTrip) {
  SKIP_WITHOUT_OPENCL();
  std::shared_ptr<OpenCLDevice> device = device0();
  ASSERT_TRUE(device);
  std::vector<float> values(1000);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<float>(i) * 0.5f - 17.0f;
  std::unique_ptr<OpenCLBuffer> buffer = makeBuffer(*device, values);
  ASSERT_TRUE(buffer);
  EXPECT_EQ(buffer->size(), 4000u);
  EXPECT_EQ(read(*device, *buffer), values);

  // Partial writes and reads at offsets.
  float four[4] = {1, 2, 3, 4};
  ASSERT_TRUE(device->upload(*buffer, four, sizeof(four), 400).ok());
  float back[6];
  ASSERT_TRUE(device->download(*buffer, back, sizeof(back), 396).ok());
  EXPECT_EQ(back[0], values[99]);
  EXPECT_EQ(back[1], 1.0f);
  EXPECT_EQ(back[4], 4.0f);
  EXPECT_EQ(back[5], values[104]);

  // Odd sizes, and empty buffers.
  StatusOr<std::unique_ptr<OpenCLBuffer>> odd = device->createBuffer(13);
  ASSERT_TRUE(odd.ok()) << odd.message();
  const char text[13] = "hello opencl";
  ASSERT_TRUE(device->upload(**odd, text, 13).ok());
  char got[13] = {};
  ASSERT_TRUE(device->download(**odd, got, 13).ok());
  EXPECT_STREQ(got, text);
  StatusOr<std::unique_ptr<OpenCLBuffer>> empty = device->createBuffer(0);
  ASSERT_TRUE(empty.ok()) << empty.message();
  EXPECT_EQ((*empty)->size(), 0u);
  EXPECT_TRUE(device->download(**empty, got, 0).ok());

  // Buffer-to-buffer copies: whole, and a range to an offset.
  StatusOr<std::unique_ptr<OpenCLBuffer>> other = device->createBuffer(4000);
  ASSERT_TRUE(other.ok()) << other.message();
  ASSERT_TRUE(device->copy(**other, *buffer, 4000).ok());
  std::vector<float> expected = values;
  std::copy(four, four + 4, expected.begin() + 100);
  EXPECT_EQ(read(*device, **other), expected);
  ASSERT_TRUE(device->copy(**other, *buffer, 16, 0, 400).ok());
  std::copy(four, four + 4, expected.begin());
  EXPECT_EQ(read(*device, **other), expected);
  // Within one buffer, without overlap.
  ASSERT_TRUE(device->copy(**other, **other, 16, 3984, 0).ok());
  std::copy(four, four + 4, expected.end() - 4);
  EXPECT_EQ(read(*device, **other), expected);

  Status outside = device->upload(*buffer, four, sizeof(four), 3990);
  ASSERT_FALSE(outside.ok());
  EXPECT_EQ(outside.message(), "upload of 16 bytes at offset 3990 is outside "
                               "an OpenCL buffer of 4000 bytes");
  outside = device->download(**odd, got, 14);
  ASSERT_FALSE(outside.ok());
  EXPECT_EQ(outside.message(), "download of 14 bytes at offset 0 is outside "
                               "an OpenCL buffer of 13 bytes");
  outside = device->copy(**odd, *buffer, 16);
  ASSERT_FALSE(outside.ok());
  EXPECT_EQ(outside.message(), "copy destination of 16 bytes at offset 0 is "
                               "outside an OpenCL buffer of 13 bytes");
  Status overlap = device->copy(**other, **other, 16, 8, 0);
  ASSERT_FALSE(overlap.ok());
  EXPECT_EQ(overlap.message(), "copy of 16 bytes from offset 0 to offset 8 "
                               "within one OpenCL buffer overlaps");
}

TEST(OpenCL, Saxpy) {
  SKIP_WITHOUT_OPENCL();
  std::shared_ptr<OpenCLDevice> device = device0();
  ASSERT_TRUE(device);
  StatusOr<std::unique_ptr<OpenCLKernel>> saxpy =
      kernel(*device, kKernels, "saxpy");
  ASSERT_TRUE(saxpy.ok()) << saxpy.message();
  EXPECT_EQ((*saxpy)->name(), "saxpy");
  EXPECT_EQ((*saxpy)->numArgs(), 4u);
  EXPECT_GE((*saxpy)->maxWorkgroupSize(), 64u);
  const uint32_t n = 1000;
  std::vector<float> x(n), y(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i) * 0.25f;
    y[i] = 1000.0f - static_cast<float>(i);
  }
  std::unique_ptr<OpenCLBuffer> bufX = makeBuffer(*device, x),
                                bufY = makeBuffer(*device, y);
  ASSERT_TRUE(bufX && bufY);
  // 16 workgroups of 64: the last 24 work items are masked. The products
  // are exact, so a fused multiply-add gives the same floats.
  float a = 2.5f;
  Status status =
      device->launch(**saxpy, {bufX.get(), bufY.get()}, {16, 1, 1}, {64, 1, 1},
                     {OpenCLScalar::of(a), OpenCLScalar::of(n)});
  ASSERT_TRUE(status.ok()) << status.message();
  std::vector<float> expected(n);
  for (uint32_t i = 0; i < n; ++i)
    expected[i] = a * x[i] + y[i];
  EXPECT_EQ(read(*device, *bufY), expected);
  EXPECT_EQ(read(*device, *bufX), x);

  // The same with global and local sizes, over the first 500 elements, and
  // the driver choosing the local size.
  float b = -0.5f;
  uint32_t half = 500;
  status = device->dispatch(**saxpy, {bufX.get(), bufY.get()}, {512, 1, 1},
                            {32, 1, 1},
                            {OpenCLScalar::of(b), OpenCLScalar::of(half)});
  ASSERT_TRUE(status.ok()) << status.message();
  status =
      device->dispatch(**saxpy, {bufX.get(), bufY.get()}, {n, 1, 1}, {0, 0, 0},
                       {OpenCLScalar::of(b), OpenCLScalar::of(n)});
  ASSERT_TRUE(status.ok()) << status.message();
  for (uint32_t i = 0; i < n; ++i) {
    if (i < half)
      expected[i] = b * x[i] + expected[i];
    expected[i] = b * x[i] + expected[i];
  }
  EXPECT_EQ(read(*device, *bufY), expected);
}

TEST(OpenCL, Matmul) {
  SKIP_WITHOUT_OPENCL();
  std::shared_ptr<OpenCLDevice> device = device0();
  ASSERT_TRUE(device);
  StatusOr<std::unique_ptr<OpenCLKernel>> matmul =
      kernel(*device, kMatmul, "matmul");
  ASSERT_TRUE(matmul.ok()) << matmul.message();
  // Sizes that are not multiples of the 8x8 workgroups. Small integers, so
  // every sum is exact in any order.
  const uint32_t M = 37, N = 45, K = 29;
  std::vector<float> A(M * K), B(K * N), expected(M * N);
  for (uint32_t i = 0; i < M * K; ++i)
    A[i] = static_cast<float>(static_cast<int>(i * 7 % 9) - 4);
  for (uint32_t i = 0; i < K * N; ++i)
    B[i] = static_cast<float>(static_cast<int>(i * 5 % 7) - 3);
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t n = 0; n < N; ++n) {
      float sum = 0;
      for (uint32_t k = 0; k < K; ++k)
        sum += A[m * K + k] * B[k * N + n];
      expected[m * N + n] = sum;
    }
  std::unique_ptr<OpenCLBuffer> bufA = makeBuffer(*device, A),
                                bufB = makeBuffer(*device, B),
                                bufC = makeBuffer(
                                    *device, std::vector<float>(M * N, -1.0f));
  ASSERT_TRUE(bufA && bufB && bufC);
  std::vector<OpenCLScalar> sizes = {OpenCLScalar::of(M), OpenCLScalar::of(N),
                                     OpenCLScalar::of(K)};
  // x: ceil(45 / 8) = 6 workgroups over the columns; y: ceil(37 / 8) = 5
  // over the rows.
  Status status =
      device->launch(**matmul, {bufA.get(), bufB.get(), bufC.get()},
                     {(N + 7) / 8, (M + 7) / 8, 1}, {8, 8, 1}, sizes);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(read(*device, *bufC), expected);
}

TEST(OpenCL, DependentDispatches) {
  // x <- x + 1, ten times, ping-ponging between two buffers: each dispatch
  // reads what the previous one wrote (the queue is in order). Then an
  // upload and a copy between dispatches, ordered too.
  SKIP_WITHOUT_OPENCL();
  std::shared_ptr<OpenCLDevice> device = device0();
  ASSERT_TRUE(device);
  StatusOr<std::unique_ptr<OpenCLKernel>> add =
      kernel(*device, kKernels, "add");
  ASSERT_TRUE(add.ok()) << add.message();
  const uint32_t n = 1000;
  std::vector<float> ones(n, 1.0f), zeros(n, 0.0f);
  std::unique_ptr<OpenCLBuffer> one = makeBuffer(*device, ones),
                                x0 = makeBuffer(*device, zeros),
                                x1 = makeBuffer(*device, zeros);
  ASSERT_TRUE(one && x0 && x1);
  OpenCLBuffer *cur = x0.get(), *next = x1.get();
  for (int k = 0; k < 10; ++k) {
    Status status = device->launch(**add, {cur, one.get(), next}, {16, 1, 1},
                                   {64, 1, 1}, {OpenCLScalar::of(n)});
    ASSERT_TRUE(status.ok()) << status.message();
    std::swap(cur, next);
  }
  ASSERT_TRUE(
      device->upload(*next, ones.data(), ones.size() * sizeof(float)).ok());
  ASSERT_TRUE(device
                  ->launch(**add, {cur, next, next}, {16, 1, 1}, {64, 1, 1},
                           {OpenCLScalar::of(n)})
                  .ok());
  // cur = 10, next = 11; copy next into `one`, then one + cur = 21.
  ASSERT_TRUE(device->copy(*one, *next, n * sizeof(float)).ok());
  ASSERT_TRUE(device
                  ->launch(**add, {one.get(), cur, one.get()}, {16, 1, 1},
                           {64, 1, 1}, {OpenCLScalar::of(n)})
                  .ok());
  ASSERT_TRUE(device->synchronize().ok());
  EXPECT_EQ(read(*device, *cur), std::vector<float>(n, 10.0f));
  EXPECT_EQ(read(*device, *next), std::vector<float>(n, 11.0f));
  EXPECT_EQ(read(*device, *one), std::vector<float>(n, 21.0f));
}

TEST(OpenCL, ProgramCache) {
  SKIP_WITHOUT_OPENCL();
  std::shared_ptr<OpenCLDevice> device = device0();
  ASSERT_TRUE(device);
  StatusOr<std::shared_ptr<OpenCLProgram>> first =
      device->createProgramFromSource(kKernels);
  ASSERT_TRUE(first.ok()) << first.message();
  std::vector<std::string> names = (*first)->kernelNames();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"add", "saxpy"}));
  StatusOr<std::shared_ptr<OpenCLProgram>> again =
      device->createProgramFromSource(kKernels);
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(first->get(), again->get());
  // Other options, or other source: another program.
  StatusOr<std::shared_ptr<OpenCLProgram>> other =
      device->createProgramFromSource(kKernels, "-cl-fast-relaxed-math");
  ASSERT_TRUE(other.ok()) << other.message();
  EXPECT_NE(first->get(), other->get());
  StatusOr<std::shared_ptr<OpenCLProgram>> matmul =
      device->createProgramFromSource(kMatmul);
  ASSERT_TRUE(matmul.ok()) << matmul.message();
  EXPECT_NE(first->get(), matmul->get());
  EXPECT_EQ((*matmul)->kernelNames(), std::vector<std::string>{"matmul"});
  // A kernel keeps its program alive and works after the caller drops it.
  StatusOr<std::unique_ptr<OpenCLKernel>> k =
      device->createKernel(*other, "add");
  ASSERT_TRUE(k.ok()) << k.message();
  EXPECT_EQ((*k)->numArgs(), 4u);
}

TEST(OpenCL, BuildErrorHasTheLog) {
  SKIP_WITHOUT_OPENCL();
  std::shared_ptr<OpenCLDevice> device = device0();
  ASSERT_TRUE(device);
  const char *broken = "__kernel void broken(__global float *x) {\n"
                       "  x[0] = undefined_variable + 1.0f;\n"
                       "}\n";
  StatusOr<std::shared_ptr<OpenCLProgram>> program =
      device->createProgramFromSource(broken);
  ASSERT_FALSE(program.ok());
  const std::string &message = program.message();
  EXPECT_EQ(message.rfind("clBuildProgram failed: CL_BUILD_PROGRAM_FAILURE "
                          "(" +
                              device->label() + "); build log:\n",
                          0),
            0u)
      << message;
  EXPECT_NE(message.find("undefined_variable"), std::string::npos) << message;
  // The log's first "file:line:column:" is quoted from the source.
  EXPECT_NE(message.find("\nline 2: `  x[0] = undefined_variable + 1.0f;`"),
            std::string::npos)
      << message;
  if (isPocl(device->info())) {
    // PoCL compiles with Clang: its diagnostic, at line 2, column 10 of the
    // source (which PoCL names by a temporary file).
    EXPECT_NE(message.find(".cl:2:10: use of undeclared identifier "
                           "'undefined_variable'"),
              std::string::npos)
        << message;
  }
  // Failures are not cached: the same error again.
  StatusOr<std::shared_ptr<OpenCLProgram>> again =
      device->createProgramFromSource(broken);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.message().rfind(message.substr(0, message.find('\n')), 0), 0u)
      << again.message();
  EXPECT_NE(again.message().find("undefined_variable"), std::string::npos);
  // Bad build options.
  StatusOr<std::shared_ptr<OpenCLProgram>> badOptions =
      device->createProgramFromSource(kKernels, "-no-such-option");
  ASSERT_FALSE(badOptions.ok());
  EXPECT_EQ(badOptions.message().rfind("clBuildProgram failed: CL_", 0), 0u)
      << badOptions.message();
  EXPECT_NE(badOptions.message().find("options '-no-such-option' on " +
                                      device->label()),
            std::string::npos)
      << badOptions.message();
}

TEST(OpenCL, MissingKernelListsTheOthers) {
  SKIP_WITHOUT_OPENCL();
  std::shared_ptr<OpenCLDevice> device = device0();
  ASSERT_TRUE(device);
  StatusOr<std::unique_ptr<OpenCLKernel>> missing =
      kernel(*device, kKernels, "nope");
  ASSERT_FALSE(missing.ok());
  // In the driver's order.
  EXPECT_TRUE(missing.message() == "no kernel 'nope' in the OpenCL program "
                                   "(it has add, saxpy)" ||
              missing.message() == "no kernel 'nope' in the OpenCL program "
                                   "(it has saxpy, add)")
      << missing.message();
  StatusOr<std::unique_ptr<OpenCLKernel>> none =
      device->createKernel(nullptr, "add");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.message(), "no OpenCL program to take kernel 'add' from");
}

TEST(OpenCL, BufferTooLarge) {
  SKIP_WITHOUT_OPENCL();
  std::shared_ptr<OpenCLDevice> device = device0();
  ASSERT_TRUE(device);
  StatusOr<std::unique_ptr<OpenCLBuffer>> huge =
      device->createBuffer(size_t(1) << 50);
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.message().rfind("cannot create an OpenCL buffer of 1024.0 "
                                 "TiB on " +
                                     device->label() +
                                     ": larger than its "
                                     "CL_DEVICE_MAX_MEM_ALLOC_SIZE (",
                                 0),
            0u)
      << huge.message();
  // The device stays usable.
  std::unique_ptr<OpenCLBuffer> small = makeBuffer(*device, {1, 2, 3});
  ASSERT_TRUE(small);
  EXPECT_EQ(read(*device, *small), (std::vector<float>{1, 2, 3}));
}

TEST(OpenCL, ILNeedsDeviceSupport) {
  SKIP_WITHOUT_OPENCL();
  // The first device without IL support (PoCL as packaged by Debian takes
  // OpenCL C only).
  std::vector<OpenCLDeviceInfo> devices = *enumerateOpenCLDevices();
  for (const OpenCLDeviceInfo &info : devices) {
    if (!info.ilVersions.empty())
      continue;
    StatusOr<std::shared_ptr<OpenCLDevice>> device =
        OpenCLDevice::get(info.index);
    ASSERT_TRUE(device.ok()) << device.message();
    // A SPIR-V header; it is refused before anything reads it.
    StatusOr<std::shared_ptr<OpenCLProgram>> program =
        (*device)->createProgramFromIL({0x07230203, 0x00010000, 0, 1, 0});
    ASSERT_FALSE(program.ok());
    EXPECT_EQ(program.message(),
              "cannot create an OpenCL program from IL on " +
                  (*device)->label() +
                  ": the device has no IL support (CL_DEVICE_IL_VERSION is "
                  "empty); give it OpenCL C source instead");
    return;
  }
  GTEST_SKIP() << "every OpenCL device here takes IL";
}

TEST(OpenCL, WrongArguments) {
  SKIP_WITHOUT_OPENCL();
  std::shared_ptr<OpenCLDevice> device = device0();
  ASSERT_TRUE(device);
  StatusOr<std::unique_ptr<OpenCLKernel>> saxpy =
      kernel(*device, kKernels, "saxpy");
  ASSERT_TRUE(saxpy.ok()) << saxpy.message();
  std::unique_ptr<OpenCLBuffer> x = makeBuffer(*device, {1, 2}),
                                y = makeBuffer(*device, {3, 4});
  ASSERT_TRUE(x && y);
  float a = 1.0f;
  uint32_t n = 2;
  auto error = [&](Status status) {
    EXPECT_FALSE(status.ok());
    return status.message();
  };
  EXPECT_EQ(error(device->dispatch(**saxpy, {x.get(), y.get()}, {2, 1, 1},
                                   {1, 1, 1}, {OpenCLScalar::of(a)})),
            "kernel 'saxpy' takes 4 arguments, got 3 (2 buffers and 1 "
            "scalars)");
  EXPECT_EQ(
      error(device->dispatch(**saxpy, {x.get(), nullptr}, {2, 1, 1}, {1, 1, 1},
                             {OpenCLScalar::of(a), OpenCLScalar::of(n)})),
      "buffer 1 of kernel 'saxpy' is null or belongs to another OpenCL "
      "device");
  EXPECT_EQ(error(device->dispatch(**saxpy, {x.get(), y.get()}, {100, 1, 1},
                                   {64, 1, 1},
                                   {OpenCLScalar::of(a), OpenCLScalar::of(n)})),
            "global size 100x1x1 of kernel 'saxpy' is not a multiple of its "
            "local size 64x1x1");
  EXPECT_EQ(
      error(device->dispatch(**saxpy, {x.get(), y.get()}, {2, 1, 1}, {2, 0, 1},
                             {OpenCLScalar::of(a), OpenCLScalar::of(n)})),
      "local size 2x0x1 of kernel 'saxpy' has a zero (give all three "
      "sizes, or 0x0x0 to let the driver choose)");
  // More work items than the device has in x, or than the kernel can use.
  size_t tooMany = (*saxpy)->maxWorkgroupSize() * 2;
  std::string tooLarge = error(device->dispatch(
      **saxpy, {x.get(), y.get()}, {tooMany, 1, 1}, {tooMany, 1, 1},
      {OpenCLScalar::of(a), OpenCLScalar::of(n)}));
  EXPECT_TRUE(tooLarge.rfind("local size " + std::to_string(tooMany) +
                                 "x1x1 of kernel 'saxpy' exceeds the ",
                             0) == 0 ||
              tooLarge.rfind("workgroup of " + std::to_string(tooMany) +
                                 " work items (",
                             0) == 0)
      << tooLarge;
  EXPECT_EQ(
      error(device->launch(**saxpy, {x.get(), y.get()}, {1, 1, 1}, {0, 1, 1},
                           {OpenCLScalar::of(a), OpenCLScalar::of(n)})),
      "launch of kernel 'saxpy' with a block size of 0 in x");
  // A double where the kernel takes a float: the driver refuses the size.
  double wide = 1.0;
  std::string wrongSize =
      error(device->dispatch(**saxpy, {x.get(), y.get()}, {2, 1, 1}, {1, 1, 1},
                             {OpenCLScalar::of(wide), OpenCLScalar::of(n)}));
  EXPECT_EQ(wrongSize.rfind("clSetKernelArg failed: CL_INVALID_ARG_SIZE "
                            "(argument 2 (scalar 0, 8 bytes) of kernel "
                            "'saxpy' on " +
                                device->label(),
                            0),
            0u)
      << wrongSize;
  // Nothing ran: the buffers are untouched, and the device still works.
  EXPECT_EQ(read(*device, *y), (std::vector<float>{3, 4}));
  ASSERT_TRUE(device
                  ->dispatch(**saxpy, {x.get(), y.get()}, {2, 1, 1}, {1, 1, 1},
                             {OpenCLScalar::of(a), OpenCLScalar::of(n)})
                  .ok());
  EXPECT_EQ(read(*device, *y), (std::vector<float>{4, 6}));
}

TEST(OpenCL, ThreadsShareADevice) {
  // Four threads upload, dispatch and download on the one device and kernel,
  // each with its own buffers.
  SKIP_WITHOUT_OPENCL();
  std::shared_ptr<OpenCLDevice> device = device0();
  ASSERT_TRUE(device);
  StatusOr<std::unique_ptr<OpenCLKernel>> add =
      kernel(*device, kKernels, "add");
  ASSERT_TRUE(add.ok()) << add.message();
  EXPECT_EQ(test::runThreadsSharingADevice(
                *device,
                [&](OpenCLBuffer *a, OpenCLBuffer *b, OpenCLBuffer *c) {
                  return device->launch(**add, {a, b, c}, {4, 1, 1}, {64, 1, 1},
                                        {OpenCLScalar::of(uint32_t(200))});
                }),
            0);
}
