/*
 * cli_emit.h - the --emit FORM option of the commands that write a
 * module (print, import, propagate): `sdy` (the default) writes it as
 * Shardy reads it; `xla` first turns its shardings into the encodings XLA
 * reads (the -sdy-export-xla pass: xla.sdy.* frontend attributes,
 * mhlo.sharding strings, custom calls); `mhlo` prints the StableHLO ops
 * as their MHLO counterparts; `mhlo,xla` does both, as XLA's own
 * MHLO import writes a sharded program.
 */
#ifndef SL_CLI_EMIT_H
#define SL_CLI_EMIT_H

#include "shardlp.h"

#include <stdbool.h>

typedef struct cli_emit {
	bool xla;
	bool mhlo;
} cli_emit;

/* The --emit line of the commands' --help. */
extern const char cli_emit_help[];

/* Parses FORM; 0, or -1 when it names no form. */
int cli_emit_parse(cli_emit *e, const char *form);

/*
 * Readies m for printing in form e: runs -sdy-export-xla when asked and
 * sets po->mhlo.  0, or -1 after a message "PROG: ..." on stderr or the
 * pass's located diagnostics.
 */
int cli_emit_prepare(const cli_emit *e, sl_module *m, sl_print_opts *po, const char *prog);

#endif
