/*
 * shardlp.h - the public interface of libshardlp.
 *
 * A context (sl_context) owns interned names, uniqued types and the
 * diagnostic sink; a module (sl_module) owns everything parsed into it and
 * dies with sl_module_free.  The library never prints and never exits:
 * problems reach the sink as sl_diag records and functions return -1 or
 * NULL.
 */
#ifndef SL_SHARDLP_H
#define SL_SHARDLP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An interned name: compare with ==, read with sl_sym_str. 0 is "". */
typedef uint32_t sl_sym;

typedef struct sl_context sl_context;
typedef struct sl_module sl_module;

typedef enum sl_severity {
	SL_DIAG_ERROR,
	SL_DIAG_WARNING,
	SL_DIAG_REMARK,
	SL_DIAG_NOTE
} sl_severity;

/* A source position: file name symbol, 1-based line and byte column. */
typedef struct sl_loc {
	sl_sym file;
	uint32_t line, col;
} sl_loc;

typedef struct sl_diag {
	sl_severity severity;
	sl_loc loc;		/* line 0: no location */
	const char *message;	/* valid during the callback only */
} sl_diag;

typedef void sl_diag_fn(void *userdata, const sl_diag *diag);

/* Creates a context; diagnostics are dropped until a sink is set. */
sl_context *sl_context_new(void);
void sl_context_free(sl_context *ctx);
void sl_context_set_diag(sl_context *ctx, sl_diag_fn *fn, void *userdata);
/* Number of errors reported through ctx since it was created. */
unsigned sl_context_error_count(const sl_context *ctx);

sl_sym sl_sym_intern(sl_context *ctx, const char *s, size_t n);
const char *sl_sym_str(const sl_context *ctx, sl_sym sym);

/* Formats a diagnostic as "file:line:col: error: message". */
void sl_diag_format(const sl_context *ctx, const sl_diag *d, FILE *out);

/*
 * Parses MLIR text (the sdy + StableHLO subset) into a new module.
 * `name` is used in locations.  Returns NULL after reporting errors.
 * The text need not stay alive after the call.
 */
sl_module *sl_module_parse(sl_context *ctx, const char *name,
                           const char *text, size_t len);
/* As sl_module_parse, numbering lines from first_line (for split inputs). */
sl_module *sl_module_parse_at(sl_context *ctx, const char *name,
                              const char *text, size_t len, unsigned first_line);
/* Reads and parses a file ("-" is stdin). */
sl_module *sl_module_parse_file(sl_context *ctx, const char *path);
void sl_module_free(sl_module *m);

/* Checks every invariant of the sdy dialect; 0 when valid, else -1. */
int sl_module_verify(sl_module *m);

typedef struct sl_print_opts {
	bool debuginfo;		/* print loc(...) as -mlir-print-debuginfo */
	bool generic;		/* print every op in the generic form */
} sl_print_opts;

/* Prints the module as MLIR would; returns 0, or -1 on a write error. */
int sl_module_print(const sl_module *m, FILE *out, const sl_print_opts *opts);

/*
 * Passes, named by their shardlp-opt flag without the dash
 * ("sdy-basic-propagate"); options as "key=value key2=value" or
 * "{key=value}".  sl_pass_run returns 0, -1 after diagnostics, or -2 when
 * the pass or an option is unknown, or an option's value is bad (with a
 * message in err).
 */
int sl_pass_run(sl_module *m, const char *name, const char *options,
                char *err, size_t errlen);
bool sl_pass_exists(const char *name);
/* The i-th pass of the table (NULL past the end), with its summary. */
const char *sl_pass_name(size_t i, const char **summary);

const char *sl_version(void);

#ifdef __cplusplus
}
#endif
#endif
