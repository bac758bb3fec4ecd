//===- OpenCLMemory.h - OpenCL buffers --------------------------*- C++ -*-===//
//
// The memory part of the OpenCL device layer: a cl_mem buffer of an
// OpenCLDevice. Private to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_RUNTIME_OPENCL_OPENCLMEMORY_H
#define PLAIDML_LIB_RUNTIME_OPENCL_OPENCLMEMORY_H

#include <cstddef>
#include <memory>

namespace plaidml::rt {

class OpenCLDevice;

/// A cl_mem buffer on an OpenCLDevice, released by the destructor (OpenCL
/// keeps the memory until enqueued commands that use it are done).
class OpenCLBuffer {
public:
  ~OpenCLBuffer();
  OpenCLBuffer(const OpenCLBuffer &) = delete;
  OpenCLBuffer &operator=(const OpenCLBuffer &) = delete;

  /// The size asked for, in bytes.
  size_t size() const { return bytes; }

  struct Impl;

private:
  friend class OpenCLDevice;
  OpenCLBuffer(std::unique_ptr<Impl> impl, size_t bytes);
  std::unique_ptr<Impl> impl;
  size_t bytes;
};

} // namespace plaidml::rt

#endif // PLAIDML_LIB_RUNTIME_OPENCL_OPENCLMEMORY_H
