/* test_sdy.c - unit tests of the sdy module. */
#include "tests.h"

CU_TestInfo tests_sdy[] = {
	CU_TEST_INFO_NULL,
};
