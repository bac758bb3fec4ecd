//===- Importer.cpp - ONNX models to Tile programs ------------------------===//
//
// Parses the ModelProto, resolves the default-domain opset, turns graph
// inputs into placeholders (or import-time values when the options give
// them and an op reads them as shapes), initializers into host values, and
// walks the nodes in order, calling each op's handler. A node whose inputs
// are all host values (a shape computation) is folded: its handler builds it
// on constants and the reference interpreter evaluates it, so what follows
// sees a host value again. Host values become IR constants when small and
// parameters (program inputs whose data the model carries) when large.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "plaidml/EDSL/MLIR.h"
#include "plaidml/Reference/Interpreter.h"
#include "plaidml/Support/ElementTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

using namespace plaidml;
using namespace plaidml::onnx;
using namespace plaidml::onnx::detail;
namespace edsl = plaidml::edsl;

//===----------------------------------------------------------------------===//
// Element types and TensorProtos
//===----------------------------------------------------------------------===//

std::optional<DType> detail::toDType(int32_t t) {
  switch (t) {
  case ::onnx::TensorProto::FLOAT:
    return DType::f32;
  case ::onnx::TensorProto::UINT8:
    return DType::ui8;
  case ::onnx::TensorProto::INT8:
    return DType::si8;
  case ::onnx::TensorProto::UINT16:
    return DType::ui16;
  case ::onnx::TensorProto::INT16:
    return DType::si16;
  case ::onnx::TensorProto::INT32:
    return DType::si32;
  case ::onnx::TensorProto::INT64:
    return DType::si64;
  case ::onnx::TensorProto::BOOL:
    return DType::i1;
  case ::onnx::TensorProto::FLOAT16:
    return DType::f16;
  case ::onnx::TensorProto::DOUBLE:
    return DType::f64;
  case ::onnx::TensorProto::UINT32:
    return DType::ui32;
  case ::onnx::TensorProto::UINT64:
    return DType::ui64;
  case ::onnx::TensorProto::BFLOAT16:
    return DType::bf16;
  default:
    return std::nullopt;
  }
}

std::string detail::onnxTypeName(int32_t t) {
  static const char *names[] = {
      "UNDEFINED",      "FLOAT",      "UINT8",
      "INT8",           "UINT16",     "INT16",
      "INT32",          "INT64",      "STRING",
      "BOOL",           "FLOAT16",    "DOUBLE",
      "UINT32",         "UINT64",     "COMPLEX64",
      "COMPLEX128",     "BFLOAT16",   "FLOAT8E4M3FN",
      "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ",
      "UINT4",          "INT4",       "FLOAT4E2M1",
      "FLOAT8E8M0",     "UINT2",      "INT2"};
  if (t >= 0 && t < static_cast<int32_t>(sizeof(names) / sizeof(names[0])))
    return names[t];
  return "data type " + std::to_string(t);
}

int32_t detail::toOnnxType(DType d) {
  switch (d) {
  case DType::i1:
    return ::onnx::TensorProto::BOOL;
  case DType::si8:
    return ::onnx::TensorProto::INT8;
  case DType::si16:
    return ::onnx::TensorProto::INT16;
  case DType::si32:
    return ::onnx::TensorProto::INT32;
  case DType::si64:
    return ::onnx::TensorProto::INT64;
  case DType::ui8:
    return ::onnx::TensorProto::UINT8;
  case DType::ui16:
    return ::onnx::TensorProto::UINT16;
  case DType::ui32:
    return ::onnx::TensorProto::UINT32;
  case DType::ui64:
    return ::onnx::TensorProto::UINT64;
  case DType::f16:
    return ::onnx::TensorProto::FLOAT16;
  case DType::bf16:
    return ::onnx::TensorProto::BFLOAT16;
  case DType::f32:
    return ::onnx::TensorProto::FLOAT;
  case DType::f64:
    return ::onnx::TensorProto::DOUBLE;
  }
  return 0;
}

rt::HostArray detail::makeHostInts(DType dtype,
                                   const std::vector<int64_t> &shape,
                                   const std::vector<int64_t> &values) {
  rt::HostArray a = rt::makeArray(dtype, shape);
  for (int64_t i = 0, e = a.getNumElements(); i < e; ++i)
    rt::setElementFromInt(a, i, values[i]);
  return a;
}

std::vector<int64_t> detail::hostInts(const rt::HostArray &a) {
  std::vector<int64_t> r;
  for (int64_t i = 0, e = a.getNumElements(); i < e; ++i)
    r.push_back(rt::isFloatDType(a.dtype)
                    ? static_cast<int64_t>(rt::getElementAsDouble(a, i))
                    : rt::getElementAsInt(a, i));
  return r;
}

