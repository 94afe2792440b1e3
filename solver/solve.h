/*
 * solve.h - optimal shardings of a module: build the cost model, the ILP
 * (solver/formulate.c), solve it with a backend, decode the assignment
 * into sdy shardings on the module, check the result (solver/check.c)
 * and hold the evaluator's cost against the ILP objective.
 * Ownership: results hold no pointers into the module; message is heap.
 */
#ifndef SL_SOLVER_SOLVE_H
#define SL_SOLVER_SOLVE_H

#include "cost/cost.h"
#include "solver/lp.h"

typedef struct sli_solve_opts {
	sli_cost_params cost;
	sli_lp_opts lp;
	const sli_lp_backend *backend;	/* NULL: GLPK */
	const char *write_lp, *write_mps;	/* export the model there */
	bool no_solve;		/* export only */
	bool no_decompose;	/* always solve the whole model at once */
	bool no_block_reuse;	/* decomposed: solve every block (tests) */
	/* an incumbent: the shardings of this module (same program), or
	 * NULL; the answer (feasible) when time runs out before the solver
	 * finds one of its own */
	sl_module *start;
	FILE *report;		/* the caller's stream for a solution report
				 * in glpsol's layout (report.c), or NULL */
} sli_solve_opts;

void sli_solve_opts_init(sli_solve_opts *o);

typedef struct sli_solve_result {
	sli_lp_status status;
	double objective, bound, gap, seconds;
	sli_cost_parts parts;	/* the evaluator's score of the decoded module */
	size_t ncols, nrows, nbinaries, ntensors, nops;	/* decomposed: summed
				 * over the distinct blocks */
	size_t nblocks;		/* blocks of the chain; 0: one whole model */
	size_t nclasses;	/* structurally distinct blocks */
	size_t nsolves;		/* backend solves */
	size_t nreuse;		/* decomposed: solves saved by reuse across
				 * prices and classes */
	size_t nsym;		/* decomposed: solves saved by symmetry (the
				 * image of a solved one taken instead) */
	size_t ncarried;	/* decomposed: costly blocks bounded from an
				 * earlier block of their class, unsolved */
	size_t nknown;		/* decomposed: options of costly blocks priced
				 * by earlier solves of their class */
	size_t nlowered;	/* decomposed: of the solves, those under
				 * lowered prices, for later blocks' sake */
	bool start_used;	/* the incumbent was a point of the model */
	bool from_start;	/* the answer is the incumbent: the solver found
				 * none of its own in the time limit */
	bool start_kept;	/* the answer is the incumbent: the evaluator
				 * scores it below the model's optimum */
	char start_note[256];	/* why it was not */
	double start_total;	/* the model's price of the incumbent, once
				 * read as a point of the model */
} sli_solve_result;

/*
 * Solves m and, with a solution, writes its shardings onto m.  o->lp's
 * time limit and deadline bound the whole call.  Returns 0 with a
 * solution (optimal or feasible), 1 when the problem is infeasible or no
 * solution was found (diagnostics name the conflicting user
 * constraints when they can), -1 on bad input or a solver error (with
 * diagnostics).  The checker runs on every solution; a disagreement
 * between the evaluator and the objective is an error.
 */
int sli_solve(sl_module *m, const sli_solve_opts *o, sli_solve_result *r);

/*
 * Whether each of the modules pts[0..n) (results of greedy strategies on
 * the same imported program as m) is a point of the model the solver
 * builds for m under o->cost, the memory budget aside (the evaluator
 * flags a peak over it): in[i] 1 or 0, with the reason in why[i] when 0.
 * Returns 0, or -1 when m has no model (diagnostics).
 */
int sli_solve_points(sl_module *m, const sli_solve_opts *o, sl_module *const *pts,
                     size_t n, int *in, char (*why)[128]);

/*
 * The independent checker.  sli_check_snapshot records the sharding of
 * every value of m (heap array, caller frees); after m was annotated,
 * sli_check holds it against that record: the verifier passes, closed
 * user dimensions and sharding constraints are unchanged, open ones only
 * grew at the minor end, replicated axes stay off, sharding groups are
 * equal and manual axes absent inside manual computations.  Reports each
 * violation as an error and returns their count.
 */
typedef struct sli_check_snap {
	const sl_sharding **v;
	size_t n;
	const sl_sharding **res;	/* function result shardings (res_attrs) */
	size_t nres;
} sli_check_snap;

void sli_check_snapshot(sl_module *m, sli_check_snap *s);
void sli_check_snap_free(sli_check_snap *s);
int sli_check(sl_module *m, const sli_check_snap *before);

#endif
