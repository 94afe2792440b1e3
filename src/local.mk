### The core library: IR, verifier, passes (libshardlp)

noinst_LTLIBRARIES += libshardlp_core.la
libshardlp_core_la_SOURCES = \
	%reldir%/ir/arena.c \
	%reldir%/ir/attr.c \
	%reldir%/ir/axis.c \
	%reldir%/ir/context.c \
	%reldir%/ir/ir.c \
	%reldir%/ir/rewrite.c \
	%reldir%/ir/type.c \
	%reldir%/passes/canonicalize.c \
	%reldir%/passes/pass.c \
	%reldir%/rules/populate.c \
	%reldir%/rules/registry.c \
	%reldir%/util.c \
	%reldir%/verify/verify.c \
	%reldir%/version.c
libshardlp_core_la_SOURCES += $(formats_sources)
libshardlp_core_la_LIBADD = $(LIBXML2_LIBS)

noinst_HEADERS += \
	%reldir%/ir/arena.h \
	%reldir%/ir/attr.h \
	%reldir%/ir/axis.h \
	%reldir%/ir/context.h \
	%reldir%/ir/ir.h \
	%reldir%/ir/ops.def \
	%reldir%/ir/rewrite.h \
	%reldir%/ir/type.h \
	%reldir%/passes/pass.h \
	%reldir%/rules/rules.h \
	%reldir%/util.h \
	%reldir%/verify/verify.h \
	%reldir%/cli/cli.h

include_HEADERS += %reldir%/shardlp.h

lib_LTLIBRARIES += libshardlp.la
libshardlp_la_SOURCES =
libshardlp_la_LIBADD = libshardlp_core.la
libshardlp_la_LDFLAGS = -export-symbols-regex '^sl_' -version-info 0:0:0

### Programs

bin_PROGRAMS += shardlp shardlp-opt
shardlp_SOURCES = \
	%reldir%/cli/cli.c \
	%reldir%/cli/cmd_gen.c \
	%reldir%/cli/cmd_rules.c \
	%reldir%/cli/shardlp.c
shardlp_LDADD = libshardlp_core.la
shardlp_opt_SOURCES = \
	%reldir%/cli/cli.c \
	%reldir%/cli/shardlp_opt.c
shardlp_opt_LDADD = libshardlp_core.la
