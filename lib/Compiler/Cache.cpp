//===- Cache.cpp - The on-disk compile cache ------------------------------===//
//
// getCachedArtifact: looks the program up by its key and compiles it into
// the cache on a miss, through temporary files in the cache directory and
// atomic renames. Code is only ever loaded from a directory no other user
// can change: the cache directory, and every directory above it as written
// and as resolved, is checked on every use (owner, mode, symbolic links);
// an unusable user cache falls back to a private $TMPDIR/plaidml-cache-<uid>
// (owned by the user, mode 0700), and when that is unusable too the cache is
// off, with a warning, and the program compiles into a fresh private
// temporary directory. Every entry comes with a record of its size and
// SHA-256 (<key>.meta, written before the entry is renamed into place);
// an entry that does not match its record (truncated, altered, or another
// program's artifact) is discarded with a warning and compiled again.
// Stray temporary files from killed compiles are never read.
// getCachedSourceArtifact keys a program by the bytes of the file it is
// imported from (an ONNX model) and keeps the importer's side files (the
// model's description and weights) in the entry, checked with it; a record
// named by the file's path, inode, size and times remembers its content
// hash, so a hit neither imports nor even reads the file.
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
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

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
  // The XDG base directory spec: relative paths in these variables are
  // invalid and ignored; so is a relative HOME (an unset one falls back to
  // the password database).
  std::optional<std::string> xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
  std::optional<std::string> home = llvm::sys::Process::GetEnv("HOME");
  if (xdg && llvm::sys::path::is_absolute(*xdg)) {
    dir = *xdg;
  } else if (home && llvm::sys::path::is_absolute(*home)) {
    dir = *home;
    llvm::sys::path::append(dir, ".cache");
  } else if (const passwd *pw = getpwuid(geteuid());
             (!home || home->empty()) && pw && pw->pw_dir &&
             llvm::sys::path::is_absolute(pw->pw_dir)) {
    dir = pw->pw_dir;
    llvm::sys::path::append(dir, ".cache");
  } else {
    return "";
  }
  llvm::sys::path::append(dir, "plaidml");
  return dir.str().str();
}

std::string mlir::plaidml::getFallbackCacheDirectory() {
  SmallString<256> dir;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, dir);
  llvm::sys::path::append(dir, "plaidml-cache-" + std::to_string(geteuid()));
  return dir.str().str();
}

static std::string formatMode(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof(text), "%04o",
                static_cast<unsigned>(mode & 07777));
  return text;
}

/// Why a directory above the cache directory lets another user replace
/// what is below it, or "" when it does not: it must be owned by root or by
/// the user and not writable by group or others unless sticky (/tmp), and a
/// symbolic link on the way must be owned by root or by the user.
static std::string checkAncestors(StringRef path) {
  uid_t uid = geteuid();
  for (StringRef p = llvm::sys::path::parent_path(path); !p.empty();
       p = llvm::sys::path::parent_path(p)) {
    std::string name = p.str();
    struct stat st;
    if (lstat(name.c_str(), &st) != 0)
      return "'" + name + "': " + std::strerror(errno);
    if (S_ISLNK(st.st_mode) && st.st_uid != 0 && st.st_uid != uid)
      return "'" + name + "' is a symbolic link owned by uid " +
             std::to_string(st.st_uid);
    if (stat(name.c_str(), &st) != 0)
      return "'" + name + "': " + std::strerror(errno);
    if (st.st_uid != 0 && st.st_uid != uid)
      return "'" + name + "' is owned by uid " + std::to_string(st.st_uid);
    if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
      return "'" + name + "' is writable by other users (mode " +
             formatMode(st.st_mode) + ")";
    if (p == llvm::sys::path::root_path(p))
      break;
  }
  return "";
}

