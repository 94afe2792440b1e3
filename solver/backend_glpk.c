/*
 * backend_glpk.c - the GLPK backend: the only file that includes glpk.h.
 * The LP relaxation is solved first by the dual simplex method; an
 * integral point of the same value, found directly or by breaking ties
 * in the objective, ends the solve, else branch and cut from that basis
 * with the time left.
 * The time limit is hard: every simplex call gets what is left of it
 * (GLPK's own check, every iteration), and branch and cut is stopped by
 * its callback (glp_ios_terminate) once the clock passes the deadline.
 * GLPK's presolver runs only when asked (sli_lp_opts.presolve), on the
 * first LP relaxation: its own work is outside GLPK's clock.
 * Sessions keep one problem between solves to start from the last basis.
 * A GLPK abort becomes an error through glp_error_hook, and GLPK's
 * statuses become sli_lp_status.
 */
#include "solver/lp.h"

#include <glpk.h>
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct hook {
	jmp_buf jb;
} hook;

static void
on_error(void *info)
{
	hook *h = info;
	longjmp(h->jb, 1);
}

/*
 * Who hears GLPK during a solve: the caller's log, and its progress
 * (sli_lp_opts.on_node), told of the branch and cut under way (nodes,
 * gap) at each node and also at each line of GLPK's output, so that a
 * long simplex run, which has no callback, still reports its time.
 */
typedef struct watch {
	const sli_lp_opts *o;
	size_t nodes;		/* of the branch and cut under way, 0: none */
	double gap;		/* its relative gap, -1: no point yet */
} watch;

/* GLPK's terminal output, taken over so that it lands in the caller's
 * stream: nonzero tells GLPK not to write it to stdout itself. */
static int
on_output(void *info, const char *text)
{
	const watch *w = info;
	if (w->o->log)
		fputs(text, w->o->log);
	if (w->o->on_node)
		w->o->on_node(w->o->on_node_arg, w->nodes, w->gap);
	return 1;
}

/* Hands GLPK's output to w (when o has a log or watches the solve), or
 * silences it (w NULL). */
static void
watch_from(watch *w, const sli_lp_opts *o)
{
	if (w) {
		w->o = o;
		w->nodes = 0;
		w->gap = -1;
		if (!o->log && !o->on_node)
			w = NULL;
	}
	glp_term_hook(w ? on_output : NULL, w);
	glp_term_out(w ? GLP_ON : GLP_OFF);
}

/* GLPK's messages: on for a log, and for a watched solve a line a second
 * at most (its progress), which change nothing in the solve */
static int
msg_level(const sli_lp_opts *o)
{
	return o->log || o->on_node ? GLP_MSG_ON : GLP_MSG_OFF;
}

/*
 * GLPK keeps one environment per thread; an abort frees it with every
 * problem in it.  Sessions remember the generation they were made in.
 */
static unsigned long env_generation;

static void
env_lost(void)
{
	glp_free_env();
	env_generation++;
}

/* The scale of lp's objective as the solver sees it. */
static double
scale_of(const sli_lp *lp)
{
	return lp->obj_scale > 0 && isfinite(lp->obj_scale) ? lp->obj_scale : 1;
}

/* A result in the solver's units back in the lp's. */
static void
unscale(sli_lp_result *r, double k)
{
	if (k == 1)
		return;
	r->objective /= k;
	r->bound /= k;
	for (size_t i = 0; i < r->ndual; i++)
		r->dual[i] /= k;
}

/* lp_only: the relaxation's optimum and row duals, nothing more. */
static void
relaxation(glp_prob *P, size_t nc, double obj_const, sli_lp_result *r)
{
	size_t nr = (size_t)glp_get_num_rows(P);
	r->status = SLI_LP_OPTIMAL;
	r->objective = nc ? glp_get_obj_val(P) : obj_const;
	r->bound = r->objective;
	r->gap = 0;
	r->x = sli_xmalloc((nc + 1) * sizeof *r->x);
	for (size_t j = 0; j < nc; j++)
		r->x[j] = glp_get_col_prim(P, (int)j + 1);
	r->dual = sli_xmalloc((nr + 1) * sizeof *r->dual);
	r->ndual = nr;
	for (size_t i = 0; i < nr; i++)
		r->dual[i] = glp_get_row_dual(P, (int)i + 1);
}

/*
 * A first basis for the dual simplex method.  GLPK's own makes every row
 * basic and puts each column at the bound its cost prefers: a column of
 * negative cost (an agreement column, formulate.c) at its upper bound,
 * which the rows bounding it by the options at 0 all break.  Here such a
 * column is basic instead, in place of a <= row it alone of its kind
 * enters with a positive coefficient (its own row, one per column): the
 * basis is dual feasible and far less primal infeasible.  Each such row
 * holds one basic column besides the slacks, so the basis is not
 * singular.  A block of a transformer on 2x2x2 (8,630 columns): 6,881
 * dual iterations, 0.72 s, from GLPK's basis; 1,102, 0.14 s, from this.
 * Not where the lp asks for GLPK's own (sli_lp.slack_basis).  The crash
 * moves the solver to other optima of the same price; solve.c's tidy_two
 * and finish let the evaluator choose between two ways of breaking
 * their ties (shardlp-cost(7), "Ties").
 */
