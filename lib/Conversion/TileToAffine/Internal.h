//===- Internal.h - Shared pieces of the Tile to affine lowerin -*- C++ -*-===//
//
// Declarations shared by the files of convert-tile-to-affine: the scalar
// semantics of Tile element types on signless arith values (ScalarOps.cpp),
// the buffer and loop-nest helpers every op lowering uses
// (TileToAffine.cpp), and the per-theme pattern sets (Contraction.cpp,
// Elementwise.cpp, Shape.cpp, SortAndRandom.cpp).
//
// Values inside the loop nests are signless (`i32` for `si32` and `ui32`);
// the Tile element type that says how to read them is passed alongside, so
// signedness decisions are always taken from the original tensor types.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_CONVERSION_TILETOAFFINE_INTERNAL_H
#define PLAIDML_LIB_CONVERSION_TILETOAFFINE_INTERNAL_H

#include "plaidml/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir::plaidml::tile_to_affine {

//===----------------------------------------------------------------------===//
// Scalar semantics (ScalarOps.cpp)
//===----------------------------------------------------------------------===//

/// The arithmetic shared by elementwise ops and contraction aggregations.
using tile::BinaryKind;

/// Element type of a ranked tensor (the Tile type, with its signedness).
Type getTileElementType(Value tensor);
/// The signless type values of Tile element type `type` have in arith.
Type getSignlessType(Type type);
/// True where integer ops must use their unsigned form: unsigned integers
/// and i1 (whose values are 0 and 1, not 0 and -1).
bool isUnsignedLike(Type type);

/// A constant of Tile element type `type` holding `value`.
Value buildConstant(OpBuilder &b, Location loc, Type type, int64_t value);
/// Converts `v` from Tile element type `from` to `to` with tile.cast's
/// semantics: integers extend by source signedness or wrap, float to
/// integer saturates (NaN gives 0), anything to i1 tests `!= 0`.
Value buildConversion(OpBuilder &b, Location loc, Value v, Type from, Type to);
/// `v != 0` as i1 (NaN is nonzero).
Value buildTruthy(OpBuilder &b, Location loc, Value v, Type type);
/// `lhs kind rhs` in Tile element type `type`. Integer division and
/// remainder never trap: a zero divisor and INT_MIN / -1 divide by 1.
Value buildBinary(OpBuilder &b, Location loc, BinaryKind kind, Value lhs,
                  Value rhs, Type type);
/// Comparison in Tile element type `type`; float comparisons are ordered
/// except `ne`.
Value buildCompare(OpBuilder &b, Location loc, tile::CmpPredicate pred,
                   Value lhs, Value rhs, Type type);
/// A unary op named by its tile mnemonic ("neg", "exp", ...) in `type`.
Value buildUnary(OpBuilder &b, Location loc, StringRef name, Value x,
                 Type type);

//===----------------------------------------------------------------------===//
// Buffers and loop nests (TileToAffine.cpp)
//===----------------------------------------------------------------------===//

using NestBodyBuilder =
    function_ref<void(OpBuilder &b, Location loc, ValueRange ivs)>;

/// The buffer `op`'s single result is computed into: the function's output
/// buffer when the result is returned (its first return position), else a
/// fresh memref.alloc whose memref.dealloc is placed before the function's
/// terminator.
Value getResultBuffer(ConversionPatternRewriter &rewriter, Operation *op,
                      MemRefType type);
/// The same for any result of an op with several results.
Value getResultBuffer(ConversionPatternRewriter &rewriter, OpResult result,
                      MemRefType type);
/// An affine.parallel nest over `shape` (no loop for rank 0); `body` gets
/// the induction variables, outermost first.
void buildParallelNest(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                       NestBodyBuilder body);
/// The same as a nest of sequential affine.for loops, for loops whose
/// iterations may write the same element.
void buildSequentialNest(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                         NestBodyBuilder body);
/// The access map of an operand of shape `from` broadcast to `to`
/// (right-aligned; size-1 and missing dimensions read index 0).
AffineMap getBroadcastMap(ArrayRef<int64_t> from, ArrayRef<int64_t> to,
                          MLIRContext *ctx);

//===----------------------------------------------------------------------===//
// Guarded register reductions (GuardSplit.cpp)
//===----------------------------------------------------------------------===//

/// A constraint of a contraction's `cons` in linear form: `expr >= 0` (or
/// `== 0` when `isEq`), `coeffs` its coefficients of the indices, then its
/// constant.
struct LinearConstraint {
  AffineExpr expr;
  SmallVector<int64_t> coeffs;
  bool isEq;
};

/// `cons` in linear form; none when a constraint is not linear (floordiv,
/// mod) or the set has symbols.
std::optional<SmallVector<LinearConstraint>>
getLinearConstraints(IntegerSet cons);

/// One nest of a register reduction: the inclusive box of its indices and
/// the constraints (positions in the contraction's list) that still guard
/// its points.
struct ReductionPiece {
  SmallVector<int64_t> lbs, ubs;
  SmallVector<unsigned> guards;
};

/// Splits the reduction over `box` (every constraint guarding it) into
/// nests that visit the same valid points in the same order, without
/// guards where it can: along a parallel index p that a guard involves
/// alone among the parallel indices (with reduction indices), into the
/// interior, where the guard holds for every reduction point, and, each a
/// nest of its own, the border values of p (at most 3 on a side), where
/// the guard bounds the reduction indices instead. Guards that hold on a
/// whole nest are dropped. At most 49 nests; the others keep their guards.
/// `isReduction` marks the reduction indices.
SmallVector<ReductionPiece>
splitReductionBox(ReductionPiece box, ArrayRef<LinearConstraint> cons,
                  const llvm::SmallBitVector &isReduction);

//===----------------------------------------------------------------------===//
// Pattern sets
//===----------------------------------------------------------------------===//

/// `splitGuards`: register reductions with constraints are split along
/// them (splitReductionBox).
void populateContractionPatterns(TypeConverter &converter,
                                 RewritePatternSet &patterns, bool borderFill,
                                 bool splitGuards);
void populateElementwisePatterns(TypeConverter &converter,
                                 RewritePatternSet &patterns);
void populateShapePatterns(TypeConverter &converter,
                           RewritePatternSet &patterns);
void populateSortAndRandomPatterns(TypeConverter &converter,
                                   RewritePatternSet &patterns);

} // namespace mlir::plaidml::tile_to_affine

#endif // PLAIDML_LIB_CONVERSION_TILETOAFFINE_INTERNAL_H
