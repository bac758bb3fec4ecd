//===- Executable.cpp - C API: compile options, programs, running ---------===//
//
// plaidml_executable_compile parses Tile IR (or imports a Tile-language
// program) into its own MLIRContext, with every diagnostic captured into
// the error message, picks the entry function and records its inputs and
// outputs. On the `reference` device the module stays and runs in the
// reference interpreter; on every other device it is compiled through the
// compile cache (Compiler/Cache.h) and the artifact is loaded with the
// runtime (rt::Program), after which the context is no longer needed.
// These are the only compiler and runtime entry points the C API uses.
//
//===----------------------------------------------------------------------===//

#include "Executable.h"
#include "Internal.h"

#include "plaidml/Compiler/Cache.h"
#include "plaidml/Compiler/Compiler.h"
#include "plaidml/Dialect/PlaidML/IR/PlaidMLDialect.h"
#include "plaidml/Frontend/TileLang/Importer.h"
#include "plaidml/InitAll.h"
#include "plaidml/Reference/Interpreter.h"
#include "plaidml/Runtime/Device.h"
#include "plaidml/Runtime/Program.h"
#include "plaidml/Support/ElementTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace ::plaidml::capi;
namespace capi = ::plaidml::capi;
namespace rt = ::plaidml::rt;
namespace reference = mlir::plaidml::reference;
namespace tilelang = mlir::plaidml::tilelang;

