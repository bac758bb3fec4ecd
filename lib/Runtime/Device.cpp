//===- Device.cpp - Device names, the default device, listing -------------===//
//
// Parses "cpu" / "vulkan:N" / "opencl:N", resolves the default device from
// PLAIDML_DEVICE or the `device = ...` line of $XDG_CONFIG_HOME/plaidml/config
// (the file plaidml-setup writes), and lists devices: the CPU, then the
// Vulkan physical devices, then the OpenCL devices.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runtime/Device.h"
#include "plaidml/Runtime/HostCpu.h"
#include "plaidml/Runtime/OpenCL.h"
#include "plaidml/Runtime/Vulkan.h"

#include "FileUtil.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>

#include <sys/stat.h>
#include <unistd.h>

using namespace plaidml::rt;

const char *plaidml::rt::getDeviceKindName(DeviceKind kind) {
  switch (kind) {
  case DeviceKind::CPU:
    return "cpu";
  case DeviceKind::Vulkan:
    return "vulkan";
  case DeviceKind::OpenCL:
    return "opencl";
  }
  return "?";
}

std::optional<DeviceKind> plaidml::rt::parseDeviceKind(std::string_view name) {
  for (DeviceKind kind :
       {DeviceKind::CPU, DeviceKind::Vulkan, DeviceKind::OpenCL})
    if (name == getDeviceKindName(kind))
      return kind;
  return std::nullopt;
}

std::string DeviceName::str() const {
  if (kind == DeviceKind::CPU)
    return "cpu";
  return std::string(getDeviceKindName(kind)) + ":" + std::to_string(index);
}

StatusOr<DeviceName> plaidml::rt::parseDeviceName(std::string_view name) {
  auto bad = [&] {
    return Status::invalidArgument("invalid device name '" + std::string(name) +
                           "' (expected cpu, vulkan:N or opencl:N)");
  };
  if (name == "cpu")
    return DeviceName{DeviceKind::CPU, 0};
  size_t colon = name.find(':');
  if (colon == std::string_view::npos)
    return bad();
  std::optional<DeviceKind> kind = parseDeviceKind(name.substr(0, colon));
  std::string_view digits = name.substr(colon + 1);
  if (!kind || *kind == DeviceKind::CPU || digits.empty() ||
      digits.size() > 6 ||
      digits.find_first_not_of("0123456789") != std::string_view::npos)
    return bad();
  return DeviceName{*kind,
                    static_cast<unsigned>(std::stoul(std::string(digits)))};
}

StatusOr<std::string> plaidml::rt::getConfigFilePath() {
  const char *xdg = std::getenv("XDG_CONFIG_HOME");
  // The XDG spec says relative paths are invalid and must be ignored.
  if (xdg && xdg[0] == '/')
    return std::string(xdg) + "/plaidml/config";
  const char *home = std::getenv("HOME");
  if (home && home[0])
    return std::string(home) + "/.config/plaidml/config";
  return Status::failedPrecondition(
      "cannot locate the PlaidML config file: neither XDG_CONFIG_HOME nor HOME "
      "is set");
}

namespace {
using detail::trim;
bool isKeyName(const std::string &key) {
  if (key.empty())
    return false;
  for (char c : key)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
      return false;
  return true;
}
} // namespace

StatusOr<std::optional<DeviceName>>
plaidml::rt::readConfigDevice(const std::string &path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0 && (errno == ENOENT || errno == ENOTDIR))
    return std::optional<DeviceName>();
  std::string content, why;
  if (!detail::readWholeFile(path, content, why))
    return Status::failure("cannot read config file '" + path + "': " + why);
  const std::string *text = &content;

  std::optional<DeviceName> device;
  std::map<std::string, unsigned> seen;
  unsigned lineNo = 0;
  size_t pos = 0;
  while (pos < text->size()) {
    size_t eol = text->find('\n', pos);
    std::string_view line = std::string_view(*text).substr(pos, eol - pos);
    pos = eol == std::string::npos ? text->size() : eol + 1;
    ++lineNo;
    auto fail = [&](const std::string &what) {
      return Status::invalidArgument(path + ":" + std::to_string(lineNo) +
                                     ": " + what);
    };
    std::string content = trim(line.substr(0, line.find('#')));
    if (content.empty())
      continue;
    size_t eq = content.find('=');
    if (eq == std::string::npos)
      return fail("expected 'key = value', got '" + content + "'");
    std::string key = trim(std::string_view(content).substr(0, eq));
    std::string value = trim(std::string_view(content).substr(eq + 1));
    if (!isKeyName(key))
      return fail("bad key '" + key + "' (expected 'key = value')");
    if (value.empty())
      return fail("key '" + key + "' has no value");
    auto [it, inserted] = seen.emplace(key, lineNo);
    if (!inserted)
      return fail("key '" + key + "' repeated (first on line " +
                  std::to_string(it->second) + ")");
    if (key != "device")
      continue; // Keys of other tools or later versions.
    StatusOr<DeviceName> name = parseDeviceName(value);
    if (!name.ok())
      return fail(name.message());
    device = *name;
  }
  return device;
}

