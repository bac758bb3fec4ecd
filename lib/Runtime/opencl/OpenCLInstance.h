//===- OpenCLInstance.h - The OpenCL loader and devices ---------*- C++ -*-===//
//
// The instance part of the OpenCL device layer (docs/OpenCLRuntime.md): the
// ICD loader, opened with dlopen at first use, and what the runtime knows of
// each device of every platform. Private to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_RUNTIME_OPENCL_OPENCLINSTANCE_H
#define PLAIDML_LIB_RUNTIME_OPENCL_OPENCLINSTANCE_H

#include "plaidml/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
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
  /// NVIDIA's OpenCL on compute capability 7.0 or later
  /// (cl_nv_device_attribute_query): its compiler takes inline PTX, and the
  /// device the warp-wide `wmma` matrix instructions, which the
  /// cooperative-matrix kernels' OpenCL C uses ("nv-ptx-wmma").
  bool nvPtxWmma = false;
  /// NVIDIA's OpenCL on compute capability 8.0 or later: the asynchronous
  /// global-to-shared copies (`cp.async`) the two-stage cooperative-matrix
  /// kernels' OpenCL C uses ("nv-ptx-cp-async").
  bool nvPtxCpAsync = false;

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

} // namespace plaidml::rt

#endif // PLAIDML_LIB_RUNTIME_OPENCL_OPENCLINSTANCE_H
