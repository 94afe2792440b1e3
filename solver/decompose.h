/*
 * decompose.h - the exact decomposition of the ILP along a chain of
 * blocks joined by single tensors (shardlp-cost(7), DECOMPOSITION): each
 * distinct block is solved by the backend once per sharding of its
 * outgoing boundary tensor, with the cost of everything before it priced
 * on its incoming one, and dynamic programming over the chain combines
 * the block optima into the optimum of the whole model.
 * Ownership: the result holds no pointers; q is the caller's.
 */
#ifndef SL_SOLVER_DECOMPOSE_H
#define SL_SOLVER_DECOMPOSE_H

#include "cost/cost.h"
#include "solver/lp.h"

typedef struct sli_decomp_result {
	sli_lp_status status;
	double objective, bound, gap, seconds;
	size_t nblocks;		/* blocks of the chain */
	size_t nclasses;	/* structurally distinct blocks */
	size_t nsolves;		/* backend solves */
	size_t nreuse;		/* solves saved: outgoing options whose
				 * solution an earlier one stays (Reuse) */
	size_t nsym;		/* solves saved: outgoing options whose least
				 * cost and solution are a symmetric one's image */
	size_t ncarried;	/* costly blocks whose bounds an earlier block
				 * of their class gave (Lazy outgoing values) */
	size_t nknown;		/* solves saved: options of costly blocks that
				 * earlier solves of their class priced
				 * exactly (Known block costs) */
	size_t nlowered;	/* solves under lowered prices (the same) */
	size_t ncols, nrows, nbinaries;	/* summed over the distinct blocks */
	char message[256];	/* the backend's words on failure */
} sli_decomp_result;

/*
 * Solves cm by decomposition; with reuse false, every block is its own
 * class (tests hold that against reuse).  Returns 1 when cm has no chain structure
 * to exploit (one block, a memory budget, a tensor without options, a
 * backend without sessions): the caller solves the whole model instead.
 * Otherwise returns 0 and sets r->status; with a solution (optimal or
 * feasible) q receives one sharding per tensor of cm.  Never reports
 * diagnostics: infeasible chains are left to the whole model, which
 * names the conflicting constraints.
 */
int sli_decomp_solve(const sli_cost_model *cm, const sli_lp_backend *be,
                     const sli_lp_opts *o, bool reuse, sli_cost_asg *q,
                     sli_decomp_result *r);

/*
 * Blocks of at least this many columns, with an outgoing tensor of
 * several options, get lower bounds for their outgoing options first
 * and exact values only where the chain picks them (the tests lower it
 * to exercise that path on small chains).
 */
extern size_t sli_decomp_lazy_cols;

#endif
