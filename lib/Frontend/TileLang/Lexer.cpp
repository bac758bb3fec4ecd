//===- Lexer.cpp - Tokens of the Tile language ----------------------------===//
//
// Splits the source buffer into tokens. Every byte is either part of a
// token, whitespace, a comment, or an "unexpected character" error; literals
// are checked here (range, trailing letters) so the parser only ever sees
// well-formed values.
//
//===----------------------------------------------------------------------===//

#include "Lexer.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

using namespace mlir;
using namespace mlir::plaidml::tilelang;

static bool isIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool isDigit(char c) { return c >= '0' && c <= '9'; }
static bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }

/// `c` as a diagnostic shows it: itself when printable, else `\xNN`.
static std::string escapeChar(char c) {
  auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f && c != '\\' && c != '\'')
    return std::string(1, c);
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "\\x" << llvm::format_hex_no_prefix(u, 2);
  return s;
}

/// `text` shortened and escaped for a diagnostic.
static std::string escapeText(StringRef text) {
  constexpr size_t kMax = 24;
  std::string s;
  for (char c : text.take_front(kMax))
    s += escapeChar(c);
  if (text.size() > kMax)
    s += "...";
  return s;
}

std::string mlir::plaidml::tilelang::describeToken(const Token &token) {
  if (token.is(TokenKind::Eof))
    return "end of file";
  return "'" + escapeText(token.text) + "'";
}

Token Lexer::error(const char *start, const llvm::Twine &message) {
  source.emitError(llvm::SMLoc::getFromPointer(start)) << message;
  failed = true;
  cur = end;
  Token t;
  t.kind = TokenKind::Error;
  t.text = StringRef(start, 0);
  return t;
}

void Lexer::skipSpaceAndComments() {
  while (cur != end) {
    char c = *cur;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
        c == '\v') {
      ++cur;
    } else if (c == '#' || (c == '/' && cur + 1 != end && cur[1] == '/')) {
      while (cur != end && *cur != '\n')
        ++cur;
    } else {
      return;
    }
  }
}

Token Lexer::lexNumber(const char *start) {
  bool isFloat = false;
  while (cur != end && isDigit(*cur))
    ++cur;
  if (cur != end && *cur == '.') {
    isFloat = true;
    ++cur;
    while (cur != end && isDigit(*cur))
      ++cur;
  }
  bool badExponent = false;
  if (cur != end && (*cur == 'e' || *cur == 'E')) {
    const char *e = cur + 1;
    if (e != end && (*e == '+' || *e == '-'))
      ++e;
    if (e != end && isDigit(*e)) {
      isFloat = true;
      cur = e;
      while (cur != end && isDigit(*cur))
        ++cur;
    } else {
      badExponent = true;
    }
  }
  // A literal runs into letters, digits or another '.': `12abc`, `1.2.3`.
  if (badExponent || (cur != end && (isIdentChar(*cur) || *cur == '.'))) {
    while (cur != end && (isIdentChar(*cur) || *cur == '.'))
      ++cur;
    return error(start, "invalid numeric literal '" +
                            escapeText(StringRef(start, cur - start)) + "'");
  }
  Token t = make(isFloat ? TokenKind::Float : TokenKind::Int, start);
  if (isFloat) {
    std::string copy = t.text.str();
    errno = 0;
    t.floatValue = std::strtod(copy.c_str(), nullptr);
    if (std::isinf(t.floatValue))
      return error(start, "float literal out of range");
    return t;
  }
  uint64_t value = 0;
  for (char c : t.text) {
    uint64_t digit = c - '0';
    if (value > (static_cast<uint64_t>(INT64_MAX) - digit) / 10)
      return error(start, "integer literal out of range");
    value = value * 10 + digit;
  }
  t.intValue = static_cast<int64_t>(value);
  return t;
}

Token Lexer::lex() {
  if (failed) {
    Token t;
    t.kind = TokenKind::Error;
    t.text = StringRef(end, 0);
    return t;
  }
  skipSpaceAndComments();
  const char *start = cur;
  if (cur == end)
    return make(TokenKind::Eof, start);
  char c = *cur++;
  auto next = [&](char want) {
    if (cur != end && *cur == want) {
      ++cur;
      return true;
    }
    return false;
  };
  if (isIdentStart(c)) {
    while (cur != end && isIdentChar(*cur))
      ++cur;
    Token t = make(TokenKind::Ident, start);
    t.kind = llvm::StringSwitch<TokenKind>(t.text)
                 .Case("function", TokenKind::KwFunction)
                 .Case("default", TokenKind::KwDefault)
                 .Case("no_defract", TokenKind::KwNoDefract)
                 .Default(TokenKind::Ident);
    return t;
  }
  if (isDigit(c) || (c == '.' && cur != end && isDigit(*cur))) {
    cur = start;
    return lexNumber(start);
  }
  switch (c) {
  case '(':
    return make(TokenKind::LParen, start);
  case ')':
    return make(TokenKind::RParen, start);
  case '[':
    return make(TokenKind::LBracket, start);
  case ']':
    return make(TokenKind::RBracket, start);
  case '{':
    return make(TokenKind::LBrace, start);
  case '}':
    return make(TokenKind::RBrace, start);
  case ',':
    return make(TokenKind::Comma, start);
  case ';':
    return make(TokenKind::Semi, start);
  case ':':
    return make(TokenKind::Colon, start);
  case '?':
    return make(TokenKind::Question, start);
  case '+':
    return make(TokenKind::Plus, start);
  case '-':
    return make(next('>') ? TokenKind::Arrow : TokenKind::Minus, start);
  case '*':
    return make(TokenKind::Star, start);
  case '/':
    return make(TokenKind::Slash, start);
  case '%':
    return make(TokenKind::Percent, start);
  case '^':
    return make(TokenKind::Caret, start);
  case '~':
    return make(TokenKind::Tilde, start);
  case '=':
    return make(next('=') ? TokenKind::EqEq : TokenKind::Assign, start);
  case '!':
    return make(next('=') ? TokenKind::NotEq : TokenKind::Bang, start);
  case '<':
    if (next('<'))
      return make(TokenKind::Shl, start);
    return make(next('=') ? TokenKind::LessEq : TokenKind::Less, start);
  case '>':
    if (next('>'))
      return make(TokenKind::Shr, start);
    return make(next('=') ? TokenKind::GreaterEq : TokenKind::Greater, start);
  case '&':
    return make(next('&') ? TokenKind::AndAnd : TokenKind::Amp, start);
  case '|':
    return make(next('|') ? TokenKind::OrOr : TokenKind::Pipe, start);
  default:
    return error(start, "unexpected character '" + escapeChar(c) + "'");
  }
}
