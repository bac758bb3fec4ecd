//===- OpenCLDevice.cpp - OpenCL devices, buffers and kernels -------------===//
//
// Opens libOpenCL.so.1 (the ICD loader) with dlopen and resolves the OpenCL
// 1.2 entry points with dlsym (no link-time dependency; the CL headers give
// only types and constants), lists the devices of every platform once, and
// implements OpenCLDevice: one context and in-order command queue per device,
// created once and reused, a cache of built programs keyed by their source
// (or IL) and options, buffers and kernels. OpenCL 2.1 entry points
// (clCreateProgramWithIL) are used only where the platform offers them. Every
// cl_int failure is a Status "clCall failed: CL_...". Built as a stub that
// reports OpenCL as unavailable without the CL headers or with
// PLAIDML_ENABLE_OPENCL=OFF.
//
//===----------------------------------------------------------------------===//

#include "opencl/OpenCLDevice.h"

#include "FileUtil.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_map>

#include <dlfcn.h>

#if __has_include(<CL/cl.h>) && !defined(PLAIDML_NO_OPENCL)
#define PLAIDML_HAVE_OPENCL 1
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#else
#define PLAIDML_HAVE_OPENCL 0
#endif

using namespace plaidml::rt;
using plaidml::rt::detail::formatBytes;

namespace {
[[maybe_unused]] const char *kLoaderName = "libOpenCL.so.1";

[[maybe_unused]] std::string join(const std::vector<std::string> &items,
                                  const char *sep) {
  std::string s;
  for (const std::string &item : items)
    s += (s.empty() ? "" : sep) + item;
  return s;
}
} // namespace

bool OpenCLDeviceInfo::hasExtension(const std::string &extension) const {
  return std::find(extensions.begin(), extensions.end(), extension) !=
         extensions.end();
}

bool OpenCLDeviceInfo::takesSpirv() const {
  return ilVersions.find("SPIR-V") != std::string::npos ||
         hasExtension("cl_khr_il_program");
}

std::string OpenCLDeviceInfo::describe() const {
  std::string s = name + " (" + type + ", " + platformName;
  if (version)
    s += ", OpenCL " + std::to_string(version / 100) + "." +
         std::to_string(version / 10 % 10);
  if (!driverVersion.empty())
    s += ", driver " + driverVersion;
  // "OpenCL C 1.2 pocl" -> "OpenCL C 1.2".
  std::string c = openclCVersion;
  if (c.rfind("OpenCL C ", 0) == 0) {
    size_t end = c.find(' ', 9);
    c = c.substr(0, end);
  }
  if (!c.empty())
    s += ", " + c;
  s += ", " + formatBytes(globalMemory);
  s += ", " + std::to_string(computeUnits) +
       (computeUnits == 1 ? " compute unit" : " compute units");
  s += ", workgroup " + std::to_string(maxWorkgroupSize);
  if (!ilVersions.empty())
    s += ", IL " + ilVersions;
  std::string features;
  auto add = [&](bool has, const char *what) {
    if (has)
      features += std::string(features.empty() ? "" : " ") + what;
  };
  add(fp16, "f16");
  add(fp64, "f64");
  add(int64, "int64");
  add(subgroups, "subgroups");
  add(nvPtxWmma, "ptx-wmma");
  add(nvPtxCpAsync, "ptx-cp-async");
  if (!features.empty())
    s += ", " + features;
  return s + ")";
}

Status plaidml::rt::detail::probeOpenCLLoader(const char *path) {
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *err = dlerror();
    return Status::unavailable(std::string("OpenCL unavailable: cannot load ") +
                               path + " (" + (err ? err : "unknown error") +
                               ")");
  }
  bool found = dlsym(lib, "clGetPlatformIDs") != nullptr;
  dlclose(lib);
  if (!found)
    return Status::unavailable(std::string("OpenCL unavailable: ") + path +
                               " has no clGetPlatformIDs");
  return Status::success();
}

