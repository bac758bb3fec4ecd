//===- GpuLaunchBoolsAsBytes.cpp - i1 kernel buffers as i8 ----------------===//
//
// plaidml-gpu-launch-bools-as-bytes: after the kernels are serialized, casts
// every memref<...xi1> operand of a gpu.launch_func to memref<...xi8>, which
// is what the SPIR-V kernel reads and what gpu-to-llvm can give a byte size
// (intersperse-sizes-for-kernels); both lower to the same host descriptor.
// A vector-typed view of a buffer (an unrealized cast the staged kernels
// read through) is replaced by the buffer itself, the same bytes.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_GPULAUNCHBOOLSASBYTESPASS
#include "plaidml/Target/GPU/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;

namespace {
struct GpuLaunchBoolsAsBytesPass
    : public plaidml::impl::GpuLaunchBoolsAsBytesPassBase<
          GpuLaunchBoolsAsBytesPass> {
  void runOnOperation() override {
    getOperation().walk([](gpu::LaunchFuncOp launch) {
      OpBuilder builder(launch);
      for (OpOperand &operand : launch.getKernelOperandsMutable()) {
        // A vector-typed view of a buffer (the wide staging of
        // plaidml-gpu-stage-contraction): the kernel reads the same bytes
        // as the buffer itself.
        if (auto view =
                operand.get().getDefiningOp<UnrealizedConversionCastOp>()) {
          auto to = dyn_cast<MemRefType>(view.getType(0));
          auto from = view->getNumOperands() == 1
                          ? dyn_cast<MemRefType>(view->getOperand(0).getType())
                          : MemRefType();
          if (to && from && isa<VectorType>(to.getElementType()) &&
              from.hasStaticShape() && to.hasStaticShape() &&
              from.getElementType().isIntOrFloat() &&
              from.getNumElements() * from.getElementTypeBitWidth() ==
                  to.getNumElements() *
                      cast<VectorType>(to.getElementType()).getNumElements() *
                      cast<VectorType>(to.getElementType())
                          .getElementType()
                          .getIntOrFloatBitWidth()) {
            operand.set(view->getOperand(0));
            if (view->use_empty())
              view->erase();
            continue;
          }
        }
        auto type = dyn_cast<MemRefType>(operand.get().getType());
        if (!type || !type.getElementType().isInteger(1))
          continue;
        auto bytes = type.clone(builder.getI8Type());
        auto cast = UnrealizedConversionCastOp::create(
            builder, launch.getLoc(), TypeRange{bytes},
            ValueRange{operand.get()});
        operand.set(cast.getResult(0));
      }
    });
  }
};
} // namespace
