//===- VulkanPipelineSupport.h - Around the compute pipelines -*- C++ -*-===//
//
// Private to the Vulkan runtime; include after <vulkan/vulkan_core.h>.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_RUNTIME_VULKAN_VULKANPIPELINESUPPORT_H
#define PLAIDML_RUNTIME_VULKAN_VULKANPIPELINESUPPORT_H

#include "plaidml/Runtime/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace plaidml::rt::detail {

/// Checks that `words` start with a SPIR-V header and declare a GLCompute
/// entry point named `entry`.
Status checkSpirv(const std::vector<uint32_t> &words, const std::string &entry);

/// Prints the driver's statistics of `pipeline`'s executables to stderr, one
/// line per executable (PLAIDML_VULKAN_PIPELINE_STATS; the device must have
/// been created with VK_KHR_pipeline_executable_properties).
void printPipelineStatistics(PFN_vkGetInstanceProcAddr getInstanceProcAddr,
                             VkInstance instance, VkDevice device,
                             VkPipeline pipeline, const std::string &entry);

} // namespace plaidml::rt::detail

#endif // PLAIDML_RUNTIME_VULKAN_VULKANPIPELINESUPPORT_H
