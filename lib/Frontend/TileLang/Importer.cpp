//===- Importer.cpp - Tile-language import entry points -------------------===//
//
// The public API of Importer.h and the function-level half of
// FunctionBuilder: binding inputs and their dimension names, the scope of
// tensor names, size expressions, statements in order and the returned
// outputs. After building, the module is verified; a verifier failure is an
// import error located at the op (the importer checks types itself, so this
// is a last line of defence, not the way errors are normally found).
//
//===----------------------------------------------------------------------===//

#include "Builder.h"

#include "plaidml/Dialect/Tile/IR/TileOps.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::plaidml;
using namespace mlir::plaidml::tilelang;
using llvm::SMLoc;

//===----------------------------------------------------------------------===//
// Scope and sizes
//===----------------------------------------------------------------------===//

LogicalResult FunctionBuilder::define(StringRef name, SMLoc at, Value value) {
  auto [it, inserted] = definitions.insert({name, at});
  if (!inserted) {
    emitError(at) << "'" << name << "' is already defined";
    return failure();
  }
  tensors[name] = value;
  return success();
}

FailureOr<Value> FunctionBuilder::lookupTensor(StringRef name, SMLoc at) {
  auto it = tensors.find(name);
  if (it == tensors.end())
    return emitError(at) << "unknown tensor '" << name << "'";
  return it->second;
}

FailureOr<int64_t> FunctionBuilder::evalSize(const IntExpr &e) {
  switch (e.kind) {
  case IntExpr::Kind::Literal:
    return e.value;
  case IntExpr::Kind::Name: {
    auto it = dims.find(e.name);
    if (it == dims.end())
      return emitError(e.begin) << "unknown dimension '" << e.name << "'";
    return it->second;
  }
  case IntExpr::Kind::Neg: {
    FailureOr<int64_t> x = evalSize(*e.lhs);
    if (failed(x))
      return failure();
    if (*x == INT64_MIN)
      break;
    return -*x;
  }
  default: {
    FailureOr<int64_t> a = evalSize(*e.lhs);
    if (failed(a))
      return failure();
    FailureOr<int64_t> b = evalSize(*e.rhs);
    if (failed(b))
      return failure();
    std::optional<int64_t> r;
    if (e.kind == IntExpr::Kind::Add)
      r = llvm::checkedAdd(*a, *b);
    else if (e.kind == IntExpr::Kind::Sub)
      r = llvm::checkedSub(*a, *b);
    else if (e.kind == IntExpr::Kind::Mul)
      r = llvm::checkedMul(*a, *b);
    else if (*b == 0)
      return emitError(e.begin)
             << "division by zero in size expression '" << e.getText() << "'";
    else if (!(*a == INT64_MIN && *b == -1))
      r = *a / *b;
    if (r)
      return *r;
    break;
  }
  }
  return emitError(e.begin)
         << "size expression '" << e.getText() << "' overflows";
}

