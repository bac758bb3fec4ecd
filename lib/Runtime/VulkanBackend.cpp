//===- VulkanBackend.cpp - The launch ABI on a Vulkan device --------------===//
//
// GpuBackend over VulkanDevice: modules are SPIR-V words, requirements are
// SPIR-V capabilities and extensions (VulkanDeviceInfo::supportsSpirv), the
// workgroup size is the module's LocalSize (the launch's block size is only
// checked against the device's limit).
//
//===----------------------------------------------------------------------===//

#include "GpuBackend.h"

#include "plaidml/Runtime/Vulkan.h"

#include <cstring>

using namespace plaidml::rt;

namespace {

struct VulkanBackendModule : GpuBackendModule {
  std::vector<uint32_t> words;
  std::string describe() const override { return "SPIR-V"; }
};

struct VulkanBackendKernel : GpuBackendKernel {
  std::unique_ptr<VulkanKernel> kernel;
  unsigned numBindings() const override { return kernel->numBindings(); }
};

class VulkanBackend : public DeviceBackendBase<VulkanDevice, VulkanBuffer> {
public:
  VulkanBackend(std::shared_ptr<VulkanDevice> device, std::string label)
      : DeviceBackendBase(std::move(device)), name(std::move(label)) {}

  const std::string &label() const override { return name; }

  std::string missingRequirements(
      const std::vector<std::string> &requirements) const override {
    std::string missing;
    for (const std::string &requirement : requirements)
      if (!device->info().supportsSpirv(requirement))
        missing += (missing.empty() ? "" : ", ") + requirement;
    return missing;
  }
  uint64_t maxWorkgroupCount(unsigned dim) const override {
    return device->info().maxWorkgroupCount[dim];
  }
  uint64_t maxWorkgroupInvocations() const override {
    return device->info().maxWorkgroupInvocations;
  }

  StatusOr<std::unique_ptr<GpuBackendModule>> loadModule(const char *data,
                                                         size_t size) override {
    if (size % 4 != 0)
      return Status::failure("kernel module of " + std::to_string(size) +
                             " bytes is not SPIR-V (not a multiple of 4)");
    auto module = std::make_unique<VulkanBackendModule>();
    module->words.resize(size / 4);
    std::memcpy(module->words.data(), data, size);
    return std::unique_ptr<GpuBackendModule>(std::move(module));
  }

  StatusOr<std::unique_ptr<GpuBackendKernel>>
  createKernel(GpuBackendModule &module, const std::string &entry,
               unsigned numBindings) override {
    StatusOr<std::unique_ptr<VulkanKernel>> kernel = device->createKernel(
        static_cast<VulkanBackendModule &>(module).words, entry, numBindings);
    if (!kernel.ok())
      return kernel.status();
    auto result = std::make_unique<VulkanBackendKernel>();
    result->kernel = std::move(*kernel);
    return std::unique_ptr<GpuBackendKernel>(std::move(result));
  }

  Status dispatch(GpuBackendKernel &kernel,
                  const std::vector<GpuBackendBuffer *> &buffers,
                  std::array<uint32_t, 3> grid,
                  std::array<uint32_t, 3>) override {
    return device->dispatch(*static_cast<VulkanBackendKernel &>(kernel).kernel,
                            unwrapAll(buffers), grid[0], grid[1], grid[2]);
  }

private:
  std::string name;
};
} // namespace

StatusOr<std::unique_ptr<GpuBackend>>
plaidml::rt::openVulkanBackend(unsigned index) {
  StatusOr<std::shared_ptr<VulkanDevice>> device = VulkanDevice::get(index);
  if (!device.ok())
    return device.status();
  std::string label =
      "vulkan:" + std::to_string(index) + " (" + (*device)->info().name + ")";
  return std::unique_ptr<GpuBackend>(
      new VulkanBackend(std::move(*device), std::move(label)));
}
