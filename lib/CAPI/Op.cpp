//===- Op.cpp - C API: the op library by name -----------------------------===//
//
// include/plaidml-c/op.h over include/plaidml/Op/Op.h. plaidml_attrs is a
// map from names to typed values; plaidml_op_apply looks the op up in one
// table, whose entries read their inputs and attributes through an
// OpCall that records which attributes were read, so an attribute nobody
// reads (a misspelling) is an error instead of being ignored. Enumerated
// options (padding, layouts, modes) are strings. Exceptions of the op
// library become PLAIDML_BUILD_ERROR, as in EDSL.cpp.
//
//===----------------------------------------------------------------------===//

#include "EDSLHandles.h"
#include "Internal.h"

#include "plaidml-c/op.h"

#include "plaidml/Op/Op.h"

#include <functional>
#include <map>
#include <set>
#include <variant>

using namespace plaidml;
using namespace plaidml::capi;

struct plaidml_attrs {
  using Value = std::variant<int64_t, std::vector<int64_t>, double, std::string,
                             edsl::Tensor>;
  std::map<std::string, Value> values;
};

namespace {
/// A failure of an op call: the status and its message.
struct CallError {
  plaidml_status status;
  std::string message;
};

/// The inputs and attributes of one op call.
class OpCall {
public:
  OpCall(std::string op, std::vector<edsl::Tensor> inputs,
         const plaidml_attrs *attrs)
      : op(std::move(op)), inputs(std::move(inputs)), attrs(attrs) {}

  size_t numInputs() const { return inputs.size(); }
  /// Input `i`; a missing one throws CallError.
  const edsl::Tensor &input(size_t i) const {
    if (i >= inputs.size())
      throw CallError{PLAIDML_INVALID_ARGUMENT,
                      "'" + op + "' needs input #" + std::to_string(i) +
                          " but was given " + std::to_string(inputs.size())};
    return inputs[i];
  }
  /// Input `i` or a null tensor.
  edsl::Tensor optionalInput(size_t i) const {
    return i < inputs.size() ? inputs[i] : edsl::Tensor();
  }
  /// Requires between `lo` and `hi` inputs.
  void expectInputs(size_t lo, size_t hi) const {
    if (inputs.size() < lo || inputs.size() > hi)
      throw CallError{
          PLAIDML_INVALID_ARGUMENT,
          "'" + op + "' takes " +
              (lo == hi ? std::to_string(lo)
                        : std::to_string(lo) + " to " + std::to_string(hi)) +
              " inputs, but " + std::to_string(inputs.size()) + " were given"};
  }

  int64_t getInt(const std::string &name, int64_t otherwise) {
    const plaidml_attrs::Value *v = find(name);
    if (!v)
      return otherwise;
    if (auto *i = std::get_if<int64_t>(v))
      return *i;
    throw wrongKind(name, "an integer");
  }
  bool getBool(const std::string &name, bool otherwise) {
    return getInt(name, otherwise) != 0;
  }
  std::vector<int64_t> getInts(const std::string &name,
                               std::vector<int64_t> otherwise = {}) {
    const plaidml_attrs::Value *v = find(name);
    if (!v)
      return otherwise;
    if (auto *i = std::get_if<std::vector<int64_t>>(v))
      return *i;
    if (auto *i = std::get_if<int64_t>(v))
      return {*i};
    throw wrongKind(name, "a list of integers");
  }
  double getFloat(const std::string &name, double otherwise) {
    const plaidml_attrs::Value *v = find(name);
    if (!v)
      return otherwise;
    if (auto *d = std::get_if<double>(v))
      return *d;
    if (auto *i = std::get_if<int64_t>(v))
      return static_cast<double>(*i);
    throw wrongKind(name, "a number");
  }
  std::string getString(const std::string &name, const std::string &otherwise) {
    const plaidml_attrs::Value *v = find(name);
    if (!v)
      return otherwise;
    if (auto *s = std::get_if<std::string>(v))
      return *s;
    throw wrongKind(name, "a string");
  }
  edsl::Tensor getTensor(const std::string &name) {
    const plaidml_attrs::Value *v = find(name);
    if (!v)
      return edsl::Tensor();
    if (auto *t = std::get_if<edsl::Tensor>(v))
      return *t;
    throw wrongKind(name, "a tensor");
  }
  /// A string attribute that must be one of `choices` (mapped to T).
  template <typename T>
  T getChoice(const std::string &name, T otherwise,
              const std::vector<std::pair<std::string, T>> &choices) {
    if (!find(name))
      return otherwise;
    std::string value = getString(name, "");
    std::string known;
    for (const auto &[text, t] : choices) {
      if (text == value)
        return t;
      known += (known.empty() ? "" : ", ") + text;
    }
    throw CallError{PLAIDML_INVALID_ARGUMENT,
                    "attribute '" + name + "' of '" + op + "' is '" + value +
                        "'; expected one of " + known};
  }
  /// Fails on attributes no getter read.
  void checkAllUsed() const {
    if (!attrs)
      return;
    for (const auto &[name, value] : attrs->values)
      if (!used.count(name))
        throw CallError{PLAIDML_INVALID_ARGUMENT,
                        "'" + op + "' has no attribute '" + name + "'"};
  }

private:
  const plaidml_attrs::Value *find(const std::string &name) {
    used.insert(name);
    if (!attrs)
      return nullptr;
    auto it = attrs->values.find(name);
    return it == attrs->values.end() ? nullptr : &it->second;
  }
  CallError wrongKind(const std::string &name, const char *kind) const {
    return CallError{PLAIDML_INVALID_ARGUMENT, "attribute '" + name + "' of '" +
                                                   op + "' must be " + kind};
  }

