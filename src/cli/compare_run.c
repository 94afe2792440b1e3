/*
 * compare_run.c - the methods on one program, as `compare`, `solve` and
 * `batch` run them: each greedy strategy and the ILP between the same
 * import and export steps, scored by the one evaluator (cli_solve.h).
 * Printing is the commands' own.
 */
#include "cli_solve.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The greedy strategies, by their pass flag (src/passes). */
const cli_greedy_strategy cli_greedy[CLI_NGREEDY] = {
	{"basic", "sdy-basic-propagate"},
	{"aggressive", "sdy-aggressive-propagate"},
	{"op-priority", "sdy-op-priority-propagate"},
	{"user-priority", "sdy-user-priority-propagate"},
};

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int
cli_greedy_run(sl_context *ctx, const cli_src *src, size_t g, const cli_mesh_opts *mesh,
               const sl_cost_params *cost, cli_greedy_result *out)
{
	memset(out, 0, sizeof *out);
	out->status = "unavailable";
	if (!sl_pass_exists(cli_greedy[g].pass))
		return 0;
	sl_module *m = cli_parse_src(ctx, src);
	if (!m || cli_mesh_apply(mesh, m, src->name, false)) {
		sl_module_free(m);
		return -1;
	}
	char err[256];
	double t0 = now();
	sl_run *run = sl_run_import(m);
	int rc = !run || sl_pass_run(m, cli_greedy[g].pass, "", err, sizeof err);
	out->seconds = now() - t0;
	if (rc) {
		out->status = "error";
		sl_run_free(run);
		sl_module_free(m);
		return 0;
	}
	out->status = "ok";
	if (sl_cost_eval(m, cost, &out->parts) == 0)
		out->scored = true;
	else
		out->status = "unscored";
	out->m = m;
	out->run = run;
	return 0;
}

int
cli_method_export(sl_run *run, sl_module *m, const sl_cost_params *cost,
                  sl_cost_parts *parts)
{
	int rc = sl_run_export(run);
	sl_run_free(run);
	if (!rc && parts)
		rc = sl_cost_eval(m, cost, parts);
	return rc;
}

/* A row, its module and its run while the methods run. */
typedef struct slot {
	cli_method_row *r;
	sl_module *m;
	sl_run *run;		/* until exported */
} slot;

/*
 * The export steps on every row's module.  Each row's cost is the
 * evaluator's score of the imported program with the method's shardings
 * (calls inlined as named computations, each priced where it runs), the
 * point where the ILP's optimum is proven; the export steps restore the
 * calls (one body for all of them) and make input and output shardings
 * divisible and free of sub-axes, which can change the score of the
 * module printed: the methods whose score they change are listed in
 * changed.  A row whose export fails is an error.
 */
static void
export_rows(slot *slots, size_t n, const sl_cost_params *cost, char *changed, size_t cap)
{
	size_t len = 0;
	for (size_t i = 0; i < n; i++) {
		slot *s = &slots[i];
		cli_method_row *r = s->r;
		if (!s->run)
			continue;
		sl_cost_parts p;
		int rc = cli_method_export(s->run, s->m, cost, r->scored ? &p : NULL);
		s->run = NULL;
		if (rc) {
			r->status = "error";
			r->scored = false;
		} else if (r->scored && fabs(p.total - r->parts.total) >
		           1e-9 * fmax(1, fabs(p.total)) && len + 1 < cap) {
			len += (size_t)snprintf(changed + len, cap - len, "%s%s",
			                        len ? ", " : "", r->method);
		}
	}
}

/* Every row an error: the input does not load. */
static void
rows_failed(cli_method_row *rows)
{
	for (size_t i = 0; i < CLI_NMETHODS; i++) {
		rows[i].status = "error";
		rows[i].scored = false;
		rows[i].seconds = NAN;
	}
}

/* Whether each greedy result is a point of the ILP's model of m. */
static void
points_in_model(sl_module *m, const sl_cost_params *cost, const slot *slots,
                cli_method_row *rows)
{
	sl_module *pts[CLI_NGREEDY];
	int in[CLI_NGREEDY];
	char why[CLI_NGREEDY][128];
	for (size_t g = 0; g < CLI_NGREEDY; g++)
		pts[g] = rows[g + 1].scored ? slots[g + 1].m : NULL;
	if (sl_solve_in_model(m, cost, pts, CLI_NGREEDY, in, why))
		return;
	for (size_t g = 0; g < CLI_NGREEDY; g++) {
		if (!pts[g])
			continue;
		rows[g + 1].in_model = in[g];
		snprintf(rows[g + 1].not_in_model, sizeof rows[g + 1].not_in_model,
		         "%s", in[g] ? "" : why[g]);
	}
}

