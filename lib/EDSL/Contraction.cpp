//===- Contraction.cpp - The Contraction builder --------------------------===//
//
// Turns a Contraction (output shape and access, an aggregation of a body of
// accesses, constraints, init) into one tile.contract. Index expressions
// become exact rational affine forms (ContractionBuilder.h, shared with the
// Tile-language importer) and then integer affine maps: an access `q/d`
// is `q floordiv d` with the constraint `q mod d == 0` unless noDefract().
// Lenses permute accesses into the storage order. The built op is verified
// and its index ranges are computed at once, so an unbounded index is an
// Error naming the contraction and the index.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "plaidml/Dialect/Tile/Analysis/ContractionBounds.h"
#include "plaidml/Dialect/Tile/IR/TileOps.h"
#include "plaidml/Dialect/Tile/Utils/ContractionBuilder.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IntegerSet.h"

#include <map>

using namespace mlir;
using namespace mlir::plaidml::tile;
using namespace ::plaidml::edsl;
namespace edetail = ::plaidml::edsl::detail;
namespace pe = ::plaidml::edsl;

//===----------------------------------------------------------------------===//
// IndexedTensor
//===----------------------------------------------------------------------===//

IndexedTensor::IndexedTensor(Tensor tensor, std::vector<TensorIndex> indices) {
  accesses.push_back({std::move(tensor), std::move(indices)});
}

static void checkSingle(const IndexedTensor &a, const IndexedTensor &b,
                        const char *op) {
  if (a.getCombo() != IndexedTensor::Combo::None ||
      b.getCombo() != IndexedTensor::Combo::None)
    throw Error(std::string("contraction body: '") + op +
                "' combines exactly two single accesses");
}

namespace plaidml::edsl {
IndexedTensor operator*(const IndexedTensor &a, const IndexedTensor &b) {
  checkSingle(a, b, "*");
  IndexedTensor r = a;
  r.combo = IndexedTensor::Combo::Mul;
  r.accesses.push_back(b.accesses[0]);
  return r;
}
IndexedTensor operator+(const IndexedTensor &a, const IndexedTensor &b) {
  checkSingle(a, b, "+");
  IndexedTensor r = a;
  r.combo = IndexedTensor::Combo::Add;
  r.accesses.push_back(b.accesses[0]);
  return r;
}
IndexedTensor operator==(const IndexedTensor &a, const IndexedTensor &b) {
  checkSingle(a, b, "==");
  IndexedTensor r = a;
  r.combo = IndexedTensor::Combo::Eq;
  r.accesses.push_back(b.accesses[0]);
  return r;
}
IndexedTensor cond(const IndexedTensor &eq, const IndexedTensor &value) {
  if (eq.combo != IndexedTensor::Combo::Eq ||
      value.combo != IndexedTensor::Combo::None)
    throw Error("cond: the first operand must be an == of two accesses and "
                "the second one access");
  IndexedTensor r = eq;
  r.combo = IndexedTensor::Combo::Cond;
  r.accesses.push_back(value.accesses[0]);
  return r;
}
} // namespace plaidml::edsl

//===----------------------------------------------------------------------===//
// Contraction
//===----------------------------------------------------------------------===//

Contraction::Contraction(const std::string &name) : name(name) {}
Contraction::Contraction(const TensorLens &lens, const std::string &name)
    : name(name), lens(lens) {}

Contraction &Contraction::outShape(std::vector<TensorDim> dims) {
  shape = std::move(dims);
  hasShape = true;
  return *this;
}
Contraction &Contraction::outAccess(std::vector<TensorIndex> indices) {
  access = std::move(indices);
  hasAccess = true;
  return *this;
}
Contraction &Contraction::setAgg(Agg newAgg, const IndexedTensor &newBody) {
  if (agg != Agg::None)
    throw Error("contraction '" + name + "' already has an aggregation");
  agg = newAgg;
  body = std::make_shared<IndexedTensor>(newBody);
  return *this;
}
Contraction &Contraction::sum(const IndexedTensor &b) {
  return setAgg(Agg::Sum, b);
}
Contraction &Contraction::product(const IndexedTensor &b) {
  return setAgg(Agg::Product, b);
}
Contraction &Contraction::max(const IndexedTensor &b) {
  return setAgg(Agg::Max, b);
}
Contraction &Contraction::min(const IndexedTensor &b) {
  return setAgg(Agg::Min, b);
}
Contraction &Contraction::assign(const IndexedTensor &b) {
  return setAgg(Agg::Assign, b);
}
Contraction &Contraction::add_constraint(const Constraint &c) {
  constraints.push_back(c);
  return *this;
}
Contraction &Contraction::add_constraints(const std::vector<Constraint> &cs) {
  constraints.insert(constraints.end(), cs.begin(), cs.end());
  return *this;
}
Contraction &Contraction::init(const Tensor &value) {
  initValue = value;
  return *this;
}
Contraction &Contraction::noDefract() {
  defract = false;
  return *this;
}
Contraction &Contraction::dtype(DType d) {
  hasDType = true;
  resultDType = d;
  return *this;
}

