### The ILP (formulation, GLPK backend, checker) and the cost evaluator:
### all in the core library.

libshardlp_core_la_SOURCES += \
	%reldir%/backend_glpk.c \
	%reldir%/check.c \
	%reldir%/decompose.c \
	%reldir%/formulate.c \
	%reldir%/names.c \
	%reldir%/report.c \
	%reldir%/iopddl_eval.c \
	%reldir%/iopddl_fold.c \
	%reldir%/iopddl_heur.c \
	%reldir%/iopddl_lagr.c \
	%reldir%/iopddl_lns.c \
	%reldir%/iopddl_reduce.c \
	%reldir%/iopddl_solve.c \
	%reldir%/lp.c \
	%reldir%/solve.c \
	src/cost/axes.c \
	src/cost/emitted.c \
	src/cost/eval.c \
	src/cost/model.c \
	src/cost/options.c \
	src/cost/liveness.c \
	src/cost/order.c \
	src/cost/primitives.c \
	src/cost/shardings.c \
	src/cost/terms.c

noinst_HEADERS += \
	%reldir%/decompose.h \
	%reldir%/formulate.h \
	%reldir%/report.h \
	%reldir%/iopddl.h \
	%reldir%/iopddl_fold.h \
	%reldir%/iopddl_lns.h \
	%reldir%/iopddl_model.h \
	%reldir%/lp.h \
	%reldir%/solve.h \
	src/cost/axes.h \
	src/cost/cost.h \
	src/cost/emitted.h \
	src/cost/memo.h \
	src/cost/options.h \
	src/cost/order.h \
	src/cost/primitives.h \
	src/cost/shardings.h \
	src/cost/terms.h
