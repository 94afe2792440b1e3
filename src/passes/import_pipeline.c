/*
 * import_pipeline.c - -sdy-import-pipeline (spec/import-passes.md
 * section 1.1): the import passes in Shardy's order, a plain list.
 * Option dedup-functions-fully also applies sharding constraints and
 * imports sharding groups.  A pass is skipped when the module holds none
 * of the ops it acts on (census.h): the output is the same, and
 * each skip saves a walk of the module.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdlib.h>

enum { ALWAYS = 0, PRIVATE = SLI_NEEDS_PRIVATE };

typedef struct step {
	sli_pass_fn *run;
	bool dedup_only;
	unsigned needs;		/* SLI_HAS_* flags (any), PRIVATE, or ALWAYS */
	unsigned makes;		/* SLI_HAS_* flags of ops the pass may create */
} step;

static const step steps[] = {
	{sli_pass_symbol_dce, false, PRIVATE, 0},
	{sli_pass_lift_inlined_meshes, false, ALWAYS, 0},
	{sli_pass_remove_size_one_axes, false, ALWAYS, 0},
	{sli_pass_propagate_sharding_from_func_to_call, false, SLI_HAS_CALL, 0},
	{sli_pass_constant_or_scalar_splitter, false, ALWAYS, 0},
	{sli_pass_symbol_dce, false, PRIVATE, 0},
	{sli_pass_manual_axes_cleanup, false, SLI_HAS_MANUAL, 0},
	{sli_pass_add_data_flow_edges, false, SLI_HAS_DATA_FLOW_OP, SLI_HAS_EDGE},
	{sli_pass_apply_sharding_constraints, true, SLI_HAS_CONSTRAINT | SLI_HAS_MANUAL,
	 SLI_HAS_CONSTRAINT},
	{sli_pass_sharding_group_import, true, SLI_HAS_GROUP, 0},
};

/* Whether a step with these needs has work in m (census *c). */
bool
sli_step_needed(sl_module *m, unsigned needs, unsigned c)
{
	if (needs == ALWAYS)
		return true;
	if ((needs & PRIVATE) && sli_has_private_symbol(m))
		return true;
	return (needs & c & ~PRIVATE) != 0;
}

int
sli_import_pipeline_run(sl_module *m, bool dedup, unsigned *census)
{
	sli_pass_opts defaults;
	sli_pass_opts_init(&defaults);
	for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
		if (steps[i].dedup_only && !dedup)
			continue;
		if (!sli_step_needed(m, steps[i].needs, *census))
			continue;
		if (steps[i].run(m, &defaults))
			return -1;
		*census |= steps[i].makes;
	}
	return 0;
}

int
sli_pass_import_pipeline(sl_module *m, const sli_pass_opts *opts)
{
	unsigned census = sli_census(m);
	return sli_import_pipeline_run(m, opts->pipeline.dedup_fully, &census);
}
