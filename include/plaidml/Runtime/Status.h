//===- Status.h - Errors as values for the runtime --------------*- C++ -*-===//
//
// The runtime reports every failure as a value: a Status (success, or a
// one-line message naming what failed) or a StatusOr<T> (a T, or such a
// message). The project builds with -fno-exceptions, so nothing in the runtime
// API throws, and nothing aborts: callers print the message and choose what to
// do. Both types are [[nodiscard]] so that an ignored error is a warning.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_RUNTIME_STATUS_H
#define PLAIDML_RUNTIME_STATUS_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace plaidml::rt {

/// Success, or a failure carrying a message that names what failed.
class [[nodiscard]] Status {
public:
  /// A success.
  Status() = default;

  static Status success() { return Status(); }
  static Status failure(std::string message) {
    Status status;
    status.failed = true;
    status.msg = std::move(message);
    return status;
  }

  bool ok() const { return !failed; }
  /// The failure message (empty on success).
  const std::string &message() const { return msg; }

  /// Returns a failure whose message is `prefix + ": " + message()`; a
  /// success stays a success.
  Status withContext(const std::string &prefix) const {
    return ok() ? *this : failure(prefix + ": " + msg);
  }

private:
  bool failed = false;
  std::string msg;
};

/// A value of type T, or a failure Status.
template <typename T> class [[nodiscard]] StatusOr {
public:
  StatusOr(T value) : val(std::move(value)) {}
  /// `status` must be a failure.
  StatusOr(Status status) : st(std::move(status)) {
    assert(!st.ok() && "StatusOr built from a successful Status");
  }

  bool ok() const { return val.has_value(); }
  /// The failure (a success when ok()).
  const Status &status() const { return st; }
  const std::string &message() const { return st.message(); }

  T &value() & {
    assert(ok() && "value() of a failed StatusOr");
    return *val;
  }
  const T &value() const & {
    assert(ok() && "value() of a failed StatusOr");
    return *val;
  }
  T &&value() && {
    assert(ok() && "value() of a failed StatusOr");
    return std::move(*val);
  }
  T &operator*() & { return value(); }
  const T &operator*() const & { return value(); }
  T &&operator*() && { return std::move(*this).value(); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }

private:
  std::optional<T> val;
  Status st;
};

} // namespace plaidml::rt

#endif // PLAIDML_RUNTIME_STATUS_H
