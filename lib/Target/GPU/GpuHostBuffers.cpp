//===- GpuHostBuffers.cpp - Device buffers for the host code --------------===//
//
// plaidml-gpu-host-buffers: in host functions that launch kernels, turns
// memref.alloc/dealloc into gpu.alloc/dealloc and copies constants
// (memref.get_global) passed to kernels, also through views, into device
// buffers with gpu.memcpy.
// Afterwards the host code only holds device handles; an op that would
// dereference one is an error naming it.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_GPUHOSTBUFFERSPASS
#include "plaidml/Target/GPU/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;

/// Whether `op` reads or writes memory through a memref operand on the host:
/// what a device handle cannot serve.
static bool touchesBufferContents(Operation *op) {
  if (isa<gpu::LaunchFuncOp, memref::AllocOp, memref::DeallocOp,
          memref::GetGlobalOp, func::ReturnOp, ViewLikeOpInterface>(op))
    return false;
  if (!llvm::any_of(op->getOperandTypes(), llvm::IsaPred<BaseMemRefType>))
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  // Unknown effects on a buffer: assume the worst.
  if (!effects)
    return true;
  return effects.hasEffect<MemoryEffects::Read>() ||
         effects.hasEffect<MemoryEffects::Write>();
}

/// Rewrites the buffers of one host function.
static LogicalResult rewriteHostFunction(func::FuncOp func) {
  WalkResult bad = func.walk([&](Operation *op) {
    if (!touchesBufferContents(op))
      return WalkResult::advance();
    op->emitError() << "host code of @" << func.getSymName()
                    << " accesses buffer contents with '" << op->getName()
                    << "', but its buffers live on the device; only kernels "
                       "may read or write them";
    return WalkResult::interrupt();
  });
  if (bad.wasInterrupted())
    return failure();

  SmallVector<memref::AllocOp> allocs;
  SmallVector<memref::DeallocOp> deallocs;
  SmallVector<memref::GetGlobalOp> globals;
  func.walk([&](Operation *op) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op))
      allocs.push_back(alloc);
    else if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
      deallocs.push_back(dealloc);
    else if (auto global = dyn_cast<memref::GetGlobalOp>(op))
      globals.push_back(global);
  });

  OpBuilder builder(func.getContext());
  for (memref::AllocOp alloc : allocs) {
    if (!alloc.getType().getLayout().isIdentity() ||
        alloc.getType().getMemorySpace())
      return alloc.emitError()
             << "host buffer of type " << alloc.getType()
             << " has a layout or memory space the device allocator does "
                "not support";
    builder.setInsertionPoint(alloc);
    auto gpuAlloc = gpu::AllocOp::create(
        builder, alloc.getLoc(), alloc.getType(), /*asyncToken=*/Type(),
        /*asyncDependencies=*/ValueRange(), alloc.getDynamicSizes(),
        alloc.getSymbolOperands(), /*hostShared=*/false);
    alloc.replaceAllUsesWith(gpuAlloc.getMemref());
    alloc.erase();
  }
  for (memref::DeallocOp dealloc : deallocs) {
    builder.setInsertionPoint(dealloc);
    gpu::DeallocOp::create(builder, dealloc.getLoc(), /*asyncToken=*/Type(),
                           ValueRange(), dealloc.getMemref());
    dealloc.erase();
  }

  // Constants used by kernels: a device copy per function call, freed at
  // every return.
  SmallVector<Value> copies;
  for (memref::GetGlobalOp global : globals) {
    // (An unrealized cast is a view of the constant with vector elements that
    // a staged kernel reads: plaidml-gpu-stage-contraction's wide staging.)
    bool launched = llvm::any_of(global->getUsers(), [](Operation *user) {
      return isa<gpu::LaunchFuncOp, ViewLikeOpInterface,
                 UnrealizedConversionCastOp>(user);
    });
    if (!launched)
      continue;
    builder.setInsertionPointAfter(global);
    auto type = cast<MemRefType>(global.getType());
    if (!type.getLayout().isIdentity())
      return global.emitError() << "constant of type " << type
                                << " has a layout the device copy does not "
                                   "support";
    auto gpuAlloc = gpu::AllocOp::create(builder, global.getLoc(), type, Type(),
                                         ValueRange(), ValueRange(),
                                         ValueRange(), /*hostShared=*/false);
    global.getResult().replaceAllUsesWith(gpuAlloc.getMemref());
    gpu::MemcpyOp::create(builder, global.getLoc(), Type(), ValueRange(),
                          gpuAlloc.getMemref(), global.getResult());
    copies.push_back(gpuAlloc.getMemref());
  }
  if (!copies.empty())
    func.walk([&](func::ReturnOp ret) {
      builder.setInsertionPoint(ret);
      for (Value copy : copies)
        gpu::DeallocOp::create(builder, ret.getLoc(), Type(), ValueRange(),
                               copy);
    });
  return success();
}

namespace {
struct GpuHostBuffersPass
    : public plaidml::impl::GpuHostBuffersPassBase<GpuHostBuffersPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      bool launches = false;
      func.walk([&](gpu::LaunchFuncOp) { launches = true; });
      if (launches && failed(rewriteHostFunction(func)))
        return signalPassFailure();
    }
  }
};
} // namespace
