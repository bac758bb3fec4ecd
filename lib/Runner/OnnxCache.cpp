//===- OnnxCache.cpp - ONNX models through the compile cache --------------===//
//
// compileOnnxModel: the model file's bytes key the entry
// (getCachedSourceArtifact), and the entry's side files are the runner's
// description of the model (JSON: the entry, the graph inputs, the outputs,
// the weights' specs and offsets) and the weights themselves, one after the
// other at 64-byte offsets, exactly as the importer made them (permuted to
// HWIO and all). Only in builds with the compiler.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runner/OnnxCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SHA256.h"

#include <cstring>

using namespace ::plaidml;
using namespace ::plaidml::run;
namespace json = llvm::json;
using mlir::plaidml::CachedSource;
using mlir::plaidml::ImportedSource;

namespace {
/// Bump when the importer's output or the description changes meaning in a
/// way the compiler build id would not catch.
constexpr const char *kImportKeyVersion = "onnx-import 1";
constexpr size_t kAlignment = 64;

json::Array toJSON(const std::vector<int64_t> &shape) {
  json::Array a;
  for (int64_t d : shape)
    a.push_back(d);
  return a;
}

json::Object toJSON(const std::string &name, rt::DType dtype,
                    const std::vector<int64_t> &shape) {
  return json::Object{{"name", name},
                      {"dtype", rt::getDTypeName(dtype)},
                      {"shape", toJSON(shape)}};
}

/// Reads a spec written by toJSON; false when it is malformed.
bool fromJSON(const json::Value *value, rt::TensorSpec &spec) {
  const json::Object *o = value ? value->getAsObject() : nullptr;
  if (!o)
    return false;
  std::optional<llvm::StringRef> name = o->getString("name"),
                                 dtype = o->getString("dtype");
  const json::Array *shape = o->getArray("shape");
  if (!name || !dtype || !shape)
    return false;
  std::optional<rt::DType> d = rt::parseDType(*dtype);
  if (!d)
    return false;
  spec.name = name->str();
  spec.dtype = *d;
  spec.shape.clear();
  for (const json::Value &v : *shape) {
    std::optional<int64_t> n = v.getAsInteger();
    if (!n || *n < 0)
      return false;
    spec.shape.push_back(*n);
  }
  return true;
}
} // namespace

rt::HostArray CachedOnnxModel::getParameter(size_t i) const {
  rt::HostArray a;
  a.dtype = parameters[i].dtype;
  a.shape = parameters[i].shape;
  const uint8_t *start =
      reinterpret_cast<const uint8_t *>(data->getBufferStart()) + offsets[i];
  a.bytes.assign(start, start + parameters[i].getByteSize());
  return a;
}

size_t CachedOnnxModel::getNumProgramInputs() const {
  return std::count(isProgramInput.begin(), isProgramInput.end(), true);
}

std::string plaidml::run::getOnnxImportKey(const onnx::ImportOptions &options) {
  std::string key = std::string(kImportKeyVersion) + "\nmax-constant " +
                    std::to_string(options.maxConstantElements) + "\nname " +
                    std::to_string(options.name.size()) + ":" + options.name +
                    "\nchannels-last " + (options.channelsLast ? "1" : "0");
  for (const auto &[name, array] : options.knownInputs)
    key += "\ninput " + std::to_string(name.size()) + ":" + name + " " +
           array.describe() + " " +
           llvm::toHex(llvm::SHA256::hash(array.bytes), /*LowerCase=*/true);
  return key;
}

ImportedSource
plaidml::run::describeOnnxModel(const onnx::ImportedModel &model) {
  ImportedSource source;
  source.programText = model.program.str();
  source.cacheable = !model.usesExternalData;
  json::Array inputs, outputs, parameters;
  for (auto [spec, isInput] :
       llvm::zip_equal(model.graphInputs, model.isProgramInput)) {
    json::Object o = toJSON(spec.name, spec.dtype, spec.shape);
    o["program"] = static_cast<bool>(isInput);
    inputs.push_back(std::move(o));
  }
  for (const std::string &name : model.outputNames)
    outputs.push_back(name);
  size_t size = 0;
  std::vector<size_t> offsets;
  for (const rt::HostArray &p : model.parameters) {
    size = (size + kAlignment - 1) / kAlignment * kAlignment;
    offsets.push_back(size);
    size += p.bytes.size();
  }
  for (auto [i, p] : llvm::enumerate(model.parameters)) {
    json::Object o =
        toJSON(i < model.parameterNames.size() ? model.parameterNames[i]
                                               : "arg" + std::to_string(i),
               p.dtype, p.shape);
    o["offset"] = static_cast<int64_t>(offsets[i]);
    parameters.push_back(std::move(o));
  }
  std::unique_ptr<llvm::WritableMemoryBuffer> data =
      llvm::WritableMemoryBuffer::getNewMemBuffer(size, "weights");
  for (auto [i, p] : llvm::enumerate(model.parameters))
    if (!p.bytes.empty())
      std::memcpy(data->getBufferStart() + offsets[i], p.bytes.data(),
                  p.bytes.size());
  source.data = std::move(data);
  json::Object description{{"entry", model.program.getName()},
                           {"inputs", std::move(inputs)},
                           {"outputs", std::move(outputs)},
                           {"parameters", std::move(parameters)}};
  source.description =
      llvm::formatv("{0:2}", json::Value(std::move(description))).str();
  return source;
}

