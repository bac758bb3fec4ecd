//===- TileFolds.cpp - Tile folders and canonicalization patterns ---------===//
//
// Folders and canonicalization patterns of the Tile ops, kept apart from the
// op definitions (like CIRCT's CombFolds.cpp). Constant folding evaluates
// elements one at a time as APInt/APFloat in the op's computation type, with
// NumPy broadcasting and the dialect's promotion rules, and refuses to fold
// whatever the runtime semantics leave undefined (integer division by zero,
// out-of-range float-to-integer casts, NaN in max/min) or whatever would
// materialize a large non-splat constant.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/APSInt.h"

using namespace mlir;
using namespace mlir::plaidml::tile;

/// Folding never creates a non-splat constant with more elements than this.
static constexpr int64_t kMaxFoldedElements = 1024;

namespace {
/// One element of a constant: an integer (`f` empty) or a float.
struct Scalar {
  APInt i;
  std::optional<APFloat> f;

  static Scalar ofInt(APInt v) { return Scalar{std::move(v), std::nullopt}; }
  static Scalar ofFloat(APFloat v) { return Scalar{APInt(), std::move(v)}; }

  bool isZero() const { return f ? f->isZero() : i.isZero(); }
  /// True when `x + this == x` for every x, signed zeros included: -0.0
  /// for floats (+0.0 + -0.0 is +0.0), 0 for integers.
  bool isAdditiveIdentity() const {
    return f ? f->isZero() && f->isNegative() : i.isZero();
  }
  /// True when `x - this == x` for every x: +0.0 for floats, 0 for integers.
  bool isSubtractiveIdentity() const {
    return f ? f->isZero() && !f->isNegative() : i.isZero();
  }
  bool isOne() const { return f ? f->isExactlyValue(1.0) : i.isOne(); }
};

enum class ArithKind { Add, Sub, Mul, Div, Max, Min };
} // namespace

/// Integers compute as signed unless unsigned or i1 (a bool); signless is
/// signed (docs/Design.md section 3).
static bool isSigned(Type type) { return isSignedInteger(type); }

static Type getElementType(Type type) {
  return cast<RankedTensorType>(type).getElementType();
}

/// The elements of a dense constant, only the first one for a splat.
static std::optional<SmallVector<Scalar>> readElements(DenseElementsAttr attr) {
  SmallVector<Scalar> out;
  Type element = attr.getElementType();
  if (isa<FloatType>(element)) {
    if (attr.isSplat())
      out.push_back(Scalar::ofFloat(attr.getSplatValue<APFloat>()));
    else
      for (APFloat v : attr.getValues<APFloat>())
        out.push_back(Scalar::ofFloat(v));
    return out;
  }
  if (!isa<IntegerType>(element))
    return std::nullopt;
  if (attr.isSplat())
    out.push_back(Scalar::ofInt(attr.getSplatValue<APInt>()));
  else
    for (APInt v : attr.getValues<APInt>())
      out.push_back(Scalar::ofInt(v));
  return out;
}

/// The splat element of `attr`, if it is a splat dense constant.
static std::optional<Scalar> getSplat(Attribute attr) {
  auto dense = dyn_cast_if_present<DenseElementsAttr>(attr);
  if (!dense || !dense.isSplat())
    return std::nullopt;
  auto elements = readElements(dense);
  if (!elements)
    return std::nullopt;
  return (*elements)[0];
}