std::string plaidml::rt::detail::getOpenCLErrorName(int32_t code) {
  // By number rather than through the headers' macros: the table covers
  // codes of OpenCL 2.x and 3.0, which a CL_TARGET_OPENCL_VERSION of 120
  // hides, and it works in the stub build too.
  static const struct {
    int32_t code;
    const char *name;
  } kNames[] = {
      {0, "CL_SUCCESS"},
      {-1, "CL_DEVICE_NOT_FOUND"},
      {-2, "CL_DEVICE_NOT_AVAILABLE"},
      {-3, "CL_COMPILER_NOT_AVAILABLE"},
      {-4, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
      {-5, "CL_OUT_OF_RESOURCES"},
      {-6, "CL_OUT_OF_HOST_MEMORY"},
      {-7, "CL_PROFILING_INFO_NOT_AVAILABLE"},
      {-8, "CL_MEM_COPY_OVERLAP"},
      {-9, "CL_IMAGE_FORMAT_MISMATCH"},
      {-10, "CL_IMAGE_FORMAT_NOT_SUPPORTED"},
      {-11, "CL_BUILD_PROGRAM_FAILURE"},
      {-12, "CL_MAP_FAILURE"},
      {-13, "CL_MISALIGNED_SUB_BUFFER_OFFSET"},
      {-14, "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST"},
      {-15, "CL_COMPILE_PROGRAM_FAILURE"},
      {-16, "CL_LINKER_NOT_AVAILABLE"},
      {-17, "CL_LINK_PROGRAM_FAILURE"},
      {-18, "CL_DEVICE_PARTITION_FAILED"},
      {-19, "CL_KERNEL_ARG_INFO_NOT_AVAILABLE"},
      {-30, "CL_INVALID_VALUE"},
      {-31, "CL_INVALID_DEVICE_TYPE"},
      {-32, "CL_INVALID_PLATFORM"},
      {-33, "CL_INVALID_DEVICE"},
      {-34, "CL_INVALID_CONTEXT"},
      {-35, "CL_INVALID_QUEUE_PROPERTIES"},
      {-36, "CL_INVALID_COMMAND_QUEUE"},
      {-37, "CL_INVALID_HOST_PTR"},
      {-38, "CL_INVALID_MEM_OBJECT"},
      {-39, "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR"},
      {-40, "CL_INVALID_IMAGE_SIZE"},
      {-41, "CL_INVALID_SAMPLER"},
      {-42, "CL_INVALID_BINARY"},
      {-43, "CL_INVALID_BUILD_OPTIONS"},
      {-44, "CL_INVALID_PROGRAM"},
      {-45, "CL_INVALID_PROGRAM_EXECUTABLE"},
      {-46, "CL_INVALID_KERNEL_NAME"},
      {-47, "CL_INVALID_KERNEL_DEFINITION"},
      {-48, "CL_INVALID_KERNEL"},
      {-49, "CL_INVALID_ARG_INDEX"},
      {-50, "CL_INVALID_ARG_VALUE"},
      {-51, "CL_INVALID_ARG_SIZE"},
      {-52, "CL_INVALID_KERNEL_ARGS"},
      {-53, "CL_INVALID_WORK_DIMENSION"},
      {-54, "CL_INVALID_WORK_GROUP_SIZE"},
      {-55, "CL_INVALID_WORK_ITEM_SIZE"},
      {-56, "CL_INVALID_GLOBAL_OFFSET"},
      {-57, "CL_INVALID_EVENT_WAIT_LIST"},
      {-58, "CL_INVALID_EVENT"},
      {-59, "CL_INVALID_OPERATION"},
      {-60, "CL_INVALID_GL_OBJECT"},
      {-61, "CL_INVALID_BUFFER_SIZE"},
      {-62, "CL_INVALID_MIP_LEVEL"},
      {-63, "CL_INVALID_GLOBAL_WORK_SIZE"},
      {-64, "CL_INVALID_PROPERTY"},
      {-65, "CL_INVALID_IMAGE_DESCRIPTOR"},
      {-66, "CL_INVALID_COMPILER_OPTIONS"},
      {-67, "CL_INVALID_LINKER_OPTIONS"},
      {-68, "CL_INVALID_DEVICE_PARTITION_COUNT"},
      {-69, "CL_INVALID_PIPE_SIZE"},
      {-70, "CL_INVALID_DEVICE_QUEUE"},
      {-71, "CL_INVALID_SPEC_ID"},
      {-72, "CL_MAX_SIZE_RESTRICTION_EXCEEDED"},
      {-1000, "CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR"},
      {-1001, "CL_PLATFORM_NOT_FOUND_KHR"},
  };
  for (const auto &entry : kNames)
    if (entry.code == code)
      return entry.name;
  return "CL error " + std::to_string(code);
}

#if !PLAIDML_HAVE_OPENCL

StatusOr<std::vector<OpenCLDeviceInfo>> plaidml::rt::enumerateOpenCLDevices() {
  return Status::unavailable(
      "OpenCL unavailable: this runtime was built without "
      "OpenCL (no CL headers, or PLAIDML_ENABLE_OPENCL "
      "OFF)");
}

struct OpenCLBuffer::Impl {};
struct OpenCLProgram::Impl {};
struct OpenCLKernel::Impl {};
struct OpenCLDevice::Impl {
  OpenCLDeviceInfo info;
  std::string label;
};
OpenCLBuffer::OpenCLBuffer(std::unique_ptr<Impl> impl, size_t bytes)
    : impl(std::move(impl)), bytes(bytes) {}
OpenCLBuffer::~OpenCLBuffer() = default;
OpenCLProgram::OpenCLProgram(std::unique_ptr<Impl> impl,
                             std::vector<std::string> names, std::string log)
    : impl(std::move(impl)), names(std::move(names)), log(std::move(log)) {}
OpenCLProgram::~OpenCLProgram() = default;
OpenCLKernel::OpenCLKernel(std::unique_ptr<Impl> impl, std::string name,
                           unsigned args, size_t maxGroup,
                           std::array<size_t, 3> required)
    : impl(std::move(impl)), kernelName(std::move(name)), args(args),
      maxGroup(maxGroup), required(required) {}
OpenCLKernel::~OpenCLKernel() = default;
OpenCLDevice::OpenCLDevice(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}
OpenCLDevice::~OpenCLDevice() = default;
StatusOr<std::shared_ptr<OpenCLDevice>> OpenCLDevice::get(unsigned) {
  return enumerateOpenCLDevices().status();
}
const OpenCLDeviceInfo &OpenCLDevice::info() const { return impl->info; }
const std::string &OpenCLDevice::label() const { return impl->label; }
StatusOr<std::unique_ptr<OpenCLBuffer>> OpenCLDevice::createBuffer(size_t) {
  return enumerateOpenCLDevices().status();
}
Status OpenCLDevice::upload(OpenCLBuffer &, const void *, size_t, size_t) {
  return enumerateOpenCLDevices().status();
}
Status OpenCLDevice::download(const OpenCLBuffer &, void *, size_t, size_t) {
  return enumerateOpenCLDevices().status();
}
Status OpenCLDevice::copy(OpenCLBuffer &, const OpenCLBuffer &, size_t, size_t,
                          size_t) {
  return enumerateOpenCLDevices().status();
}
StatusOr<std::shared_ptr<OpenCLProgram>>
OpenCLDevice::createProgramFromSource(const std::string &,
                                      const std::string &) {
  return enumerateOpenCLDevices().status();
}
StatusOr<std::shared_ptr<OpenCLProgram>>
OpenCLDevice::createProgramFromIL(const std::vector<uint32_t> &,
                                  const std::string &) {
  return enumerateOpenCLDevices().status();
}
StatusOr<std::unique_ptr<OpenCLKernel>>
OpenCLDevice::createKernel(const std::shared_ptr<OpenCLProgram> &,
                           const std::string &) {
  return enumerateOpenCLDevices().status();
}
Status OpenCLDevice::dispatch(const OpenCLKernel &,
                              const std::vector<OpenCLBuffer *> &,
                              std::array<size_t, 3>, std::array<size_t, 3>,
                              const std::vector<OpenCLScalar> &) {
  return enumerateOpenCLDevices().status();
}
Status OpenCLDevice::launch(const OpenCLKernel &,
                            const std::vector<OpenCLBuffer *> &,
                            std::array<size_t, 3>, std::array<size_t, 3>,
                            const std::vector<OpenCLScalar> &) {
  return enumerateOpenCLDevices().status();
}
Status OpenCLDevice::synchronize() { return enumerateOpenCLDevices().status(); }

#else // PLAIDML_HAVE_OPENCL

// Queries of OpenCL 2.1 that CL_TARGET_OPENCL_VERSION 120 hides.
#ifndef CL_DEVICE_IL_VERSION
#define CL_DEVICE_IL_VERSION 0x105B
#endif
#ifndef CL_DEVICE_MAX_NUM_SUB_GROUPS
#define CL_DEVICE_MAX_NUM_SUB_GROUPS 0x105C
#endif

namespace {

/// clCreateProgramWithIL (OpenCL 2.1) and clCreateProgramWithILKHR
/// (cl_khr_il_program) share this signature.
using CreateProgramWithILFn = cl_program(CL_API_CALL *)(cl_context,
                                                        const void *, size_t,
                                                        cl_int *);

Status clFailure(const char *call, cl_int code,
                 const std::string &context = "") {
  std::string msg =
      std::string(call) + " failed: " + detail::getOpenCLErrorName(code);
  if (!context.empty())
    msg += " (" + context + ")";
  // CL_OUT_OF_RESOURCES, CL_OUT_OF_HOST_MEMORY,
  // CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_INVALID_BUFFER_SIZE.
  if (code == -5 || code == -6 || code == -4 || code == -61)
    return Status::resourceExhausted(msg);
  // CL_DEVICE_NOT_AVAILABLE, CL_DEVICE_NOT_FOUND.
  if (code == -2 || code == -1)
    return Status::unavailable(msg);
  return Status::internal(msg);
}

#define PLAIDML_CL_FUNCTIONS(X)                                                \
  X(clGetPlatformIDs)                                                          \
  X(clGetPlatformInfo)                                                         \
  X(clGetDeviceIDs)                                                            \
  X(clGetDeviceInfo)                                                           \
  X(clCreateContext)                                                           \
  X(clReleaseContext)                                                          \
  X(clCreateCommandQueue)                                                      \
  X(clReleaseCommandQueue)                                                     \
  X(clCreateBuffer)                                                            \
  X(clReleaseMemObject)                                                        \
  X(clEnqueueWriteBuffer)                                                      \
  X(clEnqueueReadBuffer)                                                       \
  X(clEnqueueCopyBuffer)                                                       \
  X(clCreateProgramWithSource)                                                 \
  X(clBuildProgram)                                                            \
  X(clGetProgramInfo)                                                          \
  X(clGetProgramBuildInfo)                                                     \
  X(clReleaseProgram)                                                          \
  X(clCreateKernel)                                                            \
  X(clCreateKernelsInProgram)                                                  \
  X(clGetKernelInfo)                                                           \
  X(clGetKernelWorkGroupInfo)                                                  \
  X(clSetKernelArg)                                                            \
  X(clReleaseKernel)                                                           \
  X(clEnqueueNDRangeKernel)                                                    \
  X(clFinish)

/// The loader, its functions and the devices: created once, never destroyed
/// (devices, buffers and programs may outlive any static).
struct OpenCLLoader {
  void *lib = nullptr;
#define DECLARE(name) decltype(&::name) name = nullptr;
  PLAIDML_CL_FUNCTIONS(DECLARE)
#undef DECLARE
  /// Optional: OpenCL 2.1 and 1.2 entry points some loaders lack.
  CreateProgramWithILFn clCreateProgramWithIL = nullptr;
  decltype(&::clGetExtensionFunctionAddressForPlatform)
      clGetExtensionFunctionAddressForPlatform = nullptr;
  /// Per device ("opencl:N" = entry N).
  std::vector<std::pair<cl_platform_id, cl_device_id>> devices;
  std::vector<unsigned> platformVersions;
  std::vector<OpenCLDeviceInfo> infos;
};

/// Trims the NUL terminator and surrounding blanks drivers leave in strings.
std::string trimInfo(std::string s) {
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ' ||
                        s.back() == '\n' || s.back() == '\t'))
    s.pop_back();
  size_t start = s.find_first_not_of(" \t\n");
  return start == std::string::npos ? std::string() : s.substr(start);
}