rt::HostArray detail::tensorFromProto(const ::onnx::TensorProto &p,
                                      const std::string &baseDir) {
  std::string what = "tensor '" + p.name() + "'";
  std::optional<DType> dtype = toDType(p.data_type());
  if (!dtype)
    throw ImportError(what + ": unsupported element type " +
                      onnxTypeName(p.data_type()));
  rt::HostArray a;
  a.dtype = *dtype;
  for (int64_t d : p.dims()) {
    if (d < 0)
      throw ImportError(what + ": negative dimension " + std::to_string(d));
    a.shape.push_back(d);
  }
  int64_t n = 1;
  for (int64_t d : a.shape) {
    if (d != 0 && n > (int64_t(1) << 40) / d)
      throw ImportError(what + ": too many elements");
    n *= d;
  }
  size_t size = rt::getDTypeSize(*dtype);
  a.bytes.assign(n * size, 0);
  auto fill = [&](auto count, auto get) {
    if (static_cast<int64_t>(count) != n)
      throw ImportError(what + " holds " + std::to_string(count) +
                        " values but its shape " + a.describe() + " needs " +
                        std::to_string(n));
    for (int64_t i = 0; i < n; ++i)
      get(i);
  };
  if (p.data_location() == ::onnx::TensorProto::EXTERNAL) {
    std::string location;
    int64_t offset = 0, length = -1;
    for (const auto &kv : p.external_data()) {
      if (kv.key() == "location")
        location = kv.value();
      else if (kv.key() == "offset")
        offset = std::stoll(kv.value());
      else if (kv.key() == "length")
        length = std::stoll(kv.value());
    }
    if (location.empty() || location.find("..") != std::string::npos ||
        location[0] == '/')
      throw ImportError(what + ": bad external data location '" + location +
                        "'");
    std::string path = baseDir.empty() ? location : baseDir + "/" + location;
    std::ifstream in(path, std::ios::binary);
    if (!in)
      throw ImportError(what + ": cannot read external data '" + path + "'");
    in.seekg(offset);
    if (length >= 0 && length != static_cast<int64_t>(a.bytes.size()))
      throw ImportError(what + ": external data of " + std::to_string(length) +
                        " bytes for " + a.describe());
    in.read(reinterpret_cast<char *>(a.bytes.data()), a.bytes.size());
    if (in.gcount() != static_cast<std::streamsize>(a.bytes.size()))
      throw ImportError(what + ": external data '" + path + "' is too short");
    return a;
  }
  if (p.has_raw_data()) {
    if (p.raw_data().size() != a.bytes.size())
      throw ImportError(what + ": raw data of " +
                        std::to_string(p.raw_data().size()) + " bytes for " +
                        a.describe());
    std::memcpy(a.bytes.data(), p.raw_data().data(), a.bytes.size());
    if (a.dtype == DType::i1)
      for (uint8_t &b : a.bytes)
        b = b != 0;
    return a;
  }
  switch (*dtype) {
  case DType::f32:
    fill(p.float_data_size(),
         [&](int64_t i) { rt::setElementFromDouble(a, i, p.float_data(i)); });
    break;
  case DType::f64:
    fill(p.double_data_size(),
         [&](int64_t i) { rt::setElementFromDouble(a, i, p.double_data(i)); });
    break;
  case DType::si64:
    fill(p.int64_data_size(),
         [&](int64_t i) { rt::setElementFromInt(a, i, p.int64_data(i)); });
    break;
  case DType::ui32:
  case DType::ui64:
    fill(p.uint64_data_size(), [&](int64_t i) {
      rt::setElementFromInt(a, i, static_cast<int64_t>(p.uint64_data(i)));
    });
    break;
  case DType::f16:
  case DType::bf16:
    // The 16 bits of each value, in int32_data.
    fill(p.int32_data_size(), [&](int64_t i) {
      uint16_t bits = static_cast<uint16_t>(p.int32_data(i));
      std::memcpy(a.bytes.data() + 2 * i, &bits, 2);
    });
    break;
  default:
    fill(p.int32_data_size(),
         [&](int64_t i) { rt::setElementFromInt(a, i, p.int32_data(i)); });
    break;
  }
  return a;
}

//===----------------------------------------------------------------------===//
// The importer
//===----------------------------------------------------------------------===//

namespace plaidml::onnx::detail {
class Importer {
public:
  Importer(const ImportOptions &options, std::string baseDir)
      : options(options), baseDir(std::move(baseDir)) {}

  std::unique_ptr<ImportedModel> run(const ::onnx::ModelProto &model);

  Value &lookup(const std::string &name, const NodeContext &ctx);
  Tensor materialize(Value &v, const std::string &name);
  void define(const std::string &name, Value v);
  /// Whether nodes are being folded (host values become constants).
  bool folding = false;
  /// Whether ops may compute channels-last (ImportOptions::channelsLast,
  /// and not while folding).
  bool channelsLastEnabled() const { return options.channelsLast && !folding; }
  const std::string &getBaseDir() const { return baseDir; }

private:
  void importNode(const ::onnx::NodeProto &node);
  bool tryFold(const ::onnx::NodeProto &node, const OpInfo &info,
               int64_t version);

