//===- Shape.cpp - Tile constants and shape ops to affine -----------------===//
//
// Lowers the Tile ops that move elements rather than compute them:
// tile.constant becomes a private constant memref.global read through
// memref.get_global; tile.reshape a copy loop whose source coordinates are
// the row-major delinearization of the result position (floordiv/mod by
// constants, so the access stays affine); tile.index stores the induction
// variable of its axis; tile.gather clamps each data-dependent index into
// range and loads with memref.load; tile.scatter zero-fills its result and
// then, sequentially because indices may repeat, adds every update whose
// index is in range (in the index type's own signedness) under scf.if.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::plaidml;
using namespace mlir::plaidml::tile_to_affine;
using namespace mlir::plaidml::tile;

namespace {
MemRefType convertToMemRef(const TypeConverter &converter, Value tensor) {
  return dyn_cast_or_null<MemRefType>(converter.convertType(tensor.getType()));
}

/// Row-major strides of `shape`.
SmallVector<int64_t> getStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

/// Hands out the names `__plaidml_constant_<i>` that no symbol of the module
/// has yet, in increasing `i`. The module's symbols are read once, on the
/// first request for that module, so naming n constants costs O(n + number
/// of symbols) rather than one linear symbol lookup per candidate name (which
/// made the conversion cubic in the number of constants).
class ConstantNamer {
public:
  std::string getName(ModuleOp module) {
    if (module.getOperation() != current) {
      current = module.getOperation();
      taken.clear();
      next = 0;
      for (Operation &op : *module.getBody())
        if (auto name =
                op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
          taken.insert(name.getValue());
    }
    std::string name;
    do
      name = "__plaidml_constant_" + std::to_string(next++);
    while (taken.contains(name));
    taken.insert(name);
    return name;
  }

private:
  Operation *current = nullptr;
  llvm::StringSet<> taken;
  unsigned next = 0;
};

/// tile.constant -> a private constant memref.global of the signless type.
struct ConstantLowering : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  /// Pattern sets are built per run of the pass and applied by one thread,
  /// so the namer needs no lock.
  mutable ConstantNamer namer;

  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense)
      return rewriter.notifyMatchFailure(op, "not a dense constant");
    MemRefType type = convertToMemRef(*getTypeConverter(), op.getResult());
    if (!type)
      return rewriter.notifyMatchFailure(op, "result type does not convert");
    Type elementType = type.getElementType();
    if (dense.getElementType() != elementType)
      dense = dense.bitcast(elementType);

    auto module = op->getParentOfType<ModuleOp>();
    std::string name = namer.getName(module);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      // Before the function that uses it, so globals read in program order.
      Operation *parent = op->getParentOp();
      while (parent->getParentOp() != module)
        parent = parent->getParentOp();
      rewriter.setInsertionPoint(parent);
      memref::GlobalOp::create(rewriter, op.getLoc(), name,
                               rewriter.getStringAttr("private"), type, dense,
                               /*constant=*/true, /*alignment=*/IntegerAttr());
    }
    rewriter.replaceOpWithNewOp<memref::GetGlobalOp>(op, type, name);
    return success();
  }
};

/// tile.reshape -> a copy: result position -> linear offset -> source
/// coordinates.
struct ReshapeLowering : OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType type = convertToMemRef(*getTypeConverter(), op.getResult());
    if (!type)
      return rewriter.notifyMatchFailure(op, "result type does not convert");
    MLIRContext *ctx = op.getContext();
    ArrayRef<int64_t> shape = type.getShape();
    ArrayRef<int64_t> srcShape =
        cast<MemRefType>(adaptor.getOperand().getType()).getShape();
    AffineExpr linear = getAffineConstantExpr(0, ctx);
    for (auto [d, stride] : llvm::enumerate(getStrides(shape)))
      linear = linear + getAffineDimExpr(d, ctx) * stride;
    SmallVector<AffineExpr> srcExprs;
    for (auto [d, stride] : llvm::enumerate(getStrides(srcShape))) {
      AffineExpr e = linear.floorDiv(stride);
      srcExprs.push_back(d == 0 ? e : e % srcShape[d]);
    }
    AffineMap srcMap = AffineMap::get(shape.size(), 0, srcExprs, ctx);
    Value src = adaptor.getOperand();
    Value dest = getResultBuffer(rewriter, op, type);
    buildParallelNest(rewriter, op.getLoc(), shape,
                      [&](OpBuilder &b, Location loc, ValueRange ivs) {
                        Value v = affine::AffineLoadOp::create(b, loc, src,
                                                               srcMap, ivs);
                        affine::AffineStoreOp::create(b, loc, v, dest, ivs);
                      });
    rewriter.replaceOp(op, dest);
    return success();
  }
};

