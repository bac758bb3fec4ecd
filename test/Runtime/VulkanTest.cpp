//===- VulkanTest.cpp - Tests of the Vulkan device layer ------------------===//
//
// Enumerates the Vulkan devices (lavapipe on CI), round-trips data through
// buffers on the host-visible path and the staging path, runs the
// hand-written add kernel of Inputs/add.spvasm (assembled by spirv-as at build
// time) over 1000 elements and a chain of dependent dispatches, the axpy
// kernel of Inputs/axpy.spvasm with push constants, 1200 dispatches in one
// batch (more than a descriptor pool holds), four threads on one device, and
// checks the error
// messages: missing loader, bad SPIR-V, missing entry point, too-large
// buffers, wrong bindings. Every test that needs a device is skipped with a
// message when this machine has no Vulkan.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "plaidml/Runtime/Device.h"
#include "vulkan/VulkanDevice.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <fstream>
#include <iterator>
#include <thread>

using namespace plaidml::rt;

namespace {

std::shared_ptr<VulkanDevice> device0() {
  StatusOr<std::shared_ptr<VulkanDevice>> device = VulkanDevice::get(0);
  EXPECT_TRUE(device.ok()) << device.message();
  return device.ok() ? *device : nullptr;
}

/// The words of Inputs/<name>.spv, or empty when spirv-as was not found.
std::vector<uint32_t> kernelWords(const std::string &name) {
  std::string dir = PLAIDML_SPV_DIR;
  std::vector<uint32_t> words;
  if (dir.empty())
    return words;
  std::ifstream in(dir + "/" + name + ".spv", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  words.resize(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

std::unique_ptr<VulkanBuffer> makeBuffer(VulkanDevice &device,
                                         const std::vector<float> &values) {
  return test::makeFloatBuffer(device, values);
}

std::vector<float> read(VulkanDevice &device, const VulkanBuffer &buffer) {
  return test::readFloats(device, buffer);
}

} // namespace

TEST(Vulkan, MissingLoader) {
  Status status =
      detail::probeVulkanLoader("libplaidml-no-such-vulkan-loader.so.1");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::Unavailable);
  EXPECT_EQ(status.message().rfind("Vulkan unavailable: cannot load "
                                   "libplaidml-no-such-vulkan-loader.so.1 (",
                                   0),
            0u)
      << status.message();
}

TEST(Vulkan, Enumerates) {
  SKIP_WITHOUT_VULKAN();
  std::vector<VulkanDeviceInfo> devices = *enumerateVulkanDevices();
  for (const VulkanDeviceInfo &d : devices) {
    EXPECT_FALSE(d.name.empty());
    EXPECT_FALSE(d.type.empty());
    EXPECT_FALSE(d.heaps.empty()) << d.name;
    EXPECT_GT(d.subgroupSize, 0u) << d.name;
    EXPECT_GE(d.maxWorkgroupInvocations, 128u) << d.name;
    EXPECT_NE(d.describe().find(d.name), std::string::npos);
    // Basic subgroup operations (Vulkan 1.1) and the subgroup size, which
    // kernels may require; cooperative-matrix shapes only with the
    // extension.
    EXPECT_EQ(d.supportsSpirv("GroupNonUniform"), d.vulkan11) << d.name;
    EXPECT_EQ(
        d.supportsSpirv("subgroup-size-" + std::to_string(d.subgroupSize)),
        d.fixedSubgroupSize)
        << d.name;
    EXPECT_EQ(d.supportsSpirv("CooperativeMatrixKHR"), d.cooperativeMatrix);
    if (!d.cooperativeMatrix)
      EXPECT_TRUE(d.cooperativeMatrixShapes.empty()) << d.name;
    for (const std::string &shape : d.cooperativeMatrixShapes)
      EXPECT_EQ(shape.rfind("coopmat-", 0), 0u) << shape;
  }
  std::vector<std::string> notes;
  std::vector<DeviceInfo> listed = listDevices(&notes);
  // The CPU, the Vulkan devices, then the OpenCL ones (if any).
  ASSERT_GE(listed.size(), devices.size() + 1);
  EXPECT_EQ(listed[0].name.str(), "cpu");
  EXPECT_EQ(listed[1].name.str(), "vulkan:0");
  EXPECT_EQ(listed[1].description, devices[0].describe());
  for (size_t i = devices.size() + 1; i < listed.size(); ++i)
    EXPECT_EQ(listed[i].name.driver, "opencl") << listed[i].name.str();
  for (const std::string &note : notes)
    EXPECT_EQ(note.find("Vulkan"), std::string::npos) << note;
  // Lavapipe, when it is there, is a CPU device with Vulkan 1.3.
  for (const VulkanDeviceInfo &d : devices)
    if (d.name.find("llvmpipe") != std::string::npos) {
      EXPECT_EQ(d.type, "cpu");
      EXPECT_EQ(d.apiVersion.rfind("1.3.", 0), 0u) << d.apiVersion;
      EXPECT_NE(d.driver.find("llvmpipe"), std::string::npos) << d.driver;
    }
}

TEST(Vulkan, DeviceIsCreatedOnce) {
  SKIP_WITHOUT_VULKAN();
  std::shared_ptr<VulkanDevice> a = device0(), b = device0();
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a.get(), b.get());
  StatusOr<std::shared_ptr<VulkanDevice>> missing = VulkanDevice::get(999);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.code(), StatusCode::NotFound);
  EXPECT_EQ(missing.message().rfind("no Vulkan device vulkan:999 (found ", 0),
            0u)
      << missing.message();
}

