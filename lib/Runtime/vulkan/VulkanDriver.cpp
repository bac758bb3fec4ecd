//===- VulkanDriver.cpp - The vulkan driver -------------------------------===//
//
// The "vulkan" driver: devices "vulkan:N" are GpuDevices over a GpuBackend
// that forwards to VulkanDevice. Modules are SPIR-V words, requirements and
// features are SPIR-V capabilities and extensions
// (VulkanDeviceInfo::supportsSpirv), the workgroup size is the module's
// LocalSize (the launch's block size is only checked against the device's
// limit). The driver takes no executable options.
//
//===----------------------------------------------------------------------===//

#include "Drivers.h"
#include "gpu/GpuDevice.h"
#include "vulkan/VulkanDevice.h"

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

  StatusOr<std::unique_ptr<GpuBackendModule>>
  loadModule(const char *data, size_t size, const GpuModuleOptions &) override {
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

/// The backend of "vulkan:index".
StatusOr<std::unique_ptr<GpuBackend>> openVulkanBackend(unsigned index) {
  StatusOr<std::shared_ptr<VulkanDevice>> device = VulkanDevice::get(index);
  if (!device.ok())
    return device.status();
  std::string label =
      "vulkan:" + std::to_string(index) + " (" + (*device)->info().name + ")";
  return std::unique_ptr<GpuBackend>(
      new VulkanBackend(std::move(*device), std::move(label)));
}

/// What the driver lists: the capabilities and extensions as features.
StatusOr<std::vector<DeviceInfo>> enumerate() {
  StatusOr<std::vector<VulkanDeviceInfo>> devices = enumerateVulkanDevices();
  if (!devices.ok())
    return devices.status();
  std::vector<DeviceInfo> infos;
  for (const VulkanDeviceInfo &device : *devices) {
    DeviceInfo info;
    info.name = DeviceName{"vulkan", device.index};
    info.model = device.name;
    info.description = device.describe();
    info.features = device.spirvCapabilities();
    for (const std::string &extension : device.spirvExtensions())
      info.features.push_back(extension);
    for (const std::string &property : device.properties())
      info.features.push_back(property);
    infos.push_back(std::move(info));
  }
  return infos;
}

/// The features of a device that has every one the runtime checks.
std::vector<std::string> getAllFeatures() {
  VulkanDeviceInfo everything;
  everything.shaderFloat16 = everything.shaderFloat64 = true;
  everything.shaderInt8 = everything.shaderInt16 = everything.shaderInt64 =
      true;
  everything.storageBuffer8Bit = everything.storageBuffer16Bit = true;
  // Cooperative matrices as NVIDIA and AMD (wave32) GPUs offer them.
  everything.cooperativeMatrix = true;
  everything.cooperativeMatrixShapes = {"coopmat-16x16x16-f16-f32"};
  everything.subgroupSize = 32;
  everything.fixedSubgroupSize = everything.vulkan11 = true;
  std::vector<std::string> features = everything.spirvCapabilities();
  for (const std::string &extension : everything.spirvExtensions())
    features.push_back(extension);
  for (const std::string &property : everything.properties())
    features.push_back(property);
  return features;
}
} // namespace

std::unique_ptr<Driver> plaidml::rt::createVulkanDriver() {
  return std::make_unique<GpuDriver>("vulkan", enumerate, openVulkanBackend,
                                     getAllFeatures());
}