/// A string property read the clGet*Info way through `get(size, value,
/// sizeReturned)`: size first, then the bytes; "" when the driver fails.
template <typename Get> std::string infoString(Get get) {
  size_t size = 0;
  if (get(0, nullptr, &size) != CL_SUCCESS || size == 0)
    return "";
  std::string s(size, '\0');
  if (get(size, s.data(), nullptr) != CL_SUCCESS)
    return "";
  return trimInfo(s);
}

std::string deviceString(const OpenCLLoader &cl, cl_device_id device,
                         cl_device_info param) {
  return infoString([&](size_t size, void *value, size_t *sizeReturned) {
    return cl.clGetDeviceInfo(device, param, size, value, sizeReturned);
  });
}

template <typename T>
T deviceValue(const OpenCLLoader &cl, cl_device_id device,
              cl_device_info param) {
  T value{};
  if (cl.clGetDeviceInfo(device, param, sizeof(T), &value, nullptr) !=
      CL_SUCCESS)
    return T{};
  return value;
}

std::string platformString(const OpenCLLoader &cl, cl_platform_id platform,
                           cl_platform_info param) {
  return infoString([&](size_t size, void *value, size_t *sizeReturned) {
    return cl.clGetPlatformInfo(platform, param, size, value, sizeReturned);
  });
}

/// "OpenCL 3.0 PoCL ..." -> 300; 0 when it does not parse.
unsigned parseVersion(const std::string &s) {
  unsigned major = 0, minor = 0;
  if (std::sscanf(s.c_str(), "OpenCL %u.%u", &major, &minor) != 2)
    return 0;
  return major * 100 + minor * 10;
}

std::vector<std::string> splitWords(const std::string &s, char sep) {
  std::vector<std::string> words;
  size_t pos = 0;
  while (pos < s.size()) {
    size_t end = s.find(sep, pos);
    if (end == std::string::npos)
      end = s.size();
    std::string word = trimInfo(s.substr(pos, end - pos));
    if (!word.empty())
      words.push_back(word);
    pos = end + 1;
  }
  return words;
}

const char *typeName(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU)
    return "GPU";
  if (type & CL_DEVICE_TYPE_CPU)
    return "cpu";
  if (type & CL_DEVICE_TYPE_ACCELERATOR)
    return "accelerator";
  if (type & CL_DEVICE_TYPE_CUSTOM)
    return "custom";
  return "other";
}

