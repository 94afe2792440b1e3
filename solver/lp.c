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