static void
crash(glp_prob *P, const sli_lp *lp)
{
	size_t nc = sli_lp_ncols(lp);
	unsigned char *cand = sli_xcalloc(nc + 1, 1);
	for (size_t j = 0; j < nc; j++)
		cand[j] = !lp->binary.v[j] && lp->obj.v[j] < 0 &&
		          isfinite(lp->lb.v[j]) && isfinite(lp->ub.v[j]) &&
		          lp->lb.v[j] < lp->ub.v[j];
	for (size_t i = 0; i < lp->rows.n; i++) {
		const sli_lp_row *r = &lp->rows.v[i];
		size_t n = 0, at = 0;
		if (r->sense != SLI_LP_LE)
			continue;
		for (size_t e = r->first; e < r->first + r->n; e++)
			if (cand[lp->idx.v[e]] && n++ == 0)
				at = e;
		if (n != 1 || lp->val.v[at] <= 0 || cand[lp->idx.v[at]] != 1)
			continue;
		cand[lp->idx.v[at]] = 2;	/* placed */
		glp_set_row_stat(P, (int)i + 1, GLP_NU);
		glp_set_col_stat(P, (int)lp->idx.v[at] + 1, GLP_BS);
	}
	free(cand);
}

/* Loads lp into a new GLPK problem (1-based arrays at this boundary),
 * its objective times k, with crash's first basis. */
static glp_prob *
load(const sli_lp *lp, double k)
{
	glp_prob *P = glp_create_prob();
	size_t nc = sli_lp_ncols(lp), nr = lp->rows.n, nz = lp->idx.n;

	glp_set_obj_dir(P, GLP_MIN);
	glp_set_obj_coef(P, 0, lp->obj_const * k);
	if (lp->prob_name)
		glp_set_prob_name(P, lp->prob_name);
	if (lp->obj_name)
		glp_set_obj_name(P, lp->obj_name);
	if (nc)
		glp_add_cols(P, (int)nc);
	for (size_t j = 0; j < nc; j++) {
		int c = (int)j + 1;
		double lb = lp->lb.v[j], ub = lp->ub.v[j];
		if (lp->binary.v[j])
			glp_set_col_kind(P, c, GLP_IV);
		if (isinf(ub))
			glp_set_col_bnds(P, c, isinf(lb) ? GLP_FR : GLP_LO, lb, 0);
		else if (lb == ub)
			glp_set_col_bnds(P, c, GLP_FX, lb, ub);
		else
			glp_set_col_bnds(P, c, isinf(lb) ? GLP_UP : GLP_DB, lb, ub);
		glp_set_obj_coef(P, c, lp->obj.v[j] * k);
		if (j < lp->colnames.n && lp->colnames.v[j] && strlen(lp->colnames.v[j]) < 255)
			glp_set_col_name(P, c, lp->colnames.v[j]);
	}
	if (nr)
		glp_add_rows(P, (int)nr);
	for (size_t i = 0; i < nr; i++) {
		const sli_lp_row *r = &lp->rows.v[i];
		int type = r->sense == SLI_LP_LE ? GLP_UP
		         : r->sense == SLI_LP_GE ? GLP_LO : GLP_FX;
		glp_set_row_bnds(P, (int)i + 1, type, r->rhs, r->rhs);
		if (r->name && strlen(r->name) < 255)
			glp_set_row_name(P, (int)i + 1, r->name);
	}
	if (nz) {
		int *ia = sli_xmalloc((nz + 1) * sizeof *ia);
		int *ja = sli_xmalloc((nz + 1) * sizeof *ja);
		double *ar = sli_xmalloc((nz + 1) * sizeof *ar);
		size_t k = 1;
		for (size_t i = 0; i < nr; i++) {
			const sli_lp_row *r = &lp->rows.v[i];
			for (size_t e = 0; e < r->n; e++, k++) {
				ia[k] = (int)i + 1;
				ja[k] = (int)lp->idx.v[r->first + e] + 1;
				ar[k] = lp->val.v[r->first + e];
			}
		}
		glp_load_matrix(P, (int)nz, ia, ja, ar);
		free(ia);
		free(ja);
		free(ar);
	}
	if (!lp->slack_basis)
		crash(P, lp);
	return P;
}

/*
 * Milliseconds left until end, as GLPK's tm_lim (at least 1), less a
 * sixth: the simplex method stops at tm_lim and then refactors its basis
 * to store the solution, which on a large model took another 130 ms of a
 * 590 ms limit.
 */
static int
ms_left(double end)
{
	if (isinf(end))
		return INT32_MAX;
	return (int)fmax(1, fmin((end - sli_lp_clock()) * 1000 * 5 / 6, INT32_MAX));
}

static bool
expired(double end)
{
	return sli_lp_clock() >= end;
}

/*
 * The iterations left of o's work limit (GLPK's it_lim) once P has made
 * it_cnt - it0 of them and branch and cut nodes of its nodes:
 * INT32_MAX when there is none, 0 when it is used up.
 */
static int
its_left(const sli_lp_opts *o, glp_prob *P, int it0, double nodes)
{
	if (o->it_limit <= 0)
		return INT32_MAX;
	double used = glp_get_it_cnt(P) - it0 + o->node_its * nodes;
	return (int)fmax(0, fmin(o->it_limit - used, INT32_MAX));
}

