//===- FileUtil.h - File reading for the runtime (internal) -----*- C++ -*-===//
//
// Reads whole files with C stdio rather than iostreams: libstdc++'s
// istreambuf_iterator throws on read errors (e.g. reading a directory) even
// when the caller is built with -fno-exceptions, and the runtime must report
// such failures as values.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_RUNTIME_FILEUTIL_H
#define PLAIDML_LIB_RUNTIME_FILEUTIL_H

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

namespace plaidml::rt::detail {

/// Reads the file at `path` into `content`. On failure returns false and sets
/// `error` to the system's reason (e.g. "No such file or directory").
inline bool readWholeFile(const std::string &path, std::string &content,
                          std::string &error) {
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file) {
    error = std::strerror(errno);
    return false;
  }
  content.clear();
  char chunk[65536];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof(chunk), file)) > 0)
    content.append(chunk, n);
  bool failed = std::ferror(file);
  int err = errno;
  std::fclose(file);
  if (failed) {
    error = std::strerror(err);
    return false;
  }
  return true;
}

} // namespace plaidml::rt::detail

#endif // PLAIDML_LIB_RUNTIME_FILEUTIL_H