/// Converts `v` from element type `from` to `to` with tile.cast semantics, or
/// nothing when the result is undefined (NaN or out of range to integer).
static std::optional<Scalar> convert(const Scalar &v, Type from, Type to) {
  if (from == to)
    return v;
  if (auto toInt = dyn_cast<IntegerType>(to)) {
    unsigned width = toInt.getWidth();
    if (width == 1)
      return Scalar::ofInt(APInt(1, v.isZero() ? 0 : 1));
    if (!v.f)
      return Scalar::ofInt(isSigned(from) ? v.i.sextOrTrunc(width)
                                          : v.i.zextOrTrunc(width));
    APSInt result(width, /*isUnsigned=*/toInt.isUnsigned());
    bool isExact;
    if (v.f->convertToInteger(result, APFloat::rmTowardZero, &isExact) ==
        APFloat::opInvalidOp)
      return std::nullopt;
    return Scalar::ofInt(result);
  }
  const llvm::fltSemantics &semantics = cast<FloatType>(to).getFloatSemantics();
  if (v.f) {
    APFloat result = *v.f;
    bool losesInfo;
    result.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
    return Scalar::ofFloat(result);
  }
  APFloat result(semantics);
  result.convertFromAPInt(v.i, isSigned(from), APFloat::rmNearestTiesToEven);
  return Scalar::ofFloat(result);
}

/// Linear index into an operand of `shape` that broadcasts to `resultShape`,
/// for the result element at linear index `linear`.
static int64_t broadcastIndex(int64_t linear, ArrayRef<int64_t> resultShape,
                              ArrayRef<int64_t> shape) {
  int64_t index = 0, stride = 1;
  for (int64_t d = resultShape.size() - 1, o = shape.size() - 1; o >= 0;
       --d, --o) {
    int64_t coordinate = linear % resultShape[d];
    linear /= resultShape[d];
    if (shape[o] != 1)
      index += coordinate * stride;
    stride *= shape[o];
  }
  return index;
}

static DenseElementsAttr buildElements(RankedTensorType type,
                                       ArrayRef<Scalar> elements) {
  if (isa<FloatType>(type.getElementType()))
    return DenseElementsAttr::get(
        type,
        llvm::map_to_vector(elements, [](const Scalar &s) { return *s.f; }));
  return DenseElementsAttr::get(
      type, llvm::map_to_vector(elements, [](const Scalar &s) { return s.i; }));
}

using ElementFn =
    function_ref<std::optional<Scalar>(ArrayRef<Scalar> operands)>;

/// Folds an elementwise op whose operands are all dense constants: converts
/// each operand element to `computeType`, broadcasts, applies `fn` (whose
/// results have the element type of `resultType`) and builds the constant.
static Attribute foldElementwise(ArrayRef<Attribute> operands, Type computeType,
                                 RankedTensorType resultType, ElementFn fn) {
  SmallVector<DenseElementsAttr> attrs;
  for (Attribute operand : operands) {
    auto dense = dyn_cast_if_present<DenseElementsAttr>(operand);
    if (!dense)
      return {};
    attrs.push_back(dense);
  }
  auto numElements = getCheckedNumElements(resultType.getShape());
  if (!numElements)
    return {};
  // A splat result computes one element (a zero-element result none).
  bool splat = *numElements != 0 &&
               llvm::all_of(attrs, [](auto a) { return a.isSplat(); });
  int64_t count = splat ? 1 : *numElements;
  if (count > kMaxFoldedElements)
    return {};

  SmallVector<SmallVector<Scalar>> converted;
  for (DenseElementsAttr attr : attrs) {
    auto elements = readElements(attr);
    if (!elements)
      return {};
    SmallVector<Scalar> values;
    for (const Scalar &v : *elements) {
      auto c = convert(v, attr.getElementType(), computeType);
      if (!c)
        return {};
      values.push_back(std::move(*c));
    }
    converted.push_back(std::move(values));
  }

  SmallVector<Scalar> results;
  SmallVector<Scalar> args;
  for (int64_t k = 0; k < count; ++k) {
    args.clear();
    for (auto [attr, values] : llvm::zip(attrs, converted))
      args.push_back(attr.isSplat()
                         ? values[0]
                         : values[broadcastIndex(k, resultType.getShape(),
                                                 attr.getType().getShape())]);
    auto r = fn(args);
    if (!r)
      return {};
    results.push_back(std::move(*r));
  }
  return buildElements(resultType, results);
}

