/*
 * iopddl_fold.h - the trees of nodes whose usage no memory row counts,
 * folded into the nodes they hang from before the ILP is built
 * (iopddl_fold.c): a leaf's best strategy for each strategy of its
 * neighbour is known without the ILP, so it needs no columns or rows.
 * Ownership: the fold owns its arrays; the model must outlive it.
 */
#ifndef SL_SOLVER_IOPDDL_FOLD_H
#define SL_SOLVER_IOPDDL_FOLD_H

#include "solver/iopddl_model.h"

typedef struct sli_iopddl_fold {
	int64_t *cost;		/* per entry: m's cost with the folded trees */
	unsigned char *folded;	/* per node: no columns (its edge neither) */
	int64_t constant;	/* the cost of the trees folded whole */
	/* the folded nodes in fold order; each one's edge to the node it
	 * hangs from (UINT32_MAX: a tree's root, its strategy pick[at]),
	 * and its best strategy per strategy b of that node: pick[at + b] */
	SL_VEC(uint32_t) order;
	uint32_t *via;		/* per node */
	size_t *at;		/* per node */
	SL_VEC(uint32_t) pick;
} sli_iopddl_fold;

/*
 * Folds, in m, the nodes with two strategies or more, in no row of m,
 * that have one alive edge left to an unfolded node with two or more
 * (and every strategy of that node has an allowed pair), then the trees
 * left with no edge; until none is left.
 */
void sli_iopddl_fold_init(sli_iopddl_fold *f, const sli_iopddl_model *m);
void sli_iopddl_fold_fini(sli_iopddl_fold *f);

/* The folded nodes' strategies in sol, from the others'. */
void sli_iopddl_fold_unfold(const sli_iopddl_fold *f, const sli_iopddl_model *m,
                            int64_t *sol);

#endif
