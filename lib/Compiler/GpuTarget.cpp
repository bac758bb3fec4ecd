//===- GpuTarget.cpp - GPU targets and the GPU launch ABI -----------------===//
//
// resolveVulkanTarget and resolveOpenCLTarget ask the runtime's drivers
// (Driver.h) what a device offers; collectSpirvRequirements reads OpCapability
// and OpExtension back from the serialized kernels, collectOpenCLRequirements
// the extensions from the OpenCL kernel modules (bundles included);
// bindGpuLaunchAbi rewrites the host module's mgpu* declarations into stubs
// over the runtime's table (GpuAbi.h).
//
//===----------------------------------------------------------------------===//

#include "GpuTarget.h"

#include "plaidml/Runtime/Driver.h"
#include "plaidml/Runtime/GpuAbi.h"
#include "plaidml/Runtime/KernelBundle.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVEnums.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <algorithm>
#include <cstring>
#include <set>

using namespace mlir;
using namespace mlir::plaidml;
namespace rt = ::plaidml::rt;

/// The DeviceInfo of device `index` of driver `driver`, if this machine has
/// it.
static std::optional<rt::DeviceInfo> findDevice(StringRef driver,
                                                unsigned index) {
  rt::StatusOr<rt::Driver *> found = rt::getDriver(driver);
  if (!found.ok())
    return std::nullopt;
  rt::StatusOr<std::vector<rt::DeviceInfo>> devices =
      (*found)->enumerateDevices();
  if (!devices.ok())
    return std::nullopt;
  for (rt::DeviceInfo &info : *devices)
    if (info.name.index == index)
      return std::move(info);
  return std::nullopt;
}

/// Every feature driver `driver` checks.
static std::vector<std::string> getCheckableFeatures(StringRef driver) {
  rt::StatusOr<rt::Driver *> found = rt::getDriver(driver);
  return found.ok() ? (*found)->getCheckableFeatures()
                    : std::vector<std::string>();
}

VulkanTarget mlir::plaidml::resolveVulkanTarget(unsigned index) {
  VulkanTarget target;
  std::vector<std::string> features;
  if (std::optional<rt::DeviceInfo> info = findDevice("vulkan", index)) {
    target.description =
        "vulkan:" + std::to_string(index) + " (" + info->model + ")";
    features = info->features;
  } else {
    // Not on this machine: a device with every feature the runtime checks.
    target.description = "vulkan:" + std::to_string(index) +
                         " (not on this machine; its features are checked "
                         "when the artifact is loaded)";
    features = getCheckableFeatures("vulkan");
  }
  // Extensions are named SPV_*, capabilities are not.
  for (std::string &feature : features)
    (StringRef(feature).starts_with("SPV_") ? target.exts : target.caps)
        .push_back(std::move(feature));
  return target;
}

OpenCLTarget mlir::plaidml::resolveOpenCLTarget(unsigned index) {
  OpenCLTarget target;
  if (std::optional<rt::DeviceInfo> info = findDevice("opencl", index)) {
    target.description =
        "opencl:" + std::to_string(index) + " (" + info->model + ")";
    target.fp64 = info->hasFeature("cl_khr_fp64");
    target.fp16 = info->hasFeature("cl_khr_fp16");
    return target;
  }
  target.description = "opencl:" + std::to_string(index) +
                       " (not on this machine; its extensions are checked "
                       "when the artifact is loaded)";
  target.fp64 = target.fp16 = true;
  return target;
}

/// OpCapability and OpExtension of one SPIR-V binary.
static llvm::Error scanSpirv(StringRef bytes, std::set<std::string> &out) {
  auto bad = [](const Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "kernel binary is not SPIR-V: " + why);
  };
  if (bytes.size() % 4 != 0 || bytes.size() < 20)
    return bad("size " + Twine(bytes.size()));
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  if (words[0] != 0x07230203)
    return bad("wrong magic number");
  constexpr uint32_t kOpExtension = 10, kOpCapability = 17;
  for (size_t i = 5; i < words.size();) {
    uint32_t count = words[i] >> 16, opcode = words[i] & 0xffff;
    if (count == 0 || i + count > words.size())
      return bad("truncated instruction at word " + Twine(i));
    if (opcode == kOpCapability && count == 2) {
      StringRef name = spirv::stringifyCapability(
          static_cast<spirv::Capability>(words[i + 1]));
      if (name.empty())
        return bad("unknown capability " + Twine(words[i + 1]));
      out.insert(name.str());
    } else if (opcode == kOpExtension && count >= 2) {
      const char *text = reinterpret_cast<const char *>(&words[i + 1]);
      out.insert(std::string(text, strnlen(text, (count - 1) * 4)));
    }
    i += count;
  }
  return llvm::Error::success();
}