OpenCLDeviceInfo queryDevice(const OpenCLLoader &cl, unsigned index,
                             cl_platform_id platform, cl_device_id device) {
  OpenCLDeviceInfo d;
  d.index = index;
  d.name = deviceString(cl, device, CL_DEVICE_NAME);
  d.vendor = deviceString(cl, device, CL_DEVICE_VENDOR);
  d.platformName = platformString(cl, platform, CL_PLATFORM_NAME);
  d.platformVersion = platformString(cl, platform, CL_PLATFORM_VERSION);
  d.type = typeName(deviceValue<cl_device_type>(cl, device, CL_DEVICE_TYPE));
  d.driverVersion = deviceString(cl, device, CL_DRIVER_VERSION);
  d.deviceVersion = deviceString(cl, device, CL_DEVICE_VERSION);
  d.version = parseVersion(d.deviceVersion);
  d.openclCVersion = deviceString(cl, device, CL_DEVICE_OPENCL_C_VERSION);
  d.extensions =
      splitWords(deviceString(cl, device, CL_DEVICE_EXTENSIONS), ' ');
  if (d.version >= 210 || d.hasExtension("cl_khr_il_program"))
    d.ilVersions = deviceString(cl, device, CL_DEVICE_IL_VERSION);
  d.globalMemory = deviceValue<cl_ulong>(cl, device, CL_DEVICE_GLOBAL_MEM_SIZE);
  d.maxAllocSize =
      deviceValue<cl_ulong>(cl, device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  d.localMemory = deviceValue<cl_ulong>(cl, device, CL_DEVICE_LOCAL_MEM_SIZE);
  d.maxWorkgroupSize =
      deviceValue<size_t>(cl, device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  size_t itemSizes[3] = {0, 0, 0};
  if (deviceValue<cl_uint>(cl, device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS) >=
          3 &&
      cl.clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                         sizeof(itemSizes), itemSizes, nullptr) == CL_SUCCESS)
    std::copy(itemSizes, itemSizes + 3, d.maxWorkItemSizes);
  d.computeUnits =
      deviceValue<cl_uint>(cl, device, CL_DEVICE_MAX_COMPUTE_UNITS);
  d.fp16 = d.hasExtension("cl_khr_fp16");
  d.fp64 = d.hasExtension("cl_khr_fp64") ||
           deviceValue<cl_device_fp_config>(cl, device,
                                            CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
  d.int64 = deviceString(cl, device, CL_DEVICE_PROFILE) == "FULL_PROFILE" ||
            d.hasExtension("cles_khr_int64");
  // CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV of cl_nv_device_attribute_query.
  constexpr cl_device_info kComputeCapabilityMajorNV = 0x4000;
  cl_uint computeCapability =
      d.hasExtension("cl_nv_device_attribute_query")
          ? deviceValue<cl_uint>(cl, device, kComputeCapabilityMajorNV)
          : 0;
  d.nvPtxWmma = computeCapability >= 7;
  d.nvPtxCpAsync = computeCapability >= 8;
  d.subgroups =
      d.hasExtension("cl_khr_subgroups") ||
      d.hasExtension("cl_intel_subgroups") ||
      (d.version >= 210 &&
       deviceValue<cl_uint>(cl, device, CL_DEVICE_MAX_NUM_SUB_GROUPS) > 0);
  return d;
}

StatusOr<OpenCLLoader *> loadOpenCL() {
  auto *clp = new OpenCLLoader();
  OpenCLLoader &cl = *clp;
  auto fail = [&](Status status) -> StatusOr<OpenCLLoader *> {
    // Keep `cl` (leaked) only on success.
    if (cl.lib)
      dlclose(cl.lib);
    delete clp;
    return Status::unavailable(status.message())
        .withContext("OpenCL unavailable");
  };
  cl.lib = dlopen(kLoaderName, RTLD_NOW | RTLD_LOCAL);
  if (!cl.lib) {
    const char *err = dlerror();
    delete clp;
    return Status::unavailable(std::string("OpenCL unavailable: cannot load ") +
                               kLoaderName + " (" +
                               (err ? err : "unknown error") + ")");
  }
#define RESOLVE(name)                                                          \
  cl.name = reinterpret_cast<decltype(&::name)>(dlsym(cl.lib, #name));         \
  if (!cl.name)                                                                \
    return fail(Status::failure(std::string(kLoaderName) + " has no " #name));
  PLAIDML_CL_FUNCTIONS(RESOLVE)
#undef RESOLVE
  cl.clCreateProgramWithIL = reinterpret_cast<CreateProgramWithILFn>(
      dlsym(cl.lib, "clCreateProgramWithIL"));
  cl.clGetExtensionFunctionAddressForPlatform =
      reinterpret_cast<decltype(&::clGetExtensionFunctionAddressForPlatform)>(
          dlsym(cl.lib, "clGetExtensionFunctionAddressForPlatform"));

  cl_uint numPlatforms = 0;
  cl_int err = cl.clGetPlatformIDs(0, nullptr, &numPlatforms);
  // The ICD loader's answer when no ICD is installed: no devices.
  if (err == -1001 /*CL_PLATFORM_NOT_FOUND_KHR*/ || numPlatforms == 0)
    return clp;
  if (err != CL_SUCCESS)
    return fail(clFailure("clGetPlatformIDs", err));
  std::vector<cl_platform_id> platforms(numPlatforms);
  err = cl.clGetPlatformIDs(numPlatforms, platforms.data(), &numPlatforms);
  if (err != CL_SUCCESS)
    return fail(clFailure("clGetPlatformIDs", err));
  platforms.resize(numPlatforms);
  for (cl_platform_id platform : platforms) {
    // A platform whose devices cannot be listed (a broken ICD) is skipped,
    // so that it does not hide the others.
    cl_uint numDevices = 0;
    if (cl.clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr,
                          &numDevices) != CL_SUCCESS ||
        numDevices == 0)
      continue;
    std::vector<cl_device_id> devices(numDevices);
    if (cl.clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, numDevices,
                          devices.data(), &numDevices) != CL_SUCCESS)
      continue;
    devices.resize(numDevices);
    unsigned platformVersion =
        parseVersion(platformString(cl, platform, CL_PLATFORM_VERSION));
    for (cl_device_id device : devices) {
      cl.infos.push_back(queryDevice(
          cl, static_cast<unsigned>(cl.devices.size()), platform, device));
      cl.devices.emplace_back(platform, device);
      cl.platformVersions.push_back(platformVersion);
    }
  }
  return clp;
}

/// The loader and the devices, or why OpenCL is unavailable: computed once.
const StatusOr<OpenCLLoader *> &getLoader() {
  static const StatusOr<OpenCLLoader *> *loader =
      new StatusOr<OpenCLLoader *>(loadOpenCL());
  return *loader;
}

} // namespace

StatusOr<std::vector<OpenCLDeviceInfo>> plaidml::rt::enumerateOpenCLDevices() {
  const StatusOr<OpenCLLoader *> &loader = getLoader();
  if (!loader.ok())
    return loader.status();
  return (*loader)->infos;
}

//===----------------------------------------------------------------------===//
// OpenCLDevice
//===----------------------------------------------------------------------===//

struct OpenCLDevice::Impl {
  OpenCLLoader &cl;
  OpenCLDeviceInfo info;
  std::string label; // "opencl:0 (cpu-...)"
  cl_platform_id platform = nullptr;
  unsigned platformVersion = 0;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  /// Guards the queue and the arguments of kernels (clSetKernelArg is not
  /// thread-safe on one kernel).
  std::mutex mu;
  /// Built programs by (kind, options, source or IL); guarded by cacheMu,
  /// which is not held while a program builds.
  std::mutex cacheMu;
  std::unordered_map<std::string, std::shared_ptr<OpenCLProgram>> programs;
  /// The latest message of the context's error callback, added to the next
  /// failure's message.
  std::mutex notifyMu;
  std::string notification;

  explicit Impl(OpenCLLoader &cl) : cl(cl) {}

  /// clFailure() with the label and the driver's pending notification.
  Status fail(const char *call, cl_int code, const std::string &what = "");
  /// Builds `program`, caches it under `key`. A failure holds the build log
  /// and, when the log points at a line of `source` (OpenCL C), that line.
  StatusOr<std::shared_ptr<OpenCLProgram>>
  buildProgram(const std::string &key, cl_program program,
               const std::string &options, const std::string *source);
};

struct OpenCLBuffer::Impl {
  OpenCLDevice::Impl *device = nullptr;
  cl_mem mem = nullptr;
};

struct OpenCLProgram::Impl {
  OpenCLDevice::Impl *device = nullptr;
  cl_program program = nullptr;
};

struct OpenCLKernel::Impl {
  OpenCLDevice::Impl *device = nullptr;
  std::shared_ptr<OpenCLProgram> program;
  cl_kernel kernel = nullptr;
};

static void CL_CALLBACK notifyContextError(const char *message, const void *,
                                           size_t, void *user) {
  auto *impl = static_cast<OpenCLDevice::Impl *>(user);
  std::lock_guard<std::mutex> lock(impl->notifyMu);
  impl->notification = trimInfo(message ? message : "");
}

Status OpenCLDevice::Impl::fail(const char *call, cl_int code,
                                const std::string &what) {
  std::string context = what.empty() ? label : what + " on " + label;
  std::lock_guard<std::mutex> lock(notifyMu);
  if (!notification.empty()) {
    context += "; the driver says: " + notification;
    notification.clear();
  }
  return clFailure(call, code, context);
}

StatusOr<std::shared_ptr<OpenCLDevice>> OpenCLDevice::get(unsigned index) {
  static std::mutex mu;
  // Never destroyed: devices live as long as the process.
  static auto *devices = new std::map<unsigned, std::shared_ptr<OpenCLDevice>>;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = devices->find(index); it != devices->end())
    return it->second;
  const StatusOr<OpenCLLoader *> &loader = getLoader();
  if (!loader.ok())
    return loader.status();
  OpenCLLoader &cl = **loader;
  if (index >= cl.infos.size())
    return Status::notFound(
        "no OpenCL device opencl:" + std::to_string(index) + " (" +
        (cl.infos.empty() ? std::string("no OpenCL devices found")
                          : "found " + std::to_string(cl.infos.size()) +
                                ": opencl:0 to opencl:" +
                                std::to_string(cl.infos.size() - 1)) +
        ")");
  auto impl = std::unique_ptr<Impl>(new Impl(cl));
  impl->info = cl.infos[index];
  impl->platform = cl.devices[index].first;
  impl->device = cl.devices[index].second;
  impl->platformVersion = cl.platformVersions[index];
  impl->label =
      "opencl:" + std::to_string(index) + " (" + impl->info.name + ")";
  cl_context_properties props[] = {
      CL_CONTEXT_PLATFORM,
      reinterpret_cast<cl_context_properties>(impl->platform), 0};
  cl_int err = CL_SUCCESS;
  impl->context = cl.clCreateContext(props, 1, &impl->device,
                                     notifyContextError, impl.get(), &err);
  if (!impl->context || err != CL_SUCCESS)
    return clFailure("clCreateContext", err, impl->label);
  // In order: every command sees the results of those enqueued before it.
  impl->queue = cl.clCreateCommandQueue(impl->context, impl->device, 0, &err);
  if (!impl->queue || err != CL_SUCCESS) {
    cl.clReleaseContext(impl->context);
    return clFailure("clCreateCommandQueue", err, impl->label);
  }
  auto device =
      std::shared_ptr<OpenCLDevice>(new OpenCLDevice(std::move(impl)));
  devices->emplace(index, device);
  return device;
}

OpenCLDevice::OpenCLDevice(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}
OpenCLDevice::~OpenCLDevice() {
  // Devices live as long as the process (see get() and create()): keep the
  // Impl alive for any buffer, program or kernel that still points at it, and
  // reachable, so that a leak checker sees a live device rather than lost
  // memory (LeakSanitizer reported every device made by create()).
  static std::mutex mu;
  static auto *retired = new std::vector<std::unique_ptr<Impl>>;
  std::lock_guard<std::mutex> lock(mu);
  retired->push_back(std::move(impl));
}

const OpenCLDeviceInfo &OpenCLDevice::info() const { return impl->info; }
const std::string &OpenCLDevice::label() const { return impl->label; }

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

StatusOr<std::unique_ptr<OpenCLBuffer>>
OpenCLDevice::createBuffer(size_t bytes) {
  const OpenCLDeviceInfo &d = impl->info;
  if (d.maxAllocSize && bytes > d.maxAllocSize)
    return Status::failure("cannot create an OpenCL buffer of " +
                           formatBytes(bytes) + " on " + impl->label +
                           ": larger than its CL_DEVICE_MAX_MEM_ALLOC_SIZE (" +
                           formatBytes(d.maxAllocSize) + ")");
  if (d.globalMemory && bytes > d.globalMemory)
    return Status::failure("cannot create an OpenCL buffer of " +
                           formatBytes(bytes) + " on " + impl->label +
                           ": larger than its CL_DEVICE_GLOBAL_MEM_SIZE (" +
                           formatBytes(d.globalMemory) + ")");
  cl_int err = CL_SUCCESS;
  // OpenCL has no empty buffers.
  cl_mem mem = impl->cl.clCreateBuffer(impl->context, CL_MEM_READ_WRITE,
                                       bytes ? bytes : 4, nullptr, &err);
  if (!mem || err != CL_SUCCESS)
    return impl->fail("clCreateBuffer", err, formatBytes(bytes));
  auto b = std::make_unique<OpenCLBuffer::Impl>();
  b->device = impl.get();
  b->mem = mem;
  return std::unique_ptr<OpenCLBuffer>(new OpenCLBuffer(std::move(b), bytes));
}

OpenCLBuffer::OpenCLBuffer(std::unique_ptr<Impl> impl, size_t bytes)
    : impl(std::move(impl)), bytes(bytes) {}

OpenCLBuffer::~OpenCLBuffer() {
  // OpenCL frees the memory once the enqueued commands using it are done.
  impl->device->cl.clReleaseMemObject(impl->mem);
}

static Status checkRange(const OpenCLBuffer &buffer, size_t bytes,
                         size_t offset, const char *what) {
  if (offset > buffer.size() || bytes > buffer.size() - offset)
    return Status::failure(std::string(what) + " of " + std::to_string(bytes) +
                           " bytes at offset " + std::to_string(offset) +
                           " is outside an OpenCL buffer of " +
                           std::to_string(buffer.size()) + " bytes");
  return Status::success();
}

static Status checkOwner(const OpenCLDevice::Impl *owner,
                         const OpenCLDevice::Impl *device, const char *what) {
  if (owner != device)
    return Status::failure(std::string(what) +
                           " belongs to another OpenCL device than " +
                           device->label);
  return Status::success();
}

Status OpenCLDevice::upload(OpenCLBuffer &buffer, const void *data,
                            size_t bytes, size_t offset) {
  if (Status s = checkRange(buffer, bytes, offset, "upload"); !s.ok())
    return s;
  if (Status s = checkOwner(buffer.impl->device, impl.get(), "the buffer");
      !s.ok())
    return s;
  if (bytes == 0)
    return Status::success();
  std::lock_guard<std::mutex> lock(impl->mu);
  // Blocking: `data` may be reused when this returns. The in-order queue
  // runs it after the work enqueued before.
  if (cl_int err = impl->cl.clEnqueueWriteBuffer(impl->queue, buffer.impl->mem,
                                                 CL_TRUE, offset, bytes, data,
                                                 0, nullptr, nullptr))
    return impl->fail("clEnqueueWriteBuffer", err,
                      "upload of " + formatBytes(bytes));
  return Status::success();
}

Status OpenCLDevice::download(const OpenCLBuffer &buffer, void *data,
                              size_t bytes, size_t offset) {
  if (Status s = checkRange(buffer, bytes, offset, "download"); !s.ok())
    return s;
  if (Status s = checkOwner(buffer.impl->device, impl.get(), "the buffer");
      !s.ok())
    return s;
  std::lock_guard<std::mutex> lock(impl->mu);
  // Finish first, so that a failed kernel is reported as such rather than
  // as a failed read.
  if (cl_int err = impl->cl.clFinish(impl->queue))
    return impl->fail("clFinish", err);
  if (bytes == 0)
    return Status::success();
  if (cl_int err = impl->cl.clEnqueueReadBuffer(impl->queue, buffer.impl->mem,
                                                CL_TRUE, offset, bytes, data, 0,
                                                nullptr, nullptr))
    return impl->fail("clEnqueueReadBuffer", err,
                      "download of " + formatBytes(bytes));
  return Status::success();
}

Status OpenCLDevice::copy(OpenCLBuffer &dst, const OpenCLBuffer &src,
                          size_t bytes, size_t dstOffset, size_t srcOffset) {
  if (Status s = checkRange(src, bytes, srcOffset, "copy source"); !s.ok())
    return s;
  if (Status s = checkRange(dst, bytes, dstOffset, "copy destination"); !s.ok())
    return s;
  if (Status s = checkOwner(src.impl->device, impl.get(), "the source buffer");
      !s.ok())
    return s;
  if (Status s =
          checkOwner(dst.impl->device, impl.get(), "the destination buffer");
      !s.ok())
    return s;
  if (bytes == 0)
    return Status::success();
  if (&src == &dst && srcOffset < dstOffset + bytes &&
      dstOffset < srcOffset + bytes)
    return Status::failure("copy of " + std::to_string(bytes) +
                           " bytes from offset " + std::to_string(srcOffset) +
                           " to offset " + std::to_string(dstOffset) +
                           " within one OpenCL buffer overlaps");
  std::lock_guard<std::mutex> lock(impl->mu);
  if (cl_int err = impl->cl.clEnqueueCopyBuffer(
          impl->queue, src.impl->mem, dst.impl->mem, srcOffset, dstOffset,
          bytes, 0, nullptr, nullptr))
    return impl->fail("clEnqueueCopyBuffer", err,
                      "copy of " + formatBytes(bytes));
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Programs and kernels
//===----------------------------------------------------------------------===//

OpenCLProgram::OpenCLProgram(std::unique_ptr<Impl> impl,
                             std::vector<std::string> names, std::string log)
    : impl(std::move(impl)), names(std::move(names)), log(std::move(log)) {}

OpenCLProgram::~OpenCLProgram() {
  impl->device->cl.clReleaseProgram(impl->program);
}

/// The kernel names of a built program: CL_PROGRAM_KERNEL_NAMES (OpenCL
/// 1.2), else the names of all its kernels.
static std::vector<std::string> getKernelNames(const OpenCLLoader &cl,
                                               cl_program program) {
  size_t size = 0;
  if (cl.clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, 0, nullptr,
                          &size) == CL_SUCCESS &&
      size > 0) {
    std::string names(size, '\0');
    if (cl.clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, size,
                            names.data(), nullptr) == CL_SUCCESS)
      return splitWords(trimInfo(names), ';');
  }
  std::vector<std::string> result;
  cl_uint count = 0;
  if (cl.clCreateKernelsInProgram(program, 0, nullptr, &count) != CL_SUCCESS ||
      count == 0)
    return result;
  std::vector<cl_kernel> kernels(count);
  if (cl.clCreateKernelsInProgram(program, count, kernels.data(), nullptr) !=
      CL_SUCCESS)
    return result;
  for (cl_kernel kernel : kernels) {
    char name[256] = {};
    if (cl.clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof(name) - 1,
                           name, nullptr) == CL_SUCCESS)
      result.push_back(name);
    cl.clReleaseKernel(kernel);
  }
  return result;
}

