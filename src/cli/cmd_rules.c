/*
 * cmd_rules.c - `shardlp rules [--explain] [--conservative] FILE`: the
 * sharding rule of every op inside the functions of FILE, one line per op
 * in source order ("file:line:col: op-name #sdy.op_sharding_rule<...>"),
 * written by sl_rules_print.  With --explain, one line per factor: its
 * size, kind, and the operand and result dimensions it maps; with
 * --summary, only counts.
 * Entry: cmd_rules(argc, argv), argv[0] = "rules", declared in cli.h.
 */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char usage_short[] =
	"usage: shardlp rules [--explain | --summary] [--conservative] FILE\n";

static void
usage_long(void)
{
	fputs(usage_short, stdout);
	fputs("\n"
	      "Parses and verifies FILE ('-' is standard input) and prints, for every\n"
	      "op inside its functions, the op's sharding rule as\n"
	      "#sdy.op_sharding_rule<...>, or 'no rule'.  An sdy.sharding_rule the op\n"
	      "already carries is printed as it is.\n"
	      "\n"
	      "  --explain       also print, per factor, its size, its kind and the\n"
	      "                  operand and result dimensions it comes from\n"
	      "  --summary       print only the number of ops with and without a rule\n"
	      "                  and the number of factors\n"
	      "  --conservative  the rules of conservative propagation\n"
	      "  -h, --help      print this help\n", stdout);
}

#define usage_error(fmt, arg) cli_usage_error("shardlp rules", usage_short, fmt, arg)

int
cmd_rules(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"explain", no_argument, NULL, 'e'},
		{"conservative", no_argument, NULL, 'c'},
		{"summary", no_argument, NULL, 's'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	sl_rules_opts ro = {false, false, false};
	sl_rules_count count;
	sl_module *m;
	int status = EXIT_OK;
	const char *path, *name;
	sl_context *ctx;
	cli_sink sink;
	char *text;
	size_t len;
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			ro.explain = true;
			break;
		case 'c':
			ro.conservative = true;
			break;
		case 's':
			ro.count_only = true;
			break;
		case 'h':
			usage_long();
			return EXIT_OK;
		default:
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (ro.explain && ro.count_only)
		return usage_error("%s", "--explain and --summary exclude each other");
	if (optind >= argc)
		return usage_error("%s", "missing FILE");
	if (optind + 1 < argc)
		return usage_error("unexpected argument '%s'", argv[optind + 1]);
	path = argv[optind];

	ctx = sl_context_new();
	cli_sink_init(&sink, ctx);
	text = cli_source(&sink, path, &len, &name);
	if (!text) {
		cli_sink_fini(&sink);
		sl_context_free(ctx);
		return EXIT_INPUT;
	}
	m = sl_module_parse(ctx, name, text, len);
	if (m && sl_module_verify(m) == 0) {
		if (sl_rules_print(m, stdout, &ro, &count))
			status = EXIT_INPUT;
		if (ro.count_only)
			printf("%s: %zu ops, %zu with a rule, %zu without, %zu factors\n",
			       name, count.ops, count.rules, count.ops - count.rules,
			       count.factors);
		if (fflush(stdout) || ferror(stdout)) {
			fputs("shardlp: write error\n", stderr);
			status = EXIT_INPUT;
		}
	} else {
		status = EXIT_INPUT;
	}
	sl_module_free(m);
	cli_sink_fini(&sink);
	sl_context_free(ctx);
	free(text);
	return status;
}
