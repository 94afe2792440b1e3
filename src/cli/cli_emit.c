/*
 * cli_emit.c - the --emit FORM option (cli_emit.h): its parsing, and the
 * export pass and print options each form asks for.
 */
#include "cli_emit.h"

#include <stdio.h>
#include <string.h>

const char cli_emit_help[] =
	"  --emit FORM               sdy (default), xla (XLA's sharding\n"
	"                            encodings), mhlo (MHLO op names) or mhlo,xla\n";

/* One comma-separated word of FORM. */
static int
parse_word(cli_emit *e, const char *w, size_t n)
{
	if (n == 3 && !memcmp(w, "sdy", 3))
		return 0;
	if (n == 3 && !memcmp(w, "xla", 3)) {
		e->xla = true;
		return 0;
	}
	if (n == 4 && !memcmp(w, "mhlo", 4)) {
		e->mhlo = true;
		return 0;
	}
	return -1;
}

int
cli_emit_parse(cli_emit *e, const char *form)
{
	e->xla = e->mhlo = false;
	for (const char *p = form;; p++) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (parse_word(e, p, n))
			return -1;
		if (!end)
			return 0;
		p = end;
	}
}

int
cli_emit_prepare(const cli_emit *e, sl_module *m, sl_print_opts *po, const char *prog)
{
	po->mhlo = e->mhlo;
	if (!e->xla)
		return 0;
	char err[256];
	int rc = sl_pass_run(m, "sdy-export-xla", NULL, err, sizeof err);
	if (rc == -2)
		fprintf(stderr, "%s: %s\n", prog, err);
	return rc || sl_module_verify(m) ? -1 : 0;
}