namespace {

/// The specs of `types`, named `names` when given, else prefix0, prefix1..
plaidml_status makeSpecs(TypeRange types, const std::vector<std::string> &names,
                         const char *prefix, StringRef function,
                         std::vector<capi::TensorSpec> &specs) {
  for (auto [i, type] : llvm::enumerate(types)) {
    capi::TensorSpec spec;
    spec.name = i < names.size() ? names[i] : prefix + std::to_string(i);
    auto tensor = dyn_cast<RankedTensorType>(type);
    std::optional<rt::DType> dtype =
        tensor ? mlir::plaidml::getRuntimeDType(tensor.getElementType())
               : std::nullopt;
    if (!tensor || !tensor.hasStaticShape() || !dtype)
      return fail(PLAIDML_COMPILE_ERROR,
                  "'" + spec.name + "' of '" + function.str() +
                      "' is not a statically shaped tensor of a Tile element "
                      "type");
    spec.dtype = fromDType(*dtype);
    spec.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
    spec.type = tensor;
    specs.push_back(std::move(spec));
  }
  return PLAIDML_OK;
}

/// The error text gathered by the program's diagnostic handler, or
/// `fallback` when nothing was reported.
std::string takeDiagnostics(plaidml_executable &p,
                            const std::string &fallback) {
  std::string text = std::move(p.diagnostics);
  p.diagnostics.clear();
  while (!text.empty() && text.back() == '\n')
    text.pop_back();
  return text.empty() ? fallback : fallback + ":\n" + text;
}

plaidml_status compileProgram(plaidml_executable &p, const char *source,
                              const std::string &name,
                              const plaidml_compile_options &options) {
  DialectRegistry registry;
  mlir::plaidml::registerAllDialects(registry);
  p.context = std::make_unique<MLIRContext>(registry);
  p.context->printOpOnDiagnostic(false);
  p.sourceMgr = std::make_unique<llvm::SourceMgr>();
  p.sourceMgr->AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, name), llvm::SMLoc());
  p.diagnosticStream =
      std::make_unique<llvm::raw_string_ostream>(p.diagnostics);
  p.handler = std::make_unique<SourceMgrDiagnosticHandler>(
      *p.sourceMgr, p.context.get(), *p.diagnosticStream);

  bool isTile = StringRef(name).ends_with(".tile");
  std::string text = source;
  if (isTile) {
    tilelang::ImportOptions import;
    for (const auto &[input, spec] : options.bindings) {
      std::string error;
      RankedTensorType type =
          tilelang::parseBindingType(spec, p.context.get(), error);
      if (!type)
        return fail(PLAIDML_INVALID_ARGUMENT,
                    "binding '" + input + "' = '" + spec + "': " + error);
      import.bindings[input] = type;
    }
    p.module =
        tilelang::importTileProgram(*p.sourceMgr, p.context.get(), import);
    if (!p.module)
      return fail(PLAIDML_COMPILE_ERROR,
                  takeDiagnostics(p, "cannot import '" + name + "'"));
    text.clear();
    llvm::raw_string_ostream os(text);
    p.module->print(os, OpPrintingFlags().enableDebugInfo());
  } else {
    p.module = parseSourceFile<ModuleOp>(*p.sourceMgr, p.context.get());
    if (!p.module)
      return fail(PLAIDML_COMPILE_ERROR,
                  takeDiagnostics(p, "cannot parse '" + name + "'"));
  }

  // The entry: the one named, else the only function, else `main`.
  SmallVector<func::FuncOp> funcs;
  for (auto f : p.module->getOps<func::FuncOp>())
    if (!f.isExternal())
      funcs.push_back(f);
  if (!options.entry.empty())
    p.function = p.module->lookupSymbol<func::FuncOp>(options.entry);
  else if (funcs.size() == 1)
    p.function = funcs.front();
  else
    p.function = p.module->lookupSymbol<func::FuncOp>("main");
  if (!p.function || p.function.isExternal())
    return fail(PLAIDML_NOT_FOUND,
                options.entry.empty()
                    ? "'" + name + "' has " + std::to_string(funcs.size()) +
                          " functions and none is 'main'; set the entry"
                    : "no function '" + options.entry + "' in '" + name + "'");
  p.entry = p.function.getSymName().str();

  std::vector<std::string> inputNames, outputNames;
  if (isTile) {
    auto inputs =
        tilelang::getTileInputs(*p.sourceMgr, p.context.get(), p.entry);
    auto outputs =
        tilelang::getTileOutputs(*p.sourceMgr, p.context.get(), p.entry);
    if (!inputs || !outputs)
      return fail(PLAIDML_COMPILE_ERROR,
                  takeDiagnostics(p, "cannot import '" + name + "'"));
    for (auto &input : *inputs)
      inputNames.push_back(input.first);
    outputNames = std::move(*outputs);
  }
  if (p.function->hasAttr(mlir::plaidml::kInputsAttrName))
    return fail(PLAIDML_UNSUPPORTED,
                "'" + p.entry +
                    "' is already lowered to memrefs; the C API compiles "
                    "Tile functions");
  FunctionType type = p.function.getFunctionType();
  if (plaidml_status s =
          makeSpecs(type.getInputs(), inputNames, "arg", p.entry, p.inputs))
    return s;
  if (plaidml_status s = makeSpecs(type.getResults(), outputNames, "result",
                                   p.entry, p.outputs))
    return s;
  if (p.device == "reference")
    return PLAIDML_OK;

  mlir::plaidml::CompileOptions compile;
  compile.device = p.device;
  compile.threads = options.threads;
  std::string invalid = mlir::plaidml::validateCompileOptions(compile);
  if (!invalid.empty())
    return fail(PLAIDML_INVALID_ARGUMENT, invalid);
  FailureOr<mlir::plaidml::CachedArtifact> artifact =
      mlir::plaidml::getCachedArtifact(*p.context, text, compile, name);
  if (failed(artifact))
    return fail(PLAIDML_COMPILE_ERROR,
                takeDiagnostics(p, "compiling '" + name + "' for " + p.device +
                                       " failed"));
  rt::StatusOr<rt::DeviceName> device = rt::parseDeviceName(p.device);
  if (!device.ok())
    return fail(PLAIDML_INVALID_ARGUMENT, device.message());
  rt::LoadOptions load;
  load.device = *device;
  rt::StatusOr<std::unique_ptr<rt::Program>> program =
      rt::Program::load(artifact->path, load);
  if (!program.ok())
    return fail(PLAIDML_RUNTIME_ERROR, program.message());
  p.program = std::move(*program);
  // The artifact's manifest names the entry; the module is not needed any
  // more.
  p.function = nullptr;
  p.module = nullptr;
  p.handler.reset();
  p.context.reset();
  return PLAIDML_OK;
}

plaidml_status getSpec(const plaidml_executable *p,
                       const std::vector<capi::TensorSpec> &specs, size_t index,
                       const char *function, const char **name,
                       plaidml_dtype *dtype, size_t *rank,
                       const int64_t **shape) {
  if (!p)
    return failNull(function, "program");
  if (index >= specs.size())
    return fail(PLAIDML_NOT_FOUND, std::string(function) + ": '" + p->entry +
                                       "' has " + std::to_string(specs.size()) +
                                       ", not " + std::to_string(index + 1));
  const capi::TensorSpec &spec = specs[index];
  if (name)
    *name = spec.name.c_str();
  if (dtype)
    *dtype = spec.dtype;
  if (rank)
    *rank = spec.shape.size();
  if (shape)
    *shape = spec.shape.data();
  return PLAIDML_OK;
}
} // namespace

