//===- Parser.cpp - Recursive-descent parser of the Tile language ---------===//
//
// Builds the syntax tree of AST.h from the token stream and stops at the
// first error. Expressions use precedence climbing (C precedence, `?:`
// lowest), so an operator chain is a loop, not a recursion; nesting through
// parentheses, unary operators and calls is limited to kMaxNesting levels
// and tree height to kMaxTreeHeight, which bounds the stack of the parser
// and of every later walk over the tree.
//
//===----------------------------------------------------------------------===//

#include "AST.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::plaidml;
using namespace mlir::plaidml::tilelang;
using llvm::SMLoc;

bool mlir::plaidml::tilelang::isSizeArgument(StringRef callee,
                                             unsigned position) {
  if (callee == "reshape" || callee == "prng_value" || callee == "prng_state")
    return position >= 1;
  if (callee == "argsort" || callee == "argsort_desc")
    return position == 1;
  if (callee == "as_float" || callee == "as_int" || callee == "as_uint" ||
      callee == "index")
    return position == 1;
  return false;
}

const Function *Program::lookup(StringRef entry) const {
  if (entry.empty())
    return functions.empty() ? nullptr : functions.front().get();
  for (const std::unique_ptr<Function> &f : functions)
    if (f->getSymbolName() == entry)
      return f.get();
  return nullptr;
}

namespace {
/// The spelling of a token kind in "expected ..." messages.
StringRef spell(TokenKind kind) {
  switch (kind) {
  case TokenKind::LParen:
    return "'('";
  case TokenKind::RParen:
    return "')'";
  case TokenKind::LBracket:
    return "'['";
  case TokenKind::RBracket:
    return "']'";
  case TokenKind::LBrace:
    return "'{'";
  case TokenKind::RBrace:
    return "'}'";
  case TokenKind::Comma:
    return "','";
  case TokenKind::Semi:
    return "';'";
  case TokenKind::Colon:
    return "':'";
  case TokenKind::Arrow:
    return "'->'";
  case TokenKind::Assign:
    return "'='";
  case TokenKind::Less:
    return "'<'";
  default:
    return "a token";
  }
}

/// Binding strength of a binary operator; 0 for other tokens.
int getPrecedence(TokenKind kind) {
  switch (kind) {
  case TokenKind::OrOr:
    return 1;
  case TokenKind::AndAnd:
    return 2;
  case TokenKind::Pipe:
    return 3;
  case TokenKind::Caret:
    return 4;
  case TokenKind::Amp:
    return 5;
  case TokenKind::EqEq:
  case TokenKind::NotEq:
    return 6;
  case TokenKind::Less:
  case TokenKind::Greater:
  case TokenKind::LessEq:
  case TokenKind::GreaterEq:
    return 7;
  case TokenKind::Shl:
  case TokenKind::Shr:
    return 8;
  case TokenKind::Plus:
  case TokenKind::Minus:
    return 9;
  case TokenKind::Star:
  case TokenKind::Slash:
  case TokenKind::Percent:
    return 10;
  default:
    return 0;
  }
}

constexpr const char *kBodyShapes =
    "contraction body must be T[...], T[...] * T[...], T[...] + T[...], "
    "T[...] == T[...] or T[...] == T[...] ? T[...]";

class Parser {
public:
  Parser(const Source &source, Program &program)
      : source(source), lexer(source), program(program) {
    tok = lexer.lex();
  }

