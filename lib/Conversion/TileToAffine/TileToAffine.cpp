//===- TileToAffine.cpp - Tile to affine: types, functions, buffers -------===//
//
// The frame of convert-tile-to-affine: the type converter (tensors to
// signless identity-layout memrefs), the rewriting of function signatures
// into the calling convention of docs/ABI.md section 1 (outputs as trailing
// memref arguments, no results, plaidml.* attributes), func.return (copies
// into the output buffers that were not written directly), the choice of
// the buffer each op computes into, and the loop-nest helpers the op
// lowerings share. The op lowerings themselves live in Contraction.cpp,
// Elementwise.cpp, Shape.cpp and SortAndRandom.cpp.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "plaidml/Conversion/TileToAffine/TileToAffine.h"
#include "plaidml/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::plaidml;
using namespace mlir::plaidml::tile_to_affine;

//===----------------------------------------------------------------------===//
// Type conversion
//===----------------------------------------------------------------------===//

TileToAffineTypeConverter::TileToAffineTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion([](RankedTensorType type) -> Type {
    return MemRefType::get(type.getShape(),
                           getSignlessType(type.getElementType()));
  });
}

namespace {
bool hasTensorType(TypeRange types) {
  return llvm::any_of(types, [](Type t) { return isa<TensorType>(t); });
}

/// Number of inputs of a converted function (the outputs follow them).
unsigned getNumInputs(func::FuncOp func) {
  if (auto inputs = func->getAttrOfType<ArrayAttr>(kInputsAttrName))
    return inputs.size();
  return func.getNumArguments();
}
} // namespace

void mlir::plaidml::configureTileToAffineConversionTarget(
    ConversionTarget &target) {
  target.addIllegalDialect<tile::TileDialect>();
  target.addLegalDialect<affine::AffineDialect, arith::ArithDialect,
                         math::MathDialect, memref::MemRefDialect,
                         scf::SCFDialect>();
  // A function is converted once its signature holds no tensors and, when
  // its body had Tile ops, it carries the calling-convention attributes (so a
  // `() -> ()` function of Tile ops is still rewritten).
  target.addDynamicallyLegalOp<func::FuncOp>([](func::FuncOp func) {
    FunctionType type = func.getFunctionType();
    if (hasTensorType(type.getInputs()) || hasTensorType(type.getResults()))
      return false;
    if (func->hasAttr(kOutputsAttrName))
      return true;
    return !func.walk([](Operation *op) {
                  return isa<tile::TileDialect>(op->getDialect())
                             ? WalkResult::interrupt()
                             : WalkResult::advance();
                })
                .wasInterrupted();
  });
  target.addDynamicallyLegalOp<func::ReturnOp>(
      [](func::ReturnOp ret) { return !hasTensorType(ret.getOperandTypes()); });
}

//===----------------------------------------------------------------------===//
// Buffers and loop nests
//===----------------------------------------------------------------------===//

Value tile_to_affine::getResultBuffer(ConversionPatternRewriter &rewriter,
                                      Operation *op, MemRefType type) {
  return getResultBuffer(rewriter, op->getResult(0), type);
}

Value tile_to_affine::getResultBuffer(ConversionPatternRewriter &rewriter,
                                      OpResult result, MemRefType type) {
  Operation *op = result.getOwner();
  Location loc = op->getLoc();
  auto func = op->getParentOfType<func::FuncOp>();
  for (OpOperand &use : result.getUses()) {
    if (!isa<func::ReturnOp>(use.getOwner()))
      continue;
    // The first position this value is returned at; later ones are copies.
    unsigned slot = use.getOperandNumber();
    for (OpOperand &other : result.getUses())
      if (other.getOwner() == use.getOwner())
        slot = std::min(slot, other.getOperandNumber());
    return func.getArgument(getNumInputs(func) + slot);
  }
  Value alloc = memref::AllocOp::create(rewriter, loc, type);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op->getBlock()->getTerminator());
  memref::DeallocOp::create(rewriter, loc, alloc);
  return alloc;
}

void tile_to_affine::buildParallelNest(OpBuilder &b, Location loc,
                                       ArrayRef<int64_t> shape,
                                       NestBodyBuilder body) {
  if (shape.empty()) {
    body(b, loc, {});
    return;
  }
  auto par = affine::AffineParallelOp::create(
      b, loc, TypeRange{}, ArrayRef<arith::AtomicRMWKind>{}, shape);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(par.getBody());
  body(b, loc, par.getIVs());
}

void tile_to_affine::buildSequentialNest(OpBuilder &b, Location loc,
                                         ArrayRef<int64_t> shape,
                                         NestBodyBuilder body) {
  OpBuilder::InsertionGuard guard(b);
  SmallVector<Value> ivs;
  for (int64_t size : shape) {
    auto loop = affine::AffineForOp::create(b, loc, 0, size);
    ivs.push_back(loop.getInductionVar());
    b.setInsertionPointToStart(loop.getBody());
  }
  body(b, loc, ivs);
}

