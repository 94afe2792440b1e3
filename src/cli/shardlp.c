/*
 * shardlp - the user's program: a table of subcommands (samurai's tool
 * table), each an entry cmd_NAME(argc, argv) with argv[0] the command.
 */
#include "cli.h"
#include "cli_emit.h"
#include "cli_out.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

typedef struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *synopsis;
	const char *summary;
} command;

static int cmd_help(int argc, char **argv);
static int cmd_print(int argc, char **argv);
static int cmd_verify(int argc, char **argv);

/* Sorted by name. */
static const command commands[] = {
	{"batch", cmd_batch, "batch [-j N] [--out DIR] [--resume] [options] FILE|DIR...",
	 "run compare on many programs, one worker each, into one summary"},
	{"compare", cmd_compare, "compare [--csv] [--time-limit S] [cost options] FILE...",
	 "compare greedy propagation with the optimal ILP shardings"},
	{"export", cmd_export, "export [--format xml|mlir] [--rules] [-o FILE] FILE",
	 "write a program as a sharding problem in XML, or back as MLIR"},
	{"gen", cmd_gen, "gen transformer|mlp|attention|dag [--layers N] [options]",
	 "generate a benchmark program"},
	{"help", cmd_help, "help [COMMAND]", "show help for a command"},
	{"import", cmd_import, "import [-o FILE] [--debuginfo] FILE",
	 "turn the sharding encodings of JAX, XLA and torch-xla into sdy"},
	{"iopddl", cmd_iopddl, "iopddl eval|solve|bench [options] ...",
	 "the IOPDDL benchmark: evaluate and solve its problems"},
	{"plot", cmd_plot, "plot [-o FILE.svg] SUMMARY.csv",
	 "draw a batch summary: greedy against optimal, ratios, cost parts"},
	{"print", cmd_print, "print [-o FILE] [--generic] [--debuginfo] [--emit FORM] FILE",
	 "parse, verify and print FILE in canonical form"},
	{"propagate", cmd_propagate,
	 "propagate [--strategy S] [options] [-o FILE] FILE",
	 "propagate shardings as Shardy does"},
	{"rules", cmd_rules, "rules [--explain] [--conservative] FILE",
	 "print the sharding rule of every op"},
	{"solve", cmd_solve, "solve [-o FILE] [--format mlir|xml] [--time-limit S] [options] FILE",
	 "find optimal shardings by integer linear programming"},
	{"verify", cmd_verify, "verify FILE...", "parse and verify files"},
};

static const command *
find_command(const char *name)
{
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void
usage(FILE *f)
{
	fputs("usage: shardlp [--help] [--version] COMMAND [ARGS]\n\ncommands:\n", f);
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\nRun 'shardlp help COMMAND' for the options of a command.\n", f);
}

static int
cmd_help(int argc, char **argv)
{
	if (argc < 2) {
		usage(stdout);
		return EXIT_OK;
	}
	const command *c = find_command(argv[1]);
	if (!c) {
		fprintf(stderr, "shardlp: unknown command '%s'\n", argv[1]);
		return EXIT_USAGE;
	}
	if (c->run == cmd_help) {
		printf("usage: shardlp %s\n\n%s\n", c->synopsis, c->summary);
		return EXIT_OK;
	}
	char *args[] = {argv[1], "--help", NULL};
	return c->run(2, args);
}

static int
cmd_verify(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"quiet", no_argument, NULL, 'q'},
		{NULL, 0, NULL, 0},
	};
	bool quiet = false;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "hq", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			puts("usage: shardlp verify [-q] FILE...\n\n"
			     "Parses and verifies each FILE ('-' is standard input); prints\n"
			     "'FILE: ok' for each valid file unless -q is given.  Exit status 0\n"
			     "when every file is valid, 1 otherwise.");
			return EXIT_OK;
		case 'q':
			quiet = true;
			break;
		default:
			fputs("usage: shardlp verify [-q] FILE...\n", stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fputs("usage: shardlp verify [-q] FILE...\n", stderr);
		return EXIT_USAGE;
	}
	int status = EXIT_OK;
	for (int i = optind; i < argc; i++) {
		sl_context *ctx = sl_context_new();
		cli_sink sink;
		cli_sink_init(&sink, ctx);
		char *text;
		sl_module *m = cli_load(ctx, &sink, argv[i], &text);
		if (!m)
			status = EXIT_INPUT;
		else if (!quiet)
			printf("%s: ok\n", argv[i]);
		sl_module_free(m);
		free(text);
		cli_sink_fini(&sink);
		sl_context_free(ctx);
	}
	return status;
}

static int
cmd_print(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"output", required_argument, NULL, 'o'},
		{"generic", no_argument, NULL, 'g'},
		{"debuginfo", no_argument, NULL, 'd'},
		{"emit", required_argument, NULL, 'e'},
		{NULL, 0, NULL, 0},
	};
	const char *output = NULL;
	sl_print_opts po = {false, false, false};
	cli_emit emit = {false, false};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			puts("usage: shardlp print [-o FILE] [--generic] [--debuginfo] [--emit FORM]\n"
			     "                     FILE\n\n"
			     "Parses and verifies FILE and prints it as MLIR would: values\n"
			     "renumbered, attributes sorted, shardings in canonical form.\n"
			     "  -o, --output FILE  write to FILE instead of standard output\n"
			     "                     (FILE \"-\" is standard input or output)\n"
			     "  --generic          print every op in the generic form\n"
			     "  --debuginfo        print locations\n"
			     "  --emit FORM        sdy (default), xla (XLA's sharding encodings),\n"
			     "                     mhlo (MHLO op names) or mhlo,xla");
			return EXIT_OK;
		case 'o':
			output = optarg;
			break;
		case 'e':
			if (cli_emit_parse(&emit, optarg)) {
				fprintf(stderr, "shardlp print: unknown --emit form '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'g':
			po.generic = true;
			break;
		case 'd':
			po.debuginfo = true;
			break;
		default:
			fputs("usage: shardlp print [-o FILE] FILE\n", stderr);
			return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc) {
		fputs("usage: shardlp print [-o FILE] FILE\n", stderr);
		return EXIT_USAGE;
	}
	sl_context *ctx = sl_context_new();
	cli_sink sink;
	cli_sink_init(&sink, ctx);
	char *text;
	int status = EXIT_OK;
	sl_module *m = cli_load(ctx, &sink, argv[optind], &text);
	if (!m || cli_emit_prepare(&emit, m, &po, "shardlp print")) {
		status = EXIT_INPUT;
	} else {
		cli_out o;
		FILE *out = cli_out_open(&o, "shardlp", output);
		if (!out) {
			status = EXIT_INPUT;
		} else {
			bool ok = !sl_module_print(m, out, &po);
			if (!ok)
				fputs("shardlp: write error\n", stderr);
			if (cli_out_close(&o, "shardlp", ok))
				status = EXIT_INPUT;
		}
	}
	sl_module_free(m);
	free(text);
	cli_sink_fini(&sink);
	sl_context_free(ctx);
	return status;
}

int
main(int argc, char **argv)
{
	sl_set_fatal_hook(cli_fatal);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return cli_out_finish("shardlp", EXIT_OK);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("shardlp %s\n", sl_version());
		return cli_out_finish("shardlp", EXIT_OK);
	}
	const command *c = find_command(argv[1]);
	if (!c) {
		fprintf(stderr, "shardlp: unknown command '%s'\n", argv[1]);
		return EXIT_USAGE;
	}
	return cli_out_finish("shardlp", c->run(argc - 1, argv + 1));
}
