//===- Registration.h - Textual registration of typed pipelines -*- C++ -*-===//
//
// Registers a pipeline builder that takes typed options under a textual
// name, so `plaidml-opt -plaidml-<target>-pipeline="opt=value"` parses the
// options, validates them (reporting the validator's message as the
// pipeline's error) and calls the same C++ builder other compilers call.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_PIPELINES_REGISTRATION_H
#define PLAIDML_LIB_PIPELINES_REGISTRATION_H

#include "mlir/Pass/PassRegistry.h"

#include <string>

namespace mlir::plaidml {

template <typename Options>
void registerTypedPipeline(StringRef name, StringRef description,
                           void (*builder)(OpPassManager &, const Options &),
                           std::string (*validate)(const Options &)) {
  registerPassPipeline(
      name, description,
      [builder,
       validate](OpPassManager &pm, StringRef optionsText,
                 function_ref<LogicalResult(const Twine &)> errorHandler) {
        Options options;
        if (failed(options.parseFromString(optionsText)))
          return failure();
        std::string error = validate(options);
        if (!error.empty())
          return errorHandler(error);
        builder(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optionsHandler) {
        optionsHandler(Options());
      });
}

} // namespace mlir::plaidml

#endif // PLAIDML_LIB_PIPELINES_REGISTRATION_H
