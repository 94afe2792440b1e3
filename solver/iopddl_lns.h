/*
 * iopddl_lns.h - the neighbourhoods of the large-neighbourhood search
 * (iopddl_lns.c): a region of free nodes and the sub-model with every
 * other node fixed at the answer.
 * Ownership: the search owns its arrays and the sub-model's; m (and its
 * problem) must outlive it.
 */
#ifndef SL_SOLVER_IOPDDL_LNS_H
#define SL_SOLVER_IOPDDL_LNS_H

#include "solver/iopddl_model.h"

typedef struct sli_iopddl_lns {
	const sli_iopddl_model *m;
	uint32_t *t0, *t1;	/* each node's live slots */
	size_t nslots;
	int64_t *load;		/* per slot: the fixed nodes' usage */
	unsigned char *isfree;	/* per node: in the region */
	uint32_t *region;	/* the free nodes, in the order taken */
	uint32_t *dom;		/* per free node: its strategies when taken */
	uint32_t *out;		/* scratch: the nodes fix_nodes took out */
	const int64_t *sol;	/* the answer the region is picked at */
	size_t nregion;
	size_t cols, budget;	/* the region's columns, at most */
	uint64_t rng;
	/* m with the nodes outside the region fixed (sli_iopddl_lns_fix);
	 * shares m's adjacency, edge matrices, umin and inrow */
	sli_iopddl_model sub;
} sli_iopddl_lns;

void sli_iopddl_lns_init(sli_iopddl_lns *L, const sli_iopddl_model *m, uint64_t seed);
void sli_iopddl_lns_fini(sli_iopddl_lns *L);

/* The regions: around a random node (by the alive edges), around a few
 * nodes live at a slot where the usage is near the limit, the nodes
 * that start in a stretch of the time slots, around a costly edge of
 * the answer, and around a costly edge with a node live at a tight
 * slot of its ends' lifetimes (a trade of memory). */
enum {
	SLI_LNS_AROUND, SLI_LNS_TIGHT, SLI_LNS_WINDOW, SLI_LNS_COSTLY,
	SLI_LNS_TRADE, SLI_LNS_MODES
};

/* Picks a region of up to k nodes (with a choice) and up to budget
 * columns of the ILP (node strategies and pairs); returns its size. */
size_t sli_iopddl_lns_pick(sli_iopddl_lns *L, const int64_t *sol, size_t k,
                           size_t budget, unsigned mode);

/*
 * Builds L->sub: the region free, every other node fixed at sol (sol
 * within the limit, without forbidden pairs); a free node that its
 * fixed neighbours leave one strategy is fixed too.  Then sol is a
 * solution of the sub-model of the same cost, and every solution of
 * the sub-model is one of m.
 */
void sli_iopddl_lns_fix(sli_iopddl_lns *L, const int64_t *sol);

/* Node i's strategy s against sol: its cost and that of its alive
 * edges, the other ends as sol has them (forbidden: SLI_FORBIDDEN). */
int64_t sli_iopddl_against(const sli_iopddl_model *m, size_t i, size_t s,
                           const int64_t *sol);

/*
 * Adds to a restriction of m (alive, nalive: per strategy entry and per
 * node) each node's cheapest strategy against sol at each of its usages
 * (nodes in memory rows): the trades of memory a restricted ILP may
 * make, with the neighbours as they are.
 */
void sli_iopddl_widen_levels(const sli_iopddl_model *m, const int64_t *sol,
                             unsigned char *alive, uint32_t *nalive);

#endif
