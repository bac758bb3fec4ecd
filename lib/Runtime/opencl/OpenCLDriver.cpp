//===- OpenCLDriver.cpp - The opencl driver -------------------------------===//
//
// The "opencl" driver: devices "opencl:N" are GpuDevices over a GpuBackend
// that forwards to OpenCLDevice. A kernel module is a kernel bundle (SPIR-V
// and OpenCL C of the same kernels) or a single OpenCL C text or SPIR-V
// module (KernelBundle.h); loading it picks the format this device builds
// (chooseOpenCLKernelFormat: SPIR-V with clCreateProgramWithIL where the
// device takes it, else OpenCL C, built with -cl-std=CL1.2 so that OpenCL
// 1.2 devices run it; or the format PLAIDML_OPENCL_KERNEL_FORMAT forces).
// Requirements are OpenCL extension names (cl_khr_fp64, cl_khr_fp16, ...),
// "int64", "spirv" for kernel modules that exist only as SPIR-V, and
// "nv-ptx-wmma" and "nv-ptx-cp-async" for OpenCL C with PTX matrix
// instructions and asynchronous copies (NVIDIA, compute capability 7.0 and
// 8.0 or later). The
// launch's grid and block become the NDRange. The driver takes one
// executable option, `kernel-format` (spirv, opencl-c or auto), which wins
// over PLAIDML_OPENCL_KERNEL_FORMAT.
//
//===----------------------------------------------------------------------===//

#include "Drivers.h"
#include "gpu/GpuDevice.h"
#include "opencl/OpenCLDevice.h"

#include <cstdlib>

#include <cstring>

using namespace plaidml::rt;

namespace {

struct OpenCLBackendKernel : GpuBackendKernel {
  std::unique_ptr<OpenCLKernel> kernel;
  unsigned bindings = 0;
  unsigned numBindings() const override { return bindings; }
};

struct OpenCLBackendModule : GpuBackendModule {
  std::string name;
  KernelFormatChoice choice;
  /// SPIR-V bytes or OpenCL C text, by choice.format.
  std::string code;

  std::string getName() const override { return name; }
  std::string describe() const override {
    return std::string(getKernelFormatName(choice.format)) + " (" +
           choice.reason + ")";
  }
};

/// The kernel format an executable asks for.
struct OpenCLModuleOptions : GpuModuleOptions {
  KernelFormatPreference preference;
};

class OpenCLBackend : public DeviceBackendBase<OpenCLDevice, OpenCLBuffer> {
public:
  explicit OpenCLBackend(std::shared_ptr<OpenCLDevice> device)
      : DeviceBackendBase(std::move(device)) {}

  /// `kernel-format`, else the environment.
  StatusOr<std::unique_ptr<GpuModuleOptions>>
  parseOptions(const ExecutableOptions &options) const override {
    auto result = std::make_unique<OpenCLModuleOptions>();
    for (const auto &[key, value] : options)
      if (key != "kernel-format")
        return Status::invalidArgument("the opencl driver has no option '" +
                                       key + "' (it takes kernel-format)");
    StatusOr<KernelFormatPreference> preference = Status::success();
    if (auto it = options.find("kernel-format"); it != options.end()) {
      preference = KernelFormatPreference::parse(it->second, "kernel-format");
    } else {
      const char *env = std::getenv(kOpenCLKernelFormatVariable);
      preference = KernelFormatPreference::parse(env ? env : "",
                                                 kOpenCLKernelFormatVariable);
    }
    if (!preference.ok())
      return preference.status();
    result->preference = std::move(*preference);
    return std::unique_ptr<GpuModuleOptions>(std::move(result));
  }

  const std::string &label() const override { return device->label(); }

  std::string missingRequirements(
      const std::vector<std::string> &requirements) const override {
    const OpenCLDeviceInfo &info = device->info();
    std::string missing;
    for (const std::string &r : requirements) {
      bool has = r == "cl_khr_fp64"       ? info.fp64
                 : r == "cl_khr_fp16"     ? info.fp16
                 : r == "int64"           ? info.int64
                 : r == "spirv"           ? info.takesSpirv()
                 : r == "nv-ptx-wmma"     ? info.nvPtxWmma
                 : r == "nv-ptx-cp-async" ? info.nvPtxCpAsync
                                          : info.hasExtension(r);
      if (!has)
        missing += (missing.empty() ? "" : ", ") + r;
    }
    return missing;
  }
  uint64_t maxWorkgroupCount(unsigned dim) const override {
    // OpenCL bounds the global size only by size_t.
    return UINT32_MAX;
  }
  uint64_t maxWorkgroupInvocations() const override {
    return device->info().maxWorkgroupSize;
  }

