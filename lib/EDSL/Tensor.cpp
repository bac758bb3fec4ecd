//===- Tensor.cpp - Tensors, placeholders and constants -------------------===//
//
// The process-wide state (the context and the scratch function whose block
// holds every op the EDSL builds, placeholders as its arguments), type
// conversions, and the Tensor class: shapes, bind_dims, lenses.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "plaidml/Dialect/Tile/IR/TileDialect.h"
#include "plaidml/Dialect/Tile/IR/TileOps.h"
#include "plaidml/InitAll.h"
#include "plaidml/Support/ElementTypes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace mlir::plaidml::tile;
namespace edetail = ::plaidml::edsl::detail;
namespace pe = ::plaidml::edsl;
using pe::DType;
using pe::Error;
using pe::Tensor;
using pe::TensorDim;

static DialectRegistry makeRegistry() {
  DialectRegistry registry;
  mlir::plaidml::registerAllDialects(registry);
  return registry;
}

edetail::State::State() : context(makeRegistry()) {
  context.loadDialect<TileDialect, func::FuncDialect>();
  context.disableMultithreading();
  OpBuilder b(&context);
  scratch = ModuleOp::create(UnknownLoc::get(&context));
  b.setInsertionPointToEnd(scratch->getBody());
  auto fn = func::FuncOp::create(b, UnknownLoc::get(&context), "scratch",
                                 b.getFunctionType({}, {}));
  block = fn.addEntryBlock();
}

edetail::State &edetail::getState() {
  static State *state = new State();
  return *state;
}

void pe::resetTensors() {
  edetail::State &s = edetail::getState();
  s.block->clear();
  s.block->eraseArguments(0, s.block->getNumArguments());
}

MLIRContext * ::plaidml::edsl::getContext() {
  return &edetail::getState().context;
}

OpBuilder pe::getBuilder() {
  OpBuilder b(getContext());
  b.setInsertionPointToEnd(edetail::getState().block);
  return b;
}

Value pe::getValue(const Tensor &tensor) {
  return Value::getFromOpaquePointer(tensor.getImpl());
}

Tensor pe::makeTensor(Value value, const std::string &name) {
  return Tensor::fromImpl(value.getAsOpaquePointer(), name);
}

Type edetail::toMLIRType(DType dtype) {
  return mlir::plaidml::getTileElementType(dtype, getContext());
}

DType edetail::fromMLIRType(Type type) {
  if (std::optional<DType> dtype = mlir::plaidml::getRuntimeDType(type))
    return *dtype;
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  throw Error("type '" + s + "' is not a Tile element type");
}

std::string edetail::formatShape(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string s;
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? "x" : "") + std::to_string(d);
  return s;
}

void edetail::checkNotNull(const Tensor &t, const char *what) {
  if (t.isNull())
    throw Error(std::string(what) + ": the tensor is null");
}

RankedTensorType edetail::getTensorType(const Tensor &t) {
  checkNotNull(t, "tensor");
  return llvm::cast<RankedTensorType>(getValue(t).getType());
}

std::string edetail::describe(const Tensor &t) {
  if (t.isNull())
    return "a null tensor";
  return (t.getName().empty() ? std::string("a tensor")
                              : "'" + t.getName() + "'") +
         " of shape " + t.str();
}

Location edetail::getLoc(const std::string &name) {
  MLIRContext *ctx = getContext();
  if (name.empty())
    return UnknownLoc::get(ctx);
  return NameLoc::get(StringAttr::get(ctx, name));
}

void edetail::verifyOrThrow(Operation *op, const std::string &what,
                            bool erase) {
  std::string messages;
  {
    ScopedDiagnosticHandler handler(getContext(), [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error) {
        if (!messages.empty())
          messages += "; ";
        messages += d.str();
      }
      return success();
    });
    if (succeeded(mlir::verify(op)))
      return;
  }
  if (erase)
    op->erase();
  throw Error(what + ": " + messages);
}

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

static Tensor scalarConstant(Type type, double f, int64_t i, bool isFloat) {
  OpBuilder b = ::plaidml::edsl::getBuilder();
  auto tensorType = RankedTensorType::get({}, type);
  Attribute value;
  if (auto floatTy = dyn_cast<FloatType>(type))
    value = FloatAttr::get(floatTy, isFloat ? f : static_cast<double>(i));
  else
    value = IntegerAttr::get(
        type,
        APInt(cast<IntegerType>(type).getWidth(),
              static_cast<uint64_t>(isFloat ? static_cast<int64_t>(f) : i),
              /*isSigned=*/true, /*implicitTrunc=*/true));
  return pe::makeTensor(ConstantOp::create(
      b, b.getUnknownLoc(), DenseElementsAttr::get(tensorType, value)));
}

static Type defaultIntType(int64_t v) {
  bool small = v >= INT32_MIN && v <= INT32_MAX;
  return edetail::toMLIRType(small ? DType::si32 : DType::si64);
}

Tensor::Tensor(int value) : Tensor(static_cast<int64_t>(value)) {}
Tensor::Tensor(int64_t v) {
  *this = scalarConstant(defaultIntType(v), 0, v, false);
}
Tensor::Tensor(double v) {
  *this = scalarConstant(edetail::toMLIRType(DType::f32), v, 0, true);
}

