//===- DriverTest.cpp - Tests of the driver registry and Device API -------===//
//
// The registry holds the built-in drivers (cpu, vulkan, opencl) in listing
// order; device names are parsed against it; a driver registered at run time
// (a fake one here, in a child process so that the rest of the tests see
// the built-in set) is listed, named, parsed and opened like the others.
// The public Device interface on the cpu device (buffers, write, read, the
// queue, out-of-range and foreign-buffer errors) and on every GPU device of
// this machine, and Program::execute on the caller's buffers, through the
// public interface only.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runtime/Driver.h"
#include "plaidml/Runtime/Device.h"
#include "plaidml/Runtime/Executable.h"
#include "plaidml/Runtime/Program.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

using namespace plaidml::rt;

namespace {

TEST(Driver, BuiltInDriversInOrder) {
  std::vector<Driver *> drivers = getDrivers();
  ASSERT_GE(drivers.size(), 3u);
  EXPECT_EQ(drivers[0]->getName(), "cpu");
  EXPECT_FALSE(drivers[0]->hasIndexedDevices());
  EXPECT_EQ(drivers[1]->getName(), "vulkan");
  EXPECT_EQ(drivers[2]->getName(), "opencl");
  EXPECT_TRUE(drivers[1]->hasIndexedDevices());
  StatusOr<Driver *> missing = getDriver("cuda");
  EXPECT_EQ(missing.code(), StatusCode::NotFound);
  EXPECT_EQ(missing.message(),
            "no driver named 'cuda' (drivers: cpu, vulkan, opencl)");
  // Vulkan's checkable features include every capability it knows.
  std::vector<std::string> vulkan = drivers[1]->getCheckableFeatures();
  EXPECT_NE(std::find(vulkan.begin(), vulkan.end(), "Float64"), vulkan.end());
}

/// A driver with two devices that are cpu devices under another name.
class FakeDriver : public Driver {
public:
  const std::string &getName() const override { return name; }
  StatusOr<std::vector<DeviceInfo>> enumerateDevices() override {
    std::vector<DeviceInfo> devices(2);
    for (unsigned i = 0; i < 2; ++i) {
      devices[i].name = DeviceName{"fake", i};
      devices[i].description = "fake device " + std::to_string(i);
      devices[i].features = {"magic"};
    }
    return devices;
  }
  StatusOr<std::shared_ptr<Device>> openDevice(unsigned index) override {
    if (index >= 2)
      return Status::notFound("no fake device fake:" + std::to_string(index));
    return ::plaidml::rt::openDevice(DeviceName{"cpu", 0});
  }

private:
  std::string name = "fake";
};

TEST(Driver, RegisteredDriverIsUsedLikeTheOthers) {
  EXPECT_EXIT(
      {
        bool ok = registerDriver(std::make_unique<FakeDriver>()).ok();
        // A second driver of the name is refused.
        ok = ok && registerDriver(std::make_unique<FakeDriver>()).code() ==
                       StatusCode::InvalidArgument;
        StatusOr<DeviceName> name = parseDeviceName("fake:1");
        ok = ok && name.ok() && name->driver == "fake" && name->index == 1 &&
             name->str() == "fake:1";
        ok = ok && parseDeviceName("fake").message() ==
                       "invalid device name 'fake' (expected cpu, vulkan:N, "
                       "opencl:N or fake:N)";
        bool listed = false;
        for (const DeviceInfo &info : listDevices())
          listed = listed ||
                   (info.name.str() == "fake:1" && info.hasFeature("magic"));
        ok = ok && listed;
        ok = ok && openDevice(std::string_view("fake:0")).ok() &&
             openDevice(std::string_view("fake:2")).code() ==
                 StatusCode::NotFound;
        std::exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

/// Writes 0..n-1 into a buffer of `device`, reads it back at an offset,
/// and checks the errors of a range past the end.
void checkBuffers(Device &device) {
  const size_t n = 64;
  StatusOr<std::unique_ptr<Buffer>> buffer = device.allocateBuffer(n * 4);
  ASSERT_TRUE(buffer.ok()) << buffer.message();
  EXPECT_EQ((*buffer)->size(), n * 4);
  EXPECT_EQ(&(*buffer)->getDevice(), &device);
  std::vector<int32_t> values(n);
  for (size_t i = 0; i < n; ++i)
    values[i] = static_cast<int32_t>(i * 3);
  ASSERT_TRUE(device.write(**buffer, 0, values.data(), n * 4).ok());
  StatusOr<std::shared_ptr<Event>> event = device.submit();
  ASSERT_TRUE(event.ok()) << event.message();
  EXPECT_TRUE((*event)->wait().ok());
  EXPECT_TRUE((*event)->isDone());
  std::vector<int32_t> back(n / 2, -1);
  ASSERT_TRUE(device.read(**buffer, n * 2, back.data(), n * 2).ok());
  for (size_t i = 0; i < n / 2; ++i)
    EXPECT_EQ(back[i], static_cast<int32_t>((i + n / 2) * 3));
  Status past = device.read(**buffer, n * 4 - 4, back.data(), 8);
  EXPECT_EQ(past.code(), StatusCode::OutOfRange) << past.toString();
  EXPECT_EQ(device.write(**buffer, n * 4 + 1, values.data(), 0).code(),
            StatusCode::OutOfRange);
  // An empty buffer is a buffer too.
  StatusOr<std::unique_ptr<Buffer>> empty = device.allocateBuffer(0);
  ASSERT_TRUE(empty.ok()) << empty.message();
  EXPECT_EQ((*empty)->size(), 0u);
}

TEST(Device, CpuBuffersAndQueue) {
  StatusOr<std::shared_ptr<Device>> cpu = openDevice(std::string_view("cpu"));
  ASSERT_TRUE(cpu.ok()) << cpu.message();
  EXPECT_EQ((*cpu)->getName().str(), "cpu");
  EXPECT_EQ((*cpu)->getLabel(), "cpu");
  // Opening again gives the same device.
  EXPECT_EQ(openDevice(DeviceName{"cpu", 0})->get(), cpu->get());
  checkBuffers(**cpu);
  // A buffer is 64-byte aligned host memory on the CPU.
  StatusOr<std::unique_ptr<Buffer>> buffer = (*cpu)->allocateBuffer(10);
  ASSERT_TRUE(buffer.ok());
  EXPECT_EQ(reinterpret_cast<uintptr_t>((*buffer)->getBinding()) % 64, 0u);
  // Executables take no options on the CPU.
  ExecutableLibrary library;
  StatusOr<std::unique_ptr<Executable>> executable =
      (*cpu)->loadExecutable(library, {{"kernel-format", "spirv"}});
  EXPECT_EQ(executable.code(), StatusCode::InvalidArgument);
  EXPECT_EQ(executable.message(),
            "the cpu driver has no option 'kernel-format' (it takes none)");
}

/// A GPU device keeps the memory of a freed buffer for the next buffer of
/// that size: the new buffer is a buffer of its own (its own handle, its
/// own data), whatever the old one held, and buffers of other sizes and
/// several live buffers of one size do not share memory.
void checkBufferReuse(Device &device) {
  const size_t bytes = 256;
  auto fill = [&](Buffer &buffer, int32_t base) {
    std::vector<int32_t> values(bytes / 4);
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = base + static_cast<int32_t>(i);
    ASSERT_TRUE(device.write(buffer, 0, values.data(), bytes).ok());
  };
  auto check = [&](const Buffer &buffer, int32_t base) {
    ASSERT_TRUE((*device.submit())->wait().ok());
    std::vector<int32_t> back(bytes / 4, -1);
    ASSERT_TRUE(device.read(buffer, 0, back.data(), bytes).ok());
    for (size_t i = 0; i < back.size(); ++i)
      ASSERT_EQ(back[i], base + static_cast<int32_t>(i)) << "element " << i;
  };
  for (int round = 0; round < 3; ++round) {
    std::unique_ptr<Buffer> a = std::move(*device.allocateBuffer(bytes));
    std::unique_ptr<Buffer> b = std::move(*device.allocateBuffer(bytes));
    std::unique_ptr<Buffer> c = std::move(*device.allocateBuffer(bytes + 4));
    EXPECT_NE(a->getBinding(), b->getBinding());
    fill(*a, 1000 * round);
    fill(*b, 1000 * round + 100);
    check(*a, 1000 * round);
    check(*b, 1000 * round + 100);
    EXPECT_EQ(c->size(), bytes + 4);
  }
}

/// Every GPU device of this machine, through the public interface; a
/// buffer of one device is refused by another.
TEST(Device, GpuBuffersAndQueue) {
  std::shared_ptr<Device> cpu = *openDevice(std::string_view("cpu"));
  unsigned tested = 0;
  for (const DeviceInfo &info : listDevices()) {
    if (info.name.driver == "cpu")
      continue;
    StatusOr<std::shared_ptr<Device>> device = openDevice(info.name);
    ASSERT_TRUE(device.ok()) << device.message();
    EXPECT_EQ((*device)->getInfo().description, info.description);
    checkBuffers(**device);
    checkBufferReuse(**device);
    StatusOr<std::unique_ptr<Buffer>> foreign = cpu->allocateBuffer(16);
    ASSERT_TRUE(foreign.ok());
    int32_t value = 1;
    Status status = (*device)->write(**foreign, 0, &value, 4);
    EXPECT_EQ(status.code(), StatusCode::InvalidArgument) << status.message();
    ++tested;
  }
  if (tested == 0)
    GTEST_SKIP() << "no GPU device on this machine";
}

/// Program::execute on the caller's buffers: a run, then every refusal.
TEST(Device, ProgramExecuteOnCallerBuffers) {
  std::shared_ptr<Device> cpu = *openDevice(std::string_view("cpu"));
  StatusOr<std::unique_ptr<Program>> program =
      Program::load(FAKE_ARTIFACT_GOOD);
  ASSERT_TRUE(program.ok()) << program.message();
  EXPECT_EQ(&(*program)->getDevice(), cpu.get());
  std::vector<std::unique_ptr<Buffer>> buffers;
  for (int i = 0; i < 3; ++i)
    buffers.push_back(std::move(*cpu->allocateBuffer(24)));
  float a[6] = {1, 2, 3, 4, 5, 6};
  ASSERT_TRUE(cpu->write(*buffers[0], 0, a, 24).ok());
  ASSERT_TRUE(cpu->write(*buffers[1], 0, a, 24).ok());
  std::vector<Buffer *> bound = {buffers[0].get(), buffers[1].get(),
                                 buffers[2].get()};
  ASSERT_TRUE((*program)->execute("add", bound).ok());
  float sum[6];
  ASSERT_TRUE(cpu->read(*buffers[2], 0, sum, 24).ok());
  EXPECT_EQ(sum[5], 12.0f);

  EXPECT_EQ((*program)->execute("add", {bound[0], bound[1]}).message(),
            "entry 'add' takes 3 buffers (inputs, then outputs), got 2");
  std::unique_ptr<Buffer> small = std::move(*cpu->allocateBuffer(8));
  EXPECT_EQ(
      (*program)->execute("add", {bound[0], small.get(), bound[2]}).message(),
      "buffer 1 ('b', 2x3xf32) must have 24 bytes, it has 8");
  EXPECT_EQ((*program)->execute("add", {bound[0], nullptr, bound[2]}).code(),
            StatusCode::InvalidArgument);
  EXPECT_EQ((*program)->execute("nosuch", bound).code(), StatusCode::NotFound);
}

} // namespace
