//===- TileOps.cpp - Tile op verifiers, printers and helpers --------------===//
//
// Verifiers for every Tile op, the shared elementwise broadcasting traits,
// and the custom assembly directive of the binary ops. Folders live apart in
// TileFolds.cpp.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>

using namespace mlir;
using namespace mlir::plaidml::tile;

namespace {
/// "4x3" for a shape, "scalar" for rank 0: the way users think of shapes.
std::string formatShape(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleave(shape, os, "x");
  return s;
}
} // namespace

//===----------------------------------------------------------------------===//
// Elementwise broadcasting traits
//===----------------------------------------------------------------------===//

Type mlir::plaidml::tile::inferElementwiseResultType(TypeRange operands,
                                                     ElementwiseRule rule) {
  SmallVector<ArrayRef<int64_t>> shapes;
  Type element;
  for (Type t : operands) {
    auto tensor = cast<RankedTensorType>(t);
    shapes.push_back(tensor.getShape());
    element = element ? promoteElementTypes(element, tensor.getElementType())
                      : tensor.getElementType();
  }
  auto shape = broadcastShapes(shapes);
  if (!shape)
    return {};
  if (rule == ElementwiseRule::Predicate)
    element = IntegerType::get(element.getContext(), 1);
  return RankedTensorType::get(*shape, element);
}

