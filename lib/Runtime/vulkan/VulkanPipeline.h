//===- VulkanPipeline.h - Vulkan compute pipelines --------------*- C++ -*-===//
//
// The pipeline part of the Vulkan device layer: a compute kernel built from
// SPIR-V words by a VulkanDevice. Private to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_RUNTIME_VULKAN_VULKANPIPELINE_H
#define PLAIDML_LIB_RUNTIME_VULKAN_VULKANPIPELINE_H

#include <cstdint>
#include <memory>
#include <string>

namespace plaidml::rt {

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

} // namespace plaidml::rt

#endif // PLAIDML_LIB_RUNTIME_VULKAN_VULKANPIPELINE_H
