//===- VulkanInstance.h - The Vulkan loader and physical devices *- C++ -*-===//
//
// The instance part of the Vulkan device layer (docs/VulkanRuntime.md): the
// loader, opened with dlopen at first use, and what the runtime knows of
// each physical device. Private to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_RUNTIME_VULKAN_VULKANINSTANCE_H
#define PLAIDML_LIB_RUNTIME_VULKAN_VULKANINSTANCE_H

#include "plaidml/Runtime/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace plaidml::rt {

/// One memory heap of a Vulkan physical device.
struct VulkanMemoryHeap {
  uint64_t size = 0;
  bool deviceLocal = false;
};

/// What the runtime knows of a Vulkan physical device.
struct VulkanDeviceInfo {
  /// N of "vulkan:N": the index in vkEnumeratePhysicalDevices order.
  unsigned index = 0;
  std::string name;
  /// "discrete GPU", "integrated GPU", "virtual GPU", "cpu" or "other".
  std::string type;
  /// Driver name and info (VkPhysicalDeviceDriverProperties), e.g.
  /// "llvmpipe Mesa 22.3.6 (LLVM 15.0.6)"; empty before Vulkan 1.2.
  std::string driver;
  /// "1.3.230".
  std::string apiVersion;
  uint32_t vendorId = 0, deviceId = 0;
  std::vector<VulkanMemoryHeap> heaps;
  uint32_t subgroupSize = 0;
  /// Whether every compute pipeline runs with `subgroupSize` (Vulkan 1.3's
  /// minSubgroupSize == maxSubgroupSize, or a device before 1.3, which has
  /// no subgroup size control).
  bool fixedSubgroupSize = false;
  /// Vulkan 1.1 or later (basic subgroup operations in compute).
  bool vulkan11 = false;
  uint32_t maxWorkgroupInvocations = 0;
  uint32_t maxWorkgroupCount[3] = {0, 0, 0};
  uint32_t maxSharedMemory = 0;
  uint32_t maxPushConstantsSize = 0;
  uint64_t maxStorageBufferRange = 0;
  /// VkPhysicalDeviceMaintenance3Properties::maxMemoryAllocationSize.
  uint64_t maxAllocationSize = 0;
  /// Shader arithmetic and storage features.
  bool shaderFloat16 = false, shaderInt8 = false, shaderInt16 = false,
       shaderFloat64 = false, shaderInt64 = false;
  bool storageBuffer16Bit = false, storageBuffer8Bit = false;
  /// The device offers VK_KHR_cooperative_matrix and its
  /// cooperativeMatrix feature, and Vulkan 1.3 (the SPIR-V 1.6 the
  /// kernels that use it are).
  bool cooperativeMatrix = false;
  /// Its subgroup-scope shapes with A = B and C = result types, no
  /// saturation, as "coopmat-MxNxK-A-C" (e.g. "coopmat-16x16x16-f16-f32").
  std::vector<std::string> cooperativeMatrixShapes;

  /// One line: "llvmpipe (...) (cpu, driver ..., Vulkan 1.3.230, ...)".
  std::string describe() const;
  /// The SPIR-V capabilities kernels may declare on this device: Shader
  /// (and Matrix, which it implies), GroupNonUniform (basic subgroup
  /// operations, which Vulkan 1.1 guarantees), CooperativeMatrixKHR with the
  /// extension, and Float16, Float64, Int8, Int16, Int64,
  /// StorageBuffer8BitAccess, StorageBuffer16BitAccess where the device has the
  /// feature.
  std::vector<std::string> spirvCapabilities() const;
  /// The SPIR-V extensions kernels may use:
  /// SPV_KHR_storage_buffer_storage_class and the 8/16-bit storage extensions
  /// where the device has the feature.
  std::vector<std::string> spirvExtensions() const;
  /// Properties of the device that kernels may depend on, beyond SPIR-V
  /// names (each contains a '-'): the cooperative-matrix shapes and
  /// "subgroup-size-N" (only when the size is fixed).
  std::vector<std::string> properties() const;
  /// Whether kernels needing `requirement` (a name of the three lists
  /// above) can run on this device.
  bool supportsSpirv(const std::string &requirement) const;
};

/// The physical devices of this machine. Fails with "Vulkan unavailable: ..."
/// when the loader cannot be opened or the instance cannot be created; the
/// result (success or failure) is computed once and cached.
StatusOr<std::vector<VulkanDeviceInfo>> enumerateVulkanDevices();

namespace detail {
/// Opens the Vulkan loader at `path` and resolves vkGetInstanceProcAddr,
/// without keeping it: what enumerateVulkanDevices() does first, exposed for
/// tests of the failure message.
Status probeVulkanLoader(const char *path);
} // namespace detail

} // namespace plaidml::rt

#endif // PLAIDML_LIB_RUNTIME_VULKAN_VULKANINSTANCE_H
