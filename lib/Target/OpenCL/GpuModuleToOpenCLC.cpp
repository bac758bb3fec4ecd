//===- GpuModuleToOpenCLC.cpp - Kernel modules as OpenCL C gpu.binary -----===//
//
// plaidml-gpu-module-to-opencl-c: the OpenCL C counterpart of
// gpu-module-to-binary. Each gpu.module is translated by
// translateGpuModuleToOpenCLC and replaced by a gpu.binary whose one
// #gpu.object holds the null-terminated text, so the host code lowers and
// embeds it exactly as it does SPIR-V.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/OpenCL/EmitOpenCLC.h"
#include "plaidml/Target/OpenCL/Passes.h"

#include "PassCommon.h"
#include "plaidml/Target/OpenCL/SPIRVKernels.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

#include <set>

namespace mlir::plaidml {
#define GEN_PASS_DEF_GPUMODULETOOPENCLCPASS
#include "plaidml/Target/OpenCL/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;

namespace {
struct GpuModuleToOpenCLCPass
    : public plaidml::impl::GpuModuleToOpenCLCPassBase<GpuModuleToOpenCLCPass> {
  using Base::Base;

  void runOnOperation() override {
    OpenCLCOptions options;
    TargetAttr device = getTargetOrDefault(getOperation());
    bool fp16 = device.hasExtension("cl_khr_fp16");
    bool fp64 = device.hasExtension("cl_khr_fp64");
    options.fp16 = fp16;
    options.fp64 = fp64;
    options.emulateNvPtx = device.hasExtension(kEmulateNvPtxFeature);
    options.device = device.getDeviceLabel();
    // Kernels made from one Tile op (a contraction's fill and its
    // reduction) would repeat its errors: each is reported once.
    ReportOnceDiagnosticHandler reportOnce(&getContext());
    bool failed = false;
    SmallVector<gpu::GPUModuleOp> modules(
        getOperation().getOps<gpu::GPUModuleOp>());
    for (gpu::GPUModuleOp module : modules) {
      std::string text;
      llvm::raw_string_ostream os(text);
      if (mlir::failed(translateGpuModuleToOpenCLC(module, options, os))) {
        failed = true;
        continue;
      }
      // mgpuModuleLoad gets (text, size): the NUL makes it a C string too.
      text.push_back('\0');
      MLIRContext *context = &getContext();
      Attribute target = getKernelTarget(module, fp16, fp64);
      SmallVector<Attribute> requirements;
      for (const std::string &name : getOpenCLCRequirements(text))
        requirements.push_back(StringAttr::get(context, name));
      auto properties = DictionaryAttr::get(
          context,
          {NamedAttribute(StringAttr::get(context, kKernelFormatAttrName),
                          StringAttr::get(context, kOpenCLCKernelFormat)),
           NamedAttribute(StringAttr::get(context, kRequirementsAttrName),
                          ArrayAttr::get(context, requirements))});
      replaceByBinary(module, target, text, properties);
    }
    if (failed)
      signalPassFailure();
  }
};
} // namespace
