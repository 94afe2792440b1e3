/*
 * export.c - the export steps (spec/propagation.md 8.1) in Shardy's
 * order, run after a propagation: function results and edges sunk, the
 * call graph restored, constraints turned into reshards, input/output
 * shardings made divisible and closed, unused reshards erased.  The
 * partitioner's explicit reshards are out of scope there; of its
 * canonicalization only the erasure of unused reshards is done.
 *
 * -sdy-export-pipeline is Shardy's export pipeline on its own, with its
 * options (sdy_export_passes.md): the same clean-up passes, then the
 * partitioner's: -sdy-insert-explicit-reshards (its full version with
 * enable-insert-explicit-collectives, and then -canonicalize and
 * -sdy-reshard-to-collectives), -canonicalize, and with
 * remove-all-gather-reduce-scatter-for-cmv1 that pass; the sharding rules
 * are dropped unless keep-sharding-rules.  Meshes are inlined last, as the
 * export_pipeline cases print them.  -canonicalize applies all of its
 * patterns where Shardy selects the reshard or the collective ones.
 */
#include "pipeline/pipeline.h"

#include "passes/passutil.h"

enum {
	DEDUP = SLI_WHEN_DEDUP,
	NO_DEDUP = SLI_WHEN_NO_DEDUP,
	NONE_OF = SLI_NEEDS_NONE_OF
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
static int
erase_dead_reshards(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	dead d = {{0}};
	do {
		d.ops.n = 0;
		sli_compute_use_counts(m->top);
		sli_walk(m->top, find_dead, &d);
		for (size_t i = 0; i < d.ops.n; i++)
			sli_op_erase(d.ops.v[i]);
	} while (d.ops.n);
	SL_VEC_FREE(d.ops);
	return 0;
}

static const sli_step steps[] = {
	{"sdy-propagate-to-func-results", sli_pass_propagate_to_func_results, NULL, DEDUP, 0, 0, 0,
	 0},
	{"sdy-sink-func-data-flow-edges", sli_pass_sink_func_data_flow_edges, NULL, DEDUP, 0, 0, 0,
	 0},
	{"sdy-export-named-computations", sli_pass_export_named_computations, NULL, NO_DEDUP,
	 SLI_HAS_NAMED, SLI_HAS_CALL, 0, 0},
	{"sdy-propagate-to-func-results", sli_pass_propagate_to_func_results, NULL, NO_DEDUP, 0, 0,
	 0, 0},
	{"sdy-unflatten-call-graph", sli_pass_unflatten_call_graph, NULL, 0, SLI_NEEDS_FUNC_ATTRS,
	 SLI_HAS_CALL, 0, 0},
	{"symbol-dce", sli_pass_symbol_dce, NULL, 0, SLI_NEEDS_PRIVATE, 0, 0, 0},
	{"sdy-sink-data-flow-edges", sli_pass_sink_data_flow_edges, NULL, 0,
	 SLI_HAS_EDGE | SLI_HAS_DATA_FLOW_OP, 0, 0, 0},
	{"sdy-remove-sharding-groups", sli_pass_remove_sharding_groups, NULL, 0, SLI_HAS_GROUP, 0,
	 0, 0},
	{"sdy-sharding-constraint-to-reshard", sli_pass_sharding_constraint_to_reshard, NULL, 0,
	 SLI_HAS_CONSTRAINT, SLI_HAS_RESHARD, 0, 0},
	{"sdy-update-non-divisible-input-output-shardings",
	 sli_pass_update_non_divisible_input_output_shardings, NULL, 0,
	 SLI_HAS_CALL | SLI_HAS_MANUAL, 0, 0, 0},
	{"sdy-update-non-divisible-input-output-shardings", update_function_io, NULL, 0,
	 NONE_OF | SLI_HAS_CALL | SLI_HAS_MANUAL, 0, 0, 0},
	{"sdy-remove-sub-axes-in-input-output-shardings",
	 sli_pass_remove_sub_axes_in_input_output_shardings, NULL, 0, 0, 0, 0, 0},
	{"sdy-close-shardings", sli_pass_close_shardings, NULL, 0, 0, 0, 0, 0},
	/* the calls import-composites made (composites.c) */
	{"export-composites", sli_pass_export_composites, NULL, 0, SLI_HAS_COMPOSITE | SLI_HAS_CALL,
	 0, 0, 0},
	/*
	 * sdy-drop-sharding-rules comes last in Shardy's pipeline; here the
	 * propagation has dropped every rule it did not keep, on every op of
	 * the module, and no export step adds one, so it has nothing left to
	 * do and its walk is saved.
	 */
	{"canonicalize (unused reshards)", erase_dead_reshards, NULL, 0, SLI_HAS_RESHARD, 0, 0, 0},
};

const sli_pipeline sli_export_steps = {"export", steps, sizeof steps / sizeof *steps};

/* ---- -sdy-export-pipeline ---- */

static void
dedup_fully(sli_pass_opts *o)
{
	o->pipeline.dedup_fully = true;
}

static void
full_reshards(sli_pass_opts *o)
{
	o->xr.full = true;
}

#define STEP(flag, fn, set) ((sli_step){flag, fn, set, 0, 0, 0, 0, 0})

/* The partitioner's steps (Shardy's runShardyPartitioner). */
static size_t
partitioner_steps(const sli_export_opts *o, sli_step *v)
{
	size_t n = 0;
	v[n++] = STEP("sdy-insert-explicit-reshards", sli_pass_insert_explicit_reshards,
	              o->collectives ? full_reshards : NULL);
	if (o->collectives) {
		v[n++] = STEP("canonicalize", sli_pass_canonicalize, NULL);
		v[n++] = STEP("sdy-reshard-to-collectives", sli_pass_reshard_to_collectives, NULL);
	}
	v[n++] = STEP("canonicalize", sli_pass_canonicalize, NULL);
	if (o->collectives && o->cmv1)
		v[n++] = STEP("sdy-remove-all-gather-reduce-scatter-for-cmv1",
		              sli_pass_remove_ag_rs_for_cmv1, NULL);
	return n;
}

int
sli_pass_export_pipeline(sl_module *m, const sli_pass_opts *opts)
{
	const sli_export_opts *o = &opts->exp;
	bool dedup = opts->pipeline.dedup_fully;
	sli_step v[24];
	size_t n = 0;
	v[n++] = STEP("sdy-sink-func-data-flow-edges", sli_pass_sink_func_data_flow_edges, NULL);
	v[n++] = STEP("sdy-unflatten-call-graph", sli_pass_unflatten_call_graph,
	              dedup ? dedup_fully : NULL);
	v[n++] = STEP("symbol-dce", sli_pass_symbol_dce, NULL);
	v[n++] = STEP("sdy-constant-or-scalar-merger", sli_pass_constant_or_scalar_merger, NULL);
	v[n++] = STEP("sdy-sink-data-flow-edges", sli_pass_sink_data_flow_edges, NULL);
	if (!o->avoid_partitioning) {
		v[n++] = STEP("sdy-remove-sharding-groups", sli_pass_remove_sharding_groups, NULL);
		v[n++] = STEP("sdy-sharding-constraint-to-reshard",
		              sli_pass_sharding_constraint_to_reshard, NULL);
	}
	if (o->update_io) {
		v[n++] = STEP("sdy-update-non-divisible-input-output-shardings",
		              sli_pass_update_non_divisible_input_output_shardings, NULL);
		v[n++] = STEP("sdy-remove-sub-axes-in-input-output-shardings",
		              sli_pass_remove_sub_axes_in_input_output_shardings, NULL);
	}
	v[n++] = STEP("sdy-close-shardings", sli_pass_close_shardings, NULL);
	if (!o->avoid_partitioning)
		n += partitioner_steps(o, v + n);
	if (!o->keep_rules)
		v[n++] = STEP("sdy-drop-sharding-rules", sli_pass_drop_sharding_rules, NULL);
	v[n++] = STEP("sdy-inline-meshes", sli_pass_inline_meshes, NULL);
	sli_pipeline p = {"sdy-export-pipeline", v, n};
	sli_pipeline_state s;
	sli_pipeline_start(&s, m, dedup, true);
	return sli_pipeline_run(m, &p, &s);
}
