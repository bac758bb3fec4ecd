//===- VulkanPipelineSupport.cpp - Around the Vulkan compute pipelines ----===//
//
// Before a pipeline is built, the check that a module is SPIR-V with the
// entry point asked for (a clear error instead of a driver crash); after,
// PLAIDML_VULKAN_PIPELINE_STATS: what the driver says of each compute
// pipeline it built (VK_KHR_pipeline_executable_properties: registers,
// binary size, workgroup memory, ...), printed to stderr, a tool for tuning
// kernels that nothing depends on.
//
//===----------------------------------------------------------------------===//

#if __has_include(<vulkan/vulkan_core.h>) && !defined(PLAIDML_NO_VULKAN)

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan_core.h>

#include "vulkan/VulkanPipelineSupport.h"

#include <cstdio>
#include <cstring>
#include <vector>

using namespace plaidml::rt;

Status plaidml::rt::detail::checkSpirv(const std::vector<uint32_t> &words,
                                       const std::string &entry) {
  if (words.size() < 5)
    return Status::failure("invalid SPIR-V: " + std::to_string(words.size()) +
                           " words, shorter than the 5-word header");
  if (words[0] != 0x07230203u)
    return Status::failure("invalid SPIR-V: bad magic number");
  std::vector<std::string> names;
  for (size_t pos = 5; pos < words.size();) {
    uint32_t count = words[pos] >> 16, opcode = words[pos] & 0xffff;
    if (count == 0 || pos + count > words.size())
      return Status::failure("invalid SPIR-V: malformed instruction at word " +
                             std::to_string(pos));
    if (opcode == 15 /*OpEntryPoint*/ && count >= 4) {
      const char *begin = reinterpret_cast<const char *>(&words[pos + 3]);
      std::string name(begin, strnlen(begin, (count - 3) * 4));
      if (words[pos + 1] == 5 /*GLCompute*/) {
        if (name == entry)
          return Status::success();
        names.push_back(name);
      }
    }
    pos += count;
  }
  std::string have;
  for (const std::string &n : names)
    have += (have.empty() ? "" : ", ") + n;
  return Status::failure("no GLCompute entry point '" + entry +
                         "' in the SPIR-V module (it has " +
                         (have.empty() ? "none" : have) + ")");
}

void plaidml::rt::detail::printPipelineStatistics(
    PFN_vkGetInstanceProcAddr getInstanceProcAddr, VkInstance instance,
    VkDevice device, VkPipeline pipeline, const std::string &entry) {
  auto getProps = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
      getInstanceProcAddr(instance, "vkGetPipelineExecutablePropertiesKHR"));
  auto getStats = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
      getInstanceProcAddr(instance, "vkGetPipelineExecutableStatisticsKHR"));
  if (!getProps || !getStats)
    return; // the device was created with the extension: not expected
  VkPipelineInfoKHR pipelineInfo{};
  pipelineInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR;
  pipelineInfo.pipeline = pipeline;
  uint32_t count = 0;
  if (getProps(device, &pipelineInfo, &count, nullptr) != VK_SUCCESS)
    return;
  std::vector<VkPipelineExecutablePropertiesKHR> props(count);
  for (VkPipelineExecutablePropertiesKHR &p : props)
    p.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR;
  if (getProps(device, &pipelineInfo, &count, props.data()) != VK_SUCCESS)
    return;
  for (uint32_t i = 0; i < count; ++i) {
    std::string line = "pipeline '" + entry + "' executable " + props[i].name +
                       " (subgroup " + std::to_string(props[i].subgroupSize) +
                       "):";
    VkPipelineExecutableInfoKHR exec{};
    exec.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR;
    exec.pipeline = pipeline;
    exec.executableIndex = i;
    uint32_t n = 0;
    if (getStats(device, &exec, &n, nullptr) != VK_SUCCESS)
      continue;
    std::vector<VkPipelineExecutableStatisticKHR> stats(n);
    for (VkPipelineExecutableStatisticKHR &st : stats)
      st.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR;
    if (getStats(device, &exec, &n, stats.data()) != VK_SUCCESS)
      continue;
    for (uint32_t j = 0; j < n; ++j) {
      const VkPipelineExecutableStatisticKHR &st = stats[j];
      line += std::string(j ? "," : "") + " " + st.name + " ";
      switch (st.format) {
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
        line += st.value.b32 ? "true" : "false";
        break;
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
        line += std::to_string(st.value.i64);
        break;
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
        line += std::to_string(st.value.u64);
        break;
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR:
        line += std::to_string(st.value.f64);
        break;
      default:
        line += "?";
      }
    }
    std::fprintf(stderr, "%s\n", line.c_str());
  }
}

#endif
