//===- GpuCollectRequirements.cpp - What the kernels need of a device -----===//
//
// plaidml-gpu-collect-requirements: reads what the kernels need of the
// device from the IR, before anything is serialized: the VCE triple of each
// spirv.module (which spirv-update-vce reduced to what the module uses) and
// the cooperative-matrix shapes its kernels multiply, and
// the plaidml.requirements property of each OpenCL kernel object, and
// records the union on the module for the manifest.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/Builders.h"

#include <set>

namespace mlir::plaidml {
#define GEN_PASS_DEF_GPUCOLLECTREQUIREMENTSPASS
#include "plaidml/Target/GPU/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;

namespace {
struct GpuCollectRequirementsPass
    : public plaidml::impl::GpuCollectRequirementsPassBase<
          GpuCollectRequirementsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool openCL = getTargetOrDefault(module).getDevice() == DeviceKind::opencl;
    std::set<std::string> requirements;

    WalkResult result = module.walk([&](spirv::ModuleOp spirvModule) {
      std::optional<spirv::VerCapExtAttr> triple = spirvModule.getVceTriple();
      if (!triple) {
        spirvModule.emitError() << "has no vce_triple, so what it needs of "
                                   "the device is unknown (run "
                                   "spirv-update-vce first)";
        return WalkResult::interrupt();
      }
      if (openCL)
        requirements.insert("spirv");
      for (spirv::Capability cap : triple->getCapabilities()) {
        if (!openCL)
          requirements.insert(spirv::stringifyCapability(cap).str());
        else if (cap == spirv::Capability::Float64)
          requirements.insert("cl_khr_fp64");
        else if (cap == spirv::Capability::Float16)
          requirements.insert("cl_khr_fp16");
      }
      if (!openCL)
        for (spirv::Extension ext : triple->getExtensions())
          requirements.insert(spirv::stringifyExtension(ext).str());
      // The cooperative-matrix shapes the kernels multiply, named as the
      // runtime lists the device's; the kernels lay out 32-invocation
      // subgroups (plaidml.gpu.coop_tile).
      spirvModule.walk([&](spirv::KHRCooperativeMatrixMulAddOp op) {
        auto a = cast<spirv::CooperativeMatrixType>(op.getA().getType());
        auto c = cast<spirv::CooperativeMatrixType>(op.getC().getType());
        std::string shape;
        llvm::raw_string_ostream os(shape);
        os << "coopmat-" << a.getRows() << "x" << c.getColumns() << "x"
           << a.getColumns() << "-" << a.getElementType() << "-"
           << c.getElementType();
        requirements.insert(shape);
        requirements.insert("subgroup-size-32");
      });
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();

    for (auto binary : module.getOps<gpu::BinaryOp>())
      for (Attribute attr : binary.getObjectsAttr()) {
        auto object = dyn_cast<gpu::ObjectAttr>(attr);
        DictionaryAttr properties = object ? object.getProperties() : nullptr;
        auto list = properties
                        ? properties.getAs<ArrayAttr>(kRequirementsAttrName)
                        : ArrayAttr();
        if (!list)
          continue;
        for (Attribute name : list)
          if (auto string = dyn_cast<StringAttr>(name))
            requirements.insert(string.getValue().str());
      }

    Builder builder(&getContext());
    SmallVector<Attribute> names;
    for (const std::string &name : requirements)
      names.push_back(builder.getStringAttr(name));
    module->setAttr(kRequirementsAttrName, builder.getArrayAttr(names));
  }
};
} // namespace
