//===- TestUtil.h - Helpers shared by the runtime unit tests ----*- C++ -*-===//
//
// A temporary directory that removes itself, an environment variable setting
// that restores the old value, file writing, a HostArray built from a list
// of floats, float buffers on a device (Vulkan or OpenCL) and the skip of
// tests that need a Vulkan or OpenCL device: the small pieces the runtime tests
// share.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_TEST_RUNTIME_TESTUTIL_H
#define PLAIDML_TEST_RUNTIME_TESTUTIL_H

#include "plaidml/Runtime/Driver.h"
#include "plaidml/Runtime/HostArray.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace plaidml::rt::test {

/// A fresh directory under $TMPDIR (or /tmp), removed with its contents.
class TempDir {
public:
  TempDir() {
    const char *base = std::getenv("TMPDIR");
    std::string tmpl =
        std::string(base && base[0] ? base : "/tmp") + "/plaidml-rt-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (mkdtemp(buf.data()))
      dir = buf.data();
  }
  ~TempDir() {
    std::error_code ec;
    if (!dir.empty())
      std::filesystem::remove_all(dir, ec);
  }
  const std::string &path() const { return dir; }
  std::string file(const std::string &name) const { return dir + "/" + name; }

private:
  std::string dir;
};

/// Sets (or, with nullopt, unsets) an environment variable for a scope.
class ScopedEnv {
public:
  ScopedEnv(const char *name, std::optional<std::string> value) : name(name) {
    if (const char *old = std::getenv(name))
      saved = old;
    if (value)
      setenv(name, value->c_str(), 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    if (saved)
      setenv(name, saved->c_str(), 1);
    else
      unsetenv(name);
  }

private:
  const char *name;
  std::optional<std::string> saved;
};

inline void writeFile(const std::string &path, const std::string &content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
}

inline HostArray makeF32(std::vector<int64_t> shape, std::vector<float> data) {
  HostArray array;
  array.dtype = DType::f32;
  array.shape = std::move(shape);
  array.bytes.resize(data.size() * 4);
  // memcpy's pointers must not be null, even for no bytes (an empty
  // vector's data() may be).
  if (!data.empty())
    std::memcpy(array.bytes.data(), data.data(), array.bytes.size());
  return array;
}

inline std::vector<float> toF32(const HostArray &array) {
  std::vector<float> values(array.bytes.size() / 4);
  std::memcpy(values.data(), array.bytes.data(), values.size() * 4);
  return values;
}

/// A buffer of `device` (a VulkanDevice or an OpenCLDevice) holding
/// `values`; null after a failed expectation.
template <typename Device>
auto makeFloatBuffer(Device &device, const std::vector<float> &values)
    -> std::decay_t<decltype(*device.createBuffer(0))> {
  auto buffer = device.createBuffer(values.size() * sizeof(float));
  EXPECT_TRUE(buffer.ok()) << buffer.message();
  if (!buffer.ok())
    return nullptr;
  Status status =
      device.upload(**buffer, values.data(), values.size() * sizeof(float));
  EXPECT_TRUE(status.ok()) << status.message();
  return std::move(*buffer);
}

/// The floats of `buffer` on `device`.
template <typename Device, typename Buffer>
std::vector<float> readFloats(Device &device, const Buffer &buffer) {
  std::vector<float> values(buffer.size() / sizeof(float));
  Status status =
      device.download(buffer, values.data(), values.size() * sizeof(float));
  EXPECT_TRUE(status.ok()) << status.message();
  return values;
}

/// Four threads, each 20 times: upload a (= base) and b (= 0, 1, ...) into
/// buffers of its own on the one `device`, run `add(a, b, c)` (a kernel
/// computing c = a + b over 200 floats) and check c. Returns the number of
/// failed iterations.
template <typename Device, typename Add>
int runThreadsSharingADevice(Device &device, Add add) {
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      const size_t n = 200;
      for (int iter = 0; iter < 20; ++iter) {
        float base = static_cast<float>(t * 1000 + iter);
        std::vector<float> a(n, base), b(n), c(n, -1.0f);
        for (size_t i = 0; i < n; ++i)
          b[i] = static_cast<float>(i);
        auto bufA = device.createBuffer(n * 4),
             bufB = device.createBuffer(n * 4),
             bufC = device.createBuffer(n * 4);
        if (!bufA.ok() || !bufB.ok() || !bufC.ok() ||
            !device.upload(**bufA, a.data(), n * 4).ok() ||
            !device.upload(**bufB, b.data(), n * 4).ok() ||
            !add(bufA->get(), bufB->get(), bufC->get()).ok() ||
            !device.download(**bufC, c.data(), n * 4).ok()) {
          ++failures;
          return;
        }
        for (size_t i = 0; i < n; ++i)
          if (c[i] != base + static_cast<float>(i)) {
            ++failures;
            return;
          }
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  return failures.load();
}

} // namespace plaidml::rt::test

/// Skips the test, with the reason, when driver `name` has no device: it is
/// unavailable here (by its status code) or finds none. Any other failure
/// of the enumeration fails the test.
#define SKIP_WITHOUT_DEVICES_OF(name, none)                                    \
  do {                                                                         \
    ::plaidml::rt::StatusOr<::plaidml::rt::Driver *> driver =                  \
        ::plaidml::rt::getDriver(name);                                        \
    ASSERT_TRUE(driver.ok()) << driver.message();                              \
    ::plaidml::rt::StatusOr<std::vector<::plaidml::rt::DeviceInfo>> devices =  \
        (*driver)->enumerateDevices();                                         \
    if (devices.code() == ::plaidml::rt::StatusCode::Unavailable)              \
      GTEST_SKIP() << devices.message();                                       \
    ASSERT_TRUE(devices.ok()) << devices.status().toString();                  \
    if (devices->empty())                                                      \
      GTEST_SKIP() << none;                                                    \
  } while (false)

/// Skips the test when there is no Vulkan device.
#define SKIP_WITHOUT_VULKAN()                                                  \
  SKIP_WITHOUT_DEVICES_OF("vulkan", "no Vulkan physical device")

/// Skips the test when there is no OpenCL device.
#define SKIP_WITHOUT_OPENCL()                                                  \
  SKIP_WITHOUT_DEVICES_OF("opencl", "no OpenCL device")

#endif // PLAIDML_TEST_RUNTIME_TESTUTIL_H
