//===- VulkanDevice.cpp - Vulkan devices, buffers and compute kernels -----===//
//
// Opens libvulkan.so.1 with dlopen and resolves every entry point through
// vkGetInstanceProcAddr (VK_NO_PROTOTYPES: no link-time dependency), creates
// the instance once, enumerates physical devices, and implements VulkanDevice:
// one logical device, compute queue, command pool and buffer, fence, pipeline
// cache and growing list of descriptor pools per device, all reused. Work is
// recorded into the one command buffer and submitted by synchronize(); a
// global memory barrier is recorded before a dispatch or copy that touches a
// buffer used since the last barrier. Every VkResult failure is a Status
// "vkCall failed: VK_ERROR_...". Built as a stub that reports Vulkan as
// unavailable without the Vulkan headers or with PLAIDML_ENABLE_VULKAN=OFF.
//
//===----------------------------------------------------------------------===//

#include "vulkan/VulkanDevice.h"

#include "FileUtil.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include <dlfcn.h>

#if __has_include(<vulkan/vulkan_core.h>) && !defined(PLAIDML_NO_VULKAN)
#define PLAIDML_HAVE_VULKAN 1
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan_core.h>

#include "vulkan/VulkanPipelineSupport.h"
#else
#define PLAIDML_HAVE_VULKAN 0
#endif

using namespace plaidml::rt;
using plaidml::rt::detail::formatBytes;

namespace {
[[maybe_unused]] const char *kLoaderName = "libvulkan.so.1";

} // namespace

std::string VulkanDeviceInfo::describe() const {
  std::string s = name + " (" + type;
  if (!driver.empty())
    s += ", " + driver;
  s += ", Vulkan " + apiVersion;
  for (const VulkanMemoryHeap &heap : heaps)
    if (heap.deviceLocal) {
      s += ", " + formatBytes(heap.size);
      break;
    }
  s += ", subgroup " + std::to_string(subgroupSize);
  std::string features;
  auto add = [&](bool has, const char *what) {
    if (has)
      features += std::string(features.empty() ? "" : " ") + what;
  };
  add(shaderFloat16, "f16");
  add(shaderFloat64, "f64");
  add(shaderInt8, "int8");
  add(shaderInt16, "int16");
  add(shaderInt64, "int64");
  add(storageBuffer8Bit, "storage8");
  add(storageBuffer16Bit, "storage16");
  add(cooperativeMatrix, "coopmat");
  if (!features.empty())
    s += ", " + features;
  return s + ")";
}

std::vector<std::string> VulkanDeviceInfo::spirvCapabilities() const {
  // Shader implies Matrix, which serialized modules declare too.
  std::vector<std::string> caps = {"Shader", "Matrix"};
  auto add = [&](bool has, const char *cap) {
    if (has)
      caps.emplace_back(cap);
  };
  add(vulkan11, "GroupNonUniform");
  add(shaderFloat16, "Float16");
  add(shaderFloat64, "Float64");
  add(shaderInt8, "Int8");
  add(shaderInt16, "Int16");
  add(shaderInt64, "Int64");
  add(storageBuffer8Bit, "StorageBuffer8BitAccess");
  add(storageBuffer16Bit, "StorageBuffer16BitAccess");
  add(cooperativeMatrix, "CooperativeMatrixKHR");
  return caps;
}

std::vector<std::string> VulkanDeviceInfo::properties() const {
  std::vector<std::string> list = cooperativeMatrixShapes;
  if (subgroupSize && fixedSubgroupSize)
    list.push_back("subgroup-size-" + std::to_string(subgroupSize));
  return list;
}

std::vector<std::string> VulkanDeviceInfo::spirvExtensions() const {
  std::vector<std::string> exts = {"SPV_KHR_storage_buffer_storage_class"};
  if (storageBuffer8Bit)
    exts.emplace_back("SPV_KHR_8bit_storage");
  if (storageBuffer16Bit)
    exts.emplace_back("SPV_KHR_16bit_storage");
  if (cooperativeMatrix)
    exts.emplace_back("SPV_KHR_cooperative_matrix");
  return exts;
}

bool VulkanDeviceInfo::supportsSpirv(const std::string &requirement) const {
  for (const std::vector<std::string> &list :
       {spirvCapabilities(), spirvExtensions(), properties()})
    for (const std::string &name : list)
      if (name == requirement)
        return true;
  return false;
}

Status plaidml::rt::detail::probeVulkanLoader(const char *path) {
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *err = dlerror();
    return Status::unavailable(std::string("Vulkan unavailable: cannot load ") +
                               path + " (" + (err ? err : "unknown error") +
                               ")");
  }
  bool found = dlsym(lib, "vkGetInstanceProcAddr") != nullptr;
  dlclose(lib);
  if (!found)
    return Status::unavailable(std::string("Vulkan unavailable: ") + path +
                               " has no vkGetInstanceProcAddr");
  return Status::success();
}

#if !PLAIDML_HAVE_VULKAN

StatusOr<std::vector<VulkanDeviceInfo>> plaidml::rt::enumerateVulkanDevices() {
  return Status::unavailable(
      "Vulkan unavailable: this runtime was built without "
      "Vulkan (no Vulkan headers, or PLAIDML_ENABLE_VULKAN "
      "OFF)");
}

struct VulkanBuffer::Impl {};
struct VulkanKernel::Impl {};
struct VulkanDevice::Impl {
  VulkanDeviceInfo info;
};
VulkanBuffer::VulkanBuffer(std::unique_ptr<Impl> impl, size_t bytes)
    : impl(std::move(impl)), bytes(bytes) {}
VulkanBuffer::~VulkanBuffer() = default;
bool VulkanBuffer::isHostVisible() const { return false; }
VulkanKernel::VulkanKernel(std::unique_ptr<Impl> impl, std::string entry,
                           unsigned bindings, uint32_t pushBytes)
    : impl(std::move(impl)), entry(std::move(entry)), bindings(bindings),
      pushBytes(pushBytes) {}
VulkanKernel::~VulkanKernel() = default;
VulkanDevice::VulkanDevice(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}
VulkanDevice::~VulkanDevice() = default;
StatusOr<std::shared_ptr<VulkanDevice>> VulkanDevice::get(unsigned) {
  return enumerateVulkanDevices().status();
}
StatusOr<std::shared_ptr<VulkanDevice>> VulkanDevice::create(unsigned, bool) {
  return enumerateVulkanDevices().status();
}
const VulkanDeviceInfo &VulkanDevice::info() const { return impl->info; }
StatusOr<std::unique_ptr<VulkanBuffer>> VulkanDevice::createBuffer(size_t) {
  return enumerateVulkanDevices().status();
}
Status VulkanDevice::upload(VulkanBuffer &, const void *, size_t, size_t) {
  return enumerateVulkanDevices().status();
}
Status VulkanDevice::download(const VulkanBuffer &, void *, size_t, size_t) {
  return enumerateVulkanDevices().status();
}
Status VulkanDevice::copy(VulkanBuffer &, const VulkanBuffer &, size_t, size_t,
                          size_t) {
  return enumerateVulkanDevices().status();
}
StatusOr<std::unique_ptr<VulkanKernel>>
VulkanDevice::createKernel(const std::vector<uint32_t> &, const std::string &,
                           unsigned, uint32_t) {
  return enumerateVulkanDevices().status();
}
Status VulkanDevice::dispatch(const VulkanKernel &,
                              const std::vector<VulkanBuffer *> &, uint32_t,
                              uint32_t, uint32_t, const void *) {
  return enumerateVulkanDevices().status();
}
Status VulkanDevice::synchronize() { return enumerateVulkanDevices().status(); }

#else // PLAIDML_HAVE_VULKAN

