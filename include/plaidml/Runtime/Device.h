//===- Device.h - Devices: names, the interface, listing --------*- C++ -*-===//
//
// A device is named "<driver>" or "<driver>:N" ("cpu", "vulkan:0",
// "opencl:1"): the driver (Driver.h) that serves it, and its index among the
// driver's devices. This header holds the Device interface every driver
// implements (buffers, the queue, loading executables: docs/Runtime.md),
// opening a device by name, listing the devices of this machine, and the
// default device (the PLAIDML_DEVICE environment variable, else the
// `device` key of the config file that plaidml-setup writes, else "cpu")
// with that config file. Every failure is a Status with a code, naming what
// failed (the variable, or the file and line).
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_RUNTIME_DEVICE_H
#define PLAIDML_RUNTIME_DEVICE_H

#include "plaidml/Runtime/Buffer.h"
#include "plaidml/Runtime/Status.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plaidml::rt {

/// A parsed device name.
struct DeviceName {
  /// The driver's name (Driver::getName()): "cpu", "vulkan", "opencl".
  std::string driver = "cpu";
  /// N of "vulkan:N": the device's index among its driver's devices; 0 for
  /// the device of a driver with only one (the CPU).
  unsigned index = 0;

  /// "cpu", "vulkan:0", ...: the driver's name alone for a driver whose
  /// devices are not numbered.
  std::string str() const;
  bool operator==(const DeviceName &other) const {
    return driver == other.driver && index == other.index;
  }
  bool operator!=(const DeviceName &other) const { return !(*this == other); }
};

/// Parses "<driver>" (a driver with one device: "cpu") or "<driver>:N" (N a
/// decimal index) for a registered driver. A bad name is InvalidArgument,
/// listing the forms: "invalid device name 'tpu:0' (expected cpu, vulkan:N
/// or opencl:N)".
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
  /// The device's own name, as its driver reports it: "llvmpipe (LLVM
  /// 15.0.6, 256 bits)", "NVIDIA H200"; the CPU's model name.
  std::string model;
  /// A human-readable description, e.g. "Intel(R) Xeon(R) ... (16 cores)".
  std::string description;
  /// What the device offers, in the words of a manifest's `requires` line
  /// (docs/ABI.md section 3): SPIR-V capabilities and extensions on Vulkan
  /// ("Float64", "SPV_KHR_8bit_storage"), extensions and "int64", "spirv"
  /// on OpenCL; empty on the CPU, whose features are checked apart.
  std::vector<std::string> features;

  bool hasFeature(std::string_view feature) const;
};

/// The devices of this machine, driver by driver in registration order (the
/// CPU first, then every Vulkan physical device, then every OpenCL device
/// of all platforms). When a driver is unavailable (no loader, no ICD) or
/// has no device, why is appended to `notes` if given ("Vulkan unavailable:
/// ...", "OpenCL unavailable: ...").
std::vector<DeviceInfo> listDevices(std::vector<std::string> *notes = nullptr);

class Executable;
struct ExecutableLibrary;

/// A device: memory, an in-order queue, and executables. Devices are opened
/// by name (openDevice) and shared: opening the same name again gives the
/// same object, which lives as long as the process. Methods are
/// thread-safe.
class Device {
public:
  virtual ~Device() = default;
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  /// The device's name, description and features.
  virtual const DeviceInfo &getInfo() const = 0;
  const DeviceName &getName() const { return getInfo().name; }
  /// How messages name the device: "vulkan:0 (llvmpipe ...)", "cpu".
  virtual const std::string &getLabel() const = 0;

  /// A buffer of `bytes` bytes, zero-filled on the CPU and undefined on
  /// other devices. A buffer too large for the device is ResourceExhausted,
  /// giving the limit.
  virtual StatusOr<std::unique_ptr<Buffer>> allocateBuffer(size_t bytes) = 0;
  /// Copies `bytes` bytes from `data` into `buffer` at `offset`, ordered
  /// after the work recorded so far; `data` may be reused on return.
  virtual Status write(Buffer &buffer, size_t offset, const void *data,
                       size_t bytes) = 0;
  /// Finishes the recorded work and copies `bytes` bytes of `buffer` from
  /// `offset` into `data`.
  virtual Status read(const Buffer &buffer, size_t offset, void *data,
                      size_t bytes) = 0;
  /// Submits the work recorded so far to the device's queue; the event
  /// says when it has finished.
  virtual StatusOr<std::shared_ptr<Event>> submit() = 0;
  /// submit() and wait.
  Status synchronize();

  /// Makes the artifact opened as `library` ready to run on this device,
  /// with the driver's `options` (an option the driver does not know is
  /// InvalidArgument). Fails when the artifact needs what the device lacks
  /// (FailedPrecondition). The library must outlive the executable.
  virtual StatusOr<std::unique_ptr<Executable>>
  loadExecutable(const ExecutableLibrary &library,
                 const std::map<std::string, std::string> &options) = 0;

protected:
  Device() = default;
};

/// Opens device `name` through its driver (the same object on every call).
/// A driver that cannot run here is Unavailable ("Vulkan unavailable:
/// ..."), an index past its devices NotFound ("no Vulkan device vulkan:5
/// (found 1: vulkan:0 to vulkan:0)").
StatusOr<std::shared_ptr<Device>> openDevice(const DeviceName &name);
/// parseDeviceName + openDevice.
StatusOr<std::shared_ptr<Device>> openDevice(std::string_view name);

/// Whether `device` exists on this machine and opens: openDevice's status.
Status checkDeviceAvailable(const DeviceName &device);

} // namespace plaidml::rt

#endif // PLAIDML_RUNTIME_DEVICE_H
