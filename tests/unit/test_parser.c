/* test_parser.c - unit tests of the parser module. */
#include "tests.h"

CU_TestInfo tests_parser[] = {
	CU_TEST_INFO_NULL,
};
