//===- Driver.cpp - The driver registry, opening and listing devices ------===//
//
// One registry per process, filled with the built-in drivers on first use
// (cpu, vulkan, opencl) and guarded by a mutex; drivers are never removed,
// so the pointers it hands out stay valid. openDevice and listDevices go
// through it, so nothing here knows a driver by name.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runtime/Driver.h"

#include "Drivers.h"

#include <mutex>

using namespace plaidml::rt;

namespace {
struct Registry {
  std::mutex mu;
  std::vector<std::unique_ptr<Driver>> drivers;

  Registry() {
    drivers.push_back(createCpuDriver());
    drivers.push_back(createVulkanDriver());
    drivers.push_back(createOpenCLDriver());
  }
};

Registry &getRegistry() {
  // Leaked: drivers own devices that live as long as the process.
  static Registry *registry = new Registry();
  return *registry;
}
} // namespace

Status plaidml::rt::registerDriver(std::unique_ptr<Driver> driver) {
  if (!driver)
    return Status::invalidArgument("registerDriver of a null driver");
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mu);
  for (const std::unique_ptr<Driver> &existing : registry.drivers)
    if (existing->getName() == driver->getName())
      return Status::invalidArgument("a driver named '" + driver->getName() +
                                     "' is already registered");
  registry.drivers.push_back(std::move(driver));
  return Status::success();
}

std::vector<Driver *> plaidml::rt::getDrivers() {
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mu);
  std::vector<Driver *> drivers;
  for (const std::unique_ptr<Driver> &driver : registry.drivers)
    drivers.push_back(driver.get());
  return drivers;
}

StatusOr<Driver *> plaidml::rt::getDriver(std::string_view name) {
  std::string names;
  for (Driver *driver : getDrivers()) {
    if (driver->getName() == name)
      return driver;
    names += (names.empty() ? "" : ", ") + driver->getName();
  }
  return Status::notFound("no driver named '" + std::string(name) +
                          "' (drivers: " + names + ")");
}

StatusOr<std::shared_ptr<Device>>
plaidml::rt::openDevice(const DeviceName &name) {
  StatusOr<Driver *> driver = getDriver(name.driver);
  if (!driver.ok())
    return driver.status();
  return (*driver)->openDevice(name.index);
}

StatusOr<std::shared_ptr<Device>>
plaidml::rt::openDevice(std::string_view name) {
  StatusOr<DeviceName> parsed = parseDeviceName(name);
  if (!parsed.ok())
    return parsed.status();
  return openDevice(*parsed);
}

Status plaidml::rt::checkDeviceAvailable(const DeviceName &device) {
  return openDevice(device).status();
}

std::vector<DeviceInfo>
plaidml::rt::listDevices(std::vector<std::string> *notes) {
  std::vector<DeviceInfo> devices;
  for (Driver *driver : getDrivers()) {
    StatusOr<std::vector<DeviceInfo>> found = driver->enumerateDevices();
    if (!found.ok()) {
      if (notes)
        notes->push_back(found.message());
      continue;
    }
    if (found->empty() && notes)
      notes->push_back(driver->getName() + ": no devices found");
    for (DeviceInfo &info : *found)
      devices.push_back(std::move(info));
  }
  return devices;
}

Status Device::synchronize() {
  StatusOr<std::shared_ptr<Event>> event = submit();
  if (!event.ok())
    return event.status();
  return (*event)->wait();
}

bool DeviceInfo::hasFeature(std::string_view feature) const {
  for (const std::string &have : features)
    if (have == feature)
      return true;
  return false;
}