Status plaidml::rt::writeConfigDevice(const std::string &path,
                                      const DeviceName &device) {
  // Keep every line but the `device` one.
  std::string kept, oldText, why;
  if (detail::readWholeFile(path, oldText, why)) {
    const std::string *old = &oldText;
    size_t pos = 0;
    while (pos < old->size()) {
      size_t eol = old->find('\n', pos);
      std::string line = old->substr(pos, eol - pos);
      pos = eol == std::string::npos ? old->size() : eol + 1;
      std::string content = trim(line.substr(0, line.find('#')));
      size_t eq = content.find('=');
      if (eq != std::string::npos &&
          trim(std::string_view(content).substr(0, eq)) == "device")
        continue;
      kept += line + "\n";
    }
  }
  // Create the parent directories.
  for (size_t slash = path.find('/', 1); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    std::string dir = path.substr(0, slash);
    if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
      return Status::failure("cannot create directory '" + dir +
                             "': " + std::strerror(errno));
  }
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      return Status::failure("cannot write '" + tmp +
                             "': " + std::strerror(errno));
    out << kept << "device = " << device.str() << "\n";
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      return Status::failure("failed while writing '" + tmp + "'");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    std::remove(tmp.c_str());
    return Status::failure("cannot rename '" + tmp + "' to '" + path +
                           "': " + std::strerror(err));
  }
  return Status::success();
}

StatusOr<DeviceName> plaidml::rt::getDefaultDevice() {
  if (const char *env = std::getenv("PLAIDML_DEVICE"); env && env[0]) {
    StatusOr<DeviceName> name = parseDeviceName(env);
    if (!name.ok())
      return name.status().withContext("PLAIDML_DEVICE");
    return name;
  }
  StatusOr<std::string> path = getConfigFilePath();
  if (!path.ok())
    return DeviceName{}; // No config file to read: the CPU.
  StatusOr<std::optional<DeviceName>> fromConfig = readConfigDevice(*path);
  if (!fromConfig.ok())
    return fromConfig.status();
  if (*fromConfig)
    return **fromConfig;
  return DeviceName{};
}

StatusOr<std::string> plaidml::rt::getDefaultDeviceName() {
  StatusOr<DeviceName> device = getDefaultDevice();
  if (!device.ok())
    return device.status();
  return device->str();
}

std::vector<DeviceInfo>
plaidml::rt::listDevices(std::vector<std::string> *notes) {
  const HostCpu &cpu = HostCpu::get();
  std::string description =
      cpu.modelName.empty()
          ? (cpu.arch.empty() ? "host CPU" : cpu.arch + " CPU")
          : cpu.modelName;
  description += " (" + std::to_string(cpu.numCores) +
                 (cpu.numCores == 1 ? " core)" : " cores)");
  std::vector<DeviceInfo> devices = {
      DeviceInfo{DeviceName{DeviceKind::CPU, 0}, description}};
  StatusOr<std::vector<VulkanDeviceInfo>> vulkan = enumerateVulkanDevices();
  if (!vulkan.ok()) {
    if (notes)
      notes->push_back(vulkan.message());
  } else {
    if (vulkan->empty() && notes)
      notes->push_back("Vulkan: no physical devices found");
    for (const VulkanDeviceInfo &info : *vulkan)
      devices.push_back(DeviceInfo{DeviceName{DeviceKind::Vulkan, info.index},
                                   info.describe()});
  }
  StatusOr<std::vector<OpenCLDeviceInfo>> opencl = enumerateOpenCLDevices();
  if (!opencl.ok()) {
    if (notes)
      notes->push_back(opencl.message());
  } else {
    if (opencl->empty() && notes)
      notes->push_back("OpenCL: no devices found (no OpenCL platform, or "
                       "platforms without devices)");
    for (const OpenCLDeviceInfo &info : *opencl)
      devices.push_back(DeviceInfo{DeviceName{DeviceKind::OpenCL, info.index},
                                   info.describe()});
  }
  return devices;
}

Status plaidml::rt::checkDeviceAvailable(const DeviceName &device) {
  switch (device.kind) {
  case DeviceKind::CPU:
    return Status::success();
  case DeviceKind::Vulkan:
    return VulkanDevice::get(device.index).status();
  case DeviceKind::OpenCL:
    return OpenCLDevice::get(device.index).status();
  }
  return Status::success();
}