/// Runs `p` on host arrays (checked against its inputs) into `results`:
/// the loaded program, or the reference interpreter.
plaidml_status capi::runOnHost(plaidml_executable &executable,
                               const std::vector<rt::HostArray> &arrays,
                               std::vector<rt::HostArray> &results) {
  plaidml_executable *p = &executable;
  if (p->program) {
    rt::StatusOr<std::vector<rt::HostArray>> run =
        p->program->run(p->entry, arrays);
    if (!run.ok())
      return fail(PLAIDML_RUNTIME_ERROR, run.message());
    results = std::move(*run);
  } else {
    std::vector<reference::Buffer> buffers;
    for (auto [array, spec] : llvm::zip_equal(arrays, p->inputs)) {
      FailureOr<reference::Buffer> created =
          reference::Buffer::create(spec.type, p->function.getLoc());
      if (failed(created))
        return fail(
            PLAIDML_RUNTIME_ERROR,
            takeDiagnostics(*p, "cannot allocate input '" + spec.name + "'"));
      reference::Buffer buffer = std::move(*created);
      if (failed(buffer.fromBytes(array.bytes)))
        return fail(PLAIDML_INTERNAL_ERROR,
                    "input '" + spec.name + "' has the wrong byte size");
      buffers.push_back(std::move(buffer));
    }
    FailureOr<std::vector<reference::Buffer>> evaluated =
        reference::evaluate(p->function, buffers);
    if (failed(evaluated))
      return fail(PLAIDML_RUNTIME_ERROR,
                  takeDiagnostics(*p, "running '" + p->entry +
                                          "' in the reference interpreter "
                                          "failed"));
    for (auto [buffer, spec] : llvm::zip_equal(*evaluated, p->outputs)) {
      rt::HostArray array;
      array.dtype = toDType(spec.dtype);
      array.shape = spec.shape;
      array.bytes = buffer.toBytes();
      results.push_back(std::move(array));
    }
  }
  return PLAIDML_OK;
}

plaidml_status capi::checkRunArity(const plaidml_executable *p,
                                   const char *function, size_t numInputs,
                                   const void *inputs, size_t numOutputs,
                                   const void *outputs) {
  if (!p)
    return failNull(function, "program");
  if (numInputs != p->inputs.size())
    return fail(PLAIDML_INVALID_ARGUMENT,
                std::string(function) + ": '" + p->entry + "' takes " +
                    std::to_string(p->inputs.size()) + " inputs, but " +
                    std::to_string(numInputs) + " were given");
  if (numOutputs != p->outputs.size())
    return fail(PLAIDML_INVALID_ARGUMENT,
                std::string(function) + ": '" + p->entry + "' has " +
                    std::to_string(p->outputs.size()) +
                    " outputs, but room for " + std::to_string(numOutputs) +
                    " was given");
  if (numInputs && !inputs)
    return failNull(function, "inputs");
  if (numOutputs && !outputs)
    return failNull(function, "outputs");
  return PLAIDML_OK;
}

plaidml_status capi::checkRunInput(const plaidml_executable &p,
                                   const char *function, size_t i,
                                   const rt::HostArray *type) {
  const capi::TensorSpec &spec = p.inputs[i];
  if (!type)
    return fail(PLAIDML_INVALID_ARGUMENT, std::string(function) + ": input #" +
                                              std::to_string(i) + " ('" +
                                              spec.name + "') is null");
  if (type->dtype != toDType(spec.dtype) || type->shape != spec.shape)
    return fail(PLAIDML_INVALID_ARGUMENT,
                std::string(function) + ": input '" + spec.name + "' must be " +
                    rt::describeShapeAndType(spec.shape, toDType(spec.dtype)) +
                    ", not " +
                    rt::describeShapeAndType(type->shape, type->dtype));
  return PLAIDML_OK;
}

