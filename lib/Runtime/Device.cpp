//===- Device.cpp - Device names and the default device -------------------===//
//
// Parses "<driver>" / "<driver>:N" against the registered drivers, and
// resolves the default device from PLAIDML_DEVICE or the `device = ...` line
// of $XDG_CONFIG_HOME/plaidml/config (the file plaidml-setup writes).
// Opening and listing devices is Driver.cpp's.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runtime/Device.h"
#include "plaidml/Runtime/Driver.h"

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

std::string DeviceName::str() const {
  StatusOr<Driver *> found = getDriver(driver);
  if (found.ok() && !(*found)->hasIndexedDevices())
    return driver;
  return driver + ":" + std::to_string(index);
}

StatusOr<DeviceName> plaidml::rt::parseDeviceName(std::string_view name) {
  std::vector<Driver *> drivers = getDrivers();
  auto bad = [&] {
    std::string forms;
    for (size_t i = 0; i < drivers.size(); ++i)
      forms += (i == 0                    ? ""
                : i + 1 == drivers.size() ? " or "
                                          : ", ") +
               drivers[i]->getName() +
               (drivers[i]->hasIndexedDevices() ? ":N" : "");
    return Status::invalidArgument("invalid device name '" + std::string(name) +
                                   "' (expected " + forms + ")");
  };
  size_t colon = name.find(':');
  std::string_view driverName = name.substr(0, colon);
  for (Driver *driver : drivers) {
    if (driver->getName() != driverName)
      continue;
    if (!driver->hasIndexedDevices())
      return colon == std::string_view::npos
                 ? StatusOr<DeviceName>(DeviceName{driver->getName(), 0})
                 : StatusOr<DeviceName>(bad());
    if (colon == std::string_view::npos)
      return bad();
    std::string_view digits = name.substr(colon + 1);
    if (digits.empty() || digits.size() > 6 ||
        digits.find_first_not_of("0123456789") != std::string_view::npos)
      return bad();
    return DeviceName{driver->getName(),
                      static_cast<unsigned>(std::stoul(std::string(digits)))};
  }
  return bad();
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
