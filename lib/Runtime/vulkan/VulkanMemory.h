//===- VulkanMemory.h - Vulkan storage buffers ------------------*- C++ -*-===//
//
// The memory part of the Vulkan device layer: a storage buffer of a
// VulkanDevice (device-local with staging copies, or host-visible). Private
// to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_RUNTIME_VULKAN_VULKANMEMORY_H
#define PLAIDML_LIB_RUNTIME_VULKAN_VULKANMEMORY_H

#include <cstddef>
#include <memory>

namespace plaidml::rt {

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

} // namespace plaidml::rt

#endif // PLAIDML_LIB_RUNTIME_VULKAN_VULKANMEMORY_H