static void roundTrip(VulkanDevice &device) {
  std::vector<float> values(1000);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<float>(i) * 0.5f - 17.0f;
  std::unique_ptr<VulkanBuffer> buffer = makeBuffer(device, values);
  ASSERT_TRUE(buffer);
  EXPECT_EQ(buffer->size(), 4000u);
  EXPECT_EQ(read(device, *buffer), values);

  // Partial writes and reads at offsets.
  float four[4] = {1, 2, 3, 4};
  ASSERT_TRUE(device.upload(*buffer, four, sizeof(four), 400).ok());
  float back[6];
  ASSERT_TRUE(device.download(*buffer, back, sizeof(back), 396).ok());
  EXPECT_EQ(back[0], values[99]);
  EXPECT_EQ(back[1], 1.0f);
  EXPECT_EQ(back[4], 4.0f);
  EXPECT_EQ(back[5], values[104]);

  // Odd sizes, and empty buffers.
  StatusOr<std::unique_ptr<VulkanBuffer>> odd = device.createBuffer(13);
  ASSERT_TRUE(odd.ok()) << odd.message();
  const char text[13] = "hello vulkan";
  ASSERT_TRUE(device.upload(**odd, text, 13).ok());
  char got[13] = {};
  ASSERT_TRUE(device.download(**odd, got, 13).ok());
  EXPECT_STREQ(got, text);
  StatusOr<std::unique_ptr<VulkanBuffer>> empty = device.createBuffer(0);
  ASSERT_TRUE(empty.ok()) << empty.message();
  EXPECT_TRUE(device.download(**empty, got, 0).ok());

  Status outside = device.upload(*buffer, four, sizeof(four), 3990);
  ASSERT_FALSE(outside.ok());
  EXPECT_EQ(outside.message(), "upload of 16 bytes at offset 3990 is outside "
                               "a Vulkan buffer of 4000 bytes");
  outside = device.download(**odd, got, 14);
  ASSERT_FALSE(outside.ok());
  EXPECT_EQ(outside.message(), "download of 14 bytes at offset 0 is outside "
                               "a Vulkan buffer of 13 bytes");
}

TEST(Vulkan, RoundTrip) {
  SKIP_WITHOUT_VULKAN();
  std::shared_ptr<VulkanDevice> device = device0();
  ASSERT_TRUE(device);
  roundTrip(*device);
}

TEST(Vulkan, RoundTripThroughStaging) {
  SKIP_WITHOUT_VULKAN();
  StatusOr<std::shared_ptr<VulkanDevice>> device =
      VulkanDevice::create(0, /*forceStaging=*/true);
  ASSERT_TRUE(device.ok()) << device.message();
  StatusOr<std::unique_ptr<VulkanBuffer>> buffer = (*device)->createBuffer(64);
  ASSERT_TRUE(buffer.ok()) << buffer.message();
  EXPECT_FALSE((*buffer)->isHostVisible());
  roundTrip(**device);
}

