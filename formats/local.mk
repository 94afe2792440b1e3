### Readers and writers: MLIR text

formats_sources = \
	%reldir%/dot.c \
	%reldir%/gspmd.c \
	%reldir%/mlir_mhlo.c \
	%reldir%/mlir_other.c \
	%reldir%/mlir_lexer.c \
	%reldir%/mlir_parser.c \
	%reldir%/mlir_printer.c \
	%reldir%/mlir_sdy.c \
	%reldir%/mlir_stablehlo.c \
	%reldir%/mlir_stablehlo_attrs.c \
	%reldir%/read.c \
	%reldir%/xla_sdy.c \
	%reldir%/xml_report.c

noinst_HEADERS += \
	%reldir%/gspmd.h \
	%reldir%/mlir_lexer.h \
	%reldir%/mlir_parser.h \
	%reldir%/mlir_printer.h \
	%reldir%/mlir_stablehlo_attrs.h \
	%reldir%/xla_sdy.h \
	%reldir%/xml_report.h

### Readers and writers: XML (libxml2), checked against data/shardlp.xsd

formats_sources += \
	%reldir%/xml_mesh.c \
	%reldir%/xml_problem_read.c \
	%reldir%/xml_problem_write.c
noinst_HEADERS += \
	%reldir%/xml_mesh.h \
	%reldir%/xml_problem.h

## The schema, compiled into the library as one string
## (sli_xml_schema in xml_mesh.h) so that an installed shardlp needs no
## data file to validate with.
nodist_libshardlp_core_la_SOURCES = %reldir%/xml_schema.c
CLEANFILES += %reldir%/xml_schema.c
%reldir%/xml_schema.c: $(top_srcdir)/data/shardlp.xsd
	$(AM_V_GEN)$(MKDIR_P) $(@D) && { \
	  echo '/* generated from data/shardlp.xsd by formats/local.mk */'; \
	  echo '#include "formats/xml_mesh.h"'; \
	  echo 'const char sli_xml_schema[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' \
	    $(top_srcdir)/data/shardlp.xsd; \
	  echo ';'; \
	  echo 'const size_t sli_xml_schema_len = sizeof sli_xml_schema - 1;'; \
	} >$@-t && mv -f $@-t $@

### Readers and writers: the IOPDDL benchmark's JSON (jansson, zlib)

formats_sources += %reldir%/iopddl.c
noinst_HEADERS += %reldir%/iopddl.h
