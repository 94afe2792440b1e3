/*
 * iopddl.h - IOPDDL problems (formats/iopddl.h) solved and scored: the
 * independent evaluator of a solution (iopddl_eval.c) and the solver
 * (iopddl_solve.c: reductions, a local search, and the ILP through the
 * GLPK backend that `shardlp solve` uses).
 * Public: the shardlp program uses it beside shardlp.h.
 * Ownership: a result owns its solution (sl_iopddl_result_fini).
 */
#ifndef SL_SOLVER_IOPDDL_H
#define SL_SOLVER_IOPDDL_H

#include "formats/iopddl.h"

/*
 * The contest's verdict on a solution: feasible when it has one index
 * per node, each in range, uses no forbidden cost (>= 1e18), and the
 * usages of the nodes live at any time sum to at most the limit.
 */
typedef struct sl_iopddl_eval {
	bool feasible;
	int64_t cost;		/* node and edge costs summed; valid when feasible */
	int64_t peak;		/* the largest usage summed over live nodes */
	int64_t peak_time;	/* a time it is reached at */
	char why[192];		/* the first reason it is infeasible, or "" */
} sl_iopddl_eval;

/* Scores sol[0..n) on p into *out; 0 when feasible, 1 when not. */
int sl_iopddl_evaluate(const sl_iopddl *p, const int64_t *sol, size_t n,
                       sl_iopddl_eval *out);

typedef struct sl_iopddl_opts {
	double time_limit;	/* seconds from the call; <= 0: none */
	double deadline;	/* an sl_solve_clock() instant; <= 0: none */
	double gap;		/* relative optimality gap to stop at */
	FILE *log;		/* the solver's log, or NULL */
	const char *write_lp, *write_mps;	/* export the model there */
	bool local_search_only;	/* no ILP: the heuristic's answer */
	/* models with more columns than this are not given to the ILP
	 * solver (the local search answers); 0: the default */
	size_t max_cols;
} sl_iopddl_opts;

void sl_iopddl_opts_init(sl_iopddl_opts *o);

typedef struct sl_iopddl_result {
	sl_solve_status status;
	int64_t *solution;	/* one strategy per node (heap), or NULL */
	sl_iopddl_eval eval;	/* the evaluator's verdict on solution */
	double objective;	/* = eval.cost when there is a solution */
	double bound, gap, seconds;
	size_t nodes, edges;	/* left after the reductions */
	size_t ncols, nrows, nbinaries;	/* of the ILP; 0 when not built */
	int64_t heuristic_cost;	/* of the local search's answer; -1: none */
	bool from_heuristic;	/* the answer is the local search's */
	bool ilp_skipped;	/* too large, or local_search_only */
} sl_iopddl_result;

/*
 * Solves p within o's limits (all of the call).  Returns 0 with a
 * solution (checked by the evaluator; objective is its cost), 1 when p
 * is infeasible or no solution was found in time, -1 on an error
 * (diagnostics through ctx).  *r is filled in every case.
 */
int sl_iopddl_solve(sl_context *ctx, const sl_iopddl *p,
                    const sl_iopddl_opts *o, sl_iopddl_result *r);
void sl_iopddl_result_fini(sl_iopddl_result *r);

#endif
