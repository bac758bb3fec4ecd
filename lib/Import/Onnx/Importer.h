//===- Importer.h - The ONNX importer's shared state ------------*- C++ -*-===//
//
// What the op files of the importer share: a Value (a tensor of the program
// being built, a host constant known at import time, or both), the NodeContext
// a handler gets (its inputs, attributes, the resolved op version and the
// error helpers that name the node), and the registry that maps op types to
// handlers. Each op family registers its handlers from its own file
// (Elementwise.cpp, NN.cpp, Shape.cpp, Reduce.cpp, Resize.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_IMPORT_ONNX_IMPORTER_H
#define PLAIDML_LIB_IMPORT_ONNX_IMPORTER_H

#include "plaidml/Import/Onnx.h"
#include "plaidml/Op/Op.h"

// Debian's libonnx ships the ONNX-ML flavour of the protobuf classes only.
#ifndef ONNX_ML
#define ONNX_ML 1
#endif
#ifndef ONNX_NAMESPACE
#define ONNX_NAMESPACE onnx
#endif
#include "onnx/onnx_pb.h"

#include <functional>
#include <map>
#include <optional>

namespace plaidml::onnx::detail {

using edsl::DType;
using edsl::Tensor;

/// An import error (caught at the API boundary and returned as a Status).
class ImportError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class Importer;

/// A value of the graph.
struct Value {
  /// The tensor in the program (null until materialized for a host value,
  /// or for a value computed channels-last until an op needs ONNX's order).
  Tensor tensor;
  /// The same data stored channels-last (N, spatial..., C) for a value of
  /// rank 3 to 5 that a convolution, pool or the elementwise ops between
  /// them computed in that order (docs/Onnx.md, "Layouts"); `tensor` is then
  /// made from it, by one transpose, when an op needs ONNX's order.
  Tensor channelsLast;
  /// Permutations of this value made once (a convolution's OIHW weights as
  /// HWIO), by permutation.
  std::vector<std::pair<std::vector<int64_t>, Tensor>> permuted;
  /// The data, when known at import time (initializers, Constant nodes,
  /// folded shape computations).
  std::optional<rt::HostArray> host;
  /// A graph input whose data the options gave (readable at import time,
  /// but a program input when used as data).
  std::optional<rt::HostArray> known;
  /// The graph input this value is (its position), or -1.
  int graphInput = -1;
  DType dtype = DType::f32;
  std::vector<int64_t> shape;
};

/// What a handler sees of one node.
class NodeContext {
public:
  NodeContext(Importer &importer, const ::onnx::NodeProto &node,
              int64_t version);

  const ::onnx::NodeProto &node() const { return n; }
  const std::string &opType() const { return n.op_type(); }
  /// The op's version (the newest since-version at or below the opset).
  int64_t version() const { return ver; }

  size_t numInputs() const { return n.input_size(); }
  /// Whether input `i` is given (present and not "").
  bool has(size_t i) const;
  /// Input `i` as a tensor of the program (materializing a host value).
  Tensor input(size_t i);
  /// Input `i`'s value record (shape and element type known without data).
  const Value &value(size_t i);
  /// Input `i`'s data at import time: a host value or a known graph input;
  /// an error naming `what` when it is only known at run time.
  const rt::HostArray &constant(size_t i, const char *what);
  /// The integers of constant input `i`.
  std::vector<int64_t> ints(size_t i, const char *what);
  /// Whether input `i` is known at import time.
  bool isConstant(size_t i);

  /// Channels-last values (docs/Onnx.md, "Layouts"). Whether input `i` is
  /// stored channels-last (only, or also in ONNX's order).
  bool isChannelsLast(size_t i);
  /// Whether this node may compute channels-last (the import option is on
  /// and the node is not being folded).
  bool channelsLastEnabled() const;
  /// Input `i` (rank 3 to 5) in channels-last order: its channels-last
  /// tensor, or a transpose of its ONNX-order tensor (made once).
  Tensor inputChannelsLast(size_t i);
  /// Input `i` permuted by `perm` (output axis j is input axis perm[j]):
  /// data known at import time is permuted there (a convolution's weights),
  /// anything else by a transpose in the program; made once per value.
  Tensor inputPermuted(size_t i, const std::vector<int64_t> &perm);
  /// A tensor of data computed at import time (a constant, or a parameter
  /// when it is large), named `name` after this node's output.
  Tensor hostTensor(rt::HostArray array, const std::string &suffix);
  /// Sets output `i` to `t`, computed channels-last: the value's shape is
  /// t's in ONNX's order.
  void setOutputChannelsLast(size_t i, const Tensor &t);
  /// For elementwise ops: when a given input of the highest rank (3 to 5)
  /// is stored channels-last only, every given input in channels-last order
  /// (lower-rank inputs aligned to the right as ONNX broadcasts them, then
  /// permuted), so that the op runs channels-last; otherwise nullopt.
  std::optional<std::vector<Tensor>> elementwiseChannelsLast();

