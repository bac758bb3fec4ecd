//===- Manifest.cpp - Parsing artifact manifests --------------------------===//
//
// A line-oriented parser for the `plaidml_manifest` text (docs/ABI.md
// section 3). It is strict: fields are separated by single spaces, header
// lines come before the first `entry`, `input` lines precede `output` lines,
// names do not repeat, and the text ends with `end`. The compiler writes
// manifests, so anything else is a compiler/runtime mismatch that deserves a
// precise message ("line N: ...") rather than a guess.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runtime/Manifest.h"
#include "plaidml/Runtime/Driver.h"

#include <charconv>
#include <limits>
#include <map>
#include <optional>

using namespace plaidml::rt;

int64_t TensorSpec::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

size_t TensorSpec::getByteSize() const {
  return static_cast<size_t>(getNumElements()) * getDTypeSize(dtype);
}

std::string TensorSpec::describe() const {
  return describeShapeAndType(shape, dtype);
}

bool TensorSpec::matches(const HostArray &array) const {
  return array.dtype == dtype && array.shape == shape;
}

const EntrySpec *Manifest::findEntry(std::string_view name) const {
  for (const EntrySpec &entry : entries)
    if (entry.name == name)
      return &entry;
  return nullptr;
}

std::string Manifest::getArch() const {
  return triple.substr(0, triple.find('-'));
}

namespace {
/// Splits a line at single spaces; an empty field (double, leading or
/// trailing space) makes the result empty.
std::vector<std::string_view> splitFields(std::string_view line, bool &ok) {
  std::vector<std::string_view> fields;
  ok = true;
  size_t start = 0;
  while (true) {
    size_t space = line.find(' ', start);
    std::string_view field = line.substr(start, space - start);
    if (field.empty())
      ok = false;
    fields.push_back(field);
    if (space == std::string_view::npos)
      break;
    start = space + 1;
  }
  return fields;
}

bool isPrintableName(std::string_view name) {
  for (char c : name)
    if (c <= ' ' || c >= 127)
      return false;
  return !name.empty();
}

/// A positive byte count below 2^63 (a `workspace` or `prepare` size).
std::optional<uint64_t> parseByteCount(std::string_view v) {
  uint64_t bytes = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), bytes);
  if (ec != std::errc() || end != v.data() + v.size() || bytes == 0 ||
      bytes > uint64_t(std::numeric_limits<int64_t>::max()))
    return std::nullopt;
  return bytes;
}

bool isSymbolName(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9'))
    return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$'))
      return false;
  return true;
}

/// A device requirement: a SPIR-V or OpenCL name (letters, digits, '_') or
/// a device property (with '-': "subgroup-size-32").
bool isRequirementName(std::string_view name) {
  if (name.empty())
    return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '_' || c == '-'))
      return false;
  return true;
}

/// Element types as the manifest spells them: the MLIR names, with signless
/// integers read as signed. NumPy-style aliases are not manifest syntax.
bool isManifestTypeName(std::string_view name) {
  static const char *const names[] = {
      "i1",  "si8",  "si16", "si32", "si64", "ui8", "ui16", "ui32", "ui64",
      "f16", "bf16", "f32",  "f64",  "i8",   "i16", "i32",  "i64"};
  for (const char *n : names)
    if (name == n)
      return true;
  return false;
}

std::string quote(std::string_view s) { return "'" + std::string(s) + "'"; }
} // namespace

