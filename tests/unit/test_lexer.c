/* test_lexer.c - unit tests of the MLIR lexer. */
#include "tests.h"

#include <string.h>

#include "formats/mlir_lexer.h"

static sli_token
lex1(const char *s)
{
	sli_lexer lx;
	sli_lex_init(&lx, s, strlen(s));
	return sli_lex_next(&lx);
}

static void
test_kinds(void)
{
	const char *s = "%x#1 @f @\"q r\" #sdy.sharding !stablehlo.token ^bb0 42 1.5e-3 \"s\\\"t\" "
	                "( ) [ ] { } < > , : = -> - + * ? :: foo.bar";
	sli_tok_kind want[] = {
		SL_TOK_PERCENT, SL_TOK_HASH, SL_TOK_AT, SL_TOK_AT, SL_TOK_HASH, SL_TOK_BANG,
		SL_TOK_CARET, SL_TOK_INT, SL_TOK_FLOAT, SL_TOK_STRING, SL_TOK_LPAREN,
		SL_TOK_RPAREN, SL_TOK_LSQUARE, SL_TOK_RSQUARE, SL_TOK_LBRACE, SL_TOK_RBRACE,
		SL_TOK_LESS, SL_TOK_GREATER, SL_TOK_COMMA, SL_TOK_COLON, SL_TOK_EQUAL,
		SL_TOK_ARROW, SL_TOK_MINUS, SL_TOK_PLUS, SL_TOK_STAR, SL_TOK_QUESTION,
		SL_TOK_COLONCOLON, SL_TOK_IDENT, SL_TOK_EOF,
	};
	sli_lexer lx;
	sli_lex_init(&lx, s, strlen(s));
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		sli_token t = sli_lex_next(&lx);
		CU_ASSERT_EQUAL(t.kind, want[i]);
	}
}

static void
test_positions_and_comments(void)
{
	const char *s = "a // comment\n  // another\n\tbb ccc";
	sli_lexer lx;
	sli_lex_init(&lx, s, strlen(s));
	sli_token t = sli_lex_next(&lx);
	CU_ASSERT_EQUAL(t.line, 1);
	CU_ASSERT_EQUAL(t.col, 1);
	t = sli_lex_next(&lx);
	CU_ASSERT_EQUAL(t.kind, SL_TOK_IDENT);
	CU_ASSERT_EQUAL(t.n, 2);
	CU_ASSERT_EQUAL(t.line, 3);
	CU_ASSERT_EQUAL(t.col, 2);
	t = sli_lex_next(&lx);
	CU_ASSERT_EQUAL(t.col, 5);
	CU_ASSERT_EQUAL(sli_lex_next(&lx).kind, SL_TOK_EOF);
}

static void
test_numbers(void)
{
	sli_token t = lex1("0x7FC00000");
	CU_ASSERT_EQUAL(t.kind, SL_TOK_INT);
	CU_ASSERT_EQUAL(t.n, 10);
	t = lex1("12.");
	CU_ASSERT_EQUAL(t.kind, SL_TOK_FLOAT);
	t = lex1("3e5");
	CU_ASSERT_EQUAL(t.kind, SL_TOK_INT);	/* "3" then ident "e5" as MLIR */
	CU_ASSERT_EQUAL(t.n, 1);
}

static void
test_errors(void)
{
	sli_lexer lx;
	const char *s = "\"unterminated\n";
	sli_lex_init(&lx, s, strlen(s));
	sli_token t = sli_lex_next(&lx);
	CU_ASSERT_EQUAL(t.kind, SL_TOK_ERROR);
	CU_ASSERT_PTR_NOT_NULL(lx.err);
	t = lex1("`");
	CU_ASSERT_EQUAL(t.kind, SL_TOK_ERROR);
	/* a string ending at the very end of input */
	t = lex1("\"abc");
	CU_ASSERT_EQUAL(t.kind, SL_TOK_ERROR);
}

CU_TestInfo tests_lexer[] = {
	{"token kinds", test_kinds},
	{"positions and comments", test_positions_and_comments},
	{"numbers", test_numbers},
	{"errors", test_errors},
	CU_TEST_INFO_NULL,
};
