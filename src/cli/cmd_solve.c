/*
 * cmd_solve.c - `shardlp solve`: optimal shardings by the ILP of
 * shardlp-cost(7), written onto the module as propagation would.
 * Entry: cmd_solve(argc, argv), argv[0] = "solve".  Also the cost-model
 * options and the loader that `shardlp compare` shares (cli.h).
 */
#include "cli_solve.h"
#include "cli_out.h"
#include "cli_watchdog.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_short[] =
	"usage: shardlp solve [-o FILE] [--format mlir|xml] [--time-limit S] [--gap G]\n"
	"                     [--write-lp F] [--write-mps F] [--log F] [--no-decompose]\n"
	"                     [--solution-report F] [--split-input-file]\n"
	"                     [--explicit-reshards | --collectives] [--progress[=S]]\n"
	"                     [cost options] [auto-sharding options] FILE\n";

const char cli_cost_help[] =
	"cost options (shardlp-cost(7); the cost is a step time in seconds):\n"
	"  --cluster FILE        the cluster: mesh axes, links, device FLOP/s and\n"
	"                        HBM, from an XML description (shardlp-xml(5);\n"
	"                        presets in data/clusters/); --mesh-xml is\n"
	"                        the same; the options below win over the file\n"
	"  --axis NAME=BW[:LAT]  bandwidth (bytes/s) and latency (s) of the links\n"
	"                        of mesh axis NAME, such as x=100G:5u\n"
	"                        (default 100G:5u)\n"
	"  --flops F             device peak FLOP/s (default 100T)\n"
	"  --hbm B               device memory in bytes (default 16G)\n"
	"  --memory-budget B     peak live bytes per device allowed, or none\n"
	"                        (default: the HBM)\n"
	"  --divisible-only      only shardings that divide every dimension they\n"
	"                        shard, under the conservative sharding rules\n"
	"                        (--conservative is a deprecated alias)\n"
	"  --sub-axes[=sizes|anywhere|primes]\n"
	"                        let shardings use sub-axes: the parts of the\n"
	"                        mesh axes the program's sizes use, on the\n"
	"                        tensors whose sizes, reshapes or pins use them\n"
	"                        (sizes, the default) or on every tensor\n"
	"                        (anywhere: larger), or every prime piece, such\n"
	"                        as \"x\":(1)2 of \"x\"=4 (primes: finer, far larger)\n"
	"  numbers take SI suffixes: k M G T P, and m u n for fractions\n";

