//===- Elementwise.cpp - Tile-language expressions to Tile ops ------------===//
//
// Emits the Tile ops of an elementwise expression: operators, `?:`, and the
// built-in functions (math, casts, shape functions, argsort, prng).
// Literals stay untyped until they meet a tensor, whose element type they
// then take when it holds them, so `X * 2` keeps X's type. Shapes and element
// types are checked with TileTypes.h / TileTraits.h before an op is created.
//
//===----------------------------------------------------------------------===//

#include "Builder.h"

#include "plaidml/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/StringSwitch.h"

#include <functional>
#include <limits>

using namespace mlir;
using namespace mlir::plaidml;
using namespace mlir::plaidml::tile;
using namespace mlir::plaidml::tilelang;
using llvm::SMLoc;

std::string mlir::plaidml::tilelang::formatShape(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string s;
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? "x" : "") + std::to_string(d);
  return s;
}

namespace {
StringRef spell(OperatorKind kind) {
  switch (kind) {
  case OperatorKind::Add:
    return "'+'";
  case OperatorKind::Sub:
    return "'-'";
  case OperatorKind::Mul:
    return "'*'";
  case OperatorKind::Div:
    return "'/'";
  case OperatorKind::Mod:
    return "'%'";
  case OperatorKind::Pow:
    return "'pow'";
  case OperatorKind::Max:
    return "'max'";
  case OperatorKind::Min:
    return "'min'";
  case OperatorKind::BitAnd:
    return "'&'";
  case OperatorKind::BitOr:
    return "'|'";
  case OperatorKind::BitXor:
    return "'^'";
  case OperatorKind::Shl:
    return "'<<'";
  case OperatorKind::Shr:
    return "'>>'";
  case OperatorKind::Eq:
    return "'=='";
  case OperatorKind::Ne:
    return "'!='";
  case OperatorKind::Lt:
    return "'<'";
  case OperatorKind::Gt:
    return "'>'";
  case OperatorKind::Le:
    return "'<='";
  case OperatorKind::Ge:
    return "'>='";
  case OperatorKind::LogicalAnd:
    return "'&&'";
  case OperatorKind::LogicalOr:
    return "'||'";
  }
  return "?";
}

std::optional<OperatorKind> toBinaryKind(TokenKind op) {
  switch (op) {
  case TokenKind::Plus:
    return OperatorKind::Add;
  case TokenKind::Minus:
    return OperatorKind::Sub;
  case TokenKind::Star:
    return OperatorKind::Mul;
  case TokenKind::Slash:
    return OperatorKind::Div;
  case TokenKind::Percent:
    return OperatorKind::Mod;
  case TokenKind::Amp:
    return OperatorKind::BitAnd;
  case TokenKind::Pipe:
    return OperatorKind::BitOr;
  case TokenKind::Caret:
    return OperatorKind::BitXor;
  case TokenKind::Shl:
    return OperatorKind::Shl;
  case TokenKind::Shr:
    return OperatorKind::Shr;
  case TokenKind::EqEq:
    return OperatorKind::Eq;
  case TokenKind::NotEq:
    return OperatorKind::Ne;
  case TokenKind::Less:
    return OperatorKind::Lt;
  case TokenKind::Greater:
    return OperatorKind::Gt;
  case TokenKind::LessEq:
    return OperatorKind::Le;
  case TokenKind::GreaterEq:
    return OperatorKind::Ge;
  case TokenKind::AndAnd:
    return OperatorKind::LogicalAnd;
  case TokenKind::OrOr:
    return OperatorKind::LogicalOr;
  default:
    return std::nullopt;
  }
}

ElementwiseRule getRule(OperatorKind kind) {
  switch (kind) {
  case OperatorKind::BitAnd:
  case OperatorKind::BitOr:
  case OperatorKind::BitXor:
  case OperatorKind::Shl:
  case OperatorKind::Shr:
    return ElementwiseRule::Bitwise;
  case OperatorKind::Eq:
  case OperatorKind::Ne:
  case OperatorKind::Lt:
  case OperatorKind::Gt:
  case OperatorKind::Le:
  case OperatorKind::Ge:
  case OperatorKind::LogicalAnd:
  case OperatorKind::LogicalOr:
    return ElementwiseRule::Predicate;
  default:
    return ElementwiseRule::Arithmetic;
  }
}

/// True when `value` is representable in integer type `type`.
bool fitsInteger(int64_t value, IntegerType type) {
  unsigned width = type.getWidth();
  if (width >= 64)
    return !type.isUnsigned() || value >= 0;
  if (type.isUnsigned())
    return value >= 0 && static_cast<uint64_t>(value) < (uint64_t(1) << width);
  int64_t bound = int64_t(1) << (width - 1);
  return value >= -bound && value < bound;
}

/// si32, or si64 for a value that si32 does not hold.
Type getDefaultIntType(MLIRContext *ctx, int64_t value) {
  bool small = value >= std::numeric_limits<int32_t>::min() &&
               value <= std::numeric_limits<int32_t>::max();
  return IntegerType::get(ctx, small ? 32 : 64, IntegerType::Signed);
}

/// The built-in functions: how many arguments each takes.
struct Builtin {
  unsigned minArgs, maxArgs;
};
std::optional<Builtin> lookupBuiltin(StringRef name) {
  return llvm::StringSwitch<std::optional<Builtin>>(name)
      .Cases({"exp", "log", "sqrt", "tanh", "sin", "cos", "floor", "ceil"},
             Builtin{1, 1})
      .Cases({"round", "erf", "sigmoid", "abs", "relu"}, Builtin{1, 1})
      .Cases({"pow", "max", "min", "as_float", "as_int", "as_uint", "index",
              "gather"},
             Builtin{2, 2})
      .Cases({"scatter", "select"}, Builtin{3, 3})
      .Cases({"argsort", "argsort_desc"}, Builtin{2, 2})
      .Cases({"reshape", "prng_value", "prng_state"}, Builtin{1, kMaxRank + 1})
      .Default(std::nullopt);
}

bool isFloatMath(StringRef name) {
  return llvm::is_contained({"exp", "log", "sqrt", "tanh", "sin", "cos",
                             "floor", "ceil", "round", "erf", "sigmoid"},
                            name);
}
} // namespace