typedef struct cbdata {
	const double *start;	/* 1-based incumbent, or NULL */
	bool given;
	double bound;
	double end;		/* deadline */
	const sli_lp_opts *o;	/* its work limit */
	int it0;		/* P's iteration count at the start */
	int nodes;		/* the tree's nodes so far */
	bool stopped;		/* glp_ios_terminate was called */
	watch *w;
} cbdata;

static void
callback(glp_tree *T, void *info)
{
	cbdata *d = info;
	glp_ios_tree_size(T, NULL, NULL, &d->nodes);
	if (!d->stopped && (expired(d->end) ||
	                    !its_left(d->o, glp_ios_get_prob(T), d->it0, d->nodes))) {
		d->stopped = true;
		glp_ios_terminate(T);
		return;
	}
	if (glp_ios_reason(T) == GLP_IHEUR && d->start && !d->given) {
		d->given = true;
		glp_ios_heur_sol(T, d->start);
	}
	int node = glp_ios_best_node(T);
	if (node) {
		double b = glp_ios_node_bound(T, node);
		if (b > d->bound)
			d->bound = b;
	}
	int why = glp_ios_reason(T);
	if (d->o->on_node && (why == GLP_ISELECT || why == GLP_IBINGO)) {
		bool point = glp_mip_status(glp_ios_get_prob(T)) == GLP_FEAS;
		d->w->nodes = (size_t)d->nodes;
		d->w->gap = point ? fmax(0, glp_ios_mip_gap(T)) : -1;
		d->o->on_node(d->o->on_node_arg, d->w->nodes, d->w->gap);
	}
}

static int
check(const sli_lp *lp, sli_lp_result *r)
{
	size_t nc = sli_lp_ncols(lp);
	if (nc > (size_t)INT32_MAX - 1 || lp->rows.n > (size_t)INT32_MAX - 1 ||
	    lp->idx.n > (size_t)INT32_MAX - 1) {
		snprintf(r->message, sizeof r->message, "model too large for GLPK");
		return -1;
	}
	for (size_t i = 0; i < lp->idx.n; i++)
		if (lp->idx.v[i] >= nc) {
			snprintf(r->message, sizeof r->message, "row entry out of range");
			return -1;
		}
	for (size_t j = 0; j < nc; j++)
		if (isnan(lp->obj.v[j]) || isinf(lp->obj.v[j]) ||
		    lp->lb.v[j] > lp->ub.v[j]) {
			snprintf(r->message, sizeof r->message, "bad column %zu", j);
			return -1;
		}
	return 0;
}

/*
 * One-hot groups: rows "sum of binaries = 1" with unit coefficients, in
 * compressed form (group g holds cols[first[g] .. first[g + 1] - 1]).
 */
typedef struct groups {
	size_t n;
	size_t *first;
	int *cols;		/* 1-based GLPK columns */
} groups;

static void
groups_init(groups *g, const sli_lp *lp)
{
	size_t n = 0, nz = 0;
	for (size_t i = 0; i < lp->rows.n; i++) {
		const sli_lp_row *r = &lp->rows.v[i];
		bool ok = r->sense == SLI_LP_EQ && r->rhs == 1 && r->n > 1;
		for (size_t e = 0; e < r->n && ok; e++)
			ok = lp->val.v[r->first + e] == 1 &&
			     lp->binary.v[lp->idx.v[r->first + e]];
		if (ok)
			n++, nz += r->n;
	}
	g->n = 0;
	g->first = sli_xmalloc((n + 1) * sizeof *g->first);
	g->cols = sli_xmalloc((nz + 1) * sizeof *g->cols);
	g->first[0] = 0;
	for (size_t i = 0; i < lp->rows.n; i++) {
		const sli_lp_row *r = &lp->rows.v[i];
		bool ok = r->sense == SLI_LP_EQ && r->rhs == 1 && r->n > 1;
		for (size_t e = 0; e < r->n && ok; e++)
			ok = lp->val.v[r->first + e] == 1 &&
			     lp->binary.v[lp->idx.v[r->first + e]];
		if (!ok)
			continue;
		size_t k = g->first[g->n];
		for (size_t e = 0; e < r->n; e++)
			g->cols[k++] = (int)lp->idx.v[r->first + e] + 1;
		g->first[++g->n] = k;
	}
}

static void
groups_fini(groups *g)
{
	free(g->first);
	free(g->cols);
}

static bool
fractional(double v)
{
	return fabs(v - floor(v + 0.5)) > 1e-9;
}

static bool
integral(glp_prob *P, size_t nc, const unsigned char *binary)
{
	for (size_t j = 0; j < nc; j++)
		if (binary[j] && fractional(glp_get_col_prim(P, (int)j + 1)))
			return false;
	return true;
}

/* The status of every row, then of every column, of P's basis into b. */
static void
basis_get(glp_prob *P, unsigned char *b)
{
	int nr = glp_get_num_rows(P), nc = glp_get_num_cols(P);
	for (int i = 1; i <= nr; i++)
		*b++ = (unsigned char)glp_get_row_stat(P, i);
	for (int j = 1; j <= nc; j++)
		*b++ = (unsigned char)glp_get_col_stat(P, j);
}

/* P's basis from b (basis_get); a non-basic status that does not fit a
 * bound changed since is corrected by GLPK. */