/// The first "<file>:LINE:COLUMN:" of a build log (Clang's, PoCL's and most
/// drivers' form), quoted from `source`: "line 2: `  x[0] = y;`". Empty when
/// there is none or it is not a line of `source`.
static std::string quoteFirstErrorLine(const std::string &log,
                                       const std::string &source) {
  for (size_t pos = log.find(':'); pos != std::string::npos;
       pos = log.find(':', pos + 1)) {
    size_t lineEnd = log.find_first_not_of("0123456789", pos + 1);
    if (lineEnd == std::string::npos || lineEnd == pos + 1 ||
        lineEnd - pos > 8 || log[lineEnd] != ':')
      continue;
    size_t colEnd = log.find_first_not_of("0123456789", lineEnd + 1);
    if (colEnd == std::string::npos || colEnd == lineEnd + 1 ||
        log[colEnd] != ':')
      continue;
    unsigned line = static_cast<unsigned>(
        std::stoul(log.substr(pos + 1, lineEnd - pos - 1)));
    size_t start = 0;
    for (unsigned l = 1; l < line && start != std::string::npos; ++l) {
      start = source.find('\n', start);
      if (start != std::string::npos)
        ++start;
    }
    if (line == 0 || start == std::string::npos || start >= source.size())
      return "";
    size_t end = source.find('\n', start);
    std::string text = source.substr(
        start, end == std::string::npos ? std::string::npos : end - start);
    if (!text.empty() && text.back() == '\r')
      text.pop_back();
    return "line " + std::to_string(line) + ": `" + text + "`";
  }
  return "";
}