static std::optional<Scalar> evalArith(ArithKind kind, const Scalar &a,
                                       const Scalar &b, Type type) {
  if (a.f) {
    APFloat r = *a.f;
    const APFloat &rhs = *b.f;
    switch (kind) {
    case ArithKind::Add:
      r.add(rhs, APFloat::rmNearestTiesToEven);
      break;
    case ArithKind::Sub:
      r.subtract(rhs, APFloat::rmNearestTiesToEven);
      break;
    case ArithKind::Mul:
      r.multiply(rhs, APFloat::rmNearestTiesToEven);
      break;
    case ArithKind::Div:
      r.divide(rhs, APFloat::rmNearestTiesToEven);
      break;
    case ArithKind::Max:
    case ArithKind::Min:
      // The NaN behaviour of max/min is not specified: leave it to the target.
      if (r.isNaN() || rhs.isNaN())
        return std::nullopt;
      r = kind == ArithKind::Max ? llvm::maximum(r, rhs)
                                 : llvm::minimum(r, rhs);
      break;
    }
    return Scalar::ofFloat(r);
  }
  bool isSignedTy = isSigned(type);
  const APInt &x = a.i, &y = b.i;
  switch (kind) {
  case ArithKind::Add:
    return Scalar::ofInt(x + y);
  case ArithKind::Sub:
    return Scalar::ofInt(x - y);
  case ArithKind::Mul:
    return Scalar::ofInt(x * y);
  case ArithKind::Div: {
    if (y.isZero())
      return std::nullopt;
    if (!isSignedTy)
      return Scalar::ofInt(x.udiv(y));
    bool overflow;
    APInt r = x.sdiv_ov(y, overflow);
    if (overflow)
      return std::nullopt;
    return Scalar::ofInt(r);
  }
  case ArithKind::Max:
    return Scalar::ofInt(isSignedTy ? llvm::APIntOps::smax(x, y)
                                    : llvm::APIntOps::umax(x, y));
  case ArithKind::Min:
    return Scalar::ofInt(isSignedTy ? llvm::APIntOps::smin(x, y)
                                    : llvm::APIntOps::umin(x, y));
  }
  llvm_unreachable("unknown arithmetic kind");
}

static bool evalCmp(CmpPredicate predicate, const Scalar &a, const Scalar &b,
                    Type type) {
  if (a.f) {
    APFloat::cmpResult r = a.f->compare(*b.f);
    // Ordered comparisons: NaN compares false, except `ne`.
    switch (predicate) {
    case CmpPredicate::eq:
      return r == APFloat::cmpEqual;
    case CmpPredicate::ne:
      return r != APFloat::cmpEqual;
    case CmpPredicate::lt:
      return r == APFloat::cmpLessThan;
    case CmpPredicate::le:
      return r == APFloat::cmpLessThan || r == APFloat::cmpEqual;
    case CmpPredicate::gt:
      return r == APFloat::cmpGreaterThan;
    case CmpPredicate::ge:
      return r == APFloat::cmpGreaterThan || r == APFloat::cmpEqual;
    }
    llvm_unreachable("unknown predicate");
  }
  bool s = isSigned(type);
  const APInt &x = a.i, &y = b.i;
  switch (predicate) {
  case CmpPredicate::eq:
    return x == y;
  case CmpPredicate::ne:
    return x != y;
  case CmpPredicate::lt:
    return s ? x.slt(y) : x.ult(y);
  case CmpPredicate::le:
    return s ? x.sle(y) : x.ule(y);
  case CmpPredicate::gt:
    return s ? x.sgt(y) : x.ugt(y);
  case CmpPredicate::ge:
    return s ? x.sge(y) : x.uge(y);
  }
  llvm_unreachable("unknown predicate");
}

