//===- Internal.h - Shared state of the EDSL implementation -----*- C++ -*-===//
//
// The expression nodes behind TensorDim and TensorIndex, the process-wide
// MLIR state (context, scratch function, builder) that tensors live in, the
// conversions between DType and MLIR types, and the helper that verifies a
// freshly built op and turns its diagnostics into an edsl::Error.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_EDSL_INTERNAL_H
#define PLAIDML_LIB_EDSL_INTERNAL_H

#include "plaidml/EDSL/EDSL.h"
#include "plaidml/EDSL/MLIR.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>

namespace plaidml::edsl::detail {

struct DimNode {
  enum class Kind { Var, Const, Add, Sub, Mul, Div, Neg, Max, Min };
  Kind kind = Kind::Var;
  std::string name;
  std::optional<int64_t> value; // Var once bound, Const always
  std::shared_ptr<DimNode> lhs, rhs;
};

struct IndexNode {
  enum class Kind { Var, Const, Dim, Add, Sub, Mul, Div, Neg };
  Kind kind = Kind::Var;
  std::string name; // Var: the name given, or "" (named by position)
  int64_t value = 0;
  TensorDim dim;
  std::shared_ptr<IndexNode> lhs, rhs;
};

/// The context, and the scratch function whose body holds every tensor's
/// op; placeholders are arguments of its block.
struct State {
  State();
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> scratch;
  mlir::Block *block = nullptr;
  int64_t counter = 0;
};
State &getState();

mlir::Type toMLIRType(DType dtype);
/// Throws for a type with no DType.
DType fromMLIRType(mlir::Type type);
mlir::RankedTensorType getTensorType(const Tensor &t);
/// `a 2x3xf32` with the tensor's name (or `a tensor` when unnamed).
std::string describe(const Tensor &t);
std::string formatShape(llvm::ArrayRef<int64_t> shape);
/// Throws when `t` is null, saying what needed it.
void checkNotNull(const Tensor &t, const char *what);

/// Verifies `op`; on failure erases it (unless `erase` is false) and
/// throws an Error starting with `what` and holding the verifier's messages.
void verifyOrThrow(mlir::Operation *op, const std::string &what,
                   bool erase = true);
/// A location naming `name` (unknown when empty).
mlir::Location getLoc(const std::string &name);

} // namespace plaidml::edsl::detail

#endif // PLAIDML_LIB_EDSL_INTERNAL_H
