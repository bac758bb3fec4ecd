//===- Gradients.cpp - gradients() of the EDSL ----------------------------===//
//
// gradients(loss, wrt): the tensors holding d(loss)/d(w) for each w, built
// by the Tile dialect's buildGradients into the scratch function after the
// ops already there. Its diagnostics (an op with no gradient, a non-float
// value) become an edsl::Error; the ops of a failed attempt stay unused.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "plaidml/Dialect/Tile/Transforms/Gradients.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
namespace edetail = ::plaidml::edsl::detail;

namespace plaidml::edsl {

std::vector<Tensor> gradients(const Tensor &loss,
                              const std::vector<Tensor> &wrt) {
  edetail::checkNotNull(loss, "gradients (the loss)");
  SmallVector<Value> values;
  for (const Tensor &w : wrt) {
    edetail::checkNotNull(w, "gradients (a tensor to differentiate by)");
    if (!w.getLens().isIdentity())
      throw Error("gradients: " + edetail::describe(w) +
                  " is seen through a lens; differentiate by the tensor "
                  "itself");
    values.push_back(getValue(w));
  }
  std::string messages;
  FailureOr<SmallVector<Value>> grads;
  {
    ScopedDiagnosticHandler handler(getContext(), [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error) {
        if (!messages.empty())
          messages += "; ";
        messages += d.str();
      }
      return success();
    });
    OpBuilder b = getBuilder();
    grads = mlir::plaidml::tile::buildGradients(b, getValue(loss), values);
  }
  if (failed(grads))
    throw Error("gradients of " + edetail::describe(loss) + ": " + messages);
  std::vector<Tensor> result;
  for (size_t i = 0; i < wrt.size(); ++i) {
    std::string name = wrt[i].getName().empty() ? "" : "d_" + wrt[i].getName();
    result.push_back(makeTensor((*grads)[i], name));
  }
  return result;
}

} // namespace plaidml::edsl