LogicalResult
mlir::plaidml::tile::verifyElementwiseBroadcast(Operation *op,
                                                ElementwiseRule rule) {
  // Operand and result types already satisfy the ODS constraints here.
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  Type expected = inferElementwiseResultType(op->getOperandTypes(), rule);
  if (!expected) {
    std::string shapes;
    llvm::raw_string_ostream os(shapes);
    llvm::interleave(
        op->getOperandTypes(), os,
        [&](Type t) {
          os << formatShape(cast<RankedTensorType>(t).getShape());
        },
        ", ");
    return op->emitOpError("operand shapes (")
           << shapes
           << ") do not broadcast: each dimension, aligned from the right, "
              "must match or be 1";
  }
  auto expectedType = cast<RankedTensorType>(expected);
  if (resultType.getShape() != expectedType.getShape())
    return op->emitOpError("result shape ")
           << formatShape(resultType.getShape())
           << " differs from the broadcast shape "
           << formatShape(expectedType.getShape()) << " of the operands";
  Type element = expectedType.getElementType();
  if (rule == ElementwiseRule::Arithmetic && element.isInteger(1))
    return op->emitOpError("arithmetic on i1 operands is not defined; cast "
                           "them to an integer type first");
  if (rule == ElementwiseRule::Bitwise && !isa<IntegerType>(element))
    return op->emitOpError("bitwise op needs integer operands, but their "
                           "promoted element type is ")
           << element;
  if (resultType.getElementType() != element) {
    if (rule == ElementwiseRule::Predicate)
      return op->emitOpError("result element type must be i1, not ")
             << resultType.getElementType();
    return op->emitOpError("result element type ")
           << resultType.getElementType() << " differs from " << element
           << ", the promoted element type of the operands";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// custom<BinaryTypes>: `T` when lhs, rhs and result agree, else `L, R -> T`.
//===----------------------------------------------------------------------===//

static ParseResult parseBinaryTypes(OpAsmParser &parser, Type &lhs, Type &rhs,
                                    Type &result) {
  if (parser.parseType(lhs))
    return failure();
  if (failed(parser.parseOptionalComma())) {
    rhs = result = lhs;
    return success();
  }
  return failure(parser.parseType(rhs) || parser.parseArrow() ||
                 parser.parseType(result));
}

static void printBinaryTypes(OpAsmPrinter &printer, Operation *, Type lhs,
                             Type rhs, Type result) {
  if (lhs == rhs && rhs == result) {
    printer << lhs;
    return;
  }
  printer << lhs << ", " << rhs << " -> " << result;
}

#define GET_OP_CLASSES
#include "plaidml/Dialect/Tile/IR/TileOps.cpp.inc"

//===----------------------------------------------------------------------===//
// BinaryKind
//===----------------------------------------------------------------------===//

std::optional<BinaryKind> mlir::plaidml::tile::getBinaryKind(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<BinaryKind>>(op)
      .Case([](AddOp) { return BinaryKind::Add; })
      .Case([](SubOp) { return BinaryKind::Sub; })
      .Case([](MulOp) { return BinaryKind::Mul; })
      .Case([](DivOp) { return BinaryKind::Div; })
      .Case([](ModOp) { return BinaryKind::Mod; })
      .Case([](PowOp) { return BinaryKind::Pow; })
      .Case([](MaxOp) { return BinaryKind::Max; })
      .Case([](MinOp) { return BinaryKind::Min; })
      .Case([](BitAndOp) { return BinaryKind::BitAnd; })
      .Case([](BitOrOp) { return BinaryKind::BitOr; })
      .Case([](BitXorOp) { return BinaryKind::BitXor; })
      .Case([](ShlOp) { return BinaryKind::Shl; })
      .Case([](ShrOp) { return BinaryKind::Shr; })
      .Default([](Operation *) { return std::nullopt; });
}

//===----------------------------------------------------------------------===//
// ContractionOp
//===----------------------------------------------------------------------===//

unsigned ContractionOp::getNumInputsFor(CombinationKind combo) {
  switch (combo) {
  case CombinationKind::none:
    return 1;
  case CombinationKind::add:
  case CombinationKind::mul:
  case CombinationKind::eq:
    return 2;
  case CombinationKind::cond:
    return 3;
  }
  llvm_unreachable("unknown combination kind");
}

std::string ContractionOp::getIdxName(unsigned i) {
  if (auto names = getIdxs())
    if (i < names->size())
      return cast<StringAttr>((*names)[i]).str();
  return "d" + std::to_string(i);
}

/// Element type of the combination of `inputs` under `combo`.
static Type getCombinationType(CombinationKind combo, TypeRange inputs) {
  auto elem = [&](unsigned i) {
    return cast<RankedTensorType>(inputs[i]).getElementType();
  };
  switch (combo) {
  case CombinationKind::none:
    return elem(0);
  case CombinationKind::add:
  case CombinationKind::mul:
    return promoteElementTypes(elem(0), elem(1));
  case CombinationKind::eq:
    return IntegerType::get(elem(0).getContext(), 1);
  case CombinationKind::cond:
    return elem(2);
  }
  llvm_unreachable("unknown combination kind");
}

/// Checks that every floordiv, ceildiv and mod in `expr` divides by a
/// positive constant (the only divisions the index space is defined for).
static LogicalResult verifyDivisors(Operation *op, AffineExpr expr,
                                    StringRef where) {
  LogicalResult result = success();
  expr.walk([&](AffineExpr e) {
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    if (failed(result) || !bin || e.getKind() == AffineExprKind::Add ||
        e.getKind() == AffineExprKind::Mul)
      return;
    auto divisor = dyn_cast<AffineConstantExpr>(bin.getRHS());
    if (!divisor || divisor.getValue() <= 0) {
      std::string text;
      llvm::raw_string_ostream os(text);
      e.print(os);
      result = op->emitOpError() << where << ": '" << text
                                 << "' must divide by a positive constant";
    }
  });
  return result;
}

LogicalResult ContractionOp::verify() {
  CombinationKind combo = getCombo();
  unsigned numInputs = getInputs().size();
  unsigned expectedInputs = getNumInputsFor(combo);
  if (numInputs != expectedInputs)
    return emitOpError("combination '")
           << stringifyCombinationKind(combo) << "' takes " << expectedInputs
           << (expectedInputs == 1 ? " input" : " inputs")
           << " after the init, but " << numInputs
           << (numInputs == 1 ? " was" : " were") << " given";

  ArrayAttr srcs = getSrcs();
  if (srcs.size() != numInputs)
    return emitOpError("'srcs' must have one affine map per input (")
           << numInputs << "), but has " << srcs.size();

  AffineMap sink = getSink();
  unsigned numIdxs = sink.getNumDims();
  auto resultType = cast<RankedTensorType>(getResult().getType());
  if (sink.getNumSymbols() != 0)
    return emitOpError("'sink' map must not have symbols");
  if (sink.getNumResults() != resultType.getRank())
    return emitOpError("'sink' map has ")
           << sink.getNumResults() << " result(s) but the result " << resultType
           << " has rank " << resultType.getRank();

  for (AffineExpr e : sink.getResults())
    if (failed(verifyDivisors(*this, e, "'sink'")))
      return failure();

  for (auto [i, attr] : llvm::enumerate(srcs)) {
    AffineMap src = cast<AffineMapAttr>(attr).getValue();
    for (AffineExpr e : src.getResults())
      if (failed(verifyDivisors(*this, e, "source map #" + std::to_string(i))))
        return failure();
    auto inputType = cast<RankedTensorType>(getInputs()[i].getType());
    if (src.getNumDims() != numIdxs)
      return emitOpError("source map #")
             << i << " has " << src.getNumDims()
             << " dimension(s) but 'sink' has " << numIdxs
             << "; all maps must share one index space";
    if (src.getNumSymbols() != 0)
      return emitOpError("source map #") << i << " must not have symbols";
    if (src.getNumResults() != inputType.getRank())
      return emitOpError("source map #")
             << i << " has " << src.getNumResults() << " result(s) but input #"
             << i << " " << inputType << " has rank " << inputType.getRank();
  }

  if (auto cons = getCons()) {
    IntegerSet set = *cons;
    if (set.getNumDims() != numIdxs)
      return emitOpError("'cons' has ")
             << set.getNumDims() << " dimension(s) but 'sink' has " << numIdxs;
    if (set.getNumSymbols() != 0)
      return emitOpError("'cons' must not have symbols");
    for (AffineExpr e : set.getConstraints())
      if (failed(verifyDivisors(*this, e, "'cons'")))
        return failure();
  }

  if (auto names = getIdxs()) {
    if (names->size() != numIdxs)
      return emitOpError("'idxs' names ")
             << names->size() << " index(es) but the maps have " << numIdxs;
    llvm::StringSet<> seen;
    for (Attribute name : *names) {
      StringRef str = cast<StringAttr>(name).getValue();
      if (str.empty())
        return emitOpError("'idxs' contains an empty index name");
      if (!seen.insert(str).second)
        return emitOpError("index name '")
               << str << "' appears twice in 'idxs'";
    }
  }

  auto lower = getLowerBounds(), upper = getUpperBounds();
  if (lower.has_value() != upper.has_value())
    return emitOpError("'lower_bounds' and 'upper_bounds' must be given "
                       "together");
  if (lower && (lower->size() != numIdxs || upper->size() != numIdxs))
    return emitOpError("bounds must have one entry per index (")
           << numIdxs << "), but 'lower_bounds' has " << lower->size()
           << " and 'upper_bounds' has " << upper->size();

  auto initType = cast<RankedTensorType>(getInit().getType());
  if (initType.getElementType() != resultType.getElementType())
    return emitOpError("init element type ")
           << initType.getElementType() << " differs from the result element "
           << "type " << resultType.getElementType();
  if (!isBroadcastableTo(initType.getShape(), resultType.getShape()))
    return emitOpError("init of shape ")
           << formatShape(initType.getShape())
           << " does not broadcast to the result shape "
           << formatShape(resultType.getShape());

  Type comboType = getCombinationType(combo, getInputs().getTypes());
  if (!isPromotableTo(comboType, resultType.getElementType()))
    return emitOpError("the combination yields ")
           << comboType << ", which does not fit the result element type "
           << resultType.getElementType()
           << " without narrowing; cast the inputs first";
  return success();
}

//===----------------------------------------------------------------------===//
// ConstantOp, CastOp, LogicalNotOp, SelectOp
//===----------------------------------------------------------------------===//

void ConstantOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "cst");
}

