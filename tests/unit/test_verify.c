/* test_verify.c - unit tests of the verify module. */
#include "tests.h"

CU_TestInfo tests_verify[] = {
	CU_TEST_INFO_NULL,
};
