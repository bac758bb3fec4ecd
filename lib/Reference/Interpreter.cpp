//===- Interpreter.cpp - Reference evaluator of Tile IR -------------------===//
//
// Walks a Tile function op by op and evaluates each one on host buffers:
// constants, casts, elementwise ops with NumPy broadcasting, comparisons,
// select and the shape ops. Contractions are evaluated in Contraction.cpp,
// argsort and prng in SortAndRandom.cpp, element arithmetic in Scalar.cpp.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"
#include "Scalar.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <memory>

using namespace mlir;
using namespace mlir::plaidml;
using namespace mlir::plaidml::reference;
using namespace mlir::plaidml::tile;

SmallVector<int64_t> reference::delinearize(int64_t linear,
                                            ArrayRef<int64_t> shape) {
  SmallVector<int64_t> coords(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    coords[d] = linear % shape[d];
    linear /= shape[d];
  }
  return coords;
}

int64_t reference::linearize(ArrayRef<int64_t> coords,
                             ArrayRef<int64_t> shape) {
  int64_t linear = 0;
  for (auto [c, size] : llvm::zip_equal(coords, shape))
    linear = linear * size + c;
  return linear;
}

int64_t reference::broadcastIndex(ArrayRef<int64_t> coords,
                                  ArrayRef<int64_t> shape) {
  size_t offset = coords.size() - shape.size();
  int64_t linear = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    linear = linear * shape[d] + (shape[d] == 1 ? 0 : coords[offset + d]);
  return linear;
}

