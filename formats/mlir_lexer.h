/*
 * mlir_lexer.h - tokens of MLIR text.  The lexer is on demand: the parser
 * asks for one token at a time and may also scan raw characters from the
 * current position (tensor shapes, dense<...> bodies, opaque attributes).
 * Positions are 1-based lines and byte columns.
 */
#ifndef SL_FORMATS_MLIR_LEXER_H
#define SL_FORMATS_MLIR_LEXER_H

#include <stddef.h>
#include <stdint.h>

typedef enum sli_tok_kind {
	SL_TOK_EOF,
	SL_TOK_ERROR,		/* a character no token starts with */
	SL_TOK_IDENT,		/* bare identifier or keyword: foo, func.func, x8xf32 */
	SL_TOK_PERCENT,		/* %name (text includes '%') */
	SL_TOK_AT,		/* @name or @"name" (text includes '@') */
	SL_TOK_HASH,		/* #name (text includes '#') */
	SL_TOK_BANG,		/* !name (text includes '!') */
	SL_TOK_CARET,		/* ^bb0 */
	SL_TOK_INT,		/* 42, 0x2A (no sign) */
	SL_TOK_FLOAT,		/* 1.5, 1.0e-3 (no sign) */
	SL_TOK_STRING,		/* "..." (text includes the quotes) */
	SL_TOK_LPAREN, SL_TOK_RPAREN,
	SL_TOK_LSQUARE, SL_TOK_RSQUARE,
	SL_TOK_LBRACE, SL_TOK_RBRACE,
	SL_TOK_LESS, SL_TOK_GREATER,
	SL_TOK_COMMA, SL_TOK_COLON, SL_TOK_EQUAL,
	SL_TOK_ARROW,		/* -> */
	SL_TOK_MINUS, SL_TOK_PLUS, SL_TOK_STAR, SL_TOK_QUESTION,
	SL_TOK_COLONCOLON,	/* :: */
	SL_TOK_FILE_METADATA,	/* {-# ... #-} */
} sli_tok_kind;

typedef struct sli_token {
	sli_tok_kind kind;
	const char *p;		/* first byte */
	uint32_t n;		/* length in bytes */
	uint32_t line, col;
} sli_token;

typedef struct sli_lexer {
	const char *start, *end, *cur;
	const char *line_start;
	uint32_t line;
	/* set when a string or comment runs off the end of input */
	const char *err;
} sli_lexer;

void sli_lex_init(sli_lexer *lx, const char *text, size_t len);
/* Lexes the next token, skipping white space and // comments. */
sli_token sli_lex_next(sli_lexer *lx);
/* The same into *out, the parser's current token. */
void sli_lex_scan(sli_lexer *lx, sli_token *out);
/* Repositions the lexer at p (which must lie in the text). */
void sli_lex_reset(sli_lexer *lx, const char *p, uint32_t line, const char *line_start);
/* Skips white space and comments; returns the position. */
const char *sli_lex_skip_ws(sli_lexer *lx);

#endif
