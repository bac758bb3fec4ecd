//===- Program.cpp - Programs from inputs and outputs ---------------------===//
//
// A Program copies what its outputs depend on out of the EDSL's scratch
// block into a new module: func.func @<name>(inputs) -> outputs, the
// placeholders becoming the function's arguments. A value that depends on a
// placeholder that is not an input is an Error naming it. The module
// prints as Tile IR and compiles with compileToArtifact (compileProgram).
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "plaidml/Compiler/Compiler.h"
#include "plaidml/Dialect/PlaidML/IR/PlaidMLDialect.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace ::plaidml::edsl;
namespace edetail = ::plaidml::edsl::detail;
namespace pe = ::plaidml::edsl;

struct Program::Impl {
  std::string name;
  std::vector<TensorSpec> inputs, outputs;
  OwningOpRef<ModuleOp> module;
};

static TensorSpec toSpec(const Tensor &t, const std::string &fallback) {
  TensorSpec spec;
  spec.name = t.getName().empty() ? fallback : t.getName();
  spec.dtype = t.getDType();
  RankedTensorType type = edetail::getTensorType(t);
  spec.shape.assign(type.getShape().begin(), type.getShape().end());
  return spec;
}

Program::Program(const std::string &name, const std::vector<Tensor> &given,
                 const std::vector<Tensor> &outputs,
                 const std::vector<Tensor> &parameters)
    : impl(std::make_unique<Impl>()) {
  std::vector<Tensor> inputs = given;
  inputs.insert(inputs.end(), parameters.begin(), parameters.end());
  impl->name = name;
  MLIRContext *ctx = getContext();
  std::string what = "program '" + name + "'";
  if (outputs.empty())
    throw Error(what + " has no outputs");

  SmallVector<Type> inTypes, outTypes;
  for (auto [i, t] : llvm::enumerate(inputs)) {
    edetail::checkNotNull(t, (what + ": input").c_str());
    if (!isa<BlockArgument>(getValue(t)))
      throw Error(what + ": input " + std::to_string(i) + " (" +
                  edetail::describe(t) + ") is not a placeholder");
    impl->inputs.push_back(toSpec(t, "arg" + std::to_string(i)));
    inTypes.push_back(getValue(t).getType());
  }
  for (auto [i, t] : llvm::enumerate(outputs)) {
    edetail::checkNotNull(t, (what + ": output").c_str());
    impl->outputs.push_back(toSpec(t, "result" + std::to_string(i)));
    outTypes.push_back(getValue(t).getType());
  }

  // The ops the outputs depend on.
  llvm::DenseSet<Operation *> needed;
  SmallVector<Value> work;
  for (const Tensor &t : outputs)
    work.push_back(getValue(t));
  llvm::DenseSet<Value> inputValues;
  for (const Tensor &t : inputs)
    inputValues.insert(getValue(t));
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (!inputValues.contains(v)) {
        std::string placeholder;
        if (auto nameLoc = dyn_cast<NameLoc>(arg.getLoc()))
          placeholder = "'" + nameLoc.getName().str() + "'";
        else
          placeholder = "#" + std::to_string(arg.getArgNumber());
        throw Error(what + ": the outputs depend on placeholder " +
                    placeholder + ", which is not one of its inputs");
      }
      continue;
    }
    Operation *op = v.getDefiningOp();
    if (!needed.insert(op).second)
      continue;
    for (Value operand : op->getOperands())
      work.push_back(operand);
  }

  OpBuilder b(ctx);
  impl->module = ModuleOp::create(b.getUnknownLoc());
  b.setInsertionPointToEnd(impl->module->getBody());
  auto fn = func::FuncOp::create(b, b.getUnknownLoc(), name,
                                 b.getFunctionType(inTypes, outTypes));
  for (size_t i = given.size(); i < inputs.size(); ++i)
    fn.setArgAttr(i, mlir::plaidml::kParamAttrName, b.getUnitAttr());
  Block *entry = fn.addEntryBlock();
  IRMapping mapping;
  for (auto [i, t] : llvm::enumerate(inputs))
    mapping.map(getValue(t), entry->getArgument(i));
  b.setInsertionPointToEnd(entry);
  for (Operation &op : *edetail::getState().block)
    if (needed.contains(&op))
      b.clone(op, mapping);
  SmallVector<Value> results;
  for (const Tensor &t : outputs)
    results.push_back(mapping.lookup(getValue(t)));
  func::ReturnOp::create(b, b.getUnknownLoc(), results);
  edetail::verifyOrThrow(*impl->module, what, /*erase=*/false);
}

Program::~Program() = default;
Program::Program(Program &&) noexcept = default;
Program &Program::operator=(Program &&) noexcept = default;

const std::string &Program::getName() const { return impl->name; }
const std::vector<TensorSpec> &Program::getInputs() const {
  return impl->inputs;
}
const std::vector<TensorSpec> &Program::getOutputs() const {
  return impl->outputs;
}

std::string Program::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  impl->module->print(os);
  return s;
}

ModuleOp pe::getModule(const Program &program) {
  return *program.getImpl().module;
}

std::string pe::compileProgram(const Program &program,
                               const mlir::plaidml::CompileOptions &options,
                               const std::string &outputPath) {
  OwningOpRef<ModuleOp> copy = getModule(program).clone();
  std::string messages;
  ScopedDiagnosticHandler handler(getContext(), [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error)
      messages += (messages.empty() ? "" : "\n") + d.str();
    return success();
  });
  if (failed(mlir::plaidml::compileToArtifact(*copy, options, outputPath)))
    return messages.empty() ? "compilation failed" : messages;
  return "";
}
