//===- GpuDevice.h - The Device of every GPU driver -------------*- C++ -*-===//
//
// GpuDevice implements the public Device interface (Device.h) once for
// every GPU backend (GpuBackend.h): buffers are backend buffers with a
// *handle*, the address of a PROT_NONE reservation that is unique in the
// process and never dereferenced, which is what the host code of a GPU
// artifact holds for the buffer (docs/ABI.md section 6); the device maps
// handles back to buffers, so a buffer made by the device can be bound to
// any executable of it. GpuDriver serves the devices of one backend by
// index, opening each once. Private to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_RUNTIME_GPU_GPUDEVICE_H
#define PLAIDML_LIB_RUNTIME_GPU_GPUDEVICE_H

#include "gpu/GpuBackend.h"

#include "plaidml/Runtime/Device.h"
#include "plaidml/Runtime/Driver.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace plaidml::rt {

class GpuDevice;

/// A buffer of a GpuDevice and its handle.
class GpuBuffer : public Buffer {
public:
  ~GpuBuffer() override;
  size_t size() const override { return bytes; }
  const Device &getDevice() const override;
  void *getBinding() const override { return handle; }

  GpuBackendBuffer &getBackendBuffer() const { return *buffer; }

private:
  friend class GpuDevice;
  GpuBuffer() = default;
  GpuDevice *device = nullptr;
  std::unique_ptr<GpuBackendBuffer> buffer;
  void *handle = nullptr;
  size_t bytes = 0;
  size_t reserved = 0;
};

class GpuDevice : public Device {
public:
  GpuDevice(std::unique_ptr<GpuBackend> backend, DeviceInfo info);

  const DeviceInfo &getInfo() const override { return info; }
  const std::string &getLabel() const override { return backend->label(); }
  StatusOr<std::unique_ptr<Buffer>> allocateBuffer(size_t bytes) override;
  Status write(Buffer &buffer, size_t offset, const void *data,
               size_t bytes) override;
  Status read(const Buffer &buffer, size_t offset, void *data,
              size_t bytes) override;
  StatusOr<std::shared_ptr<Event>> submit() override;
  StatusOr<std::unique_ptr<Executable>>
  loadExecutable(const ExecutableLibrary &library,
                 const ExecutableOptions &options) override;

  GpuBackend &getBackend() { return *backend; }
  /// The buffer whose handle range holds `pointer`, and the offset; null
  /// when `pointer` is no buffer's.
  GpuBuffer *lookup(const void *pointer, size_t &offset);
  /// `buffer` as a buffer of this device; InvalidArgument naming `what`
  /// when it belongs to another device.
  StatusOr<GpuBuffer *> own(const Buffer &buffer, const std::string &what);
  /// own(), and [offset, offset + bytes) inside that buffer.
  StatusOr<GpuBuffer *> ownRange(const Buffer &buffer, const std::string &what,
                                 size_t offset, size_t bytes);

  /// The most bytes that freed buffers keep for reuse.
  static constexpr size_t kMaxSpareBytes = size_t(1) << 30;

private:
  friend class GpuBuffer;
  /// Forgets the handle of a freed GpuBuffer and keeps its backend buffer
  /// of `bytes` (as allocated) for the next allocation of that size, while
  /// the spare buffers stay within kMaxSpareBytes.
  void release(void *handle, std::unique_ptr<GpuBackendBuffer> buffer,
               size_t bytes);
  /// A backend buffer of `bytes`: a spare one of that size, else a new one
  /// (after dropping every spare buffer when the first try fails).
  StatusOr<std::unique_ptr<GpuBackendBuffer>> obtain(size_t bytes);

  std::unique_ptr<GpuBackend> backend;
  DeviceInfo info;
  std::mutex mu;
  /// Handle range start -> buffer.
  std::map<uintptr_t, GpuBuffer *> buffers;
  /// Backend buffers of freed GpuBuffers by size (a program's temporaries
  /// come back with the same sizes on every call; creating device memory
  /// costs far more than a kernel launch on a discrete GPU).
  std::multimap<size_t, std::unique_ptr<GpuBackendBuffer>> spare;
  size_t spareBytes = 0;
};

/// A driver whose devices are GpuDevices over one backend.
class GpuDriver : public Driver {
public:
  using Enumerate = std::function<StatusOr<std::vector<DeviceInfo>>()>;
  using OpenBackend =
      std::function<StatusOr<std::unique_ptr<GpuBackend>>(unsigned index)>;

  GpuDriver(std::string name, Enumerate enumerate, OpenBackend open,
            std::vector<std::string> checkable)
      : name(std::move(name)), enumerate(std::move(enumerate)),
        open(std::move(open)), checkable(std::move(checkable)) {}

  const std::string &getName() const override { return name; }
  StatusOr<std::vector<DeviceInfo>> enumerateDevices() override {
    return enumerate();
  }
  StatusOr<std::shared_ptr<Device>> openDevice(unsigned index) override;
  std::vector<std::string> getCheckableFeatures() const override {
    return checkable;
  }

private:
  std::string name;
  Enumerate enumerate;
  OpenBackend open;
  std::vector<std::string> checkable;
  std::mutex mu;
  std::map<unsigned, std::shared_ptr<Device>> devices;
};

} // namespace plaidml::rt

#endif // PLAIDML_LIB_RUNTIME_GPU_GPUDEVICE_H
