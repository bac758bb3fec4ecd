//===- Driver.h - Drivers and their registry --------------------*- C++ -*-===//
//
// A Driver serves one family of devices ("cpu", "vulkan", "opencl"): it
// enumerates them and opens them as Device objects (Device.h). Drivers are
// registered by name in one process-wide registry, which the runtime fills
// with its built-in drivers the first time it is used (cpu, vulkan, opencl,
// in that order: the order of listDevices). A driver that cannot run on this
// machine (no Vulkan loader, no OpenCL ICD) is still registered; it reports
// Unavailable when asked for its devices. Another driver (a new backend, a
// test's fake device) is added with registerDriver. The design follows the
// driver registry of IREE's HAL (docs/Runtime.md).
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_RUNTIME_DRIVER_H
#define PLAIDML_RUNTIME_DRIVER_H

#include "plaidml/Runtime/Device.h"
#include "plaidml/Runtime/Status.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace plaidml::rt {

class Driver {
public:
  virtual ~Driver() = default;

  /// The name in device names and in manifests' `device` lines.
  virtual const std::string &getName() const = 0;
  /// Whether device names of this driver carry an index ("vulkan:0"); a
  /// driver without one has exactly one device, named by the driver alone.
  virtual bool hasIndexedDevices() const { return true; }
  /// The devices of this driver on this machine (possibly none), or why
  /// the driver cannot run here (Unavailable). Cached by the driver.
  virtual StatusOr<std::vector<DeviceInfo>> enumerateDevices() = 0;
  /// Device `index` of enumerateDevices(): the same object on every call.
  virtual StatusOr<std::shared_ptr<Device>> openDevice(unsigned index) = 0;
  /// Every feature this driver can check (what a device that has them all
  /// would list in DeviceInfo::features): what a compiler targets for a
  /// device that is not on this machine.
  virtual std::vector<std::string> getCheckableFeatures() const { return {}; }
};

/// Adds `driver` to the registry, after the drivers registered before it.
/// A second driver of the same name is InvalidArgument.
Status registerDriver(std::unique_ptr<Driver> driver);
/// The registered driver named `name`, or NotFound listing the drivers.
StatusOr<Driver *> getDriver(std::string_view name);
/// The registered drivers, in registration order.
std::vector<Driver *> getDrivers();

} // namespace plaidml::rt

#endif // PLAIDML_RUNTIME_DRIVER_H
