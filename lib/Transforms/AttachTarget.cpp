//===- AttachTarget.cpp - The module's plaidml.target ---------------------===//
//
// plaidml-attach-target: builds a #plaidml.target from the pass options and
// sets it on the module, where the configure passes, the GPU passes and the
// entry-point pass read it. An empty `cpu` becomes the device's default
// (getDefaultCpu: native for CPU artifacts, a portable baseline for the host
// code of GPU artifacts).
//
//===----------------------------------------------------------------------===//

#include "plaidml/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_ATTACHTARGETPASS
#include "plaidml/Transforms/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;

namespace {
struct AttachTargetPass
    : public plaidml::impl::AttachTargetPassBase<AttachTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<DeviceKind> kind = symbolizeDeviceKind(device);
    if (!kind) {
      module.emitError() << "unknown device kind '" << device
                         << "' (expected cpu, vulkan or opencl)";
      return signalPassFailure();
    }
    Builder builder(&getContext());
    auto toArray = [&](ArrayRef<std::string> names) -> ArrayAttr {
      if (names.empty())
        return nullptr;
      SmallVector<Attribute> strings;
      for (const std::string &name : names)
        strings.push_back(builder.getStringAttr(name));
      return builder.getArrayAttr(strings);
    };
    std::string cpuName =
        cpu.empty() ? getDefaultCpu(*kind, triple).str() : std::string(cpu);
    auto emit = [&] { return module.emitError(); };
    TargetAttr target = TargetAttr::getChecked(
        emit, &getContext(), *kind, StringRef(triple), StringRef(cpuName),
        StringRef(features), toArray(caps), toArray(exts),
        static_cast<int64_t>(maxWorkgroupSize), StringRef(label));
    if (!target)
      return signalPassFailure();
    module->setAttr(kTargetAttrName, target);
  }
};
} // namespace