  LogicalResult parseProgram();

private:
  void consume() {
    prevEnd = tok.getEndLoc();
    tok = lexer.lex();
  }
  bool consumeIf(TokenKind kind) {
    if (!tok.is(kind))
      return false;
    consume();
    return true;
  }
  /// Reports `message` at `loc` unless the lexer already reported an error.
  LogicalResult fail(SMLoc loc, const Twine &message) {
    if (!tok.is(TokenKind::Error))
      source.emitError(loc) << message;
    return failure();
  }
  /// "expected X, got Y" at the current token, or "unexpected end of file".
  LogicalResult failExpected(const Twine &what) {
    if (tok.is(TokenKind::Eof))
      return fail(tok.getLoc(), "unexpected end of file, expected " + what);
    return fail(tok.getLoc(),
                "expected " + what + ", got " + describeToken(tok));
  }
  LogicalResult expect(TokenKind kind) {
    if (consumeIf(kind))
      return success();
    // A missing ';' belongs right after the statement, not at the next one.
    if (kind == TokenKind::Semi && !tok.is(TokenKind::Eof))
      return fail(prevEnd, "missing ';' at the end of the statement");
    return failExpected(spell(kind));
  }
  LogicalResult expectIdent(StringRef what, StringRef &name, SMLoc &loc) {
    if (!tok.is(TokenKind::Ident))
      return failExpected(what);
    name = tok.text;
    loc = tok.getLoc();
    consume();
    return success();
  }

  LogicalResult parseFunction();
  LogicalResult parseParam(Function &fn);
  LogicalResult parseStatement(Function &fn);
  LogicalResult parseContraction(Statement &stmt);
  LogicalResult parseAccess(Access &access);

  // Integer expressions (index polynomials, sizes).
  const IntExpr *parseIntSum();
  const IntExpr *parseIntTerm();
  const IntExpr *parseIntUnary();
  IntExpr *makeInt(IntExpr::Kind kind, const IntExpr *lhs, const IntExpr *rhs,
                   SMLoc begin);

  // Elementwise expressions.
  const Expr *parseExpr();
  const Expr *parseBinary(int minPrecedence);
  const Expr *parseUnary();
  const Expr *parsePrimary();
  /// Sets `e`'s height from its children; null when it is too tall.
  const Expr *finish(Expr *e);

  /// Tracks nesting depth over one recursive step.
  struct NestingGuard {
    explicit NestingGuard(Parser &p) : p(p) { ++p.nesting; }
    ~NestingGuard() { --p.nesting; }
    Parser &p;
  };
  bool tooDeep() {
    if (nesting <= kMaxNesting)
      return false;
    (void)fail(tok.getLoc(), "expression nested too deeply");
    return true;
  }

  const Source &source;
  Lexer lexer;
  Program &program;
  Token tok;
  SMLoc prevEnd;
  unsigned nesting = 0;
};
} // namespace

LogicalResult Parser::parseProgram() {
  while (!tok.is(TokenKind::Eof)) {
    if (!tok.is(TokenKind::KwFunction))
      return failExpected("'function'");
    if (failed(parseFunction()))
      return failure();
  }
  return success();
}

LogicalResult Parser::parseFunction() {
  auto owned = std::make_unique<Function>();
  Function &fn = *owned;
  fn.loc = tok.getLoc();
  consume(); // 'function'
  if (tok.is(TokenKind::Ident)) {
    fn.name = tok.text;
    fn.loc = tok.getLoc();
    consume();
  }
  if (failed(expect(TokenKind::LParen)))
    return failure();
  if (!consumeIf(TokenKind::RParen)) {
    do {
      if (failed(parseParam(fn)))
        return failure();
    } while (consumeIf(TokenKind::Comma));
    if (failed(expect(TokenKind::RParen)))
      return failure();
  }
  if (failed(expect(TokenKind::Arrow)))
    return failure();
  auto parseOutput = [&]() -> LogicalResult {
    OutputDecl out;
    if (failed(expectIdent("an output name", out.name, out.loc)))
      return failure();
    fn.outputs.push_back(out);
    return success();
  };
  if (consumeIf(TokenKind::LParen)) {
    if (!consumeIf(TokenKind::RParen)) {
      do {
        if (failed(parseOutput()))
          return failure();
      } while (consumeIf(TokenKind::Comma));
      if (failed(expect(TokenKind::RParen)))
        return failure();
    }
  } else if (failed(parseOutput())) {
    return failure();
  }
  if (failed(expect(TokenKind::LBrace)))
    return failure();
  while (!tok.is(TokenKind::RBrace)) {
    if (tok.is(TokenKind::Eof))
      return failExpected("'}'");
    if (failed(parseStatement(fn)))
      return failure();
  }
  fn.endLoc = tok.getLoc();
  consume();
  program.functions.push_back(std::move(owned));
  return success();
}

