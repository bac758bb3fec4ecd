//===- Cache.h - The on-disk compile cache ----------------------*- C++ -*-===//
//
// Artifacts keyed by a SHA-256 of (program text, pipeline options, device,
// compiler version) under $XDG_CACHE_HOME/plaidml/ (default
// ~/.cache/plaidml/), as docs/ABI.md section 5 specifies. Entries are written
// to a temporary file in the cache directory and renamed into place, so a
// killed compile never leaves a truncated entry and two processes compiling
// the same program race harmlessly. Code is only loaded from a directory no
// other user can change, and only when it matches the size and SHA-256
// recorded when it was written. A program imported from a file (an ONNX
// model) may be keyed by the file's bytes instead, with what its runner
// needs kept beside the artifact (getCachedSourceArtifact), so a hit does
// not import it.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_COMPILER_CACHE_H
#define PLAIDML_COMPILER_CACHE_H

#include "plaidml/Compiler/Compiler.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
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

/// What an importer makes of a source file (an ONNX model): the program,
/// and what its runner needs beside the artifact, which a source entry keeps
/// as two side files: a small description (the model's names and specs) and
/// the data (the weights).
struct ImportedSource {
  std::string programText;
  std::string description;
  std::unique_ptr<llvm::MemoryBuffer> data;
  /// False when the program depends on more than the file's bytes (an ONNX
  /// model with external data files): it is compiled through
  /// getCachedArtifact, keyed by its text, and imported on every use.
  bool cacheable = true;
};

/// A source entry: the artifact and the side files (on a hit, read from the
/// cache, the data mapped; on a miss, the importer's).
struct CachedSource {
  CachedArtifact artifact;
  std::unique_ptr<llvm::MemoryBuffer> description, data;
  /// True when the source was imported (a miss); false on a hit.
  bool imported = false;
};

/// Returns the artifact and side files of the source file `sourcePath`
/// imported by `import` (called with the file's bytes, on a miss only) and
/// compiled with `options`. The entry is keyed by the SHA-256 of the file's
/// bytes, `importKey` (the importer's version and options), the options,
/// the device and the compiler (getCacheKey), not by the program's text, so
/// a hit neither imports nor prints the program. The content hash itself
/// is remembered in a record `<stat key>.src` named by a hash of the file's
/// resolved path, device, inode, size and modification and change times: on
/// a hit through it the file is not even read; any write to the file
/// changes its change time, so a changed file is read, hashed and (for new
/// bytes) misses. Every file of the entry is checked on a hit: the artifact
/// (SHA-256) and the side files (their sizes and hashes) against the
/// entry's record, with the directory checks of getCachedArtifact.
FailureOr<CachedSource> getCachedSourceArtifact(
    MLIRContext &context, StringRef sourcePath, StringRef importKey,
    const CompileOptions &options,
    llvm::function_ref<FailureOr<ImportedSource>(StringRef bytes)> import);

} // namespace mlir::plaidml

#endif // PLAIDML_COMPILER_CACHE_H