Type FunctionBuilder::getLiteralType(const Operand &x, Type other) const {
  MLIRContext *ctx = source.getContext();
  if (x.kind == Operand::Kind::Float)
    return other && isa<FloatType>(other) ? other : Float32Type::get(ctx);
  if (other && isa<FloatType>(other))
    return other;
  if (auto intTy = dyn_cast_or_null<IntegerType>(other))
    if (intTy.getWidth() > 1 && fitsInteger(x.intValue, intTy))
      return other;
  return getDefaultIntType(ctx, x.intValue);
}

Value FunctionBuilder::materialize(const Operand &x, Type elementType) {
  if (!x.isLiteral())
    return x.value;
  if (!elementType)
    elementType = getLiteralType(x, Type());
  auto type = RankedTensorType::get({}, elementType);
  Attribute value;
  if (auto floatTy = dyn_cast<FloatType>(elementType))
    value = FloatAttr::get(floatTy, x.kind == Operand::Kind::Float
                                        ? x.floatValue
                                        : static_cast<double>(x.intValue));
  else
    value = IntegerAttr::get(elementType,
                             APInt(cast<IntegerType>(elementType).getWidth(),
                                   static_cast<uint64_t>(x.intValue),
                                   /*isSigned=*/true, /*implicitTrunc=*/true));
  return ConstantOp::create(builder, loc(x.loc),
                            DenseElementsAttr::get(type, value));
}

static Operand tensorOperand(Value value, SMLoc at) {
  Operand op;
  op.value = value;
  op.loc = at;
  return op;
}

LogicalResult FunctionBuilder::checkElementCount(ArrayRef<int64_t> shape,
                                                 SMLoc at, const Twine &what) {
  if (getCheckedNumElements(shape))
    return success();
  return emitError(at) << what << " has shape " << formatShape(shape)
                       << ", more elements than a 64-bit count can hold";
}

