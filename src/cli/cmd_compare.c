/*
 * cmd_compare.c - `shardlp compare`: the greedy propagation strategies and
 * the ILP on the same input, scored by the one evaluator, side by side.
 * Entry: cmd_compare(argc, argv), argv[0] = "compare".  A strategy whose
 * pass is not in the pass table is reported as unavailable.
 */
#include "cli_solve.h"
#include "cli_watchdog.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char usage_short[] =
	"usage: shardlp compare [--csv] [--time-limit S] [--no-decompose] [cost options]\n"
	"                       FILE...\n";

/* The greedy strategies, by their pass flag (src/passes). */
const cli_greedy_strategy cli_greedy[CLI_NGREEDY] = {
	{"basic", "sdy-basic-propagate"},
	{"aggressive", "sdy-aggressive-propagate"},
	{"op-priority", "sdy-op-priority-propagate"},
	{"user-priority", "sdy-user-priority-propagate"},
};
#define NGREEDY CLI_NGREEDY
#define greedy cli_greedy

typedef struct row {
	const char *method;
	const char *status;
	sl_cost_parts parts;
	double bound, gap, seconds;
	bool scored;
	long differ;		/* tensors whose sharding differs from the ILP's */
	sl_module *m;
} row;

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int
cli_greedy_run(sl_context *ctx, const char *name, const char *text, size_t len,
               size_t g, const sl_cost_params *cost, cli_greedy_result *out)
{
	memset(out, 0, sizeof *out);
	out->status = "unavailable";
	if (!sl_pass_exists(cli_greedy[g].pass))
		return 0;
	sl_module *m = cli_parse(ctx, name, text, len);
	if (!m)
		return -1;
	char err[256];
	double t0 = now();
	int rc = sl_pass_run(m, cli_greedy[g].pass, "", err, sizeof err);
	out->seconds = now() - t0;
	if (rc) {
		out->status = "error";
		sl_module_free(m);
		return 0;
	}
	out->status = "ok";
	if (sl_cost_eval(m, cost, &out->parts) == 0)
		out->scored = true;
	else
		out->status = "unscored";
	out->m = m;
	return 0;
}

static void
put_num(double v, bool csv)
{
	if (isnan(v) || isinf(v))
		fputs(csv ? "" : "           -", stdout);
	else
		printf(csv ? "%.9g" : " %11.4f", v);
}