LogicalResult FunctionBuilder::evalShape(ArrayRef<const IntExpr *> sizes,
                                         StringRef what,
                                         SmallVectorImpl<int64_t> &shape) {
  for (const IntExpr *e : sizes) {
    FailureOr<int64_t> size = evalSize(*e);
    if (failed(size))
      return failure();
    if (*size <= 0)
      return emitError(e->begin)
             << "size '" << e->getText() << "' of " << what << " is " << *size
             << ", but sizes must be positive";
    shape.push_back(*size);
  }
  if (sizes.empty())
    return success();
  return checkElementCount(shape, sizes.front()->begin, what);
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

LogicalResult FunctionBuilder::bindInputs(const Function &fn,
                                          SmallVectorImpl<Type> &inputTypes) {
  llvm::StringMap<SMLoc> seen;
  for (const Param &p : fn.inputs) {
    if (!seen.insert({p.name, p.loc}).second)
      return emitError(p.loc) << "duplicate input '" << p.name << "'";
    RankedTensorType type;
    if (auto it = options.bindings.find(p.name); it != options.bindings.end()) {
      type = it->second;
      if (!type || !type.hasStaticShape() ||
          !tile::isTileElementType(type.getElementType()))
        return emitError(p.loc)
               << "the binding of '" << p.name
               << "' is not a statically shaped tensor of a Tile element type";
    } else if (options.defaultBinding) {
      auto [size, element] = *options.defaultBinding;
      if (size <= 0 || !element || !tile::isTileElementType(element))
        return emitError(p.loc) << "the default binding is not a positive "
                                   "size and a Tile element type";
      type = RankedTensorType::get(SmallVector<int64_t>(p.dims.size(), size),
                                   element);
    } else {
      return emitError(p.loc)
             << "input '" << p.name
             << "' is unbound: its shape and element type must be given";
    }
    if (type.getRank() != static_cast<int64_t>(p.dims.size()))
      return emitError(p.loc)
             << "input '" << p.name << "' is declared with rank "
             << p.dims.size() << " but bound to "
             << formatShape(type.getShape()) << "x" << type.getElementType();
    if (failed(checkElementCount(type.getShape(), p.loc,
                                 "input '" + p.name + "'")))
      return failure();
    for (auto [dim, size] : llvm::zip_equal(p.dims, type.getShape())) {
      if (dim.name.empty()) {
        if (dim.size != size)
          return emitError(dim.loc)
                 << "input '" << p.name << "' declares size " << dim.size
                 << " here but is bound to size " << size;
        continue;
      }
      auto [it, inserted] = dims.insert({dim.name, size});
      if (!inserted && it->second != size)
        return emitError(dim.loc) << "dimension size conflict: '" << dim.name
                                  << "' is " << it->second << " but input '"
                                  << p.name << "' gives it " << size;
    }
    inputTypes.push_back(type);
  }
  return success();
}

LogicalResult FunctionBuilder::build(const Function &fn) {
  MLIRContext *ctx = source.getContext();
  SmallVector<Type> inputTypes;
  if (failed(bindInputs(fn, inputTypes)))
    return failure();
  llvm::StringSet<> outputNames;
  for (const OutputDecl &out : fn.outputs)
    if (!outputNames.insert(out.name).second)
      return emitError(out.loc) << "duplicate output '" << out.name << "'";

  auto func = func::FuncOp::create(builder, loc(fn.loc), fn.getSymbolName(),
                                   FunctionType::get(ctx, inputTypes, {}));
  Block *entry = func.addEntryBlock();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(entry);
  for (auto [p, arg] : llvm::zip_equal(fn.inputs, entry->getArguments())) {
    arg.setLoc(loc(p.loc));
    if (failed(define(p.name, p.loc, arg)))
      return failure();
  }

  for (const Statement &stmt : fn.body) {
    Value value;
    if (stmt.contraction) {
      FailureOr<Value> v = emitContraction(stmt);
      if (failed(v))
        return failure();
      value = *v;
    } else {
      FailureOr<Operand> x = emitExpr(*stmt.value);
      if (failed(x))
        return failure();
      value = materialize(*x);
    }
    if (failed(define(stmt.name, stmt.loc, value)))
      return failure();
  }

  SmallVector<Value> results;
  for (const OutputDecl &out : fn.outputs) {
    auto it = tensors.find(out.name);
    if (it == tensors.end())
      return emitError(out.loc)
             << "output '" << out.name << "' is never assigned";
    results.push_back(it->second);
  }
  func::ReturnOp::create(builder, loc(fn.endLoc), results);
  func.setFunctionType(
      FunctionType::get(ctx, inputTypes, ValueRange(results).getTypes()));
  return success();
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp>
mlir::plaidml::tilelang::importTileProgram(llvm::SourceMgr &sourceMgr,
                                           MLIRContext *context,
                                           const ImportOptions &options) {
  context->loadDialect<tile::TileDialect, func::FuncDialect>();
  Source source(sourceMgr, context);
  std::unique_ptr<Program> program = parseProgram(source);
  if (!program)
    return nullptr;

  OpBuilder builder(context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(
      source.getLocation(SMLoc::getFromPointer(source.getText().data())));
  builder.setInsertionPointToEnd(module->getBody());
  llvm::StringMap<SMLoc> names;
  for (const std::unique_ptr<Function> &owned : program->functions) {
    const Function &fn = *owned;
    if (!names.insert({fn.getSymbolName(), fn.loc}).second)
      return (source.emitError(fn.loc)
                  << "duplicate function '" << fn.getSymbolName() << "'",
              nullptr);
    FunctionBuilder fb(source, options, builder);
    if (failed(fb.build(fn)))
      return nullptr;
  }
  if (failed(verify(*module)))
    return nullptr;
  return module;
}

/// Parses the program and finds `entry`, or reports why not.
static const Function *findFunction(const Program *program,
                                    MLIRContext *context, StringRef entry) {
  if (!program)
    return nullptr;
  const Function *fn = program->lookup(entry);
  if (!fn) {
    if (entry.empty())
      emitError(UnknownLoc::get(context)) << "the program has no function";
    else
      emitError(UnknownLoc::get(context))
          << "the program has no function '" << entry << "'";
  }
  return fn;
}

std::optional<std::vector<std::pair<std::string, unsigned>>>
mlir::plaidml::tilelang::getTileInputs(llvm::SourceMgr &sourceMgr,
                                       MLIRContext *context, StringRef entry) {
  Source source(sourceMgr, context);
  std::unique_ptr<Program> program = parseProgram(source);
  const Function *fn = findFunction(program.get(), context, entry);
  if (!fn)
    return std::nullopt;
  std::vector<std::pair<std::string, unsigned>> inputs;
  for (const Param &p : fn->inputs)
    inputs.emplace_back(p.name.str(), p.dims.size());
  return inputs;
}

std::optional<std::vector<std::string>>
mlir::plaidml::tilelang::getTileOutputs(llvm::SourceMgr &sourceMgr,
                                        MLIRContext *context, StringRef entry) {
  Source source(sourceMgr, context);
  std::unique_ptr<Program> program = parseProgram(source);
  const Function *fn = findFunction(program.get(), context, entry);
  if (!fn)
    return std::nullopt;
  std::vector<std::string> outputs;
  for (const OutputDecl &out : fn->outputs)
    outputs.push_back(out.name.str());
  return outputs;
}

RankedTensorType mlir::plaidml::tilelang::parseBindingType(StringRef spec,
                                                           MLIRContext *context,
                                                           std::string &error) {
  // `2x3xf32` is the body of `tensor<2x3xf32>`; MLIR's type parser does the
  // rest. Its own diagnostics are replaced by one line.
  context->loadDialect<tile::TileDialect>();
  Type type;
  {
    ScopedDiagnosticHandler quiet(context,
                                  [](Diagnostic &) { return success(); });
    if (!spec.empty() && !spec.contains_insensitive("tensor") &&
        spec.find_first_of("<>?") == StringRef::npos) {
      size_t consumed = 0;
      std::string text = ("tensor<" + spec + ">").str();
      type = parseType(text, context, &consumed);
      if (consumed != text.size())
        type = nullptr;
    }
  }
  auto tensor = dyn_cast_or_null<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() ||
      !tile::isTileElementType(tensor.getElementType()) ||
      !tile::getCheckedNumElements(tensor.getShape())) {
    error = "'" + spec.str() +
            "' is not a shape and Tile element type such as 2x3xf32 or si8";
    return nullptr;
  }
  return tensor;
}