/// tile.index -> the induction variable of the axis, cast to the element
/// type.
struct IndexLowering : OpConversionPattern<IndexOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(IndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType type = convertToMemRef(*getTypeConverter(), op.getResult());
    if (!type)
      return rewriter.notifyMatchFailure(op, "result type does not convert");
    Type elementType = type.getElementType();
    unsigned axis = op.getAxis();
    Value dest = getResultBuffer(rewriter, op, type);
    buildParallelNest(
        rewriter, op.getLoc(), type.getShape(),
        [&](OpBuilder &b, Location loc, ValueRange ivs) {
          Value v;
          if (isa<FloatType>(elementType)) {
            Value i64 =
                arith::IndexCastOp::create(b, loc, b.getI64Type(), ivs[axis]);
            v = arith::SIToFPOp::create(b, loc, elementType, i64);
          } else {
            v = arith::IndexCastOp::create(b, loc, elementType, ivs[axis]);
          }
          affine::AffineStoreOp::create(b, loc, v, dest, ivs);
        });
    rewriter.replaceOp(op, dest);
    return success();
  }
};

/// Loads the index element of `indices` (shape `idxShape`) at the
/// positions `ivs[axis, axis + rank)` and widens it to i64 by the Tile index
/// type's signedness.
Value loadIndexAsI64(OpBuilder &b, Location loc, Value indices, Type indexType,
                     ValueRange ivs, unsigned axis) {
  auto memrefType = cast<MemRefType>(indices.getType());
  unsigned rank = memrefType.getRank();
  Value raw = affine::AffineLoadOp::create(b, loc, indices,
                                           ValueRange(ivs.slice(axis, rank)));
  Type i64 = b.getI64Type();
  return buildConversion(
      b, loc, raw, indexType,
      isUnsignedLike(indexType)
          ? Type(IntegerType::get(b.getContext(), 64, IntegerType::Unsigned))
          : i64);
}

/// The coordinates `ivs[0, axis) ++ index ++ ivs[axis + indexRank, ...)`.
SmallVector<Value> spliceIndex(ValueRange ivs, unsigned axis,
                               unsigned indexRank, Value index) {
  SmallVector<Value> coords(ivs.begin(), ivs.begin() + axis);
  coords.push_back(index);
  coords.append(ivs.begin() + axis + indexRank, ivs.end());
  return coords;
}