  const ImportOptions &options;
  std::string baseDir;
  std::map<std::string, Value> values;
  std::vector<Tensor> inputTensors;
  std::vector<Tensor> paramTensors;
  std::vector<std::string> paramNames;
  std::vector<rt::HostArray> paramArrays;
  int64_t opset = 0;
};
} // namespace plaidml::onnx::detail

static std::string describeNode(const ::onnx::NodeProto &node) {
  std::string s = "node ";
  if (!node.name().empty())
    s += "'" + node.name() + "'";
  else if (node.output_size() > 0)
    s += "producing '" + node.output(0) + "'";
  else
    s += "#?";
  return s + " (" + node.op_type() + ")";
}

Value &Importer::lookup(const std::string &name, const NodeContext &ctx) {
  auto it = values.find(name);
  if (it == values.end())
    ctx.fail("input '" + name + "' is not defined before the node");
  return it->second;
}

void Importer::define(const std::string &name, Value v) {
  values[name] = std::move(v);
}

Tensor Importer::materialize(Value &v, const std::string &name) {
  if (!v.tensor.isNull())
    return v.tensor;
  if (!v.channelsLast.isNull()) {
    v.tensor = permuteTensor(v.channelsLast,
                             fromChannelsLast(v.channelsLast.getRank()));
    return v.tensor;
  }
  if (v.graphInput >= 0) {
    for (int64_t d : v.shape)
      if (d == 0)
        throw ImportError("graph input '" + name +
                          "' has a dimension of size 0, which PlaidML does "
                          "not support");
    v.tensor = edsl::Placeholder(v.dtype, v.shape, name);
    inputTensors[v.graphInput] = v.tensor;
    return v.tensor;
  }
  if (!v.host)
    throw ImportError("value '" + name + "' has no data");
  if (v.host->getNumElements() == 0)
    throw ImportError("value '" + name + "' is empty (" + v.host->describe() +
                      "), and PlaidML does not support tensors with a "
                      "dimension of size 0");
  if (folding || v.host->getNumElements() <= options.maxConstantElements) {
    Tensor t = edsl::Constant(*v.host, name);
    if (!folding)
      v.tensor = t;
    return t;
  }
  for (int64_t d : v.shape)
    if (d == 0)
      throw ImportError("constant '" + name + "' has a dimension of size 0");
  v.tensor = edsl::Placeholder(v.dtype, v.shape, name);
  paramTensors.push_back(v.tensor);
  paramNames.push_back(name);
  paramArrays.push_back(*v.host);
  return v.tensor;
}

/// A reference-interpreter buffer as a host array.
static rt::HostArray toHost(const mlir::plaidml::reference::Buffer &b) {
  std::optional<DType> d = mlir::plaidml::getRuntimeDType(b.getElementType());
  if (!d)
    throw ImportError("folding produced an unsupported element type");
  rt::HostArray a;
  a.dtype = *d;
  a.shape.assign(b.getType().getShape().begin(), b.getType().getShape().end());
  a.bytes = b.toBytes();
  return a;
}

bool Importer::tryFold(const ::onnx::NodeProto &node, const OpInfo &info,
                       int64_t version) {
  if (!info.foldable)
    return false;
  int64_t total = 0;
  bool any = false;
  for (const std::string &in : node.input()) {
    if (in.empty())
      continue;
    auto it = values.find(in);
    if (it == values.end() || !it->second.host)
      return false;
    total += it->second.host->getNumElements();
    any = true;
  }
  if (!any || total > (1 << 16))
    return false;
  // Build the node on constants, then evaluate it.
  std::map<std::string, Value> saved;
  for (const std::string &out : node.output())
    if (values.count(out))
      saved[out] = values[out];
  folding = true;
  NodeContext ctx(*this, node, version);
  try {
    info.handler(ctx);
  } catch (...) {
    folding = false;
    throw;
  }
  folding = false;
  std::vector<Tensor> outs;
  std::vector<std::string> names;
  for (const std::string &out : node.output()) {
    if (out.empty())
      continue;
    Value &v = values[out];
    if (v.host)
      continue; // already a host value (Shape, Constant)
    for (int64_t d : v.shape)
      if (d == 0)
        return true; // leave the empty tensor as it is
    outs.push_back(v.tensor);
    names.push_back(out);
  }
  if (outs.empty())
    return true;
  int64_t outElements = 0;
  for (const Tensor &t : outs) {
    int64_t n = 1;
    for (int64_t d : t.getShape())
      n *= d;
    outElements += n;
  }
  if (outElements > (1 << 16)) {
    // Too large to keep on the host: leave the node as built (on constants).
    return true;
  }
  edsl::Program program("fold", {}, outs);
  mlir::ModuleOp module = edsl::getModule(program);
  mlir::func::FuncOp fn;
  module.walk([&](mlir::func::FuncOp f) { fn = f; });
  std::string messages;
  mlir::ScopedDiagnosticHandler handler(edsl::getContext(),
                                        [&](mlir::Diagnostic &d) {
                                          messages += d.str();
                                          return mlir::success();
                                        });
  mlir::FailureOr<std::vector<mlir::plaidml::reference::Buffer>> results =
      mlir::plaidml::reference::evaluate(fn, {});
  if (mlir::failed(results))
    throw ImportError(describeNode(node) +
                      ": folding at import failed: " + messages);
  for (size_t i = 0; i < names.size(); ++i) {
    Value v;
    v.host = toHost((*results)[i]);
    v.dtype = v.host->dtype;
    v.shape = v.host->shape;
    values[names[i]] = std::move(v);
  }
  return true;
}

