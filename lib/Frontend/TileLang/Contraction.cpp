//===- Contraction.cpp - Tile-language contractions to tile.contract ------===//
//
// Lowers `O[idx : sizes] = AGG(body), constraints [default T] [no_defract];`
// to one tile.contract. Index polynomials are evaluated exactly as affine
// forms with rational coefficients (dimension names are constants), then
// scaled by the lcm d of their denominators: an access `q/d` becomes the map
// result `q floordiv d` and, unless `no_defract`, the equality
// `q mod d == 0` in `cons` (the access is valid only where it is an
// integer). A constraint `p < B` becomes `q >= 0` and `B*d - 1 - q >= 0`.
//
//===----------------------------------------------------------------------===//

#include "Builder.h"

#include "plaidml/Dialect/Tile/IR/TileOps.h"
#include "plaidml/Dialect/Tile/Utils/ContractionBuilder.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <numeric>

using namespace mlir;
using namespace mlir::plaidml;
using namespace mlir::plaidml::tile;
using namespace mlir::plaidml::tilelang;
using llvm::SMLoc;

namespace {
using Affine = LinearForm;

/// The index space of one contraction while its polynomials are evaluated.
class IndexSpace {
public:
  IndexSpace(const Source &source, const llvm::StringMap<int64_t> &dims)
      : source(source), dims(dims) {}

  /// Evaluates `e`; new index names are allowed only when `allowNew`.
  FailureOr<Affine> eval(const IntExpr &e, bool allowNew);

  /// `a` scaled to integers: the expression q and the lcm d of the
  /// denominators (a = q / d). Fails on overflow.
  FailureOr<std::pair<AffineExpr, int64_t>>
  toIntegral(const Affine &a, const IntExpr &where, MLIRContext *ctx);

  ArrayRef<StringRef> getNames() const { return names; }

private:
  LogicalResult overflow(const IntExpr &e) {
    return source.emitError(e.begin)
           << "index expression '" << e.getText()
           << "' is out of range: its coefficients must stay within 2^32";
  }

  const Source &source;
  const llvm::StringMap<int64_t> &dims;
  llvm::StringMap<unsigned> ids;
  SmallVector<StringRef> names;
};
} // namespace

FailureOr<Affine> IndexSpace::eval(const IntExpr &e, bool allowNew) {
  Affine r;
  switch (e.kind) {
  case IntExpr::Kind::Literal:
    r.constant = Rational{e.value, 1};
    return r;
  case IntExpr::Kind::Name: {
    if (auto it = dims.find(e.name); it != dims.end()) {
      r.constant = Rational{it->second, 1};
      return r;
    }
    auto it = ids.find(e.name);
    if (it == ids.end()) {
      if (!allowNew)
        return source.emitError(e.begin)
               << "index '" << e.name << "' is used only in constraints";
      it = ids.insert({e.name, names.size()}).first;
      names.push_back(e.name);
    }
    r.coeffs.resize(it->second + 1);
    r.coeffs[it->second] = Rational{1, 1};
    return r;
  }
  case IntExpr::Kind::Neg: {
    FailureOr<Affine> x = eval(*e.lhs, allowNew);
    if (failed(x))
      return failure();
    std::optional<Affine> s = scaleForm(*x, Rational{-1, 1});
    if (!s)
      return overflow(e);
    return *s;
  }
  default:
    break;
  }
  FailureOr<Affine> a = eval(*e.lhs, allowNew);
  if (failed(a))
    return failure();
  FailureOr<Affine> b = eval(*e.rhs, allowNew);
  if (failed(b))
    return failure();
  std::optional<Affine> result;
  switch (e.kind) {
  case IntExpr::Kind::Add:
    result = combineForms(*a, *b, Rational{1, 1});
    break;
  case IntExpr::Kind::Sub:
    result = combineForms(*a, *b, Rational{-1, 1});
    break;
  case IntExpr::Kind::Mul:
    if (!a->isConstant() && !b->isConstant())
      return source.emitError(e.begin)
             << "index expression '" << e.getText() << "' is not affine";
    result = a->isConstant() ? scaleForm(*b, a->constant)
                             : scaleForm(*a, b->constant);
    break;
  case IntExpr::Kind::Div: {
    if (!b->isConstant())
      return source.emitError(e.begin)
             << "index expression '" << e.getText() << "' is not affine";
    if (b->constant.isZero())
      return source.emitError(e.begin)
             << "division by zero in index expression '" << e.getText() << "'";
    std::optional<Rational> inv =
        Rational::make(b->constant.den, b->constant.num);
    result = inv ? scaleForm(*a, *inv) : std::nullopt;
    break;
  }
  default:
    break;
  }
  if (!result)
    return overflow(e);
  return *result;
}

FailureOr<std::pair<AffineExpr, int64_t>>
IndexSpace::toIntegral(const Affine &a, const IntExpr &where,
                       MLIRContext *ctx) {
  std::optional<std::pair<AffineExpr, int64_t>> r = toIntegralForm(a, ctx);
  if (!r)
    return overflow(where);
  return *r;
}