bool
cli_greedy_instead(sl_context *ctx, const cli_src *src, size_t g,
                   const cli_mesh_opts *mesh, const sl_cost_params *cost,
                   const sl_cost_parts *gp, sl_solve_result *r, cli_greedy_result *out)
{
	if (!(r->parts.total > gp->total + 1e-9 * fabs(gp->total)) ||
	    (gp->budget > 0 && gp->peak_bytes > gp->budget) ||
	    cli_greedy_run(ctx, src, g, mesh, cost, out))
		return false;
	if (!out->scored) {
		sl_run_free(out->run);
		sl_module_free(out->m);
		return false;
	}
	r->parts = out->parts;
	r->status = SL_SOLVE_FEASIBLE;
	/* the model's bound holds for its points only */
	if (!(r->bound <= r->parts.total))
		r->bound = NAN;
	r->gap = isfinite(r->bound) ? (r->parts.total - r->bound) /
	                              fmax(1e-300, r->parts.total) : NAN;
	return true;
}

int
cli_compare_run(sl_context *ctx, const cli_src *src, const sl_solve_opts *opts,
                cli_cost_opts *co, cli_compare_out *out)
{
	cli_method_row *rows = out->rows;
	slot slots[CLI_NMETHODS];
	int status = EXIT_OK;
	memset(rows, 0, sizeof out->rows);
	memset(slots, 0, sizeof slots);
	out->start_note[0] = out->changed[0] = 0;
	out->ilp = NULL;
	memset(out->mods, 0, sizeof out->mods);
	rows[0].method = "ilp";
	for (size_t g = 0; g < CLI_NGREEDY; g++)
		rows[g + 1].method = cli_greedy[g].method;
	for (size_t i = 0; i < CLI_NMETHODS; i++) {
		slots[i].r = &rows[i];
		rows[i].bound = rows[i].gap = NAN;
		rows[i].differ = -1;
		rows[i].in_model = -1;
	}

	/* the program read and prepared once to report on the options and
	 * check the cost parameters (this file's mesh description applied);
	 * the ILP then solves this copy, each greedy strategy its own */
	sl_solve_opts local = *opts;
	sl_module *m = cli_parse_src(ctx, src);
	if (!m || cli_mesh_apply(&co->mesh, m, src->name, out->tell) ||
	    cli_cost_params_for(co, ctx, m, &local.cost)) {
		sl_module_free(m);
		rows_failed(rows);
		return EXIT_INPUT;
	}
	slots[0].m = m;

	unsigned want = out->methods ? out->methods : (1u << CLI_NMETHODS) - 1;
	for (size_t i = 0; i < CLI_NMETHODS; i++)
		if (!(want >> i & 1))
			rows[i].status = "skipped";

	/* greedy strategies first: the best becomes the ILP's incumbent */
	sl_module *best = NULL;
	size_t best_g = 0;
	double bestcost = INFINITY;
	for (size_t g = 0; g < CLI_NGREEDY; g++) {
		cli_method_row *r = &rows[g + 1];
		cli_greedy_result gr;
		if (!(want >> (g + 1) & 1))
			continue;
		if (cli_greedy_run(ctx, src, g, &co->mesh, &local.cost, &gr)) {
			status = EXIT_INPUT;
			goto out;
		}
		r->status = gr.status;
		r->seconds = gr.seconds;
		r->parts = gr.parts;
		r->scored = gr.scored;
		slots[g + 1].m = gr.m;
		slots[g + 1].run = gr.run;
		if (r->scored && r->parts.total < bestcost) {
			bestcost = r->parts.total;
			best = gr.m;
			best_g = g;
		}
	}

	cli_method_row *ilp = &rows[0];
	if (!(want & 1))
		goto skip_ilp;
	sl_solve_opts so = local;
	so.start = best;
	sl_module *pts[CLI_NGREEDY];
	so.npoints = 0;
	for (size_t g = 0; g < CLI_NGREEDY; g++)
		if (rows[g + 1].scored)
			pts[so.npoints++] = slots[g + 1].m;
	so.points = pts;
	sl_solve_result sr;
	memset(&sr, 0, sizeof sr);
	slots[0].run = sl_run_import(m);
	if (slots[0].run)
		points_in_model(m, &local.cost, slots, rows);
	int rc = slots[0].run ? sl_solve(m, &so, &sr) : -1;
	if (so.progress)	/* (its line off the terminal before any note) */
		cli_progress_done(so.progress_arg);
	cli_greedy_result gi;
	if (rc == 0 && best && cli_greedy_instead(ctx, src, best_g, &co->mesh, &local.cost,
	                                          &rows[best_g + 1].parts, &sr, &gi)) {
		sl_run_free(slots[0].run);
		sl_module_free(m);
		slots[0].m = m = gi.m;
		slots[0].run = gi.run;
		snprintf(out->start_note, sizeof out->start_note, "the %s result, "
		         "outside the ILP's model, costs less than the model's "
		         "optimum: it is the ILP's answer", cli_greedy[best_g].method);
	}
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
	if (best && !sr.start_used && sr.start_note[0] && !out->start_note[0])
		snprintf(out->start_note, sizeof out->start_note, "%s", sr.start_note);

	sl_assignment *qi = ilp->scored ? sl_assignment_read(m, &local.cost) : NULL;
	for (size_t g = 1; g < CLI_NMETHODS; g++) {
		if (!qi || !slots[g].m)
			continue;
		sl_assignment *qg = sl_assignment_read(slots[g].m, &local.cost);
		rows[g].differ = sl_assignment_diff(qi, qg);
		sl_assignment_free(qg);
	}
	sl_assignment_free(qi);
skip_ilp:
	export_rows(slots, CLI_NMETHODS, &local.cost, out->changed, sizeof out->changed);
	if (out->keep_ilp && ilp->scored) {
		out->ilp = slots[0].m;
		slots[0].m = NULL;
	}
	for (size_t i = 0; out->keep_all && i < CLI_NMETHODS; i++) {
		out->mods[i] = slots[i].m;
		slots[i].m = NULL;
	}
out:
	if (status == EXIT_INPUT)
		rows_failed(rows);
	for (size_t i = 0; i < CLI_NMETHODS; i++) {
		sl_run_free(slots[i].run);
		sl_module_free(slots[i].m);
	}
	return status;
}

