//===- Cache.cpp - The on-disk compile cache ------------------------------===//
//
// getCachedArtifact: looks the program up by its key and compiles it into
// the cache on a miss, through a temporary file in the cache directory and
// an atomic rename. An unusable cache directory (unwritable, or a file in
// the way) costs a warning and a directory under the system's temporary
// directory, never a failure. Stray temporary files from killed compiles
// are never read: lookups only see renamed, complete entries.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Compiler/Cache.h"

#include "plaidml/Version.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"

#include <chrono>
#include <optional>

using namespace mlir;
using namespace mlir::plaidml;

/// Identifies the compiler build: the size and modification time of the
/// executable this code is linked into, so a rebuilt compiler (a changed
/// pipeline under the same version string) never reuses older artifacts.
static const std::string &getCompilerBuildId() {
  static const std::string id = [] {
    std::string exe = llvm::sys::fs::getMainExecutable(
        nullptr, reinterpret_cast<void *>(&getCompilerBuildId));
    llvm::sys::fs::file_status status;
    if (exe.empty() || llvm::sys::fs::status(exe, status))
      return std::string("unknown");
    return std::to_string(status.getSize()) + "@" +
           std::to_string(llvm::sys::toTimeT(status.getLastModificationTime()));
  }();
  return id;
}

std::string mlir::plaidml::getCacheKey(StringRef programText,
                                       StringRef optionsString,
                                       StringRef device) {
  llvm::SHA256 hash;
  // Length-prefixed fields, so no two different tuples hash the same text.
  auto field = [&](StringRef text) {
    hash.update(std::to_string(text.size()));
    hash.update(":");
    hash.update(text);
  };
  field("plaidml-compile-cache 1");
  field(PLAIDML_VERSION_STRING);
  field(getCompilerBuildId());
  field(device);
  field(optionsString);
  field(programText);
  std::array<uint8_t, 32> digest = hash.final();
  return llvm::toHex(digest, /*LowerCase=*/true);
}

std::string mlir::plaidml::getCacheDirectory() {
  SmallString<256> dir;
  std::optional<std::string> xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
  if (xdg && llvm::sys::path::is_absolute(*xdg)) {
    dir = *xdg;
  } else {
    llvm::sys::path::home_directory(dir);
    llvm::sys::path::append(dir, ".cache");
  }
  llvm::sys::path::append(dir, "plaidml");
  return dir.str().str();
}

/// Creates `dir` and a unique temporary entry file in it.
static std::error_code createEntryFile(StringRef dir, StringRef key,
                                       SmallVectorImpl<char> &tempPath) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return ec;
  SmallString<256> model(dir);
  llvm::sys::path::append(model, key + "-%%%%%%%%.tmp");
  int fd;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(model, fd, tempPath))
    return ec;
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  return {};
}

/// Removes `*.tmp` files older than an hour from `dir`: what a process that
/// was killed while compiling left behind (a live compile renames or removes
/// its own temporary file within seconds).
static void removeStaleTemporaries(StringRef dir) {
  std::error_code ec;
  auto now = std::chrono::system_clock::now();
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    StringRef path = it->path();
    if (!path.ends_with(".tmp"))
      continue;
    llvm::sys::fs::file_status status;
    if (llvm::sys::fs::status(path, status))
      continue;
    if (now - status.getLastModificationTime() > std::chrono::hours(1))
      (void)llvm::sys::fs::remove(path);
  }
}

FailureOr<CachedArtifact>
mlir::plaidml::getCachedArtifact(MLIRContext &context, StringRef programText,
                                 const CompileOptions &options,
                                 StringRef bufferName) {
  Location loc = FileLineColLoc::get(&context, bufferName, 0, 0);
  llvm::Expected<std::string> optionsString = getResolvedOptionsString(options);
  if (!optionsString) {
    emitError(loc) << llvm::toString(optionsString.takeError());
    return failure();
  }
  std::string key = getCacheKey(programText, *optionsString, options.device);
  std::string entryName = key + ".so";

  // A hit in the cache directory (or the fallback, where an earlier run on
  // this machine may have put it) returns at once.
  std::string dir = getCacheDirectory();
  SmallString<256> fallback;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, fallback);
  llvm::sys::path::append(fallback, "plaidml-cache");
  for (StringRef candidate : {StringRef(dir), StringRef(fallback)}) {
    SmallString<256> path(candidate);
    llvm::sys::path::append(path, entryName);
    if (llvm::sys::fs::exists(path))
      return CachedArtifact{path.str().str(), /*hit=*/true, /*compileMs=*/0};
  }

  SmallString<256> tempPath;
  if (std::error_code ec = createEntryFile(dir, key, tempPath)) {
    emitWarning(loc) << "cannot write the compile cache in '" << dir << "' ("
                     << ec.message() << "); using '" << fallback << "'";
    dir = fallback.str().str();
    if (std::error_code fallbackEc = createEntryFile(dir, key, tempPath)) {
      emitError(loc) << "cannot write a compiled artifact in '" << dir
                     << "': " << fallbackEc.message();
      return failure();
    }
  }
  llvm::FileRemover removeTemp(tempPath);
  removeStaleTemporaries(dir);

  auto start = std::chrono::steady_clock::now();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      programText, ParserConfig(&context), bufferName);
  if (!module)
    return failure();
  if (failed(compileToArtifact(*module, options, tempPath)))
    return failure();
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();

  SmallString<256> path(dir);
  llvm::sys::path::append(path, entryName);
  if (std::error_code ec = llvm::sys::fs::rename(tempPath, path)) {
    emitError(loc) << "cannot move the compiled artifact to '" << path
                   << "': " << ec.message();
    return failure();
  }
  removeTemp.releaseFile();
  return CachedArtifact{path.str().str(), /*hit=*/false, ms};
}
