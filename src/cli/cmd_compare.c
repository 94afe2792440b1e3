/*
 * cmd_compare.c - `shardlp compare`: the greedy propagation strategies and
 * the ILP on the same input, scored by the one evaluator, side by side.
 * Entry: cmd_compare(argc, argv), argv[0] = "compare".  A strategy whose
 * pass is not in the pass table is reported as unavailable.
 */
#include "cli_solve.h"
#include "cli_out.h"
#include "cli_watchdog.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char usage_short[] =
	"usage: shardlp compare [--csv] [--time-limit S] [--no-decompose]\n"
	"                       [--methods LIST] [--split-input-file] [--dot FILE.dot]\n"
	"                       [--progress[=S]]\n"
	"                       [cost options] [auto-sharding options] FILE...\n";

static void
put_num(double v, bool csv)
{
	if (isnan(v) || isinf(v))
		fputs(csv ? "" : "           -", stdout);
	else
		printf(csv ? "%.9g" : " %11.4g", v);
}

/* The CSV header: fixed, documented in shardlp(1). */
static void
put_header(void)
{
	fputs("file,method,status", stdout);
	for (int k = 0; k < CLI_COST_NCOLS; k++)
		printf(",%s", cli_cost_cols[k]);
	puts(",bound,gap,ratio,seconds");
}

/* A line under the table naming the methods whose peak breaks the budget. */
static void
note_over_budget(const cli_method_row *rows)
{
	bool any = false;
	for (size_t g = 0; g < CLI_NMETHODS; g++) {
		const cli_method_row *r = &rows[g];
		if (!r->scored || r->parts.budget <= 0 || r->parts.peak_bytes <= r->parts.budget)
			continue;
		if (!any)
			printf("  over the memory budget of %.4g bytes per device:", r->parts.budget);
		printf(" %s", r->method);
		any = true;
	}
	if (any)
		putchar('\n');
}

/* --dot: the graph of the methods' modules, the ILP's (or the first
 * run) the reference; frees the modules. */
static int
write_dot(const char *path, cli_compare_out *o)
{
	sl_module *mods[CLI_NMETHODS];
	const char *names[CLI_NMETHODS];
	size_t n = 0;
	for (size_t i = 0; i < CLI_NMETHODS; i++)
		if (o->mods[i]) {
			mods[n] = o->mods[i];
			names[n++] = o->rows[i].method;
		}
	int rc = EXIT_OK;
	cli_out out;
	FILE *f = n ? cli_out_open(&out, "shardlp compare", path) : NULL;
	if (!n)
		fprintf(stderr, "shardlp compare: --dot: no method gave a module\n");
	if (!f || cli_out_close(&out, "shardlp compare",
	                       !sl_modules_write_dot(f, mods, names, n)))
		rc = EXIT_INPUT;
	for (size_t i = 0; i < n; i++)
		sl_module_free(mods[i]);
	return rc;
}

