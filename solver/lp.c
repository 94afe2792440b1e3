/*
 * lp.c - building an sli_lp: columns, rows in compressed form, names.
 */
#include "solver/lp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double
sli_lp_clock(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double
sli_lp_deadline(const sli_lp_opts *o, double t0)
{
	double end = o->time_limit > 0 ? t0 + o->time_limit : INFINITY;
	if (o->deadline > 0 && o->deadline < end)
		end = o->deadline;
	return end;
}

void
sli_lp_init(sli_lp *lp)
{
	memset(lp, 0, sizeof *lp);
}

void
sli_lp_fini(sli_lp *lp)
{
	SL_VEC_FREE(lp->obj);
	SL_VEC_FREE(lp->lb);
	SL_VEC_FREE(lp->ub);
	SL_VEC_FREE(lp->binary);
	SL_VEC_FREE(lp->rows);
	SL_VEC_FREE(lp->idx);
	SL_VEC_FREE(lp->val);
	for (size_t i = 0; i < lp->names.n; i++)
		free(lp->names.v[i]);
	SL_VEC_FREE(lp->names);
	for (size_t i = 0; i < lp->colnames.n; i++)
		free(lp->colnames.v[i]);
	SL_VEC_FREE(lp->colnames);
}

void
sli_lp_name_col(sli_lp *lp, uint32_t c, const char *name)
{
	if (lp->colnames.n < lp->obj.n) {
		SL_VEC_RESERVE(lp->colnames, lp->obj.n);
		while (lp->colnames.n < lp->obj.n)
			lp->colnames.v[lp->colnames.n++] = NULL;
	}
	free(lp->colnames.v[c]);
	lp->colnames.v[c] = sli_xstrdup(name);
}

void
sli_lp_name_row(sli_lp *lp, uint32_t r, const char *name)
{
	char *s = sli_xstrdup(name);
	SL_VEC_PUSH(lp->names, s);
	lp->rows.v[r].name = s;
}

uint32_t
sli_lp_col(sli_lp *lp, double obj, double lb, double ub, bool binary)
{
	SL_VEC_PUSH(lp->obj, obj);
	SL_VEC_PUSH(lp->lb, lb);
	SL_VEC_PUSH(lp->ub, ub);
	SL_VEC_PUSH(lp->binary, binary ? 1 : 0);
	return (uint32_t)(lp->obj.n - 1);
}

uint32_t
sli_lp_row_add(sli_lp *lp, size_t n, const uint32_t *idx, const double *val,
               sli_lp_sense sense, double rhs, const char *name)
{
	sli_lp_row r = {lp->idx.n, n, sense, rhs, NULL};
	SL_VEC_RESERVE(lp->idx, lp->idx.n + n);
	SL_VEC_RESERVE(lp->val, lp->val.n + n);
	for (size_t i = 0; i < n; i++) {
		lp->idx.v[lp->idx.n++] = idx[i];
		lp->val.v[lp->val.n++] = val[i];
	}
	if (name) {
		char *s = sli_xstrdup(name);
		SL_VEC_PUSH(lp->names, s);
		r.name = s;
	}
	SL_VEC_PUSH(lp->rows, r);
	return (uint32_t)(lp->rows.n - 1);
}

bool
sli_lp_feasible(const sli_lp *lp, const double *x, double tol)
{
	for (size_t j = 0; j < sli_lp_ncols(lp); j++) {
		if (x[j] < lp->lb.v[j] - tol || x[j] > lp->ub.v[j] + tol)
			return false;
		if (lp->binary.v[j] && fabs(x[j] - round(x[j])) > tol)
			return false;
	}
	for (size_t i = 0; i < lp->rows.n; i++) {
		const sli_lp_row *r = &lp->rows.v[i];
		double a = 0;
		for (size_t e = 0; e < r->n; e++)
			a += lp->val.v[r->first + e] * x[lp->idx.v[r->first + e]];
		double slack = tol * fmax(1, fabs(r->rhs));
		if ((r->sense != SLI_LP_GE && a > r->rhs + slack) ||
		    (r->sense != SLI_LP_LE && a < r->rhs - slack))
			return false;
	}
	return true;
}

const char *
sli_lp_status_name(sli_lp_status s)
{
	switch (s) {
	case SLI_LP_OPTIMAL: return "optimal";
	case SLI_LP_FEASIBLE: return "feasible";
	case SLI_LP_INFEASIBLE: return "infeasible";
	case SLI_LP_NO_SOLUTION: return "timelimit";
	case SLI_LP_ERROR: return "error";
	}
	return "error";
}

sl_solve_status
sli_lp_public_status(sli_lp_status s)
{
	switch (s) {
	case SLI_LP_OPTIMAL: return SL_SOLVE_OPTIMAL;
	case SLI_LP_FEASIBLE: return SL_SOLVE_FEASIBLE;
	case SLI_LP_INFEASIBLE: return SL_SOLVE_INFEASIBLE;
	case SLI_LP_NO_SOLUTION: return SL_SOLVE_NO_SOLUTION;
	case SLI_LP_ERROR: break;
	}
	return SL_SOLVE_ERROR;
}
