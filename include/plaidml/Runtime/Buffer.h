//===- Buffer.h - Device buffers and events ---------------------*- C++ -*-===//
//
// A Buffer is memory of one Device (Device.h): host memory for the CPU
// driver, a VkBuffer or cl_mem for the GPU drivers. It is made by
// Device::allocateBuffer, filled and read with Device::write / Device::read,
// and bound to the inputs and outputs of an entry point with
// Executable::call. Destroying a buffer frees it (after the device's pending
// work that uses it). An Event is the completion of work submitted to a
// device's queue (Device::submit).
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_RUNTIME_BUFFER_H
#define PLAIDML_RUNTIME_BUFFER_H

#include "plaidml/Runtime/Status.h"

#include <cstddef>

namespace plaidml::rt {

class Device;

/// Memory of one device. Owned by the caller (std::unique_ptr); it keeps
/// its device alive.
class Buffer {
public:
  virtual ~Buffer() = default;
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;

  /// The size asked for, in bytes.
  virtual size_t size() const = 0;
  /// The device that made the buffer.
  virtual const Device &getDevice() const = 0;
  /// What an entry point of an artifact receives for this buffer: a host
  /// pointer (CPU), or a device buffer handle (GPU, docs/ABI.md section 6).
  virtual void *getBinding() const = 0;

protected:
  Buffer() = default;
};

/// The completion of submitted work.
class Event {
public:
  virtual ~Event() = default;
  /// Whether the work has finished (it does not block).
  virtual bool isDone() const = 0;
  /// Blocks until the work has finished; its failure, if it failed.
  virtual Status wait() = 0;
};

} // namespace plaidml::rt

#endif // PLAIDML_RUNTIME_BUFFER_H