AffineMap tile_to_affine::getBroadcastMap(ArrayRef<int64_t> from,
                                          ArrayRef<int64_t> to,
                                          MLIRContext *ctx) {
  assert(from.size() <= to.size() && "operand has a higher rank than result");
  size_t offset = to.size() - from.size();
  SmallVector<AffineExpr> exprs;
  for (auto [i, size] : llvm::enumerate(from))
    exprs.push_back(size == 1 ? getAffineConstantExpr(0, ctx)
                              : getAffineDimExpr(offset + i, ctx));
  return AffineMap::get(to.size(), 0, exprs, ctx);
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

namespace {
/// `(tensor...) -> (tensor...)` becomes `(memref... inputs, memref...
/// outputs) -> ()` with the original types recorded as attributes.
struct FuncOpLowering : OpConversionPattern<func::FuncOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(func::FuncOp func, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (func.isExternal())
      return rewriter.notifyMatchFailure(func, "external function");
    FunctionType type = func.getFunctionType();
    const TypeConverter &converter = *getTypeConverter();
    TypeConverter::SignatureConversion signature(type.getNumInputs());
    for (auto [i, input] : llvm::enumerate(type.getInputs())) {
      Type converted = converter.convertType(input);
      if (!converted || !isa<MemRefType>(converted))
        return rewriter.notifyMatchFailure(func, "argument is not a tensor");
      signature.addInputs(i, converted);
    }
    SmallVector<Type> outputs;
    for (Type result : type.getResults()) {
      Type converted = converter.convertType(result);
      if (!converted || !isa<MemRefType>(converted))
        return rewriter.notifyMatchFailure(func, "result is not a tensor");
      outputs.push_back(converted);
    }
    signature.addInputs(outputs);

    rewriter.applySignatureConversion(&func.getBody().front(), signature,
                                      &converter);
    MLIRContext *ctx = func.getContext();
    auto typeAttrs = [](TypeRange types) {
      return llvm::map_to_vector(
          types, [](Type t) -> Attribute { return TypeAttr::get(t); });
    };
    rewriter.modifyOpInPlace(func, [&] {
      func.setFunctionType(
          FunctionType::get(ctx, signature.getConvertedTypes(), {}));
      if (ArrayAttr argAttrs = func.getAllArgAttrs()) {
        SmallVector<Attribute> all(argAttrs.begin(), argAttrs.end());
        all.append(outputs.size(), DictionaryAttr::get(ctx));
        func.setAllArgAttrs(all);
      }
      func.removeResAttrsAttr();
      if (func.isPublic())
        func->setAttr(kEntryAttrName, UnitAttr::get(ctx));
      func->setAttr(kInputsAttrName,
                    ArrayAttr::get(ctx, typeAttrs(type.getInputs())));
      func->setAttr(kOutputsAttrName,
                    ArrayAttr::get(ctx, typeAttrs(type.getResults())));
    });
    return success();
  }
};

/// Copies every returned value that was not computed into its output buffer
/// (function arguments, constants, a value returned twice) and returns
/// nothing. The copies go before the deallocations of the intermediates.
struct ReturnOpLowering : OpConversionPattern<func::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(func::ReturnOp ret, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto func = ret->getParentOfType<func::FuncOp>();
    unsigned numInputs = getNumInputs(func);
    if (func.getNumArguments() != numInputs + ret.getNumOperands())
      return rewriter.notifyMatchFailure(ret, "function is not converted");
    Operation *insertBefore = ret;
    while (Operation *prev = insertBefore->getPrevNode()) {
      if (!isa<memref::DeallocOp>(prev))
        break;
      insertBefore = prev;
    }
    rewriter.setInsertionPoint(insertBefore);
    for (auto [i, value] : llvm::enumerate(adaptor.getOperands())) {
      Value output = func.getArgument(numInputs + i);
      if (value != output)
        memref::CopyOp::create(rewriter, ret.getLoc(), value, output);
    }
    rewriter.setInsertionPoint(ret);
    rewriter.replaceOpWithNewOp<func::ReturnOp>(ret);
    return success();
  }
};
} // namespace

void mlir::plaidml::populateTileToAffineConversionPatterns(
    TypeConverter &typeConverter, RewritePatternSet &patterns, bool borderFill,
    bool splitGuards) {
  patterns.add<FuncOpLowering, ReturnOpLowering>(typeConverter,
                                                 patterns.getContext());
  populateContractionPatterns(typeConverter, patterns, borderFill, splitGuards);
  populateElementwisePatterns(typeConverter, patterns);
  populateShapePatterns(typeConverter, patterns);
  populateSortAndRandomPatterns(typeConverter, patterns);
}