static int
compare_src(sl_context *ctx, const cli_src *src, const char *path,
            const sl_solve_opts *opts, cli_cost_opts *co, bool csv, unsigned methods,
            const char *dot, cli_progress *pl)
{
	cli_compare_out o;
	memset(&o, 0, sizeof o);
	o.tell = true;
	o.methods = methods;
	o.keep_all = dot != NULL;
	sl_solve_opts so = *opts;
	cli_progress_arm(pl, &so, path);
	int status = cli_compare_run(ctx, src, &so, co, &o);
	if (dot && status != EXIT_INPUT) {
		int st = write_dot(dot, &o);
		status = st > status ? st : status;
	}
	if (status == EXIT_INPUT)
		return status;
	const cli_method_row *rows = o.rows, *ilp = &rows[0];
	if (!csv && o.changed[0])
		printf("note: the export steps change the score of the module of %s; "
		       "the costs are those of the imported program\n", o.changed);
	if (!csv) {
		printf("%s\n  %-14s %-11s %11s %11s %11s %11s %11s %8s %8s %6s %s\n",
		       path, "method", "status", "time (s)", "compute (s)", "comm. (s)",
		       "peak (B)", "bound (s)", "gap", "solve(s)", "ratio", "differ");
	}
	for (size_t g = 0; g < CLI_NMETHODS; g++) {
		const cli_method_row *r = &rows[g];
		double nan = NAN;
		if (!strcmp(r->status, "skipped"))
			continue;
		if (csv) {
			double v[CLI_COST_NCOLS];
			cli_cost_values(r, v);
			printf("%s,%s,%s", path, r->method, r->status);
			for (int k = 0; k < CLI_COST_NCOLS; k++) {
				putchar(',');
				put_num(v[k], true);
			}
			putchar(',');
			put_num(r->bound, true);
			putchar(',');
			put_num(r->gap, true);
			putchar(',');
			put_num(r->scored && ilp->scored && ilp->parts.total > 0 ?
			        r->parts.total / ilp->parts.total : nan, true);
			putchar(',');
			put_num(strcmp(r->status, "unavailable") ? r->seconds : nan, true);
			putchar('\n');
			continue;
		}
		printf("  %-14s %-11s", r->method, r->status);
		put_num(r->scored ? r->parts.total : nan, false);
		put_num(r->scored ? r->parts.compute : nan, false);
		put_num(r->scored ? r->parts.communication : nan, false);
		put_num(r->scored ? r->parts.peak_bytes : nan, false);
		put_num(r->bound, false);
		if (isfinite(r->gap))	/* rounding noise of a proven optimum: 0 */
			printf(" %8.2g", fabs(r->gap) < 1e-12 ? 0.0 : r->gap);
		else
			printf(" %8s", "-");
		if (strcmp(r->status, "unavailable"))
			printf(" %8.2f", r->seconds);
		else
			printf(" %8s", "-");
		if (r->scored && ilp->scored && ilp->parts.total > 0)
			printf(" %6.3f", r->parts.total / ilp->parts.total);
		else
			printf(" %6s", "-");
		if (g > 0 && r->differ >= 0)
			printf(" %ld", r->differ);
		else
			printf(" %s", "-");
		putchar('\n');
	}
	if (!csv)
		note_over_budget(rows);
	for (size_t g = 1; !csv && g < CLI_NMETHODS; g++)
		if (rows[g].in_model == 0)
			printf("  note: the %s result is not a point of the ILP's model: %s\n",
			       rows[g].method, rows[g].not_in_model);
	if (!csv && o.start_note[0])
		printf("  note: %s\n", o.start_note);
	return status;
}

/*
 * Compares the methods on one file, or with split on each of its chunks
 * ("// -----"), named PATH#N (from 1) in the output.  The worst status.
 */
static int
compare_file(const char *path, const sl_solve_opts *opts, cli_cost_opts *co, bool csv,
             bool split, unsigned methods, const char *dot, cli_progress *pl)
{
	sl_context *ctx = sl_context_new();
	cli_sink sink;
	cli_sink_init(&sink, ctx);
	sink.once = true;	/* each method reads the program: warn once */
	size_t len, n = 0;
	const char *name;
	int status = EXIT_INPUT;
	char *text = cli_source(&sink, path, &len, &name);
	cli_src *chunks = text ? cli_split(name, text, len, split, &n) : NULL;
	if (n)
		status = EXIT_OK;
	for (size_t k = 0; k < n; k++) {
		char label[4096];
		if (split)
			snprintf(label, sizeof label, "%s#%zu", path, k + 1);
		int st = compare_src(ctx, &chunks[k], split ? label : path, opts, co, csv, methods,
		                     dot, pl);
		if (st > status)
			status = st;
	}
	free(chunks);
	free(text);
	cli_sink_fini(&sink);
	sl_context_free(ctx);
	return status;
}

enum {
	OPT_CSV = 1000, OPT_TIME, OPT_NO_DECOMPOSE, OPT_SPLIT, OPT_METHODS, OPT_DOT,
	OPT_PROGRESS
};

