### Readers and writers: MLIR text

formats_sources = \
	%reldir%/mlir_other.c \
	%reldir%/mlir_lexer.c \
	%reldir%/mlir_parser.c \
	%reldir%/mlir_printer.c \
	%reldir%/mlir_sdy.c \
	%reldir%/mlir_stablehlo.c \
	%reldir%/xml_report.c

noinst_HEADERS += \
	%reldir%/mlir_lexer.h \
	%reldir%/mlir_parser.h \
	%reldir%/mlir_printer.h \
	%reldir%/xml_report.h
