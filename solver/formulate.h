/*
 * formulate.h - the ILP of shardlp-cost(7), formulation F3 of
 * ../shared/ilp/NOTES.md: one-hot binaries over each tensor's shardings
 * and each op's factor assignments, and per-axis agreement columns on
 * every operand and result edge that refund the reshard the evaluator
 * would not charge.  Every coefficient comes from src/cost.
 * Ownership: a formulation owns its lp and option arrays (sli_form_fini);
 * it points into the cost model, which must outlive it.
 */
#ifndef SL_SOLVER_FORMULATE_H
#define SL_SOLVER_FORMULATE_H

#include "cost/cost.h"
#include "solver/lp.h"

typedef struct sli_form_var {
	sli_cost_asg *opt;	/* the options (heap) */
	size_t n;
	uint32_t col;		/* column of option 0; option k is col + k */
} sli_form_var;

typedef struct sli_form {
	const sli_cost_model *cm;
	sli_lp lp;
	sli_form_var *t, *o;	/* per tensor, per op */
	SL_VEC(uint32_t) refunds;	/* agreement columns, for sli_form_encode */
	SL_VEC(uint32_t) refund_rows;	/* two rows per refund column */
} sli_form;

/*
 * Builds the ILP of cm.  Returns 0; or -1 when the user constraints
 * contradict each other before any solving (a tensor without a valid
 * sharding, a tie between incompatible pins, a memory budget below the
 * least memory possible), with located errors naming them.
 */
int sli_form_build(sli_form *f, const sli_cost_model *cm);
void sli_form_fini(sli_form *f);
/* The chosen sharding of every tensor and assignment of every op. */
void sli_form_decode(const sli_form *f, const double *x, sli_cost_asg *q,
                     sli_cost_asg *s);
/*
 * A point of the model from tensor shardings q (each op takes its
 * cheapest assignment): fills x (sli_lp_ncols entries).  Returns 0, or -1
 * when some q[t] is not an option of its tensor (the model cannot hold it).
 */
int sli_form_encode(const sli_form *f, const sli_cost_asg *q, double *x);

#endif
