/*
 * import.c - the import steps (spec/import-passes.md section 1.1) in
 * Shardy's order, and -sdy-import-pipeline, which runs them.  Without
 * SLI_WHEN_CALLS (the pass alone) dedup-functions-fully also applies
 * sharding constraints and imports sharding groups; with it (the
 * propagation pipeline, spec/propagation.md 8.1) the call graph is
 * imported after the data-flow edges, then constraints and groups.
 * A step is skipped when the module holds none of the ops it acts on
 * (census.h): the output is the same, and each skip saves a walk.
 */
#include "pipeline/pipeline.h"

enum {
	DEDUP = SLI_WHEN_DEDUP,
	NO_DEDUP = SLI_WHEN_NO_DEDUP,
	CALLS = SLI_WHEN_CALLS,
	PRIVATE = SLI_NEEDS_PRIVATE
};

static const sli_step steps[] = {
	/* not Shardy's: a composite is a call of its decomposition (composites.c) */
	{"import-composites", sli_pass_import_composites, NULL, 0, SLI_HAS_COMPOSITE, SLI_HAS_CALL,
	 0, 0},
	{"symbol-dce", sli_pass_symbol_dce, NULL, 0, PRIVATE, 0, 0, 0},
	{"sdy-lift-inlined-meshes", sli_pass_lift_inlined_meshes, NULL, 0, 0, 0, 0, 0},
	{"sdy-remove-size-one-axes", sli_pass_remove_size_one_axes, NULL, 0, 0, 0, 0, 0},
	{"sdy-propagate-sharding-from-func-to-call", sli_pass_propagate_sharding_from_func_to_call,
	 NULL, 0, SLI_HAS_CALL, 0, 0, 0},
	{"sdy-constant-or-scalar-splitter", sli_pass_constant_or_scalar_splitter, NULL, 0, 0, 0, 0,
	 0},
	{"symbol-dce", sli_pass_symbol_dce, NULL, 0, PRIVATE, 0, 0, 0},
	{"sdy-manual-axes-cleanup", sli_pass_manual_axes_cleanup, NULL, 0, SLI_HAS_MANUAL, 0, 0, 0},
	/*
	 * on a module that came with edges (written after an import) a new
	 * edge lands on an old one, which does not verify, and the steps
	 * after it would go on with it (a case's sharding was lost so)
	 */
	{"sdy-add-data-flow-edges", sli_pass_add_data_flow_edges, NULL, 0, SLI_HAS_DATA_FLOW_OP,
	 SLI_HAS_EDGE, 0, SLI_HAS_EDGE},
	{"sdy-apply-sharding-constraints", sli_pass_apply_sharding_constraints, NULL, DEDUP,
	 SLI_HAS_CONSTRAINT | SLI_HAS_MANUAL, SLI_HAS_CONSTRAINT, 0, 0},
	{"sdy-sharding-group-import", sli_pass_sharding_group_import, NULL, DEDUP, SLI_HAS_GROUP,
	 0, 0, 0},
	/* the call graph */
	/* on a module that came with func edges, as the edges step above */
	{"sdy-add-func-data-flow-edges", sli_pass_add_func_data_flow_edges, NULL, CALLS | DEDUP, 0,
	 SLI_HAS_FUNC_EDGE, 0, SLI_HAS_FUNC_EDGE},
	{"sdy-flatten-call-graph", sli_pass_flatten_call_graph, NULL, CALLS | NO_DEDUP,
	 SLI_HAS_CALL, 0, 0, 0},
	{"symbol-dce", sli_pass_symbol_dce, NULL, CALLS | NO_DEDUP, PRIVATE, 0, 0, 0},
	/* a func edge on a call's result is left on a named computation's */
	{"sdy-import-func-calls", sli_pass_import_func_calls, NULL, CALLS | NO_DEDUP, SLI_HAS_CALL,
	 SLI_HAS_NAMED | SLI_HAS_DATA_FLOW_OP | SLI_HAS_EDGE, 0, SLI_HAS_FUNC_EDGE},
	{"symbol-dce", sli_pass_symbol_dce, NULL, CALLS | NO_DEDUP, PRIVATE, 0, 0, 0},
	{"sdy-apply-sharding-constraints", sli_pass_apply_sharding_constraints, NULL,
	 CALLS | NO_DEDUP, SLI_HAS_CONSTRAINT | SLI_HAS_MANUAL, SLI_HAS_CONSTRAINT, 0, 0},
	{"sdy-sharding-group-import", sli_pass_sharding_group_import, NULL, CALLS | NO_DEDUP,
	 SLI_HAS_GROUP, 0, 0, 0},
	{"sdy-pre-order-funcs", sli_pass_pre_order_funcs, NULL, CALLS, SLI_NEEDS_FUNCS_MOVE, 0, 0,
	 0},
};

const sli_pipeline sli_import_steps = {"import", steps, sizeof steps / sizeof *steps};

int
sli_pass_import_pipeline(sl_module *m, const sli_pass_opts *opts)
{
	sli_pipeline_state s;
	sli_pipeline_start(&s, m, opts->pipeline.dedup_fully, false);
	return sli_pipeline_run(m, &sli_import_steps, &s);
}