FailureOr<Operand> FunctionBuilder::emitExpr(const Expr &e) {
  switch (e.kind) {
  case Expr::Kind::Int:
  case Expr::Kind::Float: {
    Operand lit;
    lit.kind =
        e.kind == Expr::Kind::Int ? Operand::Kind::Int : Operand::Kind::Float;
    lit.intValue = e.intValue;
    lit.floatValue = e.floatValue;
    lit.loc = e.loc;
    return lit;
  }
  case Expr::Kind::Name: {
    if (auto it = tensors.find(e.name); it != tensors.end())
      return tensorOperand(it->second, e.loc);
    // A dimension name is its size, as an integer literal.
    if (auto it = dims.find(e.name); it != dims.end()) {
      Operand lit;
      lit.kind = Operand::Kind::Int;
      lit.intValue = it->second;
      lit.loc = e.loc;
      return lit;
    }
    return emitError(e.loc) << "unknown tensor '" << e.name << "'";
  }
  case Expr::Kind::Unary: {
    FailureOr<Operand> x = emitExpr(*e.operands[0]);
    if (failed(x))
      return failure();
    return emitUnary(e, *x);
  }
  case Expr::Kind::Binary: {
    FailureOr<Operand> a = emitExpr(*e.operands[0]);
    if (failed(a))
      return failure();
    FailureOr<Operand> b = emitExpr(*e.operands[1]);
    if (failed(b))
      return failure();
    return emitBinary(*toBinaryKind(e.op), e.loc, *a, *b);
  }
  case Expr::Kind::Select: {
    SmallVector<Operand, 3> ops;
    for (const Expr *operand : e.operands) {
      FailureOr<Operand> x = emitExpr(*operand);
      if (failed(x))
        return failure();
      ops.push_back(*x);
    }
    return emitSelect(e.loc, ops[0], ops[1], ops[2]);
  }
  case Expr::Kind::Call:
    return emitCall(e);
  }
  return failure();
}

FailureOr<Operand> FunctionBuilder::emitUnary(const Expr &e, const Operand &x) {
  Value v = materialize(x);
  auto type = cast<RankedTensorType>(v.getType());
  Type element = type.getElementType();
  Location at = loc(e.loc);
  switch (e.op) {
  case TokenKind::Minus:
    if (element.isInteger(1))
      return emitError(e.loc) << "'-' is not defined on booleans; convert "
                                 "them with as_int(x, 32) first";
    return tensorOperand(NegOp::create(builder, at, v), e.loc);
  case TokenKind::Bang:
    return tensorOperand(
        LogicalNotOp::create(
            builder, at,
            RankedTensorType::get(type.getShape(), builder.getI1Type()), v),
        e.loc);
  case TokenKind::Tilde:
    if (!isa<IntegerType>(element))
      return emitError(e.loc) << "'~' needs an integer operand, but it has "
                                 "element type "
                              << element;
    return tensorOperand(BitNotOp::create(builder, at, v), e.loc);
  default:
    return failure();
  }
}

