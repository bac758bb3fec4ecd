//===- EraseZeroSizeBuffers.cpp - Work on tensors without elements --------===//
//
// plaidml-erase-zero-size-buffers: erases the loop nests that run no
// iteration, the zero-size temporaries and copies nothing reads, and gives
// the function's unused zero-size arguments the type memref<0xT>, which the
// bare-pointer calling convention and the GPU lowerings accept (they refuse
// memref<3x0xT>). Passes.td has the rules.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_ERASEZEROSIZEBUFFERSPASS
#include "plaidml/Transforms/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;

namespace {

bool isZeroSize(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && llvm::is_contained(memref.getShape(), 0);
}

/// Whether a loop with constant bounds runs no iteration.
bool runsNoIteration(Operation *op) {
  if (auto loop = dyn_cast<affine::AffineForOp>(op))
    return loop.hasConstantBounds() &&
           loop.getConstantUpperBound() <= loop.getConstantLowerBound();
  if (auto loop = dyn_cast<affine::AffineParallelOp>(op)) {
    std::optional<SmallVector<int64_t, 8>> ranges = loop.getConstantRanges();
    return ranges && llvm::any_of(*ranges, [](int64_t r) { return r <= 0; });
  }
  return false;
}

/// A loop that runs no iteration, erased: its results (affine.for
/// iter_args, affine.parallel reductions) are its initial values, or the
/// reduction's identity.
LogicalResult eraseEmptyLoop(Operation *op) {
  if (auto loop = dyn_cast<affine::AffineForOp>(op)) {
    loop.replaceAllUsesWith(loop.getInits());
    loop.erase();
    return success();
  }
  auto loop = cast<affine::AffineParallelOp>(op);
  if (loop.getNumResults() != 0) {
    OpBuilder b(loop);
    SmallVector<Value> identities;
    for (auto [kind, result] :
         llvm::zip_equal(loop.getReductions(), loop.getResults())) {
      auto reduction = cast<arith::AtomicRMWKindAttr>(kind).getValue();
      TypedAttr identity = arith::getIdentityValueAttr(
          reduction, result.getType(), b, loop.getLoc());
      if (!identity)
        return loop.emitOpError("runs no iteration and its reduction has no "
                                "identity value to stand for its result");
      identities.push_back(
          arith::ConstantOp::create(b, loop.getLoc(), identity));
    }
    loop.replaceAllUsesWith(identities);
  }
  loop.erase();
  return success();
}

/// Whether an op that touches a zero-size buffer moves no data and can go:
/// its deallocation, or a copy from or to it.
bool movesNothing(Operation *user) {
  return isa<memref::DeallocOp, memref::CopyOp>(user);
}

struct EraseZeroSizeBuffersPass
    : mlir::plaidml::impl::EraseZeroSizeBuffersPassBase<
          EraseZeroSizeBuffersPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();

    // The outermost loops that run no iteration; their bodies go with them.
    SmallVector<Operation *> empty;
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!runsNoIteration(op))
        return WalkResult::advance();
      empty.push_back(op);
      return WalkResult::skip();
    });
    for (Operation *op : empty)
      if (failed(eraseEmptyLoop(op)))
        return signalPassFailure();

    // Copies of zero-size buffers, then zero-size temporaries.
    func.walk([&](memref::CopyOp copy) {
      if (isZeroSize(copy.getSource().getType()))
        copy.erase();
    });
    SmallVector<Operation *> allocs;
    func.walk([&](Operation *op) {
      if (isa<memref::AllocOp, memref::AllocaOp>(op) &&
          isZeroSize(op->getResult(0).getType()) &&
          llvm::all_of(op->getUsers(), movesNothing))
        allocs.push_back(op);
    });
    for (Operation *alloc : allocs) {
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        user->erase();
      alloc->erase();
    }

    // Unused zero-size arguments become memref<0xT>.
    if (func.isExternal())
      return;
    SmallVector<Type> inputs(func.getArgumentTypes());
    bool changed = false;
    for (BlockArgument arg : func.getArguments()) {
      if (!isZeroSize(arg.getType()) || !arg.use_empty())
        continue;
      auto type = cast<MemRefType>(arg.getType());
      Type flat =
          MemRefType::get({0}, type.getElementType(),
                          MemRefLayoutAttrInterface(), type.getMemorySpace());
      arg.setType(flat);
      inputs[arg.getArgNumber()] = flat;
      changed = true;
    }
    if (changed)
      func.setFunctionType(
          FunctionType::get(&getContext(), inputs, func.getResultTypes()));
  }
};

} // namespace
