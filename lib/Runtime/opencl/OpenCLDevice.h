//===- OpenCLDevice.h - OpenCL devices, buffers, kernels --------*- C++ -*-===//
//
// The device layer of the OpenCL runtime (docs/Design.md section 5), the twin
// of Vulkan.h. The ICD loader is opened at run time with
// dlopen("libOpenCL.so.1"), so nothing links against libOpenCL and a machine
// without it still runs on the CPU. The devices of every platform are listed
// once, lazily, as "opencl:0", "opencl:1", ... An OpenCLDevice owns a context
// and an in-order command queue, created once and reused; buffers are cl_mem
// objects; programs are built from OpenCL C source (or from IL such as SPIR-V
// where the device takes it) and cached by their text and options; kernels
// take their buffers first (argument i = buffer i, as bindings in Vulkan),
// then optional by-value scalars. Every failure is a Status naming the OpenCL
// call and its error code; nothing aborts. The layer is split by object:
// OpenCLInstance.h (loader, devices), OpenCLMemory.h (buffers),
// OpenCLPipeline.h (programs, kernels), and this header (the context, its
// queue, copies and dispatch). Private to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_RUNTIME_OPENCL_OPENCLDEVICE_H
#define PLAIDML_LIB_RUNTIME_OPENCL_OPENCLDEVICE_H

#include "opencl/OpenCLInstance.h"
#include "opencl/OpenCLMemory.h"
#include "opencl/OpenCLPipeline.h"

#include "plaidml/Runtime/Status.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace plaidml::rt {

/// One by-value kernel argument: `size` bytes at `data`, copied when the
/// dispatch is enqueued (the push-constant-like part of a dispatch).
struct OpenCLScalar {
  const void *data = nullptr;
  size_t size = 0;

  template <typename T> static OpenCLScalar of(const T &value) {
    return OpenCLScalar{&value, sizeof(T)};
  }
};

/// A context and an in-order command queue on one OpenCL device. Obtained
/// with get(), which creates it on first use and returns the same device
/// afterwards; devices live as long as the process. Methods are thread-safe
/// (one mutex per device).
class OpenCLDevice {
public:
  /// Device `index` of enumerateOpenCLDevices() ("opencl:index").
  static StatusOr<std::shared_ptr<OpenCLDevice>> get(unsigned index);
  ~OpenCLDevice();
  OpenCLDevice(const OpenCLDevice &) = delete;
  OpenCLDevice &operator=(const OpenCLDevice &) = delete;

  const OpenCLDeviceInfo &info() const;
  /// "opencl:0 (<device name>)": how messages name the device.
  const std::string &label() const;

  /// A read-write buffer of `bytes` bytes (contents undefined). Fails with a
  /// message giving the device's limit when the buffer is too large.
  StatusOr<std::unique_ptr<OpenCLBuffer>> createBuffer(size_t bytes);

  /// Copies `bytes` bytes from `data` into `buffer` at `offset`; returns when
  /// `data` may be reused. Ordered after the work enqueued so far.
  Status upload(OpenCLBuffer &buffer, const void *data, size_t bytes,
                size_t offset = 0);
  /// Finishes the enqueued work and copies `bytes` bytes of `buffer` from
  /// `offset` into `data`.
  Status download(const OpenCLBuffer &buffer, void *data, size_t bytes,
                  size_t offset = 0);
  /// Enqueues a copy of `bytes` bytes from `src` at `srcOffset` to `dst` at
  /// `dstOffset` (ordered like a dispatch). Overlapping ranges of one buffer
  /// are an error.
  Status copy(OpenCLBuffer &dst, const OpenCLBuffer &src, size_t bytes,
              size_t dstOffset = 0, size_t srcOffset = 0);

  /// Builds (or finds in the device's cache) a program from OpenCL C source
  /// with build `options` (e.g. "-cl-std=CL1.2"). A failed build is a Status
  /// that holds the compiler's build log.
  StatusOr<std::shared_ptr<OpenCLProgram>>
  createProgramFromSource(const std::string &source,
                          const std::string &options = "");
  /// Builds (or finds in the cache) a program from intermediate-language
  /// words (SPIR-V), for devices whose CL_DEVICE_IL_VERSION is not empty; on
  /// others it fails saying the device has no IL support.
  StatusOr<std::shared_ptr<OpenCLProgram>>
  createProgramFromIL(const std::vector<uint32_t> &words,
                      const std::string &options = "");

  /// Kernel `name` of `program`. A missing name is an error listing the
  /// program's kernels.
  StatusOr<std::unique_ptr<OpenCLKernel>>
  createKernel(const std::shared_ptr<OpenCLProgram> &program,
               const std::string &name);

  /// Enqueues `kernel` over an NDRange of `global` work items in workgroups
  /// of `local` work items (clEnqueueNDRangeKernel, three dimensions; each
  /// global size a multiple of the local one, as OpenCL 1.2 requires).
  /// Argument i is buffers[i], then come `scalars` by value. A local size of
  /// {0, 0, 0} lets the driver choose. Nothing waits: see synchronize().
  Status dispatch(const OpenCLKernel &kernel,
                  const std::vector<OpenCLBuffer *> &buffers,
                  std::array<size_t, 3> global, std::array<size_t, 3> local,
                  const std::vector<OpenCLScalar> &scalars = {});
  /// dispatch() with the launch ABI's sizes: `grid` workgroups of `block`
  /// work items each (global = grid x block).
  Status launch(const OpenCLKernel &kernel,
                const std::vector<OpenCLBuffer *> &buffers,
                std::array<size_t, 3> grid, std::array<size_t, 3> block,
                const std::vector<OpenCLScalar> &scalars = {});

  /// Waits for the enqueued work (clFinish).
  Status synchronize();

  struct Impl;

private:
  explicit OpenCLDevice(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace plaidml::rt

#endif // PLAIDML_LIB_RUNTIME_OPENCL_OPENCLDEVICE_H
