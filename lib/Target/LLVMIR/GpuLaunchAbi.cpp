//===- GpuLaunchAbi.cpp - Host code of a GPU artifact to the launch ABI ---===//
//
// bindGpuLaunchAbi, a step of translateToLLVMIR for GPU targets: rewrites the
// host module's mgpu* declarations (from gpu-to-llvm and the gpu.binary
// translation) into stubs over the runtime's table (GpuAbi.h), and its
// global constructors and destructors into the exported load and unload
// functions the runtime calls once the table is set.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/LLVMIR/Translation.h"

#include "plaidml/Runtime/GpuAbi.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
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