void Importer::importNode(const ::onnx::NodeProto &node) {
  std::string what = describeNode(node);
  if (!node.domain().empty() && node.domain() != "ai.onnx")
    throw ImportError(what + ": unsupported domain '" + node.domain() + "'");
  auto &registry = getRegistry();
  auto it = registry.find(node.op_type());
  if (it == registry.end())
    throw ImportError(what + ": unsupported op type '" + node.op_type() + "'");
  const OpInfo &info = it->second;
  int64_t version = 0;
  for (int64_t v : info.history)
    if (v <= opset)
      version = v;
  if (version == 0)
    throw ImportError(what + ": " + node.op_type() +
                      " does not exist in opset " + std::to_string(opset));
  if (std::find(info.supported.begin(), info.supported.end(), version) ==
      info.supported.end()) {
    std::string list;
    for (int64_t v : info.supported)
      list += (list.empty() ? "" : ", ") + std::to_string(v);
    throw ImportError(what + ": unsupported version " +
                      std::to_string(version) + " of " + node.op_type() +
                      " (opset " + std::to_string(opset) +
                      "; supported versions: " + list + ")");
  }
  try {
    if (tryFold(node, info, version))
      return;
    NodeContext ctx(*this, node, version);
    info.handler(ctx);
    for (int i = 0; i < node.output_size(); ++i)
      if (!node.output(i).empty() && !values.count(node.output(i)))
        ctx.fail("output " + std::to_string(i) + " ('" + node.output(i) +
                 "') is not supported");
  } catch (const ImportError &) {
    throw;
  } catch (const edsl::Error &e) {
    throw ImportError(what + ": " + e.what());
  }
}

std::unique_ptr<ImportedModel> Importer::run(const ::onnx::ModelProto &model) {
  bool found = false;
  for (const auto &op : model.opset_import()) {
    if (op.domain().empty() || op.domain() == "ai.onnx") {
      opset = op.version();
      found = true;
    }
  }
  if (!found)
    throw ImportError("the model imports no default-domain (ai.onnx) opset");
  if (opset < kMinOpset || opset > kMaxOpset)
    throw ImportError("unsupported opset " + std::to_string(opset) +
                      " (the importer takes opsets " +
                      std::to_string(kMinOpset) + " to " +
                      std::to_string(kMaxOpset) + ")");
  const ::onnx::GraphProto &g = model.graph();
  auto result = std::make_unique<ImportedModel>(
      ImportedModel{edsl::Program("empty", {}, {edsl::Tensor(0)}),
                    {},
                    {},
                    {},
                    {},
                    {},
                    {},
                    opset,
                    false});

  for (const ::onnx::TensorProto &init : g.initializer()) {
    Value v;
    v.host = tensorFromProto(init, baseDir);
    v.dtype = v.host->dtype;
    v.shape = v.host->shape;
    values[init.name()] = std::move(v);
  }
  if (g.sparse_initializer_size() > 0)
    throw ImportError("sparse initializers are not supported");

  // Graph inputs (an initializer of the same name is a default value: the
  // initializer wins, as for a constant).
  for (const ::onnx::ValueInfoProto &in : g.input()) {
    if (values.count(in.name()))
      continue;
    std::string what = "graph input '" + in.name() + "'";
    if (!in.type().has_tensor_type())
      throw ImportError(what + ": unsupported type (only tensors)");
    const auto &tt = in.type().tensor_type();
    std::optional<DType> dtype = toDType(tt.elem_type());
    if (!dtype)
      throw ImportError(what + ": unsupported element type " +
                        onnxTypeName(tt.elem_type()));
    Value v;
    v.dtype = *dtype;
    auto known = options.knownInputs.find(in.name());
    if (known != options.knownInputs.end()) {
      if (known->second.dtype != *dtype)
        throw ImportError(what + " is " + onnxTypeName(tt.elem_type()) +
                          " but the value given is " +
                          known->second.describe());
      v.known = known->second;
    }
    if (!tt.has_shape())
      throw ImportError(what + ": dynamic shape (the model gives no shape)");
    for (int d = 0; d < tt.shape().dim_size(); ++d) {
      const auto &dim = tt.shape().dim(d);
      if (dim.has_dim_value()) {
        v.shape.push_back(dim.dim_value());
      } else if (v.known && d < static_cast<int>(v.known->shape.size())) {
        v.shape.push_back(v.known->shape[d]);
      } else {
        throw ImportError(
            what + ": dynamic dimension " + std::to_string(d) +
            (dim.has_dim_param() ? " ('" + dim.dim_param() + "')" : "") +
            " (give the input's value to fix its shape)");
      }
    }
    if (v.known && v.known->shape != v.shape)
      throw ImportError(what + " has shape " +
                        rt::describeShapeAndType(v.shape, *dtype) +
                        " but the value given is " + v.known->describe());
    v.graphInput = static_cast<int>(result->graphInputs.size());
    result->graphInputs.push_back({in.name(), *dtype, v.shape});
    inputTensors.emplace_back();
    values[in.name()] = std::move(v);
  }

  for (int i = 0; i < g.node_size(); ++i)
    importNode(g.node(i));

  std::vector<Tensor> outputs;
  for (const ::onnx::ValueInfoProto &out : g.output()) {
    auto it = values.find(out.name());
    if (it == values.end())
      throw ImportError("graph output '" + out.name() + "' is not computed");
    Value &v = it->second;
    if (out.type().has_tensor_type() &&
        out.type().tensor_type().elem_type() != 0) {
      int32_t declared = out.type().tensor_type().elem_type();
      if (declared != toOnnxType(v.dtype))
        throw ImportError("graph output '" + out.name() + "' is declared " +
                          onnxTypeName(declared) + " but computes " +
                          onnxTypeName(toOnnxType(v.dtype)));
    }
    for (int64_t d : v.shape)
      if (d == 0)
        throw ImportError("graph output '" + out.name() +
                          "' has a dimension of size 0, which PlaidML does "
                          "not support");
    // An output that is a host value is materialized as a constant, never a
    // parameter (the program computes it).
    if (v.tensor.isNull() && v.host) {
      v.tensor = edsl::Constant(*v.host, out.name());
    }
    outputs.push_back(materialize(v, out.name()));
    result->outputNames.push_back(out.name());
  }
  if (outputs.empty())
    throw ImportError("the graph has no outputs");

  std::vector<Tensor> programInputs;
  for (size_t i = 0; i < inputTensors.size(); ++i) {
    result->isProgramInput.push_back(!inputTensors[i].isNull());
    if (!inputTensors[i].isNull()) {
      programInputs.push_back(inputTensors[i]);
      result->inputNames.push_back(result->graphInputs[i].name);
    }
  }
  result->parameterNames = paramNames;
  result->parameters = paramArrays;
  result->program =
      edsl::Program(options.name, programInputs, outputs, paramTensors);
  return result;
}

