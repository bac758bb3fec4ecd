//===- FileUtil.h - Files and text lines (runtime-internal) -----*- C++ -*-===//
//
// Reads whole files with C stdio rather than iostreams: libstdc++'s
// istreambuf_iterator throws on read errors (e.g. reading a directory) even
// when the caller is built with -fno-exceptions, and the runtime must report
// such failures as values; writes whole files the same way, with the
// system's reason on failure. Also the line trimming that the config and
// /proc/cpuinfo parsers share, and the byte counts of device descriptions.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_RUNTIME_FILEUTIL_H
#define PLAIDML_LIB_RUNTIME_FILEUTIL_H

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>

namespace plaidml::rt::detail {

/// "512 bytes", "1.5 KiB", ..., "2.0 TiB".
inline std::string formatBytes(uint64_t bytes) {
  const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char buf[64];
  if (unit == 0)
    std::snprintf(buf, sizeof(buf), "%llu bytes",
                  static_cast<unsigned long long>(bytes));
  else
    std::snprintf(buf, sizeof(buf), "%.1f %s", value, units[unit]);
  return buf;
}

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

/// Writes `pieces` one after the other to the file at `path` (created or
/// truncated). On failure returns false and sets `error` to the system's
/// reason (e.g. "No space left on device"), including a failure to close.
inline bool writeWholeFile(const std::string &path,
                           std::initializer_list<std::string_view> pieces,
                           std::string &error) {
  std::FILE *file = std::fopen(path.c_str(), "wb");
  if (!file) {
    error = std::strerror(errno);
    return false;
  }
  int err = 0;
  for (std::string_view piece : pieces)
    if (!err && !piece.empty() &&
        std::fwrite(piece.data(), 1, piece.size(), file) != piece.size())
      err = errno ? errno : EIO;
  if (std::fclose(file) != 0 && !err)
    err = errno ? errno : EIO;
  if (err) {
    error = std::strerror(err);
    return false;
  }
  return true;
}

/// `s` without leading blanks and trailing blanks or carriage returns.
inline std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos)
    return "";
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

} // namespace plaidml::rt::detail

#endif // PLAIDML_LIB_RUNTIME_FILEUTIL_H