LogicalResult CastOp::verify() {
  auto from = cast<RankedTensorType>(getOperand().getType());
  auto to = cast<RankedTensorType>(getType());
  if (from.getShape() != to.getShape())
    return emitOpError("changes the shape from ")
           << formatShape(from.getShape()) << " to "
           << formatShape(to.getShape())
           << "; a cast only converts element types (use tile.reshape)";
  return success();
}

LogicalResult LogicalNotOp::verify() {
  auto from = cast<RankedTensorType>(getOperand().getType());
  auto to = cast<RankedTensorType>(getType());
  if (from.getShape() != to.getShape())
    return emitOpError("result shape ")
           << formatShape(to.getShape()) << " differs from the operand shape "
           << formatShape(from.getShape());
  return success();
}

LogicalResult SelectOp::verify() {
  auto valueType = inferElementwiseResultType(
      TypeRange{getTrueValue().getType(), getFalseValue().getType()},
      ElementwiseRule::Arithmetic);
  if (!valueType)
    return verifyElementwiseBroadcast(*this, ElementwiseRule::Arithmetic);
  Type element = cast<RankedTensorType>(valueType).getElementType();
  auto all =
      inferElementwiseResultType(getOperandTypes(), ElementwiseRule::Predicate);
  if (!all)
    return verifyElementwiseBroadcast(*this, ElementwiseRule::Predicate);
  auto expected =
      RankedTensorType::get(cast<RankedTensorType>(all).getShape(), element);
  auto resultType = cast<RankedTensorType>(getType());
  if (resultType.getShape() != expected.getShape())
    return emitOpError("result shape ")
           << formatShape(resultType.getShape())
           << " differs from the broadcast shape "
           << formatShape(expected.getShape()) << " of the operands";
  if (resultType.getElementType() != element)
    return emitOpError("result element type ")
           << resultType.getElementType() << " differs from " << element
           << ", the promoted element type of the two values";
  return success();
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  auto from = cast<RankedTensorType>(getOperand().getType());
  auto to = cast<RankedTensorType>(getType());
  if (from.getElementType() != to.getElementType())
    return emitOpError("changes the element type from ")
           << from.getElementType() << " to " << to.getElementType()
           << "; use tile.cast";
  auto fromCount = getCheckedNumElements(from.getShape());
  auto toCount = getCheckedNumElements(to.getShape());
  if (!fromCount || !toCount)
    return emitOpError("the ")
           << (fromCount ? "result" : "operand") << " shape "
           << formatShape((fromCount ? to : from).getShape())
           << " has more elements than a 64-bit count can hold";
  if (*fromCount != *toCount)
    return emitOpError("cannot reshape ")
           << formatShape(from.getShape()) << " (" << *fromCount
           << " elements) to " << formatShape(to.getShape()) << " (" << *toCount
           << " elements)";
  return success();
}

