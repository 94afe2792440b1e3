/*
 * pass.h - the pass table.  Every pass has one signature: it takes the
 * module and its typed options (options.h; never NULL), returns 0, or -1
 * after reporting diagnostics.  shardlp-opt flags, `shardlp` subcommands
 * and --help read this table; adding a pass is one file and one row in
 * pass.c.
 */
#ifndef SL_PASSES_PASS_H
#define SL_PASSES_PASS_H

#include "ir/ir.h"
#include "passes/options.h"

typedef int sli_pass_fn(sl_module *m, const sli_pass_opts *opts);

typedef struct sli_pass_info {
	const char *flag;		/* e.g. "sdy-basic-propagate" */
	sli_pass_fn *run;
	const sli_opt_family *options;	/* the options it takes */
	const char *summary;
} sli_pass_info;

extern const sli_pass_info sli_passes[];
extern const size_t sli_npasses;

const sli_pass_info *sli_pass_find(const char *flag, size_t n);
/* Parses the options of pass p ("a=1,b=true" or {a=1 b=true}; NULL: none)
 * into *out (sli_pass_opts_fini it); -1 with a message in err. */
int sli_pass_opts_parse(const sli_pass_info *p, const char *text,
                        sli_pass_opts *out, char *err, size_t errlen);

/* Passes defined in this folder. */
int sli_pass_canonicalize(sl_module *m, const sli_pass_opts *opts);
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

/* Defined in src/rules/. */
int sli_pass_populate_op_sharding_rules(sl_module *m, const sli_pass_opts *opts);

/* Defined in src/propagation/. */
int sli_pass_basic_propagate(sl_module *m, const sli_pass_opts *opts);
int sli_pass_aggressive_propagate(sl_module *m, const sli_pass_opts *opts);
int sli_pass_op_priority_propagate(sl_module *m, const sli_pass_opts *opts);
int sli_pass_user_priority_propagate(sl_module *m, const sli_pass_opts *opts);

/* Defined in src/pipeline/. */
int sli_pass_import_pipeline(sl_module *m, const sli_pass_opts *opts);
int sli_pass_propagation_pipeline(sl_module *m, const sli_pass_opts *opts);

#endif
