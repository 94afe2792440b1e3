/* test_stablehlo.c - unit tests of the stablehlo module. */
#include "tests.h"

CU_TestInfo tests_stablehlo[] = {
	CU_TEST_INFO_NULL,
};