  std::string op;
  std::vector<edsl::Tensor> inputs;
  const plaidml_attrs *attrs;
  std::set<std::string> used;
};

using Results = std::vector<edsl::Tensor>;
using OpFn = std::function<Results(OpCall &)>;

op::Padding getPadding(OpCall &c) {
  return c.getChoice<op::Padding>("padding", op::Padding::Valid,
                                  {{"valid", op::Padding::Valid},
                                   {"same_upper", op::Padding::SameUpper},
                                   {"same_lower", op::Padding::SameLower},
                                   {"explicit", op::Padding::Explicit}});
}
op::DataLayout getLayout(OpCall &c, op::DataLayout otherwise) {
  return c.getChoice<op::DataLayout>(
      "layout", otherwise,
      {{"nxc", op::DataLayout::NXC}, {"ncx", op::DataLayout::NCX}});
}
op::FilterLayout getFilterLayout(OpCall &c) {
  return c.getChoice<op::FilterLayout>(
      "filter_layout", op::FilterLayout::XIO,
      {{"xio", op::FilterLayout::XIO}, {"oix", op::FilterLayout::OIX}});
}
op::PoolMode getPoolMode(OpCall &c) {
  return c.getChoice<op::PoolMode>(
      "mode", op::PoolMode::Max,
      {{"max", op::PoolMode::Max}, {"average", op::PoolMode::Average}});
}

/// A reduction over `axes` with `keepdims`.
OpFn reduction(op::ReduceKind kind) {
  return [kind](OpCall &c) -> Results {
    c.expectInputs(1, 1);
    return {op::reduce(c.input(0), kind, c.getInts("axes"),
                       c.getBool("keepdims", false))};
  };
}

/// A one-input op without attributes.
OpFn unary(edsl::Tensor (*fn)(const edsl::Tensor &)) {
  return [fn](OpCall &c) -> Results {
    c.expectInputs(1, 1);
    return {fn(c.input(0))};
  };
}

const std::map<std::string, OpFn> &getOps() {
  static const std::map<std::string, OpFn> ops = {
      {"convolution",
       [](OpCall &c) -> Results {
         c.expectInputs(2, 3);
         op::ConvOptions o;
         o.strides = c.getInts("strides");
         o.dilations = c.getInts("dilations");
         o.padding = getPadding(c);
         o.pads = c.getInts("pads");
         o.groups = c.getInt("groups", 1);
         o.layout = getLayout(c, op::DataLayout::NXC);
         o.filterLayout = getFilterLayout(c);
         o.bias = c.optionalInput(2);
         return {op::convolution(c.input(0), c.input(1), o)};
       }},
      {"convolution_transpose",
       [](OpCall &c) -> Results {
         c.expectInputs(2, 3);
         op::ConvTransposeOptions o;
         o.strides = c.getInts("strides");
         o.dilations = c.getInts("dilations");
         o.pads = c.getInts("pads");
         o.outputPadding = c.getInts("output_padding");
         o.layout = getLayout(c, op::DataLayout::NXC);
         o.filterLayout = getFilterLayout(c);
         o.bias = c.optionalInput(2);
         return {op::convolution_transpose(c.input(0), c.input(1), o)};
       }},
      {"pool",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         op::PoolOptions o;
         o.window = c.getInts("window");
         o.strides = c.getInts("strides");
         o.padding = getPadding(c);
         o.pads = c.getInts("pads");
         o.layout = getLayout(c, op::DataLayout::NXC);
         o.countIncludePad = c.getBool("count_include_pad", false);
         return {op::pool(c.input(0), getPoolMode(c), o)};
       }},
      {"global_pool",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         return {op::global_pool(c.input(0), getPoolMode(c),
                                 getLayout(c, op::DataLayout::NXC))};
       }},
      {"matmul",
       [](OpCall &c) -> Results {
         c.expectInputs(2, 2);
         return {op::matmul(c.input(0), c.input(1))};
       }},
      {"dense",
       [](OpCall &c) -> Results {
         c.expectInputs(2, 3);
         return {op::dense(c.input(0), c.input(1), c.optionalInput(2))};
       }},
      {"gemm",
       [](OpCall &c) -> Results {
         c.expectInputs(2, 3);
         return {op::gemm(c.input(0), c.input(1), c.optionalInput(2),
                          c.getFloat("alpha", 1.0), c.getFloat("beta", 1.0),
                          c.getBool("trans_a", false),
                          c.getBool("trans_b", false))};
       }},
      {"batch_norm",
       [](OpCall &c) -> Results {
         c.expectInputs(5, 5);
         return {op::batch_norm(c.input(0), c.input(1), c.input(2), c.input(3),
                                c.input(4), c.getFloat("epsilon", 1e-5),
                                c.getInt("axis", -1))};
       }},
      {"layer_norm",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 3);
         return {op::layer_norm(c.input(0), c.getInts("axes"),
                                c.optionalInput(1), c.optionalInput(2),
                                c.getFloat("epsilon", 1e-5))};
       }},
      {"group_norm",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 3);
         return {op::group_norm(c.input(0), c.getInt("groups", 1),
                                c.optionalInput(1), c.optionalInput(2),
                                c.getFloat("epsilon", 1e-5),
                                getLayout(c, op::DataLayout::NCX))};
       }},
      {"instance_norm",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 3);
         return {op::instance_norm(
             c.input(0), c.optionalInput(1), c.optionalInput(2),
             c.getFloat("epsilon", 1e-5), getLayout(c, op::DataLayout::NCX))};
       }},
      {"relu", unary(op::relu)},
      {"relu6", unary(op::relu6)},
      {"sigmoid", unary(op::sigmoid)},
      {"hard_swish", unary(op::hard_swish)},
      {"swish", unary(op::swish)},
      {"tanh", unary(op::tanh)},
      {"clip",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         return {op::clip(c.input(0), c.getFloat("min", 0.0),
                          c.getFloat("max", 6.0))};
       }},
      {"leaky_relu",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         return {op::leaky_relu(c.input(0), c.getFloat("alpha", 0.01))};
       }},
      {"elu",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         return {op::elu(c.input(0), c.getFloat("alpha", 1.0))};
       }},
      {"hard_sigmoid",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         return {op::hard_sigmoid(c.input(0), c.getFloat("alpha", 0.2),
                                  c.getFloat("beta", 0.5))};
       }},
      {"gelu",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         return {op::gelu(c.input(0), c.getBool("approximate_tanh", false))};
       }},
      {"softmax",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         return {op::softmax(c.input(0), c.getInt("axis", -1))};
       }},
      {"log_softmax",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         return {op::log_softmax(c.input(0), c.getInt("axis", -1))};
       }},
      {"sum", reduction(op::ReduceKind::Sum)},
      {"mean", reduction(op::ReduceKind::Mean)},
      {"max", reduction(op::ReduceKind::Max)},
      {"min", reduction(op::ReduceKind::Min)},
      {"prod", reduction(op::ReduceKind::Prod)},
      {"cumsum",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         return {op::cumsum(c.input(0), c.getInt("axis", 0),
                            c.getBool("exclusive", false))};
       }},
      {"argmax",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         return {op::argmax(c.input(0), c.getInt("axis", -1),
                            c.getBool("keepdims", false))};
       }},
      {"argmin",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         return {op::argmin(c.input(0), c.getInt("axis", -1),
                            c.getBool("keepdims", false))};
       }},
      {"reshape",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         return {op::reshape(c.input(0), c.getInts("shape"))};
       }},
      {"flatten",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         return {op::flatten(c.input(0), c.getInt("axis", 1))};
       }},
      {"transpose",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         return {op::transpose(c.input(0), c.getInts("perm"))};
       }},
      {"concat",
       [](OpCall &c) -> Results {
         c.expectInputs(1, SIZE_MAX);
         std::vector<edsl::Tensor> xs;
         for (size_t i = 0; i < c.numInputs(); ++i)
           xs.push_back(c.input(i));
         return {op::concat(xs, c.getInt("axis", 0))};
       }},
      {"split",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         return op::split(c.input(0), c.getInt("axis", 0), c.getInts("sizes"));
       }},
      {"slice",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         return {op::slice(c.input(0), c.getInts("starts"), c.getInts("ends"),
                           c.getInts("axes"), c.getInts("steps"))};
       }},
      {"pad",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         op::PadMode mode =
             c.getChoice<op::PadMode>("mode", op::PadMode::Constant,
                                      {{"constant", op::PadMode::Constant},
                                       {"reflect", op::PadMode::Reflect},
                                       {"edge", op::PadMode::Edge},
                                       {"wrap", op::PadMode::Wrap}});
         return {op::pad(c.input(0), c.getInts("pads"), mode,
                         c.getFloat("value", 0.0))};
       }},
      {"squeeze",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         return {op::squeeze(c.input(0), c.getInts("axes"))};
       }},
      {"unsqueeze",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         return {op::unsqueeze(c.input(0), c.getInts("axes"))};
       }},
      {"broadcast_to",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         return {op::broadcast_to(c.input(0), c.getInts("shape"))};
       }},
      {"tile",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         return {op::tile(c.input(0), c.getInts("reps"))};
       }},
      {"repeat",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         return {op::repeat(c.input(0), c.getInt("repeats", 1),
                            c.getInt("axis", 0))};
       }},
      {"gather",
       [](OpCall &c) -> Results {
         c.expectInputs(2, 2);
         return {op::gather(c.input(0), c.input(1), c.getInt("axis", 0))};
       }},
      {"one_hot",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         std::string dtype = c.getString("dtype", "f32");
         std::optional<rt::DType> parsed = rt::parseDType(dtype);
         if (!parsed)
           throw CallError{PLAIDML_INVALID_ARGUMENT,
                           "attribute 'dtype' of 'one_hot' is '" + dtype +
                               "', not an element type"};
         return {op::one_hot(c.input(0), c.getInt("depth", 0), *parsed,
                             c.getFloat("on_value", 1.0),
                             c.getFloat("off_value", 0.0))};
       }},
      {"resize",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         op::ResizeMode mode = c.getChoice<op::ResizeMode>(
             "mode", op::ResizeMode::Nearest,
             {{"nearest", op::ResizeMode::Nearest},
              {"bilinear", op::ResizeMode::Bilinear}});
         return {op::resize(c.input(0), c.getInts("sizes"), mode,
                            getLayout(c, op::DataLayout::NXC),
                            c.getBool("align_corners", false))};
       }},
      {"upsample",
       [](OpCall &c) -> Results {
         c.expectInputs(1, 1);
         return {op::upsample(c.input(0), c.getInts("factors"),
                              getLayout(c, op::DataLayout::NXC))};
       }},
  };
  return ops;
}
} // namespace