int
cli_cost_option(cli_cost_opts *co, int c, const char *arg)
{
	sl_cost_params *p = &co->params;
	double v;
	switch (c) {
	case CLI_OPT_REMOVED_WEIGHT:
		fputs("shardlp: the cost weights are gone: the cost is a step time "
		      "in seconds, priced on the cluster (--cluster FILE, --axis, "
		      "--flops; shardlp-cost(7)); memory is a budget "
		      "(--memory-budget)\n", stderr);
		return -1;
	case CLI_OPT_MEMORY_BUDGET:
		if (!strcmp(arg, "none")) {
			p->memory_budget = 0;
			co->given |= SL_COST_GIVEN_MEMORY_BUDGET;
			return 0;
		}
		/* fall through */
	case CLI_OPT_FLOPS:
	case CLI_OPT_HBM:
		if (!cli_parse_number(arg, &v) || (c == CLI_OPT_FLOPS && v == 0)) {
			fprintf(stderr, "shardlp: invalid number '%s'%s\n", arg,
			        c == CLI_OPT_MEMORY_BUDGET ? " (bytes, or none)" : "");
			return -1;
		}
		if (c == CLI_OPT_FLOPS) {
			p->flops = v;
			p->ntype_flops = 0;
			co->given |= SL_COST_GIVEN_FLOPS;
		} else if (c == CLI_OPT_HBM) {
			p->hbm = v;
			co->given |= SL_COST_GIVEN_HBM;
		} else {
			p->memory_budget = v > 0 ? v : 0;
			co->given |= SL_COST_GIVEN_MEMORY_BUDGET;
		}
		return 0;
	case CLI_OPT_MESH_XML:
		co->mesh_xml = arg;
		cli_out_note_input_path(arg);
		return 0;
	case CLI_OPT_CONSERVATIVE:
		fputs("shardlp: warning: '--conservative' is deprecated; use "
		      "'--divisible-only'\n", stderr);
		/* fall through */
	case CLI_OPT_DIVISIBLE_ONLY:
		p->conservative = true;
		return 0;
	case CLI_OPT_SUB_AXES:
		/* --sub-axes[=sizes|anywhere|primes]: the parts the sizes use,
		 * where they use them or on every tensor, or every prime */
		if (arg && strcmp(arg, "sizes") && strcmp(arg, "anywhere") &&
		    strcmp(arg, "primes")) {
			fprintf(stderr, "shardlp: --sub-axes takes 'sizes', 'anywhere' "
			        "or 'primes', got '%s'\n", arg);
			return -1;
		}
		p->sub_axes = true;
		p->sub_axes_primes = arg && !strcmp(arg, "primes");
		p->sub_axes_anywhere = arg && !strcmp(arg, "anywhere");
		return 0;
	case CLI_OPT_AXIS: {
		const char *eq = strchr(arg, '=');
		if (!eq || eq == arg || co->naxes == SL_COST_MAX_AXES) {
			fprintf(stderr, "shardlp: --axis wants NAME=BANDWIDTH[:LATENCY], "
			        "got '%s'\n", arg);
			return -1;
		}
		sl_cost_axis *a = &p->axes[co->naxes];
		char *bw = cli_xstrdup(eq + 1), *colon = strchr(bw, ':');
		double lat = -1;
		if (colon)
			*colon = 0;
		bool ok = cli_parse_number(bw, &v) && v > 0 &&
		          (!colon || cli_parse_number(colon + 1, &lat));
		free(bw);
		if (!ok) {
			fprintf(stderr, "shardlp: --axis wants NAME=BANDWIDTH[:LATENCY] "
			        "in bytes/s and seconds (such as x=100G:5u), got '%s'\n",
			        arg);
			return -1;
		}
		co->names[co->naxes] = cli_xstrndup(arg, (size_t)(eq - arg));
		a->name = co->names[co->naxes];
		a->bandwidth = v;
		a->latency = lat;
		co->naxes++;
		p->naxes = co->naxes;
		return 0;
	}
	default:
		return cli_mesh_option(&co->mesh, c, arg);
	}
}

int
cli_cost_params_for(cli_cost_opts *co, sl_context *ctx, const sl_module *m,
                    sl_cost_params *out)
{
	*out = co->params;
	if (co->mesh_xml &&
	    sl_cost_params_read_mesh_xml(ctx, co->mesh_xml, m, out, co->given) < 0)
		return -1;
	return 0;
}

void
cli_cost_opts_init(cli_cost_opts *co)
{
	memset(co, 0, sizeof *co);
	sl_cost_params_init(&co->params);
	optind = 1;
}

int
cli_cost_getopt(cli_cost_opts *co, int argc, char **argv, const char *shortopts,
                const struct option *longopts)
{
	int c, rc;
	do {
		c = getopt_long(argc, argv, shortopts, longopts, NULL);
		rc = c == -1 ? 1 : cli_cost_option(co, c, optarg);
	} while (rc == 0);
	return rc < 0 ? '?' : c;
}

void
cli_cost_opts_fini(cli_cost_opts *co)
{
	for (uint32_t i = 0; i < co->naxes; i++)
		free(co->names[i]);
}

/* The paths of a solve's side outputs (NULL: none). */
typedef struct solve_files {
	const char *lp, *mps, *logpath, *report;
} solve_files;

