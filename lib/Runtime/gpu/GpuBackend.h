//===- GpuBackend.h - What the launch ABI needs of a device -----*- C++ -*-===//
//
// GpuDevice (the Device of every GPU driver) and GpuProgram (the runtime
// side of the mgpu* launch ABI) are written once against this interface;
// vulkan/VulkanDriver.cpp and opencl/OpenCLDriver.cpp adapt the two device
// layers to it. A kernel module is what the artifact handed to
// mgpuModuleLoad: SPIR-V words for Vulkan; for OpenCL a kernel bundle
// (KernelBundle.h: SPIR-V and OpenCL C of the same kernels, of which the
// backend picks one per device) or a single OpenCL C text or SPIR-V module.
// Private to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_RUNTIME_GPUBACKEND_H
#define PLAIDML_LIB_RUNTIME_GPUBACKEND_H

#include "plaidml/Runtime/Executable.h"
#include "plaidml/Runtime/KernelBundle.h"
#include "plaidml/Runtime/Status.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace plaidml::rt {

/// A buffer on a backend's device.
class GpuBackendBuffer {
public:
  virtual ~GpuBackendBuffer() = default;
};

/// A loaded kernel module: what mgpuModuleLoad received, checked, in the
/// form the backend builds kernels from.
class GpuBackendModule {
public:
  virtual ~GpuBackendModule() = default;
  /// The module's name in messages ("'matmul_kernel'"); empty when the
  /// module does not say.
  virtual std::string getName() const { return ""; }
  /// What the kernels are built from, and why: "OpenCL C (opencl:0 (...)
  /// takes no SPIR-V; ...)".
  virtual std::string describe() const = 0;
};

/// The driver options of one executable (LoadOptions::driverOptions), as
/// the backend understands them.
class GpuModuleOptions {
public:
  virtual ~GpuModuleOptions() = default;
};

/// A kernel ready to launch: one entry point of a module.
class GpuBackendKernel {
public:
  virtual ~GpuBackendKernel() = default;
  virtual unsigned numBindings() const = 0;
};

class GpuBackend {
public:
  virtual ~GpuBackend() = default;

  /// "vulkan:0 (NVIDIA H200)": names the device in messages.
  virtual const std::string &label() const = 0;
  /// The entries of a manifest's `requires` line the device lacks,
  /// comma-separated; empty when it has them all.
  virtual std::string
  missingRequirements(const std::vector<std::string> &requirements) const = 0;
  virtual uint64_t maxWorkgroupCount(unsigned dim) const = 0;
  virtual uint64_t maxWorkgroupInvocations() const = 0;

  virtual StatusOr<std::unique_ptr<GpuBackendBuffer>>
  createBuffer(size_t bytes) = 0;
  /// Copies, ordered with the dispatches recorded before and after them.
  virtual Status upload(GpuBackendBuffer &buffer, const void *data,
                        size_t bytes, size_t offset) = 0;
  virtual Status download(GpuBackendBuffer &buffer, void *data, size_t bytes,
                          size_t offset) = 0;
  virtual Status copy(GpuBackendBuffer &dst, GpuBackendBuffer &src,
                      size_t bytes, size_t dstOffset, size_t srcOffset) = 0;

  /// Checks the driver options of an executable; the default takes none.
  virtual StatusOr<std::unique_ptr<GpuModuleOptions>>
  parseOptions(const ExecutableOptions &options) const;
  /// Checks the `size` bytes of a kernel module at `data` (what
  /// mgpuModuleLoad received) and keeps what the kernels will be built from.
  virtual StatusOr<std::unique_ptr<GpuBackendModule>>
  loadModule(const char *data, size_t size,
             const GpuModuleOptions &options) = 0;
  /// Kernel `name` of `module` whose buffers are bindings 0..numBindings-1.
  virtual StatusOr<std::unique_ptr<GpuBackendKernel>>
  createKernel(GpuBackendModule &module, const std::string &name,
               unsigned numBindings) = 0;
  /// Records a launch of `grid` workgroups of `block` invocations.
  virtual Status dispatch(GpuBackendKernel &kernel,
                          const std::vector<GpuBackendBuffer *> &buffers,
                          std::array<uint32_t, 3> grid,
                          std::array<uint32_t, 3> block) = 0;
  /// Runs what was recorded and waits for it.
  virtual Status synchronize() = 0;
};

/// The part of a backend that only forwards to a device layer (VulkanDevice
/// and OpenCLDevice have the same buffer interface): buffers, copies and
/// synchronization.
template <typename Device, typename Buffer>
class DeviceBackendBase : public GpuBackend {
public:
  explicit DeviceBackendBase(std::shared_ptr<Device> device)
      : device(std::move(device)) {}

  StatusOr<std::unique_ptr<GpuBackendBuffer>>
  createBuffer(size_t bytes) override {
    StatusOr<std::unique_ptr<Buffer>> buffer = device->createBuffer(bytes);
    if (!buffer.ok())
      return buffer.status();
    auto result = std::make_unique<WrappedBuffer>();
    result->buffer = std::move(*buffer);
    return std::unique_ptr<GpuBackendBuffer>(std::move(result));
  }
  Status upload(GpuBackendBuffer &buffer, const void *data, size_t bytes,
                size_t offset) override {
    return device->upload(unwrap(buffer), data, bytes, offset);
  }
  Status download(GpuBackendBuffer &buffer, void *data, size_t bytes,
                  size_t offset) override {
    return device->download(unwrap(buffer), data, bytes, offset);
  }
  Status copy(GpuBackendBuffer &dst, GpuBackendBuffer &src, size_t bytes,
              size_t dstOffset, size_t srcOffset) override {
    return device->copy(unwrap(dst), unwrap(src), bytes, dstOffset, srcOffset);
  }
  Status synchronize() override { return device->synchronize(); }

protected:
  struct WrappedBuffer : GpuBackendBuffer {
    std::unique_ptr<Buffer> buffer;
  };
  static Buffer &unwrap(GpuBackendBuffer &buffer) {
    return *static_cast<WrappedBuffer &>(buffer).buffer;
  }
  /// The device layer's buffers of `buffers`.
  static std::vector<Buffer *>
  unwrapAll(const std::vector<GpuBackendBuffer *> &buffers) {
    std::vector<Buffer *> result;
    for (GpuBackendBuffer *buffer : buffers)
      result.push_back(&unwrap(*buffer));
    return result;
  }

  std::shared_ptr<Device> device;
};

} // namespace plaidml::rt

#endif // PLAIDML_LIB_RUNTIME_GPUBACKEND_H