namespace {
/// The index space of one contraction while its expressions are evaluated.
class IndexSpace {
public:
  explicit IndexSpace(std::string what) : what(std::move(what)) {}

  LinearForm eval(const edetail::IndexNode &n, bool allowNew) {
    using K = edetail::IndexNode::Kind;
    LinearForm r;
    switch (n.kind) {
    case K::Var: {
      auto it = ids.find(&n);
      if (it == ids.end()) {
        if (!allowNew)
          throw Error(what + ": index '" + nameOf(n) +
                      "' is used only in constraints");
        it = ids.insert({&n, names.size()}).first;
        names.push_back(n.name.empty() ? "i" + std::to_string(names.size())
                                       : n.name);
      }
      r.coeffs.resize(it->second + 1);
      r.coeffs[it->second] = Rational{1, 1};
      return r;
    }
    case K::Const:
      r.constant = Rational{n.value, 1};
      return r;
    case K::Dim:
      try {
        r.constant = Rational{n.dim.value(), 1};
      } catch (const Error &e) {
        throw Error(what + ": " + e.what());
      }
      return r;
    case K::Neg:
      return check(scaleForm(eval(*n.lhs, allowNew), Rational{-1, 1}), n);
    default:
      break;
    }
    LinearForm a = eval(*n.lhs, allowNew), b = eval(*n.rhs, allowNew);
    switch (n.kind) {
    case K::Add:
      return check(combineForms(a, b, Rational{1, 1}), n);
    case K::Sub:
      return check(combineForms(a, b, Rational{-1, 1}), n);
    case K::Mul:
      if (!a.isConstant() && !b.isConstant())
        throw Error(what + ": index expression '" + print(n) +
                    "' is not affine (a product of indices)");
      return check(a.isConstant() ? scaleForm(b, a.constant)
                                  : scaleForm(a, b.constant),
                   n);
    case K::Div: {
      if (!b.isConstant())
        throw Error(what + ": index expression '" + print(n) +
                    "' is not affine (a division by an index)");
      if (b.constant.isZero())
        throw Error(what + ": index expression '" + print(n) +
                    "' divides by zero");
      std::optional<Rational> inv =
          Rational::make(b.constant.den, b.constant.num);
      return check(inv ? scaleForm(a, *inv) : std::nullopt, n);
    }
    default:
      break;
    }
    return r;
  }

  std::pair<AffineExpr, int64_t> integral(const LinearForm &form,
                                          const edetail::IndexNode &n,
                                          MLIRContext *ctx) {
    std::optional<std::pair<AffineExpr, int64_t>> r = toIntegralForm(form, ctx);
    if (!r)
      throw Error(what + ": index expression '" + print(n) +
                  "' is out of range: its coefficients must stay within 2^32");
    return *r;
  }

  const std::vector<std::string> &getNames() const { return names; }

private:
  static std::string nameOf(const edetail::IndexNode &n) {
    return n.name.empty() ? "?" : n.name;
  }
  static std::string print(const edetail::IndexNode &n) { return printNode(n); }
  static std::string printNode(const edetail::IndexNode &n);
  LinearForm check(std::optional<LinearForm> f, const edetail::IndexNode &n) {
    if (!f)
      throw Error(what + ": index expression '" + print(n) +
                  "' overflows 64 bits");
    return *f;
  }