std::string mlir::plaidml::checkCacheDirectory(StringRef dir,
                                               bool requirePrivate) {
  std::string name = dir.str();
  uid_t uid = geteuid();
  struct stat st;
  if (lstat(name.c_str(), &st) != 0)
    return std::strerror(errno);
  if (S_ISLNK(st.st_mode))
    return "it is a symbolic link";
  if (!S_ISDIR(st.st_mode))
    return "it is not a directory";
  if (st.st_uid != uid)
    return "it is owned by uid " + std::to_string(st.st_uid) +
           ", not by you (uid " + std::to_string(uid) + ")";
  if (requirePrivate && (st.st_mode & 077))
    return "it has mode " + formatMode(st.st_mode) + ", not 0700";
  if (st.st_mode & (S_IWGRP | S_IWOTH))
    return "it is writable by other users (mode " + formatMode(st.st_mode) +
           ")";
  // The directories above it, both as written and as resolved.
  SmallString<256> absolute(dir);
  if (std::error_code ec = llvm::sys::fs::make_absolute(absolute))
    return ec.message();
  if (std::string why = checkAncestors(absolute); !why.empty())
    return why;
  SmallString<256> real;
  if (std::error_code ec = llvm::sys::fs::real_path(dir, real))
    return ec.message();
  return checkAncestors(real);
}

/// Creates `dir` (mode 0700, parents included) when it does not exist, then
/// checks it; returns why it cannot be used, or "".
static std::string prepareDirectory(StringRef dir, bool requirePrivate) {
  struct stat st;
  std::string name = dir.str();
  if (lstat(name.c_str(), &st) != 0 && errno == ENOENT)
    if (std::error_code ec = llvm::sys::fs::create_directories(
            dir, /*IgnoreExisting=*/true, llvm::sys::fs::perms::owner_all))
      return "cannot create it: " + ec.message();
  return checkCacheDirectory(dir, requirePrivate);
}

/// The directory the cache uses now: the user's, else the private fallback
/// (with a warning), else "" (the cache is off, with a warning).
static std::string chooseCacheDirectory(Location loc) {
  std::string dir = getCacheDirectory();
  std::string why = dir.empty() ? "neither XDG_CACHE_HOME nor HOME is an "
                                  "absolute path"
                                : prepareDirectory(dir, false);
  if (why.empty())
    return dir;
  std::string shown = dir.empty() ? "~/.cache/plaidml" : dir;
  std::string fallback = getFallbackCacheDirectory();
  std::string fallbackWhy = prepareDirectory(fallback, true);
  if (fallbackWhy.empty()) {
    emitWarning(loc) << "cannot use the compile cache in '" << shown << "' ("
                     << why << "); using '" << fallback << "'";
    return fallback;
  }
  emitWarning(loc) << "the compile cache is off: cannot use '" << shown << "' ("
                   << why << ") nor '" << fallback << "' (" << fallbackWhy
                   << ")";
  return "";
}

/// Creates a unique temporary file for `key` in `dir` (mode 0600).
static std::error_code createEntryFile(StringRef dir, StringRef key,
                                       SmallVectorImpl<char> &tempPath) {
  SmallString<256> model(dir);
  llvm::sys::path::append(model, key + "-%%%%%%%%.tmp");
  int fd;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          model, fd, tempPath, llvm::sys::fs::OF_None,
          llvm::sys::fs::owner_read | llvm::sys::fs::owner_write))
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

/// The record of an entry: the key it was compiled for, its size and its
/// SHA-256, one per line, then `extra` (the lines of a source entry's side
/// files, formatSideRecord).
static std::string formatRecord(StringRef key, ArrayRef<uint8_t> bytes,
                                StringRef extra = "") {
  return "plaidml-cache-entry 1\nkey " + key.str() + "\nsize " +
         std::to_string(bytes.size()) + "\nsha256 " +
         llvm::toHex(llvm::SHA256::hash(bytes), /*LowerCase=*/true) + "\n" +
         extra.str();
}

