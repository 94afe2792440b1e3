### Tests: CUnit unit tests, CLI and golden tests, man-page lint

check_PROGRAMS += unit-tests
unit_tests_SOURCES = \
	%reldir%/unit/main.c \
	%reldir%/unit/test_axis.c \
	%reldir%/unit/test_lexer.c \
	%reldir%/unit/test_parser.c \
	%reldir%/unit/test_printer.c \
	%reldir%/unit/test_sdy.c \
	%reldir%/unit/test_stablehlo.c \
	%reldir%/unit/test_verify.c
noinst_HEADERS += %reldir%/unit/tests.h
unit_tests_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
unit_tests_LDADD = libshardlp_core.la $(CUNIT_LIBS)

TESTS += unit-tests
