//===- Dims.cpp - TensorDim, TensorIndex and TensorLens -------------------===//
//
// Dimension and index expressions are small trees: a TensorDim is evaluated
// when a size is needed (so variables may be bound after the expression is
// written), a TensorIndex when its contraction is built (Contraction.cpp).
// A TensorLens is a permutation between two layout strings.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "llvm/Support/CheckedArithmetic.h"

#include <set>

using namespace plaidml::edsl;
using namespace plaidml::edsl::detail;

//===----------------------------------------------------------------------===//
// TensorDim
//===----------------------------------------------------------------------===//

static std::shared_ptr<DimNode> makeDim(DimNode::Kind kind,
                                        std::shared_ptr<DimNode> lhs,
                                        std::shared_ptr<DimNode> rhs) {
  auto node = std::make_shared<DimNode>();
  node->kind = kind;
  node->lhs = std::move(lhs);
  node->rhs = std::move(rhs);
  return node;
}

TensorDim::TensorDim() : node(std::make_shared<DimNode>()) {}
TensorDim::TensorDim(const std::string &name) : TensorDim() {
  node->name = name;
}
TensorDim::TensorDim(int64_t value) : node(std::make_shared<DimNode>()) {
  node->kind = DimNode::Kind::Const;
  node->value = value;
}

static std::string dimName(const DimNode &n) {
  return n.name.empty() ? "?" : n.name;
}

static std::string printDim(const DimNode &n) {
  using K = DimNode::Kind;
  switch (n.kind) {
  case K::Var:
    return n.value && n.name.empty() ? std::to_string(*n.value) : dimName(n);
  case K::Const:
    return std::to_string(*n.value);
  case K::Neg:
    return "-" + printDim(*n.lhs);
  case K::Max:
  case K::Min:
    return std::string(n.kind == K::Max ? "max(" : "min(") + printDim(*n.lhs) +
           ", " + printDim(*n.rhs) + ")";
  default:
    break;
  }
  const char *op = n.kind == K::Add   ? " + "
                   : n.kind == K::Sub ? " - "
                   : n.kind == K::Mul ? " * "
                                      : " / ";
  return "(" + printDim(*n.lhs) + op + printDim(*n.rhs) + ")";
}

static int64_t evalDim(const DimNode &n) {
  using K = DimNode::Kind;
  auto overflow = [&]() -> int64_t {
    throw Error("dimension '" + printDim(n) + "' overflows 64 bits");
  };
  switch (n.kind) {
  case K::Var:
    if (!n.value)
      throw Error("dimension '" + dimName(n) +
                  "' is not bound (bind it with Tensor::bind_dims first)");
    return *n.value;
  case K::Const:
    return *n.value;
  case K::Neg:
    return -evalDim(*n.lhs);
  default:
    break;
  }
  int64_t a = evalDim(*n.lhs), b = evalDim(*n.rhs);
  std::optional<int64_t> r;
  switch (n.kind) {
  case K::Add:
    r = llvm::checkedAdd(a, b);
    break;
  case K::Sub:
    r = llvm::checkedSub(a, b);
    break;
  case K::Mul:
    r = llvm::checkedMul(a, b);
    break;
  case K::Div:
    if (b == 0)
      throw Error("dimension '" + printDim(n) + "' divides by zero");
    r = a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0);
    break;
  case K::Max:
    r = std::max(a, b);
    break;
  case K::Min:
    r = std::min(a, b);
    break;
  default:
    break;
  }
  if (!r)
    return overflow();
  return *r;
}

static bool isDimBound(const DimNode &n) {
  if (n.kind == DimNode::Kind::Var)
    return n.value.has_value();
  if (n.kind == DimNode::Kind::Const)
    return true;
  return isDimBound(*n.lhs) && (!n.rhs || isDimBound(*n.rhs));
}

int64_t TensorDim::value() const { return evalDim(*node); }
bool TensorDim::isBound() const { return isDimBound(*node); }
std::string TensorDim::str() const { return printDim(*node); }

namespace plaidml::edsl {
TensorDim operator+(const TensorDim &a, const TensorDim &b) {
  return TensorDim(makeDim(DimNode::Kind::Add, a.node, b.node));
}
TensorDim operator-(const TensorDim &a, const TensorDim &b) {
  return TensorDim(makeDim(DimNode::Kind::Sub, a.node, b.node));
}
TensorDim operator*(const TensorDim &a, const TensorDim &b) {
  return TensorDim(makeDim(DimNode::Kind::Mul, a.node, b.node));
}
TensorDim operator/(const TensorDim &a, const TensorDim &b) {
  return TensorDim(makeDim(DimNode::Kind::Div, a.node, b.node));
}
TensorDim operator-(const TensorDim &a) {
  return TensorDim(makeDim(DimNode::Kind::Neg, a.node, nullptr));
}
TensorDim max(const TensorDim &a, const TensorDim &b) {
  return TensorDim(makeDim(DimNode::Kind::Max, a.node, b.node));
}
TensorDim min(const TensorDim &a, const TensorDim &b) {
  return TensorDim(makeDim(DimNode::Kind::Min, a.node, b.node));
}
} // namespace plaidml::edsl