namespace {
Type elementTypeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

/// Evaluates an elementwise op: for every result element, reads the
/// broadcast operand elements and calls `fn(elements) -> result element`.
template <typename Fn>
FailureOr<Buffer> mapElements(Operation *op, ArrayRef<const Buffer *> operands,
                              Fn fn) {
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  FailureOr<Buffer> created = Buffer::create(resultType, op->getLoc());
  if (failed(created))
    return failure();
  Buffer &result = *created;
  SmallVector<int64_t> positions(operands.size());
  for (int64_t i = 0, e = result.getNumElements(); i < e; ++i) {
    SmallVector<int64_t> coords = delinearize(i, resultType.getShape());
    for (auto [k, operand] : llvm::enumerate(operands))
      positions[k] = broadcastIndex(coords, operand->getType().getShape());
    FailureOr<Scalar> v = fn(positions);
    if (failed(v))
      return failure();
    writeScalar(result, i, *v);
  }
  return created;
}

FailureOr<Buffer> evaluateBinary(Operation *op, BinaryKind kind,
                                 ArrayRef<const Buffer *> operands) {
  Type type =
      cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
  return mapElements(
      op, operands, [&](ArrayRef<int64_t> pos) -> FailureOr<Scalar> {
        Scalar a = readAs(*operands[0], pos[0], type);
        Scalar b = readAs(*operands[1], pos[1], type);
        std::string error;
        std::optional<Scalar> r = applyBinary(kind, a, b, type, error);
        if (!r)
          return op->emitError(error);
        return *r;
      });
}

FailureOr<Buffer> evaluateLogical(Operation *op,
                                  ArrayRef<const Buffer *> operands) {
  Type lhsType = operands[0]->getElementType();
  Type rhsType = operands[1]->getElementType();
  return mapElements(
      op, operands, [&](ArrayRef<int64_t> pos) -> FailureOr<Scalar> {
        bool a = isTruthy(readAs(*operands[0], pos[0], lhsType), lhsType);
        bool b = isTruthy(readAs(*operands[1], pos[1], rhsType), rhsType);
        Scalar r;
        r.i = isa<LogicalAndOp>(op)  ? (a && b)
              : isa<LogicalOrOp>(op) ? (a || b)
                                     : (a != b);
        return r;
      });
}

FailureOr<Buffer> evaluateGather(GatherOp op, const Buffer &source,
                                 const Buffer &indices) {
  auto resultType = cast<RankedTensorType>(op.getType());
  ArrayRef<int64_t> srcShape = source.getType().getShape();
  int64_t axis = op.getAxis(), idxRank = indices.getType().getRank();
  FailureOr<Buffer> created = Buffer::create(resultType, op.getLoc());
  if (failed(created))
    return failure();
  Buffer &result = *created;
  Type type = source.getElementType();
  for (int64_t i = 0, e = result.getNumElements(); i < e; ++i) {
    SmallVector<int64_t> coords = delinearize(i, resultType.getShape());
    ArrayRef<int64_t> idxCoords(coords.begin() + axis, idxRank);
    int64_t at =
        readAs(indices, linearize(idxCoords, indices.getType().getShape()),
               IntegerType::get(op.getContext(), 64))
            .i;
    at = std::clamp<int64_t>(at, 0, srcShape[axis] - 1);
    SmallVector<int64_t> srcCoords(coords.begin(), coords.begin() + axis);
    srcCoords.push_back(at);
    srcCoords.append(coords.begin() + axis + idxRank, coords.end());
    writeScalar(result, i,
                readAs(source, linearize(srcCoords, srcShape), type));
  }
  return created;
}

FailureOr<Buffer> evaluateScatter(ScatterOp op, const Buffer &updates,
                                  const Buffer &indices) {
  auto resultType = cast<RankedTensorType>(op.getType());
  ArrayRef<int64_t> updShape = updates.getType().getShape();
  int64_t axis = op.getAxis(), idxRank = indices.getType().getRank();
  FailureOr<Buffer> created = Buffer::create(resultType, op.getLoc());
  if (failed(created))
    return failure();
  Buffer &result = *created;
  Type type = result.getElementType();
  for (int64_t i = 0, e = updates.getNumElements(); i < e; ++i) {
    SmallVector<int64_t> coords = delinearize(i, updShape);
    ArrayRef<int64_t> idxCoords(coords.begin() + axis, idxRank);
    Scalar rawIndex =
        readAs(indices, linearize(idxCoords, indices.getType().getShape()),
               indices.getElementType());
    // Compare in the index type's own signedness: a huge unsigned index is
    // out of range, not negative.
    auto idxTy = cast<IntegerType>(indices.getElementType());
    bool inRange =
        idxTy.isUnsigned()
            ? static_cast<uint64_t>(rawIndex.i) <
                  static_cast<uint64_t>(resultType.getDimSize(axis))
            : rawIndex.i >= 0 && rawIndex.i < resultType.getDimSize(axis);
    if (!inRange)
      continue;
    SmallVector<int64_t> outCoords(coords.begin(), coords.begin() + axis);
    outCoords.push_back(rawIndex.i);
    outCoords.append(coords.begin() + axis + idxRank, coords.end());
    int64_t out = linearize(outCoords, resultType.getShape());
    std::string error;
    std::optional<Scalar> sum =
        applyBinary(BinaryKind::Add, readAs(result, out, type),
                    readAs(updates, i, type), type, error);
    writeScalar(result, out, *sum); // addition is always specified
  }
  return created;
}

/// Evaluates one op of a Tile function body.
FailureOr<Buffer> evaluateOp(Operation *op, ArrayRef<const Buffer *> operands) {
  if (std::optional<BinaryKind> kind = getBinaryKind(op))
    return evaluateBinary(op, *kind, operands);
  if (isa<LogicalAndOp, LogicalOrOp, LogicalXorOp>(op))
    return evaluateLogical(op, operands);
  if (isa<NegOp, AbsOp, ReluOp, ExpOp, LogOp, SqrtOp, TanhOp, SinOp, CosOp,
          FloorOp, CeilOp, RoundOp, ErfOp, SigmoidOp, BitNotOp, LogicalNotOp>(
          op)) {
    StringRef name = op->getName().stripDialect();
    Type type = operands[0]->getElementType();
    return mapElements(
        op, operands, [&](ArrayRef<int64_t> pos) -> FailureOr<Scalar> {
          return applyUnary(name, readAs(*operands[0], pos[0], type), type);
        });
  }
  return llvm::TypeSwitch<Operation *, FailureOr<Buffer>>(op)
      .Case([&](ConstantOp c) -> FailureOr<Buffer> {
        auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
        if (!dense)
          return c.emitError("the reference interpreter only evaluates dense "
                             "constants");
        return Buffer::fromAttr(dense, c.getLoc());
      })
      .Case([&](CastOp c) {
        Type to = elementTypeOf(c);
        return mapElements(c, operands,
                           [&](ArrayRef<int64_t> pos) -> FailureOr<Scalar> {
                             return readAs(*operands[0], pos[0], to);
                           });
      })
      .Case([&](CmpOp c) {
        Type type = promoteElementTypes(operands[0]->getElementType(),
                                        operands[1]->getElementType());
        StringRef pred = stringifyCmpPredicate(c.getPredicate());
        return mapElements(
            c, operands, [&](ArrayRef<int64_t> pos) -> FailureOr<Scalar> {
              Scalar r;
              r.i = compare(pred, readAs(*operands[0], pos[0], type),
                            readAs(*operands[1], pos[1], type), type);
              return r;
            });
      })
      .Case([&](SelectOp s) {
        Type condType = operands[0]->getElementType();
        Type type = elementTypeOf(s);
        return mapElements(
            s, operands, [&](ArrayRef<int64_t> pos) -> FailureOr<Scalar> {
              bool c =
                  isTruthy(readAs(*operands[0], pos[0], condType), condType);
              return c ? readAs(*operands[1], pos[1], type)
                       : readAs(*operands[2], pos[2], type);
            });
      })
      .Case([&](ReshapeOp r) -> FailureOr<Buffer> {
        FailureOr<Buffer> result =
            Buffer::create(cast<RankedTensorType>(r.getType()), r.getLoc());
        if (failed(result))
          return failure();
        Type type = result->getElementType();
        for (int64_t i = 0, e = result->getNumElements(); i < e; ++i)
          writeScalar(*result, i, readAs(*operands[0], i, type));
        return result;
      })
      .Case([&](IndexOp x) -> FailureOr<Buffer> {
        auto type = cast<RankedTensorType>(x.getType());
        FailureOr<Buffer> result = Buffer::create(type, x.getLoc());
        if (failed(result))
          return failure();
        for (int64_t i = 0, e = result->getNumElements(); i < e; ++i)
          result->setInt(i, delinearize(i, type.getShape())[x.getAxis()]);
        return result;
      })
      .Case([&](GatherOp g) {
        return evaluateGather(g, *operands[0], *operands[1]);
      })
      .Case([&](ScatterOp s) {
        return evaluateScatter(s, *operands[0], *operands[1]);
      })
      .Case([&](ContractionOp c) { return evaluateContraction(c, operands); })
      .Case([&](ArgSortOp a) { return evaluateArgSort(a, *operands[0]); })
      .Default([](Operation *other) -> FailureOr<Buffer> {
        return other->emitError("the reference interpreter cannot evaluate '")
               << other->getName() << "'";
      });
}
} // namespace

