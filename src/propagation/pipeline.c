/*
 * pipeline.c - -sdy-propagation-pipeline (spec/propagation.md 8.1): the
 * import pipeline, call-graph handling, user-priority propagation with
 * the sharding rules kept, and the export steps, as a plain list.  The
 * partitioner's explicit reshards are out of scope; of its canonicalization
 * only the erasure of unused reshards is done.
 * Option dedup-functions-fully selects function data-flow edges instead
 * of inlining calls into named computations.  As in the import pipeline,
 * a step is skipped when the module holds none of the ops it acts on.
 */
#include "propagation/propagation.h"
#include "passes/passutil.h"

#include <stdlib.h>

enum { ALWAYS, DEDUP, NO_DEDUP };

/* needs: census flags of which one must be present (0: always run);
 * FUNCS: functions may move; ATTRS: calls, or attributes to strip;
 * NONE_OF: none of the flags may be present. */
enum { FUNCS = 1u << 17, ATTRS = 1u << 18, NONE_OF = 1u << 19, PRIV = SLI_NEEDS_PRIVATE };

typedef struct step {
	sli_pass_fn *run;
	int when;
	unsigned needs, makes;
} step;

static const step import_steps[] = {
	{sli_pass_add_func_data_flow_edges, DEDUP, 0, SLI_HAS_FUNC_EDGE},
	{sli_pass_flatten_call_graph, NO_DEDUP, SLI_HAS_CALL, 0},
	{sli_pass_symbol_dce, NO_DEDUP, PRIV, 0},
	{sli_pass_import_func_calls, NO_DEDUP, SLI_HAS_CALL,
	 SLI_HAS_NAMED | SLI_HAS_DATA_FLOW_OP | SLI_HAS_EDGE},
	{sli_pass_symbol_dce, NO_DEDUP, PRIV, 0},
	{sli_pass_apply_sharding_constraints, NO_DEDUP, SLI_HAS_CONSTRAINT | SLI_HAS_MANUAL,
	 SLI_HAS_CONSTRAINT},
	{sli_pass_sharding_group_import, NO_DEDUP, SLI_HAS_GROUP, 0},
	{sli_pass_pre_order_funcs, ALWAYS, FUNCS, 0},
};

/*
 * sdy-update-non-divisible-input-output-shardings without calls and
 * manual computations: only the functions' arguments and results, without
 * a walk of their bodies.
 */
static int
update_function_io(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_update_non_divisible_io(m, false);
	return 0;
}

static const step export_steps[] = {
	{sli_pass_propagate_to_func_results, DEDUP, 0, 0},
	{sli_pass_sink_func_data_flow_edges, DEDUP, 0, 0},
	{sli_pass_export_named_computations, NO_DEDUP, SLI_HAS_NAMED, SLI_HAS_CALL},
	{sli_pass_propagate_to_func_results, NO_DEDUP, 0, 0},
	{sli_pass_unflatten_call_graph, ALWAYS, ATTRS, SLI_HAS_CALL},
	{sli_pass_symbol_dce, ALWAYS, PRIV, 0},
	{sli_pass_sink_data_flow_edges, ALWAYS, SLI_HAS_EDGE | SLI_HAS_DATA_FLOW_OP, 0},
	{sli_pass_remove_sharding_groups, ALWAYS, SLI_HAS_GROUP, 0},
	{sli_pass_sharding_constraint_to_reshard, ALWAYS, SLI_HAS_CONSTRAINT, SLI_HAS_RESHARD},
	{sli_pass_update_non_divisible_input_output_shardings, ALWAYS,
	 SLI_HAS_CALL | SLI_HAS_MANUAL, 0},
	{update_function_io, ALWAYS, NONE_OF | SLI_HAS_CALL | SLI_HAS_MANUAL, 0},
	{sli_pass_remove_sub_axes_in_input_output_shardings, ALWAYS, 0, 0},
	{sli_pass_close_shardings, ALWAYS, 0, 0},
	/*
	 * sdy-drop-sharding-rules comes last in Shardy's pipeline; here the
	 * propagation pass has dropped every rule it did not keep, on every
	 * op of the module, and no export step adds one, so it has nothing
	 * left to do and its walk is saved.
	 */
};

