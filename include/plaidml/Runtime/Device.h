//===- Device.h - Device names, the default device, listing -----*- C++ -*-===//
//
// Devices are named "cpu", "vulkan:N" and "opencl:N" (docs/Design.md section 5).
// This header parses and prints those names, resolves the default device
// (the PLAIDML_DEVICE environment variable, else the `device` key of the
// config file that plaidml-setup writes, else "cpu"), reads and writes that
// config file, and lists the devices of this machine. Every failure is a
// Status naming what failed (the variable, or the file and line).
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_RUNTIME_DEVICE_H
#define PLAIDML_RUNTIME_DEVICE_H

#include "plaidml/Runtime/Status.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plaidml::rt {

enum class DeviceKind { CPU, Vulkan, OpenCL };

/// "cpu", "vulkan", "opencl": the spelling of the kind in device names and in
/// the `device` line of an artifact manifest.
const char *getDeviceKindName(DeviceKind kind);
/// Parses a kind as spelled by getDeviceKindName.
std::optional<DeviceKind> parseDeviceKind(std::string_view name);

/// A parsed device name.
struct DeviceName {
  DeviceKind kind = DeviceKind::CPU;
  /// The N of "vulkan:N" / "opencl:N"; 0 for the CPU.
  unsigned index = 0;

  /// "cpu", "vulkan:0", ...
  std::string str() const;
  bool operator==(const DeviceName &other) const {
    return kind == other.kind && index == other.index;
  }
};

/// Parses "cpu", "vulkan:N" or "opencl:N" (N a decimal index).
StatusOr<DeviceName> parseDeviceName(std::string_view name);

/// The config file: $XDG_CONFIG_HOME/plaidml/config when XDG_CONFIG_HOME is
/// an absolute path, else $HOME/.config/plaidml/config. Fails when neither
/// variable is usable.
StatusOr<std::string> getConfigFilePath();

/// Reads the `device` key of the config file at `path`: nullopt when the file
/// does not exist or has no `device` key. The format is lines `key = value`;
/// blank lines and `#` comments are ignored, as are unknown keys. A malformed
/// line, a repeated key or an invalid device name is an error naming the file
/// and line.
StatusOr<std::optional<DeviceName>> readConfigDevice(const std::string &path);

/// Writes `device = <name>` into the config file at `path` (creating its
/// directory), keeping the file's other lines. The file is replaced
/// atomically (temporary file + rename).
Status writeConfigDevice(const std::string &path, const DeviceName &device);

/// The default device: PLAIDML_DEVICE when set and non-empty, else the
/// config file's `device`, else "cpu".
StatusOr<DeviceName> getDefaultDevice();
/// getDefaultDevice(), spelled as a name.
StatusOr<std::string> getDefaultDeviceName();

/// One device of this machine.
struct DeviceInfo {
  DeviceName name;
  /// A human-readable description, e.g. "Intel(R) Xeon(R) ... (16 cores)".
  std::string description;
};

/// The devices of this machine: the CPU first, then every Vulkan physical
/// device, then every OpenCL device (of all platforms). When a backend is
/// unavailable (no loader, no driver), why is appended to `notes` if given
/// ("Vulkan unavailable: ...", "OpenCL unavailable: ...").
std::vector<DeviceInfo> listDevices(std::vector<std::string> *notes = nullptr);

/// Whether `device` exists on this machine and opens (the CPU always does):
/// for vulkan:N and opencl:N, opens the device (which loading a program
/// would do anyway). The failure says why, e.g. "no Vulkan device vulkan:5
/// (found 1: vulkan:0 to vulkan:0)".
Status checkDeviceAvailable(const DeviceName &device);

} // namespace plaidml::rt

#endif // PLAIDML_RUNTIME_DEVICE_H
