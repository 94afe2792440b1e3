/*
 * cli_solve.h - what `shardlp solve` and `shardlp compare` share: the
 * cost-model options (shardlp-cost(7), defined in cmd_solve.c) and the
 * greedy strategies that give the ILP its incumbent (cmd_compare.c).
 */
#ifndef SL_CLI_CLI_SOLVE_H
#define SL_CLI_CLI_SOLVE_H

#include "cli.h"
#include "cli_mesh.h"

#include <getopt.h>

enum {
	CLI_OPT_REMOVED_WEIGHT = 2000,	/* --memory-weight and co., gone */
	CLI_OPT_FLOPS,
	CLI_OPT_HBM,
	CLI_OPT_MEMORY_BUDGET,
	CLI_OPT_DIVISIBLE_ONLY,
	CLI_OPT_CONSERVATIVE,		/* deprecated spelling of --divisible-only */
	CLI_OPT_AXIS,
	CLI_OPT_MESH_XML,
	CLI_OPT_SUB_AXES
};

#define CLI_COST_LONGOPTS \
	{"memory-weight", required_argument, NULL, CLI_OPT_REMOVED_WEIGHT}, \
	{"comm-weight", required_argument, NULL, CLI_OPT_REMOVED_WEIGHT}, \
	{"compute-weight", required_argument, NULL, CLI_OPT_REMOVED_WEIGHT}, \
	{"flops", required_argument, NULL, CLI_OPT_FLOPS}, \
	{"hbm", required_argument, NULL, CLI_OPT_HBM}, \
	{"memory-budget", required_argument, NULL, CLI_OPT_MEMORY_BUDGET}, \
	{"divisible-only", no_argument, NULL, CLI_OPT_DIVISIBLE_ONLY}, \
	{"conservative", no_argument, NULL, CLI_OPT_CONSERVATIVE}, \
	{"axis", required_argument, NULL, CLI_OPT_AXIS}, \
	{"mesh-xml", required_argument, NULL, CLI_OPT_MESH_XML}, \
	{"cluster", required_argument, NULL, CLI_OPT_MESH_XML}, \
	{"sub-axes", optional_argument, NULL, CLI_OPT_SUB_AXES}, \
	CLI_MESH_LONGOPTS

typedef struct cli_cost_opts {
	sl_cost_params params;
	char *names[SL_COST_MAX_AXES];	/* of the --axis entries */
	uint32_t naxes;
	const char *mesh_xml;	/* --mesh-xml FILE (shardlp-xml(5)) */
	unsigned given;		/* SL_COST_GIVEN_* set on the command line */
	cli_mesh_opts mesh;	/* the auto-sharding options */
} cli_cost_opts;

void cli_cost_opts_init(cli_cost_opts *co);
void cli_cost_opts_fini(cli_cost_opts *co);
/* Handles a cost option (or an auto-sharding one): 0 taken, 1 not a
 * cost option, -1 bad value. */
int cli_cost_option(cli_cost_opts *co, int c, const char *arg);
/*
 * getopt_long that takes the cost options itself: the next other option
 * (optarg set), '?' after a bad cost option value, -1 at the end.  The
 * first call of a command's scan must follow cli_cost_opts_init, which
 * rewinds optind.
 */
int cli_cost_getopt(cli_cost_opts *co, int argc, char **argv, const char *shortopts,
                    const struct option *longopts);
extern const char cli_cost_help[];
/*
 * The command-line parameters into *out, with --mesh-xml (if given) read,
 * held against m's sdy.mesh and applied under them.  0, or -1 after
 * diagnostics through ctx (which must outlive *out).
 */
int cli_cost_params_for(cli_cost_opts *co, sl_context *ctx, const sl_module *m,
                        sl_cost_params *out);

/*
 * The greedy strategies that `compare` lists and `solve` takes its
 * incumbent from, by method name and pass flag (defined in
 * cmd_compare.c).
 */
typedef struct cli_greedy_strategy {
	const char *method, *pass;
} cli_greedy_strategy;

#define CLI_NGREEDY 4
extern const cli_greedy_strategy cli_greedy[CLI_NGREEDY];

typedef struct cli_greedy_result {
	const char *status;	/* ok, error, unscored, unavailable */
	bool scored;
	sl_cost_parts parts;	/* the evaluator's score when scored */
	double seconds;		/* of the propagation */
	sl_module *m;		/* the propagated module (caller frees) or NULL */
	sl_run *run;		/* its run, not yet exported (caller frees) */
} cli_greedy_result;

/*
 * Parses src afresh, applies the auto-sharding options
 * mesh, runs the pipeline's import steps and
 * greedy strategy g on it, and scores it under cost; the export steps
 * are left to cli_method_export, so that the module can first serve as
 * the ILP's incumbent (same import: same tensors).  0 with *out filled (a
 * failing strategy is a status, not an error), -1 when text does not
 * load (diagnostics through ctx).
 */
int cli_greedy_run(sl_context *ctx, const cli_src *src, size_t g,
                   const cli_mesh_opts *mesh, const sl_cost_params *cost,
                   cli_greedy_result *out);

