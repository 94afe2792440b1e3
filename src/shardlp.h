/*
 * shardlp.h - the public interface of libshardlp.
 *
 * A context (sl_context) owns interned names, uniqued types and the
 * diagnostic sink; a module (sl_module) owns everything parsed into it and
 * dies with sl_module_free.  The library never prints and never exits:
 * problems reach the sink as sl_diag records and functions return -1 or
 * NULL; output goes only to a FILE * the caller passes.
 *
 * Sections: contexts and diagnostics; modules (parse, verify, print);
 * passes (propagation included); the cost model; the ILP; sharding
 * rules.  Handles (sl_context, sl_module, sl_assignment) are opaque;
 * options and results are plain structs, filled by their _init function
 * and then by the caller.  The programs shardlp and shardlp-opt use
 * nothing else.
 */
#ifndef SL_SHARDLP_H
#define SL_SHARDLP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An interned name: compare with ==, read with sl_sym_str. 0 is "". */
typedef uint32_t sl_sym;

typedef struct sl_context sl_context;
typedef struct sl_module sl_module;

typedef enum sl_severity {
	SL_DIAG_ERROR,
	SL_DIAG_WARNING,
	SL_DIAG_REMARK,
	SL_DIAG_NOTE
} sl_severity;

/* A source position: file name symbol, 1-based line and byte column. */
typedef struct sl_loc {
	sl_sym file;
	uint32_t line, col;
} sl_loc;

typedef struct sl_diag {
	sl_severity severity;
	sl_loc loc;		/* line 0: no location */
	const char *message;	/* valid during the callback only */
} sl_diag;

typedef void sl_diag_fn(void *userdata, const sl_diag *diag);

/*
 * The library never prints.  When it must stop the process (out of
 * memory, a broken internal invariant) it calls the fatal hook with a
 * message, then aborts; without a hook it aborts silently.  Programs set
 * it once, first thing in main.
 */
typedef void sl_fatal_fn(const char *message);
void sl_set_fatal_hook(sl_fatal_fn *fn);

/* Creates a context; diagnostics are dropped until a sink is set. */
sl_context *sl_context_new(void);
void sl_context_free(sl_context *ctx);
void sl_context_set_diag(sl_context *ctx, sl_diag_fn *fn, void *userdata);
/* Number of errors reported through ctx since it was created. */
unsigned sl_context_error_count(const sl_context *ctx);

sl_sym sl_sym_intern(sl_context *ctx, const char *s, size_t n);
const char *sl_sym_str(const sl_context *ctx, sl_sym sym);

/* Formats a diagnostic as "file:line:col: error: message". */
void sl_diag_format(const sl_context *ctx, const sl_diag *d, FILE *out);

/*
 * Parses MLIR text (the sdy + StableHLO subset) into a new module.
 * `name` is used in locations.  Returns NULL after reporting errors.
 * The text need not stay alive after the call.
 */
sl_module *sl_module_parse(sl_context *ctx, const char *name,
                           const char *text, size_t len);
/* As sl_module_parse, numbering lines from first_line (for split inputs). */
sl_module *sl_module_parse_at(sl_context *ctx, const char *name,
                              const char *text, size_t len, unsigned first_line);
/* Reads and parses a file ("-" is stdin). */
sl_module *sl_module_parse_file(sl_context *ctx, const char *path);
/*
 * Reads the rest of stream f into one block from malloc, NUL-terminated,
 * its length in *len (a regular file in a block of its size, made
 * resident at once).  Returns NULL with errno ENOMEM or EIO.
 */
char *sl_read_text(FILE *f, size_t *len);
void sl_module_free(sl_module *m);

/*
 * Writes m as a sharding problem in XML, the <shardlp-problem> of
 * shardlp-xml(5): its meshes, its ops, each tensor's type, shape, element
 * type and sharding, each op's rule when it carries one.  source names the
 * input (may be NULL).  sl_module_parse reads the document back into the
 * same program.  Returns 0, or -1 on a write error.
 */
