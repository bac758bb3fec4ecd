//===- Builder.h - Tile-language syntax tree to Tile ops --------*- C++ -*-===//
//
// FunctionBuilder turns one parsed function into a func.func of Tile ops:
// it binds the inputs and their dimension names, then emits every statement
// in order (elementwise expressions in Elementwise.cpp, contractions in
// Contraction.cpp) and returns the outputs. Each op gets the location of the
// token that caused it. Types are worked out with TileTypes.h before an op
// is created, so a program error is a diagnostic in the user's terms and the
// IR built is valid.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_FRONTEND_TILELANG_BUILDER_H
#define PLAIDML_LIB_FRONTEND_TILELANG_BUILDER_H

#include "AST.h"

#include "plaidml/Dialect/Tile/IR/TileOps.h"
#include "plaidml/Frontend/TileLang/Importer.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::plaidml::tilelang {

/// A value while building: a tensor, or a literal whose element type is
/// decided by the tensor it meets (docs/TileLanguage.md, "Literals").
struct Operand {
  enum class Kind { Tensor, Int, Float };
  Kind kind = Kind::Tensor;
  Value value;
  int64_t intValue = 0;
  double floatValue = 0;
  llvm::SMLoc loc;

  bool isLiteral() const { return kind != Kind::Tensor; }
  RankedTensorType getType() const {
    return cast<RankedTensorType>(value.getType());
  }
};

/// The binary operators and two-argument calls of the language (the Tile op
/// each one becomes is chosen in Elementwise.cpp).
enum class OperatorKind {
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
  Eq,
  Ne,
  Lt,
  Gt,
  Le,
  Ge,
  LogicalAnd,
  LogicalOr,
};

class FunctionBuilder {
public:
  FunctionBuilder(const Source &source, const ImportOptions &options,
                  OpBuilder &builder)
      : source(source), options(options), builder(builder) {}

  /// Builds `fn` at the builder's insertion point (a module body).
  LogicalResult build(const Function &fn);

private:
  Location loc(llvm::SMLoc l) const { return source.getLocation(l); }
  InFlightDiagnostic emitError(llvm::SMLoc l) const {
    return source.emitError(l);
  }

  LogicalResult bindInputs(const Function &fn,
                           SmallVectorImpl<Type> &inputTypes);
  /// Records `value` as tensor `name` defined at `at`.
  LogicalResult define(StringRef name, llvm::SMLoc at, Value value);
  /// The tensor `name` used at `at`, or a diagnostic.
  FailureOr<Value> lookupTensor(StringRef name, llvm::SMLoc at);

  /// Evaluates a size expression over the dimension names.
  FailureOr<int64_t> evalSize(const IntExpr &e);
  /// Checks that `shape` has a 64-bit element count (for `what`, at `at`).
  LogicalResult checkElementCount(ArrayRef<int64_t> shape, llvm::SMLoc at,
                                  const Twine &what);
  /// Evaluates sizes that must be positive, for tensor `what`.
  LogicalResult evalShape(ArrayRef<const IntExpr *> sizes, StringRef what,
                          SmallVectorImpl<int64_t> &shape);

  // Elementwise.cpp
  FailureOr<Operand> emitExpr(const Expr &e);
  FailureOr<Operand> emitUnary(const Expr &e, const Operand &x);
  FailureOr<Operand> emitBinary(OperatorKind kind, llvm::SMLoc at, Operand a,
                                Operand b);
  FailureOr<Operand> emitSelect(llvm::SMLoc at, Operand c, Operand a,
                                Operand b);
  FailureOr<Operand> emitCall(const Expr &e);
  FailureOr<Operand> emitCast(const Expr &e, const Operand &x);
  FailureOr<Operand> emitShapeCall(const Expr &e, ArrayRef<Operand> args);
  /// argsort, argsort_desc, prng_value and prng_state.
  FailureOr<Operand> emitSortOrRandomCall(const Expr &e, const Operand &x);
  /// The tensor of `x`: itself, or its literal as a rank-0 constant of
  /// `elementType` (or of the literal's own type when null).
  Value materialize(const Operand &x, Type elementType = {});
  /// The element type literal `x` takes next to a tensor of `other`.
  Type getLiteralType(const Operand &x, Type other) const;

  // Contraction.cpp
  FailureOr<Value> emitContraction(const Statement &stmt);

  const Source &source;
  const ImportOptions &options;
  OpBuilder &builder;
  llvm::StringMap<Value> tensors;
  llvm::StringMap<llvm::SMLoc> definitions;
  llvm::StringMap<int64_t> dims;
  /// The tile.prng ops built so far: prng_value and prng_state with the
  /// same state and shape share one.
  SmallVector<tile::PrngOp> prngs;
};

/// `3x4`, or `scalar` for rank 0: a shape as diagnostics spell it.
std::string formatShape(ArrayRef<int64_t> shape);

} // namespace mlir::plaidml::tilelang

#endif // PLAIDML_LIB_FRONTEND_TILELANG_BUILDER_H