/* A top-level function carries an attribute that unflattening strips. */
static bool
func_attrs(sl_module *m)
{
	sl_sym orig = sli_sym(m, "sdy.original_func_name");
	sl_sym manual = sli_sym(m, "sdy.func_manual_axes");
	sl_block *body = sli_module_body(m);
	for (sl_op *f = body ? body->first : NULL; f; f = f->next)
		if (f->kind == SL_OP_FUNC && (sli_op_attr(f, orig) || sli_op_attr(f, manual)))
			return true;
	return false;
}

static bool
needed(sl_module *m, const step *s, unsigned census)
{
	if (s->needs & FUNCS)
		return sli_funcs_may_move(m);
	if (s->needs & ATTRS)
		return (census & SLI_HAS_CALL) || func_attrs(m);
	if (s->needs & NONE_OF)
		return !(census & s->needs & ~NONE_OF);
	return sli_step_needed(m, s->needs, census);
}

typedef struct dead {
	SL_VEC(sl_op *) ops;
} dead;

static int
find_dead(sl_op *op, void *ud)
{
	dead *d = ud;
	if (op->kind == SL_OP_SDY_RESHARD && op->nresults == 1 && op->results[0].id == 0)
		SL_VEC_PUSH(d->ops, op);
	return 0;
}

/* Erases sdy.reshard ops without uses (canonicalization of item 27). */
static void
erase_dead_reshards(sl_module *m)
{
	dead d = {{0}};
	do {
		d.ops.n = 0;
		sli_compute_use_counts(m->top);
		sli_walk(m->top, find_dead, &d);
		for (size_t i = 0; i < d.ops.n; i++)
			sli_op_erase(d.ops.v[i]);
	} while (d.ops.n);
	SL_VEC_FREE(d.ops);
}

static int
run_steps(sl_module *m, const step *s, size_t n, bool dedup, unsigned *census)
{
	sli_pass_opts defaults;
	sli_pass_opts_init(&defaults);
	for (size_t i = 0; i < n; i++) {
		if ((s[i].when == DEDUP && !dedup) || (s[i].when == NO_DEDUP && dedup))
			continue;
		if (!needed(m, &s[i], *census))
			continue;
		if (s[i].run(m, &defaults))
			return -1;
		*census |= s[i].makes;
	}
	return 0;
}

int
sli_pass_propagation_pipeline(sl_module *m, const sli_pass_opts *opts)
{
	bool dedup = opts->pipeline.dedup_fully;
	unsigned census = sli_census(m);
	if (sli_import_pipeline_run(m, dedup, &census))
		return -1;
	if (run_steps(m, import_steps, sizeof import_steps / sizeof *import_steps, dedup,
	              &census))
		return -1;
	/*
	 * Shardy forces keep-sharding-rules on here, and sdy-drop-sharding-rules
	 * drops the rules at the end; no step in between reads them and this
	 * pipeline writes no dumps, so the pass drops them itself (the same
	 * output, without attaching a rule attribute to every op): the
	 * defaults, keep-sharding-rules false.
	 */
	sli_pass_opts prop_opts;
	sli_pass_opts_init(&prop_opts);
	if (sli_pass_user_priority_propagate(m, &prop_opts))
		return -1;
	if (census & SLI_HAS_GROUP)	/* conflicting groups insert constraints */
		census |= SLI_HAS_CONSTRAINT;
	if (run_steps(m, export_steps, sizeof export_steps / sizeof *export_steps, dedup,
	              &census))
		return -1;
	if (census & SLI_HAS_RESHARD)
		erase_dead_reshards(m);
	return 0;
}
