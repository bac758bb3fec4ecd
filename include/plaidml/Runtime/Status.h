//===- Status.h - Errors as values for the runtime --------------*- C++ -*-===//
//
// The runtime reports every failure as a value: a Status (success, or a
// code saying what kind of failure it is and a one-line message naming what
// failed) or a StatusOr<T> (a T, or such a failure). The codes are those of
// IREE's and Abseil's status (invalid argument, not found, unavailable,
// resource exhausted, failed precondition, internal, ...), so that callers
// and tests decide on the code and show the message to people. The project
// builds with -fno-exceptions, so nothing in the runtime API throws, and
// nothing aborts: callers print the message and choose what to do. Both
// types are [[nodiscard]] so that an ignored error is a warning.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_RUNTIME_STATUS_H
#define PLAIDML_RUNTIME_STATUS_H

#include <cassert>
#include <cerrno>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace plaidml::rt {

/// What kind of failure a Status is.
enum class StatusCode : uint8_t {
  OK = 0,
  /// A failure not classified further.
  Unknown,
  /// The caller passed something malformed: a bad device name, input data
  /// of the wrong shape, an artifact or manifest that is not well formed.
  InvalidArgument,
  /// A named thing does not exist: a file, a device, an entry point, a
  /// driver.
  NotFound,
  /// Something needed is not usable here and now: a driver without its
  /// loader or ICD, a device that does not open.
  Unavailable,
  /// Memory (host or device) or another limit ran out.
  ResourceExhausted,
  /// The request is well formed but the system is not in a state to do it:
  /// an artifact for another device kind, CPU features or device
  /// capabilities that are missing, another ABI or format version.
  FailedPrecondition,
  /// A value is outside the range the device or format allows (a grid
  /// larger than the device's).
  OutOfRange,
  /// The operation is not implemented (by this driver).
  Unimplemented,
  /// The operating system refused access (permissions).
  PermissionDenied,
  /// Data is damaged: a truncated or corrupted file.
  DataLoss,
  /// A driver or runtime call failed in a way the caller cannot fix.
  Internal,
};

/// "OK", "INVALID_ARGUMENT", "NOT_FOUND", ... (the usual spelling).
inline const char *getStatusCodeName(StatusCode code) {
  switch (code) {
  case StatusCode::OK:
    return "OK";
  case StatusCode::Unknown:
    return "UNKNOWN";
  case StatusCode::InvalidArgument:
    return "INVALID_ARGUMENT";
  case StatusCode::NotFound:
    return "NOT_FOUND";
  case StatusCode::Unavailable:
    return "UNAVAILABLE";
  case StatusCode::ResourceExhausted:
    return "RESOURCE_EXHAUSTED";
  case StatusCode::FailedPrecondition:
    return "FAILED_PRECONDITION";
  case StatusCode::OutOfRange:
    return "OUT_OF_RANGE";
  case StatusCode::Unimplemented:
    return "UNIMPLEMENTED";
  case StatusCode::PermissionDenied:
    return "PERMISSION_DENIED";
  case StatusCode::DataLoss:
    return "DATA_LOSS";
  case StatusCode::Internal:
    return "INTERNAL";
  }
  return "UNKNOWN";
}

/// Success, or a failure carrying a code and a message that names what
/// failed.
class [[nodiscard]] Status {
public:
  /// A success.
  Status() = default;
  /// A failure with `code` (not OK) and `message`.
  Status(StatusCode code, std::string message)
      : statusCode(code), msg(std::move(message)) {
    assert(code != StatusCode::OK && "a failure needs a code other than OK");
  }

  static Status success() { return Status(); }
  /// A failure of code Unknown.
  static Status failure(std::string message) {
    return Status(StatusCode::Unknown, std::move(message));
  }
  static Status failure(StatusCode code, std::string message) {
    return Status(code, std::move(message));
  }
  static Status invalidArgument(std::string message) {
    return Status(StatusCode::InvalidArgument, std::move(message));
  }
  static Status notFound(std::string message) {
    return Status(StatusCode::NotFound, std::move(message));
  }
  static Status unavailable(std::string message) {
    return Status(StatusCode::Unavailable, std::move(message));
  }
  static Status resourceExhausted(std::string message) {
    return Status(StatusCode::ResourceExhausted, std::move(message));
  }
  static Status failedPrecondition(std::string message) {
    return Status(StatusCode::FailedPrecondition, std::move(message));
  }
  static Status outOfRange(std::string message) {
    return Status(StatusCode::OutOfRange, std::move(message));
  }
  static Status unimplemented(std::string message) {
    return Status(StatusCode::Unimplemented, std::move(message));
  }
  static Status permissionDenied(std::string message) {
    return Status(StatusCode::PermissionDenied, std::move(message));
  }
  static Status dataLoss(std::string message) {
    return Status(StatusCode::DataLoss, std::move(message));
  }
  static Status internal(std::string message) {
    return Status(StatusCode::Internal, std::move(message));
  }
  /// The code of an errno value: ENOENT is NotFound, EACCES/EPERM
  /// PermissionDenied, ENOMEM ResourceExhausted, anything else Unknown.
  static StatusCode codeOfErrno(int error) {
    switch (error) {
    case ENOENT:
    case ENOTDIR:
      return StatusCode::NotFound;
    case EACCES:
    case EPERM:
    case EROFS:
      return StatusCode::PermissionDenied;
    case ENOMEM:
    case ENOSPC:
    case EMFILE:
    case ENFILE:
      return StatusCode::ResourceExhausted;
    default:
      return StatusCode::Unknown;
    }
  }

  bool ok() const { return statusCode == StatusCode::OK; }
  StatusCode code() const { return statusCode; }
  /// The failure message (empty on success).
  const std::string &message() const { return msg; }
  /// "NOT_FOUND: no Vulkan device vulkan:5 (...)", or "OK".
  std::string toString() const {
    return ok() ? "OK" : getStatusCodeName(statusCode) + (": " + msg);
  }

  /// Returns a failure of the same code whose message is
  /// `prefix + ": " + message()`; a success stays a success.
  Status withContext(const std::string &prefix) const {
    return ok() ? *this : Status(statusCode, prefix + ": " + msg);
  }

private:
  StatusCode statusCode = StatusCode::OK;
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
  StatusCode code() const { return st.code(); }
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