LogicalResult IndexOp::verify() {
  auto type = cast<RankedTensorType>(getType());
  uint64_t axis = getAxis();
  if (axis >= static_cast<uint64_t>(type.getRank()))
    return emitOpError("axis ") << axis << " is out of range for " << type
                                << " of rank " << type.getRank();
  Type element = type.getElementType();
  int64_t maxCoordinate = type.getDimSize(axis) - 1;
  // Largest coordinate each element type holds exactly.
  int64_t limit;
  if (auto intTy = dyn_cast<IntegerType>(element)) {
    if (intTy.getWidth() == 1)
      return emitOpError("coordinates need an integer or float element type, "
                         "not i1");
    unsigned bits =
        intTy.isUnsigned() ? intTy.getWidth() : intTy.getWidth() - 1;
    limit = bits >= 63 ? INT64_MAX : (int64_t(1) << bits) - 1;
  } else {
    limit = int64_t(1) << (cast<FloatType>(element).getFPMantissaWidth());
  }
  if (maxCoordinate > limit)
    return emitOpError("coordinate ")
           << maxCoordinate << " along axis " << axis
           << " does not fit exactly in element type " << element;
  return success();
}

/// Shape of `outer` with dimension `axis` replaced by `inner`.
static SmallVector<int64_t> spliceShape(ArrayRef<int64_t> outer, uint64_t axis,
                                        ArrayRef<int64_t> inner) {
  SmallVector<int64_t> shape(outer.begin(), outer.begin() + axis);
  shape.append(inner.begin(), inner.end());
  shape.append(outer.begin() + axis + 1, outer.end());
  return shape;
}