//===----------------------------------------------------------------------===//
// NodeContext
//===----------------------------------------------------------------------===//

NodeContext::NodeContext(Importer &importer, const ::onnx::NodeProto &node,
                         int64_t version)
    : imp(importer), n(node), ver(version) {}

bool NodeContext::has(size_t i) const {
  return i < static_cast<size_t>(n.input_size()) && !n.input(i).empty();
}

bool NodeContext::hasOutput(size_t i) const {
  return i < static_cast<size_t>(n.output_size()) && !n.output(i).empty();
}

const Value &NodeContext::value(size_t i) {
  if (!has(i))
    fail("input " + std::to_string(i) + " is missing");
  return imp.lookup(n.input(i), *this);
}

Tensor NodeContext::input(size_t i) {
  if (!has(i))
    fail("input " + std::to_string(i) + " is missing");
  return imp.materialize(imp.lookup(n.input(i), *this), n.input(i));
}

bool NodeContext::isConstant(size_t i) {
  if (!has(i))
    return false;
  const Value &v = imp.lookup(n.input(i), *this);
  return v.host || v.known;
}

bool NodeContext::isChannelsLast(size_t i) {
  return has(i) && !imp.lookup(n.input(i), *this).channelsLast.isNull();
}

bool NodeContext::channelsLastEnabled() const {
  return imp.channelsLastEnabled();
}

Tensor NodeContext::inputChannelsLast(size_t i) {
  Value &v = imp.lookup(n.input(i), *this);
  if (!v.channelsLast.isNull())
    return v.channelsLast;
  int64_t rank = static_cast<int64_t>(v.shape.size());
  if (rank < 3 || rank > 5)
    fail("input " + std::to_string(i) + " has rank " + std::to_string(rank) +
         ", not 3 to 5 as a channels-last value");
  Tensor t = inputPermuted(i, toChannelsLast(rank));
  if (!imp.folding)
    v.channelsLast = t;
  return t;
}

Tensor NodeContext::inputPermuted(size_t i, const std::vector<int64_t> &perm) {
  if (!has(i))
    fail("input " + std::to_string(i) + " is missing");
  Value &v = imp.lookup(n.input(i), *this);
  for (const auto &[p, t] : v.permuted)
    if (p == perm)
      return t;
  Tensor t;
  if (v.host && !imp.folding) {
    Value pv;
    pv.host = permuteHost(*v.host, perm);
    pv.dtype = v.dtype;
    pv.shape = pv.host->shape;
    std::string name = n.input(i) + ".transposed(";
    for (size_t a = 0; a < perm.size(); ++a)
      name += (a ? "," : "") + std::to_string(perm[a]);
    t = imp.materialize(pv, name + ")");
  } else {
    t = permuteTensor(input(i), perm);
  }
  if (!imp.folding)
    v.permuted.emplace_back(perm, t);
  return t;
}

