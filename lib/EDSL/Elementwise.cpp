//===- Elementwise.cpp - Elementwise operators and intrinsics -------------===//
//
// Every Tile elementwise op as a C++ operator or function, with NumPy
// broadcasting and type promotion worked out by TileTypes.h before the op is
// built (so a mismatch is an Error naming both tensors), plus the intrinsic
// shape ops: cast, select, index, reshape, gather, scatter. A Scalar takes
// the element type of the tensor it meets, like a Tile-language literal.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "plaidml/Dialect/Tile/IR/TileOps.h"

using namespace mlir;
using namespace mlir::plaidml::tile;
using namespace ::plaidml::edsl;
namespace edetail = ::plaidml::edsl::detail;
namespace pe = ::plaidml::edsl;

namespace {
bool fitsInteger(int64_t value, IntegerType type) {
  unsigned width = type.getWidth();
  if (width >= 64)
    return !type.isUnsigned() || value >= 0;
  if (type.isUnsigned())
    return value >= 0 && static_cast<uint64_t>(value) < (uint64_t(1) << width);
  int64_t bound = int64_t(1) << (width - 1);
  return value >= -bound && value < bound;
}

/// The element type a scalar takes next to a tensor of element type
/// `other` (null when it meets no tensor): the Tile-language literal rule.
Type getScalarType(const Scalar &x, Type other) {
  if (x.isFloat)
    return other && isa<FloatType>(other) ? other
                                          : edetail::toMLIRType(DType::f32);
  if (other && isa<FloatType>(other))
    return other;
  if (auto intTy = dyn_cast_or_null<IntegerType>(other))
    if (intTy.getWidth() > 1 && fitsInteger(x.intValue, intTy))
      return other;
  bool small = x.intValue >= INT32_MIN && x.intValue <= INT32_MAX;
  return edetail::toMLIRType(small ? DType::si32 : DType::si64);
}

Tensor materialize(const Scalar &x, Type type) {
  if (isa<FloatType>(type))
    return Constant(edetail::fromMLIRType(type),
                    x.isFloat ? x.floatValue : static_cast<double>(x.intValue));
  OpBuilder b = getBuilder();
  auto tensorType = RankedTensorType::get({}, type);
  int64_t v = x.isFloat ? static_cast<int64_t>(x.floatValue) : x.intValue;
  auto attr = IntegerAttr::get(
      type, APInt(cast<IntegerType>(type).getWidth(), static_cast<uint64_t>(v),
                  /*isSigned=*/true, /*implicitTrunc=*/true));
  return makeTensor(ConstantOp::create(
      b, b.getUnknownLoc(), DenseElementsAttr::get(tensorType, attr)));
}

/// The tensors of `operands`: scalars take the element type of the first
/// tensor operand.
SmallVector<Tensor, 3> materializeAll(ArrayRef<const Operand *> operands) {
  Type other;
  for (const Operand *o : operands)
    if (!o->scalar) {
      edetail::checkNotNull(o->tensor, "elementwise operation");
      other = edetail::getTensorType(o->tensor).getElementType();
      break;
    }
  SmallVector<Tensor, 3> r;
  for (const Operand *o : operands)
    r.push_back(o->scalar
                    ? materialize(*o->scalar, getScalarType(*o->scalar, other))
                    : o->tensor);
  return r;
}

std::vector<int64_t> broadcast(const char *op, ArrayRef<Tensor> ts) {
  SmallVector<ArrayRef<int64_t>, 3> shapes;
  for (const Tensor &t : ts)
    shapes.push_back(edetail::getTensorType(t).getShape());
  std::optional<SmallVector<int64_t>> r = broadcastShapes(shapes);
  if (!r) {
    std::string msg = std::string(op) + ": the shapes do not broadcast:";
    for (auto [i, t] : llvm::enumerate(ts))
      msg += (i ? ", " : " ") + edetail::describe(t);
    throw Error(msg);
  }
  return std::vector<int64_t>(r->begin(), r->end());
}

Tensor finish(Operation *op, const std::string &what) {
  edetail::verifyOrThrow(op, what);
  return makeTensor(op->getResult(0));
}

enum class Bin {
  Add,
  Sub,
  Mul,
  Div,
  Mod,
  Pow,
  Max,
  Min,
  BitAnd,
  BitOr,
  BitXor,
  Shl,
  Shr,
  LogicalAnd,
  LogicalOr,
  LogicalXor,
  Eq,
  Ne,
  Lt,
  Gt,
  Le,
  Ge
};

Tensor binary(Bin kind, const char *name, const Operand &a, const Operand &b) {
  SmallVector<Tensor, 3> ts = materializeAll({&a, &b});
  std::vector<int64_t> shape = broadcast(name, ts);
  Value va = getValue(ts[0]), vb = getValue(ts[1]);
  Type ea = llvm::cast<RankedTensorType>(va.getType()).getElementType();
  Type eb = llvm::cast<RankedTensorType>(vb.getType()).getElementType();
  bool predicate = kind >= Bin::LogicalAnd;
  Type element =
      predicate ? edetail::toMLIRType(DType::i1) : promoteElementTypes(ea, eb);
  auto type = RankedTensorType::get(shape, element);
  OpBuilder builder = getBuilder();
  Location loc = builder.getUnknownLoc();
  auto cmp = [&](CmpPredicate p) -> Operation * {
    return CmpOp::create(builder, loc, type, p, va, vb);
  };
  Operation *op = nullptr;
  switch (kind) {
  case Bin::Add:
    op = AddOp::create(builder, loc, type, va, vb);
    break;
  case Bin::Sub:
    op = SubOp::create(builder, loc, type, va, vb);
    break;
  case Bin::Mul:
    op = MulOp::create(builder, loc, type, va, vb);
    break;
  case Bin::Div:
    op = DivOp::create(builder, loc, type, va, vb);
    break;
  case Bin::Mod:
    op = ModOp::create(builder, loc, type, va, vb);
    break;
  case Bin::Pow:
    op = PowOp::create(builder, loc, type, va, vb);
    break;
  case Bin::Max:
    op = MaxOp::create(builder, loc, type, va, vb);
    break;
  case Bin::Min:
    op = MinOp::create(builder, loc, type, va, vb);
    break;
  case Bin::BitAnd:
    op = BitAndOp::create(builder, loc, type, va, vb);
    break;
  case Bin::BitOr:
    op = BitOrOp::create(builder, loc, type, va, vb);
    break;
  case Bin::BitXor:
    op = BitXorOp::create(builder, loc, type, va, vb);
    break;
  case Bin::Shl:
    op = ShlOp::create(builder, loc, type, va, vb);
    break;
  case Bin::Shr:
    op = ShrOp::create(builder, loc, type, va, vb);
    break;
  case Bin::LogicalAnd:
    op = LogicalAndOp::create(builder, loc, type, va, vb);
    break;
  case Bin::LogicalOr:
    op = LogicalOrOp::create(builder, loc, type, va, vb);
    break;
  case Bin::LogicalXor:
    op = LogicalXorOp::create(builder, loc, type, va, vb);
    break;
  case Bin::Eq:
    op = cmp(CmpPredicate::eq);
    break;
  case Bin::Ne:
    op = cmp(CmpPredicate::ne);
    break;
  case Bin::Lt:
    op = cmp(CmpPredicate::lt);
    break;
  case Bin::Gt:
    op = cmp(CmpPredicate::gt);
    break;
  case Bin::Le:
    op = cmp(CmpPredicate::le);
    break;
  case Bin::Ge:
    op = cmp(CmpPredicate::ge);
    break;
  }
  return finish(op, std::string(name) + " of " + edetail::describe(ts[0]) +
                        " and " + edetail::describe(ts[1]));
}

template <typename OpTy> Tensor unary(const char *name, const Tensor &x) {
  edetail::checkNotNull(x, name);
  OpBuilder b = getBuilder();
  return finish(OpTy::create(b, b.getUnknownLoc(), getValue(x)),
                std::string(name) + " of " + edetail::describe(x));
}
} // namespace

