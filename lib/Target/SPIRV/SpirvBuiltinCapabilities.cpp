//===- SpirvBuiltinCapabilities.cpp - Capabilities of subgroup built-ins --===//
//
// plaidml-spirv-builtin-capabilities: spirv-update-vce deduces a module's
// capabilities from its ops and types, not from the built-in variables it
// declares; a Shader module that reads SubgroupId,
// SubgroupLocalInvocationId, NumSubgroups or SubgroupSize (gpu.subgroup_id,
// gpu.lane_id, ...) must also declare GroupNonUniform. This pass adds it to
// the module's vce_triple.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/SPIRV/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_SPIRVBUILTINCAPABILITIESPASS
#include "plaidml/Target/SPIRV/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;

namespace {
struct SpirvBuiltinCapabilitiesPass
    : public plaidml::impl::SpirvBuiltinCapabilitiesPassBase<
          SpirvBuiltinCapabilitiesPass> {
  void runOnOperation() override {
    spirv::ModuleOp module = getOperation();
    std::optional<spirv::VerCapExtAttr> triple = module.getVceTriple();
    if (!triple)
      return;
    bool subgroup = false;
    for (auto var : module.getOps<spirv::GlobalVariableOp>()) {
      StringAttr name = var.getBuiltInAttr();
      if (!name)
        continue;
      std::optional<spirv::BuiltIn> builtin =
          spirv::symbolizeBuiltIn(name.getValue());
      subgroup |=
          builtin && (*builtin == spirv::BuiltIn::SubgroupId ||
                      *builtin == spirv::BuiltIn::SubgroupLocalInvocationId ||
                      *builtin == spirv::BuiltIn::NumSubgroups ||
                      *builtin == spirv::BuiltIn::SubgroupSize);
    }
    SmallVector<spirv::Capability> caps =
        llvm::to_vector(triple->getCapabilities());
    if (!subgroup || !llvm::is_contained(caps, spirv::Capability::Shader) ||
        llvm::is_contained(caps, spirv::Capability::GroupNonUniform))
      return;
    caps.push_back(spirv::Capability::GroupNonUniform);
    SmallVector<spirv::Extension> exts =
        llvm::to_vector(triple->getExtensions());
    // GroupNonUniform is core from SPIR-V 1.3.
    spirv::Version version =
        std::max(triple->getVersion(), spirv::Version::V_1_3);
    module.setVceTripleAttr(
        spirv::VerCapExtAttr::get(version, caps, exts, &getContext()));
  }
};
} // namespace