/// Constant folding of a binary arithmetic op, computed in the result
/// element type.
template <typename OpTy>
static Attribute foldArithConstants(OpTy op, ArrayRef<Attribute> operands,
                                    ArithKind kind) {
  auto resultType = cast<RankedTensorType>(op.getType());
  Type element = resultType.getElementType();
  return foldElementwise(operands, element, resultType,
                         [&](ArrayRef<Scalar> args) {
                           return evalArith(kind, args[0], args[1], element);
                         });
}

/// True when `attr` is a splat constant whose element satisfies `pred`.
static bool isSplatWhere(Attribute attr,
                         function_ref<bool(const Scalar &)> pred) {
  auto splat = getSplat(attr);
  return splat && pred(*splat);
}

/// `value` if it has exactly the type of `op`'s result, for identity folds.
static OpFoldResult ifSameType(Operation *op, Value value) {
  if (value.getType() == op->getResult(0).getType())
    return value;
  return {};
}

//===----------------------------------------------------------------------===//
// Constants, casts and unary ops
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  Type from = getElementType(getOperand().getType());
  Type to = getElementType(getType());
  return foldElementwise(
      adaptor.getOperand(), from, cast<RankedTensorType>(getType()),
      [&](ArrayRef<Scalar> args) { return convert(args[0], from, to); });
}

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  auto type = cast<RankedTensorType>(getType());
  return foldElementwise(adaptor.getOperand(), type.getElementType(), type,
                         [](ArrayRef<Scalar> args) {
                           const Scalar &v = args[0];
                           if (v.f)
                             return Scalar::ofFloat(-*v.f);
                           return Scalar::ofInt(-v.i);
                         });
}

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (Attribute c =
          foldArithConstants(*this, adaptor.getOperands(), ArithKind::Add))
    return c;
  auto isIdentity = [](const Scalar &s) { return s.isAdditiveIdentity(); };
  if (isSplatWhere(adaptor.getRhs(), isIdentity))
    if (OpFoldResult r = ifSameType(*this, getLhs()))
      return r;
  if (isSplatWhere(adaptor.getLhs(), isIdentity))
    return ifSameType(*this, getRhs());
  return {};
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (Attribute c =
          foldArithConstants(*this, adaptor.getOperands(), ArithKind::Sub))
    return c;
  if (isSplatWhere(adaptor.getRhs(),
                   [](const Scalar &s) { return s.isSubtractiveIdentity(); }))
    return ifSameType(*this, getLhs());
  return {};
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (Attribute c =
          foldArithConstants(*this, adaptor.getOperands(), ArithKind::Mul))
    return c;
  auto isOne = [](const Scalar &s) { return s.isOne(); };
  if (isSplatWhere(adaptor.getRhs(), isOne))
    if (OpFoldResult r = ifSameType(*this, getLhs()))
      return r;
  if (isSplatWhere(adaptor.getLhs(), isOne))
    return ifSameType(*this, getRhs());
  return {};
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (Attribute c =
          foldArithConstants(*this, adaptor.getOperands(), ArithKind::Div))
    return c;
  if (isSplatWhere(adaptor.getRhs(), [](const Scalar &s) { return s.isOne(); }))
    return ifSameType(*this, getLhs());
  return {};
}

OpFoldResult MaxOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return ifSameType(*this, getLhs());
  return foldArithConstants(*this, adaptor.getOperands(), ArithKind::Max);
}

OpFoldResult MinOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return ifSameType(*this, getLhs());
  return foldArithConstants(*this, adaptor.getOperands(), ArithKind::Min);
}

OpFoldResult CmpOp::fold(FoldAdaptor adaptor) {
  Type computeType = promoteElementTypes(getElementType(getLhs().getType()),
                                         getElementType(getRhs().getType()));
  CmpPredicate predicate = getPredicate();
  return foldElementwise(
      adaptor.getOperands(), computeType, cast<RankedTensorType>(getType()),
      [&](ArrayRef<Scalar> args) {
        bool r = evalCmp(predicate, args[0], args[1], computeType);
        return Scalar::ofInt(APInt(1, r ? 1 : 0));
      });
}