int sl_module_write_xml(sl_module *m, FILE *out, const char *source);
/* One method's result on a program, as <result-of> writes it. */
typedef struct sl_method_result {
	const char *method, *status;
	/* seconds, but peak_bytes (per device); NAN: none */
	double cost, peak_bytes, communication, compute, seconds;
} sl_method_result;
/* As sl_module_write_xml, with a <result-of> per result after the ops;
 * m may be NULL (the results alone). */
int sl_module_write_xml_results(sl_module *m, FILE *out, const char *source,
                                const sl_method_result *r, size_t n);
/*
 * Writes a Graphviz graph of one program as n methods shard it: a node
 * per op of its first function and per argument, an edge per use with
 * the tensor's sharding in mods[0]; red where another module (same
 * program, same steps) shards the tensor otherwise, labelled with each
 * method's (names[i]) sharding.  0, or -1 on a write error.
 */
int sl_modules_write_dot(FILE *out, sl_module *const *mods,
                         const char *const *names, size_t n);
/* Validates a shardlp XML document (mesh description, solve report or
 * sharding problem) against the schema: 0, or -1 after located errors. */
int sl_xml_validate(sl_context *ctx, const char *name, const char *text,
                    size_t len);

/* Checks every invariant of the sdy dialect; 0 when valid, else -1. */
int sl_module_verify(sl_module *m);

typedef struct sl_print_opts {
	bool debuginfo;		/* print loc(...) as -mlir-print-debuginfo */
	bool generic;		/* print every op in the generic form */
	bool mhlo;		/* print StableHLO ops as their MHLO counterparts */
} sl_print_opts;

/* Prints the module as MLIR would; returns 0, or -1 on a write error. */
int sl_module_print(const sl_module *m, FILE *out, const sl_print_opts *opts);

/*
 * Passes, named by their shardlp-opt flag without the dash
 * ("sdy-basic-propagate"); options as "key=value key2=value" or
 * "{key=value}".  sl_pass_run returns 0, -1 after diagnostics, or -2 when
 * the pass or an option is unknown, or an option's value is bad (with a
 * message in err).
 */
int sl_pass_run(sl_module *m, const char *name, const char *options,
                char *err, size_t errlen);
bool sl_pass_exists(const char *name);
/*
 * Verify-each: with on, the pipelines (sdy-import-pipeline,
 * sdy-propagation-pipeline) verify the module after each of their steps
 * and fail, naming the step, when it does not verify.  Off by default;
 * the environment variable SHARDLP_VERIFY_EACH=1 turns it on for every
 * context.
 */
void sl_context_set_verify_each(sl_context *ctx, bool on);
/* The i-th pass of the table (NULL past the end), with its summary. */
const char *sl_pass_name(size_t i, const char **summary);

/*
 * A method between Shardy's import and export steps.  sl_run_import runs
 * on m the import steps of sdy-propagation-pipeline (the call graph's
 * included) and returns the run, or NULL after diagnostics; the caller
 * then runs one method on m (a propagation pass with sl_pass_run, or
 * sl_solve), and sl_run_export runs the pipeline's export steps (0, or -1
 * after diagnostics).  Every method sees the same imported program, and
 * its output is the module Shardy's pipeline would print.  A module that
 * holds sdy.data_flow_edge ops is taken as imported already and skips the
 * import steps.  sl_run_free frees the run (not m), exported or not.
 */
typedef struct sl_run sl_run;
sl_run *sl_run_import(sl_module *m);
int sl_run_export(sl_run *r);
void sl_run_free(sl_run *r);

/*
 * Auto-sharding.  sl_module_set_mesh gives m the mesh spec, "AXIS=SIZE,..."
 * (e.g. "data=2,model=4"), as `sdy.mesh @mesh` when m has none, and
 * returns 1; when m has a mesh it keeps it, warns through the sink and
 * returns 0, unless replace: then its single mesh takes the spec's axes
 * (1; the shardings that name other axes then fail verification).  -1
 * with a message in err for a bad spec, or several meshes to replace.
 */
int sl_module_set_mesh(sl_module *m, const char *spec, bool replace,
                       char *err, size_t errlen);