static void
basis_set(glp_prob *P, const unsigned char *b)
{
	int nr = glp_get_num_rows(P), nc = glp_get_num_cols(P);
	for (int i = 1; i <= nr; i++)
		glp_set_row_stat(P, i, *b++);
	for (int j = 1; j <= nc; j++)
		glp_set_col_stat(P, j, *b++);
}

/*
 * Looks for an integral point at the LP bound by breaking ties.  The LP
 * optimum is often the average of equally cheap integral points (mesh
 * axes of equal cost trade places, and the simplex method ends halfway);
 * a tiny objective term that prefers the earlier members of every
 * one-hot group with a fractional member (at most 1e-6 of the bound per
 * group) makes it end at one of them.  Only those groups: a term on
 * every group moved the simplex method off ties the LP optimum had
 * already settled (240 layers on 2x2x2: 22 such searches, 0.28 s, and
 * 5.15-5.22 s of CPU in all, against 16, 0.11 s and 4.84-4.88 s).  The
 * point found is scored with the true objective: it is optimal, with
 * the bound as its proof, when it costs no more than the bound.  Returns
 * true then, with the point in P.  The objective of P is restored
 * either way; its basis is not optimal for it any more on success, and
 * on failure it is the LP's optimal basis again, put back, from which
 * branch and cut then starts.
 */
static bool
perturb(glp_prob *P, size_t nc, const unsigned char *binary, const groups *g,
        double obj_const, double bound, const glp_smcp *sp, double end)
{
	double tol = 1e-9 * fmax(1, fabs(bound));
	double eps = 1e-6 * fmax(1, fabs(bound));
	size_t n = g->first[g->n], moved = 0;
	double *keep = sli_xmalloc((n + 1) * sizeof *keep);
	for (size_t k = 0; k < g->n; k++) {
		bool frac = false;
		for (size_t e = g->first[k]; e < g->first[k + 1] && !frac; e++)
			frac = fractional(glp_get_col_prim(P, g->cols[e]));
		double step = eps / (double)(g->first[k + 1] - g->first[k]);
		for (size_t e = g->first[k]; e < g->first[k + 1]; e++) {
			keep[e] = glp_get_obj_coef(P, g->cols[e]);
			if (frac)
				glp_set_obj_coef(P, g->cols[e],
				                 keep[e] + step * (double)(e - g->first[k]));
		}
		moved += frac;
	}
	if (!moved) {
		/* the fractional binaries are outside every group */
		free(keep);
		return false;
	}
	unsigned char *lp_basis = sli_xmalloc((size_t)glp_get_num_rows(P) + nc + 1);
	basis_get(P, lp_basis);
	glp_smcp pp = *sp;
	pp.presolve = GLP_OFF;
	pp.msg_lev = GLP_MSG_OFF;
	pp.meth = GLP_PRIMAL;	/* the basis stays primal feasible */
	pp.tm_lim = ms_left(end);	/* (it_lim: the caller's) */
	bool ok = !glp_simplex(P, &pp) && glp_get_status(P) == GLP_OPT &&
	          integral(P, nc, binary);
	for (size_t e = 0; e < n; e++)
		glp_set_obj_coef(P, g->cols[e], keep[e]);
	free(keep);
	double v = obj_const;
	for (size_t j = 0; ok && j < nc; j++)
		v += glp_get_obj_coef(P, (int)j + 1) * glp_get_col_prim(P, (int)j + 1);
	ok = ok && v <= bound + tol;
	if (!ok)
		basis_set(P, lp_basis);
	free(lp_basis);
	return ok;
}

/*
 * GLPK's tolerances are absolute, 1e-7 of the objective's scale, which
 * scale_of sets by its largest coefficient.  Where the optimum lies far
 * below that (a program whose collectives, which its optimum avoids,
 * each cost 1e5 times its compute) the simplex method may stop at a
 * point dearer than the optimum by more than that part of it: on chains
 * of two or six small layers on 2x2x2, whose optimum is compute alone,
 * 3e-6 of the largest coefficient, the whole model and two ways of
 * cutting it into blocks ended "optimal" 0.6-5.4% above it (CBC on the
 * same model found it).  So when the relaxation's optimum z is below
 * ZOOM_BELOW of the scale, the objective is multiplied by 1/|z| (at most
 * ZOOM_MAX) and the simplex method goes on from the same basis (primal
 * feasible); when that finds a point cheaper by more than 1e-9 of
 * max(|z|, ref) (ref: o->obj_ref in P's units, the whole program's size
 * where P is one block of it), the objective stays so multiplied, for
 * branch and cut too, and zoom returns the factor.  Otherwise nothing
 * changes (the objective and the basis are put back, and the same point
 * is the answer: gains the program cannot see, 1e-7 of a block that
 * costs 1e-9 of the largest coefficient, only picked another point and
 * sent the solves after it elsewhere, 12 layers on 8x8 with sub-axes
 * 60-62 -> 67-68 s), and it returns 1.  -1: the simplex method failed
 * or ran out of time (P as it left it).
 */
#define ZOOM_BELOW 1e-2
#define ZOOM_MAX 1e4

