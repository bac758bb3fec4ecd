//===- OnnxCache.h - ONNX models through the compile cache ------*- C++ -*-===//
//
// An ONNX model compiled through the compile cache by the bytes of its file
// (getCachedSourceArtifact in plaidml/Compiler/Cache.h): a hit neither
// imports the model nor prints its program. The entry keeps beside the
// artifact what a runner needs: the model's names and specs (a small JSON
// description) and its weights (the data file, mapped on a hit), so one
// artifact and its weights come back together. Only in builds with the
// compiler (lib/Runner/OnnxCache.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_RUNNER_ONNXCACHE_H
#define PLAIDML_RUNNER_ONNXCACHE_H

#include "plaidml/Compiler/Cache.h"
#include "plaidml/Import/Onnx.h"
#include "plaidml/Runtime/Manifest.h"

namespace plaidml::run {

/// A model's artifact and what running it needs, without its program.
struct CachedOnnxModel {
  mlir::plaidml::CachedArtifact artifact;
  /// Whether the model was imported (a miss, or the cache could not be
  /// keyed by the file: external data); false on a hit.
  bool imported = false;
  /// The entry function.
  std::string entryName;
  /// The graph inputs, and whether the program takes each.
  std::vector<rt::TensorSpec> graphInputs;
  std::vector<bool> isProgramInput;
  std::vector<std::string> outputNames;
  /// The weights: the program's last inputs, after the graph inputs it
  /// takes; their bytes are in `data` at `offsets`.
  std::vector<rt::TensorSpec> parameters;
  std::vector<size_t> offsets;
  std::unique_ptr<llvm::MemoryBuffer> data;

  /// A copy of weight `i`.
  rt::HostArray getParameter(size_t i) const;
  /// The number of program inputs before the weights.
  size_t getNumProgramInputs() const;
};

/// The compile cache's name for what the importer does with `options` (its
/// version and every option, the known inputs' values included).
std::string getOnnxImportKey(const onnx::ImportOptions &options);

/// The description and data of `model` (the side files of its entry).
mlir::plaidml::ImportedSource
describeOnnxModel(const onnx::ImportedModel &model);

/// The model of `source`'s description and data, with `artifact`.
rt::StatusOr<CachedOnnxModel> readOnnxModel(mlir::plaidml::CachedSource source);

/// Imports (on a miss) and compiles the model at `path` with `options`
/// through the compile cache. Diagnostics go to `context` (which needs the
/// PlaidML dialects); a failure's message is "" when they said why.
rt::StatusOr<CachedOnnxModel>
compileOnnxModel(mlir::MLIRContext &context, const std::string &path,
                 const onnx::ImportOptions &importOptions,
                 const mlir::plaidml::CompileOptions &options);

} // namespace plaidml::run

#endif // PLAIDML_RUNNER_ONNXCACHE_H
