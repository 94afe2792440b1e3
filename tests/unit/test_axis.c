/* test_axis.c - unit tests of the axis module. */
#include "tests.h"

CU_TestInfo tests_axis[] = {
	CU_TEST_INFO_NULL,
};
