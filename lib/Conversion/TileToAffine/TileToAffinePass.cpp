//===- TileToAffinePass.cpp - The convert-tile-to-affine pass -------------===//
//
// The thin pass wrapper around populateTileToAffineConversionPatterns. Before
// converting, it checks what the patterns assume and reports violations at
// their location in the user's terms: every function on tensors has a
// single-block body made only of Tile ops and func.return, is not external,
// and every tile.contract carries the bounds of tile-compute-bounds.
// Functions without tensors in their signature are left alone (they are
// already lowered, or are not PlaidML's).
//
//===----------------------------------------------------------------------===//

#include "plaidml/Conversion/Passes.h"
#include "plaidml/Conversion/TileToAffine/TileToAffine.h"
#include "plaidml/Dialect/Tile/IR/TileDialect.h"
#include "plaidml/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::plaidml {
#define GEN_PASS_DEF_CONVERTTILETOAFFINEPASS
#include "plaidml/Conversion/Passes.h.inc"
} // namespace mlir::plaidml

using namespace mlir;
using namespace mlir::plaidml;

namespace {
bool isStaticTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape();
}

/// Checks that `func` is a function the patterns can lower completely.
LogicalResult checkLowerable(func::FuncOp func) {
  FunctionType type = func.getFunctionType();
  bool onTensors = llvm::any_of(type.getInputs(), llvm::IsaPred<TensorType>) ||
                   llvm::any_of(type.getResults(), llvm::IsaPred<TensorType>);
  bool hasTileOps = false;
  func.walk([&](Operation *op) {
    hasTileOps |= isa<tile::TileDialect>(op->getDialect());
  });
  if (!onTensors && !hasTileOps)
    return success();
  if (func.isExternal())
    return func.emitError("cannot lower external function '")
           << func.getSymName()
           << "': convert-tile-to-affine needs the body of every function "
              "on tensors";
  for (auto [i, input] : llvm::enumerate(type.getInputs()))
    if (!isStaticTensor(input))
      return func.emitError("argument #")
             << i << " of '" << func.getSymName() << "' has type " << input
             << "; Tile functions take statically shaped tensors";
  for (auto [i, result] : llvm::enumerate(type.getResults()))
    if (!isStaticTensor(result))
      return func.emitError("result #")
             << i << " of '" << func.getSymName() << "' has type " << result
             << "; Tile functions return statically shaped tensors";
  if (!func.getBody().hasOneBlock())
    return func.emitError("function '")
           << func.getSymName()
           << "' has more than one block; Tile functions have one";

  bool ok = true;
  for (Operation &op : func.getBody().front()) {
    if (isa<func::ReturnOp>(op))
      continue;
    if (!isa<tile::TileDialect>(op.getDialect())) {
      op.emitError("'") << op.getName()
                        << "' is not a Tile op; convert-tile-to-affine lowers "
                           "functions made of Tile ops and func.return only";
      ok = false;
      continue;
    }
    if (auto contract = dyn_cast<tile::ContractionOp>(op)) {
      if (!contract.hasBounds()) {
        contract.emitError("'tile.contract' has no index bounds; run "
                           "tile-compute-bounds first");
        ok = false;
      }
    } else if (auto constant = dyn_cast<tile::ConstantOp>(op)) {
      if (!isa<DenseElementsAttr>(constant.getValue())) {
        constant.emitError("only dense constants can be lowered, not ")
            << constant.getValue();
        ok = false;
      }
    }
  }
  return success(ok);
}
} // namespace

/// Fails (with an error) unless Tile op `op` is directly in the body of a
/// function of `module`.
static LogicalResult checkPlacement(Operation *op, ModuleOp module) {
  auto func = dyn_cast_or_null<func::FuncOp>(op->getParentOp());
  if (func && func->getParentOp() == module)
    return success();
  // Inside another op's region (scf.for, ...) of a top-level function: name
  // that op, since the function is right there.
  auto enclosing = op->getParentOfType<func::FuncOp>();
  if (!func && enclosing && enclosing->getParentOp() == module)
    return op->emitError("'")
           << op->getName() << "' is inside '" << op->getParentOp()->getName()
           << "' in function '" << enclosing.getSymName()
           << "'; Tile ops must be directly in the body of a function (a "
              "Tile program has no control flow ops)";
  return op->emitError("'") << op->getName()
                            << "' is outside a function of the module; "
                               "convert-tile-to-affine lowers Tile ops in the "
                               "bodies of top-level functions";
}

namespace mlir::plaidml {
namespace {
struct ConvertTileToAffinePass
    : public impl::ConvertTileToAffinePassBase<ConvertTileToAffinePass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool ok = true;
    // Tile ops live in the bodies of the module's functions; anywhere else
    // (the module body, a nested module, another op's region) they have no
    // calling convention to lower to.
    module.walk([&](Operation *op) {
      if (isa<tile::TileDialect>(op->getDialect()))
        ok &= succeeded(checkPlacement(op, module));
    });
    for (auto func : module.getOps<func::FuncOp>())
      ok &= succeeded(checkLowerable(func));
    if (!ok)
      return signalPassFailure();

    MLIRContext *ctx = &getContext();
    TileToAffineTypeConverter converter;
    RewritePatternSet patterns(ctx);
    populateTileToAffineConversionPatterns(converter, patterns, borderFill,
                                           splitGuards);
    ConversionTarget target(*ctx);
    configureTileToAffineConversionTarget(target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::plaidml
