//===- Cache.h - The on-disk compile cache ----------------------*- C++ -*-===//
//
// Artifacts keyed by a SHA-256 of (program text, pipeline options, device,
// compiler version) under $XDG_CACHE_HOME/plaidml/ (default
// ~/.cache/plaidml/), as docs/ABI.md section 5 specifies. Entries are written
// to a temporary file in the cache directory and renamed into place, so a
// killed compile never leaves a truncated entry and two processes compiling
// the same program race harmlessly. Code is only loaded from a directory no
// other user can change, and only when it matches the size and SHA-256
// recorded when it was written.
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
  /// True when the cache is off (no directory passed the checks): `path` is
  /// in a fresh private temporary directory, which the caller removes with
  /// removeTemporaryArtifact once it has loaded or copied the artifact.
  bool temporary = false;
};

/// Removes the file and directory of a temporary artifact (no-op for an
/// entry of the cache).
void removeTemporaryArtifact(const CachedArtifact &artifact);

/// The cache key: lowercase hex SHA-256 over the compiler version, the
/// compiler build (size and time of the running executable, so a rebuilt
/// compiler does not reuse older artifacts), the device, the options string
/// and the program text.
std::string getCacheKey(StringRef programText, StringRef optionsString,
                        StringRef device);

/// $XDG_CACHE_HOME/plaidml when XDG_CACHE_HOME is an absolute path, else
/// $HOME/.cache/plaidml when HOME is (relative values are ignored, as the XDG
/// base directory spec says), else the password database's home directory;
/// "" when there is none. Not created.
std::string getCacheDirectory();

/// Where the cache goes when the user's directory is unusable:
/// $TMPDIR/plaidml-cache-<uid> (default /tmp), which must be private.
std::string getFallbackCacheDirectory();

/// Why `dir` may not hold code this process loads, or "" when it may: it
/// must be a directory (not a symbolic link) owned by the effective user and
/// not writable by group or others (with `requirePrivate`, no permission at
/// all for them: mode 0700), and every directory above it, as written and as
/// resolved, must be owned by root or the user and not writable by others
/// unless sticky (/tmp), with no symbolic link owned by another user.
std::string checkCacheDirectory(StringRef dir, bool requirePrivate);

/// Returns the artifact of `programText` (an MLIR module in Tile or ABI
/// form) compiled with `options`, compiling it into the cache on a miss.
/// `context` must have the PlaidML dialects registered; diagnostics go to
/// it, including a warning when the cache directory is unusable and the
/// fallback is used or the cache is off, and when an entry does not match its
/// record and is compiled again. `bufferName` names the program in
/// diagnostics.
FailureOr<CachedArtifact> getCachedArtifact(MLIRContext &context,
                                            StringRef programText,
                                            const CompileOptions &options,
                                            StringRef bufferName = "<program>");

} // namespace mlir::plaidml

#endif // PLAIDML_COMPILER_CACHE_H
