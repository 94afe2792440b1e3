/*
 * import_pipeline.c - -sdy-import-pipeline (spec/import-passes.md
 * section 1.1): the import passes in Shardy's order, a plain list.
 * Option dedup-functions-fully also applies sharding constraints and
 * imports sharding groups.
 */
#include "passes/pass.h"

#include <stdlib.h>
#include <stdio.h>
#include <time.h>
static double tnow(void){struct timespec t;clock_gettime(CLOCK_PROCESS_CPUTIME_ID,&t);return t.tv_sec+t.tv_nsec*1e-9;}

typedef struct step {
	sli_pass_fn *run;
	bool dedup_only;
} step;

static const step steps[] = {
	{sli_pass_symbol_dce, false},
	{sli_pass_lift_inlined_meshes, false},
	{sli_pass_remove_size_one_axes, false},
	{sli_pass_propagate_sharding_from_func_to_call, false},
	{sli_pass_constant_or_scalar_splitter, false},
	{sli_pass_symbol_dce, false},
	{sli_pass_manual_axes_cleanup, false},
	{sli_pass_add_data_flow_edges, false},
	{sli_pass_apply_sharding_constraints, true},
	{sli_pass_sharding_group_import, true},
};

int
sli_pass_import_pipeline(sl_module *m, const sli_pass_opts *opts)
{
	bool dedup = sli_pass_opt_bool(opts, "dedup-functions-fully", false);
	for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
		if (steps[i].dedup_only && !dedup)
			continue;
		double t0=tnow();
		if (steps[i].run(m, NULL))
			return -1;
		if (getenv("SLT")) fprintf(stderr, "import %zu %.4f\n", i, tnow()-t0);
	}
	return 0;
}