StatusOr<Manifest> Manifest::parse(std::string_view text) {
  Manifest manifest;
  unsigned lineNo = 0;
  auto fail = [&](const std::string &what) {
    return Status::invalidArgument("line " + std::to_string(lineNo) + ": " +
                                   what);
  };

  bool sawEnd = false, sawDevice = false;
  std::map<std::string, unsigned> headerLines; // keyword -> line
  EntrySpec *entry = nullptr;
  std::map<std::string, unsigned> tensorLines; // names in the current entry

  size_t pos = 0;
  while (pos < text.size() || lineNo == 0) {
    size_t eol = text.find('\n', pos);
    std::string_view line = text.substr(pos, eol - pos);
    pos = eol == std::string_view::npos ? text.size() : eol + 1;
    ++lineNo;

    if (sawEnd) {
      // Only the newline that ends the `end` line may follow it.
      return fail("text after 'end'");
    }
    if (line.empty())
      return fail(lineNo == 1 && text.empty() ? "empty manifest"
                                              : "empty line");
    bool fieldsOk;
    std::vector<std::string_view> fields = splitFields(line, fieldsOk);
    if (!fieldsOk)
      return fail("empty field in " + quote(line) +
                  " (fields are separated by single spaces)");
    std::string_view keyword = fields[0];
    auto expectFields = [&](size_t n, const char *what) -> Status {
      if (fields.size() == n + 1)
        return Status::success();
      return fail(quote(keyword) + " takes " + what + ", got " +
                  std::to_string(fields.size() - 1) + " field(s) in " +
                  quote(line));
    };

    if (lineNo == 1) {
      if (keyword != "plaidml-artifact" || fields.size() != 2)
        return fail("expected 'plaidml-artifact <version>', got " +
                    quote(line));
      std::string_view v = fields[1];
      if (v.size() > 6 || v.find_first_not_of("0123456789") != v.npos)
        return fail("bad format version " + quote(v));
      manifest.version = std::stoi(std::string(v));
      if (manifest.version != kArtifactFormatVersion)
        return fail("artifact format version " + std::string(v) +
                    " is not supported (this runtime reads version " +
                    std::to_string(kArtifactFormatVersion) + ")");
      continue;
    }

    if (keyword == "compiler" || keyword == "device" || keyword == "triple" ||
        keyword == "cpu" || keyword == "features" || keyword == "requires") {
      if (entry)
        return fail(quote(keyword) + " must come before the first 'entry'");
      auto [it, inserted] = headerLines.emplace(std::string(keyword), lineNo);
      if (!inserted)
        return fail("duplicate " + quote(keyword) + " line (first on line " +
                    std::to_string(it->second) + ")");
      if (keyword == "requires") {
        if (fields.size() != 2)
          return fail("'requires' takes one comma-separated list");
        std::string_view list = fields[1];
        size_t start = 0;
        while (true) {
          size_t comma = list.find(',', start);
          std::string_view r = list.substr(start, comma - start);
          if (!isRequirementName(r))
            return fail("bad device requirement " + quote(r));
          manifest.requirements.emplace_back(r);
          if (comma == std::string_view::npos)
            break;
          start = comma + 1;
        }
        continue;
      }
      if (keyword == "features") {
        if (fields.size() > 2)
          return fail("'features' takes one comma-separated list");
        if (fields.size() == 1)
          continue; // no features
        std::string_view list = fields[1];
        size_t start = 0;
        while (true) {
          size_t comma = list.find(',', start);
          std::string_view f = list.substr(start, comma - start);
          if (f.size() < 2 || (f[0] != '+' && f[0] != '-'))
            return fail("bad CPU feature " + quote(f) +
                        " (expected '+name' or '-name')");
          manifest.features.emplace_back(f);
          if (comma == std::string_view::npos)
            break;
          start = comma + 1;
        }
        continue;
      }
      if (Status s = expectFields(1, "one field"); !s.ok())
        return s;
      std::string value(fields[1]);
      if (keyword == "compiler") {
        manifest.compiler = value;
      } else if (keyword == "triple") {
        manifest.triple = value;
      } else if (keyword == "cpu") {
        manifest.cpu = value;
      } else {
        if (!getDriver(value).ok()) {
          std::vector<Driver *> drivers = getDrivers();
          std::string names;
          for (size_t i = 0; i < drivers.size(); ++i)
            names += (i == 0                    ? ""
                      : i + 1 == drivers.size() ? " or "
                                                : ", ") +
                     drivers[i]->getName();
          return fail("unknown device kind " + quote(value) + " (expected " +
                      names + ")");
        }
        manifest.device = value;
        sawDevice = true;
      }
      continue;
    }

    if (keyword == "entry") {
      if (Status s = expectFields(2, "a name and a symbol"); !s.ok())
        return s;
      if (!isPrintableName(fields[1]))
        return fail("bad entry name " + quote(fields[1]));
      if (!isSymbolName(fields[2]))
        return fail("bad symbol name " + quote(fields[2]));
      if (manifest.findEntry(fields[1]))
        return fail("duplicate entry " + quote(fields[1]));
      manifest.entries.emplace_back();
      entry = &manifest.entries.back();
      entry->name = std::string(fields[1]);
      entry->symbol = std::string(fields[2]);
      tensorLines.clear();
      continue;
    }

    if (keyword == "workspace") {
      if (!entry)
        return fail("'workspace' before any 'entry'");
      if (Status s = expectFields(1, "a number of bytes"); !s.ok())
        return s;
      if (!entry->inputs.empty() || !entry->outputs.empty() ||
          entry->workspaceBytes != 0 || !entry->prepareSymbol.empty())
        return fail("'workspace' of entry " + quote(entry->name) +
                    " must come once, right after its 'entry' line");
      std::optional<uint64_t> bytes = parseByteCount(fields[1]);
      if (!bytes)
        return fail("bad workspace size " + quote(fields[1]) +
                    " (a positive number of bytes below 2^63)");
      entry->workspaceBytes = *bytes;
      continue;
    }

    if (keyword == "prepare") {
      if (!entry)
        return fail("'prepare' before any 'entry'");
      if (Status s = expectFields(2, "a symbol and a number of bytes"); !s.ok())
        return s;
      if (!entry->inputs.empty() || !entry->outputs.empty() ||
          !entry->prepareSymbol.empty())
        return fail("'prepare' of entry " + quote(entry->name) +
                    " must come once, before its inputs");
      if (!isSymbolName(fields[1]))
        return fail("bad symbol name " + quote(fields[1]));
      std::optional<uint64_t> bytes = parseByteCount(fields[2]);
      if (!bytes)
        return fail("bad prepared size " + quote(fields[2]) +
                    " (a positive number of bytes below 2^63)");
      entry->prepareSymbol = std::string(fields[1]);
      entry->preparedBytes = *bytes;
      continue;
    }

    if (keyword == "input" || keyword == "output") {
      bool isInput = keyword == "input";
      if (!entry)
        return fail(quote(keyword) + " before any 'entry'");
      // An input the preparation reads ends in `param`.
      bool param = isInput && fields.size() == 4 && fields[3] == "param";
      if (param)
        fields.pop_back();
      if (param && entry->prepareSymbol.empty())
        return fail("input " + quote(fields[1]) +
                    " is marked 'param', but entry " + quote(entry->name) +
                    " has no 'prepare' line");
      if (Status s = expectFields(2, "a name and a shape like 2x3xf32");
          !s.ok())
        return s;
      if (isInput && !entry->outputs.empty())
        return fail("input " + quote(fields[1]) +
                    " after the outputs of entry " + quote(entry->name) +
                    " (inputs come first)");
      if (!isPrintableName(fields[1]))
        return fail("bad " + std::string(keyword) + " name " +
                    quote(fields[1]));
      auto [it, inserted] = tensorLines.emplace(std::string(fields[1]), lineNo);
      if (!inserted)
        return fail("duplicate name " + quote(fields[1]) + " in entry " +
                    quote(entry->name) + " (first on line " +
                    std::to_string(it->second) + ")");
      TensorSpec spec;
      spec.name = std::string(fields[1]);
      spec.param = param;
      std::string error;
      std::string_view typeSpec = fields[2];
      std::string_view typeName = typeSpec.substr(typeSpec.rfind('x') + 1);
      if (!isManifestTypeName(typeName))
        error = "bad shape " + quote(typeSpec) +
                " (expected dimensions and an element type like 2x3xf32; "
                "types are i1, si8..si64, ui8..ui64, f16, bf16, f32, f64)";
      else
        parseShapeAndType(typeSpec, spec.shape, spec.dtype, error);
      if (!error.empty())
        return fail(std::string(keyword) + " " + quote(fields[1]) + ": " +
                    error);
      (isInput ? entry->inputs : entry->outputs).push_back(std::move(spec));
      continue;
    }

    if (keyword == "end") {
      if (Status s = expectFields(0, "no fields"); !s.ok())
        return s;
      sawEnd = true;
      continue;
    }
    return fail("unknown line " + quote(line));
  }

  if (!sawEnd)
    return fail("manifest ends without 'end' (truncated?)");
  if (!sawDevice)
    return Status::invalidArgument("manifest has no 'device' line");
  if (manifest.entries.empty())
    return Status::invalidArgument("manifest declares no entry point");
  // Only CPU code takes a workspace (docs/ABI.md section 2).
  for (const EntrySpec &e : manifest.entries) {
    if (e.workspaceBytes != 0 && manifest.device != "cpu")
      return Status::invalidArgument("entry '" + e.name +
                                     "' has a workspace, which only " +
                                     "artifacts for the cpu device take");
    if (!e.prepareSymbol.empty() && manifest.device != "cpu")
      return Status::invalidArgument("entry '" + e.name +
                                     "' has a preparation, which only " +
                                     "artifacts for the cpu device have");
  }
  return manifest;
}
