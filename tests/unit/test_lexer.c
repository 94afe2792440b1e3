/* test_lexer.c - unit tests of the lexer module. */
#include "tests.h"

CU_TestInfo tests_lexer[] = {
	CU_TEST_INFO_NULL,
};