/// PLAIDML_OPENCL_DUMP=DIR: each program the device builds is written to
/// DIR as `opencl-N.cl` (its OpenCL C) or `opencl-N.spv` (its SPIR-V),
/// `opencl-N.bin` (what CL_PROGRAM_BINARIES gives: PTX on NVIDIA's
/// driver) and `opencl-N.log` (the options and the build log), one line on
/// stderr per program. PLAIDML_OPENCL_OPTIONS adds build options (NVIDIA:
/// `-cl-nv-verbose` puts each kernel's registers into the log). Diagnostics
/// for kernel work (docs/OpenCLRuntime.md); a failed write is reported, not
/// fatal.
static std::string extraBuildOptions(const std::string &options) {
  const char *extra = std::getenv("PLAIDML_OPENCL_OPTIONS");
  if (!extra || !extra[0])
    return options;
  return options.empty() ? std::string(extra) : options + " " + extra;
}

static void dumpProgram(OpenCLLoader &cl, cl_program program,
                        const std::string &key, const std::string &options,
                        const std::string &log, const std::string &label) {
  const char *dir = std::getenv("PLAIDML_OPENCL_DUMP");
  if (!dir || !dir[0])
    return;
  static std::mutex mu;
  static unsigned counter = 0;
  std::lock_guard<std::mutex> lock(mu);
  std::string base = std::string(dir) + "/opencl-" + std::to_string(counter++);
  // The key is "source\n" or "il\n", the options, a NUL, the code.
  size_t nul = key.find('\0');
  std::string_view code = nul == std::string::npos
                              ? std::string_view()
                              : std::string_view(key).substr(nul + 1);
  bool isSource = key.rfind("source\n", 0) == 0;
  std::string binary;
  size_t binarySize = 0;
  if (cl.clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(size_t),
                          &binarySize, nullptr) == CL_SUCCESS &&
      binarySize > 0) {
    binary.assign(binarySize, '\0');
    unsigned char *ptr = reinterpret_cast<unsigned char *>(binary.data());
    if (cl.clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(ptr), &ptr,
                            nullptr) != CL_SUCCESS)
      binary.clear();
  }
  std::string error;
  std::string written = base + (isSource ? ".cl" : ".spv");
  bool ok = detail::writeWholeFile(written, {code}, error) &&
            detail::writeWholeFile(
                base + ".log", {label, "\noptions: ", options, "\n", log, "\n"},
                error) &&
            (binary.empty() ||
             detail::writeWholeFile(base + ".bin", {binary}, error));
  if (ok)
    std::fprintf(stderr, "PLAIDML_OPENCL_DUMP: %s (%s)\n", written.c_str(),
                 binary.empty() ? "no binary" : "binary in .bin");
  else
    std::fprintf(stderr, "PLAIDML_OPENCL_DUMP: cannot write %s.*: %s\n",
                 base.c_str(), error.c_str());
}

