//===- AppendGradients.cpp - Return the gradients of a loss ---------------===//
//
// tile-append-gradients: for every function, differentiates its first
// result with respect to the arguments marked `tile.wrt` (all float
// arguments when none is marked) with buildGradients and appends the
// gradients to the returned values, extending the function type.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Dialect/Tile/IR/TileOps.h"
#include "plaidml/Dialect/Tile/Transforms/Gradients.h"
#include "plaidml/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::plaidml::tile {
#define GEN_PASS_DEF_TILEAPPENDGRADIENTSPASS
#include "plaidml/Dialect/Tile/Transforms/Passes.h.inc"

namespace {
struct TileAppendGradientsPass
    : public impl::TileAppendGradientsPassBase<TileAppendGradientsPass> {
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (fn.isExternal())
      return;
    if (!fn.getBody().hasOneBlock()) {
      fn.emitOpError("tile-append-gradients needs a single-block body");
      return signalPassFailure();
    }
    auto ret = dyn_cast<func::ReturnOp>(fn.front().getTerminator());
    if (!ret || ret.getNumOperands() == 0) {
      fn.emitOpError("tile-append-gradients needs a first result (the loss)");
      return signalPassFailure();
    }
    SmallVector<Value> wrt;
    for (BlockArgument arg : fn.getArguments())
      if (fn.getArgAttr(arg.getArgNumber(), "tile.wrt"))
        wrt.push_back(arg);
    if (wrt.empty())
      for (BlockArgument arg : fn.getArguments()) {
        auto type = dyn_cast<RankedTensorType>(arg.getType());
        if (type && isa<FloatType>(type.getElementType()))
          wrt.push_back(arg);
      }

    OpBuilder b(ret);
    FailureOr<SmallVector<Value>> grads =
        buildGradients(b, ret.getOperand(0), wrt);
    if (failed(grads))
      return signalPassFailure();
    SmallVector<Value> results(ret.getOperands());
    llvm::append_range(results, *grads);
    func::ReturnOp::create(b, ret.getLoc(), results);
    ret.erase();
    SmallVector<Type> resultTypes;
    for (Value v : results)
      resultTypes.push_back(v.getType());
    fn.setFunctionType(
        FunctionType::get(fn.getContext(), fn.getArgumentTypes(), resultTypes));
  }
};
} // namespace
} // namespace mlir::plaidml::tile
