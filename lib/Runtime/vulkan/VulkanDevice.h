//===- VulkanDevice.h - Vulkan devices, buffers, kernels --------*- C++ -*-===//
//
// The device layer of the Vulkan runtime (DESIGN.md section 5). The Vulkan
// loader is opened at run time with dlopen("libvulkan.so.1"), so nothing links
// against libvulkan and a machine without it still runs on the CPU; the
// instance is created once, lazily. A VulkanDevice ("vulkan:N", physical
// device N) owns a logical device, a compute queue, a command pool, a
// pipeline cache and descriptor pools, created once and reused. Buffers are
// device-local with staging copies (host-visible on CPU and integrated
// devices); kernels are compute pipelines built from SPIR-V words. Dispatches
// are recorded and submitted by synchronize(), with a barrier in front of
// every dispatch that shares a buffer with an earlier one. Every failure is a
// Status naming the Vulkan call and its VkResult; nothing aborts.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_RUNTIME_VULKAN_VULKANDEVICE_H
#define PLAIDML_LIB_RUNTIME_VULKAN_VULKANDEVICE_H

#include "plaidml/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <memory>
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
  /// The device offers VK_KHR_cooperative_matrix.
  bool cooperativeMatrix = false;

  /// One line: "llvmpipe (...) (cpu, driver ..., Vulkan 1.3.230, ...)".
  std::string describe() const;
  /// The SPIR-V capabilities kernels may declare on this device: Shader
  /// (and Matrix, which it implies), and Float16, Float64, Int8, Int16, Int64,
  /// StorageBuffer8BitAccess, StorageBuffer16BitAccess where the device has the
  /// feature.
  std::vector<std::string> spirvCapabilities() const;
  /// The SPIR-V extensions kernels may use:
  /// SPV_KHR_storage_buffer_storage_class and the 8/16-bit storage extensions
  /// where the device has the feature.
  std::vector<std::string> spirvExtensions() const;
  /// Whether kernels needing `requirement` (a capability or extension name
  /// of the two lists above) can run on this device.
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

class VulkanDevice;

/// A storage buffer on a VulkanDevice. Destroying it frees the memory (the
/// device waits for pending work first when the buffer is in use).
class VulkanBuffer {
public:
  ~VulkanBuffer();
  VulkanBuffer(const VulkanBuffer &) = delete;
  VulkanBuffer &operator=(const VulkanBuffer &) = delete;

  /// The size asked for, in bytes.
  size_t size() const { return bytes; }
  /// Whether the memory is mapped in the host (no staging copies).
  bool isHostVisible() const;

  struct Impl;

private:
  friend class VulkanDevice;
  VulkanBuffer(std::unique_ptr<Impl> impl, size_t bytes);
  std::unique_ptr<Impl> impl;
  size_t bytes;
};

/// A compute pipeline: one SPIR-V entry point whose storage buffers are
/// bindings 0..numBindings-1 of descriptor set 0, and whose scalars (if any)
/// are a push-constant block of pushConstantBytes() bytes.
class VulkanKernel {
public:
  ~VulkanKernel();
  VulkanKernel(const VulkanKernel &) = delete;
  VulkanKernel &operator=(const VulkanKernel &) = delete;

  const std::string &entryPoint() const { return entry; }
  unsigned numBindings() const { return bindings; }
  uint32_t pushConstantBytes() const { return pushBytes; }

  struct Impl;

private:
  friend class VulkanDevice;
  VulkanKernel(std::unique_ptr<Impl> impl, std::string entry, unsigned bindings,
               uint32_t pushBytes);
  std::unique_ptr<Impl> impl;
  std::string entry;
  unsigned bindings;
  uint32_t pushBytes;
};

/// A logical device with its compute queue. Obtained with get(), which
/// creates it on first use and returns the same device afterwards. Methods
/// are thread-safe (one mutex per device).
class VulkanDevice {
public:
  /// Device `index` of enumerateVulkanDevices() ("vulkan:index").
  static StatusOr<std::shared_ptr<VulkanDevice>> get(unsigned index);
  /// A new logical device on physical device `index`, not shared with get();
  /// `forceStaging` makes even a CPU or integrated device use device buffers
  /// with staging copies (to test that path on lavapipe). Like get()'s, it
  /// lives as long as the process.
  static StatusOr<std::shared_ptr<VulkanDevice>> create(unsigned index,
                                                        bool forceStaging);
  ~VulkanDevice();
  VulkanDevice(const VulkanDevice &) = delete;
  VulkanDevice &operator=(const VulkanDevice &) = delete;

  const VulkanDeviceInfo &info() const;

  /// A storage buffer of `bytes` bytes (contents undefined). Fails with a
  /// message giving the device's limit when the buffer is too large.
  StatusOr<std::unique_ptr<VulkanBuffer>> createBuffer(size_t bytes);

  /// Copies `bytes` bytes from `data` into `buffer` at `offset`. Ordered after
  /// the dispatches recorded so far and before those recorded later.
  Status upload(VulkanBuffer &buffer, const void *data, size_t bytes,
                size_t offset = 0);
  /// Runs the recorded work (synchronize()) and copies `bytes` bytes of
  /// `buffer` from `offset` into `data`.
  Status download(const VulkanBuffer &buffer, void *data, size_t bytes,
                  size_t offset = 0);

  /// Copies `bytes` bytes from `src` at `srcOffset` to `dst` at `dstOffset`
  /// on the device, ordered like a dispatch. The ranges must not overlap
  /// when `src` and `dst` are the same buffer.
  Status copy(VulkanBuffer &dst, const VulkanBuffer &src, size_t bytes,
              size_t dstOffset = 0, size_t srcOffset = 0);

  /// A compute kernel from SPIR-V `words` (checked for a SPIR-V header and a
  /// GLCompute entry point named `entry` first, so that a bad module is a
  /// message rather than a driver crash). `pushConstantBytes` (a multiple of
  /// 4, at most the device's maxPushConstantsSize) is the size of the
  /// kernel's push-constant block, 0 when it has none.
  StatusOr<std::unique_ptr<VulkanKernel>>
  createKernel(const std::vector<uint32_t> &words, const std::string &entry,
               unsigned numBindings, uint32_t pushConstantBytes = 0);

  /// Records a dispatch of `kernel` over (x, y, z) workgroups, buffer i bound
  /// at binding i, `pushConstants` (kernel.pushConstantBytes() bytes, copied
  /// when recorded) as its push constants. Nothing runs until synchronize()
  /// (or download()).
  Status dispatch(const VulkanKernel &kernel,
                  const std::vector<VulkanBuffer *> &buffers, uint32_t x,
                  uint32_t y = 1, uint32_t z = 1,
                  const void *pushConstants = nullptr);

  /// Submits the recorded work and waits for it.
  Status synchronize();

  struct Impl;

private:
  explicit VulkanDevice(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace plaidml::rt

#endif // PLAIDML_LIB_RUNTIME_VULKAN_VULKANDEVICE_H