unsigned
cli_methods_parse(const char *prog, const char *list)
{
	unsigned mask = 0;
	const char *p = list;
	for (;;) {
		size_t n = strcspn(p, ",");
		unsigned bit = 0;
		if (n == 3 && !strncmp(p, "ilp", 3))
			bit = 1;
		else if (n == 6 && !strncmp(p, "greedy", 6))
			bit = ((1u << CLI_NMETHODS) - 1) & ~1u;
		for (size_t g = 0; g < CLI_NGREEDY; g++)
			if (strlen(cli_greedy[g].method) == n && !strncmp(p, cli_greedy[g].method, n))
				bit = 1u << (g + 1);
		if (!bit) {
			fprintf(stderr, "%s: --methods: unknown method '%.*s' (ilp, greedy, basic, "
			        "aggressive, op-priority, user-priority)\n", prog, (int)n, p);
			return 0;
		}
		mask |= bit;
		if (!p[n])
			return mask;
		p += n + 1;
	}
}

const char *const cli_cost_cols[CLI_COST_NCOLS] = {
	"cost", "compute_s", "comm_s", "peak_mem_bytes", "over_budget", "in_model",
	"all_gather_n", "all_gather_bytes", "all_to_all_n", "all_to_all_bytes",
	"all_reduce_n", "all_reduce_bytes", "reduce_scatter_n", "reduce_scatter_bytes",
	"collective_permute_n", "collective_permute_bytes",
};

void
cli_cost_values(const cli_method_row *r, double v[CLI_COST_NCOLS])
{
	for (int k = 0; k < CLI_COST_NCOLS; k++)
		v[k] = NAN;
	if (r->in_model >= 0)
		v[5] = r->in_model;
	if (!r->scored)
		return;
	const sl_cost_parts *p = &r->parts;
	v[0] = p->total;
	v[1] = p->compute;
	v[2] = p->communication;
	v[3] = p->peak_bytes;
	if (p->budget > 0)
		v[4] = p->peak_bytes > p->budget;
	for (int k = 0; k < SL_COLL_KINDS; k++) {
		v[6 + 2 * k] = p->ncoll[k];
		v[7 + 2 * k] = p->coll_bytes[k];
	}
}

int
cli_explicit_steps(sl_module *m, int level, const char *prog)
{
	static const char *const pass[2][2] = {
		{"sdy-insert-explicit-reshards", "enable-full-version=true"},
		{"sdy-reshard-to-collectives", ""},
	};
	char err[256];
	for (int k = 0; k < level && k < 2; k++) {
		int rc = sl_pass_run(m, pass[k][0], pass[k][1], err, sizeof err);
		if (rc == -2)
			fprintf(stderr, "%s: %s\n", prog, err);
		if (rc || sl_module_verify(m))
			return -1;
	}
	return 0;
}
