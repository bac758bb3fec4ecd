//===- Args.h - Command-line walking shared by the tools --------*- C++ -*-===//
//
// ArgWalker: one argument at a time, with `--name=value` and `--name value`
// read alike, so that plaidml-run and plaidml-setup parse options the same
// way. Header-only, part of the PlaidMLRunner library's interface.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_RUNNER_ARGS_H
#define PLAIDML_RUNNER_ARGS_H

#include <optional>
#include <string>

namespace plaidml::run {

class ArgWalker {
public:
  ArgWalker(int argc, char **argv) : argc(argc), argv(argv) {}

  /// Moves to the next argument; false after the last one. For
  /// `--name=value`, name() is `--name` and the value is kept for value().
  bool next() {
    if (++i >= argc)
      return false;
    arg = argv[i];
    inlineValue.reset();
    if (arg.rfind("--", 0) == 0) {
      size_t eq = arg.find('=');
      if (eq != std::string::npos) {
        inlineValue = arg.substr(eq + 1);
        arg = arg.substr(0, eq);
      }
    }
    return true;
  }

  /// The argument, without an `=value` part.
  const std::string &name() const { return arg; }
  /// Whether the argument was written `--name=value`.
  bool hasInlineValue() const { return inlineValue.has_value(); }
  const std::optional<std::string> &getInlineValue() const {
    return inlineValue;
  }
  /// The option's value: the `=value` part, else the next argument
  /// (consumed); nothing when there is none.
  std::optional<std::string> value() {
    if (inlineValue)
      return inlineValue;
    if (i + 1 >= argc)
      return std::nullopt;
    return std::string(argv[++i]);
  }

private:
  int argc;
  char **argv;
  int i = 0;
  std::string arg;
  std::optional<std::string> inlineValue;
};

} // namespace plaidml::run

#endif // PLAIDML_RUNNER_ARGS_H
