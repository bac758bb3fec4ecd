//===- PassCommon.h - What the kernel-module passes share -------*- C++ -*-===//
//
// plaidml-gpu-module-to-opencl-c and plaidml-gpu-module-to-opencl-bundle
// both replace each gpu.module by a gpu.binary of one object, and both
// report each error once: the kernels of one Tile op carry its location,
// so translating them would repeat its errors.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_TARGET_OPENCL_PASSCOMMON_H
#define PLAIDML_LIB_TARGET_OPENCL_PASSCOMMON_H

#include "plaidml/Target/OpenCL/SPIRVKernels.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

#include <set>
#include <string>

namespace mlir::plaidml {

/// While alive, swallows every diagnostic whose location and message were
/// already reported; the others go on to the previous handlers.
class ReportOnceDiagnosticHandler : public ScopedDiagnosticHandler {
public:
  explicit ReportOnceDiagnosticHandler(MLIRContext *context)
      : ScopedDiagnosticHandler(context) {
    setHandler([this](Diagnostic &diag) {
      std::string key;
      llvm::raw_string_ostream os(key);
      os << diag.getLocation() << diag.str();
      return success(!reported.insert(key).second);
    });
  }

private:
  std::set<std::string> reported;
};

/// The target of `module`'s kernels: its first target, or the OpenCL SPIR-V
/// target with `fp16` / `fp64` when it has none.
inline Attribute getKernelTarget(gpu::GPUModuleOp module, bool fp16,
                                 bool fp64) {
  if (ArrayAttr targets = module.getTargetsAttr(); targets && !targets.empty())
    return targets[0];
  return getOpenCLTargetEnv(module.getContext(), fp16, fp64);
}

/// Replaces `module` by a gpu.binary of the same name holding one fat-binary
/// object of `bytes` for `target`, with `properties`.
inline void replaceByBinary(gpu::GPUModuleOp module, Attribute target,
                            StringRef bytes, DictionaryAttr properties) {
  MLIRContext *context = module.getContext();
  auto object = gpu::ObjectAttr::get(
      context, target, gpu::CompilationTarget::Fatbin,
      StringAttr::get(context, bytes), properties, nullptr);
  OpBuilder builder(module);
  gpu::BinaryOp::create(builder, module.getLoc(), module.getName(),
                        module.getOffloadingHandlerAttr(),
                        builder.getArrayAttr({object}));
  module.erase();
}

} // namespace mlir::plaidml

#endif // PLAIDML_LIB_TARGET_OPENCL_PASSCOMMON_H
