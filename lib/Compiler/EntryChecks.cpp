//===- EntryChecks.cpp - Entry points the runtime can run -----------------===//
//
// checkEntryFunctions: the conditions the runtime puts on an artifact's entry
// points, checked on the module before any pass runs, so that plaidml-compile
// (and plaidml-run's compile path, through the cache) refuses a module the
// runtime would refuse after a successful compile: a module without any
// function (an empty or comment-only file), an entry function without
// inputs and outputs, and an input or output with more elements than the
// runtime takes (dimensions past 2^32 whose product overflows, say).
//
//===----------------------------------------------------------------------===//

#include "plaidml/Compiler/Compiler.h"
#include "plaidml/Dialect/PlaidML/IR/PlaidMLDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::plaidml;

/// The tensor types of `func`'s inputs and outputs: its signature, or for a
/// function already in the ABI form (docs/ABI.md section 1), the types its
/// plaidml.inputs and plaidml.outputs attributes record.
static void getEntryTypes(func::FuncOp func, SmallVectorImpl<Type> &inputs,
                          SmallVectorImpl<Type> &outputs) {
  auto abiInputs = func->getAttrOfType<ArrayAttr>(kInputsAttrName);
  auto abiOutputs = func->getAttrOfType<ArrayAttr>(kOutputsAttrName);
  if (!abiInputs || !abiOutputs) {
    llvm::append_range(inputs, func.getArgumentTypes());
    llvm::append_range(outputs, func.getResultTypes());
    return;
  }
  for (Attribute a : abiInputs)
    if (auto t = dyn_cast<TypeAttr>(a))
      inputs.push_back(t.getValue());
  for (Attribute a : abiOutputs)
    if (auto t = dyn_cast<TypeAttr>(a))
      outputs.push_back(t.getValue());
}

LogicalResult mlir::plaidml::checkEntryFunctions(ModuleOp module) {
  SmallVector<func::FuncOp> funcs;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      funcs.push_back(func);
  if (funcs.empty())
    return emitError(module.getLoc())
           << "the module defines no function, so the artifact would have no "
              "entry point"
           << (module.getBody()->empty()
                   ? " (the file is empty, or holds only comments)"
                   : "");
  bool ok = true;
  for (func::FuncOp func : funcs) {
    SmallVector<Type> inputs, outputs;
    getEntryTypes(func, inputs, outputs);
    if (inputs.empty() && outputs.empty()) {
      func.emitError() << "function '" << func.getSymName()
                       << "' has no arguments and no results, so it computes "
                          "nothing the runtime could return; an entry point "
                          "needs at least one input or output";
      ok = false;
      continue;
    }
    // The runtime's rule for the shapes of a manifest (rt::parseShapeAndType):
    // the element count, computed without overflow, is at most
    // kMaxEntryElements (so the byte size fits too).
    auto check = [&](ArrayRef<Type> types, StringRef prefix) {
      for (auto [i, type] : llvm::enumerate(types)) {
        auto shaped = dyn_cast<ShapedType>(type);
        if (!shaped || !shaped.hasStaticShape())
          continue;
        int64_t count = 1;
        bool tooLarge = false;
        for (int64_t dim : shaped.getShape()) {
          if (dim != 0 && count > kMaxEntryElements / dim)
            tooLarge = true;
          else
            count *= dim;
        }
        if (llvm::is_contained(shaped.getShape(), 0) || !tooLarge)
          continue;
        func.emitError() << "'" << prefix << i << "' of function '"
                         << func.getSymName() << "' (" << type
                         << ") has more elements than the runtime takes ("
                         << kMaxEntryElements << ")";
        ok = false;
      }
    };
    check(inputs, "arg");
    check(outputs, "result");
  }
  return success(ok);
}