namespace plaidml::edsl {
#define EDSL_BINARY(FN, KIND, NAME)                                            \
  Tensor FN(const Operand &a, const Operand &b) {                              \
    return binary(Bin::KIND, NAME, a, b);                                      \
  }
EDSL_BINARY(operator+, Add, "add")
EDSL_BINARY(operator-, Sub, "sub")
EDSL_BINARY(operator*, Mul, "mul")
EDSL_BINARY(operator/, Div, "div")
EDSL_BINARY(operator%, Mod, "mod")
EDSL_BINARY(operator&, BitAnd, "bit_and")
EDSL_BINARY(operator|, BitOr, "bit_or")
EDSL_BINARY(operator^, BitXor, "bit_xor")
EDSL_BINARY(operator<<, Shl, "shl")
EDSL_BINARY(operator>>, Shr, "shr")
EDSL_BINARY(operator&&, LogicalAnd, "logical_and")
EDSL_BINARY(operator||, LogicalOr, "logical_or")
EDSL_BINARY(operator==, Eq, "cmp eq")
EDSL_BINARY(operator!=, Ne, "cmp ne")
EDSL_BINARY(operator<, Lt, "cmp lt")
EDSL_BINARY(operator>, Gt, "cmp gt")
EDSL_BINARY(operator<=, Le, "cmp le")
EDSL_BINARY(operator>=, Ge, "cmp ge")
EDSL_BINARY(pow, Pow, "pow")
EDSL_BINARY(max, Max, "max")
EDSL_BINARY(min, Min, "min")
EDSL_BINARY(logical_xor, LogicalXor, "logical_xor")
#undef EDSL_BINARY

Tensor operator-(const Tensor &x) { return unary<NegOp>("neg", x); }
Tensor operator~(const Tensor &x) { return unary<BitNotOp>("bit_not", x); }
Tensor bit_not(const Tensor &x) { return ~x; }
Tensor abs(const Tensor &x) { return unary<AbsOp>("abs", x); }
Tensor relu(const Tensor &x) { return unary<ReluOp>("relu", x); }
Tensor exp(const Tensor &x) { return unary<ExpOp>("exp", x); }
Tensor log(const Tensor &x) { return unary<LogOp>("log", x); }
Tensor sqrt(const Tensor &x) { return unary<SqrtOp>("sqrt", x); }
Tensor tanh(const Tensor &x) { return unary<TanhOp>("tanh", x); }
Tensor sin(const Tensor &x) { return unary<SinOp>("sin", x); }
Tensor cos(const Tensor &x) { return unary<CosOp>("cos", x); }
Tensor floor(const Tensor &x) { return unary<FloorOp>("floor", x); }
Tensor ceil(const Tensor &x) { return unary<CeilOp>("ceil", x); }
Tensor round(const Tensor &x) { return unary<RoundOp>("round", x); }
Tensor erf(const Tensor &x) { return unary<ErfOp>("erf", x); }
Tensor sigmoid(const Tensor &x) { return unary<SigmoidOp>("sigmoid", x); }

Tensor logical_not(const Tensor &x) {
  edetail::checkNotNull(x, "logical_not");
  OpBuilder b = getBuilder();
  auto type = RankedTensorType::get(edetail::getTensorType(x).getShape(),
                                    b.getI1Type());
  return finish(LogicalNotOp::create(b, b.getUnknownLoc(), type, getValue(x)),
                "logical_not of " + edetail::describe(x));
}
Tensor operator!(const Tensor &x) { return logical_not(x); }

Tensor select(const Operand &c, const Operand &a, const Operand &b) {
  SmallVector<Tensor, 3> vs = materializeAll({&a, &b});
  SmallVector<Tensor, 3> cs = materializeAll({&c});
  SmallVector<Tensor, 3> all = {cs[0], vs[0], vs[1]};
  std::vector<int64_t> shape = broadcast("select", all);
  Type element =
      promoteElementTypes(edetail::getTensorType(vs[0]).getElementType(),
                          edetail::getTensorType(vs[1]).getElementType());
  OpBuilder builder = getBuilder();
  return finish(SelectOp::create(builder, builder.getUnknownLoc(),
                                 RankedTensorType::get(shape, element),
                                 getValue(cs[0]), getValue(vs[0]),
                                 getValue(vs[1])),
                "select");
}

Tensor cast(const Tensor &x, DType dtype) {
  edetail::checkNotNull(x, "cast");
  if (x.getDType() == dtype)
    return x;
  OpBuilder b = getBuilder();
  auto type = RankedTensorType::get(edetail::getTensorType(x).getShape(),
                                    edetail::toMLIRType(dtype));
  return finish(CastOp::create(b, b.getUnknownLoc(), type, getValue(x)),
                "cast of " + edetail::describe(x) + " to " +
                    rt::getDTypeName(dtype));
}

Tensor index(const std::vector<int64_t> &shape, int64_t axis, DType dtype) {
  if (axis < 0 || axis >= static_cast<int64_t>(shape.size()))
    throw Error("index: axis " + std::to_string(axis) +
                " is out of range for shape " + edetail::formatShape(shape));
  OpBuilder b = getBuilder();
  auto type = RankedTensorType::get(shape, edetail::toMLIRType(dtype));
  return finish(IndexOp::create(b, b.getUnknownLoc(), type, axis),
                "index along axis " + std::to_string(axis) + " of shape " +
                    edetail::formatShape(shape));
}

Tensor reshape(const Tensor &x, std::vector<int64_t> shape) {
  edetail::checkNotNull(x, "reshape");
  RankedTensorType type = edetail::getTensorType(x);
  int64_t known = 1, inferred = -1;
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (d == -1 && inferred < 0) {
      inferred = i;
      continue;
    }
    if (d <= 0)
      throw Error("reshape of " + edetail::describe(x) + ": dimension " +
                  std::to_string(i) + " of the new shape is " +
                  std::to_string(d));
    known *= d;
  }
  if (inferred >= 0) {
    if (type.getNumElements() % known != 0)
      throw Error("reshape of " + edetail::describe(x) +
                  ": cannot infer dimension " + std::to_string(inferred));
    shape[inferred] = type.getNumElements() / known;
    known *= shape[inferred];
  }
  if (known != type.getNumElements())
    throw Error("reshape of " + edetail::describe(x) + " to " +
                edetail::formatShape(shape) + ": the element counts differ");
  if (ArrayRef<int64_t>(shape) == type.getShape())
    return x;
  OpBuilder b = getBuilder();
  return finish(
      ReshapeOp::create(b, b.getUnknownLoc(),
                        RankedTensorType::get(shape, type.getElementType()),
                        getValue(x)),
      "reshape of " + edetail::describe(x));
}

