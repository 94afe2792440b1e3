/*
 * propagation.c - -sdy-propagation-pipeline (spec/propagation.md 8.1):
 * the import steps with the call graph's, user-priority propagation, and
 * the export steps, in one run of the pipeline runner.
 * Option dedup-functions-fully selects function data-flow edges instead
 * of inlining calls into named computations.
 */
#include "pipeline/pipeline.h"
#include "propagation/propagation.h"

/*
 * Shardy forces keep-sharding-rules on here, and sdy-drop-sharding-rules
 * drops the rules at the end; no step in between reads them and this
 * pipeline writes no dumps, so the pass drops them itself (the same
 * output, without attaching a rule attribute to every op): the defaults,
 * keep-sharding-rules false.  Groups in conflict insert constraints.
 */
static const sli_step propagate[] = {
	{"sdy-user-priority-propagate", sli_pass_user_priority_propagate, NULL, 0, 0,
	 SLI_HAS_CONSTRAINT, SLI_HAS_GROUP, 0},
};

static const sli_pipeline propagate_steps = {"propagate", propagate, 1};

int
sli_pass_propagation_pipeline(sl_module *m, const sli_pass_opts *opts)
{
	sli_pipeline_state s;
	sli_pipeline_start(&s, m, opts->pipeline.dedup_fully, true);
	if (sli_pipeline_run(m, &sli_import_steps, &s) ||
	    sli_pipeline_run(m, &propagate_steps, &s))
		return -1;
	return sli_pipeline_run(m, &sli_export_steps, &s);
}
