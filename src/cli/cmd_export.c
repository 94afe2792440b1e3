/*
 * cmd_export.c - `shardlp export`: writes a program (MLIR, or a sharding
 * problem in XML) as a sharding problem in XML (shardlp-xml(5)) or as
 * MLIR, and `--validate` checks shardlp XML documents against the schema.
 */
#include "cli.h"
#include "cli_out.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char export_usage[] =
	"usage: shardlp export [--format xml|mlir] [--rules] [-o FILE] FILE\n"
	"       shardlp export --validate FILE...\n";

/* Validates each file against the schema; EXIT_INPUT when one fails. */
static int
validate(int n, char **paths)
{
	sl_context *ctx = sl_context_new();
	cli_sink sink;
	cli_sink_init(&sink, ctx);
	int status = EXIT_OK;
	for (int i = 0; i < n; i++) {
		size_t len;
		const char *name;
		char *text = cli_source(&sink, paths[i], &len, &name);
		if (!text || sl_xml_validate(ctx, name, text, len))
			status = EXIT_INPUT;
		free(text);
	}
	cli_sink_fini(&sink);
	sl_context_free(ctx);
	return status;
}

static int
write_out(sl_module *m, const char *output, bool xml, const char *source)
{
	cli_out o;
	FILE *out = cli_out_open(&o, "shardlp export", output);
	if (!out)
		return EXIT_INPUT;
	bool ok = xml ? !sl_module_write_xml(m, out, source) : !sl_module_print(m, out, NULL);
	if (!ok)
		fputs("shardlp export: write error\n", stderr);
	return cli_out_close(&o, "shardlp export", ok) ? EXIT_INPUT : EXIT_OK;
}

int
cmd_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{"output", required_argument, NULL, 'o'},
		{"rules", no_argument, NULL, 'r'},
		{"validate", no_argument, NULL, 'v'},
		{NULL, 0, NULL, 0},
	};
	const char *output = NULL;
	bool xml = true, rules = false, check = false;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			printf("%s\n", export_usage);
			puts("Writes FILE (MLIR, or a sharding problem in XML) as a sharding\n"
			     "problem in XML, <shardlp-problem> of shardlp-xml(5): meshes, ops,\n"
			     "tensors with their shape, element type and sharding, attributes as\n"
			     "MLIR text.  Every command that reads MLIR reads it back.\n"
			     "  --format xml|mlir  what to write (default xml)\n"
			     "  --rules            attach every op's sharding rule first, so the\n"
			     "                     XML holds each rule and its factors' kinds\n"
			     "  -o, --output FILE  write to FILE instead of standard output\n"
			     "  --validate         check each FILE (any shardlp XML document)\n"
			     "                     against the schema, data/shardlp.xsd");
			return EXIT_OK;
		case 'f':
			if (strcmp(optarg, "xml") && strcmp(optarg, "mlir"))
				return cli_usage_error("export", export_usage,
				                       "--format wants xml or mlir, not '%s'", optarg);
			xml = !strcmp(optarg, "xml");
			break;
		case 'o':
			output = optarg;
			break;
		case 'r':
			rules = true;
			break;
		case 'v':
			check = true;
			break;
		default:
			fputs(export_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (check)
		return optind < argc ? validate(argc - optind, argv + optind)
		       : cli_usage_error("export", export_usage, "expected a FILE%s", "");
	if (optind != argc - 1)
		return cli_usage_error("export", export_usage, "expected one FILE%s", "");
	sl_context *ctx = sl_context_new();
	cli_sink sink;
	cli_sink_init(&sink, ctx);
	char *text;
	int status = EXIT_INPUT;
	char err[256];
	sl_module *m = cli_load(ctx, &sink, argv[optind], &text);
	if (m && !sl_module_verify(m) &&
	    (!rules || !sl_pass_run(m, "sdy-populate-op-sharding-rules", NULL, err, sizeof err)))
		status = write_out(m, output, xml, argv[optind]);
	sl_module_free(m);
	free(text);
	cli_sink_fini(&sink);
	sl_context_free(ctx);
	return status;
}