FailureOr<Operand> FunctionBuilder::emitBinary(OperatorKind kind, SMLoc at,
                                               Operand a, Operand b) {
  // Literals take the element type of the tensor they meet.
  Type aLit, bLit;
  if (a.isLiteral() && b.isLiteral()) {
    bLit = getLiteralType(b, Type());
    aLit = getLiteralType(a, bLit);
  } else if (a.isLiteral()) {
    aLit = getLiteralType(a, b.getType().getElementType());
  } else if (b.isLiteral()) {
    bLit = getLiteralType(b, a.getType().getElementType());
  }
  Value va = materialize(a, aLit), vb = materialize(b, bLit);

  ElementwiseRule rule = getRule(kind);
  auto ta = cast<RankedTensorType>(va.getType());
  auto tb = cast<RankedTensorType>(vb.getType());
  Type inferred = inferElementwiseResultType({ta, tb}, rule);
  if (!inferred)
    return emitError(at) << "shapes " << formatShape(ta.getShape()) << " and "
                         << formatShape(tb.getShape()) << " do not broadcast";
  auto resultType = cast<RankedTensorType>(inferred);
  if (failed(checkElementCount(resultType.getShape(), at, "the result")))
    return failure();
  Type promoted = promoteElementTypes(ta.getElementType(), tb.getElementType());
  if (rule == ElementwiseRule::Arithmetic && promoted.isInteger(1))
    return emitError(at) << spell(kind)
                         << " is not defined on booleans; convert them with "
                            "as_int(x, 32) first";
  if (rule == ElementwiseRule::Bitwise && !isa<IntegerType>(promoted))
    return emitError(at) << spell(kind)
                         << " needs integer operands, but their element type "
                            "is "
                         << promoted;

  Location l = loc(at);
  Value result;
  auto cmp = [&](CmpPredicate predicate) {
    return CmpOp::create(builder, l, resultType, predicate, va, vb);
  };
  switch (kind) {
  case OperatorKind::Add:
    result = AddOp::create(builder, l, resultType, va, vb);
    break;
  case OperatorKind::Sub:
    result = SubOp::create(builder, l, resultType, va, vb);
    break;
  case OperatorKind::Mul:
    result = MulOp::create(builder, l, resultType, va, vb);
    break;
  case OperatorKind::Div:
    result = DivOp::create(builder, l, resultType, va, vb);
    break;
  case OperatorKind::Mod:
    result = ModOp::create(builder, l, resultType, va, vb);
    break;
  case OperatorKind::Pow:
    result = PowOp::create(builder, l, resultType, va, vb);
    break;
  case OperatorKind::Max:
    result = MaxOp::create(builder, l, resultType, va, vb);
    break;
  case OperatorKind::Min:
    result = MinOp::create(builder, l, resultType, va, vb);
    break;
  case OperatorKind::BitAnd:
    result = BitAndOp::create(builder, l, resultType, va, vb);
    break;
  case OperatorKind::BitOr:
    result = BitOrOp::create(builder, l, resultType, va, vb);
    break;
  case OperatorKind::BitXor:
    result = BitXorOp::create(builder, l, resultType, va, vb);
    break;
  case OperatorKind::Shl:
    result = ShlOp::create(builder, l, resultType, va, vb);
    break;
  case OperatorKind::Shr:
    result = ShrOp::create(builder, l, resultType, va, vb);
    break;
  case OperatorKind::Eq:
    result = cmp(CmpPredicate::eq);
    break;
  case OperatorKind::Ne:
    result = cmp(CmpPredicate::ne);
    break;
  case OperatorKind::Lt:
    result = cmp(CmpPredicate::lt);
    break;
  case OperatorKind::Gt:
    result = cmp(CmpPredicate::gt);
    break;
  case OperatorKind::Le:
    result = cmp(CmpPredicate::le);
    break;
  case OperatorKind::Ge:
    result = cmp(CmpPredicate::ge);
    break;
  case OperatorKind::LogicalAnd:
    result = LogicalAndOp::create(builder, l, resultType, va, vb);
    break;
  case OperatorKind::LogicalOr:
    result = LogicalOrOp::create(builder, l, resultType, va, vb);
    break;
  }
  return tensorOperand(result, at);
}

FailureOr<Operand> FunctionBuilder::emitSelect(SMLoc at, Operand c, Operand a,
                                               Operand b) {
  Type aLit, bLit;
  if (a.isLiteral() && b.isLiteral()) {
    bLit = getLiteralType(b, Type());
    aLit = getLiteralType(a, bLit);
  } else if (a.isLiteral()) {
    aLit = getLiteralType(a, b.getType().getElementType());
  } else if (b.isLiteral()) {
    bLit = getLiteralType(b, a.getType().getElementType());
  }
  Value vc = materialize(c), va = materialize(a, aLit),
        vb = materialize(b, bLit);
  auto tc = cast<RankedTensorType>(vc.getType());
  auto ta = cast<RankedTensorType>(va.getType());
  auto tb = cast<RankedTensorType>(vb.getType());
  std::optional<SmallVector<int64_t>> shape =
      broadcastShapes({tc.getShape(), ta.getShape(), tb.getShape()});
  if (!shape)
    return emitError(at) << "shapes " << formatShape(tc.getShape()) << ", "
                         << formatShape(ta.getShape()) << " and "
                         << formatShape(tb.getShape()) << " do not broadcast";
  if (failed(checkElementCount(*shape, at, "the result")))
    return failure();
  auto resultType = RankedTensorType::get(
      *shape, promoteElementTypes(ta.getElementType(), tb.getElementType()));
  return tensorOperand(
      SelectOp::create(builder, loc(at), resultType, vc, va, vb), at);
}

