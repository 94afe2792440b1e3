/*
 * pipeline.c - -sdy-propagation-pipeline (spec/propagation.md 8.1): the
 * import pipeline, call-graph handling, user-priority propagation with
 * the sharding rules kept, and the export steps, as a plain list.  The
 * partitioner's explicit reshards are out of scope; of its canonicalization
 * only the erasure of unused reshards is done.
 * Option dedup-functions-fully selects function data-flow edges instead
 * of inlining calls into named computations.
 */
#include "propagation/propagation.h"

#include <stdlib.h>
#include <stdio.h>
#include <time.h>
static double tnow(void){struct timespec t;clock_gettime(CLOCK_PROCESS_CPUTIME_ID,&t);return t.tv_sec+t.tv_nsec*1e-9;}

enum { ALWAYS, DEDUP, NO_DEDUP };

typedef struct step {
	sli_pass_fn *run;
	int when;
} step;

static const step import_steps[] = {
	{sli_pass_add_func_data_flow_edges, DEDUP},
	{sli_pass_flatten_call_graph, NO_DEDUP},
	{sli_pass_symbol_dce, NO_DEDUP},
	{sli_pass_import_func_calls, NO_DEDUP},
	{sli_pass_symbol_dce, NO_DEDUP},
	{sli_pass_apply_sharding_constraints, NO_DEDUP},
	{sli_pass_sharding_group_import, NO_DEDUP},
	{sli_pass_pre_order_funcs, ALWAYS},
};

static const step export_steps[] = {
	{sli_pass_propagate_to_func_results, DEDUP},
	{sli_pass_sink_func_data_flow_edges, DEDUP},
	{sli_pass_export_named_computations, NO_DEDUP},
	{sli_pass_propagate_to_func_results, NO_DEDUP},
	{sli_pass_unflatten_call_graph, ALWAYS},
	{sli_pass_symbol_dce, ALWAYS},
	{sli_pass_sink_data_flow_edges, ALWAYS},
	{sli_pass_remove_sharding_groups, ALWAYS},
	{sli_pass_sharding_constraint_to_reshard, ALWAYS},
	{sli_pass_update_non_divisible_input_output_shardings, ALWAYS},
	{sli_pass_remove_sub_axes_in_input_output_shardings, ALWAYS},
	{sli_pass_close_shardings, ALWAYS},
	{sli_pass_drop_sharding_rules, ALWAYS},
};

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
run_steps(sl_module *m, const step *s, size_t n, bool dedup)
{
	for (size_t i = 0; i < n; i++) {
		if ((s[i].when == DEDUP && !dedup) || (s[i].when == NO_DEDUP && dedup))
			continue;
		double t0=tnow();
		if (s[i].run(m, NULL))
			return -1;
		if (getenv("SLT")) fprintf(stderr, "step %s %zu %.4f\n", s==import_steps?"imp":"exp", i, tnow()-t0);
	}
	return 0;
}

int
sli_pass_propagation_pipeline(sl_module *m, const sli_pass_opts *opts)
{
	bool dedup = sli_pass_opt_bool(opts, "dedup-functions-fully", false);
	sli_pass_opt dedup_opt = {"dedup-functions-fully", dedup ? "true" : "false"};
	sli_pass_opts import_opts = {&dedup_opt, 1};
	if (sli_pass_import_pipeline(m, &import_opts))
		return -1;
	if (run_steps(m, import_steps, sizeof import_steps / sizeof *import_steps, dedup))
		return -1;
	sli_pass_opt keep = {"keep-sharding-rules", "true"};
	sli_pass_opts prop_opts = {&keep, 1};
	double t0=tnow();
	if (sli_pass_user_priority_propagate(m, &prop_opts))
		return -1;
	if (getenv("SLT")) fprintf(stderr, "prop %.4f\n", tnow()-t0);
	if (run_steps(m, export_steps, sizeof export_steps / sizeof *export_steps, dedup))
		return -1;
	t0=tnow();
	erase_dead_reshards(m);
	if (getenv("SLT")) fprintf(stderr, "dead %.4f\n", tnow()-t0);
	return 0;
}
