/*
 * cmd_iopddl.c - `shardlp iopddl`: the IOPDDL benchmark (formats/iopddl.h,
 * solver/iopddl.h).  Entry: cmd_iopddl(argc, argv), argv[0] = "iopddl",
 * argv[1] one of eval, solve, bench.  Costs are the contest's
 * dimensionless units, printed as integers.
 */
#include "cli.h"
#include "cli_out.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/iopddl.h"

static const char usage_short[] =
	"usage: shardlp iopddl eval PROBLEM SOLUTION\n"
	"       shardlp iopddl solve [-o SOLUTION] [--time-limit S] [--work-limit S]\n"
	"                            [--gap G] [--write-lp F] [--write-mps F]\n"
	"                            [--local-search]\n"
	"                            [--verbose] [-q] PROBLEM\n"
	"       shardlp iopddl bench [--time-limit S] [--work-limit S] [--gap G] DIR\n";

static const char help_text[] =
	"\nThe IOPDDL benchmark (ASPLOS 2025 contest on intra-operator\n"
	"parallelism): PROBLEM is a .json or .json.gz file of the contest.\n"
	"  eval    the cost and peak usage of SOLUTION (a JSON array of strategy\n"
	"          indices) and whether it is feasible\n"
	"  solve   reductions, a local search, then the ILP (GLPK) started from\n"
	"          its answer; prints the best solution found\n"
	"  bench   solves every .json and .json.gz file in DIR, one table row\n"
	"          each, against the best known cost from DIR/BEST.tsv\n"
	"options:\n"
	"  -o, --output F       write the solution to F (default standard output)\n"
	"  --time-limit S       end within S seconds, reading included (bench:\n"
	"                       per instance, default 60)\n"
	"  --work-limit S       the searches' work, in seconds of the reference\n"
	"                       machine: the same answer on any machine and\n"
	"                       load (default: 90%% of what --time-limit leaves)\n"
	"  --gap G              stop at relative optimality gap G\n"
	"  --write-lp F         write the reduced model in CPLEX LP format to F\n"
	"  --write-mps F        write the reduced model in free MPS format to F\n"
	"  --local-search       no ILP: the local search's answer\n"
	"  --verbose            the solver log, on standard error\n"
	"  -q, --quiet          no summary on standard error\n";

enum { OPT_TIME = 1000, OPT_WORK, OPT_GAP, OPT_LP, OPT_MPS, OPT_LS, OPT_VERBOSE };

typedef struct args {
	sl_iopddl_opts so;
	const char *output, *lp, *mps;
	bool quiet;
	bool time_given;
} args;

/* Options after the subcommand; optind left at the first operand. */
static int
parse_args(int argc, char **argv, args *a)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"output", required_argument, NULL, 'o'},
		{"time-limit", required_argument, NULL, OPT_TIME},
		{"work-limit", required_argument, NULL, OPT_WORK},
		{"gap", required_argument, NULL, OPT_GAP},
		{"write-lp", required_argument, NULL, OPT_LP},
		{"write-mps", required_argument, NULL, OPT_MPS},
		{"local-search", no_argument, NULL, OPT_LS},
		{"verbose", no_argument, NULL, OPT_VERBOSE},
		{"quiet", no_argument, NULL, 'q'},
		{NULL, 0, NULL, 0},
	};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "ho:q", longopts, NULL)) != -1) {
		double v;
		switch (c) {
		case 'h':
			fputs(usage_short, stdout);
			fputs(help_text, stdout);
			return EXIT_OK;
		case 'o': a->output = optarg; break;
		case 'q': a->quiet = true; break;
		case OPT_LP: a->lp = optarg; break;
		case OPT_MPS: a->mps = optarg; break;
		case OPT_LS: a->so.local_search_only = true; break;
		case OPT_VERBOSE: a->so.log = stderr; break;
		case OPT_TIME:
		case OPT_WORK:
		case OPT_GAP:
			if (!cli_parse_number(optarg, &v))
				return cli_usage_error("shardlp iopddl", usage_short,
				                       "invalid number '%s'", optarg);
			if (c == OPT_GAP)
				a->so.gap = v;
			else if (c == OPT_WORK)
				a->so.work_limit = v;
			else
				a->so.time_limit = v, a->time_given = true;
			break;
		default:
			fputs(usage_short, stderr);
			return EXIT_USAGE;
		}
	}
	return -1;
}