  StatusOr<std::unique_ptr<GpuBackendModule>>
  loadModule(const char *data, size_t size,
             const GpuModuleOptions &options) override {
    const KernelFormatPreference &preference =
        static_cast<const OpenCLModuleOptions &>(options).preference;
    StatusOr<KernelBundle> bundle = decodeKernelModule(data, size);
    if (!bundle.ok())
      return bundle.status();
    StatusOr<KernelFormatChoice> choice = chooseOpenCLKernelFormat(
        *bundle, device->label(), device->info().takesSpirv(), preference);
    if (!choice.ok())
      return choice.status();
    auto module = std::make_unique<OpenCLBackendModule>();
    module->name = bundle->describeName();
    module->choice = std::move(*choice);
    module->code = std::move(module->choice.format == KernelFormat::SPIRV
                                 ? *bundle->spirv
                                 : *bundle->openclC);
    return std::unique_ptr<GpuBackendModule>(std::move(module));
  }

  StatusOr<std::unique_ptr<GpuBackendKernel>>
  createKernel(GpuBackendModule &backendModule, const std::string &name,
               unsigned numBindings) override {
    auto &module = static_cast<OpenCLBackendModule &>(backendModule);
    StatusOr<std::shared_ptr<OpenCLProgram>> program = Status::success();
    if (module.choice.format == KernelFormat::SPIRV) {
      std::vector<uint32_t> words(module.code.size() / 4);
      std::memcpy(words.data(), module.code.data(), words.size() * 4);
      program = device->createProgramFromIL(words);
    } else {
      program = device->createProgramFromSource(module.code, "-cl-std=CL1.2");
    }
    if (!program.ok())
      return program.status();
    StatusOr<std::unique_ptr<OpenCLKernel>> kernel =
        device->createKernel(*program, name);
    if (!kernel.ok())
      return kernel.status();
    if ((*kernel)->numArgs() != numBindings)
      return Status::failure("kernel '" + name + "' takes " +
                             std::to_string((*kernel)->numArgs()) +
                             " arguments, the launch passes " +
                             std::to_string(numBindings) + " buffers");
    auto result = std::make_unique<OpenCLBackendKernel>();
    result->kernel = std::move(*kernel);
    result->bindings = numBindings;
    return std::unique_ptr<GpuBackendKernel>(std::move(result));
  }

  Status dispatch(GpuBackendKernel &kernel,
                  const std::vector<GpuBackendBuffer *> &buffers,
                  std::array<uint32_t, 3> grid,
                  std::array<uint32_t, 3> block) override {
    if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
      return Status::success();
    return device->launch(*static_cast<OpenCLBackendKernel &>(kernel).kernel,
                          unwrapAll(buffers), {grid[0], grid[1], grid[2]},
                          {block[0], block[1], block[2]});
  }
};

/// The backend of "opencl:index".
StatusOr<std::unique_ptr<GpuBackend>> openOpenCLBackend(unsigned index) {
  StatusOr<std::shared_ptr<OpenCLDevice>> device = OpenCLDevice::get(index);
  if (!device.ok())
    return device.status();
  return std::unique_ptr<GpuBackend>(new OpenCLBackend(std::move(*device)));
}

/// The features of `device`: its extensions, and the names of the manifest's
/// `requires` line for what OpenCL reports otherwise.
std::vector<std::string> getFeatures(const OpenCLDeviceInfo &device) {
  std::vector<std::string> features = device.extensions;
  auto add = [&](bool has, const char *name) {
    if (has && !device.hasExtension(name))
      features.push_back(name);
  };
  add(device.fp64, "cl_khr_fp64");
  add(device.fp16, "cl_khr_fp16");
  add(device.int64, "int64");
  add(device.takesSpirv(), "spirv");
  add(device.nvPtxWmma, "nv-ptx-wmma");
  add(device.nvPtxCpAsync, "nv-ptx-cp-async");
  return features;
}

StatusOr<std::vector<DeviceInfo>> enumerate() {
  StatusOr<std::vector<OpenCLDeviceInfo>> devices = enumerateOpenCLDevices();
  if (!devices.ok())
    return devices.status();
  std::vector<DeviceInfo> infos;
  for (const OpenCLDeviceInfo &device : *devices) {
    DeviceInfo info;
    info.name = DeviceName{"opencl", device.index};
    info.model = device.name;
    info.description = device.describe();
    info.features = getFeatures(device);
    infos.push_back(std::move(info));
  }
  return infos;
}
} // namespace

std::unique_ptr<Driver> plaidml::rt::createOpenCLDriver() {
  return std::make_unique<GpuDriver>(
      "opencl", enumerate, openOpenCLBackend,
      std::vector<std::string>{"cl_khr_fp64", "cl_khr_fp16", "int64", "spirv",
                               "nv-ptx-wmma", "nv-ptx-cp-async"});
}