static ArrayRef<uint8_t> getBytes(const llvm::MemoryBuffer &buffer) {
  return ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(buffer.getBufferStart()),
      buffer.getBufferSize());
}

/// The record lines of a source entry's side files: the description's size
/// and SHA-256, the data's size and XXH3-128 (the data is the model's
/// weights, hashed on every hit: XXH3 reads 100 MB in about 16 ms where
/// SHA-256 takes 400; code, the artifact, keeps its SHA-256).
static std::string formatSideRecord(ArrayRef<uint8_t> description,
                                    ArrayRef<uint8_t> data) {
  llvm::XXH128_hash_t h = llvm::xxh3_128bits(data);
  return "description-size " + std::to_string(description.size()) +
         "\ndescription-sha256 " +
         llvm::toHex(llvm::SHA256::hash(description), /*LowerCase=*/true) +
         "\ndata-size " + std::to_string(data.size()) + "\ndata-xxh3-128 " +
         llvm::utohexstr(h.high64, /*LowerCase=*/true, 16) +
         llvm::utohexstr(h.low64, /*LowerCase=*/true, 16) + "\n";
}

static std::unique_ptr<llvm::MemoryBuffer> readFile(StringRef path,
                                                    std::string &why) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file) {
    why = "cannot read '" + path.str() + "': " + file.getError().message();
    return nullptr;
  }
  return std::move(*file);
}

/// Why the entry `entry` (with its record `record`) is not the intact
/// artifact of `key`, or "" when it is.
static std::string verifyEntry(StringRef entry, StringRef record, StringRef key,
                               StringRef extra = "") {
  struct stat st;
  std::string name = entry.str();
  if (lstat(name.c_str(), &st) != 0)
    return std::strerror(errno);
  if (!S_ISREG(st.st_mode))
    return "it is not a regular file";
  if (st.st_uid != geteuid())
    return "it is owned by uid " + std::to_string(st.st_uid);
  if (st.st_mode & (S_IWGRP | S_IWOTH))
    return "it is writable by other users";
  std::string why;
  std::unique_ptr<llvm::MemoryBuffer> recordText = readFile(record, why);
  if (!recordText)
    return "it has no record of its size and hash (" + why + ")";
  std::unique_ptr<llvm::MemoryBuffer> bytes = readFile(entry, why);
  if (!bytes)
    return why;
  ArrayRef<uint8_t> data = getBytes(*bytes);
  std::string expected = formatRecord(key, data, extra);
  if (recordText->getBuffer() == expected)
    return "";
  // Say which field differs.
  SmallVector<StringRef> want, have;
  StringRef(expected).split(want, '\n');
  recordText->getBuffer().split(have, '\n');
  for (size_t i = 0; i < want.size(); ++i) {
    StringRef w = want[i], h = i < have.size() ? have[i] : StringRef();
    if (w == h)
      continue;
    if (w.starts_with("key "))
      return "it was recorded for another program";
    if (w.starts_with("size "))
      return "its size is " + std::to_string(data.size()) +
             " bytes, but it was written with " +
             (h.starts_with("size ") ? h.drop_front(5).str() : "another size");
    if (w.starts_with("sha256 "))
      return "its SHA-256 differs from the one recorded when it was written";
    if (w.starts_with("description-"))
      return "its description differs from the one recorded when it was "
             "written";
    if (w.starts_with("data-"))
      return "its data differs from the one recorded when it was written";
    break;
  }
  return "its record is malformed";
}

/// Writes `text` to a new temporary file in `dir`, returned in `tempPath`.
static std::error_code writeTemporary(StringRef dir, StringRef key,
                                      StringRef text,
                                      SmallVectorImpl<char> &tempPath) {
  if (std::error_code ec = createEntryFile(dir, key, tempPath))
    return ec;
  std::error_code ec;
  llvm::raw_fd_ostream os(StringRef(tempPath.data(), tempPath.size()), ec);
  if (ec)
    return ec;
  os << text;
  os.close();
  return os.error();
}