/*
 * Pins dimension DIM of the main function's arguments ARGS (a number, a
 * range N-M, or "*") to the mesh axes named, spec "ARGS:DIM=AXIS[,AXIS]":
 * a closed dimension, the others open.  An argument with a sharding of
 * its own, without that dimension or whose size does not divide by the
 * axes' is left as it is, with a diagnostic.  Returns how many arguments
 * it pinned, or -1 with a message in err (bad spec, no single mesh).
 */
int sl_module_pin_args(sl_module *m, const char *spec, char *err, size_t errlen);
/* How many values (arguments, results, op results) carry a sharding. */
size_t sl_module_sharding_count(sl_module *m);

const char *sl_version(void);

/* {====================================================================
 * The cost model (shardlp-cost(7))
 * ===================================================================== */

#define SL_COST_MAX_AXES 8	/* mesh axes (and --axis entries) it takes */

#define SL_COST_MAX_TYPES 8	/* per-element-type FLOP/s entries */

/* The links along one mesh axis, by name. */
typedef struct sl_cost_axis {
	const char *name;	/* not copied: must outlive its use */
	double bandwidth;	/* bytes/s one device sends; 0: the default */
	double latency;		/* seconds per collective step; < 0: the default */
} sl_cost_axis;

/* A device's peak FLOP/s for one element type ("bf16", "f32", ...). */
typedef struct sl_cost_flops {
	const char *type;	/* not copied: must outlive its use */
	double flops;
} sl_cost_flops;

#define SL_COST_BUDGET_HBM (-1.0)	/* memory_budget: the device's HBM */

/*
 * The parameters of the cost model (the cluster): a plain struct, set by
 * sl_cost_params_init to the default cluster of shardlp-cost(7) and then
 * by the caller.  SI units: bytes, seconds, FLOP/s; sizes per device.
 */
typedef struct sl_cost_params {
	double bandwidth;	/* bytes/s of an axis without a link of its own */
	double latency;		/* seconds per collective step, likewise */
	double flops;		/* peak FLOP/s of a type without an entry */
	double hbm;		/* bytes of memory per device; 0: unknown */
	double memory_budget;	/* peak live bytes per device; 0: none;
				 * SL_COST_BUDGET_HBM (default): the hbm */
	bool conservative;	/* forbid non-divisible shardings */
	bool sub_axes;		/* shardings may use pieces of an axis */
	bool sub_axes_primes;	/* with sub_axes: every prime piece, not only
				 * the parts the program's sizes use */
	/* link overrides; for a name given twice the last entry wins */
	sl_cost_axis axes[2 * SL_COST_MAX_AXES];
	uint32_t naxes;
	sl_cost_flops type_flops[SL_COST_MAX_TYPES];
	uint32_t ntype_flops;
	bool sub_axes_anywhere;	/* with sub_axes, not primes: every tensor may
				 * take a part of an axis, not only those whose
				 * sizes, reshape or pin use one */
} sl_cost_params;

void sl_cost_params_init(sl_cost_params *p);

/* Parameters the user gave, which a mesh description does not replace. */
enum {
	SL_COST_GIVEN_MEMORY_BUDGET = 1u << 0,
	SL_COST_GIVEN_FLOPS = 1u << 1,	/* flops and type_flops */
	SL_COST_GIVEN_HBM = 1u << 2
};

/*
 * Reads the XML mesh description at path (shardlp-xml(5)), holds it
 * against m's sdy.mesh and applies it to *p: the weights and the budget
 * it gives replace p's, except those whose SL_COST_GIVEN_* bit is in
 * keep; its links come before p's axes, which therefore win.  The new
 * link names live in ctx, which must outlive *p.  Returns 0, or -1
 * after located diagnostics (p untouched).
 */
int sl_cost_params_read_mesh_xml(sl_context *ctx, const char *path,
                                 const sl_module *m, sl_cost_params *p,
                                 unsigned keep);

/* The collectives a cost counts, by kind (sl_cost_parts). */
enum { SL_COLL_ALL_GATHER, SL_COLL_ALL_TO_ALL, SL_COLL_ALL_REDUCE,
       SL_COLL_REDUCE_SCATTER, SL_COLL_COLLECTIVE_PERMUTE, SL_COLL_KINDS };