extern "C" {

//===----------------------------------------------------------------------===//
// Compile options
//===----------------------------------------------------------------------===//

plaidml_status plaidml_compile_options_create(plaidml_compile_options **out) {
  if (!out)
    return failNull("plaidml_compile_options_create", "out");
  *out = new plaidml_compile_options();
  return PLAIDML_OK;
}

void plaidml_compile_options_destroy(plaidml_compile_options *options) {
  delete options;
}

plaidml_status
plaidml_compile_options_set_device(plaidml_compile_options *options,
                                   const char *device) {
  if (!options)
    return failNull("plaidml_compile_options_set_device", "options");
  if (!device)
    return failNull("plaidml_compile_options_set_device", "device");
  if (std::string(device) != "reference") {
    rt::StatusOr<rt::DeviceName> name = rt::parseDeviceName(device);
    if (!name.ok())
      return fail(PLAIDML_INVALID_ARGUMENT, name.message());
  }
  options->device = device;
  return PLAIDML_OK;
}

plaidml_status
plaidml_compile_options_set_threads(plaidml_compile_options *options,
                                    unsigned threads) {
  if (!options)
    return failNull("plaidml_compile_options_set_threads", "options");
  if (threads == 0)
    return fail(PLAIDML_INVALID_ARGUMENT,
                "plaidml_compile_options_set_threads: threads must be at "
                "least 1");
  options->threads = threads;
  return PLAIDML_OK;
}

plaidml_status
plaidml_compile_options_set_entry(plaidml_compile_options *options,
                                  const char *entry) {
  if (!options)
    return failNull("plaidml_compile_options_set_entry", "options");
  if (!entry)
    return failNull("plaidml_compile_options_set_entry", "entry");
  options->entry = entry;
  return PLAIDML_OK;
}

plaidml_status plaidml_compile_options_bind(plaidml_compile_options *options,
                                            const char *name,
                                            const char *type) {
  if (!options)
    return failNull("plaidml_compile_options_bind", "options");
  if (!name || !type)
    return failNull("plaidml_compile_options_bind", !name ? "name" : "type");
  options->bindings[name] = type;
  return PLAIDML_OK;
}

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

plaidml_status
plaidml_executable_compile(const char *source, const char *source_name,
                           const plaidml_compile_options *options,
                           plaidml_executable **out) {
  if (!source)
    return failNull("plaidml_executable_compile", "source");
  if (!out)
    return failNull("plaidml_executable_compile", "out");
  plaidml_compile_options defaults;
  if (!options)
    options = &defaults;
  auto p = std::make_unique<plaidml_executable>();
  p->device = options->device;
  if (p->device.empty()) {
    rt::StatusOr<std::string> device = rt::getDefaultDeviceName();
    if (!device.ok())
      return fail(PLAIDML_INVALID_ARGUMENT, device.message());
    p->device = *device;
  }
  std::string name =
      source_name && *source_name ? source_name : std::string("<program>");
  if (plaidml_status s = compileProgram(*p, source, name, *options))
    return s;
  *out = p.release();
  return PLAIDML_OK;
}

void plaidml_executable_destroy(plaidml_executable *program) { delete program; }

const char *plaidml_executable_device(const plaidml_executable *p) {
  return p ? p->device.c_str() : "";
}

const char *plaidml_executable_entry(const plaidml_executable *p) {
  return p ? p->entry.c_str() : "";
}

size_t plaidml_executable_num_inputs(const plaidml_executable *p) {
  return p ? p->inputs.size() : 0;
}

size_t plaidml_executable_num_outputs(const plaidml_executable *p) {
  return p ? p->outputs.size() : 0;
}

plaidml_status plaidml_executable_input(const plaidml_executable *p,
                                        size_t index, const char **name,
                                        plaidml_dtype *dtype, size_t *rank,
                                        const int64_t **shape) {
  // Not `p ? p->inputs : std::vector<...>()`: that copies the specs into
  // a temporary, and the returned name and shape would dangle.
  if (!p)
    return failNull("plaidml_executable_input", "program");
  return getSpec(p, p->inputs, index, "plaidml_executable_input", name, dtype,
                 rank, shape);
}

plaidml_status plaidml_executable_output(const plaidml_executable *p,
                                         size_t index, const char **name,
                                         plaidml_dtype *dtype, size_t *rank,
                                         const int64_t **shape) {
  // Not `p ? p->outputs : std::vector<...>()`: that copies the specs into
  // a temporary, and the returned name and shape would dangle.
  if (!p)
    return failNull("plaidml_executable_output", "program");
  return getSpec(p, p->outputs, index, "plaidml_executable_output", name, dtype,
                 rank, shape);
}

plaidml_status plaidml_executable_run(plaidml_executable *p, size_t num_inputs,
                                      plaidml_buffer *const *inputs,
                                      size_t num_outputs,
                                      plaidml_buffer **outputs) {
  const char *function = "plaidml_executable_run";
  if (plaidml_status status = capi::checkRunArity(p, function, num_inputs,
                                                  inputs, num_outputs, outputs))
    return status;
  std::vector<rt::HostArray> arrays;
  for (size_t i = 0; i < num_inputs; ++i) {
    if (plaidml_status status = capi::checkRunInput(
            *p, function, i, inputs[i] ? &inputs[i]->array : nullptr))
      return status;
    arrays.push_back(inputs[i]->array);
  }

  std::vector<rt::HostArray> results;
  if (plaidml_status status = capi::runOnHost(*p, arrays, results))
    return status;
  if (results.size() != num_outputs)
    return fail(PLAIDML_INTERNAL_ERROR,
                "plaidml_executable_run: the program produced " +
                    std::to_string(results.size()) + " outputs, expected " +
                    std::to_string(num_outputs));
  for (size_t i = 0; i < num_outputs; ++i) {
    outputs[i] = new plaidml_buffer();
    outputs[i]->array = std::move(results[i]);
  }
  return PLAIDML_OK;
}

} // extern "C"

plaidml_status capi::compileModuleText(const std::string &text,
                                       const std::string &name,
                                       const plaidml_compile_options *options,
                                       plaidml_executable **out) {
  return plaidml_executable_compile(text.c_str(), name.c_str(), options, out);
}
