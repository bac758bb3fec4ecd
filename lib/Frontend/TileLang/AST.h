//===- AST.h - Syntax tree of the Tile language -----------------*- C++ -*-===//
//
// What the parser produces and the IR builder consumes: functions with their
// signatures, and statements that are either elementwise assignments (an
// expression tree) or contractions (index polynomials, sizes, a body of one
// to three tensor accesses, constraints). Nodes live in arenas owned by the
// Program, so freeing a tree never recurses; names are StringRefs into the
// source buffer, positions are its SMLocs.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_FRONTEND_TILELANG_AST_H
#define PLAIDML_LIB_FRONTEND_TILELANG_AST_H

#include "Lexer.h"

#include "plaidml/Dialect/Tile/IR/TileDialect.h"

#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <vector>

namespace mlir::plaidml::tilelang {

/// Integer arithmetic over names and literals: index polynomials (names are
/// indices or dimensions) and size expressions (names are dimensions).
struct IntExpr {
  enum class Kind { Literal, Name, Neg, Add, Sub, Mul, Div };
  Kind kind = Kind::Literal;
  int64_t value = 0;
  StringRef name;
  const IntExpr *lhs = nullptr, *rhs = nullptr;
  /// The source text of the whole expression is [begin, end).
  llvm::SMLoc begin, end;
  unsigned height = 1;

  StringRef getText() const {
    return StringRef(begin.getPointer(), end.getPointer() - begin.getPointer());
  }
};

/// An elementwise expression.
struct Expr {
  enum class Kind { Int, Float, Name, Unary, Binary, Select, Call };
  Kind kind = Kind::Int;
  /// The token that causes the op: the literal, the name, the operator, the
  /// `?` of a select or the callee.
  llvm::SMLoc loc;
  TokenKind op = TokenKind::Eof;
  int64_t intValue = 0;
  double floatValue = 0;
  /// A tensor or dimension name, or the callee.
  StringRef name;
  /// Operands; for a call, its expression arguments.
  llvm::SmallVector<const Expr *, 3> operands;
  /// For a call, the arguments that are size expressions (reshape's
  /// dimensions, the bit width of as_float/as_int/as_uint, index's axis);
  /// they always follow the expression arguments.
  llvm::SmallVector<const IntExpr *> sizeArgs;
  unsigned height = 1;
};

/// True when argument `position` of a call to `callee` is a size
/// expression rather than an elementwise expression.
bool isSizeArgument(StringRef callee, unsigned position);

/// `T[i, j + 1]` inside a contraction body.
struct Access {
  StringRef tensor;
  llvm::SMLoc loc;
  llvm::SmallVector<const IntExpr *, 4> indices;
};

/// `poly < bound`: 0 <= poly < bound.
struct Constraint {
  const IntExpr *poly = nullptr;
  const IntExpr *bound = nullptr;
  llvm::SMLoc loc;
};

struct Contraction {
  llvm::SmallVector<const IntExpr *, 4> outIndices, outSizes;
  tile::AggregationKind agg = tile::AggregationKind::add;
  llvm::SMLoc aggLoc;
  tile::CombinationKind combo = tile::CombinationKind::none;
  llvm::SmallVector<Access, 3> inputs;
  llvm::SmallVector<Constraint> constraints;
  /// `default T`, when given.
  StringRef defaultName;
  llvm::SMLoc defaultLoc;
  bool noDefract = false;
};

/// `NAME = expr;` or `NAME[...] = AGG(...)...;`.
struct Statement {
  StringRef name;
  llvm::SMLoc loc;
  /// Exactly one of the two is set.
  const Expr *value = nullptr;
  std::unique_ptr<Contraction> contraction;
};

/// A dimension of an input: a name bound to the size, or a literal size.
struct DimDecl {
  StringRef name;
  int64_t size = 0;
  llvm::SMLoc loc;
};

struct Param {
  StringRef name;
  llvm::SMLoc loc;
  llvm::SmallVector<DimDecl, 4> dims;
};

struct OutputDecl {
  StringRef name;
  llvm::SMLoc loc;
};

struct Function {
  /// Empty for an unnamed function, which imports as `main`.
  StringRef name;
  llvm::SMLoc loc;
  llvm::SmallVector<Param, 4> inputs;
  llvm::SmallVector<OutputDecl, 2> outputs;
  std::vector<Statement> body;
  /// The closing `}`.
  llvm::SMLoc endLoc;

  StringRef getSymbolName() const { return name.empty() ? "main" : name; }
};

struct Program {
  std::vector<std::unique_ptr<Function>> functions;

  IntExpr *newIntExpr() {
    intExprs.push_back(std::make_unique<IntExpr>());
    return intExprs.back().get();
  }
  Expr *newExpr() {
    exprs.push_back(std::make_unique<Expr>());
    return exprs.back().get();
  }

  /// The function named `entry` ("" = the first), or null.
  const Function *lookup(StringRef entry) const;

private:
  std::vector<std::unique_ptr<IntExpr>> intExprs;
  std::vector<std::unique_ptr<Expr>> exprs;
};

/// Parses the whole buffer; null after a diagnostic.
std::unique_ptr<Program> parseProgram(const Source &source);

} // namespace mlir::plaidml::tilelang

#endif // PLAIDML_LIB_FRONTEND_TILELANG_AST_H