FailureOr<Operand> FunctionBuilder::emitCall(const Expr &e) {
  StringRef name = e.name;
  std::optional<Builtin> builtin = lookupBuiltin(name);
  if (!builtin)
    return emitError(e.loc) << "unknown function '" << name << "'";
  unsigned numArgs = e.operands.size() + e.sizeArgs.size();
  if (numArgs < builtin->minArgs || numArgs > builtin->maxArgs) {
    auto diag = emitError(e.loc) << "'" << name << "' takes ";
    if (builtin->maxArgs > builtin->minArgs)
      diag << "at least ";
    diag << builtin->minArgs
         << (builtin->minArgs == 1 ? " argument" : " arguments") << ", but "
         << numArgs << (numArgs == 1 ? " was" : " were") << " given";
    return failure();
  }
  SmallVector<Operand, 3> args;
  for (const Expr *operand : e.operands) {
    FailureOr<Operand> x = emitExpr(*operand);
    if (failed(x))
      return failure();
    args.push_back(*x);
  }
  Location at = loc(e.loc);

  if (isFloatMath(name)) {
    // A literal argument is a float: exp(1) is e, not an error.
    Value v = materialize(args[0], args[0].isLiteral()
                                       ? Float32Type::get(source.getContext())
                                       : Type());
    Type element = cast<RankedTensorType>(v.getType()).getElementType();
    if (!isa<FloatType>(element))
      return emitError(e.loc)
             << "'" << name << "' needs a floating-point operand, but it has "
             << "element type " << element
             << "; convert it with as_float(x, 32)";
    Value r =
        llvm::StringSwitch<std::function<Value()>>(name)
            .Case("exp", [&] { return ExpOp::create(builder, at, v); })
            .Case("log", [&] { return LogOp::create(builder, at, v); })
            .Case("sqrt", [&] { return SqrtOp::create(builder, at, v); })
            .Case("tanh", [&] { return TanhOp::create(builder, at, v); })
            .Case("sin", [&] { return SinOp::create(builder, at, v); })
            .Case("cos", [&] { return CosOp::create(builder, at, v); })
            .Case("floor", [&] { return FloorOp::create(builder, at, v); })
            .Case("ceil", [&] { return CeilOp::create(builder, at, v); })
            .Case("round", [&] { return RoundOp::create(builder, at, v); })
            .Case("erf", [&] { return ErfOp::create(builder, at, v); })
            .Default([&] { return SigmoidOp::create(builder, at, v); })();
    return tensorOperand(r, e.loc);
  }
  if (name == "abs" || name == "relu") {
    Value v = materialize(args[0]);
    if (cast<RankedTensorType>(v.getType()).getElementType().isInteger(1))
      return emitError(e.loc) << "'" << name << "' is not defined on booleans";
    if (name == "abs")
      return tensorOperand(AbsOp::create(builder, at, v), e.loc);
    return tensorOperand(ReluOp::create(builder, at, v), e.loc);
  }
  if (name == "pow" || name == "max" || name == "min") {
    OperatorKind kind = name == "pow"   ? OperatorKind::Pow
                        : name == "max" ? OperatorKind::Max
                                        : OperatorKind::Min;
    return emitBinary(kind, e.loc, args[0], args[1]);
  }
  if (name == "select")
    return emitSelect(e.loc, args[0], args[1], args[2]);
  if (name.starts_with("as_"))
    return emitCast(e, args[0]);
  if (name.starts_with("argsort") || name.starts_with("prng_"))
    return emitSortOrRandomCall(e, args[0]);
  return emitShapeCall(e, args);
}