namespace {

const char *resultName(VkResult result) {
  switch (result) {
#define CASE(x)                                                                \
  case x:                                                                      \
    return #x;
    CASE(VK_SUCCESS)
    CASE(VK_NOT_READY)
    CASE(VK_TIMEOUT)
    CASE(VK_INCOMPLETE)
    CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    CASE(VK_ERROR_INITIALIZATION_FAILED)
    CASE(VK_ERROR_DEVICE_LOST)
    CASE(VK_ERROR_MEMORY_MAP_FAILED)
    CASE(VK_ERROR_LAYER_NOT_PRESENT)
    CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    CASE(VK_ERROR_TOO_MANY_OBJECTS)
    CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    CASE(VK_ERROR_FRAGMENTED_POOL)
    CASE(VK_ERROR_UNKNOWN)
    CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    CASE(VK_ERROR_FRAGMENTATION)
    CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    CASE(VK_PIPELINE_COMPILE_REQUIRED)
    CASE(VK_ERROR_INVALID_SHADER_NV)
#undef CASE
  default:
    return nullptr;
  }
}

Status vkFailure(const char *call, VkResult result,
                 const std::string &context = "") {
  const char *name = resultName(result);
  std::string msg = std::string(call) + " failed: " +
                    (name ? name : "VkResult " + std::to_string(result));
  if (!context.empty())
    msg += " (" + context + ")";
  StatusCode code = StatusCode::Internal;
  if (result == VK_ERROR_OUT_OF_HOST_MEMORY ||
      result == VK_ERROR_OUT_OF_DEVICE_MEMORY ||
      result == VK_ERROR_OUT_OF_POOL_MEMORY ||
      result == VK_ERROR_FRAGMENTED_POOL || result == VK_ERROR_TOO_MANY_OBJECTS)
    code = StatusCode::ResourceExhausted;
  else if (result == VK_ERROR_DEVICE_LOST ||
           result == VK_ERROR_INITIALIZATION_FAILED ||
           result == VK_ERROR_INCOMPATIBLE_DRIVER)
    code = StatusCode::Unavailable;
  return Status(code, msg);
}

#define VK_CHECK(call, ...)                                                    \
  do {                                                                         \
    VkResult vkCheckResult = vk.call(__VA_ARGS__);                             \
    if (vkCheckResult != VK_SUCCESS)                                           \
      return vkFailure(#call, vkCheckResult);                                  \
  } while (false)

#define PLAIDML_VK_INSTANCE_FUNCTIONS(X)                                       \
  X(vkDestroyInstance)                                                         \
  X(vkEnumeratePhysicalDevices)                                                \
  X(vkGetPhysicalDeviceProperties)                                             \
  X(vkGetPhysicalDeviceProperties2)                                            \
  X(vkGetPhysicalDeviceFeatures2)                                              \
  X(vkGetPhysicalDeviceMemoryProperties)                                       \
  X(vkGetPhysicalDeviceQueueFamilyProperties)                                  \
  X(vkEnumerateDeviceExtensionProperties)                                      \
  X(vkCreateDevice)                                                            \
  X(vkDestroyDevice)                                                           \
  X(vkGetDeviceQueue)                                                          \
  X(vkDeviceWaitIdle)                                                          \
  X(vkCreateBuffer)                                                            \
  X(vkDestroyBuffer)                                                           \
  X(vkGetBufferMemoryRequirements)                                             \
  X(vkAllocateMemory)                                                          \
  X(vkFreeMemory)                                                              \
  X(vkBindBufferMemory)                                                        \
  X(vkMapMemory)                                                               \
  X(vkCreateShaderModule)                                                      \
  X(vkDestroyShaderModule)                                                     \
  X(vkCreateDescriptorSetLayout)                                               \
  X(vkDestroyDescriptorSetLayout)                                              \
  X(vkCreatePipelineLayout)                                                    \
  X(vkDestroyPipelineLayout)                                                   \
  X(vkCreateComputePipelines)                                                  \
  X(vkDestroyPipeline)                                                         \
  X(vkCreatePipelineCache)                                                     \
  X(vkCreateDescriptorPool)                                                    \
  X(vkResetDescriptorPool)                                                     \
  X(vkAllocateDescriptorSets)                                                  \
  X(vkUpdateDescriptorSets)                                                    \
  X(vkCreateCommandPool)                                                       \
  X(vkAllocateCommandBuffers)                                                  \
  X(vkBeginCommandBuffer)                                                      \
  X(vkEndCommandBuffer)                                                        \
  X(vkResetCommandBuffer)                                                      \
  X(vkCmdBindPipeline)                                                         \
  X(vkCmdBindDescriptorSets)                                                   \
  X(vkCmdDispatch)                                                             \
  X(vkCmdPushConstants)                                                        \
  X(vkCmdPipelineBarrier)                                                      \
  X(vkCmdCopyBuffer)                                                           \
  X(vkCreateFence)                                                             \
  X(vkResetFences)                                                             \
  X(vkWaitForFences)                                                           \
  X(vkGetFenceStatus)                                                          \
  X(vkQueueSubmit)

/// The loader, the instance and every function the runtime calls: created
/// once, never destroyed (devices and buffers may outlive any static).
struct VulkanLoader {
  void *lib = nullptr;
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
  VkInstance instance = VK_NULL_HANDLE;
  uint32_t instanceVersion = VK_API_VERSION_1_0;
#define DECLARE(name) PFN_##name name = nullptr;
  PLAIDML_VK_INSTANCE_FUNCTIONS(DECLARE)
#undef DECLARE
  std::vector<VkPhysicalDevice> physicalDevices;
  std::vector<VulkanDeviceInfo> infos;
  std::vector<std::set<std::string>> extensions;
};

std::string versionString(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." +
         std::to_string(VK_API_VERSION_MINOR(v)) + "." +
         std::to_string(VK_API_VERSION_PATCH(v));
}

const char *typeName(VkPhysicalDeviceType type) {
  switch (type) {
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
    return "discrete GPU";
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
    return "integrated GPU";
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
    return "virtual GPU";
  case VK_PHYSICAL_DEVICE_TYPE_CPU:
    return "cpu";
  default:
    return "other";
  }
}

// Debian's headers (1.3.239) predate VK_KHR_cooperative_matrix.
const char *kCoopMatExtension = "VK_KHR_cooperative_matrix";
constexpr VkStructureType kCoopMatFeaturesType =
    static_cast<VkStructureType>(1000506000);
struct CoopMatFeatures {
  VkStructureType sType = kCoopMatFeaturesType;
  void *pNext = nullptr;
  VkBool32 cooperativeMatrix = VK_FALSE;
  VkBool32 cooperativeMatrixRobustBufferAccess = VK_FALSE;
};

constexpr VkStructureType kCoopMatPropertiesType =
    static_cast<VkStructureType>(1000506001);
/// VkCooperativeMatrixPropertiesKHR.
struct CoopMatProperties {
  VkStructureType sType = kCoopMatPropertiesType;
  void *pNext = nullptr;
  uint32_t mSize = 0, nSize = 0, kSize = 0;
  uint32_t aType = 0, bType = 0, cType = 0, resultType = 0;
  VkBool32 saturatingAccumulation = VK_FALSE;
  uint32_t scope = 0;
};
using GetCoopMatProperties = VkResult(VKAPI_PTR *)(VkPhysicalDevice, uint32_t *,
                                                   CoopMatProperties *);
constexpr uint32_t kScopeSubgroup = 3;

/// VkComponentTypeKHR's name for the floating-point and integer types
/// kernels use, or null.
const char *componentTypeName(uint32_t type) {
  switch (type) {
  case 0:
    return "f16";
  case 1:
    return "f32";
  case 2:
    return "f64";
  case 3:
    return "i8";
  case 4:
    return "i16";
  case 5:
    return "i32";
  case 6:
    return "i64";
  case 7:
    return "u8";
  case 8:
    return "u16";
  case 9:
    return "u32";
  case 10:
    return "u64";
  default:
    return nullptr;
  }
}

/// The device's subgroup-scope cooperative-matrix shapes with A = B and C
/// = result types and no saturation, as "coopmat-MxNxK-A-C".
std::vector<std::string> queryCoopMatShapes(VulkanLoader &vk,
                                            VkPhysicalDevice phys) {
  auto get = reinterpret_cast<GetCoopMatProperties>(vk.vkGetInstanceProcAddr(
      vk.instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR"));
  uint32_t count = 0;
  if (!get || get(phys, &count, nullptr) != VK_SUCCESS)
    return {};
  std::vector<CoopMatProperties> props(count);
  if (get(phys, &count, props.data()) != VK_SUCCESS)
    return {};
  props.resize(count);
  std::set<std::string> shapes;
  for (const CoopMatProperties &p : props) {
    const char *a = componentTypeName(p.aType);
    const char *c = componentTypeName(p.cType);
    if (p.scope != kScopeSubgroup || p.aType != p.bType ||
        p.cType != p.resultType || p.saturatingAccumulation || !a || !c)
      continue;
    shapes.insert("coopmat-" + std::to_string(p.mSize) + "x" +
                  std::to_string(p.nSize) + "x" + std::to_string(p.kSize) +
                  "-" + a + "-" + c);
  }
  return {shapes.begin(), shapes.end()};
}

/// Device features the runtime enables when the device has them.
struct FeatureChain {
  VkPhysicalDeviceFeatures2 core{};
  VkPhysicalDevice16BitStorageFeatures storage16{};
  VkPhysicalDevice8BitStorageFeatures storage8{};
  VkPhysicalDeviceShaderFloat16Int8Features float16Int8{};
  CoopMatFeatures coopMat;

  /// Links the structs valid for a device of `apiVersion`.
  void link(uint32_t apiVersion, bool hasCoopMat) {
    core.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    storage16.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES;
    storage8.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES;
    float16Int8.sType =
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES;
    void **next = &core.pNext;
    auto append = [&](auto &s) {
      *next = &s;
      next = &s.pNext;
    };
    append(storage16);
    if (apiVersion >= VK_API_VERSION_1_2) {
      append(storage8);
      append(float16Int8);
    }
    if (hasCoopMat)
      append(coopMat);
    *next = nullptr;
  }
};

StatusOr<VulkanLoader *> loadVulkan() {
  auto *vkp = new VulkanLoader();
  VulkanLoader &vk = *vkp;
  auto fail = [&](Status status) -> StatusOr<VulkanLoader *> {
    // Keep `vk` alive (leaked) only on success.
    if (vk.instance && vk.vkDestroyInstance)
      vk.vkDestroyInstance(vk.instance, nullptr);
    delete vkp;
    return Status::unavailable(status.message())
        .withContext("Vulkan unavailable");
  };
  vk.lib = dlopen(kLoaderName, RTLD_NOW | RTLD_LOCAL);
  if (!vk.lib) {
    const char *err = dlerror();
    delete vkp;
    return Status::unavailable(std::string("Vulkan unavailable: cannot load ") +
                               kLoaderName + " (" +
                               (err ? err : "unknown error") + ")");
  }
  vk.vkGetInstanceProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(
      dlsym(vk.lib, "vkGetInstanceProcAddr"));
  if (!vk.vkGetInstanceProcAddr)
    return fail(Status::failure(std::string(kLoaderName) +
                                " has no vkGetInstanceProcAddr"));
  auto enumerateVersion = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
      vk.vkGetInstanceProcAddr(nullptr, "vkEnumerateInstanceVersion"));
  if (!enumerateVersion || enumerateVersion(&vk.instanceVersion) != VK_SUCCESS)
    vk.instanceVersion = VK_API_VERSION_1_0;
  if (vk.instanceVersion < VK_API_VERSION_1_1)
    return fail(Status::failure("the Vulkan loader supports Vulkan " +
                                versionString(vk.instanceVersion) +
                                " only (1.1 or later needed)"));
  auto createInstance = reinterpret_cast<PFN_vkCreateInstance>(
      vk.vkGetInstanceProcAddr(nullptr, "vkCreateInstance"));
  if (!createInstance)
    return fail(Status::failure("the loader has no vkCreateInstance"));

  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "PlaidML";
  app.pEngineName = "PlaidML";
  app.apiVersion = vk.instanceVersion >= VK_API_VERSION_1_3
                       ? VK_API_VERSION_1_3
                       : vk.instanceVersion;
  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pApplicationInfo = &app;
  if (VkResult r = createInstance(&info, nullptr, &vk.instance))
    return fail(vkFailure("vkCreateInstance", r));

#define RESOLVE(name)                                                          \
  vk.name = reinterpret_cast<PFN_##name>(                                      \
      vk.vkGetInstanceProcAddr(vk.instance, #name));                           \
  if (!vk.name)                                                                \
    return fail(Status::failure("the loader has no " #name));
  PLAIDML_VK_INSTANCE_FUNCTIONS(RESOLVE)
#undef RESOLVE

  uint32_t count = 0;
  if (VkResult r = vk.vkEnumeratePhysicalDevices(vk.instance, &count, nullptr))
    return fail(vkFailure("vkEnumeratePhysicalDevices", r));
  vk.physicalDevices.resize(count);
  if (VkResult r = vk.vkEnumeratePhysicalDevices(vk.instance, &count,
                                                 vk.physicalDevices.data());
      r != VK_SUCCESS && r != VK_INCOMPLETE)
    return fail(vkFailure("vkEnumeratePhysicalDevices", r));
  vk.physicalDevices.resize(count);

  for (unsigned i = 0; i < count; ++i) {
    VkPhysicalDevice phys = vk.physicalDevices[i];
    VulkanDeviceInfo d;
    d.index = i;
    std::set<std::string> exts;
    uint32_t extCount = 0;
    if (vk.vkEnumerateDeviceExtensionProperties(phys, nullptr, &extCount,
                                                nullptr) == VK_SUCCESS) {
      std::vector<VkExtensionProperties> props(extCount);
      if (vk.vkEnumerateDeviceExtensionProperties(phys, nullptr, &extCount,
                                                  props.data()) == VK_SUCCESS)
        for (const VkExtensionProperties &p : props)
          exts.insert(p.extensionName);
    }
    VkPhysicalDeviceProperties base;
    vk.vkGetPhysicalDeviceProperties(phys, &base);
    uint32_t api = base.apiVersion;
    d.name = base.deviceName;
    d.type = typeName(base.deviceType);
    d.apiVersion = versionString(api);
    d.vendorId = base.vendorID;
    d.deviceId = base.deviceID;
    d.maxWorkgroupInvocations = base.limits.maxComputeWorkGroupInvocations;
    for (int k = 0; k < 3; ++k)
      d.maxWorkgroupCount[k] = base.limits.maxComputeWorkGroupCount[k];
    d.maxSharedMemory = base.limits.maxComputeSharedMemorySize;
    d.maxPushConstantsSize = base.limits.maxPushConstantsSize;
    d.maxStorageBufferRange = base.limits.maxStorageBufferRange;
    d.cooperativeMatrix = exts.count(kCoopMatExtension) != 0;

    if (api >= VK_API_VERSION_1_1) {
      VkPhysicalDeviceProperties2 props{};
      props.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
      VkPhysicalDeviceSubgroupProperties subgroup{};
      subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
      VkPhysicalDeviceMaintenance3Properties maint3{};
      maint3.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES;
      VkPhysicalDeviceDriverProperties driver{};
      driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
      VkPhysicalDeviceVulkan13Properties v13{};
      v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES;
      props.pNext = &subgroup;
      subgroup.pNext = &maint3;
      if (api >= VK_API_VERSION_1_2)
        maint3.pNext = &driver;
      if (api >= VK_API_VERSION_1_3)
        driver.pNext = &v13;
      vk.vkGetPhysicalDeviceProperties2(phys, &props);
      d.vulkan11 = true;
      d.subgroupSize = subgroup.subgroupSize;
      d.fixedSubgroupSize = api < VK_API_VERSION_1_3 ||
                            (v13.minSubgroupSize == v13.maxSubgroupSize &&
                             v13.minSubgroupSize == subgroup.subgroupSize);
      d.maxAllocationSize = maint3.maxMemoryAllocationSize;
      if (api >= VK_API_VERSION_1_2) {
        d.driver = driver.driverName;
        if (driver.driverInfo[0])
          d.driver += std::string(" ") + driver.driverInfo;
      }
      FeatureChain features;
      features.link(api, d.cooperativeMatrix);
      vk.vkGetPhysicalDeviceFeatures2(phys, &features.core);
      d.shaderFloat64 = features.core.features.shaderFloat64;
      d.shaderInt64 = features.core.features.shaderInt64;
      d.shaderInt16 = features.core.features.shaderInt16;
      d.storageBuffer16Bit = features.storage16.storageBuffer16BitAccess;
      d.storageBuffer8Bit = features.storage8.storageBuffer8BitAccess;
      d.shaderFloat16 = features.float16Int8.shaderFloat16;
      d.shaderInt8 = features.float16Int8.shaderInt8;
      d.cooperativeMatrix = d.cooperativeMatrix &&
                            features.coopMat.cooperativeMatrix &&
                            api >= VK_API_VERSION_1_3;
      if (d.cooperativeMatrix)
        d.cooperativeMatrixShapes = queryCoopMatShapes(vk, phys);
    } else {
      d.cooperativeMatrix = false;
    }
    VkPhysicalDeviceMemoryProperties mem;
    vk.vkGetPhysicalDeviceMemoryProperties(phys, &mem);
    for (uint32_t h = 0; h < mem.memoryHeapCount; ++h)
      d.heaps.push_back(
          {mem.memoryHeaps[h].size,
           (mem.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0});
    vk.infos.push_back(std::move(d));
    vk.extensions.push_back(std::move(exts));
  }
  return vkp;
}

/// The loader and instance, or why Vulkan is unavailable: computed once.
const StatusOr<VulkanLoader *> &getLoader() {
  static const StatusOr<VulkanLoader *> *loader =
      new StatusOr<VulkanLoader *>(loadVulkan());
  return *loader;
}

} // namespace

StatusOr<std::vector<VulkanDeviceInfo>> plaidml::rt::enumerateVulkanDevices() {
  const StatusOr<VulkanLoader *> &loader = getLoader();
  if (!loader.ok())
    return loader.status();
  return (*loader)->infos;
}

//===----------------------------------------------------------------------===//
// VulkanDevice
//===----------------------------------------------------------------------===//

struct VulkanDevice::Impl {
  VulkanLoader &vk;
  VulkanDeviceInfo info;
  std::string label; // "vulkan:0 (llvmpipe ...)"
  std::mutex mu;
  VkPhysicalDevice phys = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties memory{};
  bool unifiedMemory = false; // CPU or integrated: prefer host-visible.
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queueFamily = 0;
  VkCommandPool commandPool = VK_NULL_HANDLE;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  VkPipelineCache pipelineCache = VK_NULL_HANDLE;
  /// PLAIDML_VULKAN_PIPELINE_STATS is set and the device has
  /// VK_KHR_pipeline_executable_properties: every pipeline's statistics
  /// (registers, spills, ...) go to stderr.
  bool pipelineStats = false;
  std::vector<VkDescriptorPool> pools;
  size_t currentPool = 0;

  /// State of the batch being recorded.
  bool recording = false;
  /// Buffers used since the last barrier.
  std::set<VkBuffer> sinceBarrier;
  /// Buffers used by the batch.
  std::set<VkBuffer> inBatch;
  /// Host-visible memory that uploads to device-local buffers copy
  /// through. Uploads take consecutive ranges of a chunk; synchronize()
  /// makes every chunk free again and keeps them (up to kMaxStagingBytes),
  /// so a program's per-call uploads (its constants) allocate no memory
  /// after the first call.
  struct StagingChunk {
    VkBuffer buffer;
    VkDeviceMemory mem;
    char *mapped;
    VkDeviceSize size, used;
  };
  std::vector<StagingChunk> staging;
  static constexpr VkDeviceSize kStagingChunkBytes = VkDeviceSize(8) << 20;
  static constexpr VkDeviceSize kMaxStagingBytes = VkDeviceSize(256) << 20;
  /// `bytes` of staging memory for an upload recorded in this batch: the
  /// chunk's buffer and the offset of the range in it.
  Status takeStaging(VkDeviceSize bytes, VkBuffer &buffer, VkDeviceSize &offset,
                     char *&mapped);

  explicit Impl(VulkanLoader &vk) : vk(vk) {}

  Status init();
  std::optional<uint32_t> findMemoryType(uint32_t typeBits,
                                         VkMemoryPropertyFlags required,
                                         VkMemoryPropertyFlags preferred);
  Status createRaw(VkDeviceSize bytes, bool hostVisible, bool readBack,
                   VkBuffer &buffer, VkDeviceMemory &memory, void **mapped,
                   bool *isHostVisible);
  Status beginRecording();
  /// Records a barrier if any of `buffers` was used since the last one.
  void hazard(std::initializer_list<VkBuffer> buffers);
  void hazard(const std::vector<VkBuffer> &buffers);
  Status allocateDescriptorSet(VkDescriptorSetLayout layout,
                               VkDescriptorSet &set);
  /// Waits for `fence`: polls it for up to kFencePollTime, then blocks.
  VkResult waitForFence();
  static constexpr std::chrono::microseconds kFencePollTime{2000};
  Status synchronize();
};

struct VulkanBuffer::Impl {
  std::shared_ptr<VulkanDevice::Impl> device;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void *mapped = nullptr;
  bool hostVisible = false;
};

struct VulkanKernel::Impl {
  std::shared_ptr<VulkanDevice::Impl> device;
  VkShaderModule module = VK_NULL_HANDLE;
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  VkPipelineLayout pipelineLayout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
};

Status VulkanDevice::Impl::init() {
  uint32_t familyCount = 0;
  vk.vkGetPhysicalDeviceQueueFamilyProperties(phys, &familyCount, nullptr);
  std::vector<VkQueueFamilyProperties> families(familyCount);
  vk.vkGetPhysicalDeviceQueueFamilyProperties(phys, &familyCount,
                                              families.data());
  // Prefer a compute queue without graphics (async compute), else any.
  std::optional<uint32_t> family;
  for (uint32_t i = 0; i < familyCount && !family; ++i)
    if ((families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) &&
        !(families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT))
      family = i;
  for (uint32_t i = 0; i < familyCount && !family; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
      family = i;
  if (!family)
    return Status::failure(label + " has no compute queue");
  queueFamily = *family;

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo{};
  queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queueInfo.queueFamilyIndex = queueFamily;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;

  // Enable the shader features the device has (not robustBufferAccess etc.).
  FeatureChain supported, enabled;
  uint32_t api = 0;
  {
    VkPhysicalDeviceProperties props;
    vk.vkGetPhysicalDeviceProperties(phys, &props);
    api = props.apiVersion;
  }
  supported.link(api, info.cooperativeMatrix);
  vk.vkGetPhysicalDeviceFeatures2(phys, &supported.core);
  enabled.link(api, info.cooperativeMatrix);
  enabled.core.features.shaderFloat64 = supported.core.features.shaderFloat64;
  enabled.core.features.shaderInt64 = supported.core.features.shaderInt64;
  enabled.core.features.shaderInt16 = supported.core.features.shaderInt16;
  enabled.storage16.storageBuffer16BitAccess =
      supported.storage16.storageBuffer16BitAccess;
  enabled.storage16.uniformAndStorageBuffer16BitAccess =
      supported.storage16.uniformAndStorageBuffer16BitAccess;
  enabled.storage8.storageBuffer8BitAccess =
      supported.storage8.storageBuffer8BitAccess;
  enabled.storage8.uniformAndStorageBuffer8BitAccess =
      supported.storage8.uniformAndStorageBuffer8BitAccess;
  enabled.float16Int8.shaderFloat16 = supported.float16Int8.shaderFloat16;
  enabled.float16Int8.shaderInt8 = supported.float16Int8.shaderInt8;
  enabled.coopMat.cooperativeMatrix = supported.coopMat.cooperativeMatrix;
  std::vector<const char *> extensions;
  if (info.cooperativeMatrix)
    extensions.push_back(kCoopMatExtension);
  // A debugging aid: the driver's statistics of each pipeline.
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executableInfo{};
  executableInfo.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR;
  const char *statsEnv = std::getenv("PLAIDML_VULKAN_PIPELINE_STATS");
  bool wantStats = statsEnv && *statsEnv && std::string(statsEnv) != "0";
  bool haveStats = vk.extensions[info.index].count(
      VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
  if (wantStats && !haveStats)
    std::fprintf(stderr,
                 "%s: PLAIDML_VULKAN_PIPELINE_STATS: no statistics (the "
                 "device does not offer %s)\n",
                 label.c_str(),
                 VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
  if (wantStats && haveStats) {
    extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    executableInfo.pipelineExecutableInfo = VK_TRUE;
    executableInfo.pNext = enabled.core.pNext;
    enabled.core.pNext = &executableInfo;
    pipelineStats = true;
    std::fprintf(stderr,
                 "%s: maxComputeSharedMemorySize %u, "
                 "maxComputeWorkGroupInvocations %u\n",
                 label.c_str(), info.maxSharedMemory,
                 info.maxWorkgroupInvocations);
  }

  VkDeviceCreateInfo deviceInfo{};
  deviceInfo.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  deviceInfo.pNext = &enabled.core;
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  deviceInfo.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  deviceInfo.ppEnabledExtensionNames = extensions.data();
  if (VkResult r = vk.vkCreateDevice(phys, &deviceInfo, nullptr, &device))
    return vkFailure("vkCreateDevice", r, label);
  vk.vkGetDeviceQueue(device, queueFamily, 0, &queue);

  VkCommandPoolCreateInfo poolInfo{};
  poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  poolInfo.queueFamilyIndex = queueFamily;
  VK_CHECK(vkCreateCommandPool, device, &poolInfo, nullptr, &commandPool);
  VkCommandBufferAllocateInfo cmdInfo{};
  cmdInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  cmdInfo.commandPool = commandPool;
  cmdInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cmdInfo.commandBufferCount = 1;
  VK_CHECK(vkAllocateCommandBuffers, device, &cmdInfo, &cmd);
  VkFenceCreateInfo fenceInfo{};
  fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  VK_CHECK(vkCreateFence, device, &fenceInfo, nullptr, &fence);
  VkPipelineCacheCreateInfo cacheInfo{};
  cacheInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
  VK_CHECK(vkCreatePipelineCache, device, &cacheInfo, nullptr, &pipelineCache);
  vk.vkGetPhysicalDeviceMemoryProperties(phys, &memory);
  return Status::success();
}

std::optional<uint32_t>
VulkanDevice::Impl::findMemoryType(uint32_t typeBits,
                                   VkMemoryPropertyFlags required,
                                   VkMemoryPropertyFlags preferred) {
  for (VkMemoryPropertyFlags want : {required | preferred, required})
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i)
      if ((typeBits & (1u << i)) &&
          (memory.memoryTypes[i].propertyFlags & want) == want)
        return i;
  return std::nullopt;
}

Status VulkanDevice::Impl::createRaw(VkDeviceSize bytes, bool hostVisible,
                                     bool readBack, VkBuffer &buffer,
                                     VkDeviceMemory &mem, void **mapped,
                                     bool *isHostVisible) {
  VkBufferCreateInfo bufferInfo{};
  bufferInfo.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  bufferInfo.size = bytes ? bytes : 4; // Vulkan has no empty buffers.
  bufferInfo.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                     VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  bufferInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (VkResult r = vk.vkCreateBuffer(device, &bufferInfo, nullptr, &buffer))
    return vkFailure("vkCreateBuffer", r, formatBytes(bytes) + " on " + label);
  VkMemoryRequirements req;
  vk.vkGetBufferMemoryRequirements(device, buffer, &req);

  // Staging and unified-memory buffers: host-visible and coherent; device
  // buffers of discrete GPUs: device-local.
  const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                     VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  std::optional<uint32_t> type;
  if (hostVisible)
    type = findMemoryType(req.memoryTypeBits, host,
                          readBack ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT
                                   : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  else if (unifiedMemory)
    type = findMemoryType(req.memoryTypeBits, host,
                          VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (!type && !hostVisible)
    type = findMemoryType(req.memoryTypeBits,
                          VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
  if (!type)
    type = findMemoryType(req.memoryTypeBits, hostVisible ? host : 0, 0);
  if (!type) {
    vk.vkDestroyBuffer(device, buffer, nullptr);
    return Status::failure("no suitable Vulkan memory type for a " +
                           formatBytes(bytes) + " buffer on " + label);
  }
  VkMemoryPropertyFlags flags = memory.memoryTypes[*type].propertyFlags;
  uint64_t heap = memory.memoryHeaps[memory.memoryTypes[*type].heapIndex].size;
  if (req.size > heap) {
    vk.vkDestroyBuffer(device, buffer, nullptr);
    return Status::failure(
        "cannot allocate a Vulkan buffer of " + formatBytes(bytes) + " on " +
        label + ": larger than its memory heap (" + formatBytes(heap) + ")");
  }
  VkMemoryAllocateInfo allocInfo{};
  allocInfo.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocInfo.allocationSize = req.size;
  allocInfo.memoryTypeIndex = *type;
  if (VkResult r = vk.vkAllocateMemory(device, &allocInfo, nullptr, &mem)) {
    vk.vkDestroyBuffer(device, buffer, nullptr);
    return vkFailure("vkAllocateMemory", r,
                     formatBytes(bytes) + " on " + label);
  }
  auto cleanup = [&] {
    vk.vkDestroyBuffer(device, buffer, nullptr);
    vk.vkFreeMemory(device, mem, nullptr);
  };
  if (VkResult r = vk.vkBindBufferMemory(device, buffer, mem, 0)) {
    cleanup();
    return vkFailure("vkBindBufferMemory", r);
  }
  *isHostVisible = (hostVisible || unifiedMemory) && (flags & host) == host;
  *mapped = nullptr;
  if (*isHostVisible)
    if (VkResult r = vk.vkMapMemory(device, mem, 0, VK_WHOLE_SIZE, 0, mapped)) {
      cleanup();
      return vkFailure("vkMapMemory", r);
    }
  return Status::success();
}

Status VulkanDevice::Impl::beginRecording() {
  if (recording)
    return Status::success();
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VK_CHECK(vkBeginCommandBuffer, cmd, &begin);
  recording = true;
  return Status::success();
}

void VulkanDevice::Impl::hazard(const std::vector<VkBuffer> &buffers) {
  bool conflict = false;
  for (VkBuffer b : buffers)
    conflict |= sinceBarrier.count(b) != 0;
  if (conflict) {
    // Compute and transfer writes visible to later compute and transfer
    // accesses (also orders write-after-read).
    VkMemoryBarrier barrier{};
    barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    barrier.srcAccessMask =
        VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask =
        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
        VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    VkPipelineStageFlags stages =
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    vk.vkCmdPipelineBarrier(cmd, stages, stages, 0, 1, &barrier, 0, nullptr, 0,
                            nullptr);
    sinceBarrier.clear();
  }
  for (VkBuffer b : buffers) {
    sinceBarrier.insert(b);
    inBatch.insert(b);
  }
}

void VulkanDevice::Impl::hazard(std::initializer_list<VkBuffer> buffers) {
  hazard(std::vector<VkBuffer>(buffers));
}

Status VulkanDevice::Impl::allocateDescriptorSet(VkDescriptorSetLayout layout,
                                                 VkDescriptorSet &set) {
  while (true) {
    bool created = false;
    if (currentPool == pools.size()) {
      VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4096};
      VkDescriptorPoolCreateInfo poolInfo{};
      poolInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
      poolInfo.maxSets = 512;
      poolInfo.poolSizeCount = 1;
      poolInfo.pPoolSizes = &size;
      VkDescriptorPool pool;
      VK_CHECK(vkCreateDescriptorPool, device, &poolInfo, nullptr, &pool);
      pools.push_back(pool);
      created = true;
    }
    VkDescriptorSetAllocateInfo allocInfo{};
    allocInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    allocInfo.descriptorPool = pools[currentPool];
    allocInfo.descriptorSetCount = 1;
    allocInfo.pSetLayouts = &layout;
    VkResult r = vk.vkAllocateDescriptorSets(device, &allocInfo, &set);
    if (r == VK_SUCCESS)
      return Status::success();
    // A full pool: move to the next one (reset by synchronize()). A fresh
    // pool that cannot hold the set is an error, not a reason to loop.
    if ((r != VK_ERROR_OUT_OF_POOL_MEMORY && r != VK_ERROR_FRAGMENTED_POOL) ||
        created)
      return vkFailure("vkAllocateDescriptorSets", r, label);
    ++currentPool;
  }
}

VkResult VulkanDevice::Impl::waitForFence() {
  // Poll for a while before blocking: a blocked thread wakes up tens of
  // microseconds after the fence signals, as long as a small kernel runs
  // (docs/VulkanRuntime.md, "Recording, barriers, synchronization").
  auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < kFencePollTime) {
    VkResult r = vk.vkGetFenceStatus(device, fence);
    if (r != VK_NOT_READY)
      return r;
  }
  return vk.vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX);
}

Status VulkanDevice::Impl::synchronize() {
  if (!recording)
    return Status::success();
  recording = false;
  sinceBarrier.clear();
  inBatch.clear();
  Status status;
  VkResult r = vk.vkEndCommandBuffer(cmd);
  if (r != VK_SUCCESS) {
    status = vkFailure("vkEndCommandBuffer", r);
  } else {
    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    r = vk.vkQueueSubmit(queue, 1, &submit, fence);
    if (r != VK_SUCCESS) {
      status = vkFailure("vkQueueSubmit", r, label);
    } else {
      r = waitForFence();
      if (r != VK_SUCCESS)
        status = vkFailure("vkWaitForFences", r, label);
      vk.vkResetFences(device, 1, &fence);
    }
  }
  if (!status.ok())
    vk.vkDeviceWaitIdle(device); // Nothing may still use what we free.
  vk.vkResetCommandBuffer(cmd, 0);
  for (VkDescriptorPool pool : pools)
    vk.vkResetDescriptorPool(device, pool, 0);
  currentPool = 0;
  // Every chunk is free again; keep the first ones up to the cap.
  VkDeviceSize kept = 0;
  std::vector<StagingChunk> keep;
  for (StagingChunk &chunk : staging) {
    if (kept + chunk.size <= kMaxStagingBytes) {
      kept += chunk.size;
      chunk.used = 0;
      keep.push_back(chunk);
      continue;
    }
    vk.vkDestroyBuffer(device, chunk.buffer, nullptr);
    vk.vkFreeMemory(device, chunk.mem, nullptr);
  }
  staging = std::move(keep);
  return status;
}

Status VulkanDevice::Impl::takeStaging(VkDeviceSize bytes, VkBuffer &buffer,
                                       VkDeviceSize &offset, char *&mapped) {
  // 16-byte aligned ranges (vkCmdCopyBuffer needs none; this keeps
  // memcpy destinations aligned).
  VkDeviceSize need = (bytes + 15) / 16 * 16;
  for (StagingChunk &chunk : staging) {
    if (chunk.size - chunk.used < need)
      continue;
    buffer = chunk.buffer;
    offset = chunk.used;
    mapped = chunk.mapped + chunk.used;
    chunk.used += need;
    return Status::success();
  }
  StagingChunk chunk{};
  chunk.size = std::max(need, kStagingChunkBytes);
  void *map = nullptr;
  bool hostVisible = false;
  if (Status s = createRaw(chunk.size, true, false, chunk.buffer, chunk.mem,
                           &map, &hostVisible);
      !s.ok())
    return s;
  if (!map) {
    vk.vkDestroyBuffer(device, chunk.buffer, nullptr);
    vk.vkFreeMemory(device, chunk.mem, nullptr);
    return Status::failure("no host-visible Vulkan memory for staging on " +
                           label);
  }
  chunk.mapped = static_cast<char *>(map);
  chunk.used = need;
  staging.push_back(chunk);
  buffer = chunk.buffer;
  offset = 0;
  mapped = chunk.mapped;
  return Status::success();
}

StatusOr<std::shared_ptr<VulkanDevice>>
VulkanDevice::create(unsigned index, bool forceStaging) {
  const StatusOr<VulkanLoader *> &loader = getLoader();
  if (!loader.ok())
    return loader.status();
  VulkanLoader &vk = **loader;
  if (index >= vk.infos.size())
    return Status::notFound(
        "no Vulkan device vulkan:" + std::to_string(index) + " (" +
        (vk.infos.empty() ? std::string("no Vulkan devices found")
                          : "found " + std::to_string(vk.infos.size()) +
                                ": vulkan:0 to vulkan:" +
                                std::to_string(vk.infos.size() - 1)) +
        ")");
  auto impl = std::unique_ptr<Impl>(new Impl(vk));
  impl->info = vk.infos[index];
  impl->phys = vk.physicalDevices[index];
  impl->label =
      "vulkan:" + std::to_string(index) + " (" + impl->info.name + ")";
  VkPhysicalDeviceProperties props;
  vk.vkGetPhysicalDeviceProperties(impl->phys, &props);
  if (props.apiVersion < VK_API_VERSION_1_1)
    return Status::failure(impl->label + " supports Vulkan " +
                           impl->info.apiVersion +
                           " only (1.1 or later needed)");
  impl->unifiedMemory =
      !forceStaging &&
      (props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ||
       props.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU);
  if (Status status = impl->init(); !status.ok()) {
    // Leaks what init() created: a device that failed to start is rare, and
    // the handles are owned by a (leaked) instance.
    impl.release();
    return status;
  }
  return std::shared_ptr<VulkanDevice>(new VulkanDevice(std::move(impl)));
}

StatusOr<std::shared_ptr<VulkanDevice>> VulkanDevice::get(unsigned index) {
  static std::mutex mu;
  // Never destroyed: devices live as long as the process.
  static auto *devices = new std::map<unsigned, std::shared_ptr<VulkanDevice>>;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = devices->find(index); it != devices->end())
    return it->second;
  StatusOr<std::shared_ptr<VulkanDevice>> device = create(index, false);
  if (device.ok())
    devices->emplace(index, *device);
  return device;
}

VulkanDevice::VulkanDevice(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}
VulkanDevice::~VulkanDevice() {
  // Devices live as long as the process (see get() and create()): keep the
  // Impl alive for any buffer or kernel that still points at it, and
  // reachable, so that a leak checker sees a live device rather than lost
  // memory (LeakSanitizer reported every device made by create()).
  static std::mutex mu;
  static auto *retired = new std::vector<std::unique_ptr<Impl>>;
  std::lock_guard<std::mutex> lock(mu);
  retired->push_back(std::move(impl));
}

const VulkanDeviceInfo &VulkanDevice::info() const { return impl->info; }

StatusOr<std::unique_ptr<VulkanBuffer>>
VulkanDevice::createBuffer(size_t bytes) {
  const VulkanDeviceInfo &d = impl->info;
  if (bytes > d.maxStorageBufferRange)
    return Status::failure("cannot create a Vulkan buffer of " +
                           formatBytes(bytes) + " on " + impl->label +
                           ": larger than its maxStorageBufferRange (" +
                           formatBytes(d.maxStorageBufferRange) + ")");
  if (d.maxAllocationSize && bytes > d.maxAllocationSize)
    return Status::failure("cannot create a Vulkan buffer of " +
                           formatBytes(bytes) + " on " + impl->label +
                           ": larger than its maxMemoryAllocationSize (" +
                           formatBytes(d.maxAllocationSize) + ")");
  std::lock_guard<std::mutex> lock(impl->mu);
  auto b = std::make_unique<VulkanBuffer::Impl>();
  b->device = std::shared_ptr<Impl>(impl.get(), [](Impl *) {});
  if (Status status =
          impl->createRaw(bytes, /*hostVisible=*/false, /*readBack=*/false,
                          b->buffer, b->memory, &b->mapped, &b->hostVisible);
      !status.ok())
    return status;
  return std::unique_ptr<VulkanBuffer>(new VulkanBuffer(std::move(b), bytes));
}

VulkanBuffer::VulkanBuffer(std::unique_ptr<Impl> impl, size_t bytes)
    : impl(std::move(impl)), bytes(bytes) {}

VulkanBuffer::~VulkanBuffer() {
  VulkanDevice::Impl &d = *impl->device;
  std::lock_guard<std::mutex> lock(d.mu);
  if (d.inBatch.count(impl->buffer))
    (void)d.synchronize(); // A failure was or will be reported elsewhere.
  d.vk.vkDestroyBuffer(d.device, impl->buffer, nullptr);
  d.vk.vkFreeMemory(d.device, impl->memory, nullptr);
}

bool VulkanBuffer::isHostVisible() const { return impl->hostVisible; }

static Status checkRange(const VulkanBuffer &buffer, size_t bytes,
                         size_t offset, const char *what) {
  if (offset > buffer.size() || bytes > buffer.size() - offset)
    return Status::failure(std::string(what) + " of " + std::to_string(bytes) +
                           " bytes at offset " + std::to_string(offset) +
                           " is outside a Vulkan buffer of " +
                           std::to_string(buffer.size()) + " bytes");
  return Status::success();
}

Status VulkanDevice::upload(VulkanBuffer &buffer, const void *data,
                            size_t bytes, size_t offset) {
  if (Status s = checkRange(buffer, bytes, offset, "upload"); !s.ok())
    return s;
  if (bytes == 0)
    return Status::success();
  std::lock_guard<std::mutex> lock(impl->mu);
  VulkanBuffer::Impl &b = *buffer.impl;
  if (b.hostVisible) {
    if (impl->inBatch.count(b.buffer))
      if (Status s = impl->synchronize(); !s.ok())
        return s;
    std::memcpy(static_cast<char *>(b.mapped) + offset, data, bytes);
    return Status::success();
  }
  VkBuffer stage;
  VkDeviceSize stageOffset;
  char *mapped;
  if (Status s = impl->takeStaging(bytes, stage, stageOffset, mapped); !s.ok())
    return s.withContext("staging buffer");
  std::memcpy(mapped, data, bytes);
  if (Status s = impl->beginRecording(); !s.ok())
    return s;
  impl->hazard({b.buffer});
  VkBufferCopy region{stageOffset, offset, bytes};
  impl->vk.vkCmdCopyBuffer(impl->cmd, stage, b.buffer, 1, &region);
  return Status::success();
}

Status VulkanDevice::download(const VulkanBuffer &buffer, void *data,
                              size_t bytes, size_t offset) {
  if (Status s = checkRange(buffer, bytes, offset, "download"); !s.ok())
    return s;
  std::lock_guard<std::mutex> lock(impl->mu);
  if (Status s = impl->synchronize(); !s.ok())
    return s;
  if (bytes == 0)
    return Status::success();
  const VulkanBuffer::Impl &b = *buffer.impl;
  if (b.hostVisible) {
    std::memcpy(data, static_cast<const char *>(b.mapped) + offset, bytes);
    return Status::success();
  }
  VkBuffer stage;
  VkDeviceMemory stageMem;
  void *mapped;
  bool hostVisible;
  if (Status s = impl->createRaw(bytes, true, true, stage, stageMem, &mapped,
                                 &hostVisible);
      !s.ok())
    return s.withContext("staging buffer");
  // The staging buffer is freed here, after the copy out (the upload
  // staging chunks are kept for the next batch by synchronize()).
  VulkanDevice::Impl &d = *impl;
  Status status = d.beginRecording();
  if (status.ok()) {
    VkBufferCopy region{offset, 0, bytes};
    d.vk.vkCmdCopyBuffer(d.cmd, b.buffer, stage, 1, &region);
    // The copied bytes must be visible to the host once the fence signals.
    VkMemoryBarrier barrier{};
    barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    d.vk.vkCmdPipelineBarrier(d.cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                              VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0,
                              nullptr, 0, nullptr);
    status = d.synchronize();
  }
  if (status.ok())
    std::memcpy(data, mapped, bytes);
  d.vk.vkDestroyBuffer(d.device, stage, nullptr);
  d.vk.vkFreeMemory(d.device, stageMem, nullptr);
  return status;
}

StatusOr<std::unique_ptr<VulkanKernel>>
VulkanDevice::createKernel(const std::vector<uint32_t> &words,
                           const std::string &entry, unsigned numBindings,
                           uint32_t pushConstantBytes) {
  if (Status s = detail::checkSpirv(words, entry); !s.ok())
    return s;
  if (pushConstantBytes % 4 != 0 ||
      pushConstantBytes > impl->info.maxPushConstantsSize)
    return Status::failure(
        "kernel '" + entry + "': " + std::to_string(pushConstantBytes) +
        " bytes of push constants (must be a multiple of 4, at most " +
        std::to_string(impl->info.maxPushConstantsSize) + " on " + impl->label +
        ")");
  std::lock_guard<std::mutex> lock(impl->mu);
  VulkanLoader &vk = impl->vk;
  VkDevice device = impl->device;
  auto k = std::make_unique<VulkanKernel::Impl>();
  k->device = std::shared_ptr<Impl>(impl.get(), [](Impl *) {});
  // Destroys what was created so far on failure.
  struct Guard {
    VulkanLoader &vk;
    VkDevice device;
    VulkanKernel::Impl *k;
    ~Guard() {
      if (!k)
        return;
      if (k->pipeline)
        vk.vkDestroyPipeline(device, k->pipeline, nullptr);
      if (k->pipelineLayout)
        vk.vkDestroyPipelineLayout(device, k->pipelineLayout, nullptr);
      if (k->setLayout)
        vk.vkDestroyDescriptorSetLayout(device, k->setLayout, nullptr);
      if (k->module)
        vk.vkDestroyShaderModule(device, k->module, nullptr);
    }
  } guard{vk, device, k.get()};

  VkShaderModuleCreateInfo moduleInfo{};
  moduleInfo.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  moduleInfo.codeSize = words.size() * sizeof(uint32_t);
  moduleInfo.pCode = words.data();
  VK_CHECK(vkCreateShaderModule, device, &moduleInfo, nullptr, &k->module);

  std::vector<VkDescriptorSetLayoutBinding> bindings(numBindings);
  for (unsigned i = 0; i < numBindings; ++i) {
    bindings[i].binding = i;
    bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[i].descriptorCount = 1;
    bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo setInfo{};
  setInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  setInfo.bindingCount = numBindings;
  setInfo.pBindings = bindings.data();
  VK_CHECK(vkCreateDescriptorSetLayout, device, &setInfo, nullptr,
           &k->setLayout);
  VkPipelineLayoutCreateInfo layoutInfo{};
  layoutInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layoutInfo.setLayoutCount = 1;
  layoutInfo.pSetLayouts = &k->setLayout;
  VkPushConstantRange pushRange{VK_SHADER_STAGE_COMPUTE_BIT, 0,
                                pushConstantBytes};
  if (pushConstantBytes) {
    layoutInfo.pushConstantRangeCount = 1;
    layoutInfo.pPushConstantRanges = &pushRange;
  }
  VK_CHECK(vkCreatePipelineLayout, device, &layoutInfo, nullptr,
           &k->pipelineLayout);
  VkComputePipelineCreateInfo pipelineInfo{};
  pipelineInfo.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  pipelineInfo.stage.sType =
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pipelineInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipelineInfo.stage.module = k->module;
  pipelineInfo.stage.pName = entry.c_str();
  pipelineInfo.layout = k->pipelineLayout;
  if (impl->pipelineStats)
    pipelineInfo.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  if (VkResult r = vk.vkCreateComputePipelines(
          device, impl->pipelineCache, 1, &pipelineInfo, nullptr, &k->pipeline))
    return vkFailure("vkCreateComputePipelines", r,
                     "entry point '" + entry + "' on " + impl->label);
  if (impl->pipelineStats)
    detail::printPipelineStatistics(vk.vkGetInstanceProcAddr, vk.instance,
                                    device, k->pipeline, entry);
  guard.k = nullptr;
  return std::unique_ptr<VulkanKernel>(
      new VulkanKernel(std::move(k), entry, numBindings, pushConstantBytes));
}

VulkanKernel::VulkanKernel(std::unique_ptr<Impl> impl, std::string entry,
                           unsigned bindings, uint32_t pushBytes)
    : impl(std::move(impl)), entry(std::move(entry)), bindings(bindings),
      pushBytes(pushBytes) {}

VulkanKernel::~VulkanKernel() {
  VulkanDevice::Impl &d = *impl->device;
  std::lock_guard<std::mutex> lock(d.mu);
  if (d.recording)
    (void)d.synchronize(); // The batch may use this pipeline.
  d.vk.vkDestroyPipeline(d.device, impl->pipeline, nullptr);
  d.vk.vkDestroyPipelineLayout(d.device, impl->pipelineLayout, nullptr);
  d.vk.vkDestroyDescriptorSetLayout(d.device, impl->setLayout, nullptr);
  d.vk.vkDestroyShaderModule(d.device, impl->module, nullptr);
}

Status VulkanDevice::copy(VulkanBuffer &dst, const VulkanBuffer &src,
                          size_t bytes, size_t dstOffset, size_t srcOffset) {
  if (Status s = checkRange(dst, bytes, dstOffset, "copy"); !s.ok())
    return s;
  if (Status s = checkRange(src, bytes, srcOffset, "copy"); !s.ok())
    return s;
  if (bytes == 0)
    return Status::success();
  std::lock_guard<std::mutex> lock(impl->mu);
  if (dst.impl->device.get() != impl.get() ||
      src.impl->device.get() != impl.get())
    return Status::failure("copy between buffers of another Vulkan device");
  if (Status s = impl->beginRecording(); !s.ok())
    return s;
  impl->hazard({dst.impl->buffer, src.impl->buffer});
  VkBufferCopy region{srcOffset, dstOffset, bytes};
  impl->vk.vkCmdCopyBuffer(impl->cmd, src.impl->buffer, dst.impl->buffer, 1,
                           &region);
  return Status::success();
}

Status VulkanDevice::dispatch(const VulkanKernel &kernel,
                              const std::vector<VulkanBuffer *> &buffers,
                              uint32_t x, uint32_t y, uint32_t z,
                              const void *pushConstants) {
  if (kernel.pushConstantBytes() && !pushConstants)
    return Status::failure("kernel '" + kernel.entryPoint() + "' takes " +
                           std::to_string(kernel.pushConstantBytes()) +
                           " bytes of push constants, got none");
  if (buffers.size() != kernel.numBindings())
    return Status::failure("kernel '" + kernel.entryPoint() + "' takes " +
                           std::to_string(kernel.numBindings()) +
                           " buffers, got " + std::to_string(buffers.size()));
  const VulkanDeviceInfo &d = impl->info;
  uint32_t groups[3] = {x, y, z};
  for (int i = 0; i < 3; ++i)
    if (groups[i] > d.maxWorkgroupCount[i])
      return Status::failure("dispatch of " + std::to_string(groups[i]) +
                             " workgroups in " + "xyz"[i] + " exceeds the " +
                             std::to_string(d.maxWorkgroupCount[i]) + " of " +
                             impl->label);
  if (x == 0 || y == 0 || z == 0)
    return Status::success();
  std::lock_guard<std::mutex> lock(impl->mu);
  VulkanLoader &vk = impl->vk;
  if (kernel.impl->device.get() != impl.get())
    return Status::failure("kernel '" + kernel.entryPoint() +
                           "' belongs to another Vulkan device");
  std::vector<VkBuffer> handles;
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (!buffers[i] || buffers[i]->impl->device.get() != impl.get())
      return Status::failure("buffer " + std::to_string(i) + " of kernel '" +
                             kernel.entryPoint() +
                             "' is null or belongs to another Vulkan device");
    handles.push_back(buffers[i]->impl->buffer);
  }
  if (Status s = impl->beginRecording(); !s.ok())
    return s;
  VkDescriptorSet set = VK_NULL_HANDLE;
  if (!buffers.empty()) {
    if (Status s = impl->allocateDescriptorSet(kernel.impl->setLayout, set);
        !s.ok())
      return s;
    std::vector<VkDescriptorBufferInfo> infos(buffers.size());
    std::vector<VkWriteDescriptorSet> writes(buffers.size());
    for (size_t i = 0; i < buffers.size(); ++i) {
      infos[i] = {handles[i], 0, VK_WHOLE_SIZE};
      writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      writes[i].dstSet = set;
      writes[i].dstBinding = static_cast<uint32_t>(i);
      writes[i].descriptorCount = 1;
      writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[i].pBufferInfo = &infos[i];
    }
    vk.vkUpdateDescriptorSets(impl->device,
                              static_cast<uint32_t>(writes.size()),
                              writes.data(), 0, nullptr);
  }
  impl->hazard(handles);
  vk.vkCmdBindPipeline(impl->cmd, VK_PIPELINE_BIND_POINT_COMPUTE,
                       kernel.impl->pipeline);
  if (set)
    vk.vkCmdBindDescriptorSets(impl->cmd, VK_PIPELINE_BIND_POINT_COMPUTE,
                               kernel.impl->pipelineLayout, 0, 1, &set, 0,
                               nullptr);
  if (kernel.pushConstantBytes())
    vk.vkCmdPushConstants(impl->cmd, kernel.impl->pipelineLayout,
                          VK_SHADER_STAGE_COMPUTE_BIT, 0,
                          kernel.pushConstantBytes(), pushConstants);
  vk.vkCmdDispatch(impl->cmd, x, y, z);
  return Status::success();
}

Status VulkanDevice::synchronize() {
  std::lock_guard<std::mutex> lock(impl->mu);
  return impl->synchronize();
}

#endif // PLAIDML_HAVE_VULKAN
