/*
 * cmd_propagate.c - `shardlp propagate FILE [--strategy S] [options]`:
 * parses and verifies FILE, runs one propagation pass (or, with
 * --pipeline, the whole sdy-propagation-pipeline) and prints the annotated
 * module to standard output or -o FILE.  Uses only the public API: the
 * pass is run by its shardlp-opt name through sl_pass_run.
 * Entry: cmd_propagate(argc, argv), argv[0] = "propagate", in cli.h.
 */
#include "cli_solve.h"
#include "cli_emit.h"
#include "cli_out.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char usage_short[] =
	"usage: shardlp propagate [--strategy basic|aggressive|op-priority|user-priority]\n"
	"                         [--factor-propagation basic|aggressive|basic-then-aggressive]\n"
	"                         [--conservative] [--keep-sharding-rules] [--no-op-priority]\n"
	"                         [--debug-sharding-origins] [--debug-edge-sharding]\n"
	"                         [--dump-dir DIR] [--pipeline] [--time]\n"
	"                         [--explicit-reshards | --collectives] [--emit FORM]\n"
	"                         [-o FILE]\n"
	"                         [auto-sharding options] FILE\n";

static void
usage_long(void)
{
	fputs(usage_short, stdout);
	printf("\n"
	       "Parses and verifies FILE ('-' is standard input), propagates shardings\n"
	       "as Shardy does and prints the annotated module.\n"
	       "\n"
	       "  --strategy S              the propagation pass: basic, aggressive,\n"
	       "                            op-priority or user-priority (the default)\n"
	       "  --factor-propagation F    basic, aggressive (default) or\n"
	       "                            basic-then-aggressive (not with basic)\n"
	       "  --conservative            conservative propagation\n"
	       "  --keep-sharding-rules     keep the sdy.sharding_rule attributes\n"
	       "  --no-op-priority          one run without op-priority levels\n"
	       "  --debug-sharding-origins  add sdy.sharding_origins attributes\n"
	       "  --debug-edge-sharding     add sdy.propagation_edges attributes\n"
	       "  --dump-dir DIR            write module dumps into DIR\n"
	       "  --pipeline                run the whole sdy-propagation-pipeline\n"
	       "  --time                    print the CPU time of parsing and of\n"
	       "                            propagation to standard error\n"
	       "  --explicit-reshards       then insert the reshards and all-reduces\n"
	       "                            the shardings need (Shardy's\n"
	       "                            -sdy-insert-explicit-reshards)\n"
	       "  --collectives             and turn the reshards into collectives\n"
	       "                            (-sdy-reshard-to-collectives)\n"
	       "%s"
	       "  -o FILE                   write the module to FILE ('-' = stdout)\n"
	       "  -h, --help                print this help\n\n", cli_emit_help);
	fputs(cli_mesh_help, stdout);
}

#define usage_error(fmt, arg) cli_usage_error("shardlp propagate", usage_short, fmt, arg)

static double
cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *const strategies[][2] = {
	{"basic", "sdy-basic-propagate"},
	{"aggressive", "sdy-aggressive-propagate"},
	{"op-priority", "sdy-op-priority-propagate"},
	{"user-priority", "sdy-user-priority-propagate"},
};

static void
add_opt(char *buf, size_t n, const char *opt)
{
	size_t len = strlen(buf);
	snprintf(buf + len, n - len, "%s%s", len ? " " : "", opt);
}