/*
 * sl_solve with the LP and MPS exports, the log and the solution report
 * going to the paths the user gave ("-" = stdout, files replaced
 * atomically): the library writes the exports by name, so to temporaries
 * first.  sl_solve's result, or -2 when a file could not be opened or
 * written.
 */
static int
solve_to_files(sl_module *m, sl_solve_opts *so, sl_solve_result *r,
               const solve_files *sf)
{
	const char *lp = sf->lp, *mps = sf->mps, *logpath = sf->logpath;
	char *lptmp = NULL, *mpstmp = NULL;
	cli_out log = {0}, rep = {0};
	int rc = -2;
	if ((lp && !(lptmp = cli_out_tmpname("shardlp", lp))) ||
	    (mps && !(mpstmp = cli_out_tmpname("shardlp", mps))) ||
	    (logpath && !(so->log = cli_out_open(&log, "shardlp", logpath))) ||
	    (sf->report && !(so->solution_report = cli_out_open(&rep, "shardlp", sf->report))))
		goto out;
	so->write_lp = lptmp;
	so->write_mps = mpstmp;
	rc = sl_solve(m, so, r);
	/* an infeasible model's export is kept: it is how one finds why */
	if (lptmp && cli_out_commit("shardlp", lptmp, lp, rc >= 0))
		rc = -2;
	if (mpstmp && cli_out_commit("shardlp", mpstmp, mps, rc >= 0))
		rc = -2;
	lptmp = mpstmp = NULL;
out:
	if (lptmp)
		cli_out_commit("shardlp", lptmp, lp, false);
	if (mpstmp)
		cli_out_commit("shardlp", mpstmp, mps, false);
	/* the log is kept even when the solve failed: it says why */
	if (log.f && cli_out_close(&log, "shardlp", true))
		rc = -2;
	if (logpath)
		so->log = NULL;
	/* the report only of an answer */
	if (rep.f && cli_out_close(&rep, "shardlp", rc == 0) && rc == 0)
		rc = -2;
	so->solution_report = NULL;
	so->write_lp = so->write_mps = NULL;
	return rc;
}

/*
 * The export steps on the solved module m.  The cost reported is that of
 * the imported program, where the optimum is proven; the export steps
 * restore calls (one body for all of them) and make input and output
 * shardings divisible and free of sub-axes, which can change the score of
 * the module printed: unless quiet or past the deadline, a note says so.
 * 0, or -1.
 */
static int
export_solved(sl_run *run, sl_module *m, const sl_solve_opts *so, const char *path,
              const sl_solve_result *r, bool quiet)
{
	sl_cost_parts after;
	/* the score is only for the note: not when quiet, nor past the
	 * deadline (no more work after it than needed) */
	if (so->deadline > 0 && sl_solve_clock() >= so->deadline)
		quiet = true;
	if (cli_method_export(run, m, &so->cost, quiet ? NULL : &after))
		return -1;
	if (!quiet && fabs(after.total - r->parts.total) > 1e-9 * fmax(1, fabs(after.total)))
		fprintf(stderr, "shardlp: %s: note: the export steps change the module's "
		        "score to %.9g; the cost reported is that of the imported "
		        "program\n", path, after.total);
	return 0;
}

/*
 * The progress line (cli_solve.h): on a terminal one line rewritten in
 * place, otherwise a line per report; at most one report per `every`
 * seconds, the first at `first` seconds, and within one step (block, or
 * the whole model), whose branch and cut nodes come by the thousand, at
 * most one a second.
 */
