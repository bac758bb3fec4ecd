//===- Lexer.h - Tokens of the Tile language --------------------*- C++ -*-===//
//
// A hand-written lexer over the whole source buffer: identifiers, keywords,
// integer and float literals, punctuation and operators; `#` and `//`
// comments run to the end of the line. Malformed input (a stray byte, an
// invalid or out-of-range literal) becomes an Error token after the
// diagnostic has been emitted, so the parser just stops.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_FRONTEND_TILELANG_LEXER_H
#define PLAIDML_LIB_FRONTEND_TILELANG_LEXER_H

#include "Source.h"

#include <cstdint>
#include <string>

namespace mlir::plaidml::tilelang {

enum class TokenKind {
  Eof,
  Error,
  Ident,
  Int,
  Float,
  // Keywords.
  KwFunction,
  KwDefault,
  KwNoDefract,
  // Punctuation.
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Semi,
  Colon,
  Question,
  Arrow,
  // Operators.
  Assign,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  EqEq,
  NotEq,
  Less,
  Greater,
  LessEq,
  GreaterEq,
  AndAnd,
  OrOr,
  Bang,
  Amp,
  Pipe,
  Caret,
  Shl,
  Shr,
  Tilde,
};

struct Token {
  TokenKind kind = TokenKind::Eof;
  /// The token's text in the buffer (empty at the end of the file).
  StringRef text;
  /// The value of an Int (always >= 0) or Float token.
  int64_t intValue = 0;
  double floatValue = 0;

  bool is(TokenKind k) const { return kind == k; }
  llvm::SMLoc getLoc() const {
    return llvm::SMLoc::getFromPointer(text.data());
  }
  llvm::SMLoc getEndLoc() const {
    return llvm::SMLoc::getFromPointer(text.data() + text.size());
  }
};

/// How a token reads in a diagnostic: `'x'`, or `end of file`.
std::string describeToken(const Token &token);

class Lexer {
public:
  explicit Lexer(const Source &source)
      : source(source), cur(source.getText().begin()),
        end(source.getText().end()) {}

  /// The next token; after Eof or Error, the same kind again.
  Token lex();

private:
  Token make(TokenKind kind, const char *start) {
    Token t;
    t.kind = kind;
    t.text = StringRef(start, cur - start);
    return t;
  }
  Token error(const char *start, const llvm::Twine &message);
  Token lexNumber(const char *start);
  void skipSpaceAndComments();

  const Source &source;
  const char *cur;
  const char *end;
  bool failed = false;
};

} // namespace mlir::plaidml::tilelang

#endif // PLAIDML_LIB_FRONTEND_TILELANG_LEXER_H
