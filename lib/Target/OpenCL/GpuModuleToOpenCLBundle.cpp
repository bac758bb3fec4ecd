//===- GpuModuleToOpenCLBundle.cpp - Kernels as SPIR-V and OpenCL C -------===//
//
// plaidml-gpu-module-to-opencl-bundle: each gpu.module becomes a gpu.binary
// whose one #gpu.object holds a kernel bundle (plaidml/Runtime/
// KernelBundle.h) with the module's SPIR-V and OpenCL C. The SPIR-V
// conversion runs as a dynamic pipeline on a copy of the module, inside a
// scratch builtin.module, with its diagnostics captured: a module it cannot
// convert keeps its OpenCL C alone and a note saying why, and the compile
// goes on. The runtime picks the format per device.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runtime/KernelBundle.h"
#include "plaidml/Target/OpenCL/EmitOpenCLC.h"
#include "plaidml/Target/OpenCL/Passes.h"

#include "PassCommon.h"
#include "plaidml/Target/OpenCL/SPIRVKernels.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/Path.h"

#include <optional>
#include <set>

namespace mlir::plaidml {
#define GEN_PASS_DEF_GPUMODULETOOPENCLBUNDLEPASS
#include "plaidml/Target/OpenCL/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;
namespace rt = ::plaidml::rt;

namespace {
/// Swallows the errors emitted while it lives and keeps the first one,
/// with where it is, for a bundle's note.
class ErrorCollector {
public:
  explicit ErrorCollector(MLIRContext *context)
      : handler(context, [this](Diagnostic &diag) {
          if (diag.getSeverity() == DiagnosticSeverity::Error && count++ == 0) {
            first = diag.str();
            if (auto loc = dyn_cast<FileLineColLoc>(diag.getLocation()))
              first += " (at " +
                       llvm::sys::path::filename(loc.getFilename()).str() +
                       ":" + std::to_string(loc.getLine()) + ":" +
                       std::to_string(loc.getColumn()) + ")";
          }
          return success();
        }) {}

  /// "<first error> (at f.mlir:7:8)", and how many more there were.
  std::string summary() const {
    if (count == 0)
      return "failed without an error message";
    return count == 1 ? first
                      : first + "; and " + std::to_string(count - 1) +
                            " more error(s)";
  }

private:
  std::string first;
  unsigned count = 0;
  ScopedDiagnosticHandler handler;
};

struct GpuModuleToOpenCLBundlePass
    : public mlir::plaidml::impl::GpuModuleToOpenCLBundlePassBase<
          GpuModuleToOpenCLBundlePass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // The dynamic pipeline creates ops of these dialects inside this pass.
    OpPassManager pm(ModuleOp::getOperationName());
    buildOpenCLSPIRVConversion(pm, /*serialize=*/true);
    pm.getDependentDialects(registry);
  }

  LogicalResult initialize(MLIRContext *) override {
    spirvPipeline.emplace(ModuleOp::getOperationName());
    buildOpenCLSPIRVConversion(*spirvPipeline, /*serialize=*/true);
    return success();
  }

