//===- Onnx.h - Import ONNX models as Tile programs -------------*- C++ -*-===//
//
// Reads an ONNX model (a ModelProto, parsed with the protobuf classes of
// Debian's libonnx) and builds a Tile program through the EDSL and the op
// library: every node maps to op-library calls, shape computations
// (Shape, Gather, Concat, Unsqueeze, Reshape, ... of constants) are folded
// at import so every shape is static, and large initializers become
// parameters (program inputs after the model's own inputs) whose data the
// caller passes at run time, so weights never go through IR text.
// docs/Onnx.md lists the supported ops, opsets and limits.
//
// Every unsupported op, attribute value, element type or dynamic shape is an
// error naming the node, its op type and what is unsupported.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_IMPORT_ONNX_H
#define PLAIDML_IMPORT_ONNX_H

#include "plaidml/EDSL/EDSL.h"
#include "plaidml/Runtime/HostArray.h"
#include "plaidml/Runtime/Status.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace plaidml::onnx {

/// The lowest and highest default-domain opset the importer accepts.
constexpr int64_t kMinOpset = 11;
constexpr int64_t kMaxOpset = 28;

struct ImportOptions {
  /// Values of graph inputs, by name. An input whose value an op needs at
  /// import time (a Reshape's shape, a Slice's starts) is read from here;
  /// every other input stays a program input. An input with a dynamic
  /// dimension takes its shape from here.
  std::map<std::string, rt::HostArray> knownInputs;
  /// Initializers (and Constant nodes) of more elements than this that are
  /// used as tensor data become parameters; smaller ones are constants in
  /// the IR.
  int64_t maxConstantElements = 64;
  /// The function's name.
  std::string name = "main";
  /// Compute convolutions, pools and the elementwise ops between them
  /// channels-last (N, spatial..., C), with the weights of convolutions
  /// permuted to HWIO at import: the channels become the dimension the code
  /// generators vectorize. Values keep ONNX's order (NCHW) wherever an op
  /// depends on it (Reshape, Flatten, Transpose, the graph's outputs), by
  /// one transpose. False: every value in ONNX's order.
  bool channelsLast = true;
};

/// A model imported as an EDSL program. The program's inputs are, in
/// order, `inputNames` (graph inputs) then `parameterNames` (initializers
/// too large to be constants), whose data is `parameters`.
struct ImportedModel {
  edsl::Program program;
  /// Every graph input that is not an initializer, in graph order, with its
  /// spec; `isProgramInput` says whether the program takes it (an input
  /// read only at import time, or not used, is not).
  std::vector<edsl::TensorSpec> graphInputs;
  std::vector<bool> isProgramInput;
  /// The program inputs that are graph inputs, in program order.
  std::vector<std::string> inputNames;
  std::vector<std::string> parameterNames;
  std::vector<rt::HostArray> parameters;
  std::vector<std::string> outputNames;
  /// The default-domain opset of the model.
  int64_t opset = 0;
  /// Whether a tensor of the model (an initializer, a Constant's value) is
  /// read from an external data file: the program then depends on more
  /// than the model file's bytes.
  bool usesExternalData = false;
};

/// Imports the model in `path` (external data files are read relative to
/// its directory).
rt::StatusOr<std::unique_ptr<ImportedModel>>
importOnnxFile(const std::string &path, const ImportOptions &options = {});

/// Imports a serialized ModelProto; `baseDir` is where external data files
/// are looked up.
rt::StatusOr<std::unique_ptr<ImportedModel>>
importOnnxBytes(const std::string &bytes, const std::string &baseDir,
                const ImportOptions &options = {});

/// Reads a serialized TensorProto (a node test's input_0.pb) as a host
/// array; `name` receives its name.
rt::StatusOr<rt::HostArray> readTensorProtoFile(const std::string &path,
                                                std::string *name = nullptr);

/// The op types (default domain) the importer maps, sorted.
std::vector<std::string> getSupportedOps();

} // namespace plaidml::onnx

#endif // PLAIDML_IMPORT_ONNX_H