FailureOr<Operand> FunctionBuilder::emitCast(const Expr &e, const Operand &x) {
  FailureOr<int64_t> bits = evalSize(*e.sizeArgs[0]);
  if (failed(bits))
    return failure();
  MLIRContext *ctx = source.getContext();
  Type target;
  if (e.name == "as_float") {
    if (*bits == 16)
      target = Float16Type::get(ctx);
    else if (*bits == 32)
      target = Float32Type::get(ctx);
    else if (*bits == 64)
      target = Float64Type::get(ctx);
    else
      return emitError(e.sizeArgs[0]->begin)
             << "'as_float' takes 16, 32 or 64 bits, not " << *bits;
  } else {
    if (*bits != 8 && *bits != 16 && *bits != 32 && *bits != 64)
      return emitError(e.sizeArgs[0]->begin)
             << "'" << e.name << "' takes 8, 16, 32 or 64 bits, not " << *bits;
    target = IntegerType::get(ctx, *bits,
                              e.name == "as_int" ? IntegerType::Signed
                                                 : IntegerType::Unsigned);
  }
  // A literal that the target type holds becomes a constant of that type.
  if (x.kind == Operand::Kind::Int &&
      (isa<FloatType>(target) || getLiteralType(x, target) == target))
    return tensorOperand(materialize(x, target), e.loc);
  if (x.kind == Operand::Kind::Float && isa<FloatType>(target))
    return tensorOperand(materialize(x, target), e.loc);
  Value v = materialize(x);
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getElementType() == target)
    return tensorOperand(v, e.loc);
  return tensorOperand(
      CastOp::create(builder, loc(e.loc),
                     RankedTensorType::get(type.getShape(), target), v),
      e.loc);
}

FailureOr<Operand> FunctionBuilder::emitShapeCall(const Expr &e,
                                                  ArrayRef<Operand> args) {
  StringRef name = e.name;
  Location at = loc(e.loc);
  Value t = materialize(args[0]);
  auto type = cast<RankedTensorType>(t.getType());
  ArrayRef<int64_t> shape = type.getShape();
  MLIRContext *ctx = source.getContext();

  if (name == "index") {
    FailureOr<int64_t> axis = evalSize(*e.sizeArgs[0]);
    if (failed(axis))
      return failure();
    if (*axis < 0 || *axis >= type.getRank())
      return emitError(e.sizeArgs[0]->begin)
             << "axis " << *axis << " is out of range for a tensor of rank "
             << type.getRank();
    if (shape[*axis] - 1 > std::numeric_limits<int32_t>::max())
      return emitError(e.loc)
             << "coordinates along axis " << *axis << " do not fit in si32";
    auto resultType = RankedTensorType::get(
        shape, IntegerType::get(ctx, 32, IntegerType::Signed));
    return tensorOperand(IndexOp::create(builder, at, resultType,
                                         builder.getI64IntegerAttr(*axis)),
                         e.loc);
  }

  if (name == "reshape") {
    SmallVector<int64_t> newShape;
    if (failed(evalShape(e.sizeArgs, "'reshape'", newShape)))
      return failure();
    std::optional<int64_t> from = getCheckedNumElements(shape);
    std::optional<int64_t> to = getCheckedNumElements(newShape);
    if (!to)
      return checkElementCount(newShape, e.loc, "the result of 'reshape'");
    if (*from != *to)
      return emitError(e.loc)
             << "cannot reshape " << formatShape(shape) << " (" << *from
             << " elements) to " << formatShape(newShape) << " (" << *to
             << " elements)";
    return tensorOperand(
        ReshapeOp::create(
            builder, at, RankedTensorType::get(newShape, type.getElementType()),
            t),
        e.loc);
  }

  // gather(T, I) and scatter(U, I, S), along axis 0.
  Value indices = materialize(args[1]);
  auto indexType = cast<RankedTensorType>(indices.getType());
  Type indexElement = indexType.getElementType();
  if (!isa<IntegerType>(indexElement) || indexElement.isInteger(1))
    return emitError(e.loc)
           << "the indices of '" << name
           << "' must be integers, but have element type " << indexElement;
  if (name == "gather") {
    if (type.getRank() == 0)
      return emitError(e.loc) << "'gather' needs a tensor of rank 1 or more";
    SmallVector<int64_t> resultShape(indexType.getShape());
    resultShape.append(shape.begin() + 1, shape.end());
    if (failed(checkElementCount(resultShape, e.loc, "the result of 'gather'")))
      return failure();
    return tensorOperand(
        GatherOp::create(
            builder, at,
            RankedTensorType::get(resultShape, type.getElementType()), t,
            indices, builder.getI64IntegerAttr(0)),
        e.loc);
  }
  // scatter: the result has the shape of the third argument.
  auto shapeType = cast<RankedTensorType>(materialize(args[2]).getType());
  if (shapeType.getRank() == 0)
    return emitError(e.loc)
           << "'scatter' needs a result shape of rank 1 or more";
  SmallVector<int64_t> expected(indexType.getShape());
  expected.append(shapeType.getShape().begin() + 1, shapeType.getShape().end());
  if (shape != ArrayRef<int64_t>(expected))
    return emitError(e.loc)
           << "the updates of 'scatter' have shape " << formatShape(shape)
           << " but must have shape " << formatShape(expected)
           << " (the result shape with axis 0 replaced by the index shape)";
  return tensorOperand(
      ScatterOp::create(
          builder, at,
          RankedTensorType::get(shapeType.getShape(), type.getElementType()), t,
          indices, builder.getI64IntegerAttr(0)),
      e.loc);
}