static int
compare_file(const char *path, const sl_solve_opts *opts, cli_cost_opts *co, bool csv)
{
	row rows[NGREEDY + 1];
	int status = EXIT_OK;
	memset(rows, 0, sizeof rows);

	sl_context *ctx = sl_context_new();
	cli_sink sink;
	cli_sink_init(&sink, ctx);
	size_t len;
	const char *name;
	char *text = cli_source(&sink, path, &len, &name);
	if (!text) {
		status = EXIT_INPUT;
		goto out;
	}

	/* the cost parameters, with this file's mesh description applied */
	sl_solve_opts local = *opts;
	const sl_solve_opts *base = &local;
	if (co->mesh_xml) {
		sl_module *m0 = cli_parse(ctx, name, text, len);
		int bad = !m0 || cli_cost_params_for(co, ctx, m0, &local.cost);
		sl_module_free(m0);
		if (bad) {
			status = EXIT_INPUT;
			goto out;
		}
	}

	/* greedy strategies first: the best becomes the ILP's incumbent */
	sl_module *best = NULL;
	double bestcost = INFINITY;
	for (size_t g = 0; g < NGREEDY; g++) {
		row *r = &rows[g + 1];
		cli_greedy_result gr;
		r->method = greedy[g].method;
		r->bound = r->gap = NAN;
		if (cli_greedy_run(ctx, name, text, len, g, &base->cost, &gr)) {
			status = EXIT_INPUT;
			goto out;
		}
		r->status = gr.status;
		r->seconds = gr.seconds;
		r->parts = gr.parts;
		r->scored = gr.scored;
		r->m = gr.m;
		if (r->scored && r->parts.total < bestcost) {
			bestcost = r->parts.total;
			best = r->m;
		}
	}

	row *ilp = &rows[0];
	ilp->method = "ilp";
	sl_module *m = cli_parse(ctx, name, text, len);
	if (!m) {
		status = EXIT_INPUT;
		goto out;
	}
	sl_solve_opts so = *base;
	so.start = best;
	sl_solve_result sr;
	int rc = sl_solve(m, &so, &sr);
	ilp->m = m;
	ilp->status = rc < 0 ? "error" : sl_solve_status_name(sr.status);
	ilp->seconds = sr.seconds;
	ilp->bound = sr.bound;
	ilp->gap = sr.gap;
	if (rc == 0) {
		ilp->parts = sr.parts;
		ilp->scored = true;
	} else {
		status = EXIT_SOLVER;
	}
	if (best && !sr.start_used && sr.start_note[0] && !csv)
		printf("note: the best greedy result is not a point of the model: %s\n",
		       sr.start_note);

	sl_assignment *qi = ilp->scored ? sl_assignment_read(m, &base->cost) : NULL;
	for (size_t g = 1; g <= NGREEDY; g++) {
		rows[g].differ = -1;
		if (!qi || !rows[g].m)
			continue;
		sl_assignment *qg = sl_assignment_read(rows[g].m, &base->cost);
		rows[g].differ = sl_assignment_diff(qi, qg);
		sl_assignment_free(qg);
	}
	sl_assignment_free(qi);

	if (!csv) {
		printf("%s\n  %-14s %-11s %11s %11s %11s %11s %11s %11s %8s %6s %s\n",
		       path, "method", "status", "cost", "memory", "communic.",
		       "compute", "bound", "gap", "seconds", "ratio", "differ");
	}
	for (size_t g = 0; g <= NGREEDY; g++) {
		row *r = &rows[g];
		double nan = NAN;
		if (csv) {
			printf("%s,%s,%s,", path, r->method, r->status);
			put_num(r->scored ? r->parts.total : nan, true);
			putchar(',');
			put_num(r->scored ? r->parts.memory : nan, true);
			putchar(',');
			put_num(r->scored ? r->parts.communication : nan, true);
			putchar(',');
			put_num(r->scored ? r->parts.compute : nan, true);
			putchar(',');
			put_num(r->bound, true);
			putchar(',');
			put_num(r->gap, true);
			putchar(',');
			put_num(strcmp(r->status, "unavailable") ? r->seconds : nan, true);
			putchar('\n');
			continue;
		}
		printf("  %-14s %-11s", r->method, r->status);
		put_num(r->scored ? r->parts.total : nan, false);
		put_num(r->scored ? r->parts.memory : nan, false);
		put_num(r->scored ? r->parts.communication : nan, false);
		put_num(r->scored ? r->parts.compute : nan, false);
		put_num(r->bound, false);
		put_num(r->gap, false);
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
out:
	for (size_t g = 0; g <= NGREEDY; g++)
		sl_module_free(rows[g].m);
	free(text);
	cli_sink_fini(&sink);
	sl_context_free(ctx);
	return status;
}

enum { OPT_CSV = 1000, OPT_TIME, OPT_NO_DECOMPOSE };

int
cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"csv", no_argument, NULL, OPT_CSV},
		{"time-limit", required_argument, NULL, OPT_TIME},
		{"tmlim", required_argument, NULL, OPT_TIME},	/* glpsol's name */
		{"no-decompose", no_argument, NULL, OPT_NO_DECOMPOSE},
		CLI_COST_LONGOPTS,
		{NULL, 0, NULL, 0},
	};
	bool csv = false;
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
			      "their costs side by side: status, cost and its components,\n"
			      "bound, gap, seconds, the ratio to the ILP's cost and how many\n"
			      "tensors differ from the ILP's shardings.\n"
			      "  --csv           one row per file and method, with the header\n"
			      "                  file,method,status,cost,memory,communication,\n"
			      "                  compute,bound,gap,seconds\n"
			      "  --time-limit S, --tmlim S\n"
			      "                  time limit of each ILP solve\n"
			      "  --no-decompose  solve one whole model, not a chain of blocks\n\n",
			      stdout);
			fputs(cli_cost_help, stdout);
			cli_cost_opts_fini(&co);
			return EXIT_OK;
		case OPT_CSV:
			csv = true;
			break;
		case OPT_NO_DECOMPOSE:
			so.no_decompose = true;
			break;
		case OPT_TIME: {
			char *end;
			so.time_limit = strtod(optarg, &end);
			if (*end || end == optarg || so.time_limit < 0) {
				fprintf(stderr, "shardlp compare: invalid number '%s'\n", optarg);
				goto usage;
			}
			break;
		}
		default:
			goto usage;
		}
	}
	if (optind >= argc)
		goto usage;
	so.cost = co.params;
	if (csv)
		puts("file,method,status,cost,memory,communication,compute,bound,gap,seconds");
	int status = EXIT_OK;
	for (int i = optind; i < argc; i++) {
		cli_watchdog_arm("shardlp", argv[i], so.time_limit);
		int st = compare_file(argv[i], &so, &co, csv);
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
