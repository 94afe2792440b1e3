/*
 * cmd_import.c - `shardlp import`: reads a program as JAX, XLA or
 * torch-xla wrote it, turns its sharding encodings (Shardy's xla.sdy.*
 * frontend-attribute strings, GSPMD's mhlo.sharding strings and their
 * custom calls) into sdy with the -sdy-import-xla pass, after
 * -flatten-tuples has flattened tuples where XLA would, verifies the
 * result and writes it.
 */
#include "cli.h"
#include "cli_emit.h"
#include "cli_out.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char import_usage[] =
	"usage: shardlp import [-o FILE] [--debuginfo] [--emit FORM] FILE\n";

static int
write_module(const sl_module *m, const char *output, const sl_print_opts *po)
{
	cli_out o;
	FILE *out = cli_out_open(&o, "shardlp", output);
	if (!out)
		return EXIT_INPUT;
	bool ok = !sl_module_print(m, out, po);
	if (!ok)
		fputs("shardlp: write error\n", stderr);
	return cli_out_close(&o, "shardlp", ok) ? EXIT_INPUT : EXIT_OK;
}

int
cmd_import(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"debuginfo", no_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{"output", required_argument, NULL, 'o'},
		{"emit", required_argument, NULL, 'e'},
		{NULL, 0, NULL, 0},
	};
	sl_print_opts po = {false, false, false};
	cli_emit emit = {false, false};
	const char *output = NULL;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			printf("%s\n", import_usage);
			puts("Reads FILE as JAX, XLA or torch-xla wrote it and turns its sharding\n"
			     "encodings into sdy: the meshes, shardings and sharding rules of\n"
			     "Shardy's xla.sdy.* frontend-attribute strings, GSPMD's mhlo.sharding\n"
			     "strings over a mesh derived from their device orders, and the\n"
			     "@Sharding and xla.sdy.* custom calls.  Forms with no sdy equivalent\n"
			     "are kept with a warning; a malformed string is an error.  Tuple\n"
			     "results of custom calls and functions are flattened first, as XLA\n"
			     "does.\n"
			     "  -o, --output FILE  write to FILE instead of standard output\n"
			     "                     (FILE \"-\" is standard input or output)\n"
			     "  --debuginfo        print locations\n"
			     "  --emit FORM        sdy (default), xla (XLA's sharding encodings\n"
			     "                     back), mhlo (MHLO op names) or mhlo,xla");
			return EXIT_OK;
		case 'e':
			if (cli_emit_parse(&emit, optarg))
				return cli_usage_error("import", import_usage, "unknown --emit form '%s'",
				                       optarg);
			break;
		case 'o':
			output = optarg;
			break;
		case 'd':
			po.debuginfo = true;
			break;
		default:
			fputs(import_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1)
		return cli_usage_error("import", import_usage, "expected one FILE%s", "");
	sl_context *ctx = sl_context_new();
	cli_sink sink;
	cli_sink_init(&sink, ctx);
	char *text;
	int status = EXIT_INPUT;
	sl_module *m = cli_load(ctx, &sink, argv[optind], &text);
	char err[256];
	if (m && !sl_pass_run(m, "flatten-tuples", NULL, err, sizeof err) &&
	    !sl_pass_run(m, "sdy-import-xla", NULL, err, sizeof err) && !sl_module_verify(m) &&
	    !cli_emit_prepare(&emit, m, &po, "shardlp import"))
		status = write_module(m, output, &po);
	sl_module_free(m);
	free(text);
	cli_sink_fini(&sink);
	sl_context_free(ctx);
	return status;
}