Tensor NodeContext::hostTensor(rt::HostArray array, const std::string &suffix) {
  Value v;
  v.dtype = array.dtype;
  v.shape = array.shape;
  v.host = std::move(array);
  std::string base = n.output_size() > 0 ? n.output(0) : n.name();
  return imp.materialize(v, base + "." + suffix);
}

void NodeContext::setOutputChannelsLast(size_t i, const Tensor &t) {
  if (!hasOutput(i))
    return;
  std::vector<int64_t> back = fromChannelsLast(t.getRank());
  std::vector<int64_t> shape = t.getShape();
  Value v;
  v.dtype = t.getDType();
  for (int64_t a : back)
    v.shape.push_back(shape[a]);
  if (imp.folding)
    v.tensor = permuteTensor(t, back); // tryFold reads `tensor`
  else
    v.channelsLast = t;
  imp.define(n.output(i), std::move(v));
}

std::optional<std::vector<Tensor>> NodeContext::elementwiseChannelsLast() {
  if (!channelsLastEnabled())
    return std::nullopt;
  size_t rank = 0;
  for (size_t i = 0; i < numInputs(); ++i)
    if (has(i))
      rank = std::max(rank, value(i).shape.size());
  if (rank < 3 || rank > 5)
    return std::nullopt;
  bool any = false;
  for (size_t i = 0; i < numInputs(); ++i)
    if (has(i)) {
      const Value &v = value(i);
      any |= v.shape.size() == rank && !v.channelsLast.isNull() &&
             v.tensor.isNull();
    }
  if (!any)
    return std::nullopt;
  std::vector<int64_t> perm = toChannelsLast(rank);
  std::vector<Tensor> out;
  for (size_t i = 0; i < numInputs(); ++i) {
    if (!has(i)) {
      out.emplace_back();
      continue;
    }
    const Value &v = value(i);
    if (v.shape.size() == rank) {
      out.push_back(inputChannelsLast(i));
      continue;
    }
    Tensor x = input(i);
    if (v.shape.empty()) {
      out.push_back(x); // a scalar broadcasts as it is
      continue;
    }
    // Aligned to the right as ONNX broadcasts, then permuted (a
    // per-channel [C, 1, 1] becomes [1, 1, 1, C], a reshape).
    std::vector<int64_t> aligned(rank - v.shape.size(), 1);
    aligned.insert(aligned.end(), v.shape.begin(), v.shape.end());
    out.push_back(permuteTensor(edsl::reshape(x, aligned), perm));
  }
  return out;
}

const rt::HostArray &NodeContext::constant(size_t i, const char *what) {
  if (!has(i))
    fail(std::string("input ") + std::to_string(i) + " (" + what +
         ") is missing");
  const Value &v = imp.lookup(n.input(i), *this);
  if (v.host)
    return *v.host;
  if (v.known)
    return *v.known;
  fail(std::string("dynamic ") + what + ": input " + std::to_string(i) + " ('" +
       n.input(i) +
       "') must be known at import time (an initializer, a constant or a "
       "computation on shapes" +
       (v.graphInput >= 0 ? "; it is a graph input: give its value" : "") +
       ")");
}

std::vector<int64_t> NodeContext::ints(size_t i, const char *what) {
  const rt::HostArray &a = constant(i, what);
  if (rt::isFloatDType(a.dtype))
    fail(std::string(what) + " must be integers, got " + a.describe());
  return hostInts(a);
}