/*
 * The ILP is never worse than greedy: when the evaluator scores the ILP's
 * answer (r->parts) above greedy strategy g's result (its score gp),
 * within the memory budget, that result lay outside the model (a growth
 * the model does not hold, shardlp-cost(7), CAVEATS) and is the answer
 * instead: run again into *out (module and run, the caller's), and r
 * becomes its result (feasible, the model's bound only where it holds).
 * True when so.
 */
bool cli_greedy_instead(sl_context *ctx, const cli_src *src, size_t g,
                        const cli_mesh_opts *mesh, const sl_cost_params *cost,
                        const sl_cost_parts *gp, sl_solve_result *r,
                        cli_greedy_result *out);

/*
 * Runs the export steps of run on m and frees run; with parts, scores
 * the exported module under cost into *parts.  0, or -1 after
 * diagnostics.
 */
int cli_method_export(sl_run *run, sl_module *m, const sl_cost_params *cost,
                      sl_cost_parts *parts);

/*
 * --explicit-reshards (level 1) and --collectives (level 2): after the
 * export steps, Shardy's -sdy-insert-explicit-reshards (full version)
 * and, at level 2, -sdy-reshard-to-collectives on m, so that the module
 * shows the reshards and collectives its shardings need.  0, or -1 after
 * diagnostics.
 */
int cli_explicit_steps(sl_module *m, int level, const char *prog);

/* The methods of a comparison: the ILP first, then the greedy strategies. */
#define CLI_NMETHODS (CLI_NGREEDY + 1)

typedef struct cli_method_row {
	const char *method;
	const char *status;	/* ok, optimal, feasible, error, unscored, ... */
	sl_cost_parts parts;	/* when scored */
	double bound, gap;	/* NAN but for the ILP */
	double seconds;
	bool scored;
	long differ;		/* tensors sharded unlike the ILP's; -1: unknown */
	int in_model;		/* a greedy result: a point of the ILP's model
				 * (1, 0); -1: unknown, or the ILP's row */
	char not_in_model[128];	/* why not, when in_model is 0 */
} cli_method_row;

typedef struct cli_compare_out {
	/* set by the caller */
	bool tell;		/* notes of the auto-sharding options on stderr */
	bool keep_ilp;		/* hand over the ILP's exported module */
	bool keep_all;		/* hand over every method's exported module */
	unsigned methods;	/* bit i: run rows[i]'s method; 0: all.  A row
				 * not run has the status "skipped" */
	/* filled */
	cli_method_row rows[CLI_NMETHODS];
	char start_note[512];	/* why the best greedy result is no incumbent */
	char changed[256];	/* the methods whose score the export changes */
	sl_module *ilp;		/* with keep_ilp, when scored (caller frees) */
	sl_module *mods[CLI_NMETHODS];	/* with keep_all, rows' order, NULL when
					 * not run (caller frees) */
} cli_compare_out;

/*
 * A long solve's progress on standard error (solve's and compare's
 * --progress[=S]): where the decomposed solve is, on a terminal one line
 * rewritten in place from 1 s on, with --progress (every >= 0) also off
 * a terminal, a line every `every` seconds from the start.
 */
typedef struct cli_progress {
	const char *path;	/* in the line */
	bool on, tty;
	double first, every;
	double next;		/* sl_solve_clock() instant of the next line */
	/* the step of the last line (phase, block), and the instant of the
	 * next line within it (a branch and cut's nodes, ticks of a long
	 * simplex run: at most one a second) */
	const char *phase;
	size_t block;
	double next_same;
	bool shown;		/* a line is on the terminal now */
} cli_progress;

/* every < 0: the default (a terminal, and not quiet). */
void cli_progress_init(cli_progress *l, double every, bool quiet);
/* Reports so's solve of path to l (unless l is off, or the default and
 * so's log is on standard error). */
void cli_progress_arm(cli_progress *l, sl_solve_opts *so, const char *path);
/* Erases the line from the terminal, if it is there. */
void cli_progress_done(cli_progress *l);
/* --progress's argument (NULL: none) into *every; -1 after a message. */
int cli_progress_option(const char *cmd, const char *arg, double *every);

/*
 * Every method on src, between the pipeline's import and export steps
 * (the best greedy result as the ILP's incumbent), scored under the cost
 * options co.  An EXIT_* status; out->rows are filled in every case (all
 * "error" when src does not load).
 */
int cli_compare_run(sl_context *ctx, const cli_src *src, const sl_solve_opts *opts,
                    cli_cost_opts *co, cli_compare_out *out);
/*
 * The cost columns of compare's and batch's CSV (shardlp(1)), in order:
 * the step time and its parts in seconds, the peak live bytes per device,
 * whether they exceed the budget (1/0; none without one), whether a
 * greedy result is a point of the ILP's model (1/0; none for the ILP),
 * and per kind of
 * collective its count (one per mesh axis) and the bytes each device
 * sends.  cli_cost_values gives a row's values, NAN where unknown.
 */
#define CLI_COST_NCOLS 16
extern const char *const cli_cost_cols[CLI_COST_NCOLS];
void cli_cost_values(const cli_method_row *r, double v[CLI_COST_NCOLS]);

/*
 * --methods LIST: the methods named in LIST ("ilp", a strategy's name, or
 * "greedy" for the four), as a mask of rows for cli_compare_out.methods;
 * 0 after a message naming the unknown method on stderr.
 */
unsigned cli_methods_parse(const char *prog, const char *list);

#endif
