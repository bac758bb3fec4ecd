//===- OpenCLDevice.h - OpenCL devices, buffers, kernels --------*- C++ -*-===//
//
// The device layer of the OpenCL runtime (DESIGN.md section 5), the twin of
// Vulkan.h. The ICD loader is opened at run time with
// dlopen("libOpenCL.so.1"), so nothing links against libOpenCL and a machine
// without it still runs on the CPU. The devices of every platform are listed
// once, lazily, as "opencl:0", "opencl:1", ... An OpenCLDevice owns a context
// and an in-order command queue, created once and reused; buffers are cl_mem
// objects; programs are built from OpenCL C source (or from IL such as SPIR-V
// where the device takes it) and cached by their text and options; kernels
// take their buffers first (argument i = buffer i, as bindings in Vulkan),
// then optional by-value scalars. Every failure is a Status naming the OpenCL
// call and its error code; nothing aborts.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_RUNTIME_OPENCL_OPENCLDEVICE_H
#define PLAIDML_LIB_RUNTIME_OPENCL_OPENCLDEVICE_H

#include "plaidml/Runtime/Status.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace plaidml::rt {

/// What the runtime knows of an OpenCL device.
struct OpenCLDeviceInfo {
  /// N of "opencl:N": devices of all platforms, in clGetPlatformIDs order,
  /// then clGetDeviceIDs order within a platform.
  unsigned index = 0;
  std::string name, vendor;
  std::string platformName, platformVersion;
  /// "cpu", "GPU", "accelerator", "custom" or "other".
  std::string type;
  /// CL_DRIVER_VERSION, e.g. "3.1".
  std::string driverVersion;
  /// CL_DEVICE_VERSION, e.g. "OpenCL 3.0 PoCL HSTR: ...".
  std::string deviceVersion;
  /// The OpenCL version of the device, parsed from deviceVersion: 120 for
  /// "OpenCL 1.2 ...", 300 for "OpenCL 3.0 ...".
  unsigned version = 0;
  /// CL_DEVICE_OPENCL_C_VERSION, e.g. "OpenCL C 1.2 pocl".
  std::string openclCVersion;
  /// CL_DEVICE_IL_VERSION, e.g. "SPIR-V_1.2": the intermediate languages the
  /// device accepts; empty when it takes none (then only OpenCL C source).
  std::string ilVersions;
  /// CL_DEVICE_EXTENSIONS, split at spaces.
  std::vector<std::string> extensions;
  uint64_t globalMemory = 0;
  /// CL_DEVICE_MAX_MEM_ALLOC_SIZE: the largest buffer.
  uint64_t maxAllocSize = 0;
  uint64_t localMemory = 0;
  size_t maxWorkgroupSize = 0;
  size_t maxWorkItemSizes[3] = {0, 0, 0};
  unsigned computeUnits = 0;
  /// cl_khr_fp16.
  bool fp16 = false;
  /// cl_khr_fp64, or a non-zero CL_DEVICE_DOUBLE_FP_CONFIG.
  bool fp64 = false;
  /// 64-bit integers: the full profile, or cles_khr_int64.
  bool int64 = false;
  /// cl_khr_subgroups / cl_intel_subgroups, or CL_DEVICE_MAX_NUM_SUB_GROUPS
  /// > 0 on OpenCL 2.1 and later.
  bool subgroups = false;

  bool hasExtension(const std::string &name) const;
  /// Whether the device builds SPIR-V with clCreateProgramWithIL: its
  /// ilVersions lists a "SPIR-V_1.x", or it has cl_khr_il_program (which
  /// means SPIR-V 1.0).
  bool takesSpirv() const;
  /// One line: "cpu-... (cpu, Portable Computing Language, OpenCL 3.0, ...)".
  std::string describe() const;
};

/// The OpenCL devices of this machine. Fails with "OpenCL unavailable: ..."
/// when the ICD loader cannot be opened or lacks an entry point; a loader
/// without platforms (no ICD installed) gives an empty list. The result
/// (success or failure) is computed once and cached.
StatusOr<std::vector<OpenCLDeviceInfo>> enumerateOpenCLDevices();

namespace detail {
/// Opens the OpenCL ICD loader at `path` and resolves clGetPlatformIDs,
/// without keeping it: what enumerateOpenCLDevices() does first, exposed for
/// tests of the failure message.
Status probeOpenCLLoader(const char *path);
/// The name of an OpenCL error code ("CL_OUT_OF_RESOURCES"), or
/// "CL error <code>" for a code the table does not know.
std::string getOpenCLErrorName(int32_t code);
} // namespace detail

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

/// A built cl_program. Programs are cached by the device and shared: asking
/// for the same source (or IL) with the same options again returns the same
/// program without building it again.
class OpenCLProgram {
public:
  ~OpenCLProgram();
  OpenCLProgram(const OpenCLProgram &) = delete;
  OpenCLProgram &operator=(const OpenCLProgram &) = delete;

  /// The kernels of the program (CL_PROGRAM_KERNEL_NAMES), in the order the
  /// driver lists them.
  const std::vector<std::string> &kernelNames() const { return names; }
  /// The build log (warnings of a successful build; often empty).
  const std::string &buildLog() const { return log; }

  struct Impl;

private:
  friend class OpenCLDevice;
  OpenCLProgram(std::unique_ptr<Impl> impl, std::vector<std::string> names,
                std::string log);
  std::unique_ptr<Impl> impl;
  std::vector<std::string> names;
  std::string log;
};

/// A kernel of an OpenCLProgram (which it keeps alive). Its arguments are
/// numBuffers() global buffers (argument i = buffer i) followed by scalars
/// passed by value; numArgs() counts both.
class OpenCLKernel {
public:
  ~OpenCLKernel();
  OpenCLKernel(const OpenCLKernel &) = delete;
  OpenCLKernel &operator=(const OpenCLKernel &) = delete;

  const std::string &name() const { return kernelName; }
  /// CL_KERNEL_NUM_ARGS.
  unsigned numArgs() const { return args; }
  /// CL_KERNEL_WORK_GROUP_SIZE on the device: the largest workgroup it can
  /// run with.
  size_t maxWorkgroupSize() const { return maxGroup; }
  /// CL_KERNEL_COMPILE_WORK_GROUP_SIZE: the reqd_work_group_size attribute,
  /// or {0, 0, 0} when the kernel has none.
  const std::array<size_t, 3> &requiredWorkgroupSize() const {
    return required;
  }

  struct Impl;

private:
  friend class OpenCLDevice;
  OpenCLKernel(std::unique_ptr<Impl> impl, std::string name, unsigned args,
               size_t maxGroup, std::array<size_t, 3> required);
  std::unique_ptr<Impl> impl;
  std::string kernelName;
  unsigned args;
  size_t maxGroup;
  std::array<size_t, 3> required;
};

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