static const ::onnx::AttributeProto *findAttr(const ::onnx::NodeProto &n,
                                              const std::string &name) {
  for (const auto &a : n.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

bool NodeContext::hasAttr(const std::string &name) const {
  return findAttr(n, name) != nullptr;
}

int64_t NodeContext::attrInt(const std::string &name, int64_t fallback) const {
  const auto *a = findAttr(n, name);
  if (!a)
    return fallback;
  if (a->type() != ::onnx::AttributeProto::INT)
    fail("attribute '" + name + "' must be an integer");
  return a->i();
}

double NodeContext::attrFloat(const std::string &name, double fallback) const {
  const auto *a = findAttr(n, name);
  if (!a)
    return fallback;
  if (a->type() != ::onnx::AttributeProto::FLOAT)
    fail("attribute '" + name + "' must be a float");
  return a->f();
}

std::string NodeContext::attrString(const std::string &name,
                                    const std::string &fallback) const {
  const auto *a = findAttr(n, name);
  if (!a)
    return fallback;
  if (a->type() != ::onnx::AttributeProto::STRING)
    fail("attribute '" + name + "' must be a string");
  return a->s();
}

std::vector<int64_t>
NodeContext::attrInts(const std::string &name,
                      std::vector<int64_t> fallback) const {
  const auto *a = findAttr(n, name);
  if (!a)
    return fallback;
  if (a->type() != ::onnx::AttributeProto::INTS)
    fail("attribute '" + name + "' must be a list of integers");
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

std::vector<double> NodeContext::attrFloats(const std::string &name) const {
  const auto *a = findAttr(n, name);
  if (!a)
    return {};
  if (a->type() != ::onnx::AttributeProto::FLOATS)
    fail("attribute '" + name + "' must be a list of floats");
  return std::vector<double>(a->floats().begin(), a->floats().end());
}

const ::onnx::TensorProto *
NodeContext::attrTensor(const std::string &name) const {
  const auto *a = findAttr(n, name);
  if (!a)
    return nullptr;
  if (a->type() != ::onnx::AttributeProto::TENSOR)
    fail("attribute '" + name + "' must be a tensor");
  return &a->t();
}

void NodeContext::checkAttrs(std::initializer_list<const char *> known) const {
  for (const auto &a : n.attribute()) {
    bool ok = false;
    for (const char *k : known)
      ok |= a.name() == k;
    if (!ok)
      unsupported("attribute '" + a.name() + "'");
  }
}

void NodeContext::fail(const std::string &message) const {
  throw ImportError(describeNode(n) + ": " + message);
}

void NodeContext::unsupported(const std::string &what) const {
  fail("unsupported " + what);
}

void NodeContext::setOutput(size_t i, const Tensor &t) {
  if (!hasOutput(i))
    return;
  Value v;
  v.tensor = t;
  v.dtype = t.getDType();
  v.shape = t.getShape();
  imp.define(n.output(i), std::move(v));
}

void NodeContext::setHostOutput(size_t i, rt::HostArray array) {
  if (!hasOutput(i))
    return;
  Value v;
  v.dtype = array.dtype;
  v.shape = array.shape;
  v.host = std::move(array);
  imp.define(n.output(i), std::move(v));
}

std::vector<int64_t> detail::toChannelsLast(int64_t rank) {
  std::vector<int64_t> perm{0};
  for (int64_t a = 2; a < rank; ++a)
    perm.push_back(a);
  perm.push_back(1);
  return perm;
}

std::vector<int64_t> detail::fromChannelsLast(int64_t rank) {
  std::vector<int64_t> perm{0, rank - 1};
  for (int64_t a = 1; a + 1 < rank; ++a)
    perm.push_back(a);
  return perm;
}

int64_t detail::channelsLastAxis(int64_t axis, int64_t rank) {
  return axis == 0 ? 0 : axis == 1 ? rank - 1 : axis - 1;
}

Tensor detail::permuteTensor(const Tensor &x,
                             const std::vector<int64_t> &perm) {
  // A permutation that keeps the axes larger than 1 in their order moves
  // no data: a reshape ([N, 1, 1, C] <-> [N, C, 1, 1]).
  std::vector<int64_t> shape = x.getShape(), permuted, order;
  for (int64_t a : perm) {
    permuted.push_back(shape[a]);
    if (shape[a] != 1)
      order.push_back(a);
  }
  if (std::is_sorted(order.begin(), order.end()))
    return edsl::reshape(x, permuted);
  return op::transpose(x, perm);
}

/// permuteHost's walk for elements of `T` (a plain copy per element).
template <typename T>
static void permuteElements(const T *in, T *out,
                            const std::vector<int64_t> &inShape,
                            const std::vector<int64_t> &outShape,
                            const std::vector<int64_t> &perm) {
  size_t rank = inShape.size();
  if (rank == 0) {
    out[0] = in[0];
    return;
  }
  std::vector<int64_t> stride(rank, 1); // of the input, in elements
  for (size_t a = rank; a-- > 1;)
    stride[a - 1] = stride[a] * inShape[a];
  int64_t total = 1;
  for (int64_t d : outShape)
    total *= d;
  // Walk the output in order, keeping the input offset of its index; the
  // innermost output axis is a strided run.
  std::vector<int64_t> idx(rank, 0);
  int64_t inner = outShape[rank - 1];
  int64_t innerStride = stride[perm[rank - 1]];
  int64_t from = 0;
  for (int64_t e = 0; e < total; e += inner) {
    const T *src = in + from;
    for (int64_t k = 0; k < inner; ++k)
      out[e + k] = src[k * innerStride];
    for (size_t j = rank - 1; j-- > 0;) {
      int64_t s = stride[perm[j]];
      if (++idx[j] < outShape[j]) {
        from += s;
        break;
      }
      from -= (outShape[j] - 1) * s;
      idx[j] = 0;
    }
  }
}

rt::HostArray detail::permuteHost(const rt::HostArray &array,
                                  const std::vector<int64_t> &perm) {
  rt::HostArray r;
  r.dtype = array.dtype;
  for (int64_t a : perm)
    r.shape.push_back(array.shape[a]);
  r.bytes.resize(array.bytes.size());
  const uint8_t *in = array.bytes.data();
  uint8_t *out = r.bytes.data();
  switch (rt::getDTypeSize(array.dtype)) {
  case 1:
    permuteElements(in, out, array.shape, r.shape, perm);
    break;
  case 2:
    permuteElements(reinterpret_cast<const uint16_t *>(in),
                    reinterpret_cast<uint16_t *>(out), array.shape, r.shape,
                    perm);
    break;
  case 4:
    permuteElements(reinterpret_cast<const uint32_t *>(in),
                    reinterpret_cast<uint32_t *>(out), array.shape, r.shape,
                    perm);
    break;
  default: // 8
    permuteElements(reinterpret_cast<const uint64_t *>(in),
                    reinterpret_cast<uint64_t *>(out), array.shape, r.shape,
                    perm);
    break;
  }
  return r;
}

int64_t detail::normAxis(NodeContext &ctx, int64_t axis, int64_t rank,
                         const char *what) {
  if (axis < -rank || axis >= std::max<int64_t>(rank, 1))
    ctx.fail(std::string(what) + " " + std::to_string(axis) +
             " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

void detail::registerOp(const char *name, std::vector<int64_t> history,
                        Handler h, bool foldable) {
  OpInfo info;
  info.handler = std::move(h);
  // The since-versions in force from opset kMinOpset on.
  for (size_t i = 0; i < history.size(); ++i)
    if (i + 1 == history.size() || history[i + 1] > kMinOpset)
      info.supported.push_back(history[i]);
  info.history = std::move(history);
  info.foldable = foldable;
  getRegistry()[name] = std::move(info);
}

std::map<std::string, OpInfo> &detail::getRegistry() {
  static std::map<std::string, OpInfo> registry;
  static bool initialized = false;
  if (!initialized) {
    initialized = true;
    registerElementwiseOps();
    registerNNOps();
    registerShapeOps();
    registerReduceOps();
    registerResizeOps();
  }
  return registry;
}

//===----------------------------------------------------------------------===//
// The API
//===----------------------------------------------------------------------===//

/// Whether a tensor of `g` (its initializers, the tensor attributes of its
/// nodes, their subgraphs) keeps its data in an external file.
static bool hasExternalData(const ::onnx::GraphProto &g) {
  auto external = [](const ::onnx::TensorProto &t) {
    return t.data_location() == ::onnx::TensorProto::EXTERNAL;
  };
  for (const ::onnx::TensorProto &t : g.initializer())
    if (external(t))
      return true;
  for (const ::onnx::NodeProto &n : g.node())
    for (const ::onnx::AttributeProto &a : n.attribute()) {
      if (a.has_t() && external(a.t()))
        return true;
      for (const ::onnx::TensorProto &t : a.tensors())
        if (external(t))
          return true;
      if (a.has_g() && hasExternalData(a.g()))
        return true;
      for (const ::onnx::GraphProto &sub : a.graphs())
        if (hasExternalData(sub))
          return true;
    }
  return false;
}

rt::StatusOr<std::unique_ptr<ImportedModel>>
plaidml::onnx::importOnnxBytes(const std::string &bytes,
                               const std::string &baseDir,
                               const ImportOptions &options) {
  ::onnx::ModelProto model;
  if (!model.ParseFromString(bytes))
    return rt::Status::failure("not a valid ONNX model (the protobuf does not "
                               "parse)");
  try {
    Importer importer(options, baseDir);
    std::unique_ptr<ImportedModel> result = importer.run(model);
    result->usesExternalData = hasExternalData(model.graph());
    return result;
  } catch (const ImportError &e) {
    return rt::Status::failure(e.what());
  } catch (const edsl::Error &e) {
    return rt::Status::failure(e.what());
  }
}

static bool readFile(const std::string &path, std::string &bytes,
                     std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read '" + path + "': " + std::strerror(errno);
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  bytes = ss.str();
  return true;
}

rt::StatusOr<std::unique_ptr<ImportedModel>>
plaidml::onnx::importOnnxFile(const std::string &path,
                              const ImportOptions &options) {
  std::string bytes, error;
  if (!readFile(path, bytes, error))
    return rt::Status::failure(error);
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  rt::StatusOr<std::unique_ptr<ImportedModel>> r =
      importOnnxBytes(bytes, dir, options);
  if (!r.ok())
    return rt::Status::failure(path + ": " + r.message());
  return r;
}

rt::StatusOr<rt::HostArray>
plaidml::onnx::readTensorProtoFile(const std::string &path, std::string *name) {
  std::string bytes, error;
  if (!readFile(path, bytes, error))
    return rt::Status::failure(error);
  ::onnx::TensorProto proto;
  if (!proto.ParseFromString(bytes))
    return rt::Status::failure(path + ": not a TensorProto");
  if (name)
    *name = proto.name();
  size_t slash = path.rfind('/');
  try {
    return tensorFromProto(
        proto, slash == std::string::npos ? "." : path.substr(0, slash));
  } catch (const ImportError &e) {
    return rt::Status::failure(path + ": " + e.what());
  }
}

std::vector<std::string> plaidml::onnx::getSupportedOps() {
  std::vector<std::string> r;
  for (const auto &kv : getRegistry())
    r.push_back(kv.first);
  return r;
}