/// tile.gather -> memref.load at the clamped data-dependent index.
struct GatherLowering : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType type = convertToMemRef(*getTypeConverter(), op.getResult());
    if (!type)
      return rewriter.notifyMatchFailure(op, "result type does not convert");
    unsigned axis = op.getAxis();
    Value source = adaptor.getTensor(), indices = adaptor.getIndices();
    Type sourceType = getTileElementType(op.getTensor());
    Type resultType = getTileElementType(op.getResult());
    Type indexType = getTileElementType(op.getIndices());
    unsigned indexRank = cast<MemRefType>(indices.getType()).getRank();
    int64_t size = cast<MemRefType>(source.getType()).getDimSize(axis);
    Value dest = getResultBuffer(rewriter, op, type);
    buildParallelNest(
        rewriter, op.getLoc(), type.getShape(),
        [&](OpBuilder &b, Location loc, ValueRange ivs) {
          Value at = loadIndexAsI64(b, loc, indices, indexType, ivs, axis);
          // Index types are at most 64 bits: a ui64 index reads as i64, so a
          // huge one clamps to 0 like the reference's conversion does.
          Value zero = arith::ConstantIntOp::create(b, loc, at.getType(), 0);
          Value last =
              arith::ConstantIntOp::create(b, loc, at.getType(), size - 1);
          at = arith::MaxSIOp::create(b, loc, at, zero);
          at = arith::MinSIOp::create(b, loc, at, last);
          Value index =
              arith::IndexCastOp::create(b, loc, b.getIndexType(), at);
          Value v = memref::LoadOp::create(
              b, loc, source, spliceIndex(ivs, axis, indexRank, index));
          v = buildConversion(b, loc, v, sourceType, resultType);
          affine::AffineStoreOp::create(b, loc, v, dest, ivs);
        });
    rewriter.replaceOp(op, dest);
    return success();
  }
};

/// tile.scatter -> zero fill, then a sequential nest over the updates that
/// adds the in-range ones.
struct ScatterLowering : OpConversionPattern<ScatterOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType type = convertToMemRef(*getTypeConverter(), op.getResult());
    if (!type)
      return rewriter.notifyMatchFailure(op, "result type does not convert");
    Location loc = op.getLoc();
    unsigned axis = op.getAxis();
    Value updates = adaptor.getUpdates(), indices = adaptor.getIndices();
    Type updateType = getTileElementType(op.getUpdates());
    Type resultType = getTileElementType(op.getResult());
    Type indexType = getTileElementType(op.getIndices());
    unsigned indexRank = cast<MemRefType>(indices.getType()).getRank();
    int64_t size = type.getDimSize(axis);
    Value dest = getResultBuffer(rewriter, op, type);

    buildParallelNest(rewriter, loc, type.getShape(),
                      [&](OpBuilder &b, Location l, ValueRange ivs) {
                        Value zero = buildConstant(b, l, resultType, 0);
                        affine::AffineStoreOp::create(b, l, zero, dest, ivs);
                      });
    buildSequentialNest(
        rewriter, loc, cast<MemRefType>(updates.getType()).getShape(),
        [&](OpBuilder &b, Location l, ValueRange ivs) {
          Value at = loadIndexAsI64(b, l, indices, indexType, ivs, axis);
          Value limit = arith::ConstantIntOp::create(b, l, at.getType(), size);
          Value inRange;
          if (isUnsignedLike(indexType)) {
            inRange = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, at,
                                            limit);
          } else {
            Value zero = arith::ConstantIntOp::create(b, l, at.getType(), 0);
            inRange = arith::AndIOp::create(
                b, l,
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, at,
                                      zero),
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, at,
                                      limit));
          }
          auto ifOp = scf::IfOp::create(b, l, TypeRange{}, inRange,
                                        /*withElseRegion=*/false);
          OpBuilder tb = ifOp.getThenBodyBuilder();
          Value index =
              arith::IndexCastOp::create(tb, l, tb.getIndexType(), at);
          SmallVector<Value> coords = spliceIndex(ivs, axis, indexRank, index);
          Value update = affine::AffineLoadOp::create(tb, l, updates, ivs);
          update = buildConversion(tb, l, update, updateType, resultType);
          Value current = memref::LoadOp::create(tb, l, dest, coords);
          Value sum =
              buildBinary(tb, l, BinaryKind::Add, current, update, resultType);
          memref::StoreOp::create(tb, l, sum, dest, coords);
        });
    rewriter.replaceOp(op, dest);
    return success();
  }
};
} // namespace

void tile_to_affine::populateShapePatterns(TypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<ConstantLowering, ReshapeLowering, IndexLowering, GatherLowering,
               ScatterLowering>(converter, patterns.getContext());
}