/// Uploads through staging memory: several in one batch (more than one
/// staging chunk of 8 MiB, one larger than a chunk), each landing in its
/// own buffer, and again after synchronize() reuses the chunks.
TEST(Vulkan, ManyUploadsThroughStaging) {
  SKIP_WITHOUT_VULKAN();
  StatusOr<std::shared_ptr<VulkanDevice>> device =
      VulkanDevice::create(0, /*forceStaging=*/true);
  ASSERT_TRUE(device.ok()) << device.message();
  const std::vector<size_t> sizes = {3u << 20, 5u << 20, 13, 3u << 20,
                                     20u << 20};
  for (int round = 0; round < 2; ++round) {
    std::vector<std::unique_ptr<VulkanBuffer>> buffers;
    std::vector<std::vector<uint8_t>> data;
    for (size_t i = 0; i < sizes.size(); ++i) {
      std::vector<uint8_t> bytes(sizes[i]);
      for (size_t j = 0; j < bytes.size(); ++j)
        bytes[j] = static_cast<uint8_t>(j * 7 + i * 31 + round);
      StatusOr<std::unique_ptr<VulkanBuffer>> buffer =
          (*device)->createBuffer(bytes.size());
      ASSERT_TRUE(buffer.ok()) << buffer.message();
      ASSERT_TRUE((*device)->upload(**buffer, bytes.data(), bytes.size()).ok());
      buffers.push_back(std::move(*buffer));
      data.push_back(std::move(bytes));
    }
    ASSERT_TRUE((*device)->synchronize().ok());
    for (size_t i = 0; i < sizes.size(); ++i) {
      std::vector<uint8_t> back(sizes[i]);
      ASSERT_TRUE(
          (*device)->download(*buffers[i], back.data(), back.size()).ok());
      EXPECT_TRUE(back == data[i]) << "buffer " << i << ", round " << round;
    }
  }
}

static void runAdd(VulkanDevice &device) {
  std::vector<uint32_t> words = kernelWords("add");
  if (words.empty())
    GTEST_SKIP() << "spirv-as was not found at build time: no add.spv";
  StatusOr<std::unique_ptr<VulkanKernel>> kernel =
      device.createKernel(words, "main", 3);
  ASSERT_TRUE(kernel.ok()) << kernel.message();
  const size_t n = 1000;
  std::vector<float> a(n), b(n), expected(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i) * 0.25f;
    b[i] = 1000.0f - static_cast<float>(i);
    expected[i] = a[i] + b[i];
  }
  std::unique_ptr<VulkanBuffer> bufA = makeBuffer(device, a),
                                bufB = makeBuffer(device, b),
                                bufC =
                                    makeBuffer(device, std::vector<float>(n));
  ASSERT_TRUE(bufA && bufB && bufC);
  // ceil(1000 / 64) = 16 workgroups: the last 24 invocations are masked.
  Status status = device.dispatch(
      **kernel, {bufA.get(), bufB.get(), bufC.get()}, (n + 63) / 64);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(read(device, *bufC), expected);
  // The inputs are untouched.
  EXPECT_EQ(read(device, *bufA), a);

  // Dependent dispatches: x <- x + a, ten times, ping-ponging between two
  // buffers; each reads what the previous one wrote. Then one more that
  // reads a buffer the batch's upload wrote.
  std::vector<float> ones(n, 1.0f), zeros(n, 0.0f);
  std::unique_ptr<VulkanBuffer> one = makeBuffer(device, ones),
                                x0 = makeBuffer(device, zeros),
                                x1 = makeBuffer(device, zeros);
  ASSERT_TRUE(one && x0 && x1);
  VulkanBuffer *cur = x0.get(), *next = x1.get();
  for (int k = 0; k < 10; ++k) {
    status = device.dispatch(**kernel, {cur, one.get(), next}, (n + 63) / 64);
    ASSERT_TRUE(status.ok()) << status.message();
    std::swap(cur, next);
  }
  // An upload between dispatches is ordered too.
  ASSERT_TRUE(
      device.upload(*next, ones.data(), ones.size() * sizeof(float)).ok());
  status = device.dispatch(**kernel, {cur, next, next}, (n + 63) / 64);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(read(device, *next), std::vector<float>(n, 11.0f));
  EXPECT_EQ(read(device, *cur), std::vector<float>(n, 10.0f));

  // Too many or too few buffers.
  status = device.dispatch(**kernel, {bufA.get(), bufB.get()}, 1);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "kernel 'main' takes 3 buffers, got 2");
  EXPECT_TRUE(device.synchronize().ok());
}

