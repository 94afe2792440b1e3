/*
 * solve.c - the public face of the ILP (shardlp.h): options, the solve
 * itself and its result, converted to and from solver/solve.h.
 */
#include "shardlp.h"

#include <string.h>

#include "api/cost.h"
#include "solver/solve.h"

static sli_lp_status
lp_status(sl_solve_status s)
{
	switch (s) {
	case SL_SOLVE_OPTIMAL: return SLI_LP_OPTIMAL;
	case SL_SOLVE_FEASIBLE: return SLI_LP_FEASIBLE;
	case SL_SOLVE_INFEASIBLE: return SLI_LP_INFEASIBLE;
	case SL_SOLVE_NO_SOLUTION: return SLI_LP_NO_SOLUTION;
	case SL_SOLVE_ERROR: break;
	}
	return SLI_LP_ERROR;
}

const char *
sl_solve_status_name(sl_solve_status s)
{
	return sli_lp_status_name(lp_status(s));
}

double
sl_solve_clock(void)
{
	return sli_lp_clock();
}

void
sl_solve_opts_init(sl_solve_opts *o)
{
	sli_solve_opts d;
	sli_solve_opts_init(&d);
	memset(o, 0, sizeof *o);
	sl_cost_params_init(&o->cost);
	o->time_limit = d.lp.time_limit;
	o->deadline = d.lp.deadline;
	o->gap = d.lp.gap;
	o->log = d.lp.log;
	o->no_decompose = d.no_decompose;
}

int
sl_solve_in_model(sl_module *m, const sl_cost_params *p, sl_module *const *pts,
                  size_t n, int *in, char (*why)[128])
{
	sli_api_cost c;
	sli_solve_opts so;
	sli_solve_opts_init(&so);
	sli_api_cost_from(&c, p);
	so.cost = c.p;
	so.cost.cut_by = (const sl_module *const *)pts;
	so.cost.ncut_by = (uint32_t)n;
	return sli_solve_points(m, &so, pts, n, in, why);
}

/* The caller's progress callback behind the solver's. */
typedef struct progress_to {
	void (*fn)(void *arg, const sl_solve_progress *p);
	void *arg;
	double t0;		/* sl_solve's call */
} progress_to;

static void
progress(void *arg, const sli_lp_progress *lp)
{
	const progress_to *t = arg;
	/* (seconds from sl_solve's call, not the solver's) */
	sl_solve_progress p = {lp->phase, lp->block, lp->nblocks, lp->nsolves,
	                       sl_solve_clock() - t->t0, lp->nodes, lp->gap};
	t->fn(t->arg, &p);
}

int
sl_solve(sl_module *m, const sl_solve_opts *o, sl_solve_result *r)
{
	sli_api_cost c;
	sli_solve_opts so;
	sli_solve_result sr;
	sli_solve_opts_init(&so);
	sli_api_cost_from(&c, &o->cost);
	so.cost = c.p;
	/* the start is one of the points, whether or not the caller says so */
	const sl_module *cut[SL_SOLVE_MAX_POINTS + 1];
	uint32_t ncut = 0;
	for (size_t i = 0; i < o->npoints && i < SL_SOLVE_MAX_POINTS; i++)
		cut[ncut++] = o->points[i];
	if (o->start)
		cut[ncut++] = o->start;
	so.cost.cut_by = cut;
	so.cost.ncut_by = ncut;
	so.lp.time_limit = o->time_limit;
	so.lp.deadline = o->deadline;
	so.lp.gap = o->gap;
	so.lp.log = o->log;
	progress_to pt = {o->progress, o->progress_arg, sl_solve_clock()};
	if (o->progress) {
		so.lp.progress = progress;
		so.lp.progress_arg = &pt;
	}
	so.no_decompose = o->no_decompose;
	so.write_lp = o->write_lp;
	so.write_mps = o->write_mps;
	so.start = o->start;
	so.report = o->solution_report;
	int rc = sli_solve(m, &so, &sr);
	memset(r, 0, sizeof *r);
	r->status = sli_lp_public_status(sr.status);
	sli_api_parts_to(&r->parts, &sr.parts);
	r->objective = sr.objective / SLI_COST_UNIT;
	r->bound = sr.bound / SLI_COST_UNIT;
	r->gap = sr.gap;
	r->seconds = sr.seconds;
	r->ncols = sr.ncols;
	r->nrows = sr.nrows;
	r->nbinaries = sr.nbinaries;
	r->nblocks = sr.nblocks;
	r->nclasses = sr.nclasses;
	r->nsolves = sr.nsolves;
	r->start_used = sr.start_used;
	r->from_start = sr.from_start;
	memcpy(r->start_note, sr.start_note, sizeof r->start_note);
	return rc;
}
