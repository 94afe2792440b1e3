/*
 * pipeline.h - pipelines as plain lists of steps, and the one runner
 * (QBE's pass list in main.c).  A step is a pass (pass.h) with its typed
 * options and the conditions under which it runs: the mode of the run
 * (dedup-functions-fully, import of the call graph) and the census of the
 * module (census.h), so that a step with nothing to act on is skipped
 * without a walk.  With verify-each on, the runner verifies the module
 * after every step, and without it after the steps whose verify_if the
 * census meets, and names the step that broke it.
 * Ownership: lists are static and const; the caller owns the run state.
 */
#ifndef SL_PIPELINE_PIPELINE_H
#define SL_PIPELINE_PIPELINE_H

#include "passes/census.h"
#include "passes/pass.h"

/* The mode of a run; a step runs only if the mode holds all its bits. */
enum {
	SLI_WHEN_DEDUP = 1u << 0,	/* dedup-functions-fully */
	SLI_WHEN_NO_DEDUP = 1u << 1,	/* not dedup-functions-fully */
	SLI_WHEN_CALLS = 1u << 2	/* the call graph is imported too */
};

/* Conditions on the module besides the SLI_HAS_* census flags. */
enum {
	SLI_NEEDS_FUNCS_MOVE = 1u << 17,	/* sli_funcs_may_move */
	SLI_NEEDS_FUNC_ATTRS = 1u << 18,	/* calls, or function attributes to strip */
	SLI_NEEDS_NONE_OF = 1u << 19		/* none of the SLI_HAS_* flags given */
};

typedef struct sli_step {
	const char *name;	/* the pass's flag, named by verify-each */
	sli_pass_fn *run;
	/* the step's typed options: sets them over the defaults (strings
	 * static); NULL: the defaults */
	void (*options)(sli_pass_opts *o);
	unsigned when;		/* SLI_WHEN_* bits the mode must hold */
	/* SLI_HAS_* flags of which one must be in the census, SLI_NEEDS_*
	 * conditions; 0: always */
	unsigned needs;
	unsigned makes;		/* SLI_HAS_* flags of ops the step may create */
	unsigned makes_if;	/* makes only if the census holds one of these; 0: always */
	/*
	 * SLI_HAS_* flags: the module is verified after the step, as with
	 * verify-each, when its census held one of them before the step
	 * (a module the step breaks so: Shardy stops there); 0: only with
	 * verify-each
	 */
	unsigned verify_if;
} sli_step;

typedef struct sli_pipeline {
	const char *name;
	const sli_step *steps;
	size_t nsteps;
} sli_pipeline;

/* The state of one run, kept across the pipelines it chains. */
typedef struct sli_pipeline_state {
	unsigned mode;		/* SLI_WHEN_* */
	unsigned census;	/* SLI_HAS_*; grows with what steps make */
	bool verify_each;
} sli_pipeline_state;

/*
 * The import steps (spec/import-passes.md 1.1, then with SLI_WHEN_CALLS
 * the call graph's, spec/propagation.md 8.1) and the export steps
 * (propagation.md 8.1) in Shardy's order; any caller runs them around a
 * propagation.
 */
extern const sli_pipeline sli_import_steps, sli_export_steps;

/* Starts a run on m: its census, its mode, and whether verify-each is on
 * (sl_context_set_verify_each, or SHARDLP_VERIFY_EACH=1). */
void sli_pipeline_start(sli_pipeline_state *s, sl_module *m, bool dedup, bool calls);
/* Runs the steps of p that s calls for: 0, or -1 after diagnostics (a
 * step failed, or with verify-each the module does not verify after it). */
int sli_pipeline_run(sl_module *m, const sli_pipeline *p, sli_pipeline_state *s);

/* -sdy-import-pipeline and -sdy-propagation-pipeline. */
int sli_pass_import_pipeline(sl_module *m, const sli_pass_opts *opts);
int sli_pass_propagation_pipeline(sl_module *m, const sli_pass_opts *opts);
/* -sdy-export-pipeline (export.c). */
int sli_pass_export_pipeline(sl_module *m, const sli_pass_opts *opts);

#endif