  bool hasAttr(const std::string &name) const;
  int64_t attrInt(const std::string &name, int64_t fallback) const;
  double attrFloat(const std::string &name, double fallback) const;
  std::string attrString(const std::string &name,
                         const std::string &fallback) const;
  std::vector<int64_t> attrInts(const std::string &name,
                                std::vector<int64_t> fallback = {}) const;
  std::vector<double> attrFloats(const std::string &name) const;
  const ::onnx::TensorProto *attrTensor(const std::string &name) const;
  /// Fails when the node has an attribute not in `known`.
  void checkAttrs(std::initializer_list<const char *> known) const;

  /// Throws "node 'n' (Op): <message>".
  [[noreturn]] void fail(const std::string &message) const;
  /// Throws "node 'n' (Op): unsupported <what>".
  [[noreturn]] void unsupported(const std::string &what) const;

  /// Sets output `i` to a tensor / a host value.
  void setOutput(size_t i, const Tensor &t);
  void setHostOutput(size_t i, rt::HostArray array);
  size_t numOutputs() const { return n.output_size(); }
  bool hasOutput(size_t i) const;

  Importer &getImporter() { return imp; }

private:
  Importer &imp;
  const ::onnx::NodeProto &n;
  int64_t ver;
};

/// A handler maps one node.
using Handler = std::function<void(NodeContext &)>;

struct OpInfo {
  Handler handler;
  /// Every since-version of the op in ONNX (ascending), up to kMaxOpset.
  std::vector<int64_t> history;
  /// The since-versions whose semantics the handler implements.
  std::vector<int64_t> supported;
  /// Whether a node whose inputs are all host values may be folded at
  /// import time (evaluated by the reference interpreter).
  bool foldable = true;
};

/// The registry of op handlers.
std::map<std::string, OpInfo> &getRegistry();
/// Registers `name` with its since-version history; the versions in force
/// from opset 11 on are the supported ones.
void registerOp(const char *name, std::vector<int64_t> history, Handler h,
                bool foldable = true);
void registerElementwiseOps();
void registerNNOps();
void registerShapeOps();
void registerReduceOps();
void registerResizeOps();

//===----------------------------------------------------------------------===//
// Helpers shared by the op files (Importer.cpp)
//===----------------------------------------------------------------------===//

/// The element type of an ONNX TensorProto data type, or nullopt.
std::optional<DType> toDType(int32_t onnxType);
/// The ONNX spelling of a data type ("FLOAT", "INT64", ...).
std::string onnxTypeName(int32_t onnxType);
/// The ONNX data type of an element type.
int32_t toOnnxType(DType dtype);
/// A TensorProto's data as a host array (`baseDir` for external data).
rt::HostArray tensorFromProto(const ::onnx::TensorProto &proto,
                              const std::string &baseDir);
/// A host array of `dtype` and `shape` from integers, exactly
/// (rt::makeArray makes one from doubles).
rt::HostArray makeHostInts(DType dtype, const std::vector<int64_t> &shape,
                           const std::vector<int64_t> &values);
/// Every element of an integer host array.
std::vector<int64_t> hostInts(const rt::HostArray &array);
/// The permutation from ONNX's order (N, C, spatial...) to channels-last
/// (N, spatial..., C), and back, for `rank`.
std::vector<int64_t> toChannelsLast(int64_t rank);
std::vector<int64_t> fromChannelsLast(int64_t rank);
/// Where ONNX-order axis `axis` of a value of `rank` is channels-last.
int64_t channelsLastAxis(int64_t axis, int64_t rank);
/// `x` permuted (output axis j is x's axis perm[j]): a reshape when no
/// data moves, else a transpose.
Tensor permuteTensor(const Tensor &x, const std::vector<int64_t> &perm);
/// `array` permuted: output axis j is input axis perm[j].
rt::HostArray permuteHost(const rt::HostArray &array,
                          const std::vector<int64_t> &perm);
/// `axis` counted from the end when negative, checked against `rank`.
int64_t normAxis(NodeContext &ctx, int64_t axis, int64_t rank,
                 const char *what = "axis");

} // namespace plaidml::onnx::detail

#endif // PLAIDML_LIB_IMPORT_ONNX_IMPORTER_H