FailureOr<std::vector<Buffer>> reference::evaluate(func::FuncOp func,
                                                   ArrayRef<Buffer> inputs) {
  if (func.isExternal())
    return func.emitError("cannot evaluate external function '")
           << func.getSymName() << "'";
  if (!func.getBody().hasOneBlock())
    return func.emitError("the reference interpreter evaluates functions of "
                          "one block");
  Block &body = func.getBody().front();
  if (inputs.size() != body.getNumArguments())
    return func.emitError("function '")
           << func.getSymName() << "' takes " << body.getNumArguments()
           << " input(s), but " << inputs.size() << " were given";

  // Every value, by SSA value; the inputs are the caller's (not copied),
  // the rest is owned here. Values are never overwritten in SSA.
  llvm::DenseMap<Value, const Buffer *> values;
  std::vector<std::unique_ptr<Buffer>> owned;
  for (auto [arg, input] : llvm::zip_equal(body.getArguments(), inputs)) {
    if (arg.getType() != input.getType())
      return func.emitError("input #")
             << arg.getArgNumber() << " has type " << input.getType()
             << ", but the argument has type " << arg.getType();
    values[arg] = &input;
  }

  for (Operation &op : body) {
    SmallVector<const Buffer *> operands;
    for (Value v : op.getOperands()) {
      auto it = values.find(v);
      if (it == values.end())
        return op.emitError("operand is not a tensor the reference "
                            "interpreter computed");
      operands.push_back(it->second);
    }
    if (isa<func::ReturnOp>(op)) {
      // Results move out of the buffers computed here; an input, or a value
      // returned twice, is copied.
      std::vector<Buffer> results;
      llvm::DenseSet<const Buffer *> moved;
      for (const Buffer *b : operands) {
        auto it = llvm::find_if(owned, [&](const std::unique_ptr<Buffer> &p) {
          return p.get() == b;
        });
        if (it != owned.end() && moved.insert(b).second) {
          results.push_back(std::move(**it));
          continue;
        }
        FailureOr<Buffer> copy = b->clone(op.getLoc());
        if (failed(copy))
          return failure();
        results.push_back(std::move(*copy));
      }
      return results;
    }
    if (auto prng = dyn_cast<PrngOp>(op)) {
      FailureOr<std::pair<Buffer, Buffer>> results =
          evaluatePrng(prng, *operands[0]);
      if (failed(results))
        return failure();
      owned.push_back(std::make_unique<Buffer>(std::move(results->first)));
      values[prng.getValues()] = owned.back().get();
      owned.push_back(std::make_unique<Buffer>(std::move(results->second)));
      values[prng.getNewState()] = owned.back().get();
      continue;
    }
    if (op.getNumResults() != 1 || op.getNumRegions() != 0)
      return op.emitError("the reference interpreter cannot evaluate '")
             << op.getName() << "'";
    FailureOr<Buffer> result = evaluateOp(&op, operands);
    if (failed(result))
      return failure();
    owned.push_back(std::make_unique<Buffer>(std::move(*result)));
    values[op.getResult(0)] = owned.back().get();
  }
  return func.emitError("function body has no return");
}