/* {====================================================================
 * eval
 * ===================================================================== */

static int
run_eval(const char *problem, const char *solution)
{
	sl_context *ctx = sl_context_new();
	cli_sink sink;
	cli_sink_init(&sink, ctx);
	int status = EXIT_INPUT;
	int64_t *sol = NULL;
	size_t n;
	sl_iopddl *p = sl_iopddl_read(ctx, problem);
	if (p && !sl_iopddl_read_solution(ctx, solution, &sol, &n)) {
		sl_iopddl_eval ev;
		if (sl_iopddl_evaluate(p, sol, n, &ev)) {
			fprintf(stderr, "shardlp: %s: infeasible: %s\n", solution, ev.why);
			status = EXIT_SOLVER;
		} else {
			printf("feasible, cost %lld, peak usage %lld", (long long)ev.cost,
			       (long long)ev.peak);
			if (p->has_limit)
				printf(" (limit %lld)", (long long)p->usage_limit);
			putchar('\n');
			status = EXIT_OK;
		}
	}
	free(sol);
	sl_iopddl_free(p);
	cli_sink_fini(&sink);
	sl_context_free(ctx);
	return status;
}

/* }==================================================================== */

/* {====================================================================
 * solve
 * ===================================================================== */

/*
 * Reads and solves path (exports to the paths in a, atomically).  The
 * exit status; *p and *r are left for the caller (free both).
 */
static int
solve_file(sl_context *ctx, const char *path, args *a, sl_iopddl **pp,
           sl_iopddl_result *r)
{
	sl_iopddl_opts so = a->so;
	memset(r, 0, sizeof *r);
	r->status = SL_SOLVE_ERROR;
	/* the time limit counts from here: reading included */
	if (so.time_limit > 0)
		so.deadline = sl_solve_clock() + so.time_limit;
	bool late;
	sl_iopddl *p = *pp = sl_iopddl_read_until(ctx, path, so.deadline, &late);
	if (late) {
		/* the time limit passed while reading: no answer, no error */
		r->status = SL_SOLVE_NO_SOLUTION;
		return EXIT_SOLVER;
	}
	if (!p)
		return EXIT_INPUT;
	char *lptmp = NULL, *mpstmp = NULL;
	if ((a->lp && !(lptmp = cli_out_tmpname("shardlp", a->lp))) ||
	    (a->mps && !(mpstmp = cli_out_tmpname("shardlp", a->mps)))) {
		free(lptmp);
		return EXIT_INPUT;
	}
	so.write_lp = lptmp;
	so.write_mps = mpstmp;
	int rc = sl_iopddl_solve(ctx, p, &so, r);
	int status = rc < 0 ? EXIT_SOLVER : rc > 0 ? EXIT_SOLVER : EXIT_OK;
	if (lptmp && cli_out_commit("shardlp", lptmp, a->lp, rc >= 0))
		status = EXIT_INPUT;
	if (mpstmp && cli_out_commit("shardlp", mpstmp, a->mps, rc >= 0))
		status = EXIT_INPUT;
	return status;
}

static void
print_num(FILE *f, double v)
{
	if (isinf(v) || isnan(v))
		fputs("-", f);
	else
		fprintf(f, "%.0f", v);
}

