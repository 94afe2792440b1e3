/*
 * backend_glpk.c - the GLPK backend: the only file that includes glpk.h.
 * The LP relaxation is solved first by the simplex method (presolve on,
 * under the time limit), then branch and cut from that basis with the
 * time left; a GLPK abort becomes an error through glp_error_hook, and
 * GLPK's statuses become sli_lp_status.
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

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Loads lp into a new GLPK problem (1-based arrays at this boundary). */
static glp_prob *
load(const sli_lp *lp)
{
	glp_prob *P = glp_create_prob();
	size_t nc = sli_lp_ncols(lp), nr = lp->rows.n, nz = lp->idx.n;

	glp_set_obj_dir(P, GLP_MIN);
	glp_set_obj_coef(P, 0, lp->obj_const);
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
		glp_set_obj_coef(P, c, lp->obj.v[j]);
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
	return P;
}

typedef struct cbdata {
	const double *start;	/* 1-based incumbent, or NULL */
	bool given;
	double bound;
} cbdata;

static void
callback(glp_tree *T, void *info)
{
	cbdata *d = info;
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

static int
solve(const sli_lp *lp, const sli_lp_opts *o, sli_lp_result *r)
{
	hook h;
	glp_prob *volatile P = NULL;
	double *volatile start = NULL;
	double t0 = now();
	size_t nc = sli_lp_ncols(lp);

	memset(r, 0, sizeof *r);
	r->bound = -INFINITY;
	r->objective = INFINITY;
	r->gap = INFINITY;
	if (check(lp, r)) {
		r->status = SLI_LP_ERROR;
		return -1;
	}
	glp_term_out(o->verbose ? GLP_ON : GLP_OFF);
	glp_error_hook(on_error, &h);
	if (setjmp(h.jb)) {
		/* GLPK aborted: its environment is gone, P with it */
		glp_free_env();
		free(start);
		r->status = SLI_LP_ERROR;
		r->seconds = now() - t0;
		snprintf(r->message, sizeof r->message, "GLPK aborted (internal error)");
		return -1;
	}
	P = load(lp);

	glp_smcp sp;
	glp_init_smcp(&sp);
	sp.presolve = o->presolve ? GLP_ON : GLP_OFF;
	sp.msg_lev = o->verbose ? GLP_MSG_ON : GLP_MSG_OFF;
	if (o->time_limit > 0)
		sp.tm_lim = (int)fmin(o->time_limit * 1000, INT32_MAX);
	int rc = nc ? glp_simplex(P, &sp) : 0;
	int st = nc ? glp_get_status(P) : GLP_OPT;
	if (rc == GLP_ENOPFS || (rc == 0 && (st == GLP_NOFEAS || st == GLP_INFEAS))) {
		r->status = SLI_LP_INFEASIBLE;
		goto done;
	}
	if (rc == GLP_ETMLIM) {
		r->status = SLI_LP_NO_SOLUTION;
		goto done;
	}
	if (rc != 0 || st != GLP_OPT) {
		r->status = st == GLP_UNBND ? SLI_LP_ERROR : SLI_LP_ERROR;
		snprintf(r->message, sizeof r->message, "LP relaxation: simplex "
		         "returned %d, status %d", rc, st);
		goto done;
	}
	r->bound = nc ? glp_get_obj_val(P) : lp->obj_const;

	cbdata cb = {NULL, false, r->bound};
	if (o->start) {
		start = sli_xmalloc((nc + 1) * sizeof *start);
		start[0] = 0;
		memcpy(start + 1, o->start, nc * sizeof *start);
		cb.start = start;
	}
	glp_iocp ip;
	glp_init_iocp(&ip);
	ip.msg_lev = o->verbose ? GLP_MSG_ON : GLP_MSG_OFF;
	ip.presolve = GLP_OFF;
	ip.mip_gap = o->gap > 0 ? o->gap : 0;
	ip.cb_func = callback;
	ip.cb_info = &cb;
	if (o->time_limit > 0) {
		double left = o->time_limit - (now() - t0);
		ip.tm_lim = (int)fmax(1, fmin(left * 1000, INT32_MAX));
	}
	rc = nc ? glp_intopt(P, &ip) : 0;
	st = nc ? glp_mip_status(P) : GLP_OPT;
	if (cb.bound > r->bound)
		r->bound = cb.bound;
	if (st == GLP_OPT && (rc == 0 || rc == GLP_EMIPGAP))
		r->status = SLI_LP_OPTIMAL;
	else if (st == GLP_NOFEAS)
		r->status = SLI_LP_INFEASIBLE;
	else if (st == GLP_FEAS)
		r->status = rc == GLP_EMIPGAP ? SLI_LP_OPTIMAL : SLI_LP_FEASIBLE;
	else if (rc == GLP_ETMLIM)
		r->status = SLI_LP_NO_SOLUTION;
	else {
		r->status = SLI_LP_ERROR;
		snprintf(r->message, sizeof r->message, "branch and cut returned %d", rc);
	}
	if (r->status == SLI_LP_OPTIMAL || r->status == SLI_LP_FEASIBLE) {
		r->objective = nc ? glp_mip_obj_val(P) : lp->obj_const;
		r->x = sli_xmalloc((nc + 1) * sizeof *r->x);
		for (size_t j = 0; j < nc; j++)
			r->x[j] = glp_mip_col_val(P, (int)j + 1);
		if (r->status == SLI_LP_OPTIMAL && rc == 0)
			r->bound = fmax(r->bound, r->objective - fabs(r->objective) * ip.mip_gap);
		if (r->bound > r->objective)
			r->bound = r->objective;
		r->gap = (r->objective - r->bound) / fmax(1e-9, fabs(r->objective));
	}
done:
	glp_delete_prob(P);
	glp_error_hook(NULL, NULL);
	free(start);
	r->seconds = now() - t0;
	return r->status == SLI_LP_ERROR ? -1 : 0;
}

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
	glp_term_out(GLP_OFF);
	glp_error_hook(on_error, &h);
	if (setjmp(h.jb)) {
		glp_free_env();
		snprintf(err, errlen, "GLPK aborted while writing '%s'", path);
		return -1;
	}
	P = load(lp);
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

const sli_lp_backend sli_lp_glpk = {"glpk", solve, write};
