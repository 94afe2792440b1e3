### The ILP (formulation, GLPK backend, checker) and the cost evaluator:
### all in the core library.

libshardlp_core_la_SOURCES += \
	%reldir%/backend_glpk.c \
	%reldir%/check.c \
	%reldir%/decompose.c \
	%reldir%/formulate.c \
	%reldir%/lp.c \
	%reldir%/solve.c \
	src/cost/cost.c

noinst_HEADERS += \
	%reldir%/decompose.h \
	%reldir%/formulate.h \
	%reldir%/lp.h \
	%reldir%/solve.h \
	src/cli/cli_solve.h \
	src/cost/cost.h