StatusOr<std::shared_ptr<OpenCLProgram>>
OpenCLDevice::Impl::buildProgram(const std::string &key, cl_program program,
                                 const std::string &baseOptions,
                                 const std::string *source) {
  std::string options = extraBuildOptions(baseOptions);
  cl_int err =
      cl.clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr);
  std::string log;
  size_t size = 0;
  if (cl.clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0,
                               nullptr, &size) == CL_SUCCESS &&
      size > 0) {
    log.assign(size, '\0');
    if (cl.clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size,
                                 log.data(), nullptr) != CL_SUCCESS)
      log.clear();
    log = trimInfo(log);
  }
  dumpProgram(cl, program, key, options, log, label);
  if (err != CL_SUCCESS) {
    cl.clReleaseProgram(program);
    Status status =
        fail("clBuildProgram", err,
             options.empty() ? std::string() : "options '" + options + "'");
    if (log.empty())
      return status;
    std::string quoted = source ? quoteFirstErrorLine(log, *source) : "";
    return Status::failure(status.message() + "; build log:\n" + log +
                           (quoted.empty() ? "" : "\n" + quoted));
  }
  auto p = std::make_unique<OpenCLProgram::Impl>();
  p->device = this;
  p->program = program;
  std::vector<std::string> names = getKernelNames(cl, program);
  auto built = std::shared_ptr<OpenCLProgram>(
      new OpenCLProgram(std::move(p), std::move(names), std::move(log)));
  std::lock_guard<std::mutex> lock(cacheMu);
  // Another thread may have built the same program meanwhile: keep one.
  auto [it, inserted] = programs.emplace(key, built);
  return it->second;
}

/// PLAIDML_OPENCL_SOURCE=DIR: a program whose OpenCL C names its module
/// (`// OpenCL C 1.2 of gpu.module @NAME`, as the translation writes) is
/// built from DIR/NAME.cl instead where that file exists, with one line on
/// stderr: hand edits of a dumped kernel run in place of the compiled one
/// (kernel experiments, docs/OpenCLRuntime.md). A file that cannot be read
/// is reported there and the program's own source used.
static std::string replacementSource(const std::string &source) {
  const char *dir = std::getenv("PLAIDML_OPENCL_SOURCE");
  if (!dir || !dir[0])
    return source;
  static constexpr std::string_view kMarker = "gpu.module @";
  size_t eol = source.find('\n');
  size_t at = source.substr(0, eol).find(kMarker);
  if (at == std::string::npos)
    return source;
  size_t begin = at + kMarker.size();
  size_t end = source.find_first_of(" ,\n", begin);
  std::string path =
      std::string(dir) + "/" +
      source.substr(begin, end == std::string::npos ? std::string::npos
                                                    : end - begin) +
      ".cl";
  std::string text, why;
  if (!detail::readWholeFile(path, text, why)) {
    if (errno == ENOENT)
      return source;
    std::fprintf(stderr, "PLAIDML_OPENCL_SOURCE: cannot read %s: %s\n",
                 path.c_str(), why.c_str());
    return source;
  }
  std::fprintf(stderr, "PLAIDML_OPENCL_SOURCE: %s\n", path.c_str());
  return text;
}

StatusOr<std::shared_ptr<OpenCLProgram>>
OpenCLDevice::createProgramFromSource(const std::string &compiledSource,
                                      const std::string &options) {
  std::string source = replacementSource(compiledSource);
  std::string key = "source\n" + options + '\0' + source;
  {
    std::lock_guard<std::mutex> lock(impl->cacheMu);
    if (auto it = impl->programs.find(key); it != impl->programs.end())
      return it->second;
  }
  const char *text = source.c_str();
  size_t length = source.size();
  cl_int err = CL_SUCCESS;
  cl_program program = impl->cl.clCreateProgramWithSource(impl->context, 1,
                                                          &text, &length, &err);
  if (!program || err != CL_SUCCESS)
    return impl->fail("clCreateProgramWithSource", err);
  return impl->buildProgram(key, program, options, &source);
}

StatusOr<std::shared_ptr<OpenCLProgram>>
OpenCLDevice::createProgramFromIL(const std::vector<uint32_t> &words,
                                  const std::string &options) {
  const OpenCLDeviceInfo &d = impl->info;
  if (d.ilVersions.empty())
    return Status::failure(
        "cannot create an OpenCL program from IL on " + impl->label +
        ": the device has no IL support (CL_DEVICE_IL_VERSION is empty); "
        "give it OpenCL C source instead");
  if (words.empty())
    return Status::failure("cannot create an OpenCL program from IL on " +
                           impl->label + ": the IL module is empty");
  std::string key = "il\n" + options + '\0' +
                    std::string(reinterpret_cast<const char *>(words.data()),
                                words.size() * sizeof(uint32_t));
  {
    std::lock_guard<std::mutex> lock(impl->cacheMu);
    if (auto it = impl->programs.find(key); it != impl->programs.end())
      return it->second;
  }
  // OpenCL 2.1 core where both platform and device have it, else the
  // cl_khr_il_program extension.
  OpenCLLoader &cl = impl->cl;
  const char *call = "clCreateProgramWithIL";
  CreateProgramWithILFn create = nullptr;
  if (d.version >= 210 && impl->platformVersion >= 210)
    create = cl.clCreateProgramWithIL;
  if (!create && d.hasExtension("cl_khr_il_program") &&
      cl.clGetExtensionFunctionAddressForPlatform) {
    create = reinterpret_cast<CreateProgramWithILFn>(
        cl.clGetExtensionFunctionAddressForPlatform(
            impl->platform, "clCreateProgramWithILKHR"));
    call = "clCreateProgramWithILKHR";
  }
  if (!create)
    return Status::failure(
        "cannot create an OpenCL program from IL on " + impl->label +
        ": neither clCreateProgramWithIL (OpenCL 2.1) nor "
        "clCreateProgramWithILKHR (cl_khr_il_program) is available");
  cl_int err = CL_SUCCESS;
  cl_program program = create(impl->context, words.data(),
                              words.size() * sizeof(uint32_t), &err);
  if (!program || err != CL_SUCCESS)
    return impl->fail(call, err);
  return impl->buildProgram(key, program, options, nullptr);
}

StatusOr<std::unique_ptr<OpenCLKernel>>
OpenCLDevice::createKernel(const std::shared_ptr<OpenCLProgram> &program,
                           const std::string &name) {
  if (!program)
    return Status::failure("no OpenCL program to take kernel '" + name +
                           "' from");
  if (Status s = checkOwner(program->impl->device, impl.get(), "the program");
      !s.ok())
    return s;
  const std::vector<std::string> &names = program->kernelNames();
  auto missing = [&] {
    return Status::failure("no kernel '" + name +
                           "' in the OpenCL program (it has " +
                           (names.empty() ? "none" : join(names, ", ")) + ")");
  };
  if (!names.empty() &&
      std::find(names.begin(), names.end(), name) == names.end())
    return missing();
  OpenCLLoader &cl = impl->cl;
  cl_int err = CL_SUCCESS;
  cl_kernel kernel =
      cl.clCreateKernel(program->impl->program, name.c_str(), &err);
  if (err == CL_INVALID_KERNEL_NAME)
    return missing();
  if (!kernel || err != CL_SUCCESS)
    return impl->fail("clCreateKernel", err, "kernel '" + name + "'");
  cl_uint numArgs = 0;
  size_t maxGroup = 0;
  std::array<size_t, 3> required = {0, 0, 0};
  if ((err = cl.clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof(numArgs),
                                &numArgs, nullptr)) != CL_SUCCESS ||
      (err = cl.clGetKernelWorkGroupInfo(
           kernel, impl->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(maxGroup),
           &maxGroup, nullptr)) != CL_SUCCESS ||
      (err = cl.clGetKernelWorkGroupInfo(
           kernel, impl->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
           sizeof(size_t) * 3, required.data(), nullptr)) != CL_SUCCESS) {
    cl.clReleaseKernel(kernel);
    return impl->fail("clGetKernelInfo", err, "kernel '" + name + "'");
  }
  auto k = std::make_unique<OpenCLKernel::Impl>();
  k->device = impl.get();
  k->program = program;
  k->kernel = kernel;
  return std::unique_ptr<OpenCLKernel>(
      new OpenCLKernel(std::move(k), name, numArgs, maxGroup, required));
}