static double
zoom(glp_prob *P, size_t nc, double z, double ref, const glp_smcp *sp,
     const sli_lp_opts *o, int it0, double end)
{
	if (!nc || z == 0 || !(fabs(z) < ZOOM_BELOW))
		return 1;
	double f = fmin(1 / fabs(z), ZOOM_MAX);
	double *c = sli_xmalloc((nc + 1) * sizeof *c);
	unsigned char *b = sli_xmalloc((size_t)glp_get_num_rows(P) + nc + 1);
	basis_get(P, b);
	for (int j = 0; j <= (int)nc; j++) {
		c[j] = glp_get_obj_coef(P, j);
		glp_set_obj_coef(P, j, c[j] * f);
	}
	glp_smcp zp = *sp;
	zp.meth = GLP_PRIMAL;
	zp.presolve = GLP_OFF;
	zp.tm_lim = ms_left(end);
	zp.it_lim = its_left(o, P, it0, 0);
	int rc = expired(end) || !zp.it_lim ? GLP_ETMLIM : glp_simplex(P, &zp);
	if (rc || glp_get_status(P) != GLP_OPT)
		f = -1;
	else if (!(glp_get_obj_val(P) / f < z - 1e-9 * fmax(fabs(z), ref))) {
		for (int j = 0; j <= (int)nc; j++)
			glp_set_obj_coef(P, j, c[j]);
		basis_set(P, b);
		int wr = glp_warm_up(P);
		/* (GLPK's check of the basis may now find it a hair off dual
		 * feasible where the simplex method, with its own tolerances,
		 * ended: the point is the same) */
		f = wr == 0 && glp_get_prim_stat(P) == GLP_FEAS ? 1 : -1;
	}
	free(c);
	free(b);
	return f;
}

/*
 * Solves the problem in P: the LP relaxation by the simplex method (from
 * the current basis, primal when only the objective changed since the
 * last optimal one, dual otherwise); a search for an
 * integral point of the same value (perturb); and only when that fails,
 * branch and cut from the LP basis with the time left.  Nothing runs past
 * end (a deadline on sli_lp_clock()); a solve stopped there keeps the
 * best integral point found, if any (SLI_LP_FEASIBLE).  P's objective is
 * the lp's times *k, which a zoom multiplies (r is in P's units).
 */