extern "C" {

plaidml_status plaidml_attrs_create(plaidml_attrs **out) {
  if (!out)
    return failNull("plaidml_attrs_create", "out");
  *out = new plaidml_attrs();
  return PLAIDML_OK;
}

void plaidml_attrs_destroy(plaidml_attrs *attrs) { delete attrs; }

#define CHECK_ATTR(fn)                                                         \
  do {                                                                         \
    if (!attrs)                                                                \
      return failNull(fn, "attrs");                                            \
    if (!name)                                                                 \
      return failNull(fn, "name");                                             \
  } while (false)

plaidml_status plaidml_attrs_set_int(plaidml_attrs *attrs, const char *name,
                                     int64_t value) {
  CHECK_ATTR("plaidml_attrs_set_int");
  attrs->values[name] = value;
  return PLAIDML_OK;
}

plaidml_status plaidml_attrs_set_ints(plaidml_attrs *attrs, const char *name,
                                      size_t count, const int64_t *values) {
  CHECK_ATTR("plaidml_attrs_set_ints");
  if (count && !values)
    return failNull("plaidml_attrs_set_ints", "values");
  attrs->values[name] = std::vector<int64_t>(values, values + count);
  return PLAIDML_OK;
}

plaidml_status plaidml_attrs_set_float(plaidml_attrs *attrs, const char *name,
                                       double value) {
  CHECK_ATTR("plaidml_attrs_set_float");
  attrs->values[name] = value;
  return PLAIDML_OK;
}

plaidml_status plaidml_attrs_set_string(plaidml_attrs *attrs, const char *name,
                                        const char *value) {
  CHECK_ATTR("plaidml_attrs_set_string");
  if (!value)
    return failNull("plaidml_attrs_set_string", "value");
  attrs->values[name] = std::string(value);
  return PLAIDML_OK;
}

plaidml_status plaidml_attrs_set_tensor(plaidml_attrs *attrs, const char *name,
                                        const plaidml_tensor *t) {
  CHECK_ATTR("plaidml_attrs_set_tensor");
  if (!t)
    return failNull("plaidml_attrs_set_tensor", "tensor");
  attrs->values[name] = t->tensor;
  return PLAIDML_OK;
}

plaidml_status plaidml_op_apply(const char *name, size_t num_inputs,
                                plaidml_tensor *const *inputs,
                                const plaidml_attrs *attrs, size_t capacity,
                                plaidml_tensor **outputs, size_t *num_outputs) {
  const char *fn = "plaidml_op_apply";
  if (!name)
    return failNull(fn, "name");
  if (!num_outputs)
    return failNull(fn, "num_outputs");
  if (capacity && !outputs)
    return failNull(fn, "outputs");
  if (num_inputs && !inputs)
    return failNull(fn, "inputs");
  const auto &ops = getOps();
  auto it = ops.find(name);
  if (it == ops.end())
    return fail(PLAIDML_INVALID_ARGUMENT,
                std::string(fn) + ": unknown op '" + name + "'");
  std::vector<edsl::Tensor> tensors;
  for (size_t i = 0; i < num_inputs; ++i) {
    if (!inputs[i])
      return fail(PLAIDML_INVALID_ARGUMENT, std::string(fn) + ": input #" +
                                                std::to_string(i) + " of '" +
                                                name + "' is null");
    tensors.push_back(inputs[i]->tensor);
  }
  try {
    OpCall call(name, std::move(tensors), attrs);
    Results results = it->second(call);
    call.checkAllUsed();
    if (results.size() > capacity)
      return fail(PLAIDML_INVALID_ARGUMENT,
                  std::string(fn) + ": '" + name + "' has " +
                      std::to_string(results.size()) +
                      " results, but room for " + std::to_string(capacity) +
                      " was given");
    for (size_t i = 0; i < results.size(); ++i)
      outputs[i] = new plaidml_tensor{std::move(results[i])};
    *num_outputs = results.size();
    return PLAIDML_OK;
  } catch (const CallError &e) {
    return fail(e.status, std::string(fn) + ": " + e.message);
  } catch (const edsl::Error &e) {
    return fail(PLAIDML_BUILD_ERROR,
                std::string(fn) + ": '" + name + "': " + e.what());
  } catch (const std::exception &e) {
    return fail(PLAIDML_INTERNAL_ERROR,
                std::string(fn) + ": '" + name + "': " + e.what());
  }
}

size_t plaidml_op_count(void) { return getOps().size(); }

const char *plaidml_op_name(size_t index) {
  const auto &ops = getOps();
  if (index >= ops.size())
    return nullptr;
  auto it = ops.begin();
  std::advance(it, index);
  return it->first.c_str();
}

} // extern "C"