/// Creates the temporary file of an entry of `key` in `dir` (and clears
/// stale temporaries of killed compiles), or says why not at `loc`.
static LogicalResult startEntry(StringRef dir, StringRef key, Location loc,
                                SmallString<256> &tempPath) {
  if (std::error_code ec = createEntryFile(dir, key, tempPath)) {
    emitError(loc) << "cannot write a compiled artifact in '" << dir
                   << "': " << ec.message();
    return failure();
  }
  removeStaleTemporaries(dir);
  return success();
}

/// Parses `programText` and compiles it into the artifact at `path`; the
/// milliseconds it took.
static FailureOr<double>
compileText(MLIRContext &context, StringRef programText, StringRef bufferName,
            const CompileOptions &options, StringRef path) {
  auto start = std::chrono::steady_clock::now();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      programText, ParserConfig(&context), bufferName);
  if (!module || failed(compileToArtifact(*module, options, path)))
    return failure();
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

/// Compiles into a fresh private temporary directory (the cache is off).
static FailureOr<CachedArtifact> compileUncached(MLIRContext &context,
                                                 StringRef programText,
                                                 const CompileOptions &options,
                                                 StringRef bufferName,
                                                 Location loc) {
  SmallString<256> model;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, model);
  llvm::sys::path::append(model, "plaidml-XXXXXX");
  std::string dir = model.str().str();
  // mkdtemp creates the directory with mode 0700.
  if (!mkdtemp(dir.data())) {
    emitError(loc) << "cannot create a private temporary directory from '"
                   << model << "': " << std::strerror(errno);
    return failure();
  }
  CachedArtifact result;
  result.temporary = true;
  SmallString<256> path(dir);
  llvm::sys::path::append(path, "artifact.so");
  result.path = path.str().str();
  if (std::string why = checkCacheDirectory(dir, true); !why.empty()) {
    removeTemporaryArtifact(result);
    emitError(loc) << "cannot compile in '" << dir << "': " << why;
    return failure();
  }
  FailureOr<double> ms =
      compileText(context, programText, bufferName, options, result.path);
  if (failed(ms)) {
    removeTemporaryArtifact(result);
    return failure();
  }
  result.compileMs = *ms;
  return result;
}

void mlir::plaidml::removeTemporaryArtifact(const CachedArtifact &artifact) {
  if (!artifact.temporary)
    return;
  (void)llvm::sys::fs::remove(artifact.path);
  (void)llvm::sys::fs::remove(llvm::sys::path::parent_path(artifact.path));
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
  std::string dir = chooseCacheDirectory(loc);
  if (dir.empty())
    return compileUncached(context, programText, options, bufferName, loc);

  SmallString<256> path(dir), recordPath(dir);
  llvm::sys::path::append(path, key + ".so");
  llvm::sys::path::append(recordPath, key + ".meta");
  struct stat st;
  if (lstat(path.c_str(), &st) == 0) {
    std::string why = verifyEntry(path, recordPath, key);
    if (why.empty())
      return CachedArtifact{path.str().str(), /*hit=*/true, /*compileMs=*/0};
    emitWarning(loc) << "discarding the compile cache entry '" << path
                     << "': " << why << "; compiling it again";
    (void)llvm::sys::fs::remove(path);
    (void)llvm::sys::fs::remove(recordPath);
  }

  SmallString<256> tempPath;
  if (failed(startEntry(dir, key, loc, tempPath)))
    return failure();
  llvm::FileRemover removeTemp(tempPath);
  FailureOr<double> ms =
      compileText(context, programText, bufferName, options, tempPath);
  if (failed(ms))
    return failure();

  // The record goes in first: a reader that finds the entry finds its
  // record too (a reader that finds only the record misses and compiles).
  std::string why;
  std::unique_ptr<llvm::MemoryBuffer> bytes = readFile(tempPath, why);
  if (!bytes) {
    emitError(loc) << why;
    return failure();
  }
  std::string record =
      formatRecord(key, ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(
                                              bytes->getBufferStart()),
                                          bytes->getBufferSize()));
  SmallString<256> tempRecord;
  if (std::error_code ec = writeTemporary(dir, key, record, tempRecord)) {
    emitError(loc) << "cannot write the record of a compiled artifact in '"
                   << dir << "': " << ec.message();
    return failure();
  }
  llvm::FileRemover removeTempRecord(tempRecord);
  if (std::error_code ec = llvm::sys::fs::rename(tempRecord, recordPath)) {
    emitError(loc) << "cannot move the record to '" << recordPath
                   << "': " << ec.message();
    return failure();
  }
  removeTempRecord.releaseFile();
  if (std::error_code ec = llvm::sys::fs::rename(tempPath, path)) {
    emitError(loc) << "cannot move the compiled artifact to '" << path
                   << "': " << ec.message();
    return failure();
  }
  removeTemp.releaseFile();
  return CachedArtifact{path.str().str(), /*hit=*/false, *ms};
}

