/* registry.c - the table of every pass by name, and sl_pass_run. */
#include "pipeline/registry.h"

#include "passes/pad_for_divisibility.h"
#include "pipeline/pipeline.h"
#include "propagation/propagation.h"
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

const sli_pass_info sli_passes[] = {
	{"canonicalize", sli_pass_canonicalize_all, &sli_opts_none,
	 "fold redundant sdy reshards and collectives, one constant per value"},
	{"sdy-populate-op-sharding-rules", sli_pass_populate_op_sharding_rules, &sli_opts_rules,
	 "attach the sharding rule of every op as sdy.sharding_rule"},
	{"sdy-constant-or-scalar-splitter", sli_pass_constant_or_scalar_splitter, &sli_opts_none,
	 "give every non-constant use of a constant or scalar broadcast its own copy"},
	{"sdy-add-func-data-flow-edges", sli_pass_add_func_data_flow_edges, &sli_opts_none,
	 "add func_data_flow_edge ops on non-main function arguments and call results"},
	{"sdy-import-func-calls", sli_pass_import_func_calls, &sli_opts_import_calls,
	 "turn func.call ops into sdy.named_computation ops"},
	{"sdy-flatten-call-graph", sli_pass_flatten_call_graph, &sli_opts_none,
	 "clone functions so that each is called at most once"},
	{"sdy-pre-order-funcs", sli_pass_pre_order_funcs, &sli_opts_none,
	 "order functions callers first"},
	{"sdy-propagate-sharding-from-func-to-call", sli_pass_propagate_sharding_from_func_to_call, &sli_opts_none,
	 "copy callee result shardings onto calls without shardings"},
	{"sdy-lift-inlined-meshes", sli_pass_lift_inlined_meshes, &sli_opts_none,
	 "lift inlined meshes into sdy.mesh symbols and deduplicate meshes"},
	{"sdy-remove-size-one-axes", sli_pass_remove_size_one_axes, &sli_opts_none,
	 "remove axes of size 1 from every sharding"},
	{"sdy-sharding-group-import", sli_pass_sharding_group_import, &sli_opts_none,
	 "check, merge and renumber sharding groups"},
	{"sdy-manual-axes-cleanup", sli_pass_manual_axes_cleanup, &sli_opts_none,
	 "replicate unused manual axes and sort manual axes in mesh order"},
	{"sdy-add-data-flow-edges", sli_pass_add_data_flow_edges, &sli_opts_none,
	 "add data_flow_edge ops on the edge owners of data-flow ops"},
	{"cse", sli_pass_cse, &sli_opts_none,
	 "merge equal side-effect-free ops, as mlir-opt -cse does"},
	{"flatten-tuples", sli_pass_flatten_tuples, &sli_opts_none,
	 "flatten tuple results of custom calls and functions, as XLA does"},
	{"import-composites", sli_pass_import_composites, &sli_opts_none,
	 "turn stablehlo.composite ops into calls of their decompositions"},
	{"export-composites", sli_pass_export_composites, &sli_opts_none,
	 "turn the calls import-composites made back into composites"},
	{"inline", sli_pass_inline, &sli_opts_none,
	 "inline calls to the module's functions, as mlir-opt -inline does"},
	{"symbol-dce", sli_pass_symbol_dce, &sli_opts_none,
	 "erase private symbols nothing refers to"},
	{"sdy-apply-sharding-constraints", sli_pass_apply_sharding_constraints, &sli_opts_apply,
	 "copy closed sharding constraints onto their inputs"},
	{"sdy-import-pipeline", sli_pass_import_pipeline, &sli_opts_pipeline,
	 "run the import passes in Shardy's order"},
	{"sdy-basic-propagate", sli_pass_basic_propagate, &sli_opts_propagate,
	 "propagate shardings with basic factor propagation"},
	{"sdy-aggressive-propagate", sli_pass_aggressive_propagate, &sli_opts_strategy,
	 "propagate shardings with the aggressive (or chosen) strategy"},
	{"sdy-op-priority-propagate", sli_pass_op_priority_propagate, &sli_opts_priority,
	 "propagate shardings by op-priority levels"},
	{"sdy-user-priority-propagate", sli_pass_user_priority_propagate, &sli_opts_priority,
	 "propagate shardings by user priorities, then op priorities"},
	{"sdy-sink-data-flow-edges", sli_pass_sink_data_flow_edges, &sli_opts_sink,
	 "move data-flow edge shardings onto their ops and remove the edges"},
	{"sdy-sink-func-data-flow-edges", sli_pass_sink_func_data_flow_edges, &sli_opts_none,
	 "move func data-flow edge shardings onto their values and remove the edges"},
	{"sdy-remove-sharding-groups", sli_pass_remove_sharding_groups, &sli_opts_none,
	 "erase every sharding group"},
	{"sdy-sharding-constraint-to-reshard", sli_pass_sharding_constraint_to_reshard, &sli_opts_none,
	 "turn sharding constraints into reshards"},
	{"sdy-close-shardings", sli_pass_close_shardings, &sli_opts_none,
	 "close every sharding and drop replicated axes"},
	{"sdy-drop-sharding-rules", sli_pass_drop_sharding_rules, &sli_opts_none,
	 "remove non-custom sdy.sharding_rule attributes"},
	{"sdy-update-non-divisible-input-output-shardings", sli_pass_update_non_divisible_input_output_shardings, &sli_opts_none,
	 "cut input/output shardings to their longest divisible prefix"},
	{"sdy-remove-sub-axes-in-input-output-shardings", sli_pass_remove_sub_axes_in_input_output_shardings, &sli_opts_none,
	 "drop sub-axes from open dimensions of main's shardings"},
	{"sdy-propagate-to-func-results", sli_pass_propagate_to_func_results, &sli_opts_none,
	 "copy returned value shardings to non-main function results"},
	{"sdy-export-named-computations", sli_pass_export_named_computations, &sli_opts_none,
	 "turn named computations into private functions and calls"},
	{"sdy-unflatten-call-graph", sli_pass_unflatten_call_graph, &sli_opts_pipeline,
	 "call one clone per original function and sharding signature"},
	{"sdy-propagation-pipeline", sli_pass_propagation_pipeline, &sli_opts_pipeline,
	 "import passes, user-priority propagation and the export steps"},
	{"sdy-import-xla", sli_pass_import_xla, &sli_opts_none,
	 "turn xla.sdy.* frontend attributes, mhlo.sharding strings and their custom calls into sdy"},
	{"sdy-export-xla", sli_pass_export_xla, &sli_opts_none,
	 "write meshes, shardings, rules and sdy ops back as xla.sdy.* strings and custom calls"},
	{"sdy-explicit-gather-scatter-batching", sli_pass_explicit_gather_scatter_batching, &sli_opts_none,
	 "make the iota-indexed dimension 0 of gathers and scatters an explicit batch dimension"},
	{"sdy-verify-unreduced-axes", sli_pass_verify_unreduced_axes, &sli_opts_none,
	 "check that only reshards and sharding constraints reduce unreduced axes"},
	{"sdy-insert-func-call-reshards", sli_pass_insert_func_call_reshards, &sli_opts_none,
	 "give calls their callee's result shardings, resharding to the old ones"},
	{"sdy-export-pipeline", sli_pass_export_pipeline, &sli_opts_export,
	 "Shardy's export pipeline: clean-up, explicit reshards and, on request, collectives"},
	{"sdy-insert-explicit-reshards", sli_pass_insert_explicit_reshards, &sli_opts_xr,
	 "insert reshards and all-reduces so that every op's shardings fit its rule"},
	{"sdy-reshard-to-collectives", sli_pass_reshard_to_collectives, &sli_opts_rtc,
	 "turn reshards into all-slices, collective permutes, all-to-alls and all-gathers"},
	{"sdy-inline-meshes", sli_pass_inline_meshes, &sli_opts_none,
	 "copy each named mesh into the shardings that use it and erase the sdy.mesh ops"},
	{"sdy-remove-propagation-debug-info", sli_pass_remove_propagation_debug_info, &sli_opts_none,
	 "remove the propagation edges and sharding origins that debugging left"},
	{"sdy-drop-sharding-and-mesh", sli_pass_drop_sharding_and_mesh, &sli_opts_none,
	 "remove every sdy.sharding attribute and the meshes no sharding names"},
	{"sdy-remove-all-gather-reduce-scatter-for-cmv1", sli_pass_remove_ag_rs_for_cmv1, &sli_opts_none,
	 "remove all-gathers feeding a dot and reduce-scatters of a dot (collective matmul V1)"},
	{"sdy-constant-or-scalar-merger", sli_pass_constant_or_scalar_merger, &sli_opts_none,
	 "merge equal constants and scalar broadcasts of one region"},
	{"sdy-resolve-single-device-sharding", sli_pass_resolve_single_device_sharding, &sli_opts_none,
	 "run single-device ops under a stablehlo.if on their device and all-reduce the results"},
	{"sdy-pad-for-divisibility", sli_pass_pad_for_divisibility, &sli_opts_none,
	 "pad tensors whose sharded dimensions are not divisible up to divisible shapes"},
	{"sdy-resolve-permutation-factors", sli_pass_resolve_permutation_factors, &sli_opts_permutation,
	 "replicate the dimensions of sharded permutation factors around their ops"},
	{"sdy-per-instruction-partitioning", sli_pass_per_instruction_partitioning, &sli_opts_pip,
	 "wrap the chosen sharded ops in manual computations of their device-local code"},
};
const size_t sli_npasses = sizeof sli_passes / sizeof *sli_passes;