TEST(Vulkan, AddKernel) {
  SKIP_WITHOUT_VULKAN();
  std::shared_ptr<VulkanDevice> device = device0();
  ASSERT_TRUE(device);
  runAdd(*device);
}

TEST(Vulkan, AddKernelThroughStaging) {
  SKIP_WITHOUT_VULKAN();
  StatusOr<std::shared_ptr<VulkanDevice>> device =
      VulkanDevice::create(0, /*forceStaging=*/true);
  ASSERT_TRUE(device.ok()) << device.message();
  runAdd(**device);
}

TEST(Vulkan, PushConstants) {
  SKIP_WITHOUT_VULKAN();
  std::shared_ptr<VulkanDevice> device = device0();
  ASSERT_TRUE(device);
  std::vector<uint32_t> words = kernelWords("axpy");
  if (words.empty())
    GTEST_SKIP() << "spirv-as was not found at build time: no axpy.spv";
  StatusOr<std::unique_ptr<VulkanKernel>> kernel =
      device->createKernel(words, "axpy", 2, 8);
  ASSERT_TRUE(kernel.ok()) << kernel.message();
  EXPECT_EQ((*kernel)->pushConstantBytes(), 8u);
  const size_t n = 300;
  std::vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 1.0f;
  }
  std::unique_ptr<VulkanBuffer> bufX = makeBuffer(*device, x),
                                bufY = makeBuffer(*device, y);
  ASSERT_TRUE(bufX && bufY);
  // y = 2x + y over the first 250 elements, then y = -1x + y over the first
  // 100: each dispatch has its own constants, recorded in one batch.
  struct {
    float s;
    uint32_t n;
  } first{2.0f, 250}, second{-1.0f, 100};
  ASSERT_TRUE(
      device->dispatch(**kernel, {bufX.get(), bufY.get()}, 5, 1, 1, &first)
          .ok());
  ASSERT_TRUE(
      device->dispatch(**kernel, {bufX.get(), bufY.get()}, 5, 1, 1, &second)
          .ok());
  std::vector<float> expected(n);
  for (size_t i = 0; i < n; ++i)
    expected[i] = 1.0f + (i < 250 ? 2.0f * i : 0.0f) - (i < 100 ? i : 0.0f);
  EXPECT_EQ(read(*device, *bufY), expected);

  Status missing = device->dispatch(**kernel, {bufX.get(), bufY.get()}, 5);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.message(),
            "kernel 'axpy' takes 8 bytes of push constants, got none");
  StatusOr<std::unique_ptr<VulkanKernel>> odd =
      device->createKernel(words, "axpy", 2, 6);
  ASSERT_FALSE(odd.ok());
  EXPECT_EQ(odd.message().rfind("kernel 'axpy': 6 bytes of push constants "
                                "(must be a multiple of 4, at most ",
                                0),
            0u)
      << odd.message();
}

TEST(Vulkan, ManyDispatchesInOneBatch) {
  // More dispatches than one descriptor pool holds (512 sets): the device
  // moves on to new pools and reuses them all after synchronize().
  SKIP_WITHOUT_VULKAN();
  std::shared_ptr<VulkanDevice> device = device0();
  ASSERT_TRUE(device);
  std::vector<uint32_t> words = kernelWords("add");
  if (words.empty())
    GTEST_SKIP() << "spirv-as was not found at build time: no add.spv";
  StatusOr<std::unique_ptr<VulkanKernel>> kernel =
      device->createKernel(words, "main", 3);
  ASSERT_TRUE(kernel.ok()) << kernel.message();
  const size_t n = 100;
  std::unique_ptr<VulkanBuffer> one = makeBuffer(*device,
                                                 std::vector<float>(n, 1.0f)),
                                x0 = makeBuffer(*device,
                                                std::vector<float>(n, 0.0f)),
                                x1 = makeBuffer(*device,
                                                std::vector<float>(n, 0.0f));
  ASSERT_TRUE(one && x0 && x1);
  for (int round = 1; round <= 2; ++round) {
    VulkanBuffer *cur = x0.get(), *next = x1.get();
    for (int k = 0; k < 1200; ++k) {
      Status status = device->dispatch(**kernel, {cur, one.get(), next}, 2);
      ASSERT_TRUE(status.ok()) << status.message();
      std::swap(cur, next);
    }
    EXPECT_EQ(read(*device, *cur), std::vector<float>(n, 1200.0f * round));
  }
}

