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
	uint32_t col;		/* column of option 0; option k is col + k;
				 * UINT32_MAX for an eliminated leaf */
	/* a leaf: its one edge, on operand or result `i` of local op `op` */
	uint32_t op, i;
	bool res;
	double *fold;		/* per option of that op: the leaf's best option */
} sli_form_var;

typedef struct sli_form {
	const sli_cost_model *cm;
	sli_lp lp;
	sli_form_var *t, *o;	/* per tensor, per op (local to a part) */
	size_t nt, no;
	SL_VEC(uint32_t) refunds;	/* agreement columns, for sli_form_encode */
	SL_VEC(uint32_t) refund_rows;	/* two rows per refund column */
	/* per tensor, with a budget: the column of its bytes per device
	 * (continuous), or UINT32_MAX for a tensor of one option */
	uint32_t *bytes_col;
} sli_form;

/*
 * A part of the model: some of its ops with the tensors they touch (a
 * block of solver/decompose.c).  Local tensor k is model tensor
 * tensors[k]; columns follow the local order, so two parts with the same
 * structure give the same lp.  Every tensor an op or tie of the part
 * refers to must be in it.
 */
typedef struct sli_form_part {
	const uint32_t *tensors;
	size_t ntensors;
	const bool *memory;	/* per local tensor: pays its memory here */
	/*
	 * per local tensor, or NULL: a leaf (one edge in the whole model, no
	 * tie) gets no columns; its least cost given each option of its op
	 * is folded into that op's columns (exact: nothing else sees it)
	 */
	const bool *leaf;
	const uint32_t *ops;
	size_t nops;
	const uint32_t *ties;	/* indices into cm->ties */
	size_t nties;
	uint32_t *local;	/* scratch, one per model tensor, all UINT32_MAX
				 * on entry and on return */
} sli_form_part;

/*
 * Builds the ILP of cm.  Returns 0; or -1 when the user constraints
 * contradict each other before any solving (a tensor without a valid
 * sharding, a tie between incompatible pins, a memory budget below the
 * least memory possible), with located errors naming them.
 */
int sli_form_build(sli_form *f, const sli_cost_model *cm);
/*
 * The ILP of part p alone: no memory budget, no tie check, and no
 * diagnostics (every tensor of p must have an option).  Same columns as
 * sli_form_build for the same tensors and ops.
 */
void sli_form_build_part(sli_form *f, const sli_cost_model *cm,
                         const sli_form_part *p);
void sli_form_fini(sli_form *f);
/* The chosen sharding of every (local) tensor and assignment of every op. */
void sli_form_decode(const sli_form *f, const double *x, sli_cost_asg *q,
                     sli_cost_asg *s);
/* The same as option indices: pick[k] for local tensor k, leaves included. */
void sli_form_pick(const sli_form *f, const double *x, uint32_t *pick);
/* The chosen assignment of every (local) op, as option indices. */
void sli_form_pick_ops(const sli_form *f, const double *x, uint32_t *pick);
/*
 * A point of the model from tensor shardings q (each op takes its
 * cheapest assignment): fills x (sli_lp_ncols entries).  Returns 0, or -1
 * when some q[t] is not an option of its tensor (the model cannot hold it).
 */
int sli_form_encode(const sli_form *f, const sli_cost_asg *q, double *x);
/*
 * Sets the refund columns of x, whose option columns are integral, as
 * large as their two rows let them be: at an integral point, their
 * values in the model's price of that point.
 */
void sli_form_fill_refunds(const sli_form *f, double *x);

/*
 * Names f's columns and rows after the tensors, ops, options and mesh
 * axes they stand for (names.c), for the exported model.
 */
void sli_form_name(sli_form *f);

#endif