static void
optimize_from(glp_prob *P, int it0, size_t nc, const unsigned char *binary,
              const groups *g, double obj_const, const sli_lp_opts *o,
              bool primal, const double *start, double end, watch *w,
              unsigned char **keep, double *k, sli_lp_result *r)
{
	glp_smcp sp;
	glp_init_smcp(&sp);
	sp.presolve = GLP_OFF;
	sp.msg_lev = msg_level(o);
	if (!o->log)
		sp.out_frq = 1000;	/* ms: the progress's ticks */
	/* the dual simplex is 1.5-2x faster on these degenerate LPs, and a
	 * warm start after bound changes keeps a dual feasible basis; after
	 * objective changes the basis stays primal feasible instead */
	sp.meth = primal ? GLP_PRIMAL : GLP_DUALP;
	int rc = 0;
	if (nc && (expired(end) || !its_left(o, P, it0, 0)))
		rc = GLP_ETMLIM;
	else if (nc) {
		sp.tm_lim = ms_left(end);
		sp.it_lim = its_left(o, P, it0, 0);
		sp.presolve = o->presolve && !primal ? GLP_ON : GLP_OFF;
		if (o->long_step && !primal)
			sp.r_test = GLP_RT_FLIP;
		rc = glp_simplex(P, &sp);
		sp.presolve = GLP_OFF;
		sp.r_test = GLP_RT_HAR;
		if ((rc == GLP_EBADB || rc == GLP_ESING || rc == GLP_ECOND) &&
		    !expired(end) && its_left(o, P, it0, 0)) {
			glp_adv_basis(P, 0);
			sp.tm_lim = ms_left(end);
			sp.it_lim = its_left(o, P, it0, 0);
			rc = glp_simplex(P, &sp);
		}
		if (rc == GLP_EITLIM)
			rc = GLP_ETMLIM;	/* the limit of work, as of time */
	}
	int st = nc ? glp_get_status(P) : GLP_OPT;
	if (rc == GLP_ENOPFS || (rc == 0 && (st == GLP_NOFEAS || st == GLP_INFEAS))) {
		r->status = SLI_LP_INFEASIBLE;
		return;
	}
	if (rc == GLP_ETMLIM) {
		r->status = SLI_LP_NO_SOLUTION;
		return;
	}
	if (rc != 0 || st != GLP_OPT) {
		r->status = SLI_LP_ERROR;
		snprintf(r->message, sizeof r->message, "LP relaxation: simplex "
		         "returned %d, status %d", rc, st);
		return;
	}
	r->bound = nc ? glp_get_obj_val(P) : obj_const;
	double f = zoom(P, nc, r->bound, o->obj_ref * *k, &sp, o, it0, end);
	if (f < 0) {
		r->status = expired(end) || !its_left(o, P, it0, 0)
		          ? SLI_LP_NO_SOLUTION : SLI_LP_ERROR;
		snprintf(r->message, sizeof r->message, "LP relaxation: the simplex "
		         "method failed after the objective was scaled");
		return;
	}
	if (f != 1) {
		*k *= f;
		obj_const *= f;
		r->bound = glp_get_obj_val(P);
	}
	if (keep) {
		if (!*keep)
			*keep = sli_xmalloc((size_t)glp_get_num_rows(P) + nc + 1);
		basis_get(P, *keep);
	}
	if (o->lp_only) {
		relaxation(P, nc, obj_const, r);
		return;
	}

	bool lp_integral = !nc || integral(P, nc, binary), done = lp_integral;
	if (!done && !expired(end) && its_left(o, P, it0, 0)) {
		sp.it_lim = its_left(o, P, it0, 0);
		done = perturb(P, nc, binary, g, obj_const, r->bound, &sp, end);
	}
	if (done) {
		/* an integral point at the LP bound: proven optimal */
		r->status = SLI_LP_OPTIMAL;
		r->x = sli_xmalloc((nc + 1) * sizeof *r->x);
		r->objective = obj_const;
		for (size_t j = 0; j < nc; j++) {
			double v = glp_get_col_prim(P, (int)j + 1);
			r->x[j] = binary[j] ? floor(v + 0.5) : v;
			/* of the point itself: the last simplex may have seen
			 * another objective (perturb) */
			r->objective += glp_get_obj_coef(P, (int)j + 1) * v;
		}
		if (r->objective < r->bound)
			r->bound = r->objective;
		r->gap = (r->objective - r->bound) / fmax(1e-9, fabs(r->objective));
		/*
		 * perturb left a basis that is not optimal for the objective
		 * of P; the next solve of a session starts from here, so make
		 * it optimal again (a few pivots: it is primal feasible)
		 */
		if (!lp_integral && !expired(end)) {
			glp_smcp rp = sp;
			rp.msg_lev = GLP_MSG_OFF;
			rp.meth = GLP_PRIMAL;
			rp.tm_lim = ms_left(end);
			rp.it_lim = INT32_MAX;
			glp_simplex(P, &rp);
		}
		return;
	}
	if (expired(end) || !its_left(o, P, it0, 0)) {
		r->status = SLI_LP_NO_SOLUTION;
		return;
	}

	cbdata cb = {start, false, r->bound, end, o, it0, 0, false, w};
	glp_iocp ip;
	glp_init_iocp(&ip);
	ip.msg_lev = msg_level(o);
	if (!o->log)
		ip.out_frq = 1000;
	ip.presolve = GLP_OFF;
	ip.mip_gap = o->gap > 0 ? o->gap : 0;
	ip.cb_func = callback;
	ip.cb_info = &cb;
	/* intopt starts from an optimal basis: perturb put the LP's back
	 * (the simplex method below only factors it again) */
	glp_smcp rp = sp;
	rp.msg_lev = GLP_MSG_OFF;
	rp.meth = GLP_PRIMAL;
	/*
	 * The default branching rule (Driebeck and Tomlin): on the blocks of
	 * a transformer on an 8x8 mesh 30% faster than most fractional
	 * first, even when that gives way to it after half a second; the
	 * caller asks for most fractional first where that is faster
	 * (sli_solve: models with interchangeable axes).
	 */
	ip.br_tech = o->pcost ? GLP_BR_PCH : o->most_fractional ? GLP_BR_MFV : GLP_BR_DTH;
	/*
	 * No preprocessing of the nodes: on these models (one-hot rows,
	 * binaries) its bound tightening cost more than it saved, 4-7% of
	 * a solve on 8x8 with sub-axes (12 layers 61.5 -> 59.0 s; 1 layer
	 * 10.5 -> 9.8 s), nothing elsewhere
	 */
	ip.pp_tech = GLP_PP_NONE;
	ip.tm_lim = ms_left(end);
	rp.tm_lim = ms_left(end);
	rp.it_lim = its_left(o, P, it0, 0);
	if (glp_simplex(P, &rp) || glp_get_status(P) != GLP_OPT) {
		if (expired(end) || !its_left(o, P, it0, 0)) {
			r->status = SLI_LP_NO_SOLUTION;
			return;
		}
		r->status = SLI_LP_ERROR;
		snprintf(r->message, sizeof r->message, "LP relaxation lost "
		         "before branch and cut");
		return;
	}
	rc = glp_intopt(P, &ip);
	w->nodes = 0;
	w->gap = -1;
	r->nodes = cb.nodes;
	st = glp_mip_status(P);
	if (cb.bound > r->bound)
		r->bound = cb.bound;
	if (st == GLP_OPT && rc == 0)
		r->status = SLI_LP_OPTIMAL;
	else if (st == GLP_NOFEAS)
		r->status = SLI_LP_INFEASIBLE;
	else if (st == GLP_FEAS || (st == GLP_OPT && rc == GLP_EMIPGAP))
		/* stopped at the --gap tolerance or by a limit: not proven optimal */
		r->status = SLI_LP_FEASIBLE;
	else if (rc == GLP_ETMLIM || rc == GLP_ESTOP)
		r->status = SLI_LP_NO_SOLUTION;
	else {
		r->status = SLI_LP_ERROR;
		snprintf(r->message, sizeof r->message, "branch and cut returned %d", rc);
	}
	if (r->status == SLI_LP_OPTIMAL || r->status == SLI_LP_FEASIBLE) {
		r->objective = glp_mip_obj_val(P);
		r->x = sli_xmalloc((nc + 1) * sizeof *r->x);
		for (size_t j = 0; j < nc; j++)
			r->x[j] = glp_mip_col_val(P, (int)j + 1);
		if (r->status == SLI_LP_OPTIMAL && rc == 0)
			r->bound = fmax(r->bound, r->objective - fabs(r->objective) * ip.mip_gap);
		if (r->bound > r->objective)
			r->bound = r->objective;
		r->gap = (r->objective - r->bound) / fmax(1e-9, fabs(r->objective));
	}
}

