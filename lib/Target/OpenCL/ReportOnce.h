//===- ReportOnce.h - Drop repeated diagnostics -----------------*- C++ -*-===//
//
// The kernels of one Tile op (its init fill and its reduction, say) carry
// its location, so translating them repeats its errors: the OpenCL passes
// report each (location, message) once.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_TARGET_OPENCL_REPORTONCE_H
#define PLAIDML_LIB_TARGET_OPENCL_REPORTONCE_H

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

#include <set>
#include <string>

namespace mlir::plaidml {

/// While alive, swallows every diagnostic whose location and message were
/// already reported; the others go on to the previous handlers.
class ReportOnceDiagnosticHandler : public ScopedDiagnosticHandler {
public:
  explicit ReportOnceDiagnosticHandler(MLIRContext *context)
      : ScopedDiagnosticHandler(context) {
    setHandler([this](Diagnostic &diag) {
      std::string key;
      llvm::raw_string_ostream os(key);
      os << diag.getLocation() << diag.str();
      return success(!reported.insert(key).second);
    });
  }

private:
  std::set<std::string> reported;
};

} // namespace mlir::plaidml

#endif // PLAIDML_LIB_TARGET_OPENCL_REPORTONCE_H