TEST(Vulkan, ThreadsShareADevice) {
  // Four threads upload, dispatch and download on the one device and kernel,
  // each with its own buffers; a download may submit the others' work too.
  SKIP_WITHOUT_VULKAN();
  std::shared_ptr<VulkanDevice> device = device0();
  ASSERT_TRUE(device);
  std::vector<uint32_t> words = kernelWords("add");
  if (words.empty())
    GTEST_SKIP() << "spirv-as was not found at build time: no add.spv";
  StatusOr<std::unique_ptr<VulkanKernel>> kernel =
      device->createKernel(words, "main", 3);
  ASSERT_TRUE(kernel.ok()) << kernel.message();
  EXPECT_EQ(test::runThreadsSharingADevice(
                *device,
                [&](VulkanBuffer *a, VulkanBuffer *b, VulkanBuffer *c) {
                  return device->dispatch(**kernel, {a, b, c}, 4);
                }),
            0);
}

TEST(Vulkan, BadSpirv) {
  SKIP_WITHOUT_VULKAN();
  std::shared_ptr<VulkanDevice> device = device0();
  ASSERT_TRUE(device);
  auto error = [&](const std::vector<uint32_t> &words,
                   const std::string &entry = "main") {
    StatusOr<std::unique_ptr<VulkanKernel>> kernel =
        device->createKernel(words, entry, 3);
    EXPECT_FALSE(kernel.ok());
    return kernel.ok() ? std::string() : kernel.message();
  };
  EXPECT_EQ(error({1, 2, 3}),
            "invalid SPIR-V: 3 words, shorter than the 5-word header");
  EXPECT_EQ(error({0xdeadbeef, 0x10300, 0, 10, 0}),
            "invalid SPIR-V: bad magic number");
  EXPECT_EQ(error({0x07230203, 0x10300, 0, 10, 0, 0x00000011}),
            "invalid SPIR-V: malformed instruction at word 5");
  EXPECT_EQ(error({0x07230203, 0x10300, 0, 10, 0}),
            "no GLCompute entry point 'main' in the SPIR-V module (it has "
            "none)");
  std::vector<uint32_t> words = kernelWords("add");
  if (words.empty())
    GTEST_SKIP() << "spirv-as was not found at build time: no add.spv";
  EXPECT_EQ(error(words, "nope"),
            "no GLCompute entry point 'nope' in the SPIR-V module (it has "
            "main)");
  // A well-formed stream with an unknown opcode reaches the driver. Invalid
  // SPIR-V is undefined behaviour in Vulkan; lavapipe reports it, so check
  // the message there only.
  if (device->info().name.find("llvmpipe") == std::string::npos)
    return;
  for (size_t pos = 5; pos < words.size(); pos += words[pos] >> 16)
    if ((words[pos] & 0xffff) == 129 /*OpFAdd*/)
      words[pos] = (words[pos] & 0xffff0000u) | 0x7fff;
  EXPECT_EQ(error(words).rfind("vkCreateComputePipelines failed: VK_ERROR_", 0),
            0u);
}

TEST(Vulkan, BufferTooLarge) {
  SKIP_WITHOUT_VULKAN();
  std::shared_ptr<VulkanDevice> device = device0();
  ASSERT_TRUE(device);
  StatusOr<std::unique_ptr<VulkanBuffer>> huge =
      device->createBuffer(size_t(1) << 50);
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.message().rfind("cannot create a Vulkan buffer of 1024.0 TiB "
                                 "on vulkan:0 (",
                                 0),
            0u)
      << huge.message();
  EXPECT_NE(huge.message().find("): larger than its max"), std::string::npos)
      << huge.message();
  // A failed allocation leaves the device usable.
  roundTrip(*device);
}