rt::StatusOr<CachedOnnxModel> plaidml::run::readOnnxModel(CachedSource source) {
  auto malformed = [&](const std::string &why) {
    return rt::Status::failure("the description of '" + source.artifact.path +
                               "' is malformed: " + why);
  };
  llvm::Expected<json::Value> value =
      json::parse(source.description->getBuffer());
  if (!value)
    return malformed(llvm::toString(value.takeError()));
  const json::Object *o = value->getAsObject();
  if (!o)
    return malformed("not an object");
  CachedOnnxModel model;
  std::optional<llvm::StringRef> entry = o->getString("entry");
  const json::Array *inputs = o->getArray("inputs"),
                    *outputs = o->getArray("outputs"),
                    *parameters = o->getArray("parameters");
  if (!entry || !inputs || !outputs || !parameters)
    return malformed("a field is missing");
  model.entryName = entry->str();
  for (const json::Value &v : *inputs) {
    rt::TensorSpec spec;
    std::optional<bool> isInput =
        v.getAsObject() ? v.getAsObject()->getBoolean("program") : std::nullopt;
    if (!fromJSON(&v, spec) || !isInput)
      return malformed("an input");
    model.graphInputs.push_back(std::move(spec));
    model.isProgramInput.push_back(*isInput);
  }
  for (const json::Value &v : *outputs) {
    std::optional<llvm::StringRef> name = v.getAsString();
    if (!name)
      return malformed("an output");
    model.outputNames.push_back(name->str());
  }
  size_t size = source.data->getBufferSize();
  for (const json::Value &v : *parameters) {
    rt::TensorSpec spec;
    std::optional<int64_t> offset =
        v.getAsObject() ? v.getAsObject()->getInteger("offset") : std::nullopt;
    if (!fromJSON(&v, spec) || !offset || *offset < 0 ||
        static_cast<size_t>(*offset) > size ||
        spec.getByteSize() > size - static_cast<size_t>(*offset))
      return malformed("a weight");
    model.parameters.push_back(std::move(spec));
    model.offsets.push_back(static_cast<size_t>(*offset));
  }
  model.artifact = source.artifact;
  model.imported = source.imported;
  model.data = std::move(source.data);
  return model;
}

rt::StatusOr<CachedOnnxModel>
plaidml::run::compileOnnxModel(mlir::MLIRContext &context,
                               const std::string &path,
                               const onnx::ImportOptions &importOptions,
                               const mlir::plaidml::CompileOptions &options) {
  std::string importError;
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  auto import = [&](llvm::StringRef bytes) -> mlir::FailureOr<ImportedSource> {
    rt::StatusOr<std::unique_ptr<onnx::ImportedModel>> model =
        onnx::importOnnxBytes(bytes.str(), dir, importOptions);
    if (!model.ok()) {
      importError = path + ": " + model.message();
      return mlir::failure();
    }
    ImportedSource source = describeOnnxModel(**model);
    // A value given for an input the program takes (an image to run on)
    // would key a source entry, and its weights, per value: such a model is
    // compiled by its program's text instead (imported on every use, a hit
    // for every value), like a model with external data.
    for (size_t i = 0; i < (*model)->graphInputs.size(); ++i)
      if ((*model)->isProgramInput[i] &&
          importOptions.knownInputs.count((*model)->graphInputs[i].name))
        source.cacheable = false;
    return source;
  };
  mlir::FailureOr<CachedSource> source = mlir::plaidml::getCachedSourceArtifact(
      context, path, getOnnxImportKey(importOptions), options, import);
  if (failed(source))
    return rt::Status::failure(importError);
  mlir::plaidml::CachedArtifact artifact = source->artifact;
  rt::StatusOr<CachedOnnxModel> model = readOnnxModel(std::move(*source));
  if (!model.ok())
    mlir::plaidml::removeTemporaryArtifact(artifact);
  return model;
}