  std::string what;
  std::map<const edetail::IndexNode *, unsigned> ids;
  std::vector<std::string> names;
};

std::string IndexSpace::printNode(const edetail::IndexNode &n) {
  using K = edetail::IndexNode::Kind;
  switch (n.kind) {
  case K::Var:
    return nameOf(n);
  case K::Const:
    return std::to_string(n.value);
  case K::Dim:
    return n.dim.str();
  case K::Neg:
    return "-" + printNode(*n.lhs);
  default:
    break;
  }
  const char *op = n.kind == K::Add   ? " + "
                   : n.kind == K::Sub ? " - "
                   : n.kind == K::Mul ? " * "
                                      : " / ";
  return "(" + printNode(*n.lhs) + op + printNode(*n.rhs) + ")";
}

/// `items` (in lens order) in storage order.
template <typename T>
std::vector<T> toStorageOrder(const std::vector<T> &items,
                              const TensorLens &lens) {
  if (lens.isIdentity())
    return items;
  std::vector<T> r(items.size(), items[0]);
  for (auto [i, p] : llvm::enumerate(lens.getPermutation()))
    r[p] = items[i];
  return r;
}
} // namespace

Tensor Contraction::build() {
  if (!built.isNull())
    return built;
  std::string what = "contraction" + (name.empty() ? "" : " '" + name + "'");
  MLIRContext *ctx = getContext();
  if (!hasShape || !hasAccess)
    throw Error(what + ": set outShape and outAccess before building it");
  if (agg == Agg::None)
    throw Error(what + ": no aggregation (sum, max, min, product, assign)");
  if (shape.size() != access.size())
    throw Error(what + ": rank mismatch: the output shape has " +
                std::to_string(shape.size()) + " dimensions but the access " +
                std::to_string(access.size()));
  if (!lens.isIdentity() && lens.getPermutation().size() != shape.size())
    throw Error(what + ": lens '" + lens.str() + "' has rank " +
                std::to_string(lens.getPermutation().size()) +
                " but the output has rank " + std::to_string(shape.size()));

  SmallVector<int64_t> outShape;
  for (auto [i, d] : llvm::enumerate(toStorageOrder(shape, lens))) {
    int64_t v;
    try {
      v = d.value();
    } catch (const Error &e) {
      throw Error(what + ": output dimension " + std::to_string(i) + " ('" +
                  d.str() + "'): " + e.what());
    }
    if (v <= 0)
      throw Error(what + ": output dimension " + std::to_string(i) + " ('" +
                  d.str() + "') is " + std::to_string(v) +
                  ", sizes must be positive");
    outShape.push_back(v);
  }

  // Indices are numbered by first use: output, inputs, then constraints.
  IndexSpace space(what);
  std::vector<TensorIndex> sinkIdx = toStorageOrder(access, lens);
  std::vector<LinearForm> sinkForms;
  for (const TensorIndex &i : sinkIdx)
    sinkForms.push_back(space.eval(*i.getNode(), true));
  const auto &accesses = body->getAccesses();
  std::vector<std::vector<TensorIndex>> srcIdx;
  std::vector<std::vector<LinearForm>> srcForms;
  SmallVector<Value, 3> inputs;
  for (const IndexedTensor::Access &a : accesses) {
    edetail::checkNotNull(a.tensor, what.c_str());
    if (static_cast<int64_t>(a.indices.size()) != a.tensor.getRank())
      throw Error(what + ": rank mismatch: " + edetail::describe(a.tensor) +
                  " has rank " + std::to_string(a.tensor.getRank()) +
                  " but is indexed with " + std::to_string(a.indices.size()) +
                  " indices");
    srcIdx.push_back(toStorageOrder(a.indices, a.tensor.getLens()));
    srcForms.emplace_back();
    for (const TensorIndex &i : srcIdx.back())
      srcForms.back().push_back(space.eval(*i.getNode(), true));
    inputs.push_back(getValue(a.tensor));
  }
  std::vector<LinearForm> conForms;
  std::vector<int64_t> conBounds;
  for (const Constraint &c : constraints) {
    conForms.push_back(space.eval(*c.index.getNode(), false));
    try {
      conBounds.push_back(c.bound.value());
    } catch (const Error &e) {
      throw Error(what + ": constraint bound '" + c.bound.str() +
                  "': " + e.what());
    }
  }

  unsigned numIdxs = space.getNames().size();
  SmallVector<AffineExpr> consExprs;
  SmallVector<bool> eqFlags;
  auto toResults = [&](const std::vector<LinearForm> &forms,
                       const std::vector<TensorIndex> &idx) {
    SmallVector<AffineExpr> results;
    for (auto [form, i] : llvm::zip_equal(forms, idx)) {
      auto [q, d] = space.integral(form, *i.getNode(), ctx);
      if (d == 1) {
        results.push_back(q);
        continue;
      }
      if (defract) {
        consExprs.push_back(q % d);
        eqFlags.push_back(true);
      }
      results.push_back(q.floorDiv(d));
    }
    return AffineMap::get(numIdxs, 0, results, ctx);
  };
  AffineMap sink = toResults(sinkForms, sinkIdx);
  SmallVector<Attribute, 3> srcs;
  for (auto [forms, idx] : llvm::zip_equal(srcForms, srcIdx))
    srcs.push_back(AffineMapAttr::get(toResults(forms, idx)));
  for (auto [form, bound, c] :
       llvm::zip_equal(conForms, conBounds, constraints)) {
    auto [q, d] = space.integral(form, *c.index.getNode(), ctx);
    consExprs.push_back(q);
    eqFlags.push_back(false);
    consExprs.push_back(getAffineConstantExpr(bound * d - 1, ctx) - q);
    eqFlags.push_back(false);
  }

  AggregationKind aggKind = AggregationKind::add;
  switch (agg) {
  case Agg::Sum:
  case Agg::None:
    aggKind = AggregationKind::add;
    break;
  case Agg::Product:
    aggKind = AggregationKind::mul;
    break;
  case Agg::Max:
    aggKind = AggregationKind::max;
    break;
  case Agg::Min:
    aggKind = AggregationKind::min;
    break;
  case Agg::Assign:
    aggKind = AggregationKind::assign;
    break;
  }
  CombinationKind combo = CombinationKind::none;
  switch (body->getCombo()) {
  case IndexedTensor::Combo::None:
    combo = CombinationKind::none;
    break;
  case IndexedTensor::Combo::Add:
    combo = CombinationKind::add;
    break;
  case IndexedTensor::Combo::Mul:
    combo = CombinationKind::mul;
    break;
  case IndexedTensor::Combo::Eq:
    combo = CombinationKind::eq;
    break;
  case IndexedTensor::Combo::Cond:
    combo = CombinationKind::cond;
    break;
  }
  SmallVector<Type, 3> elems;
  for (Value v : inputs)
    elems.push_back(llvm::cast<RankedTensorType>(v.getType()).getElementType());
  Type element = hasDType ? edetail::toMLIRType(resultDType)
                          : getContractionElementType(aggKind, combo, elems);
  auto resultType = RankedTensorType::get(outShape, element);

  OpBuilder b = getBuilder();
  Location loc = edetail::getLoc(name);
  Value initV;
  if (!initValue.isNull()) {
    RankedTensorType initType = edetail::getTensorType(initValue);
    if (!isBroadcastableTo(initType.getShape(), outShape))
      throw Error(what + ": init " + edetail::describe(initValue) +
                  " does not broadcast to the output shape " +
                  edetail::formatShape(outShape));
    initV = getValue(cast(initValue, edetail::fromMLIRType(element)));
  } else {
    initV = ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(RankedTensorType::get({}, element),
                               getAggregationIdentity(aggKind, element)));
  }
  SmallVector<Attribute> idxNames;
  for (const std::string &n : space.getNames())
    idxNames.push_back(StringAttr::get(ctx, n));
  IntegerSetAttr cons;
  if (!consExprs.empty())
    cons = IntegerSetAttr::get(IntegerSet::get(numIdxs, 0, consExprs, eqFlags));
  auto op = ContractionOp::create(
      b, loc, resultType, aggKind, combo, initV, inputs, sink,
      ArrayAttr::get(ctx, srcs), cons,
      idxNames.empty() ? ArrayAttr() : ArrayAttr::get(ctx, idxNames),
      DenseI64ArrayAttr(), DenseI64ArrayAttr());
  edetail::verifyOrThrow(op, what);

  // Index ranges now, so that an unbounded index is reported here.
  std::string messages;
  {
    ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error)
        messages += (messages.empty() ? "" : "; ") + d.str();
      return success();
    });
    if (failed(computeContractionBounds(op))) {
      op->erase();
      throw Error(what + ": " + messages);
    }
  }
  built = makeTensor(op.getResult(), name);
  if (!lens.isIdentity())
    built = built.use(lens);
  return built;
}