static void
show_progress(void *arg, const sl_solve_progress *p)
{
	cli_progress *l = arg;
	double now = sl_solve_clock();
	bool same = l->phase && !strcmp(l->phase, p->phase) && l->block == p->block;
	if (now < l->next || (same && now < l->next_same))
		return;
	l->next = now + l->every;
	l->next_same = now + (l->every > 1 ? l->every : 1);
	l->phase = p->phase;
	l->block = p->block;
	char bnb[96] = "";
	if (p->nodes && p->gap >= 0)
		snprintf(bnb, sizeof bnb, "branch and cut at node %zu, gap %.3g%%, ",
		         p->nodes, 100 * p->gap);
	else if (p->nodes)
		snprintf(bnb, sizeof bnb, "branch and cut at node %zu, no point yet, ",
		         p->nodes);
	if (!strcmp(p->phase, "whole"))
		fprintf(stderr, "%sshardlp: %s: %s%.1f s%s", l->tty ? "\r" : "", l->path,
		        *bnb ? bnb : "solving the whole model, ", p->seconds,
		        l->tty ? "\033[K" : "\n");
	else
		fprintf(stderr, "%sshardlp: %s: %s block %zu of %zu, %zu solve%s so "
		        "far, %s%.1f s%s", l->tty ? "\r" : "", l->path,
		        strcmp(p->phase, "refining") ? "solving" : "refining",
		        p->block, p->nblocks, p->nsolves, p->nsolves == 1 ? "" : "s",
		        bnb, p->seconds, l->tty ? "\033[K" : "\n");
	l->shown = l->tty;
}

void
cli_progress_init(cli_progress *l, double every, bool quiet)
{
	memset(l, 0, sizeof *l);
	l->tty = isatty(STDERR_FILENO);
	l->on = every >= 0 || (l->tty && !quiet);
	l->first = every >= 0 ? 0 : 1;
	l->every = every >= 0 ? every : 1;
}

void
cli_progress_arm(cli_progress *l, sl_solve_opts *so, const char *path)
{
	/* (not between the lines of --verbose's log) */
	if (!l->on || (so->log == stderr && l->first > 0))
		return;
	l->path = path;
	l->next = sl_solve_clock() + l->first;
	so->progress = show_progress;
	so->progress_arg = l;
}

void
cli_progress_done(cli_progress *l)
{
	if (l->shown)
		fputs("\r\033[K", stderr);
	l->shown = false;
}

int
cli_progress_option(const char *cmd, const char *arg, double *every)
{
	*every = 1;
	if (arg && (!cli_parse_number(arg, every) || *every < 0)) {
		fprintf(stderr, "%s: invalid --progress interval '%s' (seconds, 0 or "
		        "more)\n", cmd, arg);
		return -1;
	}
	return 0;
}

/* What every chunk of one `solve` run shares. */
typedef struct solve_job {
	sl_solve_opts so;
	cli_cost_opts *co;
	const char *path;	/* in messages: the file, or FILE#N for a chunk */
	solve_files files;
	bool xml, quiet;
	int explicit_level;	/* cli_explicit_steps */
	cli_progress progress;
} solve_job;

/*
 * Solves one program (a file or a chunk) and writes it to out: the best
 * greedy result as the incumbent, the ILP between the pipeline's import
 * and export steps.  An EXIT_* status; nothing is written unless
 * EXIT_OK.
 */