/* optimize_from, with the simplex iterations it made counted in r. */
static void
optimize(glp_prob *P, size_t nc, const unsigned char *binary, const groups *g,
         double obj_const, const sli_lp_opts *o, bool primal,
         const double *start, double end, watch *w, unsigned char **keep,
         double *k, sli_lp_result *r)
{
	int it0 = glp_get_it_cnt(P);
	optimize_from(P, it0, nc, binary, g, obj_const, o, primal, start, end, w,
	              keep, k, r);
	r->iterations = glp_get_it_cnt(P) - it0;
}

/* o's start as GLPK takes it (1-based), or NULL (the caller frees it). */
static double *
start_of(const sli_lp_opts *o, size_t nc)
{
	if (!o->start)
		return NULL;
	double *x = sli_xmalloc((nc + 1) * sizeof *x);
	x[0] = 0;
	memcpy(x + 1, o->start, nc * sizeof *x);
	return x;
}

static void
result_init(sli_lp_result *r)
{
	memset(r, 0, sizeof *r);
	r->bound = -INFINITY;
	r->objective = INFINITY;
	r->gap = INFINITY;
}

static int
solve(const sli_lp *lp, const sli_lp_opts *o, sli_lp_result *r)
{
	hook h;
	glp_prob *volatile P = NULL;
	double *volatile start = NULL;
	groups g;
	double t0 = sli_lp_clock();
	size_t nc = sli_lp_ncols(lp);

	result_init(r);
	if (check(lp, r)) {
		r->status = SLI_LP_ERROR;
		return -1;
	}
	groups_init(&g, lp);	/* before setjmp: not changed after it */
	watch w;
	watch_from(&w, o);
	glp_error_hook(on_error, &h);
	if (setjmp(h.jb)) {
		/* GLPK aborted: its environment is gone, P and every session with it */
		env_lost();
		watch_from(NULL, o);
		free(start);
		groups_fini(&g);
		r->status = SLI_LP_ERROR;
		r->seconds = sli_lp_clock() - t0;
		snprintf(r->message, sizeof r->message, "GLPK aborted (internal error)");
		return -1;
	}
	double k = scale_of(lp);
	P = load(lp, k);
	start = start_of(o, nc);
	optimize(P, nc, lp->binary.v, &g, lp->obj_const * k, o, false, start,
	         sli_lp_deadline(o, t0), &w, NULL, &k, r);
	unscale(r, k);
	glp_delete_prob(P);
	groups_fini(&g);
	glp_error_hook(NULL, NULL);
	watch_from(NULL, o);
	free(start);
	r->seconds = sli_lp_clock() - t0;
	return r->status == SLI_LP_ERROR ? -1 : 0;
}

/* {====================================================================
 * Sessions: one glp_prob kept between solves
 * ===================================================================== */

struct sli_lp_session {
	glp_prob *P;
	size_t nc;
	unsigned char *binary;
	groups g;
	double obj_const;	/* scaled */
	double k;		/* the objective's scale */
	bool solved;		/* P holds an optimal basis to start from */
	bool obj_changed;	/* since then: the basis stays primal feasible */
	unsigned long env;	/* env_generation when P was made */
	/*
	 * session_use_slot: per slot, the basis kept there (the status of
	 * every row, then of every column) or NULL; the slot the next solve
	 * keeps its basis in (SLI_LP_NO_SLOT: none); whether P's basis is
	 * one put back from a slot
	 */
	unsigned char **basis;
	uint32_t nslots, keep;
	bool restored;
};

static int
session_lost(sli_lp_session *s, sli_lp_result *r)
{
	if (s->env == env_generation)
		return 0;
	r->status = SLI_LP_ERROR;
	snprintf(r->message, sizeof r->message, "GLPK aborted earlier: the "
	         "session's model is gone");
	return -1;
}

static sli_lp_session *
session_open(const sli_lp *lp, char *err, size_t errlen)
{
	hook h;
	sli_lp_result dummy;
	if (check(lp, &dummy)) {
		snprintf(err, errlen, "%s", dummy.message);
		return NULL;
	}
	sli_lp_session *s = sli_xcalloc(1, sizeof *s);
	s->nc = sli_lp_ncols(lp);
	s->binary = sli_xmalloc(s->nc + 1);
	if (s->nc)
		memcpy(s->binary, lp->binary.v, s->nc);
	s->k = scale_of(lp);
	s->obj_const = lp->obj_const * s->k;
	groups_init(&s->g, lp);
	watch_from(NULL, NULL);
	glp_error_hook(on_error, &h);
	if (setjmp(h.jb)) {
		env_lost();
		groups_fini(&s->g);
		free(s->binary);
		free(s);
		snprintf(err, errlen, "GLPK aborted while loading the model");
		return NULL;
	}
	s->env = env_generation;
	s->keep = SLI_LP_NO_SLOT;
	s->P = load(lp, s->k);
	glp_error_hook(NULL, NULL);
	return s;
}

