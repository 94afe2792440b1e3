/*
 * lp.h - a mixed-integer linear program as plain data, and the interface
 * of a backend that solves or exports it.  Formulations (solver/formulate.c,
 * later the IOPDDL strategy formulation) build an sli_lp; only a backend
 * (solver/backend_glpk.c) knows a solver library.  Columns and rows are
 * 0-based here; backends convert at their boundary.
 * Ownership: an sli_lp owns its arrays (sli_lp_fini); names are copied.
 */
#ifndef SL_SOLVER_LP_H
#define SL_SOLVER_LP_H

#include "shardlp.h"
#include "util.h"

typedef enum sli_lp_sense { SLI_LP_LE, SLI_LP_GE, SLI_LP_EQ } sli_lp_sense;

typedef struct sli_lp_row {
	size_t first, n;	/* its entries in idx/val */
	sli_lp_sense sense;
	double rhs;
	const char *name;	/* NULL, or a name kept in the lp (diagnostics) */
} sli_lp_row;

typedef struct sli_lp {
	SL_VEC(double) obj, lb, ub;
	SL_VEC(unsigned char) binary;
	SL_VEC(sli_lp_row) rows;
	SL_VEC(uint32_t) idx;
	SL_VEC(double) val;
	SL_VEC(char *) names;	/* row names owned here */
	SL_VEC(char *) colnames;	/* per column, or empty: none (owned) */
	double obj_const;
	/* the names the exports give the problem and its objective (static
	 * strings; NULL: none) */
	const char *prob_name, *obj_name;
	/*
	 * the solver sees the objective times obj_scale (0: 1), so that its
	 * tolerances meet coefficients of order one; results come back in
	 * the lp's own units, and the exports are written unscaled
	 */
	double obj_scale;
	/*
	 * the solver starts from its own first basis (every row basic), not
	 * from one with the agreement columns basic (backend_glpk.c, crash):
	 * set by decompose.c on every class of a chain with a lazy class,
	 * whose many warm solves after the first ran slower from where that
	 * one led, and whose other classes' answers the crash made dearer
	 * to the export (1 layer on 8x8 with sub-axes: 16%)
	 */
	bool slack_basis;
} sli_lp;

void sli_lp_init(sli_lp *lp);
void sli_lp_fini(sli_lp *lp);
/* A new column; returns its index. */
uint32_t sli_lp_col(sli_lp *lp, double obj, double lb, double ub, bool binary);
/* Names column c, or row r (copies; for the exports and diagnostics). */
void sli_lp_name_col(sli_lp *lp, uint32_t c, const char *name);
void sli_lp_name_row(sli_lp *lp, uint32_t r, const char *name);
/* A new row over n entries; returns its index.  name may be NULL. */
uint32_t sli_lp_row_add(sli_lp *lp, size_t n, const uint32_t *idx,
                        const double *val, sli_lp_sense sense, double rhs,
                        const char *name);
static inline size_t
sli_lp_ncols(const sli_lp *lp)
{
	return lp->obj.n;
}

/*
 * Whether x (one value per column) is within every bound and row of lp,
 * to the absolute tolerance tol, and integral on its binaries.
 */
bool sli_lp_feasible(const sli_lp *lp, const double *x, double tol);

/* Our own statuses; every backend maps its own onto these. */
typedef enum sli_lp_status {
	SLI_LP_OPTIMAL,		/* proven optimal (to the relative gap asked) */
	SLI_LP_FEASIBLE,	/* a solution, optimality not proven: see gap */
	SLI_LP_INFEASIBLE,
	SLI_LP_NO_SOLUTION,	/* time limit without any solution */
	SLI_LP_ERROR		/* the solver failed */
} sli_lp_status;

const char *sli_lp_status_name(sli_lp_status s);
/* The public status (shardlp.h) of a backend's status. */
sl_solve_status sli_lp_public_status(sli_lp_status s);

/* Where a solve is (sli_lp_opts.progress). */
typedef struct sli_lp_progress {
	const char *phase;	/* "blocks": a decomposed solve's forward
				 * pass; "refining": the options its chain
				 * picks made exact; "whole": the model in
				 * one branch and cut */
	size_t block, nblocks;	/* the block at hand (from 1) of; 0 of 0
				 * for "whole" */
	size_t nsolves;		/* solves so far */
	double seconds;		/* since the solve began */
	size_t nodes;		/* the branch and cut at hand: its nodes so
				 * far; 0: none under way */
	double gap;		/* its relative gap, -1: no point yet */
} sli_lp_progress;

/*
 * The limits of one solve.  time_limit counts from the call; deadline is
 * an instant on sli_lp_clock() that the caller's whole task must end by
 * (a chain of solves shares one); the earlier of the two holds.  Both
 * are hard: the backend checks the clock inside its loops.
 */