LogicalResult GatherOp::verify() {
  auto source = cast<RankedTensorType>(getTensor().getType());
  auto indices = cast<RankedTensorType>(getIndices().getType());
  auto result = cast<RankedTensorType>(getType());
  uint64_t axis = getAxis();
  if (axis >= static_cast<uint64_t>(source.getRank()))
    return emitOpError("axis ") << axis << " is out of range for the source "
                                << source << " of rank " << source.getRank();
  if (indices.getElementType().isInteger(1))
    return emitOpError("indices must be integers wider than i1");
  if (result.getElementType() != source.getElementType())
    return emitOpError("result element type ")
           << result.getElementType() << " differs from the source element "
           << "type " << source.getElementType();
  SmallVector<int64_t> expected =
      spliceShape(source.getShape(), axis, indices.getShape());
  if (result.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result shape ")
           << formatShape(result.getShape()) << " should be "
           << formatShape(expected) << " (the source shape with axis " << axis
           << " replaced by the index shape)";
  return success();
}

LogicalResult ScatterOp::verify() {
  auto updates = cast<RankedTensorType>(getUpdates().getType());
  auto indices = cast<RankedTensorType>(getIndices().getType());
  auto result = cast<RankedTensorType>(getType());
  uint64_t axis = getAxis();
  if (axis >= static_cast<uint64_t>(result.getRank()))
    return emitOpError("axis ") << axis << " is out of range for the result "
                                << result << " of rank " << result.getRank();
  if (indices.getElementType().isInteger(1))
    return emitOpError("indices must be integers wider than i1");
  if (result.getElementType() != updates.getElementType())
    return emitOpError("result element type ")
           << result.getElementType() << " differs from the updates element "
           << "type " << updates.getElementType();
  SmallVector<int64_t> expected =
      spliceShape(result.getShape(), axis, indices.getShape());
  if (updates.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("updates shape ")
           << formatShape(updates.getShape()) << " should be "
           << formatShape(expected) << " (the result shape with axis " << axis
           << " replaced by the index shape)";
  return success();
}

//===----------------------------------------------------------------------===//
// ArgSortOp, PrngOp
//===----------------------------------------------------------------------===//

LogicalResult ArgSortOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  auto result = cast<RankedTensorType>(getType());
  uint64_t axis = getAxis();
  if (axis >= static_cast<uint64_t>(operand.getRank()))
    return emitOpError("axis ") << axis << " is out of range for " << operand
                                << " of rank " << operand.getRank();
  if (result.getShape() != operand.getShape())
    return emitOpError("result shape ")
           << formatShape(result.getShape()) << " differs from the operand "
           << "shape " << formatShape(operand.getShape());
  if (operand.getDimSize(axis) > std::numeric_limits<int32_t>::max())
    return emitOpError("axis ") << axis << " has " << operand.getDimSize(axis)
                                << " elements; positions must fit in si32";
  return success();
}

LogicalResult PrngOp::verify() {
  auto state = cast<RankedTensorType>(getState().getType());
  auto values = cast<RankedTensorType>(getValues().getType());
  if (state.getShape() != ArrayRef<int64_t>{6})
    return emitOpError("state must have shape 6 (key k0, k1 and counter "
                       "c0..c3), not ")
           << formatShape(state.getShape());
  std::optional<int64_t> count = getCheckedNumElements(values.getShape());
  if (!count || *count > std::numeric_limits<int32_t>::max())
    return emitOpError("values of shape ")
           << formatShape(values.getShape())
           << " have more than 2^31 - 1 elements";
  return success();
}