//===----------------------------------------------------------------------===//
// Entries keyed by a source file (an ONNX model)
//===----------------------------------------------------------------------===//

/// The key of a source entry: the program is named by the SHA-256 of the
/// source file's bytes (`contentHash`) and `importKey` (what the importer
/// made of them: its version and options) instead of its text.
static std::string getSourceKey(StringRef contentHash, StringRef importKey,
                                StringRef optionsString, StringRef device) {
  return getCacheKey(("source " + importKey + "\n" + contentHash).str(),
                     optionsString, device);
}

/// The name of the record of what `path` held when it looked like `st`:
/// a hash of its resolved path, device, inode, size and modification and
/// change times (the change time moves on every write, and cannot be set).
static std::string getStatKey(StringRef realPath, const struct stat &st) {
  llvm::SHA256 hash;
  for (const std::string &text :
       {std::string("plaidml-source-stat 1"), realPath.str(),
        std::to_string(st.st_dev), std::to_string(st.st_ino),
        std::to_string(st.st_size), std::to_string(st.st_mtim.tv_sec),
        std::to_string(st.st_mtim.tv_nsec), std::to_string(st.st_ctim.tv_sec),
        std::to_string(st.st_ctim.tv_nsec)}) {
    hash.update(std::to_string(text.size()) + ":");
    hash.update(text);
  }
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

static bool sameFile(const struct stat &a, const struct stat &b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino &&
         a.st_size == b.st_size && a.st_mtim.tv_sec == b.st_mtim.tv_sec &&
         a.st_mtim.tv_nsec == b.st_mtim.tv_nsec &&
         a.st_ctim.tv_sec == b.st_ctim.tv_sec &&
         a.st_ctim.tv_nsec == b.st_ctim.tv_nsec;
}

static constexpr StringLiteral kSourceRecordHeader = "plaidml-source-hash 1\n";

/// The content hash recorded for `statKey` in `dir`, or "" (none, or one
/// that is not a regular file of the user that only the user can write).
static std::string readSourceRecord(StringRef dir, StringRef statKey) {
  SmallString<256> path(dir);
  llvm::sys::path::append(path, statKey + ".src");
  struct stat st;
  if (lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
      st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)))
    return "";
  std::string why;
  std::unique_ptr<llvm::MemoryBuffer> text = readFile(path, why);
  if (!text)
    return "";
  StringRef body = text->getBuffer();
  if (!body.consume_front(kSourceRecordHeader) || !body.consume_back("\n") ||
      body.size() != 64 || !llvm::all_of(body, llvm::isHexDigit))
    return "";
  return body.str();
}

