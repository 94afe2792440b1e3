/*
 * iopddl_model.h - an IOPDDL problem as the solver sees it after its
 * reductions (iopddl_reduce.c): strategies that no optimal solution
 * needs are dead, edges folded into node costs are dead, and the memory
 * limit is a list of rows over the maximal sets of simultaneously live
 * nodes.  The local search (iopddl_heur.c) and the ILP (iopddl_solve.c)
 * both work on it.  Strategies keep the problem's numbering: entry k of
 * cost/alive is node i's strategy k - p->sfirst[i].
 * Invariant: a solution that picks an alive strategy of every node,
 * keeps every row and uses no forbidden pair of an alive edge costs, on
 * the problem, constant plus its node costs plus its alive edges' costs.
 * Ownership: the model owns its arrays; p must outlive it.
 */
#ifndef SL_SOLVER_IOPDDL_MODEL_H
#define SL_SOLVER_IOPDDL_MODEL_H

#include <math.h>

#include "solver/iopddl.h"
#include "solver/lp.h"
#include "util.h"

#define SLI_FORBIDDEN SL_IOPDDL_FORBIDDEN

typedef struct sli_iopddl_row {
	size_t first, n;	/* its nodes: rnode[first .. first + n) */
	int64_t rhs;		/* bound on the sum of usage - umin */
} sli_iopddl_row;

/*
 * The searches' clock.  The searches run for shares of the time limit;
 * on the wall clock their answers depended on the machine's speed and
 * load (V's answer changed with the way the binary was linked: 1,632,051
 * or 1,754,133 at 30 s).  They read this clock instead: the work done,
 * counted in the searches' own steps and GLPK's simplex iterations, each
 * priced in seconds of a reference machine (the benchmark's: one core of
 * a 2-core AMD EPYC, unloaded), so that one problem and one time limit give one
 * answer.  The wall clock still stops every search at hard_end.
 */
typedef struct sli_iopddl_clock {
	double spent;		/* the work done, in reference seconds */
	double hard_end;	/* sli_lp_clock() instant ending every search */
} sli_iopddl_clock;

typedef struct sli_iopddl_model {
	const sl_iopddl *p;
	int64_t *cost;		/* node costs with folded edges (per entry) */
	unsigned char *alive;	/* per entry */
	uint32_t *nalive;	/* per node */
	int64_t *ecost;		/* edge matrices, parallel edges summed in */
	unsigned char *ealive;	/* per edge */
	int64_t constant;	/* costs folded away from dead edges */
	int64_t *umin;		/* per node: least usage of an alive strategy */
	/* the alive edges at each node (compute_adjacency) */
	size_t *afirst;		/* nnodes + 1 */
	uint32_t *aedge;
	/* memory rows (for the ILP) */
	SL_VEC(sli_iopddl_row) rows;
	SL_VEC(uint32_t) rnode;
	/* per node: in some row (once the rows are known: before, all are) */
	unsigned char *inrow;
	bool infeasible;
	char why[192];		/* why it is infeasible */
	double end;		/* the reductions' deadline (sli_lp_clock) */
	bool late;		/* they passed it: the model is not usable */
	size_t nodes, edges;	/* free nodes (two strategies or more), alive edges */
	/* the searches' clock (shared by the models derived from this
	 * one), or NULL: they read the wall clock (sli_lp_clock) */
	sli_iopddl_clock *clock;
} sli_iopddl_model;

/*
 * The time on m's clock: its work done, or INFINITY once the wall clock
 * passed its hard end (every search stops); without one, the wall clock.
 */
static inline double
sli_iopddl_now(const sli_iopddl_model *m)
{
	double wall = sli_lp_clock();
	if (!m->clock)
		return wall;
	return wall >= m->clock->hard_end ? INFINITY : m->clock->spent;
}

/* Adds work to m's clock: units at rate units a reference second. */
static inline void
sli_iopddl_spend(const sli_iopddl_model *m, double units, double rate)
{
	if (m->clock)
		m->clock->spent += units / rate;
}

/* Builds the reduced model of p (never fails: see m->infeasible), or
 * gives up once sli_lp_clock() passes end (m->late; only fini it). */
void sli_iopddl_model_init(sli_iopddl_model *m, const sl_iopddl *p, double end);
void sli_iopddl_model_fini(sli_iopddl_model *m);

/* a + b, where either at or above SLI_FORBIDDEN stays forbidden. */
static inline int64_t
sli_iopddl_add(int64_t a, int64_t b)
{
	int64_t s;
	if (a >= SLI_FORBIDDEN || b >= SLI_FORBIDDEN ||
	    __builtin_add_overflow(a, b, &s) || s >= SLI_FORBIDDEN)
		return SLI_FORBIDDEN;
	return s;
}

/* The cost of the pair (a, b) of local strategy indices on edge e. */
static inline int64_t
sli_iopddl_pair(const sli_iopddl_model *m, size_t e, size_t a, size_t b)
{
	const sl_iopddl *p = m->p;
	return m->ecost[p->efirst[e] + a * p->nstrat[p->ev[e]] + b];
}

/* The usage of node i's strategy s above the node's least (row coefficient). */
static inline int64_t
sli_iopddl_coef(const sli_iopddl_model *m, size_t i, size_t s)
{
	return m->p->usage[m->p->sfirst[i] + s] - m->umin[i];
}

/*
 * The time slots: the distinct interval ends in order; node i is live in
 * slots [t0[i], t1[i]) (new heap arrays).  Returns the number of slots.
 */
size_t sli_iopddl_slots(const sl_iopddl *p, uint32_t **t0, uint32_t **t1);

/*
 * The local search: a solution (local strategy per node, sol[nnodes])
 * within the usage limit, from a greedy start (or from sol, when
 * from_sol: then it must be within the limit) improved by moves of one
 * node and of both ends of an edge until none helps or end
 * (sli_iopddl_now) passes, then, with use_all_time, by tree moves and
 * perturbations until end (the best kept).
 * Returns its cost on the model (constant included), or -1 when it found
 * none without a forbidden pair.
 */
int64_t sli_iopddl_heuristic(const sli_iopddl_model *m, int64_t *sol, double end,
                             bool use_all_time, bool from_sol);

/*
 * Brings sol (alive strategies, maybe above the usage limit) within the
 * limit by the cheapest moves per usage saved, then improves it by the
 * moves of one node and of an edge's two ends.  Its cost, or -1 when it
 * could not or a forbidden pair is left.
 */
int64_t sli_iopddl_repair(const sli_iopddl_model *m, int64_t *sol, double end);

/*
 * The Lagrangian search (iopddl_lagr.c): the usage limit priced into the
 * node costs (one price per time slot, moved by subgradient steps), the
 * priced problem solved approximately by tree-reweighted message passing
 * (TRW-S), each of its answers repaired and improved; until end.  sol
 * holds the best solution known on entry (cost ub; ub < 0: none) and the
 * best on return; returns its cost (or -1: none).  cand (per strategy
 * entry, or NULL) gets bit 1 for the strategies of the priced answers,
 * bit 2 for those of the repaired ones.
 */
int64_t sli_iopddl_lagrangian(const sli_iopddl_model *m, int64_t *sol, int64_t ub,
                              double end, unsigned char *cand);

#endif