LogicalResult Parser::parseParam(Function &fn) {
  Param param;
  if (failed(expectIdent("an input name", param.name, param.loc)))
    return failure();
  if (consumeIf(TokenKind::LBracket) && !consumeIf(TokenKind::RBracket)) {
    do {
      DimDecl dim;
      dim.loc = tok.getLoc();
      if (tok.is(TokenKind::Ident))
        dim.name = tok.text;
      else if (tok.is(TokenKind::Int))
        dim.size = tok.intValue;
      else
        return failExpected("a dimension name or size");
      consume();
      if (param.dims.size() == kMaxRank)
        return fail(dim.loc, "'" + param.name + "' has more than " +
                                 Twine(kMaxRank) +
                                 " dimensions, the most a tensor may have");
      param.dims.push_back(dim);
    } while (consumeIf(TokenKind::Comma));
    if (failed(expect(TokenKind::RBracket)))
      return failure();
  }
  fn.inputs.push_back(std::move(param));
  return success();
}

LogicalResult Parser::parseStatement(Function &fn) {
  Statement stmt;
  if (failed(expectIdent("a statement", stmt.name, stmt.loc)))
    return failure();
  if (tok.is(TokenKind::LBracket)) {
    if (failed(parseContraction(stmt)))
      return failure();
  } else {
    if (!tok.is(TokenKind::Assign))
      return failExpected("'=' or '[' after '" + stmt.name + "'");
    consume();
    if (!(stmt.value = parseExpr()))
      return failure();
    if (failed(expect(TokenKind::Semi)))
      return failure();
  }
  fn.body.push_back(std::move(stmt));
  return success();
}

LogicalResult Parser::parseAccess(Access &access) {
  if (!tok.is(TokenKind::Ident))
    return fail(tok.getLoc(), kBodyShapes);
  access.tensor = tok.text;
  access.loc = tok.getLoc();
  consume();
  if (!consumeIf(TokenKind::LBracket))
    return fail(tok.getLoc(), kBodyShapes);
  if (consumeIf(TokenKind::RBracket))
    return success();
  do {
    const IntExpr *index = parseIntSum();
    if (!index)
      return failure();
    if (access.indices.size() == kMaxRank)
      return fail(index->begin, "'" + access.tensor +
                                    "' is indexed with more "
                                    "than " +
                                    Twine(kMaxRank) + " indices");
    access.indices.push_back(index);
  } while (consumeIf(TokenKind::Comma));
  return expect(TokenKind::RBracket);
}