static int
run_solve(const char *path, args *a)
{
	sl_context *ctx = sl_context_new();
	cli_sink sink;
	cli_sink_init(&sink, ctx);
	sl_iopddl *p = NULL;
	sl_iopddl_result r;
	int status = solve_file(ctx, path, a, &p, &r);
	if (p && !a->quiet) {
		fprintf(stderr, "shardlp: %s: %s", path, sl_solve_status_name(r.status));
		if (r.solution)
			fprintf(stderr, ", cost %lld, peak usage %lld", (long long)r.eval.cost,
			        (long long)r.eval.peak);
		fputs(", bound ", stderr);
		print_num(stderr, r.bound);
		fprintf(stderr, ", gap %.2g, %.2f s (work %.2f s); %zu of %zu nodes "
		        "and %zu of %zu edges after reductions", r.gap, r.seconds,
		        r.work, r.nodes, p->nnodes, r.edges, p->nedges);
		if (r.ncols)
			fprintf(stderr, ", %zu columns (%zu binaries), %zu rows",
			        r.ncols, r.nbinaries, r.nrows);
		if (r.ilp_skipped)
			fputs(", no ILP (local search only)", stderr);
		else if (r.solution && r.from_heuristic)
			fputs(r.status == SL_SOLVE_OPTIMAL
			      ? ", found by the heuristics before the ILP, proven by its bound"
			      : ", found by the heuristics (the ILP found none better)", stderr);
		fputc('\n', stderr);
	}
	if (r.status == SL_SOLVE_INFEASIBLE && r.eval.why[0])
		fprintf(stderr, "shardlp: %s: infeasible: %s\n", path, r.eval.why);
	else if (!r.solution && r.status == SL_SOLVE_NO_SOLUTION)
		fprintf(stderr, "shardlp: %s: no solution found in the time limit\n", path);
	if (r.solution) {
		cli_out o;
		FILE *out = cli_out_open(&o, "shardlp", a->output);
		if (!out) {
			status = EXIT_INPUT;
		} else {
			bool ok = !sl_iopddl_write_solution(out, r.solution, p->nnodes);
			if (!ok)
				fputs("shardlp: write error\n", stderr);
			if (cli_out_close(&o, "shardlp", ok) && status == EXIT_OK)
				status = EXIT_INPUT;
		}
	}
	sl_iopddl_result_fini(&r);
	sl_iopddl_free(p);
	cli_sink_fini(&sink);
	sl_context_free(ctx);
	return status;
}

/* }==================================================================== */

/* {====================================================================
 * bench
 * ===================================================================== */

typedef struct best {
	char *name;
	double cost;
} best;

/* DIR/BEST.tsv: "instance<TAB>best_known..." after a header line. */
static size_t
read_best(const char *dir, best **out)
{
	size_t n = 0, cap = 0;
	*out = NULL;
	char *path = malloc(strlen(dir) + 16);
	if (!path)
		return 0;
	sprintf(path, "%s/BEST.tsv", dir);
	FILE *f = fopen(path, "r");
	free(path);
	if (!f)
		return 0;
	char line[512];
	while (fgets(line, sizeof line, f)) {
		char *tab = strchr(line, '\t');
		char *end;
		if (!tab)
			continue;
		double v = strtod(tab + 1, &end);
		if (end == tab + 1)
			continue;	/* the header */
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			best *nb = realloc(*out, cap * sizeof **out);
			if (!nb)
				break;
			*out = nb;
		}
		(*out)[n].name = cli_xstrndup(line, (size_t)(tab - line));
		(*out)[n++].cost = v;
	}
	fclose(f);
	return n;
}

/* The best known cost of instance file name: BEST.tsv's row named by it
 * or by its last '-' part ("asplos-2025-iopddl-B" is "B"); NAN if none. */
static double
best_for(const best *b, size_t n, const char *name)
{
	const char *dash = strrchr(name, '-');
	for (size_t i = 0; i < n; i++)
		if (!strcmp(b[i].name, name) || (dash && !strcmp(b[i].name, dash + 1)))
			return b[i].cost;
	return NAN;
}

static bool
is_instance(const char *name)
{
	size_t n = strlen(name);
	return (n > 5 && !strcmp(name + n - 5, ".json")) ||
	       (n > 8 && !strcmp(name + n - 8, ".json.gz"));
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The instance files of dir, sorted (heap; free each and the array). */
static size_t
list_instances(const char *dir, char ***out)
{
	DIR *d = opendir(dir);
	size_t n = 0, cap = 0;
	*out = NULL;
	if (!d)
		return 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!is_instance(de->d_name))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			char **nv = realloc(*out, cap * sizeof **out);
			if (!nv)
				break;
			*out = nv;
		}
		(*out)[n++] = cli_xstrdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(*out, n, sizeof **out, by_name);
	return n;
}

