//===- GpuProgram.h - A GPU artifact attached to a device -------*- C++ -*-===//
//
// The runtime half of the launch ABI (include/plaidml/Runtime/GpuAbi.h,
// docs/ABI.md section 6), for any GpuBackend (Vulkan, OpenCL). A GpuProgram
// is a loaded GPU artifact bound to one device: it fills the artifact's
// `_plaidml_gpu_abi` table, loads the kernel modules (`_plaidml_gpu_load`),
// owns device buffers and hands the host code *handles* for them: addresses
// of PROT_NONE reservations, unique in the process and never dereferenced,
// which the mgpu* functions resolve back to buffers. Host code only passes
// handles to kernels (plaidml-gpu-host-buffers guarantees it), so a whole
// entry-point call is recorded as one batch of dispatches and submitted once.
// Private to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_RUNTIME_GPUPROGRAM_H
#define PLAIDML_LIB_RUNTIME_GPUPROGRAM_H

#include "GpuBackend.h"

#include "plaidml/Runtime/Device.h"
#include "plaidml/Runtime/GpuAbi.h"
#include "plaidml/Runtime/Manifest.h"
#include "plaidml/Runtime/Status.h"

#include <array>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace plaidml::rt {

struct GpuModule;

class GpuProgram {
public:
  /// Binds the artifact opened as `dlHandle` (whose manifest is `manifest`)
  /// to `device` (vulkan:N or opencl:N): checks the manifest's requirements
  /// against the device, fills the ABI table and loads the kernel modules.
  /// On OpenCL, `openclKernelFormat` (LoadOptions::openclKernelFormat), else
  /// PLAIDML_OPENCL_KERNEL_FORMAT, may force the kernel format.
  static StatusOr<std::unique_ptr<GpuProgram>>
  attach(void *dlHandle, const Manifest &manifest, const DeviceName &device,
         const std::string &openclKernelFormat = "");
  /// Unloads the kernel modules (before the library is closed).
  ~GpuProgram();
  GpuProgram(const GpuProgram &) = delete;
  GpuProgram &operator=(const GpuProgram &) = delete;

  /// A device buffer of `bytes` bytes and its handle; `what` names it in
  /// errors.
  StatusOr<void *> allocate(size_t bytes, const std::string &what);
  /// Frees the buffer behind `handle` (waits for work that uses it).
  void release(void *handle);
  Status upload(void *handle, const void *data, size_t bytes);
  Status download(void *handle, void *data, size_t bytes);

  /// Calls `entry(handles)` with the mgpu* functions served by this
  /// program, submits what it recorded and waits for it. The first failure
  /// of any mgpu* call (the rest are skipped) is the result. Calls of one
  /// program run one at a time.
  Status call(void (*entry)(void **), void **handles);
  /// Waits for the recorded copies (and dispatches) to finish.
  Status synchronize();

  /// "vulkan:0 (llvmpipe ...)".
  const std::string &getDeviceLabel() const { return backend->label(); }
  /// One line per loaded kernel module: the device, the module and what its
  /// kernels are built from ("opencl:0 (...): kernel module 'k': OpenCL C
  /// (...)").
  std::vector<std::string> describeModules() const;

  // The implementation of the mgpu* functions (GpuProgram.cpp).
  struct Call;
  struct Function;
  struct Buffer {
    std::unique_ptr<GpuBackendBuffer> buffer;
    size_t bytes = 0;
    size_t reserved = 0;
  };
  /// The buffer whose handle range holds `pointer`, and the offset.
  Buffer *lookup(const void *pointer, size_t &offset);

  std::unique_ptr<GpuBackend> backend;
  std::vector<std::unique_ptr<GpuModule>> modules;
  void (*unload)() = nullptr;
  /// The artifact's `_plaidml_gpu_abi` table: this program, then the mgpu*
  /// functions.
  std::array<void *, gpuabi::kTableSize> table = {};
  /// Serializes the calls of the artifact's code (load, entry points,
  /// unload): the ABI's per-call state is `active`.
  std::mutex callMutex;
  /// The call running now, while callMutex is held; null otherwise.
  Call *active = nullptr;

private:
  GpuProgram() = default;
  std::mutex mu;
  /// Handle range start -> buffer.
  std::map<uintptr_t, Buffer> buffers;
};

} // namespace plaidml::rt

#endif // PLAIDML_LIB_RUNTIME_GPUPROGRAM_H