  /// The SPIR-V of `module`, converted in a scratch module; nullopt, with
  /// `why` set, when it cannot be converted.
  std::optional<std::string> convertToSPIRV(gpu::GPUModuleOp module,
                                            Attribute target, std::string &why,
                                            ArrayAttr &requirements) {
    OpBuilder builder = OpBuilder::atBlockEnd(getOperation().getBody());
    auto scratch = ModuleOp::create(builder, module.getLoc());
    builder.setInsertionPointToStart(scratch.getBody());
    auto copy = cast<gpu::GPUModuleOp>(builder.clone(*module));
    copy.setTargetsAttr(builder.getArrayAttr({target}));
    std::optional<std::string> spirv;
    {
      ErrorCollector errors(&getContext());
      if (succeeded(runPipeline(*spirvPipeline, scratch))) {
        // plaidml-gpu-collect-requirements read them from the VCE triple.
        requirements = scratch->getAttrOfType<ArrayAttr>(kRequirementsAttrName);
        for (auto binary : scratch.getOps<gpu::BinaryOp>())
          for (Attribute attr : binary.getObjectsAttr())
            if (auto object = dyn_cast<gpu::ObjectAttr>(attr))
              spirv = object.getObject().getValue().str();
        if (!spirv)
          why = "the SPIR-V conversion made no binary";
      } else {
        why = errors.summary();
      }
    }
    scratch.erase();
    return spirv;
  }

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    OpenCLCOptions options;
    TargetAttr device = getTargetOrDefault(getOperation());
    bool fp16 = device.hasExtension("cl_khr_fp16");
    bool fp64 = device.hasExtension("cl_khr_fp64");
    options.fp16 = fp16;
    options.fp64 = fp64;
    options.emulateNvPtx = device.hasExtension(kEmulateNvPtxFeature);
    options.device = device.getDeviceLabel();
    // As in plaidml-gpu-module-to-opencl-c: the kernels of one Tile op
    // report its errors once.
    ReportOnceDiagnosticHandler reportOnce(context);
    bool failed = false;
    SmallVector<gpu::GPUModuleOp> modules(
        getOperation().getOps<gpu::GPUModuleOp>());
    for (gpu::GPUModuleOp module : modules) {
      Attribute target = getKernelTarget(module, fp16, fp64);

      rt::KernelBundle bundle;
      ArrayAttr spirvRequirements;
      bundle.name = module.getName().str();
      std::string why;
      auto env = dyn_cast<spirv::TargetEnvAttr>(target);
      if (env && env.getClientAPI() == spirv::ClientAPI::OpenCL)
        bundle.spirv = convertToSPIRV(module, target, why, spirvRequirements);
      else
        why = "the module's target is not an OpenCL #spirv.target_env";
      if (!bundle.spirv)
        bundle.note = "no SPIR-V: " + why;

      // With SPIR-V in hand, OpenCL C may fail quietly; without, its errors
      // are the compile's.
      std::string text;
      llvm::raw_string_ostream os(text);
      LogicalResult translated = failure();
      if (bundle.spirv) {
        ErrorCollector errors(context);
        translated = translateGpuModuleToOpenCLC(module, options, os);
        if (mlir::failed(translated))
          bundle.note = "no OpenCL C: " + errors.summary();
      } else {
        translated = translateGpuModuleToOpenCLC(module, options, os);
      }
      if (mlir::succeeded(translated))
        bundle.openclC = std::move(text);
      else if (!bundle.spirv) {
        failed = true;
        continue;
      }

      SmallVector<Attribute> formats;
      if (bundle.spirv)
        formats.push_back(StringAttr::get(context, "spirv"));
      if (bundle.openclC)
        formats.push_back(StringAttr::get(context, kOpenCLCKernelFormat));
      SmallVector<NamedAttribute> properties = {
          NamedAttribute(StringAttr::get(context, kKernelFormatAttrName),
                         StringAttr::get(context, kBundleKernelFormat)),
          NamedAttribute(StringAttr::get(context, kKernelFormatsAttrName),
                         ArrayAttr::get(context, formats))};
      // A device builds the OpenCL C when the bundle has it, else the
      // SPIR-V: the bundle needs what that format needs.
      ArrayAttr requirements = spirvRequirements;
      if (bundle.openclC) {
        SmallVector<Attribute> names;
        for (const std::string &name : getOpenCLCRequirements(*bundle.openclC))
          names.push_back(StringAttr::get(context, name));
        requirements = ArrayAttr::get(context, names);
      }
      if (!requirements)
        requirements = ArrayAttr::get(context, {});
      properties.push_back(NamedAttribute(
          StringAttr::get(context, kRequirementsAttrName), requirements));
      if (!bundle.note.empty())
        properties.push_back(
            NamedAttribute(StringAttr::get(context, kKernelNoteAttrName),
                           StringAttr::get(context, bundle.note)));
      replaceByBinary(module, target, rt::encodeKernelBundle(bundle),
                      DictionaryAttr::get(context, properties));
    }
    if (failed)
      signalPassFailure();
  }

  std::optional<OpPassManager> spirvPipeline;
};
} // namespace