static void
session_set_col(sli_lp_session *s, uint32_t col, double obj, double lb, double ub)
{
	if (s->env != env_generation || col >= s->nc || lb > ub)
		return;
	int c = (int)col + 1;
	obj *= s->k;
	if (glp_get_obj_coef(s->P, c) != obj)
		s->obj_changed = true;
	glp_set_obj_coef(s->P, c, obj);
	if (isinf(ub))
		glp_set_col_bnds(s->P, c, isinf(lb) ? GLP_FR : GLP_LO, lb, 0);
	else if (lb == ub)
		glp_set_col_bnds(s->P, c, GLP_FX, lb, ub);
	else
		glp_set_col_bnds(s->P, c, isinf(lb) ? GLP_UP : GLP_DB, lb, ub);
}

static int
session_resolve(sli_lp_session *s, const sli_lp_opts *o, sli_lp_result *r)
{
	hook h;
	double t0 = sli_lp_clock();
	result_init(r);
	if (session_lost(s, r))
		return -1;
	double *volatile start = start_of(o, s->nc);
	watch w;
	watch_from(&w, o);
	glp_error_hook(on_error, &h);
	if (setjmp(h.jb)) {
		env_lost();
		watch_from(NULL, o);
		free(start);
		r->status = SLI_LP_ERROR;
		r->seconds = sli_lp_clock() - t0;
		snprintf(r->message, sizeof r->message, "GLPK aborted (internal error)");
		return -1;
	}
	double k = s->k;
	optimize(s->P, s->nc, s->binary, &s->g, s->obj_const, o,
	         s->restored || (s->solved && s->obj_changed), start,
	         sli_lp_deadline(o, t0), &w,
	         s->keep == SLI_LP_NO_SLOT ? NULL : &s->basis[s->keep], &k, r);
	free(start);
	if (k != s->k) {
		/* zoomed: P's objective is in the new units from now on */
		s->obj_const *= k / s->k;
		s->k = k;
	}
	unscale(r, s->k);
	s->obj_changed = false;
	s->restored = false;
	s->keep = SLI_LP_NO_SLOT;	/* (each solve names its own) */
	s->solved = r->status == SLI_LP_OPTIMAL || r->status == SLI_LP_FEASIBLE ||
	            r->status == SLI_LP_INFEASIBLE;
	glp_error_hook(NULL, NULL);
	watch_from(NULL, o);
	r->seconds = sli_lp_clock() - t0;
	return r->status == SLI_LP_ERROR ? -1 : 0;
}

/*
 * The next solve keeps its optimal LP basis in slot keep, and starts
 * from the basis of the first slot of from that has one (the caller
 * vouches that the bounds are the ones it was optimal under: it is
 * primal feasible, and the primal simplex goes on from it).
 */
static void
session_use_slot(sli_lp_session *s, uint32_t keep, const uint32_t *from, size_t nfrom)
{
	if (s->env != env_generation)
		return;
	uint32_t top = keep == SLI_LP_NO_SLOT ? 0 : keep + 1;
	for (size_t i = 0; i < nfrom; i++)
		if (from[i] != SLI_LP_NO_SLOT && from[i] >= top)
			top = from[i] + 1;
	if (top > s->nslots) {
		s->basis = sli_xrealloc(s->basis, top * sizeof *s->basis);
		memset(s->basis + s->nslots, 0, (top - s->nslots) * sizeof *s->basis);
		s->nslots = top;
	}
	s->keep = keep;
	for (size_t i = 0; i < nfrom; i++)
		if (from[i] != SLI_LP_NO_SLOT && s->basis[from[i]]) {
			basis_set(s->P, s->basis[from[i]]);
			s->restored = true;
			break;
		}
}

static void
session_close(sli_lp_session *s)
{
	if (!s)
		return;
	if (s->env == env_generation)
		glp_delete_prob(s->P);
	groups_fini(&s->g);
	for (uint32_t i = 0; i < s->nslots; i++)
		free(s->basis[i]);
	free(s->basis);
	free(s->binary);
	free(s);
}

/* }==================================================================== */

static int
write(const sli_lp *lp, sli_lp_format f, const char *path, char *err, size_t errlen)
{
	hook h;
	glp_prob *volatile P = NULL;
	sli_lp_result dummy;

	if (check(lp, &dummy)) {
		snprintf(err, errlen, "%s", dummy.message);
		return -1;
	}
	watch_from(NULL, NULL);
	glp_error_hook(on_error, &h);
	if (setjmp(h.jb)) {
		env_lost();
		snprintf(err, errlen, "GLPK aborted while writing '%s'", path);
		return -1;
	}
	P = load(lp, 1);	/* the exports: unscaled */
	int rc = f == SLI_LP_FORMAT_MPS ? glp_write_mps(P, GLP_MPS_FILE, NULL, path)
	                                : glp_write_lp(P, NULL, path);
	glp_delete_prob(P);
	glp_error_hook(NULL, NULL);
	if (rc) {
		snprintf(err, errlen, "cannot write '%s'", path);
		return -1;
	}
	return 0;
}

const sli_lp_backend sli_lp_glpk = {
	"glpk", solve, write,
	session_open, session_set_col, session_resolve, session_close,
	session_use_slot,
};
