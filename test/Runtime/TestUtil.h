//===- TestUtil.h - Helpers shared by the runtime unit tests ----*- C++ -*-===//
//
// A temporary directory that removes itself, an environment variable setting
// that restores the old value, file writing, and a HostArray built from a
// list of floats: the small pieces every runtime test file needs.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_TEST_RUNTIME_TESTUTIL_H
#define PLAIDML_TEST_RUNTIME_TESTUTIL_H

#include "plaidml/Runtime/HostArray.h"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace plaidml::rt::test {

/// A fresh directory under $TMPDIR (or /tmp), removed with its contents.
class TempDir {
public:
  TempDir() {
    const char *base = std::getenv("TMPDIR");
    std::string tmpl =
        std::string(base && base[0] ? base : "/tmp") + "/plaidml-rt-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (mkdtemp(buf.data()))
      dir = buf.data();
  }
  ~TempDir() {
    std::error_code ec;
    if (!dir.empty())
      std::filesystem::remove_all(dir, ec);
  }
  const std::string &path() const { return dir; }
  std::string file(const std::string &name) const { return dir + "/" + name; }

private:
  std::string dir;
};

/// Sets (or, with nullopt, unsets) an environment variable for a scope.
class ScopedEnv {
public:
  ScopedEnv(const char *name, std::optional<std::string> value) : name(name) {
    if (const char *old = std::getenv(name))
      saved = old;
    if (value)
      setenv(name, value->c_str(), 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    if (saved)
      setenv(name, saved->c_str(), 1);
    else
      unsetenv(name);
  }

private:
  const char *name;
  std::optional<std::string> saved;
};

inline void writeFile(const std::string &path, const std::string &content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
}

inline HostArray makeF32(std::vector<int64_t> shape, std::vector<float> data) {
  HostArray array;
  array.dtype = DType::f32;
  array.shape = std::move(shape);
  array.bytes.resize(data.size() * 4);
  std::memcpy(array.bytes.data(), data.data(), array.bytes.size());
  return array;
}

inline std::vector<float> toF32(const HostArray &array) {
  std::vector<float> values(array.bytes.size() / 4);
  std::memcpy(values.data(), array.bytes.data(), values.size() * 4);
  return values;
}

} // namespace plaidml::rt::test

#endif // PLAIDML_TEST_RUNTIME_TESTUTIL_H