static int
solve_src(sl_context *ctx, const cli_src *src, solve_job *j, FILE *out)
{
	sl_solve_opts so = j->so;
	cli_progress_arm(&j->progress, &so, j->path);
	sl_solve_result r;
	int status = EXIT_OK;
	memset(&r, 0, sizeof r);
	sl_module *m = cli_parse_src(ctx, src);
	if (!m || cli_mesh_apply(&j->co->mesh, m, src->name, !j->quiet) ||
	    cli_cost_params_for(j->co, ctx, m, &so.cost)) {
		sl_module_free(m);
		return EXIT_INPUT;
	}
	/* the cheapest greedy result is the incumbent: the answer when the
	 * solver finds nothing better in time */
	sl_module *greedy[CLI_NGREEDY] = {NULL}, *greedy_pts[CLI_NGREEDY];
	size_t npts = 0;
	const char *best = NULL;
	size_t best_g = 0;
	double bestcost = INFINITY;
	sl_cost_parts bestparts;
	memset(&bestparts, 0, sizeof bestparts);
	for (size_t g = 0; g < CLI_NGREEDY; g++) {
		cli_greedy_result gr;
		if (cli_greedy_run(ctx, src, g, &j->co->mesh, &so.cost, &gr))
			continue;
		sl_run_free(gr.run);
		greedy[g] = gr.m;
		if (gr.scored)
			greedy_pts[npts++] = gr.m;
		if (gr.scored && gr.parts.total < bestcost) {
			bestcost = gr.parts.total;
			so.start = gr.m;
			best = cli_greedy[g].method;
			best_g = g;
			bestparts = gr.parts;
		}
	}
	so.points = greedy_pts;
	so.npoints = npts;
	sl_run *run = sl_run_import(m);
	int rc = run ? solve_to_files(m, &so, &r, &j->files) : -1;
	cli_progress_done(&j->progress);
	for (size_t g = 0; g < CLI_NGREEDY; g++)
		sl_module_free(greedy[g]);
	so.start = NULL;
	so.points = NULL;
	so.npoints = 0;
	cli_greedy_result gi;
	bool instead = rc == 0 && best &&
	               cli_greedy_instead(ctx, src, best_g, &j->co->mesh, &so.cost,
	                                  &bestparts, &r, &gi);
	if (instead) {
		sl_run_free(run);
		sl_module_free(m);
		m = gi.m;
		run = gi.run;
	}
	/* the module printed is the one Shardy's pipeline would print */
	if (rc == 0) {
		rc = export_solved(run, m, &so, j->path, &r, j->quiet);
		if (rc == 0 && cli_explicit_steps(m, j->explicit_level, "shardlp solve"))
			rc = -1;
	} else {
		sl_run_free(run);
	}
	if (rc == -2)
		status = EXIT_INPUT;
	else if (rc < 0)
		status = r.status == SL_SOLVE_ERROR && r.ncols ? EXIT_SOLVER : EXIT_INPUT;
	else if (rc > 0)
		status = EXIT_SOLVER;
	if (status != EXIT_OK) {
		sl_module_free(m);
		return status;
	}
	if (!j->quiet) {
		fprintf(stderr, "shardlp: %s: %s, step time %.6g s (compute %.6g s, "
		        "communication %.6g s), peak memory %.6g bytes per device, "
		        "model bound %.6g s, model gap %.2g, solved in %.2f s, %zu binaries, %zu rows",
		        j->path, sl_solve_status_name(r.status), r.parts.total,
		        r.parts.compute, r.parts.communication, r.parts.peak_bytes,
		        r.bound, r.gap, r.seconds, r.nbinaries, r.nrows);
		if (r.nblocks)
			fprintf(stderr, ", %zu blocks (%zu distinct), %zu solves",
			        r.nblocks, r.nclasses, r.nsolves);
		fputc('\n', stderr);
		if (r.from_start)
			fprintf(stderr, "shardlp: %s: the time limit ended the solve "
			        "before it found a solution of its own: this is the best "
			        "greedy result (%s)\n", j->path, best);
		if (instead)
			fprintf(stderr, "shardlp: %s: the %s result, outside the ILP's "
			        "model, costs less than the model's optimum: it is the "
			        "answer\n", j->path, best);
	}
	int wr = j->xml ? sl_solve_write_xml(out, j->path, m, &r, &so.cost)
	                : sl_module_print(m, out, NULL);
	if (wr) {
		fputs("shardlp: write error\n", stderr);
		status = EXIT_INPUT;
	}
	sl_module_free(m);
	return status;
}

enum {
	OPT_FORMAT = 1000, OPT_TIME, OPT_GAP, OPT_LP, OPT_MPS, OPT_VERBOSE,
	OPT_NO_DECOMPOSE, OPT_LOG, OPT_SPLIT, OPT_EXPLICIT, OPT_COLLECTIVES,
	OPT_REPORT, OPT_PROGRESS
};

