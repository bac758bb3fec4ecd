//===- Cache.h - The on-disk compile cache ----------------------*- C++ -*-===//
//
// Artifacts keyed by a SHA-256 of (program text, pipeline options, device,
// compiler version) under $XDG_CACHE_HOME/plaidml/ (default
// ~/.cache/plaidml/), as docs/ABI.md section 5 specifies. Entries are written
// to a temporary file in the cache directory and renamed into place, so a
// killed compile never leaves a truncated entry and two processes compiling
// the same program race harmlessly.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_COMPILER_CACHE_H
#define PLAIDML_COMPILER_CACHE_H

#include "plaidml/Compiler/Compiler.h"

#include "mlir/IR/MLIRContext.h"

#include <string>

namespace mlir::plaidml {

/// Where a cached artifact is, and how it got there.
struct CachedArtifact {
  /// The artifact (a file inside the cache directory).
  std::string path;
  /// True when it was already in the cache.
  bool hit = false;
  /// Milliseconds spent compiling (0 on a hit).
  double compileMs = 0;
};

/// The cache key: lowercase hex SHA-256 over the compiler version, the
/// compiler build (size and time of the running executable, so a rebuilt
/// compiler does not reuse older artifacts), the device, the options string
/// and the program text.
std::string getCacheKey(StringRef programText, StringRef optionsString,
                        StringRef device);

/// $XDG_CACHE_HOME/plaidml when XDG_CACHE_HOME is an absolute path, else
/// ~/.cache/plaidml. Not created.
std::string getCacheDirectory();

/// Returns the artifact of `programText` (an MLIR module in Tile or ABI
/// form) compiled with `options`, compiling it into the cache on a miss.
/// `context` must have the PlaidML dialects registered; diagnostics go to
/// it, including a warning when the cache directory is unusable and a
/// temporary directory is used instead. `bufferName` names the program in
/// diagnostics.
FailureOr<CachedArtifact> getCachedArtifact(MLIRContext &context,
                                            StringRef programText,
                                            const CompileOptions &options,
                                            StringRef bufferName = "<program>");

} // namespace mlir::plaidml

#endif // PLAIDML_COMPILER_CACHE_H