FailureOr<Value> FunctionBuilder::emitContraction(const Statement &stmt) {
  const Contraction &c = *stmt.contraction;
  MLIRContext *ctx = source.getContext();

  SmallVector<int64_t> shape;
  if (failed(evalShape(c.outSizes, "'" + stmt.name.str() + "'", shape)))
    return failure();

  SmallVector<Value, 3> inputs;
  for (const Access &access : c.inputs) {
    FailureOr<Value> t = lookupTensor(access.tensor, access.loc);
    if (failed(t))
      return failure();
    auto type = cast<RankedTensorType>(t->getType());
    if (type.getRank() != static_cast<int64_t>(access.indices.size()))
      return emitError(access.loc)
             << "rank mismatch: '" << access.tensor << "' has rank "
             << type.getRank() << " but is indexed with "
             << access.indices.size()
             << (access.indices.size() == 1 ? " index" : " indices");
    inputs.push_back(*t);
  }

  // Indices are numbered by first use: output, inputs, then constraints
  // (which may not introduce new ones).
  IndexSpace space(source, dims);
  SmallVector<Affine> sinkForms;
  SmallVector<SmallVector<Affine>> srcForms(c.inputs.size());
  for (const IntExpr *e : c.outIndices) {
    FailureOr<Affine> a = space.eval(*e, /*allowNew=*/true);
    if (failed(a))
      return failure();
    sinkForms.push_back(*a);
  }
  for (auto [i, access] : llvm::enumerate(c.inputs))
    for (const IntExpr *e : access.indices) {
      FailureOr<Affine> a = space.eval(*e, /*allowNew=*/true);
      if (failed(a))
        return failure();
      srcForms[i].push_back(*a);
    }
  SmallVector<Affine> conForms;
  SmallVector<int64_t> conBounds;
  for (const Constraint &con : c.constraints) {
    FailureOr<Affine> a = space.eval(*con.poly, /*allowNew=*/false);
    if (failed(a))
      return failure();
    FailureOr<int64_t> bound = evalSize(*con.bound);
    if (failed(bound))
      return failure();
    conForms.push_back(*a);
    conBounds.push_back(*bound);
  }

  unsigned numIdxs = space.getNames().size();
  SmallVector<AffineExpr> consExprs;
  SmallVector<bool> eqFlags;
  auto toMapResults = [&](ArrayRef<Affine> forms,
                          ArrayRef<const IntExpr *> where,
                          SmallVectorImpl<AffineExpr> &results) {
    for (auto [form, e] : llvm::zip_equal(forms, where)) {
      auto integral = space.toIntegral(form, *e, ctx);
      if (failed(integral))
        return failure();
      auto [q, d] = *integral;
      if (d == 1) {
        results.push_back(q);
        continue;
      }
      if (!c.noDefract) {
        consExprs.push_back(q % d);
        eqFlags.push_back(true);
      }
      results.push_back(q.floorDiv(d));
    }
    return success();
  };
  SmallVector<AffineExpr> sinkResults;
  if (failed(toMapResults(sinkForms, c.outIndices, sinkResults)))
    return failure();
  SmallVector<Attribute, 3> srcs;
  for (auto [i, access] : llvm::enumerate(c.inputs)) {
    SmallVector<AffineExpr> results;
    if (failed(toMapResults(srcForms[i], access.indices, results)))
      return failure();
    srcs.push_back(
        AffineMapAttr::get(AffineMap::get(numIdxs, 0, results, ctx)));
  }
  for (auto [form, bound, con] :
       llvm::zip_equal(conForms, conBounds, c.constraints)) {
    auto integral = space.toIntegral(form, *con.poly, ctx);
    if (failed(integral))
      return failure();
    auto [q, d] = *integral;
    // 0 <= q/d < bound  <=>  q >= 0 and bound*d - 1 - q >= 0.
    std::optional<int64_t> top = llvm::checkedMul(bound, d);
    if (!top || *top > (int64_t(1) << 32) || *top < -(int64_t(1) << 32))
      return emitError(con.bound->begin)
             << "constraint bound '" << con.bound->getText()
             << "' is out of range: it must stay within 2^32";
    consExprs.push_back(q);
    eqFlags.push_back(false);
    consExprs.push_back(getAffineConstantExpr(*top - 1, ctx) - q);
    eqFlags.push_back(false);
  }

  // The element type: the inputs' promoted type, i1 or si32 for `==`, the
  // third input's for `?`.
  SmallVector<Type, 3> elems;
  for (Value input : inputs)
    elems.push_back(cast<RankedTensorType>(input.getType()).getElementType());
  Type element = getContractionElementType(c.agg, c.combo, elems);
  auto resultType = RankedTensorType::get(shape, element);

  Value init;
  if (!c.defaultName.empty()) {
    FailureOr<Value> d = lookupTensor(c.defaultName, c.defaultLoc);
    if (failed(d))
      return failure();
    auto type = cast<RankedTensorType>(d->getType());
    if (!isBroadcastableTo(type.getShape(), shape))
      return emitError(c.defaultLoc)
             << "default '" << c.defaultName << "' of shape "
             << formatShape(type.getShape())
             << " does not broadcast to the shape " << formatShape(shape)
             << " of '" << stmt.name << "'";
    init = *d;
    if (type.getElementType() != element)
      init =
          CastOp::create(builder, loc(c.defaultLoc),
                         RankedTensorType::get(type.getShape(), element), init);
  } else {
    auto type = RankedTensorType::get({}, element);
    init = ConstantOp::create(
        builder, loc(c.aggLoc),
        DenseElementsAttr::get(type, getAggregationIdentity(c.agg, element)));
  }

  SmallVector<Attribute> idxNames;
  for (StringRef name : space.getNames())
    idxNames.push_back(StringAttr::get(ctx, name));
  IntegerSetAttr cons;
  if (!consExprs.empty())
    cons = IntegerSetAttr::get(IntegerSet::get(numIdxs, 0, consExprs, eqFlags));
  return ContractionOp::create(
             builder, loc(stmt.loc), resultType, c.agg, c.combo, init, inputs,
             AffineMap::get(numIdxs, 0, sinkResults, ctx),
             ArrayAttr::get(ctx, srcs), cons,
             idxNames.empty() ? ArrayAttr() : ArrayAttr::get(ctx, idxNames),
             DenseI64ArrayAttr(), DenseI64ArrayAttr())
      .getResult();
}
