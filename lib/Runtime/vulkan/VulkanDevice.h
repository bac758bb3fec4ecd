//===- VulkanDevice.h - Vulkan devices, buffers, kernels --------*- C++ -*-===//
//
// The device layer of the Vulkan runtime (docs/Design.md section 5). The Vulkan
// loader is opened at run time with dlopen("libvulkan.so.1"), so nothing links
// against libvulkan and a machine without it still runs on the CPU; the
// instance is created once, lazily. A VulkanDevice ("vulkan:N", physical
// device N) owns a logical device, a compute queue, a command pool, a
// pipeline cache and descriptor pools, created once and reused. Buffers are
// device-local with staging copies (host-visible on CPU and integrated
// devices); kernels are compute pipelines built from SPIR-V words. Dispatches
// are recorded and submitted by synchronize(), with a barrier in front of
// every dispatch that shares a buffer with an earlier one. Every failure is a
// Status naming the Vulkan call and its VkResult; nothing aborts. The layer
// is split by object: VulkanInstance.h (loader, physical devices),
// VulkanMemory.h (buffers), VulkanPipeline.h (kernels), and this header
// (the logical device, its queue, copies and dispatch). Private to
// lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_RUNTIME_VULKAN_VULKANDEVICE_H
#define PLAIDML_LIB_RUNTIME_VULKAN_VULKANDEVICE_H

#include "vulkan/VulkanInstance.h"
#include "vulkan/VulkanMemory.h"
#include "vulkan/VulkanPipeline.h"

#include "plaidml/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace plaidml::rt {

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