int
cmd_propagate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"strategy", required_argument, NULL, 's'},
		{"factor-propagation", required_argument, NULL, 'f'},
		{"conservative", no_argument, NULL, 'c'},
		{"keep-sharding-rules", no_argument, NULL, 'k'},
		{"no-op-priority", no_argument, NULL, 'n'},
		{"debug-sharding-origins", no_argument, NULL, 'O'},
		{"debug-edge-sharding", no_argument, NULL, 'E'},
		{"dump-dir", required_argument, NULL, 'd'},
		{"pipeline", no_argument, NULL, 'p'},
		{"time", no_argument, NULL, 't'},
		{"explicit-reshards", no_argument, NULL, 'X'},
		{"collectives", no_argument, NULL, 'C'},
		{"emit", required_argument, NULL, 'e'},
		{"help", no_argument, NULL, 'h'},
		CLI_MESH_LONGOPTS,
		{NULL, 0, NULL, 0},
	};
	const char *pass = "sdy-user-priority-propagate", *out = NULL, *factor = NULL;
	const char *dumpdir = NULL;
	bool pipeline = false, timing = false;
	int explicit_level = 0;
	cli_mesh_opts mesh = {0};
	cli_emit emit = {false, false};
	char opts[1024] = "";
	char tmp[600];
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
		switch (c) {
		case 's': {
			size_t i;
			for (i = 0; i < sizeof strategies / sizeof *strategies; i++)
				if (!strcmp(optarg, strategies[i][0]))
					break;
			if (i == sizeof strategies / sizeof *strategies)
				return usage_error("unknown strategy '%s'", optarg);
			pass = strategies[i][1];
			break;
		}
		case 'f':
			if (strcmp(optarg, "basic") && strcmp(optarg, "aggressive") &&
			    strcmp(optarg, "basic-then-aggressive"))
				return usage_error("unknown factor propagation '%s'", optarg);
			factor = optarg;
			break;
		case 'c':
			add_opt(opts, sizeof opts, "conservative-propagation=true");
			break;
		case 'k':
			add_opt(opts, sizeof opts, "keep-sharding-rules=true");
			break;
		case 'n':
			add_opt(opts, sizeof opts, "run-op-priority-propagation=false");
			break;
		case 'O':
			add_opt(opts, sizeof opts, "debug-sharding-origins=true");
			break;
		case 'E':
			add_opt(opts, sizeof opts, "debug-propagation-edge-sharding=true");
			break;
		case 'd':
			if (strchr(optarg, ' ') || strchr(optarg, ',') || strlen(optarg) > 500)
				return usage_error("unsupported dump directory '%s'", optarg);
			snprintf(tmp, sizeof tmp, "module-dump-directory=%s", optarg);
			dumpdir = optarg;
			add_opt(opts, sizeof opts, tmp);
			break;
		case 'p':
			pipeline = true;
			break;
		case 't':
			timing = true;
			break;
		case 'X':
			explicit_level = explicit_level > 1 ? explicit_level : 1;
			break;
		case 'C':
			explicit_level = 2;
			break;
		case 'o':
			out = optarg;
			break;
		case 'e':
			if (cli_emit_parse(&emit, optarg))
				return usage_error("unknown --emit form '%s'", optarg);
			break;
		case 'h':
			usage_long();
			return EXIT_OK;
		case ':':
			return usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			if (cli_mesh_option(&mesh, c, optarg) == 0)
				break;
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return usage_error("%s", "missing FILE");
	if (optind + 1 < argc)
		return usage_error("unexpected argument '%s'", argv[optind + 1]);
	if (factor) {
		if (!strcmp(pass, "sdy-basic-propagate"))
			return usage_error("%s", "--factor-propagation needs a strategy other than basic");
		snprintf(tmp, sizeof tmp, "propagation-strategy=%s", factor);
		add_opt(opts, sizeof opts, tmp);
	}
	if (!strcmp(pass, "sdy-basic-propagate") || !strcmp(pass, "sdy-aggressive-propagate")) {
		if (strstr(opts, "run-op-priority-propagation"))
			return usage_error("%s", "--no-op-priority needs op-priority or user-priority");
	}
	if (pipeline) {
		if (opts[0] || factor || strcmp(pass, "sdy-user-priority-propagate"))
			return usage_error("%s", "--pipeline takes no other propagation option");
		pass = "sdy-propagation-pipeline";
	}

	size_t len;
	const char *name;
	sl_context *ctx = sl_context_new();
	cli_sink sink;
	cli_sink_init(&sink, ctx);
	char *text = cli_source(&sink, argv[optind], &len, &name);
	if (!text || cli_out_check("shardlp", out) ||
	    (dumpdir && cli_out_check_dir("shardlp", dumpdir))) {
		free(text);
		cli_sink_fini(&sink);
		sl_context_free(ctx);
		return EXIT_INPUT;
	}
	int status = EXIT_OK;
	sl_print_opts po = {false, false, false};
	double t0 = cpu_seconds();
	sl_module *m = sl_module_parse(ctx, name, text, len);
	double t1 = cpu_seconds();
	if (!m || sl_module_verify(m) || cli_mesh_apply(&mesh, m, name, true)) {
		status = EXIT_INPUT;
	} else {
		char err[256];
		double t2 = cpu_seconds();
		int rc = sl_pass_run(m, pass, opts, err, sizeof err);
		if (timing)
			fprintf(stderr, "parse %.6f s, propagate %.6f s\n", t1 - t0,
			        cpu_seconds() - t2);
		if (rc == -2) {
			fprintf(stderr, "shardlp propagate: %s\n", err);
			status = EXIT_USAGE;
		} else if (rc || sl_module_verify(m) ||
		           cli_explicit_steps(m, explicit_level, "shardlp propagate") ||
		           cli_emit_prepare(&emit, m, &po, "shardlp propagate")) {
			status = EXIT_INPUT;
		} else {
			cli_out o;
			FILE *f = cli_out_open(&o, "shardlp", out);
			bool ok = f && !sl_module_print(m, f, &po);
			if (f && !ok)
				fputs("shardlp: write error\n", stderr);
			if (!f || cli_out_close(&o, "shardlp", ok))
				status = EXIT_INPUT;
		}
	}
	sl_module_free(m);
	cli_sink_fini(&sink);
	sl_context_free(ctx);
	free(text);
	return status;
}
