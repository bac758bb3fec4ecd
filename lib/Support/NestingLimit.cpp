//===- NestingLimit.cpp - Refuse textual input nested too deeply ----------===//
//
// The pre-parse scan of NestingLimit.h: one pass over the characters that
// tracks the depth of (, [, { and < outside string literals and comments.
// It only has to be conservative in one direction: closers without openers
// are ignored (the depth never goes below zero), and the arrows and
// comparisons that contain < or > are skipped, so a well-formed program's
// depth is never overestimated; the parser diagnoses the rest.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Support/NestingLimit.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

std::optional<size_t> mlir::plaidml::findNestingPastLimit(StringRef text,
                                                          unsigned limit) {
  size_t depth = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    char next = i + 1 < e ? text[i + 1] : '\0';
    switch (c) {
    case '"': // a string literal, with backslash escapes
      for (++i; i < e && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
      break;
    case '/':
      if (next == '/')
        while (i < e && text[i] != '\n')
          ++i;
      break;
    case '-':
      if (next == '>')
        ++i; // `->`
      break;
    case '<':
      if (next == '=') {
        ++i;
        break;
      }
      [[fallthrough]];
    case '(':
    case '[':
    case '{':
      if (++depth > limit)
        return i;
      break;
    case '>':
      if (next == '=') {
        ++i;
        break;
      }
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      if (depth > 0)
        --depth;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

LogicalResult mlir::plaidml::checkNestingDepth(llvm::SourceMgr &sourceMgr,
                                               MLIRContext *context,
                                               unsigned limit) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  StringRef text = buffer->getBuffer();
  std::optional<size_t> at = findNestingPastLimit(text, limit);
  if (!at)
    return success();
  auto [line, column] = sourceMgr.getLineAndColumn(
      llvm::SMLoc::getFromPointer(text.data() + *at));
  Location loc =
      FileLineColLoc::get(context, buffer->getBufferIdentifier(), line, column);
  return emitError(loc) << "input nested deeper than " << limit
                        << " levels of brackets, braces, parentheses or angle "
                           "brackets; PlaidML's tools refuse it rather than "
                           "overflow the stack";
}