static int
run_bench(const char *dir, args *a)
{
	char **files;
	size_t nfiles = list_instances(dir, &files);
	if (!nfiles) {
		fprintf(stderr, "shardlp: %s: no .json or .json.gz instances%s%s\n", dir,
		        errno ? ": " : "", errno ? strerror(errno) : "");
		free(files);
		return EXIT_INPUT;
	}
	best *bk;
	size_t nbest = read_best(dir, &bk);
	if (!a->time_given)
		a->so.time_limit = 60;
	printf("# shardlp iopddl bench %s: time limit %g s per instance; costs in the "
	       "contest's units (dimensionless)\n", dir, a->so.time_limit);
	printf("%-28s %7s %7s %-9s %14s %14s %8s %8s %8s %8s\n", "instance", "nodes",
	       "edges", "status", "cost", "best_known", "ratio", "gap", "seconds",
	       "work_s");
	int status = EXIT_OK;
	for (size_t k = 0; k < nfiles; k++) {
		size_t len = strlen(dir) + strlen(files[k]) + 2;
		char *path = malloc(len);
		if (!path)
			break;
		snprintf(path, len, "%s/%s", dir, files[k]);
		char *name = cli_xstrdup(files[k]);
		*strstr(name, ".json") = 0;
		sl_context *ctx = sl_context_new();
		cli_sink sink;
		cli_sink_init(&sink, ctx);
		sl_iopddl *p = NULL;
		sl_iopddl_result r;
		args one = *a;
		one.lp = one.mps = NULL;
		int st = solve_file(ctx, path, &one, &p, &r);
		if (st != EXIT_OK && status != EXIT_INPUT)
			status = st;
		double bk_cost = best_for(bk, nbest, name);
		bool late = !p && r.status == SL_SOLVE_NO_SOLUTION;
		printf("%-28s %7zu %7zu %-9s ", name, p ? p->nnodes : 0,
		       p ? p->nedges : 0, p || late ? sl_solve_status_name(r.status) : "error");
		char cost[32] = "-", bkc[32] = "-", ratio[32] = "-", gap[32] = "-";
		if (r.solution)
			snprintf(cost, sizeof cost, "%lld", (long long)r.eval.cost);
		if (!isnan(bk_cost))
			snprintf(bkc, sizeof bkc, "%.0f", bk_cost);
		if (r.solution && !isnan(bk_cost) && bk_cost > 0)
			snprintf(ratio, sizeof ratio, "%.4f", (double)r.eval.cost / bk_cost);
		if (r.solution && isfinite(r.gap))
			snprintf(gap, sizeof gap, "%.2g", r.gap);
		printf("%14s %14s %8s %8s", cost, bkc, ratio, gap);
		printf(" %8.2f %8.2f\n", r.seconds, r.work);
		fflush(stdout);
		sl_iopddl_result_fini(&r);
		sl_iopddl_free(p);
		cli_sink_fini(&sink);
		sl_context_free(ctx);
		free(name);
		free(path);
	}
	for (size_t k = 0; k < nfiles; k++)
		free(files[k]);
	free(files);
	for (size_t i = 0; i < nbest; i++)
		free(bk[i].name);
	free(bk);
	return status;
}

/* }==================================================================== */

int
cmd_iopddl(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage_short, stdout);
		fputs(help_text, stdout);
		return EXIT_OK;
	}
	if (argc < 2) {
		fputs(usage_short, stderr);
		return EXIT_USAGE;
	}
	const char *sub = argv[1];
	if (strcmp(sub, "eval") && strcmp(sub, "solve") && strcmp(sub, "bench"))
		return cli_usage_error("shardlp iopddl", usage_short,
		                       "unknown subcommand '%s'", sub);
	args a = {0};
	sl_iopddl_opts_init(&a.so);
	int rc = parse_args(argc - 1, argv + 1, &a);
	if (rc >= 0)
		return rc;
	int nops = argc - 1 - optind;
	char **ops = argv + 1 + optind;
	if (!strcmp(sub, "eval")) {
		if (nops != 2)
			return cli_usage_error("shardlp iopddl", usage_short,
			                       "eval wants %s", "PROBLEM SOLUTION");
		return run_eval(ops[0], ops[1]);
	}
	if (nops != 1)
		return cli_usage_error("shardlp iopddl", usage_short, "%s wants one "
		                       "operand", sub);
	return !strcmp(sub, "solve") ? run_solve(ops[0], &a) : run_bench(ops[0], &a);
}