/* A cost (an estimated step time) and its components, per device. */
typedef struct sl_cost_parts {
	double compute, communication;	/* seconds */
	double total;			/* seconds: their sum */
	double peak_bytes;	/* peak live bytes per device */
	double budget;		/* the memory budget held against it; 0: none */
	/* per SL_COLL_* kind: the collectives the export emits and the
	 * bytes each device sends in them */
	double ncoll[SL_COLL_KINDS], coll_bytes[SL_COLL_KINDS];
} sl_cost_parts;

/*
 * Scores the shardings m carries under p (NULL: defaults) into *out.
 * Returns 0, or -1 when m cannot be scored (no mesh, an op without a
 * valid assignment; diagnostics where located).
 */
int sl_cost_eval(sl_module *m, const sl_cost_params *p, sl_cost_parts *out);

/*
 * The sharding of every tensor of a module as the cost model reads it,
 * for comparing two modules of one program.  sl_assignment_read returns
 * a new object (free with sl_assignment_free; it holds no pointer into
 * m), or NULL after diagnostics.
 */
typedef struct sl_assignment sl_assignment;

sl_assignment *sl_assignment_read(sl_module *m, const sl_cost_params *p);
void sl_assignment_free(sl_assignment *a);
/* Tensors sharded differently in a and b; -1 when either is NULL or
 * they do not have the same tensors. */
long sl_assignment_diff(const sl_assignment *a, const sl_assignment *b);

/* }==================================================================== */

/* {====================================================================
 * Optimal shardings by integer linear programming
 * ===================================================================== */

typedef enum sl_solve_status {
	SL_SOLVE_OPTIMAL,	/* proven optimal (to the gap asked) */
	SL_SOLVE_FEASIBLE,	/* a solution, optimality not proven */
	SL_SOLVE_INFEASIBLE,
	SL_SOLVE_NO_SOLUTION,	/* the time limit ended it without one */
	SL_SOLVE_ERROR		/* the solver failed */
} sl_solve_status;

/* "optimal", "feasible", "infeasible", "timelimit", "error". */
const char *sl_solve_status_name(sl_solve_status s);

/* Seconds on the monotonic clock of sl_solve_opts.deadline. */
double sl_solve_clock(void);

#define SL_SOLVE_MAX_POINTS 16	/* sl_solve_opts.points taken */

/* How far a solve has gone (sl_solve_opts.progress). */
typedef struct sl_solve_progress {
	const char *phase;	/* a decomposed solve: "blocks", the forward
				 * pass, block by block; "refining", the
				 * options the chain picks made exact, from
				 * the last block down.  "whole": the model
				 * in one branch and cut (no chain, or
				 * no_decompose) */
	size_t block;		/* the block at hand, from 1 (0: whole) */
	size_t nblocks;		/* (0: whole) */
	size_t nsolves;		/* solver runs so far */
	double seconds;		/* since sl_solve was called */
	/* reported again at each node of a branch and cut under way */
	size_t nodes;		/* its nodes so far; 0: none under way */
	double gap;		/* its relative gap (|point - bound| / |point|),
				 * -1: no point yet */
} sl_solve_progress;

typedef struct sl_solve_opts {
	sl_cost_params cost;
	double time_limit;	/* seconds from the call; <= 0: none */
	double deadline;	/* an sl_solve_clock() instant; <= 0: none */
	double gap;		/* relative optimality gap to stop at */
	/* where the solver's log goes (the caller's stream), NULL: nowhere */
	FILE *log;
	bool no_decompose;	/* one whole model, not a chain of blocks */
	const char *write_lp, *write_mps;	/* export the model there */
	/* an incumbent: a module of the same program whose shardings are
	 * the answer when time runs out first, or NULL; not modified */
	sl_module *start;
	/*
	 * other results of the same program (the greedy strategies', start
	 * among them or not), or NULL: the model's mesh axes are cut where
	 * their sub-axes start and end, so that each is a point of the model
	 * (shardlp-cost(7), "The model of a program"); not modified
	 */
	sl_module *const *points;
	size_t npoints;
	/* a solution report in glpsol's printable layout (every row and
	 * column of the whole model, named as in write_lp, with its value),
	 * to the caller's stream, or NULL */
	FILE *solution_report;
	/* called as a decomposed solve goes, on the calling thread (NULL:
	 * never): at each block of the forward pass and each solve of the
	 * refinement; it is told, it changes nothing */
	void (*progress)(void *arg, const sl_solve_progress *p);
	void *progress_arg;
} sl_solve_opts;