OpenCLKernel::OpenCLKernel(std::unique_ptr<Impl> impl, std::string name,
                           unsigned args, size_t maxGroup,
                           std::array<size_t, 3> required)
    : impl(std::move(impl)), kernelName(std::move(name)), args(args),
      maxGroup(maxGroup), required(required) {}

OpenCLKernel::~OpenCLKernel() {
  // Enqueued launches keep their own reference to the kernel.
  impl->device->cl.clReleaseKernel(impl->kernel);
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

Status OpenCLDevice::dispatch(const OpenCLKernel &kernel,
                              const std::vector<OpenCLBuffer *> &buffers,
                              std::array<size_t, 3> global,
                              std::array<size_t, 3> local,
                              const std::vector<OpenCLScalar> &scalars) {
  const std::string &kname = kernel.name();
  if (Status s = checkOwner(kernel.impl->device, impl.get(),
                            ("kernel '" + kname + "'").c_str());
      !s.ok())
    return s;
  size_t numArgs = buffers.size() + scalars.size();
  if (numArgs != kernel.numArgs())
    return Status::failure("kernel '" + kname + "' takes " +
                           std::to_string(kernel.numArgs()) +
                           " arguments, got " + std::to_string(numArgs) + " (" +
                           std::to_string(buffers.size()) + " buffers and " +
                           std::to_string(scalars.size()) + " scalars)");
  for (size_t i = 0; i < buffers.size(); ++i)
    if (!buffers[i] || buffers[i]->impl->device != impl.get())
      return Status::failure("buffer " + std::to_string(i) + " of kernel '" +
                             kname +
                             "' is null or belongs to another OpenCL device");
  for (size_t i = 0; i < scalars.size(); ++i)
    if (!scalars[i].data || scalars[i].size == 0)
      return Status::failure("scalar " + std::to_string(i) + " of kernel '" +
                             kname + "' has no data");

  bool driverChooses = local[0] == 0 && local[1] == 0 && local[2] == 0;
  const OpenCLDeviceInfo &d = impl->info;
  auto sizes = [](const std::array<size_t, 3> &s) {
    return std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" +
           std::to_string(s[2]);
  };
  if (!driverChooses) {
    size_t items = 1;
    for (int i = 0; i < 3; ++i) {
      if (local[i] == 0)
        return Status::failure("local size " + sizes(local) + " of kernel '" +
                               kname +
                               "' has a zero (give all three sizes, "
                               "or 0x0x0 to let the driver choose)");
      if (d.maxWorkItemSizes[i] && local[i] > d.maxWorkItemSizes[i])
        return Status::failure(
            "local size " + sizes(local) + " of kernel '" + kname +
            "' exceeds the " + std::to_string(d.maxWorkItemSizes[i]) +
            " work items in " + "xyz"[i] + " of " + impl->label);
      if (global[i] % local[i] != 0)
        return Status::failure(
            "global size " + sizes(global) + " of kernel '" + kname +
            "' is not a multiple of its local size " + sizes(local));
      items *= local[i];
    }
    if (kernel.maxWorkgroupSize() && items > kernel.maxWorkgroupSize())
      return Status::failure("workgroup of " + std::to_string(items) +
                             " work items (" + sizes(local) + ") exceeds the " +
                             std::to_string(kernel.maxWorkgroupSize()) +
                             " that kernel '" + kname + "' can use on " +
                             impl->label);
  }
  const std::array<size_t, 3> &required = kernel.requiredWorkgroupSize();
  if (required[0] && local != required)
    return Status::failure("kernel '" + kname + "' requires a local size of " +
                           sizes(required) + ", got " + sizes(local));
  if (global[0] == 0 || global[1] == 0 || global[2] == 0)
    return Status::success();

  std::lock_guard<std::mutex> lock(impl->mu);
  OpenCLLoader &cl = impl->cl;
  cl_kernel k = kernel.impl->kernel;
  for (size_t i = 0; i < buffers.size(); ++i)
    if (cl_int err = cl.clSetKernelArg(k, static_cast<cl_uint>(i),
                                       sizeof(cl_mem), &buffers[i]->impl->mem))
      return impl->fail("clSetKernelArg", err,
                        "argument " + std::to_string(i) + " (buffer " +
                            std::to_string(i) + ") of kernel '" + kname + "'");
  for (size_t i = 0; i < scalars.size(); ++i) {
    size_t arg = buffers.size() + i;
    if (cl_int err = cl.clSetKernelArg(k, static_cast<cl_uint>(arg),
                                       scalars[i].size, scalars[i].data))
      return impl->fail("clSetKernelArg", err,
                        "argument " + std::to_string(arg) + " (scalar " +
                            std::to_string(i) + ", " +
                            std::to_string(scalars[i].size) +
                            " bytes) of kernel '" + kname + "'");
  }
  if (cl_int err = cl.clEnqueueNDRangeKernel(
          impl->queue, k, 3, nullptr, global.data(),
          driverChooses ? nullptr : local.data(), 0, nullptr, nullptr))
    return impl->fail("clEnqueueNDRangeKernel", err,
                      "kernel '" + kname + "', global " + sizes(global) +
                          ", local " + sizes(local));
  return Status::success();
}

Status OpenCLDevice::launch(const OpenCLKernel &kernel,
                            const std::vector<OpenCLBuffer *> &buffers,
                            std::array<size_t, 3> grid,
                            std::array<size_t, 3> block,
                            const std::vector<OpenCLScalar> &scalars) {
  std::array<size_t, 3> global;
  for (int i = 0; i < 3; ++i) {
    if (block[i] == 0)
      return Status::failure("launch of kernel '" + kernel.name() +
                             "' with a block size of 0 in " + "xyz"[i]);
    if (grid[i] > SIZE_MAX / block[i])
      return Status::failure("launch of kernel '" + kernel.name() +
                             "': " + std::to_string(grid[i]) +
                             " workgroups of " + std::to_string(block[i]) +
                             " in " + "xyz"[i] + " overflow the global size");
    global[i] = grid[i] * block[i];
  }
  return dispatch(kernel, buffers, global, block, scalars);
}

Status OpenCLDevice::synchronize() {
  std::lock_guard<std::mutex> lock(impl->mu);
  if (cl_int err = impl->cl.clFinish(impl->queue))
    return impl->fail("clFinish", err);
  return Status::success();
}

#endif // PLAIDML_HAVE_OPENCL