FailureOr<Operand> FunctionBuilder::emitSortOrRandomCall(const Expr &e,
                                                         const Operand &x) {
  StringRef name = e.name;
  Location at = loc(e.loc);
  MLIRContext *ctx = source.getContext();
  Value t = materialize(x);
  auto type = cast<RankedTensorType>(t.getType());

  if (name.starts_with("argsort")) {
    FailureOr<int64_t> axis = evalSize(*e.sizeArgs[0]);
    if (failed(axis))
      return failure();
    if (*axis < 0 || *axis >= type.getRank())
      return emitError(e.sizeArgs[0]->begin)
             << "axis " << *axis << " is out of range for a tensor of rank "
             << type.getRank();
    if (type.getDimSize(*axis) > std::numeric_limits<int32_t>::max())
      return emitError(e.loc)
             << "positions along axis " << *axis << " do not fit in si32";
    auto resultType = RankedTensorType::get(
        type.getShape(), IntegerType::get(ctx, 32, IntegerType::Signed));
    SortDirection direction =
        name == "argsort" ? SortDirection::asc : SortDirection::desc;
    return tensorOperand(
        ArgSortOp::create(builder, at, resultType,
                          SortDirectionAttr::get(ctx, direction), t,
                          builder.getI64IntegerAttr(*axis)),
        e.loc);
  }

  // prng_value(S, d0, d1, ...) and prng_state(S, d0, d1, ...).
  auto intType = dyn_cast<IntegerType>(type.getElementType());
  if (type.getShape() != ArrayRef<int64_t>{6} || !intType ||
      intType.getWidth() != 32)
    return emitError(e.loc) << "the state of '" << name
                            << "' must be 6 32-bit integers (key k0, k1 and "
                               "counter c0..c3), but has type "
                            << type;
  SmallVector<int64_t> shape;
  std::string what = ("'" + name + "'").str();
  if (failed(evalShape(e.sizeArgs, what, shape)))
    return failure();
  std::optional<int64_t> count = getCheckedNumElements(shape);
  if (!count || *count > std::numeric_limits<int32_t>::max())
    return emitError(e.loc)
           << "'" << name << "' makes at most 2^31 - 1 "
           << "values, but shape " << formatShape(shape) << " has more";
  auto valuesType = RankedTensorType::get(shape, Float32Type::get(ctx));
  PrngOp prng;
  for (PrngOp existing : prngs)
    if (existing.getState() == t &&
        existing.getValues().getType() == valuesType)
      prng = existing;
  if (!prng) {
    prng = PrngOp::create(builder, at, valuesType, type, t);
    prngs.push_back(prng);
  }
  return tensorOperand(
      name == "prng_value" ? prng.getValues() : prng.getNewState(), e.loc);
}