LogicalResult Parser::parseContraction(Statement &stmt) {
  auto c = std::make_unique<Contraction>();
  consume(); // '['
  auto parseList = [&](SmallVectorImpl<const IntExpr *> &list) {
    do {
      const IntExpr *e = parseIntSum();
      if (!e)
        return failure();
      if (list.size() == kMaxRank)
        return fail(e->begin, "'" + stmt.name + "' has more than " +
                                  Twine(kMaxRank) +
                                  " dimensions, the most a tensor may have");
      list.push_back(e);
    } while (consumeIf(TokenKind::Comma));
    return success();
  };
  if (!tok.is(TokenKind::RBracket) && !tok.is(TokenKind::Colon) &&
      failed(parseList(c->outIndices)))
    return failure();
  bool hasColon = consumeIf(TokenKind::Colon);
  if (hasColon && !tok.is(TokenKind::RBracket) &&
      failed(parseList(c->outSizes)))
    return failure();
  if (failed(expect(TokenKind::RBracket)))
    return failure();
  if (c->outIndices.size() != c->outSizes.size()) {
    if (!hasColon)
      return fail(stmt.loc, "output '" + stmt.name +
                                "' needs its sizes, as in '" + stmt.name +
                                "[indices : sizes]'");
    size_t numIndices = c->outIndices.size(), numSizes = c->outSizes.size();
    return fail(stmt.loc,
                "output '" + stmt.name + "' has " + Twine(numIndices) +
                    (numIndices == 1 ? " index" : " indices") + " but " +
                    Twine(numSizes) + (numSizes == 1 ? " size" : " sizes"));
  }
  if (failed(expect(TokenKind::Assign)))
    return failure();

  c->aggLoc = tok.getLoc();
  switch (tok.kind) {
  case TokenKind::Plus:
    c->agg = tile::AggregationKind::add;
    break;
  case TokenKind::Star:
    c->agg = tile::AggregationKind::mul;
    break;
  case TokenKind::Greater:
    c->agg = tile::AggregationKind::max;
    break;
  case TokenKind::Less:
    c->agg = tile::AggregationKind::min;
    break;
  case TokenKind::Assign:
    c->agg = tile::AggregationKind::assign;
    break;
  default:
    if (tok.is(TokenKind::Eof))
      return failExpected("an aggregation");
    return fail(tok.getLoc(), "unknown aggregation " + describeToken(tok) +
                                  " (expected +, *, >, < or =)");
  }
  consume();
  if (failed(expect(TokenKind::LParen)))
    return failure();

  // The body: one to three accesses in one of the five shapes.
  c->inputs.emplace_back();
  if (failed(parseAccess(c->inputs.back())))
    return failure();
  TokenKind comboTok = tok.kind;
  if (comboTok == TokenKind::Star || comboTok == TokenKind::Plus ||
      comboTok == TokenKind::EqEq) {
    c->combo = comboTok == TokenKind::Star   ? tile::CombinationKind::mul
               : comboTok == TokenKind::Plus ? tile::CombinationKind::add
                                             : tile::CombinationKind::eq;
    consume();
    c->inputs.emplace_back();
    if (failed(parseAccess(c->inputs.back())))
      return failure();
    if (comboTok == TokenKind::EqEq && consumeIf(TokenKind::Question)) {
      c->combo = tile::CombinationKind::cond;
      c->inputs.emplace_back();
      if (failed(parseAccess(c->inputs.back())))
        return failure();
    }
  }
  if (!tok.is(TokenKind::RParen)) {
    if (tok.is(TokenKind::Eof))
      return failExpected("')'");
    return fail(tok.getLoc(), kBodyShapes);
  }
  consume();

  // Constraints, `default T` and `no_defract`, in any order.
  while (true) {
    bool comma = consumeIf(TokenKind::Comma);
    if (tok.is(TokenKind::KwNoDefract)) {
      c->noDefract = true;
      consume();
    } else if (tok.is(TokenKind::KwDefault)) {
      consume();
      if (failed(expectIdent("the name of the default tensor", c->defaultName,
                             c->defaultLoc)))
        return failure();
    } else if (comma) {
      Constraint con;
      con.loc = tok.getLoc();
      if (!(con.poly = parseIntSum()))
        return failure();
      if (failed(expect(TokenKind::Less)))
        return failure();
      if (!(con.bound = parseIntSum()))
        return failure();
      c->constraints.push_back(con);
    } else {
      break;
    }
  }
  if (failed(expect(TokenKind::Semi)))
    return failure();
  stmt.contraction = std::move(c);
  return success();
}

//===----------------------------------------------------------------------===//
// Integer expressions
//===----------------------------------------------------------------------===//

IntExpr *Parser::makeInt(IntExpr::Kind kind, const IntExpr *lhs,
                         const IntExpr *rhs, SMLoc begin) {
  IntExpr *e = program.newIntExpr();
  e->kind = kind;
  e->lhs = lhs;
  e->rhs = rhs;
  e->begin = begin;
  e->end = prevEnd;
  e->height = 1 + std::max(lhs ? lhs->height : 0, rhs ? rhs->height : 0);
  if (e->height > kMaxTreeHeight) {
    (void)fail(begin, "expression nested too deeply");
    return nullptr;
  }
  return e;
}

