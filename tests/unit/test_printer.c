/* test_printer.c - unit tests of the printer module. */
#include "tests.h"

CU_TestInfo tests_printer[] = {
	CU_TEST_INFO_NULL,
};
