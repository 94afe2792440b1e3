/*
 * iopddl_fold.h - the nodes whose usage no memory row counts, folded
 * away before the ILP is built (iopddl_fold.c): a leaf's best strategy
 * for each strategy of its neighbour is known without the ILP, and so
 * is a node's with two neighbours for each pair of theirs (it becomes
 * an edge between them); such nodes need no columns or rows.  The fold
 * holds the edges the ILP is built from: the model's alive ones and
 * those the nodes with two neighbours became.
 * Ownership: the fold owns its arrays; the model must outlive it.
 */
#ifndef SL_SOLVER_IOPDDL_FOLD_H
#define SL_SOLVER_IOPDDL_FOLD_H

#include "solver/iopddl_model.h"

/* An edge of the folded graph: a model edge, or a matrix of the fold's. */
typedef struct sli_iopddl_fedge {
	uint32_t u, v;		/* its ends; matrix |S_u| x |S_v|, row-major */
	uint32_t orig;		/* the model's edge, or UINT32_MAX: f->ecost + off */
	size_t off;
	bool alive;		/* false once folded away or merged */
} sli_iopddl_fedge;

typedef struct sli_iopddl_fold {
	int64_t *cost;		/* per entry: m's cost with the folded leaves */
	unsigned char *folded;	/* per node: no columns (its edges neither) */
	int64_t constant;	/* the cost of the trees folded whole */
	/* the folded nodes in fold order; each one's neighbours when it
	 * was folded (UINT32_MAX: none), and its best strategy for each
	 * strategy b of nb[0] and c of nb[1]: pick[at + b * |S_nb1| + c]
	 * (c = 0 with one neighbour, b = c = 0 with none) */
	SL_VEC(uint32_t) order;
	uint32_t (*nb)[2];	/* per node */
	size_t *at;		/* per node */
	SL_VEC(uint32_t) pick;
	/* the edges, each end's list of them (half-edge h: edge h / 2,
	 * end h % 2; hnext links a node's list from head) */
	SL_VEC(sli_iopddl_fedge) edges;
	SL_VEC(int64_t) ecost;
	size_t *head;		/* per node */
	SL_VEC(size_t) hnext;
	size_t series;		/* the nodes folded with two neighbours */
} sli_iopddl_fold;

/*
 * Folds, in m, the nodes with two strategies or more, in no row of m,
 * that have one alive edge left to an unfolded node with two or more
 * (and every strategy of that node has an allowed pair), or (series)
 * two edges to such nodes when the edge between these would have no
 * more pair columns than the node and its two edges (or they have one
 * already), then the trees left with no edge; until none is left.
 * Without series: the reference model that --write-lp exports.
 */
void sli_iopddl_fold_init(sli_iopddl_fold *f, const sli_iopddl_model *m,
                          bool series);
void sli_iopddl_fold_fini(sli_iopddl_fold *f);

/* The cost of the pair (a of edge k's u, b of its v). */
int64_t sli_iopddl_fold_pair(const sli_iopddl_fold *f, const sli_iopddl_model *m,
                             size_t k, size_t a, size_t b);

/* The folded nodes' strategies in sol, from the others'. */
void sli_iopddl_fold_unfold(const sli_iopddl_fold *f, const sli_iopddl_model *m,
                            int64_t *sol);

#endif