/// The requirements `scan` collects from the bytes of every object of
/// every gpu.binary in `module`, sorted; the first failure stops the walk.
static llvm::Expected<std::vector<std::string>> collectFromKernelObjects(
    ModuleOp module,
    function_ref<llvm::Error(gpu::BinaryOp, StringRef, std::set<std::string> &)>
        scan) {
  std::set<std::string> requirements;
  llvm::Error error = llvm::Error::success();
  module.walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjectsAttr()) {
      auto object = dyn_cast<gpu::ObjectAttr>(attr);
      if (!object)
        continue;
      if (llvm::Error e =
              scan(binary, object.getObject().getValue(), requirements)) {
        error = std::move(e);
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (error)
    return std::move(error);
  return std::vector<std::string>(requirements.begin(), requirements.end());
}

llvm::Expected<std::vector<std::string>>
mlir::plaidml::collectSpirvRequirements(ModuleOp module) {
  return collectFromKernelObjects(
      module, [](gpu::BinaryOp, StringRef bytes, std::set<std::string> &out) {
        return scanSpirv(bytes, out);
      });
}

llvm::Expected<std::vector<std::string>>
mlir::plaidml::collectOpenCLRequirements(ModuleOp module) {
  return collectFromKernelObjects(
      module,
      [](gpu::BinaryOp binary, StringRef bytes,
         std::set<std::string> &out) -> llvm::Error {
        rt::StatusOr<rt::KernelBundle> kernels =
            rt::decodeKernelModule(bytes.data(), bytes.size());
        if (!kernels.ok())
          return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                         "gpu.binary @" + binary.getName() +
                                             ": " + kernels.message());
        if (kernels->openclC) {
          for (StringRef extension : {"cl_khr_fp64", "cl_khr_fp16"})
            if (StringRef(*kernels->openclC)
                    .contains(
                        ("#pragma OPENCL EXTENSION " + extension + " : enable")
                            .str()))
              out.insert(extension.str());
          return llvm::Error::success();
        }
        std::set<std::string> spirv;
        if (llvm::Error e = scanSpirv(*kernels->spirv, spirv))
          return e;
        out.insert("spirv");
        if (spirv.count("Float64"))
          out.insert("cl_khr_fp64");
        if (spirv.count("Float16"))
          out.insert("cl_khr_fp16");
        return llvm::Error::success();
      });
}

/// Calls each function of llvm.global_ctors (or _dtors) `name` in priority
/// order from a new exported function `symbol`, and erases the array.
static void moveInitializers(llvm::Module &module, StringRef name,
                             StringRef symbol) {
  llvm::LLVMContext &context = module.getContext();
  std::vector<std::pair<uint64_t, llvm::Function *>> functions;
  if (llvm::GlobalVariable *array = module.getGlobalVariable(name)) {
    if (auto *init =
            dyn_cast_or_null<llvm::ConstantArray>(array->getInitializer()))
      for (llvm::Value *element : init->operands()) {
        auto *entry = cast<llvm::ConstantStruct>(element);
        auto *priority = cast<llvm::ConstantInt>(entry->getOperand(0));
        if (auto *fn = dyn_cast<llvm::Function>(entry->getOperand(1)))
          functions.emplace_back(priority->getZExtValue(), fn);
      }
    array->eraseFromParent();
  }
  std::stable_sort(
      functions.begin(), functions.end(),
      [](const auto &a, const auto &b) { return a.first < b.first; });
  auto *fn = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), false),
      llvm::GlobalValue::ExternalLinkage, symbol, module);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", fn));
  for (auto &[priority, callee] : functions)
    builder.CreateCall(callee);
  builder.CreateRetVoid();
}

llvm::Error mlir::plaidml::bindGpuLaunchAbi(llvm::Module &module) {
  namespace abi = ::plaidml::gpuabi;
  llvm::LLVMContext &context = module.getContext();
  auto *ptrType = llvm::PointerType::getUnqual(context);
  auto *table = new llvm::GlobalVariable(
      module, ptrType, /*isConstant=*/false, llvm::GlobalValue::ExternalLinkage,
      llvm::ConstantPointerNull::get(ptrType), abi::kTableSymbol);
  auto *i32 = llvm::Type::getInt32Ty(context);
  new llvm::GlobalVariable(
      module, i32, /*isConstant=*/true, llvm::GlobalValue::ExternalLinkage,
      llvm::ConstantInt::get(i32, abi::kVersion), abi::kVersionSymbol);

  for (llvm::Function &fn : llvm::make_early_inc_range(module)) {
    if (!fn.isDeclaration() || !fn.getName().starts_with("mgpu"))
      continue;
    const auto *slot = llvm::find(abi::kFunctionNames, fn.getName());
    if (slot == std::end(abi::kFunctionNames))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "the host code calls '" + fn.getName() +
              "', which the PlaidML GPU runtime does not provide");
    // fn(args) { t = _plaidml_gpu_abi; return t[1 + slot](t[0], args); }
    fn.setLinkage(llvm::GlobalValue::InternalLinkage);
    llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", &fn));
    llvm::Value *entries = builder.CreateLoad(ptrType, table);
    llvm::Value *ctx =
        builder.CreateLoad(ptrType, builder.CreateConstInBoundsGEP1_64(
                                        ptrType, entries, abi::kContextIndex));
    unsigned index = abi::getTableIndex(
        static_cast<abi::Slot>(slot - std::begin(abi::kFunctionNames)));
    llvm::Value *callee = builder.CreateLoad(
        ptrType, builder.CreateConstInBoundsGEP1_64(ptrType, entries, index));
    SmallVector<llvm::Type *> params = {ptrType};
    llvm::append_range(params, fn.getFunctionType()->params());
    auto *calleeType =
        llvm::FunctionType::get(fn.getReturnType(), params, false);
    SmallVector<llvm::Value *> args = {ctx};
    llvm::append_range(args, llvm::make_pointer_range(fn.args()));
    llvm::CallInst *call = builder.CreateCall(calleeType, callee, args);
    if (fn.getReturnType()->isVoidTy())
      builder.CreateRetVoid();
    else
      builder.CreateRet(call);
  }
  moveInitializers(module, "llvm.global_ctors", abi::kLoadSymbol);
  moveInitializers(module, "llvm.global_dtors", abi::kUnloadSymbol);
  return llvm::Error::success();
}
