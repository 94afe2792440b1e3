/*
 * pass.h - the pass signature and the passes of this folder.  Every pass
 * takes the module and its typed options (options.h; never NULL),
 * returns 0, or -1 after reporting diagnostics.  The table of all passes,
 * which shardlp-opt's flags and --help read, sits above passes, rules and
 * propagation, in src/pipeline/registry.h: adding a pass is one file and
 * one row there.
 */
#ifndef SL_PASSES_PASS_H
#define SL_PASSES_PASS_H

#include "ir/ir.h"
#include "passes/options.h"

typedef int sli_pass_fn(sl_module *m, const sli_pass_opts *opts);

/* Passes defined in this folder. */
int sli_pass_canonicalize(sl_module *m, const sli_pass_opts *opts);
/* -canonicalize as a pass of its own: the constants placed and made
 * unique as MLIR's folder does (fold_constants.c), then the above. */
int sli_pass_canonicalize_all(sl_module *m, const sli_pass_opts *opts);
/* The constants of fold_constants.c; true when the module changed. */
bool sli_fold_constants(sl_module *m);
/* Import passes (spec/import-passes.md), one file each. */
int sli_pass_constant_or_scalar_splitter(sl_module *m, const sli_pass_opts *opts);
int sli_pass_add_func_data_flow_edges(sl_module *m, const sli_pass_opts *opts);
int sli_pass_import_func_calls(sl_module *m, const sli_pass_opts *opts);
int sli_pass_flatten_call_graph(sl_module *m, const sli_pass_opts *opts);
int sli_pass_pre_order_funcs(sl_module *m, const sli_pass_opts *opts);
int sli_pass_propagate_sharding_from_func_to_call(sl_module *m, const sli_pass_opts *opts);
int sli_pass_lift_inlined_meshes(sl_module *m, const sli_pass_opts *opts);
int sli_pass_remove_size_one_axes(sl_module *m, const sli_pass_opts *opts);
int sli_pass_sharding_group_import(sl_module *m, const sli_pass_opts *opts);
int sli_pass_manual_axes_cleanup(sl_module *m, const sli_pass_opts *opts);
int sli_pass_add_data_flow_edges(sl_module *m, const sli_pass_opts *opts);
int sli_pass_symbol_dce(sl_module *m, const sli_pass_opts *opts);
/* -cse: equal side-effect-free ops merged. */
int sli_pass_cse(sl_module *m, const sli_pass_opts *opts);
/* -flatten-tuples: tuple results of custom calls and functions flattened. */
int sli_pass_flatten_tuples(sl_module *m, const sli_pass_opts *opts);
/* -import-composites, -export-composites (composites.c): composites as
 * calls of their decomposition functions, and back. */
int sli_pass_import_composites(sl_module *m, const sli_pass_opts *opts);
int sli_pass_export_composites(sl_module *m, const sli_pass_opts *opts);
/* The decomposition function of a stablehlo.composite, or NULL. */
sl_op *sli_composite_func(sl_module *m, const sl_op *op);
/* -inline: calls to the module's functions replaced by their bodies. */
int sli_pass_inline(sl_module *m, const sli_pass_opts *opts);
int sli_pass_apply_sharding_constraints(sl_module *m, const sli_pass_opts *opts);
int sli_pass_sink_data_flow_edges(sl_module *m, const sli_pass_opts *opts);
int sli_pass_sink_func_data_flow_edges(sl_module *m, const sli_pass_opts *opts);
int sli_pass_remove_sharding_groups(sl_module *m, const sli_pass_opts *opts);
int sli_pass_sharding_constraint_to_reshard(sl_module *m, const sli_pass_opts *opts);
int sli_pass_close_shardings(sl_module *m, const sli_pass_opts *opts);
int sli_pass_drop_sharding_rules(sl_module *m, const sli_pass_opts *opts);
int sli_pass_update_non_divisible_input_output_shardings(sl_module *m, const sli_pass_opts *opts);
/*
 * The same pass; with nested false only for the top-level functions (the
 * pipeline's census knows when the module holds no calls and no manual
 * computations, the other values the pass updates).
 */
void sli_update_non_divisible_io(sl_module *m, bool nested);
int sli_pass_remove_sub_axes_in_input_output_shardings(sl_module *m, const sli_pass_opts *opts);
int sli_pass_propagate_to_func_results(sl_module *m, const sli_pass_opts *opts);
int sli_pass_export_named_computations(sl_module *m, const sli_pass_opts *opts);
int sli_pass_unflatten_call_graph(sl_module *m, const sli_pass_opts *opts);
int sli_pass_explicit_gather_scatter_batching(sl_module *m, const sli_pass_opts *opts);
/* Export passes of issue 13 (sdy_export_passes.md), one file each. */
int sli_pass_verify_unreduced_axes(sl_module *m, const sli_pass_opts *opts);
int sli_pass_insert_func_call_reshards(sl_module *m, const sli_pass_opts *opts);
int sli_pass_inline_meshes(sl_module *m, const sli_pass_opts *opts);
int sli_pass_remove_propagation_debug_info(sl_module *m, const sli_pass_opts *opts);
int sli_pass_drop_sharding_and_mesh(sl_module *m, const sli_pass_opts *opts);
int sli_pass_remove_ag_rs_for_cmv1(sl_module *m, const sli_pass_opts *opts);
int sli_pass_constant_or_scalar_merger(sl_module *m, const sli_pass_opts *opts);
int sli_pass_resolve_single_device_sharding(sl_module *m, const sli_pass_opts *opts);
int sli_pass_resolve_permutation_factors(sl_module *m, const sli_pass_opts *opts);
int sli_pass_per_instruction_partitioning(sl_module *m, const sli_pass_opts *opts);
/* The sharding encodings of JAX, XLA and torch-xla (import_xla.c). */
int sli_pass_import_xla(sl_module *m, const sli_pass_opts *opts);
/* Back to Shardy's round-trip strings (export_xla.c). */
int sli_pass_export_xla(sl_module *m, const sli_pass_opts *opts);
int sli_pass_reshard_to_collectives(sl_module *m, const sli_pass_opts *opts);
int sli_pass_insert_explicit_reshards(sl_module *m, const sli_pass_opts *opts);

#endif