void sl_solve_opts_init(sl_solve_opts *o);

typedef struct sl_solve_result {
	sl_solve_status status;
	sl_cost_parts parts;	/* the evaluator's score of the answer */
	double objective, bound, gap, seconds;
	size_t ncols, nrows, nbinaries;	/* of the model (summed over blocks) */
	size_t nblocks;		/* blocks of the chain; 0: one whole model */
	size_t nclasses;	/* structurally distinct blocks */
	size_t nsolves;		/* solver runs */
	bool start_used;	/* the incumbent was a point of the model */
	bool from_start;	/* the answer is the incumbent */
	char start_note[256];	/* why the incumbent was not used, or "" */
} sl_solve_result;

/*
 * Finds shardings of minimum cost for m and writes them onto m.  The
 * limits in o bound the whole call.  Returns 0 with a solution, 1 when
 * the problem is infeasible or time ran out without a solution, -1 on
 * bad input or a solver error; diagnostics through m's context.  *r is
 * filled in every case.
 */
int sl_solve(sl_module *m, const sl_solve_opts *o, sl_solve_result *r);

/*
 * Whether each of pts[0..n) (modules of the same program as m, after the
 * same import steps: greedy results) is a point of the model sl_solve
 * builds for m under p with the same modules as its points (their
 * sub-axes cut the mesh axes), the memory budget aside: in[i] 1 or 0, with the
 * reason in why[i] when 0 (a NULL module: 0).  The ILP is at most the
 * cost of every such point.  Returns 0, or -1 after diagnostics when m
 * has no model.
 */
int sl_solve_in_model(sl_module *m, const sl_cost_params *p, sl_module *const *pts,
                      size_t n, int *in, char (*why)[128]);

/*
 * Writes the XML report (shardlp-xml(5)) of r on the solved module m to
 * out: the result and every tensor of the cost model under p (NULL:
 * defaults) with its sharding; file names the input.  Returns 0, or -1
 * on a write error.
 */
int sl_solve_write_xml(FILE *out, const char *file, sl_module *m,
                       const sl_solve_result *r, const sl_cost_params *p);

/* }==================================================================== */

/* {====================================================================
 * Sharding rules (spec/sharding-rules.md)
 * ===================================================================== */

typedef struct sl_rules_opts {
	bool conservative;	/* the rules of conservative propagation */
	bool explain;		/* per factor: size, kind, the dims it maps */
	bool count_only;	/* print nothing, only count */
} sl_rules_opts;

typedef struct sl_rules_count {
	size_t ops, rules, factors;
} sl_rules_count;

/*
 * Writes to out the sharding rule of every op inside the functions of m,
 * one line per op in source order: "file:line:col: name RULE" or
 * "... name no rule".  Counts them into *count (may be NULL).  Returns
 * 0, or -1 when some op's rule is in error (diagnostics through m's
 * context; the other ops are still written).  Write errors are left on
 * out (ferror).
 */
int sl_rules_print(sl_module *m, FILE *out, const sl_rules_opts *o,
                   sl_rules_count *count);

/* }==================================================================== */

/* {====================================================================
 * The IOPDDL benchmark (shardlp(1) iopddl): problems read by
 * formats/iopddl.h (struct sl_iopddl), scored and solved here.
 * ===================================================================== */

typedef struct sl_iopddl sl_iopddl;

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
	/* the searches' work, in seconds of the reference machine (the
	 * same answer on any machine and load); <= 0: from the time limit */
	double work_limit;
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
	double work;		/* the searches' work, in reference seconds */
	size_t nodes, edges;	/* left after the reductions */
	size_t ncols, nrows, nbinaries;	/* of the ILP; 0 when not built */
	int64_t heuristic_cost;	/* of the local search's answer; -1: none */
	bool from_heuristic;	/* the answer is the heuristics' (local search,
				 * Lagrangian), not the ILP's own */
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

/* }==================================================================== */

#ifdef __cplusplus
}
#endif
#endif