const IntExpr *Parser::parseIntSum() {
  SMLoc begin = tok.getLoc();
  const IntExpr *lhs = parseIntTerm();
  while (lhs && (tok.is(TokenKind::Plus) || tok.is(TokenKind::Minus))) {
    auto kind =
        tok.is(TokenKind::Plus) ? IntExpr::Kind::Add : IntExpr::Kind::Sub;
    consume();
    const IntExpr *rhs = parseIntTerm();
    lhs = rhs ? makeInt(kind, lhs, rhs, begin) : nullptr;
  }
  return lhs;
}

const IntExpr *Parser::parseIntTerm() {
  SMLoc begin = tok.getLoc();
  const IntExpr *lhs = parseIntUnary();
  while (lhs && (tok.is(TokenKind::Star) || tok.is(TokenKind::Slash))) {
    auto kind =
        tok.is(TokenKind::Star) ? IntExpr::Kind::Mul : IntExpr::Kind::Div;
    consume();
    const IntExpr *rhs = parseIntUnary();
    lhs = rhs ? makeInt(kind, lhs, rhs, begin) : nullptr;
  }
  return lhs;
}

const IntExpr *Parser::parseIntUnary() {
  NestingGuard guard(*this);
  if (tooDeep())
    return nullptr;
  SMLoc begin = tok.getLoc();
  if (consumeIf(TokenKind::Minus)) {
    const IntExpr *operand = parseIntUnary();
    return operand ? makeInt(IntExpr::Kind::Neg, operand, nullptr, begin)
                   : nullptr;
  }
  if (tok.is(TokenKind::Int) || tok.is(TokenKind::Ident)) {
    bool isInt = tok.is(TokenKind::Int);
    int64_t value = tok.intValue;
    StringRef name = tok.text;
    consume();
    IntExpr *e = makeInt(isInt ? IntExpr::Kind::Literal : IntExpr::Kind::Name,
                         nullptr, nullptr, begin);
    if (e) {
      e->value = value;
      e->name = isInt ? StringRef() : name;
    }
    return e;
  }
  if (consumeIf(TokenKind::LParen)) {
    const IntExpr *inner = parseIntSum();
    if (!inner || failed(expect(TokenKind::RParen)))
      return nullptr;
    return inner;
  }
  if (tok.is(TokenKind::Float)) {
    (void)fail(tok.getLoc(), "index and size expressions take integers, not "
                             "the float literal " +
                                 describeToken(tok));
    return nullptr;
  }
  (void)failExpected("an index or size expression");
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Elementwise expressions
//===----------------------------------------------------------------------===//

const Expr *Parser::finish(Expr *e) {
  unsigned height = 0;
  for (const Expr *operand : e->operands)
    height = std::max(height, operand->height);
  for (const IntExpr *arg : e->sizeArgs)
    height = std::max(height, arg->height);
  e->height = height + 1;
  if (e->height > kMaxTreeHeight) {
    (void)fail(e->loc, "expression nested too deeply");
    return nullptr;
  }
  return e;
}

const Expr *Parser::parseExpr() {
  const Expr *cond = parseBinary(1);
  if (!cond || !tok.is(TokenKind::Question))
    return cond;
  // `a ? b : c ? ...` recurses here without passing through parseUnary.
  NestingGuard guard(*this);
  if (tooDeep())
    return nullptr;
  Expr *e = program.newExpr();
  e->kind = Expr::Kind::Select;
  e->loc = tok.getLoc();
  consume();
  const Expr *a = parseExpr();
  if (!a || failed(expect(TokenKind::Colon)))
    return nullptr;
  const Expr *b = parseExpr();
  if (!b)
    return nullptr;
  e->operands = {cond, a, b};
  return finish(e);
}

const Expr *Parser::parseBinary(int minPrecedence) {
  const Expr *lhs = parseUnary();
  while (lhs) {
    int precedence = getPrecedence(tok.kind);
    if (precedence == 0 || precedence < minPrecedence)
      break;
    Expr *e = program.newExpr();
    e->kind = Expr::Kind::Binary;
    e->op = tok.kind;
    e->loc = tok.getLoc();
    consume();
    const Expr *rhs = parseBinary(precedence + 1);
    if (!rhs)
      return nullptr;
    e->operands = {lhs, rhs};
    lhs = finish(e);
  }
  return lhs;
}

const Expr *Parser::parseUnary() {
  NestingGuard guard(*this);
  if (tooDeep())
    return nullptr;
  if (tok.is(TokenKind::Minus) || tok.is(TokenKind::Bang) ||
      tok.is(TokenKind::Tilde)) {
    TokenKind op = tok.kind;
    SMLoc loc = tok.getLoc();
    consume();
    const Expr *operand = parseUnary();
    if (!operand)
      return nullptr;
    // `-3` and `-2.5` are literals, so they keep the literal typing rule.
    if (op == TokenKind::Minus && (operand->kind == Expr::Kind::Int ||
                                   operand->kind == Expr::Kind::Float)) {
      Expr *lit = program.newExpr();
      *lit = *operand;
      lit->loc = loc;
      lit->intValue = -operand->intValue;
      lit->floatValue = -operand->floatValue;
      return lit;
    }
    Expr *e = program.newExpr();
    e->kind = Expr::Kind::Unary;
    e->op = op;
    e->loc = loc;
    e->operands = {operand};
    return finish(e);
  }
  return parsePrimary();
}

const Expr *Parser::parsePrimary() {
  Expr *e = program.newExpr();
  e->loc = tok.getLoc();
  switch (tok.kind) {
  case TokenKind::Int:
    e->kind = Expr::Kind::Int;
    e->intValue = tok.intValue;
    consume();
    return e;
  case TokenKind::Float:
    e->kind = Expr::Kind::Float;
    e->floatValue = tok.floatValue;
    consume();
    return e;
  case TokenKind::LParen: {
    consume();
    const Expr *inner = parseExpr();
    if (!inner || failed(expect(TokenKind::RParen)))
      return nullptr;
    return inner;
  }
  case TokenKind::Ident:
    break;
  default:
    (void)failExpected("an expression");
    return nullptr;
  }
  e->name = tok.text;
  consume();
  if (tok.is(TokenKind::LBracket)) {
    (void)fail(tok.getLoc(), "indexing '" + e->name +
                                 "' is only allowed in a contraction body");
    return nullptr;
  }
  if (!consumeIf(TokenKind::LParen)) {
    e->kind = Expr::Kind::Name;
    return e;
  }
  e->kind = Expr::Kind::Call;
  if (!consumeIf(TokenKind::RParen)) {
    unsigned position = 0;
    do {
      if (isSizeArgument(e->name, position)) {
        const IntExpr *arg = parseIntSum();
        if (!arg)
          return nullptr;
        e->sizeArgs.push_back(arg);
      } else {
        const Expr *arg = parseExpr();
        if (!arg)
          return nullptr;
        e->operands.push_back(arg);
      }
      if (++position > kMaxRank + 1) {
        (void)fail(tok.getLoc(), "too many arguments to '" + e->name + "'");
        return nullptr;
      }
    } while (consumeIf(TokenKind::Comma));
    if (failed(expect(TokenKind::RParen)))
      return nullptr;
  }
  return finish(e);
}

std::unique_ptr<Program>
mlir::plaidml::tilelang::parseProgram(const Source &source) {
  auto program = std::make_unique<Program>();
  Parser parser(source, *program);
  if (failed(parser.parseProgram()))
    return nullptr;
  return program;
}