Tensor gather(const Tensor &x, const Tensor &indices, int64_t axis) {
  edetail::checkNotNull(x, "gather");
  edetail::checkNotNull(indices, "gather indices");
  RankedTensorType type = edetail::getTensorType(x);
  if (axis < 0 || axis >= type.getRank())
    throw Error("gather from " + edetail::describe(x) + ": axis " +
                std::to_string(axis) + " is out of range");
  SmallVector<int64_t> shape(type.getShape().take_front(axis));
  llvm::append_range(shape, edetail::getTensorType(indices).getShape());
  llvm::append_range(shape, type.getShape().drop_front(axis + 1));
  OpBuilder b = getBuilder();
  auto op = GatherOp::create(
      b, b.getUnknownLoc(), RankedTensorType::get(shape, type.getElementType()),
      getValue(x), getValue(indices), b.getI64IntegerAttr(axis));
  return finish(op, "gather from " + edetail::describe(x) + " at " +
                        edetail::describe(indices));
}

Tensor scatter(const Tensor &updates, const Tensor &indices,
               const std::vector<int64_t> &shape, int64_t axis) {
  edetail::checkNotNull(updates, "scatter");
  edetail::checkNotNull(indices, "scatter indices");
  RankedTensorType type = edetail::getTensorType(updates);
  OpBuilder b = getBuilder();
  auto op = ScatterOp::create(
      b, b.getUnknownLoc(), RankedTensorType::get(shape, type.getElementType()),
      getValue(updates), getValue(indices), b.getI64IntegerAttr(axis));
  return finish(op, "scatter of " + edetail::describe(updates) + " into " +
                        edetail::formatShape(shape));
}
} // namespace plaidml::edsl