/// The source entry `key` in `dir` when it is there and intact: its
/// artifact, description and data; a damaged one is removed with a warning.
static std::optional<CachedSource> findSourceEntry(StringRef dir, StringRef key,
                                                   Location loc) {
  SmallString<256> path(dir), record(dir), description(dir), data(dir);
  llvm::sys::path::append(path, key + ".so");
  llvm::sys::path::append(record, key + ".meta");
  llvm::sys::path::append(description, key + ".desc");
  llvm::sys::path::append(data, key + ".data");
  struct stat st;
  if (lstat(path.c_str(), &st) != 0)
    return std::nullopt;
  CachedSource result;
  std::string why;
  for (StringRef side : {StringRef(description), StringRef(data)}) {
    if (lstat(side.str().c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
        st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
      why = "'" + side.str() + "' is missing, or not a regular file of yours";
      break;
    }
  }
  if (why.empty()) {
    result.description = readFile(description, why);
    if (result.description)
      result.data = readFile(data, why);
  }
  if (why.empty())
    why = verifyEntry(path, record, key,
                      formatSideRecord(getBytes(*result.description),
                                       getBytes(*result.data)));
  if (why.empty()) {
    result.artifact = CachedArtifact{path.str().str(), /*hit=*/true, 0};
    return result;
  }
  emitWarning(loc) << "discarding the compile cache entry '" << path
                   << "': " << why << "; compiling it again";
  for (StringRef file : {StringRef(path), StringRef(record),
                         StringRef(description), StringRef(data)})
    (void)llvm::sys::fs::remove(file);
  return std::nullopt;
}

/// Writes `bytes` to a temporary file in `dir` and renames it to `path`.
static LogicalResult writeEntryFile(StringRef dir, StringRef key,
                                    StringRef bytes, StringRef path,
                                    Location loc) {
  SmallString<256> temp;
  if (std::error_code ec = writeTemporary(dir, key, bytes, temp)) {
    emitError(loc) << "cannot write in '" << dir << "': " << ec.message();
    return failure();
  }
  llvm::FileRemover remover(temp);
  if (std::error_code ec = llvm::sys::fs::rename(temp, path)) {
    emitError(loc) << "cannot move a file to '" << path
                   << "': " << ec.message();
    return failure();
  }
  remover.releaseFile();
  return success();
}

FailureOr<CachedSource> mlir::plaidml::getCachedSourceArtifact(
    MLIRContext &context, StringRef sourcePath, StringRef importKey,
    const CompileOptions &options,
    llvm::function_ref<FailureOr<ImportedSource>(StringRef bytes)> import) {
  Location loc = FileLineColLoc::get(&context, sourcePath, 0, 0);
  llvm::Expected<std::string> optionsString = getResolvedOptionsString(options);
  if (!optionsString) {
    emitError(loc) << llvm::toString(optionsString.takeError());
    return failure();
  }
  std::string dir = chooseCacheDirectory(loc);
  std::string source = sourcePath.str();
  struct stat before;
  SmallString<256> realPath;
  if (stat(source.c_str(), &before) != 0) {
    emitError(loc) << "cannot read '" << sourcePath
                   << "': " << std::strerror(errno);
    return failure();
  }
  if (std::error_code ec = llvm::sys::fs::real_path(sourcePath, realPath)) {
    emitError(loc) << "cannot read '" << sourcePath << "': " << ec.message();
    return failure();
  }

  // A hit through the record of the file's last known state: the file is
  // neither read nor imported.
  std::string statKey = getStatKey(realPath, before);
  if (!dir.empty()) {
    std::string hash = readSourceRecord(dir, statKey);
    if (!hash.empty())
      if (std::optional<CachedSource> hit = findSourceEntry(
              dir,
              getSourceKey(hash, importKey, *optionsString, options.device),
              loc))
        return std::move(*hit);
  }

  // Otherwise the file is read once: hashed, and on a miss imported from
  // these same bytes (IsVolatile: read, not mapped, so a writer cannot
  // change them under the importer).
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> bytes =
      llvm::MemoryBuffer::getFile(sourcePath, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false,
                                  /*IsVolatile=*/true);
  if (!bytes) {
    emitError(loc) << "cannot read '" << sourcePath
                   << "': " << bytes.getError().message();
    return failure();
  }
  std::string hash =
      llvm::toHex(llvm::SHA256::hash(getBytes(**bytes)), /*LowerCase=*/true);
  struct stat after;
  // The record goes in when the file did not change while it was read and
  // its last change is over two seconds older than the read: a write in the
  // same tick of the file system's clock would leave the same times behind.
  if (!dir.empty() && stat(source.c_str(), &after) == 0 &&
      sameFile(before, after) &&
      after.st_ctim.tv_sec + 2 < std::chrono::system_clock::to_time_t(
                                     std::chrono::system_clock::now())) {
    SmallString<256> record(dir);
    llvm::sys::path::append(record, statKey + ".src");
    (void)writeEntryFile(
        dir, statKey, (kSourceRecordHeader + hash + "\n").str(), record, loc);
  }
  std::string key =
      getSourceKey(hash, importKey, *optionsString, options.device);
  if (!dir.empty())
    if (std::optional<CachedSource> hit = findSourceEntry(dir, key, loc))
      return std::move(*hit);

  // A miss: import, then compile like a program.
  FailureOr<ImportedSource> imported = import((*bytes)->getBuffer());
  if (failed(imported))
    return failure();
  CachedSource result;
  result.imported = true;
  auto keep = [&](std::string &text) {
    return llvm::MemoryBuffer::getMemBufferCopy(text, sourcePath);
  };
  if (dir.empty() || !imported->cacheable) {
    FailureOr<CachedArtifact> artifact =
        dir.empty() ? compileUncached(context, imported->programText, options,
                                      sourcePath, loc)
                    : getCachedArtifact(context, imported->programText, options,
                                        sourcePath);
    if (failed(artifact))
      return failure();
    result.artifact = *artifact;
    result.description = keep(imported->description);
    result.data = std::move(imported->data);
    return result;
  }
  // The artifact goes through the cache under the source key; the side
  // files and the record are written before it is renamed into place.
  SmallString<256> tempPath;
  if (failed(startEntry(dir, key, loc, tempPath)))
    return failure();
  llvm::FileRemover removeTemp(tempPath);
  FailureOr<double> ms = compileText(context, imported->programText, sourcePath,
                                     options, tempPath);
  if (failed(ms))
    return failure();
  imported->programText.clear();
  std::string why;
  std::unique_ptr<llvm::MemoryBuffer> artifact = readFile(tempPath, why);
  if (!artifact) {
    emitError(loc) << why;
    return failure();
  }
  StringRef description = imported->description;
  ArrayRef<uint8_t> data = getBytes(*imported->data);
  SmallString<256> path(dir), record(dir), descriptionPath(dir), dataPath(dir);
  llvm::sys::path::append(path, key + ".so");
  llvm::sys::path::append(record, key + ".meta");
  llvm::sys::path::append(descriptionPath, key + ".desc");
  llvm::sys::path::append(dataPath, key + ".data");
  std::string recordText = formatRecord(
      key, getBytes(*artifact),
      formatSideRecord(ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(
                                             description.data()),
                                         description.size()),
                       data));
  if (failed(writeEntryFile(dir, key, recordText, record, loc)) ||
      failed(writeEntryFile(dir, key, description, descriptionPath, loc)) ||
      failed(
          writeEntryFile(dir, key, imported->data->getBuffer(), dataPath, loc)))
    return failure();
  if (std::error_code ec = llvm::sys::fs::rename(tempPath, path)) {
    emitError(loc) << "cannot move the compiled artifact to '" << path
                   << "': " << ec.message();
    return failure();
  }
  removeTemp.releaseFile();
  result.artifact = CachedArtifact{path.str().str(), /*hit=*/false, *ms};
  result.description = keep(imported->description);
  result.data = std::move(imported->data);
  return result;
}
