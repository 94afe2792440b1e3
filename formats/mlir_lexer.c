/*
 * mlir_lexer.c - MLIR tokens (mlir/lib/AsmParser/Lexer.cpp is the model of
 * behaviour, not of code).  White space and // comments are skipped; the
 * lexer never reads past the end of its text, even on malformed input.
 */
#include "formats/mlir_lexer.h"

#include <string.h>

void
sli_lex_init(sli_lexer *lx, const char *text, size_t len)
{
	lx->start = lx->cur = lx->line_start = text;
	lx->end = text + len;
	lx->line = 1;
	lx->err = NULL;
}

void
sli_lex_reset(sli_lexer *lx, const char *p, uint32_t line, const char *line_start)
{
	lx->cur = p;
	lx->line = line;
	lx->line_start = line_start;
}

/*
 * Character classes by table: identifiers are most of the bytes of a
 * program, and a lookup per byte beats a chain of range tests.
 */
enum { C_START = 1, C_IDENT = 2, C_DIGIT = 4 };

static const unsigned char cclass[256] = {
	['a' ... 'z'] = C_START | C_IDENT,
	['A' ... 'Z'] = C_START | C_IDENT,
	['_'] = C_START | C_IDENT,
	['0' ... '9'] = C_IDENT | C_DIGIT,
	['$'] = C_IDENT,
	['.'] = C_IDENT,
};

static inline int
is_ident_start(int c)
{
	return cclass[c] & C_START;
}

static inline int
is_ident_char(int c)
{
	return cclass[c] & C_IDENT;
}

static inline int
is_digit(int c)
{
	return cclass[c] & C_DIGIT;
}

const char *
sli_lex_skip_ws(sli_lexer *lx)
{
	const char *p = lx->cur, *e = lx->end;
	while (p < e) {
		char c = *p;
		if (c == ' ') {		/* the most frequent by far */
			p++;
		} else if (c == '\n') {
			p++;
			lx->line++;
			lx->line_start = p;
		} else if (c == '\t' || c == '\r') {
			p++;
		} else if (c == '/' && p + 1 < e && p[1] == '/') {
			const char *nl = memchr(p, '\n', (size_t)(e - p));
			p = nl ? nl : e;
		} else {
			break;
		}
	}
	lx->cur = p;
	return p;
}

/* Skips the rest of a string literal whose opening quote is at p[-1]. */
static const char *
skip_string(sli_lexer *lx, const char *p)
{
	const char *e = lx->end;
	while (p < e) {
		if (*p == '"')
			return p + 1;
		if (*p == '\n' || *p == '\r')
			break;
		if (*p == '\\' && p + 1 < e)
			p++;
		p++;
	}
	lx->err = "expected '\"' in string literal";
	return NULL;
}

/*
 * The token is stored field by field into *out: returned by value, it
 * went through a temporary that the caller copied with wide loads of
 * narrow stores, a store-forwarding stall on every token that cost more
 * than the lexing (doc/performance.md).
 */