OpFoldResult SelectOp::fold(FoldAdaptor adaptor) {
  if (getTrueValue() == getFalseValue())
    return ifSameType(*this, getTrueValue());
  if (auto cond = getSplat(adaptor.getCond()))
    return ifSameType(*this, cond->isZero() ? getFalseValue() : getTrueValue());
  return {};
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  if (auto dense = dyn_cast_if_present<DenseElementsAttr>(adaptor.getOperand()))
    return dense.reshape(cast<ShapedType>(getType()));
  if (auto inner = getOperand().getDefiningOp<ReshapeOp>()) {
    if (inner.getOperand().getType() == getType())
      return inner.getOperand();
    getOperandMutable().assign(inner.getOperand());
    return getResult();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// ContractionOp
//===----------------------------------------------------------------------===//

/// True when `v` (of element type `type`) is the identity of aggregation
/// `agg`, so that aggregating one value into an init of `v` gives the value.
static bool isAggregationIdentity(AggregationKind agg, const Scalar &v,
                                  Type type) {
  switch (agg) {
  case AggregationKind::assign:
    return true;
  case AggregationKind::add:
    return v.isZero();
  case AggregationKind::mul:
    return v.isOne();
  case AggregationKind::max:
  case AggregationKind::min: {
    bool isMax = agg == AggregationKind::max;
    if (v.f)
      return v.f->isInfinity() && v.f->isNegative() == isMax;
    unsigned width = v.i.getBitWidth();
    if (isSigned(type))
      return v.i == (isMax ? APInt::getSignedMinValue(width)
                           : APInt::getSignedMaxValue(width));
    return v.i ==
           (isMax ? APInt::getMinValue(width) : APInt::getMaxValue(width));
  }
  }
  llvm_unreachable("unknown aggregation kind");
}

OpFoldResult ContractionOp::fold(FoldAdaptor adaptor) {
  // An identity contraction copies its input into every element.
  if (getCombo() != CombinationKind::none || getCons() ||
      getInputs().size() != 1 || getSrcs().size() != 1)
    return {};
  Value input = getInputs()[0];
  auto type = cast<RankedTensorType>(getType());
  AffineMap sink = getSink();
  AffineMap src = cast<AffineMapAttr>(getSrcs()[0]).getValue();
  if (input.getType() != type || !sink.isIdentity() || src != sink)
    return {};
  // Recorded bounds narrower than the tensor would skip elements.
  if (hasBounds()) {
    for (auto [i, dim] : llvm::enumerate(type.getShape()))
      if ((*getLowerBounds())[i] != 0 || (*getUpperBounds())[i] != dim - 1)
        return {};
  }
  if (getAgg() != AggregationKind::assign) {
    auto init = getSplat(adaptor.getInit());
    if (!init || !isAggregationIdentity(getAgg(), *init, type.getElementType()))
      return {};
  }
  return input;
}

namespace {
/// Replaces a splat constant init of rank > 0 by a rank-0 constant: it
/// broadcasts to the same result.
struct ScalarizeSplatInit : OpRewritePattern<ContractionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ContractionOp op,
                                PatternRewriter &rewriter) const override {
    auto initType = cast<RankedTensorType>(op.getInit().getType());
    if (initType.getRank() == 0)
      return rewriter.notifyMatchFailure(op, "init is already a scalar");
    DenseElementsAttr value;
    if (!matchPattern(op.getInit(), m_Constant(&value)) || !value.isSplat())
      return rewriter.notifyMatchFailure(op, "init is not a splat constant");
    auto scalarType = RankedTensorType::get({}, initType.getElementType());
    auto scalar = ConstantOp::create(rewriter, op.getInit().getLoc(),
                                     value.resizeSplat(scalarType));
    rewriter.modifyOpInPlace(op, [&] { op.getInitMutable().assign(scalar); });
    return success();
  }
};
} // namespace

void ContractionOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                MLIRContext *context) {
  results.add<ScalarizeSplatInit>(context);
}
