//===- OpenCLBackend.cpp - The launch ABI on an OpenCL device -------------===//
//
// GpuBackend over OpenCLDevice. A kernel module is OpenCL C text (built with
// -cl-std=CL1.2, so OpenCL 1.2 devices run it) or SPIR-V words (recognized
// by the magic number; built with clCreateProgramWithIL where the device
// reports IL support, otherwise a message saying to compile OpenCL C).
// Requirements are OpenCL extension names (cl_khr_fp64, cl_khr_fp16, ...)
// and "SPIR-V" for IL. The launch's grid and block become the NDRange.
//
//===----------------------------------------------------------------------===//

#include "GpuBackend.h"

#include "plaidml/Runtime/OpenCL.h"

#include <cstring>

using namespace plaidml::rt;

namespace {

struct OpenCLBackendKernel : GpuBackendKernel {
  std::unique_ptr<OpenCLKernel> kernel;
  unsigned bindings = 0;
  unsigned numBindings() const override { return bindings; }
};

bool isSpirv(const std::vector<char> &module) {
  uint32_t magic = 0;
  if (module.size() < 4)
    return false;
  std::memcpy(&magic, module.data(), 4);
  return magic == 0x07230203;
}

class OpenCLBackend : public DeviceBackendBase<OpenCLDevice, OpenCLBuffer> {
public:
  explicit OpenCLBackend(std::shared_ptr<OpenCLDevice> device)
      : DeviceBackendBase(std::move(device)) {}

  const std::string &label() const override { return device->label(); }

  std::string missingRequirements(
      const std::vector<std::string> &requirements) const override {
    const OpenCLDeviceInfo &info = device->info();
    std::string missing;
    for (const std::string &r : requirements) {
      bool has = r == "cl_khr_fp64"   ? info.fp64
                 : r == "cl_khr_fp16" ? info.fp16
                 : r == "int64"       ? info.int64
                 : r == "SPIR-V"      ? !info.ilVersions.empty()
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

  StatusOr<std::unique_ptr<GpuBackendKernel>>
  createKernel(const std::vector<char> &module, const std::string &name,
               unsigned numBindings) override {
    StatusOr<std::shared_ptr<OpenCLProgram>> program = Status::success();
    if (isSpirv(module)) {
      if (device->info().ilVersions.empty())
        return Status::failure(
            "the kernels are SPIR-V, which " + device->label() +
            " cannot build (it reports no IL support); compile them as "
            "OpenCL C");
      std::vector<uint32_t> words(module.size() / 4);
      std::memcpy(words.data(), module.data(), words.size() * 4);
      program = device->createProgramFromIL(words);
    } else {
      // The artifact's text is NUL-terminated.
      size_t length = strnlen(module.data(), module.size());
      program = device->createProgramFromSource(
          std::string(module.data(), length), "-cl-std=CL1.2");
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
} // namespace

StatusOr<std::unique_ptr<GpuBackend>>
plaidml::rt::openOpenCLBackend(unsigned index) {
  StatusOr<std::shared_ptr<OpenCLDevice>> device = OpenCLDevice::get(index);
  if (!device.ok())
    return device.status();
  return std::unique_ptr<GpuBackend>(new OpenCLBackend(std::move(*device)));
}