void
sli_lex_scan(sli_lexer *lx, sli_token *out)
{
	const char *p = sli_lex_skip_ws(lx), *e = lx->end;
	sli_token t;
	t.p = p;
	t.line = lx->line;
	t.col = (uint32_t)(p - lx->line_start) + 1;
	t.n = 1;
	if (p >= e) {
		t.kind = SL_TOK_EOF;
		t.n = 0;
		*out = t;
		return;
	}
	char c = *p++;
	switch (c) {
	case '(': t.kind = SL_TOK_LPAREN; break;
	case ')': t.kind = SL_TOK_RPAREN; break;
	case '[': t.kind = SL_TOK_LSQUARE; break;
	case ']': t.kind = SL_TOK_RSQUARE; break;
	case '{':
		if (p < e && *p == '-' && p + 1 < e && p[1] == '#') {
			/* {-# ... #-} file metadata: skip it whole */
			const char *q = p;
			while (q + 2 < e && !(q[0] == '#' && q[1] == '-' && q[2] == '}'))
				q++;
			if (q + 2 >= e) {
				t.kind = SL_TOK_ERROR;
				lx->err = "expected '#-}' to end file metadata";
				break;
			}
			for (const char *r = p; r < q; r++)
				if (*r == '\n') {
					lx->line++;
					lx->line_start = r + 1;
				}
			p = q + 3;
			t.kind = SL_TOK_FILE_METADATA;
			break;
		}
		t.kind = SL_TOK_LBRACE;
		break;
	case '}': t.kind = SL_TOK_RBRACE; break;
	case '<': t.kind = SL_TOK_LESS; break;
	case '>': t.kind = SL_TOK_GREATER; break;
	case ',': t.kind = SL_TOK_COMMA; break;
	case '=': t.kind = SL_TOK_EQUAL; break;
	case '+': t.kind = SL_TOK_PLUS; break;
	case '*': t.kind = SL_TOK_STAR; break;
	case '?': t.kind = SL_TOK_QUESTION; break;
	case ':':
		if (p < e && *p == ':') {
			p++;
			t.kind = SL_TOK_COLONCOLON;
		} else {
			t.kind = SL_TOK_COLON;
		}
		break;
	case '-':
		if (p < e && *p == '>') {
			p++;
			t.kind = SL_TOK_ARROW;
		} else {
			t.kind = SL_TOK_MINUS;
		}
		break;
	case '"':
		p = skip_string(lx, p);
		if (!p) {
			t.kind = SL_TOK_ERROR;
			p = t.p + 1;
			break;
		}
		t.kind = SL_TOK_STRING;
		break;
	case '%': case '@': case '#': case '!': case '^':
		t.kind = c == '%' ? SL_TOK_PERCENT : c == '@' ? SL_TOK_AT :
		         c == '#' ? SL_TOK_HASH : c == '!' ? SL_TOK_BANG : SL_TOK_CARET;
		if (c == '@' && p < e && *p == '"') {
			p = skip_string(lx, p + 1);
			if (!p) {
				t.kind = SL_TOK_ERROR;
				p = t.p + 1;
			}
			break;
		}
		if (p < e && (is_ident_char((unsigned char)*p) || *p == '-')) {
			while (p < e && (is_ident_char((unsigned char)*p) || *p == '-'))
				p++;
		} else if (c != '#' && c != '!') {
			t.kind = SL_TOK_ERROR;
			lx->err = "invalid identifier";
		}
		break;
	default:
		if (is_digit((unsigned char)c)) {
			t.kind = SL_TOK_INT;
			if (c == '0' && p + 1 < e && *p == 'x' &&
			    ((p[1] >= '0' && p[1] <= '9') || (p[1] >= 'a' && p[1] <= 'f') ||
			     (p[1] >= 'A' && p[1] <= 'F'))) {
				p++;
				while (p < e && ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') ||
				                 (*p >= 'A' && *p <= 'F')))
					p++;
				break;
			}
			while (p < e && is_digit((unsigned char)*p))
				p++;
			if (p < e && *p == '.') {
				t.kind = SL_TOK_FLOAT;
				p++;
				while (p < e && is_digit((unsigned char)*p))
					p++;
				if (p < e && (*p == 'e' || *p == 'E') && p + 1 < e &&
				    (is_digit((unsigned char)p[1]) ||
				     ((p[1] == '-' || p[1] == '+') && p + 2 < e &&
				      is_digit((unsigned char)p[2])))) {
					p += 2;
					while (p < e && is_digit((unsigned char)*p))
						p++;
				}
			}
			break;
		}
		if (is_ident_start((unsigned char)c)) {
			while (p < e && is_ident_char((unsigned char)*p))
				p++;
			t.kind = SL_TOK_IDENT;
			break;
		}
		t.kind = SL_TOK_ERROR;
		lx->err = "unexpected character";
		break;
	}
	t.n = (uint32_t)(p - t.p);
	lx->cur = p;
	*out = t;
}

sli_token
sli_lex_next(sli_lexer *lx)
{
	sli_token t;
	sli_lex_scan(lx, &t);
	return t;
}