const sli_pass_info *
sli_pass_find(const char *flag, size_t n)
{
	for (size_t i = 0; i < sli_npasses; i++)
		if (strlen(sli_passes[i].flag) == n && !memcmp(sli_passes[i].flag, flag, n))
			return &sli_passes[i];
	return NULL;
}

int
sli_pass_opts_parse(const sli_pass_info *p, const char *text, sli_pass_opts *out,
                    char *err, size_t errlen)
{
	return sli_pass_opts_parse_text(p->options, p->flag, text, out, err, errlen);
}

bool
sl_pass_exists(const char *name)
{
	return sli_pass_find(name, strlen(name)) != NULL;
}

const char *
sl_pass_name(size_t i, const char **summary)
{
	if (i >= sli_npasses)
		return NULL;
	if (summary)
		*summary = sli_passes[i].summary;
	return sli_passes[i].flag;
}

int
sl_pass_run(sl_module *m, const char *name, const char *options, char *err, size_t errlen)
{
	const sli_pass_info *p = sli_pass_find(name, strlen(name));
	if (!p) {
		snprintf(err, errlen, "unknown pass '%s'", name);
		return -2;
	}
	sli_pass_opts opts;
	if (sli_pass_opts_parse(p, options, &opts, err, errlen))
		return -2;
	int rc = p->run(m, &opts);
	sli_pass_opts_fini(&opts);
	return rc ? -1 : 0;
}