int
cmd_solve(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"output", required_argument, NULL, 'o'},
		{"format", required_argument, NULL, OPT_FORMAT},
		{"time-limit", required_argument, NULL, OPT_TIME},
		{"gap", required_argument, NULL, OPT_GAP},
		{"write-lp", required_argument, NULL, OPT_LP},
		{"write-mps", required_argument, NULL, OPT_MPS},
		{"log", required_argument, NULL, OPT_LOG},
		{"solution-report", required_argument, NULL, OPT_REPORT},
		/* glpsol's names for the same options */
		{"tmlim", required_argument, NULL, OPT_TIME},
		{"mipgap", required_argument, NULL, OPT_GAP},
		{"wlp", required_argument, NULL, OPT_LP},
		{"wmps", required_argument, NULL, OPT_MPS},
		{"no-decompose", no_argument, NULL, OPT_NO_DECOMPOSE},
		{"split-input-file", no_argument, NULL, OPT_SPLIT},
		{"explicit-reshards", no_argument, NULL, OPT_EXPLICIT},
		{"collectives", no_argument, NULL, OPT_COLLECTIVES},
		{"verbose", no_argument, NULL, OPT_VERBOSE},
		{"quiet", no_argument, NULL, 'q'},
		{"progress", optional_argument, NULL, OPT_PROGRESS},
		CLI_COST_LONGOPTS,
		{NULL, 0, NULL, 0},
	};
	const char *output = NULL, *lp = NULL, *mps = NULL, *logpath = NULL;
	const char *report = NULL;
	bool xml = false, quiet = false, split = false;
	double every = -1;	/* --progress: seconds between reports */
	int explicit_level = 0;
	sl_solve_opts so;
	cli_cost_opts co;
	int c;

	sl_solve_opts_init(&so);
	cli_cost_opts_init(&co);
	while ((c = cli_cost_getopt(&co, argc, argv, "ho:q", longopts)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage_short, stdout);
			fputs("\nFinds shardings of minimum cost for FILE (\"-\" = standard input)\n"
			      "by integer linear programming (GLPK) and prints the module\n"
			      "annotated with them.\n"
			      "  -o, --output FILE    write to FILE instead of standard output\n"
			      "                       (\"-\" = standard output, as for every F)\n"
			      "  --format mlir|xml    output format (default mlir)\n"
			      "  --time-limit S, --tmlim S\n"
			      "                       end within S seconds with the best solution\n"
			      "                       found (at worst the best greedy one)\n"
			      "  --gap G, --mipgap G  stop at relative optimality gap G\n"
			      "  --write-lp F, --wlp F\n"
			      "                       write the model in CPLEX LP format to F\n"
			      "  --write-mps F, --wmps F\n"
			      "                       write the model in free MPS format to F\n"
			      "  --no-decompose       solve one whole model, not a chain of blocks\n"
			      "  --split-input-file   solve each chunk of FILE between '// -----'\n"
			      "                       lines; the outputs are separated likewise\n"
			      "  --explicit-reshards  then insert the reshards and all-reduces the\n"
			      "                       shardings need (-sdy-insert-explicit-reshards)\n"
			      "  --collectives        and turn the reshards into collectives\n"
			      "                       (-sdy-reshard-to-collectives)\n"
			      "  --verbose            the solver log, on standard error\n"
			      "  --log F              the solver log, to F\n"
			      "  --solution-report F  every row and column of the model with its\n"
			      "                       value, as glpsol -o writes them, to F\n"
			      "  -q, --quiet          no summary on standard error\n"
			      "  --progress[=S]       report the solve's progress (block, solves,\n"
			      "                       branch and cut nodes and gap, seconds) every\n"
			      "                       S seconds (default 1, 0: at every step) on\n"
			      "                       standard error, also when it is not a\n"
			      "                       terminal; without it, a line on a terminal\n"
			      "                       once a solve passes 1 s\n\n", stdout);
			fputs(cli_cost_help, stdout);
			fputs(cli_mesh_help, stdout);
			cli_cost_opts_fini(&co);
			return EXIT_OK;
		case 'o':
			output = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "xml"))
				xml = true;
			else if (strcmp(optarg, "mlir")) {
				fprintf(stderr, "shardlp solve: unknown format '%s'\n", optarg);
				goto usage;
			}
			break;
		case OPT_TIME:
		case OPT_GAP: {
			double v;
			if (!cli_parse_number(optarg, &v)) {
				fprintf(stderr, "shardlp solve: invalid number '%s'\n", optarg);
				goto usage;
			}
			if (c == OPT_TIME)
				so.time_limit = v;
			else
				so.gap = v;
			break;
		}
		case OPT_LP:
			lp = optarg;
			break;
		case OPT_MPS:
			mps = optarg;
			break;
		case OPT_LOG:
			logpath = optarg;
			break;
		case OPT_REPORT:
			report = optarg;
			break;
		case OPT_VERBOSE:
			so.log = stderr;
			break;
		case OPT_PROGRESS:
			if (cli_progress_option("shardlp solve", optarg, &every))
				goto usage;
			break;
		case OPT_NO_DECOMPOSE:
			so.no_decompose = true;
			break;
		case OPT_SPLIT:
			split = true;
			break;
		case OPT_EXPLICIT:
			explicit_level = explicit_level > 1 ? explicit_level : 1;
			break;
		case OPT_COLLECTIVES:
			explicit_level = 2;
			break;
		default:
			goto usage;
		}
	}
	if (optind + 1 != argc)
		goto usage;
	so.cost = co.params;
	/* the time limit counts from here: reading and greedy included */
	if (so.time_limit > 0)
		so.deadline = sl_solve_clock() + so.time_limit;
	cli_watchdog_arm("shardlp", argv[optind], so.time_limit);

	if (split && (xml || lp || mps || logpath || report)) {
		fputs("shardlp solve: --split-input-file writes one MLIR output: not with "
		      "--format xml, --write-lp, --write-mps, --log or --solution-report\n",
		      stderr);
		goto usage;
	}

	sl_context *ctx = sl_context_new();
	cli_sink sink;
	cli_sink_init(&sink, ctx);
	sink.once = true;	/* each method reads the program: warn once */
	solve_job job = {so, &co, argv[optind], {lp, mps, logpath, report}, xml,
	                 quiet, explicit_level, {0}};
	cli_progress_init(&job.progress, every, quiet);
	int status = EXIT_INPUT;
	size_t len, n = 0;
	const char *name;
	char *text = cli_source(&sink, argv[optind], &len, &name);
	cli_src *chunks = text ? cli_split(name, text, len, split, &n) : NULL;
	/* every output checked, and the module's opened, before the work: a
	 * path that cannot be written fails now */
	if (cli_out_check("shardlp", lp) || cli_out_check("shardlp", mps) ||
	    cli_out_check("shardlp", logpath) || cli_out_check("shardlp", report))
		n = 0;
	cli_out o;
	FILE *out = n ? cli_out_open(&o, "shardlp", output) : NULL;
	bool any = false;
	if (out) {
		status = EXIT_OK;
		for (size_t k = 0; k < n; k++) {
			char label[4096];
			if (split)
				snprintf(label, sizeof label, "%s#%zu", argv[optind], k + 1);
			job.path = split ? label : argv[optind];
			if (k && fputs("// -----\n", out) == EOF)
				status = EXIT_INPUT;
			int st = solve_src(ctx, &chunks[k], &job, out);
			any |= st == EXIT_OK;
			if (st > status)
				status = st;
		}
		/* a split file keeps the chunks that were solved */
		if (cli_out_close(&o, "shardlp", any) && any)
			status = EXIT_INPUT;
	}
	free(chunks);
	free(text);
	cli_sink_fini(&sink);
	sl_context_free(ctx);
	cli_cost_opts_fini(&co);
	return status;
usage:
	fputs(usage_short, stderr);
	cli_cost_opts_fini(&co);
	return EXIT_USAGE;
}