typedef struct sli_lp_opts {
	double time_limit;	/* seconds from the call, <= 0: none */
	double deadline;	/* sli_lp_clock() instant, <= 0: none */
	double gap;		/* relative MIP gap, e.g. 1e-6 */
	FILE *log;		/* the caller's stream for the solver log, or NULL */
	/* where the solve is (sli_decomp_solve, sli_solve), or NULL */
	void (*progress)(void *arg, const sli_lp_progress *p);
	void *progress_arg;
	/* the backend's branch and cut, at each node it takes up and each
	 * point it finds: its nodes so far and relative gap (-1: no point
	 * yet); or NULL.  Set by the solves that report progress. */
	void (*on_node)(void *arg, size_t nodes, double gap);
	void *on_node_arg;
	const double *start;	/* an incumbent (integral, feasible) or NULL */
	bool presolve;		/* the solver's LP presolver on the first
				 * relaxation (its own work is not timed) */
	bool long_step;		/* the long-step (bound flipping) ratio test
				 * in the dual simplex of the first
				 * relaxation: faster where most columns
				 * are boxed (the IOPDDL models) */
	bool pcost;		/* branch and cut with the hybrid pseudocost
				 * rule (else Driebeck and Tomlin's) */
	bool most_fractional;	/* or (without pcost) on the most
				 * fractional variable first */
	bool lp_only;		/* the relaxation alone: x its optimum, dual
				 * its row duals, status optimal (IOPDDL's
				 * column generation prices with them) */
	/* the work allowed (0: no limit), in simplex iterations, each node
	 * of branch and cut counting as node_its of them: a limit of work,
	 * not time, so that a solve stopped by it ends at the same point on
	 * any machine; it ends as at the time limit */
	double it_limit;
	double node_its;
	/* the size of the answer the result must be exact against, in the
	 * objective's units (the program's, where this is one block of
	 * it; 0: the solve's own optimum): a gain the solver's tolerances
	 * hide matters when it is above 1e-9 of it */
	double obj_ref;
} sli_lp_opts;

typedef struct sli_lp_result {
	sli_lp_status status;
	double objective;	/* of the solution, obj_const included */
	double bound;		/* proven lower bound */
	double gap;		/* (objective - bound) / max(1e-9, |objective|) */
	double seconds;
	double iterations;	/* simplex iterations made */
	double nodes;		/* nodes of branch and cut made */
	double *x;		/* column values (heap, caller frees) or NULL */
	double *dual;		/* lp_only: row duals (heap, caller frees) */
	size_t ndual;
	char message[256];	/* the backend's words on failure */
} sli_lp_result;

typedef enum sli_lp_format { SLI_LP_FORMAT_LP, SLI_LP_FORMAT_MPS } sli_lp_format;

/*
 * A model kept inside the backend between solves, for families of
 * problems that differ in a few bounds and objective coefficients (the
 * decomposition solves one block once per boundary sharding): each solve
 * starts from the last optimal basis.  Opaque; only its backend knows it.
 */
typedef struct sli_lp_session sli_lp_session;

/* A solver behind the formulations: QBE's struct Target, for MILPs. */
typedef struct sli_lp_backend {
	const char *name;
	int (*solve)(const sli_lp *lp, const sli_lp_opts *o, sli_lp_result *r);
	/* Writes the model; 0, or -1 with a message in err. */
	int (*write)(const sli_lp *lp, sli_lp_format f, const char *path,
	             char *err, size_t errlen);
	/*
	 * Incremental solving; open may be NULL (no sessions: call solve).
	 * open copies lp (NULL on failure, message in err); set_col changes
	 * a column's objective coefficient and bounds; resolve solves the
	 * current model as solve does (o->start, when given, a point of the
	 * model with its current bounds); close frees it.
	 */
	sli_lp_session *(*open)(const sli_lp *lp, char *err, size_t errlen);
	void (*set_col)(sli_lp_session *s, uint32_t col, double obj, double lb,
	                double ub);
	int (*resolve)(sli_lp_session *s, const sli_lp_opts *o, sli_lp_result *r);
	void (*close)(sli_lp_session *s);
	/*
	 * May be NULL.  Bases kept by number (slots), for a caller that
	 * comes back to models it solved before: the next solve keeps its
	 * optimal LP basis in slot `keep` (SLI_LP_NO_SLOT: nowhere), and
	 * starts from the basis kept in the first of from[0 .. nfrom - 1]
	 * that holds one, if any, by the primal simplex (the
	 * caller's promise: the bounds are those that basis was optimal
	 * under, so it is primal feasible; the objective may differ).
	 */
	void (*use_slot)(sli_lp_session *s, uint32_t keep, const uint32_t *from,
	                 size_t nfrom);
} sli_lp_backend;

#define SLI_LP_NO_SLOT UINT32_MAX

extern const sli_lp_backend sli_lp_glpk;

/* Seconds on a monotonic clock, for time limits. */
double sli_lp_clock(void);
/* The instant o's limits end at for a call made at t0; INFINITY: none. */
double sli_lp_deadline(const sli_lp_opts *o, double t0);

#endif
