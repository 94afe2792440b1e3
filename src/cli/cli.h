/*
 * cli.h - what the two programs share: exit codes, the diagnostic sink
 * that prints "file:line:col: error: message" with the source line and a
 * caret, and the subcommands defined in other files.
 */
#ifndef SL_CLI_CLI_H
#define SL_CLI_CLI_H

#include "shardlp.h"

enum {
	EXIT_OK = 0,
	EXIT_INPUT = 1,		/* bad input */
	EXIT_USAGE = 2,
	EXIT_SOLVER = 3		/* infeasible or solver failure */
};

/* A recorded diagnostic (for -verify-diagnostics). */
typedef struct cli_diag {
	sl_severity severity;
	unsigned line, col;
	char *file;
	char *message;
} cli_diag;

typedef struct cli_sink {
	const sl_context *ctx;
	const char *text;	/* source of the file being read, for carets */
	size_t len;
	const char *name;
	bool record;		/* record instead of printing */
	cli_diag *v;
	size_t n, cap;
	/*
	 * print each diagnostic once: a command that runs several methods on
	 * the same program (compare, solve) would repeat each warning
	 */
	bool once;
	uint64_t *seen;		/* hashes of those printed, with once */
	size_t nseen, capseen;
	/* the first error since cli_sink_init, "file:line:col: message" */
	char first_error[512];
} cli_sink;

/* The program name that starts unlocated messages. */
extern const char *cli_prog;
/* The library's fatal hook: "PROG: message" on stderr (sl_set_fatal_hook). */
void cli_fatal(const char *message);

void cli_sink_init(cli_sink *s, sl_context *ctx);
void cli_sink_fini(cli_sink *s);
void cli_sink_set_source(cli_sink *s, const char *name, const char *text, size_t len);
void cli_sink_clear(cli_sink *s);

/* strdup and strndup that print "shardlp: out of memory" and abort. */
char *cli_xstrdup(const char *s);
char *cli_xstrndup(const char *s, size_t n);

/*
 * A command-line mistake: "CMD: message" (fmt and arg as printf's), then
 * the command's short usage, on stderr; returns EXIT_USAGE.
 */
int cli_usage_error(const char *cmd, const char *usage, const char *fmt, const char *arg);

/*
 * A non-negative finite number with an optional SI suffix (k M G T P
 * multiply, m u n divide) into *out; false when S is not one.
 */
bool cli_parse_number(const char *s, double *out);

/* Reads a whole file ("-" = stdin); NULL with a message on stderr. */
char *cli_read(const char *prog, const char *path, size_t *len);

int cmd_batch(int argc, char **argv);
int cmd_compare(int argc, char **argv);
/*
 * cli_source, cli_load, cli_parse and cli_parse_src (cli_load.c): the
 * inputs of shardlp's commands, MLIR or an XML problem; shardlp-opt, which
 * reads MLIR only, links none of them.
 *
 * Reads one file ("-" = stdin) as the source of sink's diagnostics, named
 * *name ("<stdin>" for "-"); the caller frees it.  An empty file is an
 * error.  NULL after a message on stderr.
 */
char *cli_source(cli_sink *sink, const char *path, size_t *len, const char **name);
/*
 * Reads, parses and verifies one file ("-" = stdin) into ctx; *text keeps
 * the source (caller frees).  An empty file is an error.  NULL after
 * printing diagnostics.
 */
sl_module *cli_load(sl_context *ctx, cli_sink *sink, const char *path, char **text);
/* Parses and verifies text (named name) into ctx; NULL after diagnostics. */
sl_module *cli_parse(sl_context *ctx, const char *name, const char *text, size_t len);

/* A piece of a source: a whole file, or one chunk of a split file. */
typedef struct cli_src {
	const char *name;	/* the file's name in locations */
	const char *text;
	size_t len;
	unsigned line;		/* the line of text[0] in the file */
} cli_src;

/*
 * The chunks of text (named name): with split, the pieces between lines
 * that are exactly "// -----" (as mlir-opt -split-input-file), else the
 * whole text.  A heap array of *n chunks (caller frees), pointing into
 * text.
 */
cli_src *cli_split(const char *name, const char *text, size_t len, bool split, size_t *n);
/* Parses and verifies one chunk into ctx; NULL after diagnostics. */
sl_module *cli_parse_src(sl_context *ctx, const cli_src *s);

int cmd_export(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_iopddl(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_propagate(int, char **);
int cmd_rules(int argc, char **argv);
int cmd_solve(int argc, char **argv);

#endif
