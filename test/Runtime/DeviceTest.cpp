//===- DeviceTest.cpp - Tests of device names and the default device ------===//
//
// Device-name parsing, the config-file location (XDG_CONFIG_HOME, HOME), the
// resolution order of the default device (PLAIDML_DEVICE, the config file,
// "cpu"), errors naming the variable or the file and line, writing the
// config, and the device list. Environment variables are set per test and
// restored afterwards.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "plaidml/Runtime/Device.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

using namespace plaidml::rt;
using namespace plaidml::rt::test;

TEST(DeviceName, Parses) {
  StatusOr<DeviceName> cpu = parseDeviceName("cpu");
  ASSERT_TRUE(cpu.ok());
  EXPECT_EQ(cpu->driver, "cpu");
  EXPECT_EQ(cpu->str(), "cpu");
  StatusOr<DeviceName> vk = parseDeviceName("vulkan:1");
  ASSERT_TRUE(vk.ok());
  EXPECT_EQ(vk->driver, "vulkan");
  EXPECT_EQ(vk->index, 1u);
  EXPECT_EQ(vk->str(), "vulkan:1");
  StatusOr<DeviceName> cl = parseDeviceName("opencl:0");
  ASSERT_TRUE(cl.ok());
  EXPECT_EQ(cl->str(), "opencl:0");
}

TEST(DeviceName, Errors) {
  for (const char *bad :
       {"", "gpu", "cpu:0", "vulkan", "vulkan:", "vulkan:x", "opencl:-1",
        "cuda:0", "CPU", "vulkan:1 ", "vulkan:99999999"}) {
    StatusOr<DeviceName> name = parseDeviceName(bad);
    ASSERT_FALSE(name.ok()) << bad;
    EXPECT_EQ(name.message(), "invalid device name '" + std::string(bad) +
                                  "' (expected cpu, vulkan:N or opencl:N)");
  }
}

class DefaultDevice : public ::testing::Test {
protected:
  TempDir dir;
  ScopedEnv device{"PLAIDML_DEVICE", std::nullopt};
  ScopedEnv xdg{"XDG_CONFIG_HOME", dir.path()};
  ScopedEnv home{"HOME", dir.file("home")};

  std::string configPath() const { return dir.file("plaidml/config"); }
  void writeConfig(const std::string &text) {
    mkdir(dir.file("plaidml").c_str(), 0755);
    writeFile(configPath(), text);
  }
};

TEST_F(DefaultDevice, ConfigPath) {
  StatusOr<std::string> path = getConfigFilePath();
  ASSERT_TRUE(path.ok());
  EXPECT_EQ(*path, configPath());
  {
    ScopedEnv noXdg("XDG_CONFIG_HOME", std::nullopt);
    EXPECT_EQ(*getConfigFilePath(), dir.file("home/.config/plaidml/config"));
  }
  {
    // A relative XDG_CONFIG_HOME is invalid and ignored.
    ScopedEnv relative("XDG_CONFIG_HOME", "relative/dir");
    EXPECT_EQ(*getConfigFilePath(), dir.file("home/.config/plaidml/config"));
  }
  {
    ScopedEnv noXdg("XDG_CONFIG_HOME", std::nullopt);
    ScopedEnv noHome("HOME", std::nullopt);
    EXPECT_FALSE(getConfigFilePath().ok());
    // Still resolves: nothing to read means the CPU.
    EXPECT_EQ(*getDefaultDeviceName(), "cpu");
  }
}

TEST_F(DefaultDevice, FallsBackToCpu) {
  StatusOr<std::string> name = getDefaultDeviceName();
  ASSERT_TRUE(name.ok()) << name.message();
  EXPECT_EQ(*name, "cpu");
}

TEST_F(DefaultDevice, FromConfig) {
  writeConfig("# written by plaidml-setup\n"
              "\n"
              "  device = vulkan:2   # the discrete GPU\n"
              "other_tool.key = anything\n");
  StatusOr<std::string> name = getDefaultDeviceName();
  ASSERT_TRUE(name.ok()) << name.message();
  EXPECT_EQ(*name, "vulkan:2");
}

TEST_F(DefaultDevice, ConfigWithoutDeviceKey) {
  writeConfig("color = auto\n");
  EXPECT_EQ(*getDefaultDeviceName(), "cpu");
}

TEST_F(DefaultDevice, EnvironmentWins) {
  writeConfig("device = vulkan:2\n");
  ScopedEnv env("PLAIDML_DEVICE", "opencl:1");
  EXPECT_EQ(*getDefaultDeviceName(), "opencl:1");
  // An empty variable counts as unset.
  ScopedEnv empty("PLAIDML_DEVICE", "");
  EXPECT_EQ(*getDefaultDeviceName(), "vulkan:2");
}

TEST_F(DefaultDevice, BadEnvironment) {
  ScopedEnv env("PLAIDML_DEVICE", "tpu:0");
  StatusOr<std::string> name = getDefaultDeviceName();
  ASSERT_FALSE(name.ok());
  EXPECT_EQ(name.message(), "PLAIDML_DEVICE: invalid device name 'tpu:0' "
                            "(expected cpu, vulkan:N or opencl:N)");
}

TEST_F(DefaultDevice, MalformedConfig) {
  struct Case {
    const char *text;
    std::string error;
  } cases[] = {
      {"# ok\ndevice vulkan:0\n", ":2: expected 'key = value', got 'device "
                                  "vulkan:0'"},
      {"device = gpu\n", ":1: invalid device name 'gpu' (expected cpu, "
                         "vulkan:N or opencl:N)"},
      {"device =\n", ":1: key 'device' has no value"},
      {"= cpu\n", ":1: bad key '' (expected 'key = value')"},
      {"device = cpu\n\ndevice = vulkan:0\n",
       ":3: key 'device' repeated (first on line 1)"},
  };
  for (const Case &c : cases) {
    writeConfig(c.text);
    StatusOr<std::string> name = getDefaultDeviceName();
    ASSERT_FALSE(name.ok()) << c.text;
    EXPECT_EQ(name.message(), configPath() + c.error);
  }
}

TEST_F(DefaultDevice, UnreadableConfig) {
  // A directory where the file should be.
  mkdir(dir.file("plaidml").c_str(), 0755);
  mkdir(configPath().c_str(), 0755);
  StatusOr<std::string> name = getDefaultDeviceName();
  ASSERT_FALSE(name.ok());
  EXPECT_EQ(name.message(),
            "cannot read config file '" + configPath() + "': Is a directory");
}

TEST_F(DefaultDevice, WriteConfig) {
  // Creates the directory.
  ASSERT_TRUE(writeConfigDevice(configPath(), {"vulkan", 0}).ok());
  EXPECT_EQ(*getDefaultDeviceName(), "vulkan:0");
  // Keeps other lines, replaces the device.
  writeConfig("# comment\ncolor = auto\ndevice = vulkan:0\n");
  ASSERT_TRUE(writeConfigDevice(configPath(), {"opencl", 3}).ok());
  EXPECT_EQ(*getDefaultDeviceName(), "opencl:3");
  std::ifstream in(configPath());
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "# comment\ncolor = auto\ndevice = opencl:3\n");
}

TEST(Devices, ListStartsWithCpu) {
  std::vector<DeviceInfo> devices = listDevices();
  ASSERT_FALSE(devices.empty());
  EXPECT_EQ(devices[0].name.str(), "cpu");
  EXPECT_NE(devices[0].description.find("core"), std::string::npos)
      << devices[0].description;
}
