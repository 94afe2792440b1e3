/*
 * run.c - a method between Shardy's import and export steps (shardlp.h):
 * the import steps of -sdy-propagation-pipeline run first, the caller
 * then runs one method on the imported module (a greedy propagation pass
 * or the ILP), and the export steps run last.  Greedy and ILP results are
 * thus two answers about the same imported program, and each leaves the
 * module Shardy's pipeline would print.  A module already imported (it
 * holds data-flow edges) skips the import steps.
 */
#include "shardlp.h"

#include "passes/census.h"
#include "pipeline/pipeline.h"
#include "util.h"

struct sl_run {
	sl_module *m;
	sli_pipeline_state s;
};

sl_run *
sl_run_import(sl_module *m)
{
	sl_run *r = sli_xcalloc(1, sizeof *r);
	r->m = m;
	/*
	 * A module that holds data-flow edges is imported already (the input
	 * of a propagation pass, as Shardy's tests write them): importing it
	 * again would put a second edge on every edge's owner.  One with
	 * func edges was imported with dedup-functions-fully (only that
	 * import adds them), so its export sinks them as that one's would.
	 */
	sli_pipeline_start(&r->s, m, false, true);
	if (r->s.census & SLI_HAS_FUNC_EDGE)
		r->s.mode = (r->s.mode & ~SLI_WHEN_NO_DEDUP) | SLI_WHEN_DEDUP;
	if (r->s.census & (SLI_HAS_EDGE | SLI_HAS_FUNC_EDGE))
		return r;
	if (sli_pipeline_run(m, &sli_import_steps, &r->s)) {
		free(r);
		return NULL;
	}
	return r;
}

int
sl_run_export(sl_run *r)
{
	/* the method may have made ops the census has not seen (a greedy
	 * pass turns groups in conflict into constraints) */
	r->s.census |= sli_census(r->m);
	return sli_pipeline_run(r->m, &sli_export_steps, &r->s);
}

void
sl_run_free(sl_run *r)
{
	free(r);
}