int
cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"csv", no_argument, NULL, OPT_CSV},
		{"time-limit", required_argument, NULL, OPT_TIME},
		{"tmlim", required_argument, NULL, OPT_TIME},	/* glpsol's name */
		{"no-decompose", no_argument, NULL, OPT_NO_DECOMPOSE},
		{"split-input-file", no_argument, NULL, OPT_SPLIT},
		{"methods", required_argument, NULL, OPT_METHODS},
		{"dot", required_argument, NULL, OPT_DOT},
		{"progress", optional_argument, NULL, OPT_PROGRESS},
		CLI_COST_LONGOPTS,
		{NULL, 0, NULL, 0},
	};
	bool csv = false, split = false;
	unsigned methods = 0;
	double every = -1;	/* --progress: seconds between reports */
	const char *dot = NULL;
	sl_solve_opts so;
	cli_cost_opts co;
	int c;

	sl_solve_opts_init(&so);
	cli_cost_opts_init(&co);
	while ((c = cli_cost_getopt(&co, argc, argv, "h", longopts)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage_short, stdout);
			fputs("\nRuns the greedy propagation strategies (basic, aggressive,\n"
			      "op-priority, user-priority) and the ILP on each FILE and prints\n"
			      "their costs side by side: status, the estimated step time in\n"
			      "seconds and its compute and communication parts, the peak live\n"
			      "bytes per device, bound, gap, seconds of the solve, the ratio\n"
			      "to the ILP's time and how many tensors differ from the ILP's\n"
			      "shardings.\n"
			      "  --csv           one row per file and method, with the header\n"
			      "                  file,method,status,cost,compute_s,comm_s,\n"
			      "                  peak_mem_bytes,over_budget,in_model,all_gather_n,\n"
			      "                  all_gather_bytes,all_to_all_n,all_to_all_bytes,\n"
			      "                  all_reduce_n,all_reduce_bytes,reduce_scatter_n,\n"
			      "                  reduce_scatter_bytes,collective_permute_n,\n"
			      "                  collective_permute_bytes,bound,gap,ratio,seconds\n"
			      "  --time-limit S, --tmlim S\n"
			      "                  time limit of each ILP solve\n"
			      "  --no-decompose  solve one whole model, not a chain of blocks\n"
			      "  --methods LIST  only these methods: ilp, greedy (the four) or\n"
			      "                  strategies by name, comma-separated\n"
			      "  --split-input-file\n"
			      "                  compare each chunk of FILE between '// -----'\n"
			      "                  lines, named FILE#N\n"
			      "  --dot FILE.dot  a Graphviz graph of the one FILE: ops and\n"
			      "                  tensors with the ILP's shardings, in red the\n"
			      "                  tensors some method shards otherwise\n"
			      "  --progress[=S]  report the ILP's progress (block, solves, branch\n"
			      "                  and cut nodes and gap, seconds) every S\n"
			      "                  seconds (default 1, 0: at every step) on\n"
			      "                  standard error, also when it is not a\n"
			      "                  terminal; without it, a line on a terminal\n"
			      "                  once a solve passes 1 s\n\n",
			      stdout);
			fputs(cli_cost_help, stdout);
			fputs(cli_mesh_help, stdout);
			cli_cost_opts_fini(&co);
			return EXIT_OK;
		case OPT_CSV:
			csv = true;
			break;
		case OPT_NO_DECOMPOSE:
			so.no_decompose = true;
			break;
		case OPT_SPLIT:
			split = true;
			break;
		case OPT_METHODS:
			if (!(methods = cli_methods_parse("shardlp compare", optarg)))
				goto usage;
			break;
		case OPT_DOT:
			dot = optarg;
			break;
		case OPT_PROGRESS:
			if (cli_progress_option("shardlp compare", optarg, &every))
				goto usage;
			break;
		case OPT_TIME:
			if (!cli_parse_number(optarg, &so.time_limit)) {
				fprintf(stderr, "shardlp compare: invalid number '%s'\n", optarg);
				goto usage;
			}
			break;
		default:
			goto usage;
		}
	}
	if (optind >= argc)
		goto usage;
	if (dot && (optind + 1 < argc || split)) {
		fprintf(stderr, "shardlp compare: --dot wants one FILE, not split\n");
		goto usage;
	}
	so.cost = co.params;
	if (csv)
		put_header();
	int status = EXIT_OK;
	cli_progress pl;
	cli_progress_init(&pl, every, false);
	for (int i = optind; i < argc; i++) {
		cli_watchdog_arm("shardlp", argv[i], so.time_limit);
		int st = compare_file(argv[i], &so, &co, csv, split, methods, dot, &pl);
		if (st > status)
			status = st;
	}
	cli_cost_opts_fini(&co);
	return status;
usage:
	fputs(usage_short, stderr);
	cli_cost_opts_fini(&co);
	return EXIT_USAGE;
}