Tensor Tensor::fromImpl(const void *value, const std::string &name) {
  Tensor t;
  t.value = value;
  t.name = name;
  return t;
}

std::vector<int64_t> Tensor::getShape() const {
  ArrayRef<int64_t> shape = edetail::getTensorType(*this).getShape();
  if (lens.isIdentity())
    return shape.vec();
  std::vector<int64_t> r;
  for (unsigned p : lens.getPermutation())
    r.push_back(shape[p]);
  return r;
}

int64_t Tensor::getRank() const {
  return edetail::getTensorType(*this).getRank();
}

DType Tensor::getDType() const {
  return edetail::fromMLIRType(edetail::getTensorType(*this).getElementType());
}

Tensor Tensor::named(const std::string &newName) const {
  Tensor t = *this;
  t.name = newName;
  return t;
}

std::string Tensor::str() const {
  if (isNull())
    return "null";
  std::vector<int64_t> shape = getShape();
  std::string s;
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + rt::getDTypeName(getDType());
}

void Tensor::bind_dims(std::vector<TensorDim *> dims) const {
  edetail::checkNotNull(*this, "bind_dims");
  std::vector<int64_t> shape = getShape();
  if (dims.size() != shape.size())
    throw Error("bind_dims: rank mismatch: " + edetail::describe(*this) +
                " has rank " + std::to_string(shape.size()) + " but " +
                std::to_string(dims.size()) + " dimensions were given");
  for (size_t i = 0; i < dims.size(); ++i) {
    edetail::DimNode &node = *dims[i]->getNode();
    if (node.kind == edetail::DimNode::Kind::Var && !node.value) {
      node.value = shape[i];
      continue;
    }
    int64_t bound;
    try {
      bound = dims[i]->value();
    } catch (const Error &e) {
      throw Error("bind_dims: dimension " + std::to_string(i) + " of " +
                  edetail::describe(*this) + ": dimension '" + dims[i]->str() +
                  "' cannot be bound: it is an expression over unbound "
                  "dimensions");
    }
    if (bound != shape[i])
      throw Error("bind_dims: dimension " + std::to_string(i) + " of " +
                  edetail::describe(*this) + " is " + std::to_string(shape[i]) +
                  " but '" + dims[i]->str() + "' is already " +
                  std::to_string(bound));
  }
}

std::vector<TensorDim> Tensor::getDims() const {
  std::vector<TensorDim> dims;
  for (int64_t d : getShape())
    dims.emplace_back(d);
  return dims;
}

pe::IndexedTensor Tensor::operator()(std::vector<TensorIndex> indices) const {
  edetail::checkNotNull(*this, "indexing");
  if (static_cast<int64_t>(indices.size()) != getRank())
    throw Error("rank mismatch: " + edetail::describe(*this) + " has rank " +
                std::to_string(getRank()) + " but is indexed with " +
                std::to_string(indices.size()) +
                (indices.size() == 1 ? " index" : " indices"));
  return IndexedTensor(*this, std::move(indices));
}

Tensor Tensor::use(const TensorLens &newLens) const {
  edetail::checkNotNull(*this, "use");
  if (!newLens.isIdentity() &&
      static_cast<int64_t>(newLens.getPermutation().size()) != getRank())
    throw Error("lens '" + newLens.str() + "' has rank " +
                std::to_string(newLens.getPermutation().size()) + " but " +
                edetail::describe(*this) + " has rank " +
                std::to_string(getRank()));
  Tensor t = *this;
  t.lens = lens.compose(newLens);
  return t;
}

Tensor pe::Placeholder(DType dtype, const std::vector<int64_t> &shape,
                       const std::string &name) {
  for (auto [i, d] : llvm::enumerate(shape))
    if (d <= 0)
      throw Error("placeholder '" + name + "': dimension " + std::to_string(i) +
                  " is " + std::to_string(d) + ", sizes must be positive");
  edetail::State &s = edetail::getState();
  auto type = RankedTensorType::get(shape, edetail::toMLIRType(dtype));
  Value arg = s.block->addArgument(type, edetail::getLoc(name));
  return makeTensor(arg, name);
}

Tensor pe::Constant(const rt::HostArray &array, const std::string &name) {
  if (static_cast<int64_t>(array.bytes.size()) !=
      array.getNumElements() *
          static_cast<int64_t>(rt::getDTypeSize(array.dtype)))
    throw Error("constant '" + name + "': " + array.describe() + " holds " +
                std::to_string(array.bytes.size()) + " bytes");
  Type element = edetail::toMLIRType(array.dtype);
  auto type = RankedTensorType::get(array.shape, element);
  DenseElementsAttr attr;
  if (array.dtype == DType::i1) {
    SmallVector<bool> bits;
    for (uint8_t b : array.bytes)
      bits.push_back(b != 0);
    attr = DenseElementsAttr::get(type, bits);
  } else {
    attr = DenseElementsAttr::getFromRawBuffer(
        type, ArrayRef<char>(reinterpret_cast<const char *>(array.bytes.data()),
                             array.bytes.size()));
  }
  OpBuilder b = getBuilder();
  return makeTensor(ConstantOp::create(b, edetail::getLoc(name), attr), name);
}

Tensor pe::Constant(DType dtype, double value) {
  return scalarConstant(edetail::toMLIRType(dtype), value,
                        static_cast<int64_t>(value), true);
}