//===----------------------------------------------------------------------===//
// TensorIndex
//===----------------------------------------------------------------------===//

static std::shared_ptr<IndexNode> makeIndex(IndexNode::Kind kind,
                                            std::shared_ptr<IndexNode> lhs,
                                            std::shared_ptr<IndexNode> rhs) {
  auto node = std::make_shared<IndexNode>();
  node->kind = kind;
  node->lhs = std::move(lhs);
  node->rhs = std::move(rhs);
  return node;
}

TensorIndex::TensorIndex() : node(std::make_shared<IndexNode>()) {}
TensorIndex::TensorIndex(const std::string &name) : TensorIndex() {
  node->name = name;
}
TensorIndex::TensorIndex(int64_t value) : node(std::make_shared<IndexNode>()) {
  node->kind = IndexNode::Kind::Const;
  node->value = value;
}
TensorIndex::TensorIndex(const TensorDim &dim)
    : node(std::make_shared<IndexNode>()) {
  node->kind = IndexNode::Kind::Dim;
  node->dim = dim;
}

static std::string printIndex(const IndexNode &n) {
  using K = IndexNode::Kind;
  switch (n.kind) {
  case K::Var:
    return n.name.empty() ? "?" : n.name;
  case K::Const:
    return std::to_string(n.value);
  case K::Dim:
    return n.dim.str();
  case K::Neg:
    return "-" + printIndex(*n.lhs);
  default:
    break;
  }
  const char *op = n.kind == K::Add   ? " + "
                   : n.kind == K::Sub ? " - "
                   : n.kind == K::Mul ? " * "
                                      : " / ";
  return "(" + printIndex(*n.lhs) + op + printIndex(*n.rhs) + ")";
}

std::string TensorIndex::str() const { return printIndex(*node); }

namespace plaidml::edsl {
TensorIndex operator+(const TensorIndex &a, const TensorIndex &b) {
  return TensorIndex(makeIndex(IndexNode::Kind::Add, a.node, b.node));
}
TensorIndex operator-(const TensorIndex &a, const TensorIndex &b) {
  return TensorIndex(makeIndex(IndexNode::Kind::Sub, a.node, b.node));
}
TensorIndex operator*(const TensorIndex &a, const TensorIndex &b) {
  return TensorIndex(makeIndex(IndexNode::Kind::Mul, a.node, b.node));
}
TensorIndex operator/(const TensorIndex &a, const TensorIndex &b) {
  return TensorIndex(makeIndex(IndexNode::Kind::Div, a.node, b.node));
}
TensorIndex operator-(const TensorIndex &a) {
  return TensorIndex(makeIndex(IndexNode::Kind::Neg, a.node, nullptr));
}
} // namespace plaidml::edsl

Constraint TensorIndex::operator<(const TensorDim &bound) const {
  return Constraint{*this, bound};
}
Constraint TensorIndex::operator<(int64_t bound) const {
  return Constraint{*this, TensorDim(bound)};
}

//===----------------------------------------------------------------------===//
// TensorLens
//===----------------------------------------------------------------------===//

TensorLens::TensorLens(const std::string &source, const std::string &target)
    : source(source), target(target) {
  std::set<char> seen(source.begin(), source.end());
  if (seen.size() != source.size() || source.size() != target.size() ||
      std::set<char>(target.begin(), target.end()) != seen)
    throw Error("lens '" + source + "' -> '" + target +
                "': the layouts must be permutations of the same distinct "
                "letters");
  for (char c : target)
    perm.push_back(static_cast<unsigned>(source.find(c)));
}

TensorLens TensorLens::compose(const TensorLens &next) const {
  if (isIdentity())
    return next;
  if (next.isIdentity())
    return *this;
  if (next.perm.size() != perm.size())
    throw Error("lens '" + next.str() + "' does not apply to a view through '" +
                str() + "': their ranks differ");
  TensorLens r;
  r.source = source;
  r.target = next.target;
  for (unsigned p : next.perm)
    r.perm.push_back(perm[p]);
  return r;
}
