### The core library: IR, verifier, passes (libshardlp)

noinst_LTLIBRARIES += libshardlp_core.la
libshardlp_core_la_SOURCES = \
	%reldir%/api/cost.c \
	%reldir%/api/mesh.c \
	%reldir%/api/report.c \
	%reldir%/api/rules.c \
	%reldir%/api/run.c \
	%reldir%/api/solve.c \
	%reldir%/ir/access.c \
	%reldir%/ir/arena.c \
	%reldir%/ir/attr.c \
	%reldir%/ir/axis.c \
	%reldir%/ir/context.c \
	%reldir%/ir/ir.c \
	%reldir%/ir/locattr.c \
	%reldir%/ir/rewrite.c \
	%reldir%/ir/share.c \
	%reldir%/ir/stablehlo_attrs.c \
	%reldir%/ir/type.c \
	%reldir%/passes/add_data_flow_edges.c \
	%reldir%/passes/add_func_data_flow_edges.c \
	%reldir%/passes/apply_sharding_constraints.c \
	%reldir%/passes/callgraph.c \
	%reldir%/passes/canonicalize.c \
	%reldir%/passes/fold_constants.c \
	%reldir%/passes/census.c \
	%reldir%/passes/close_shardings.c \
	%reldir%/passes/constant_or_scalar_merger.c \
	%reldir%/passes/constant_splitter.c \
	%reldir%/passes/data_flow_edges.c \
	%reldir%/passes/drop_sharding_and_mesh.c \
	%reldir%/passes/drop_sharding_rules.c \
	%reldir%/passes/explicit_gather_scatter_batching.c \
	%reldir%/passes/export_named_computations.c \
	%reldir%/passes/export_xla.c \
	%reldir%/passes/flatten_call_graph.c \
	%reldir%/passes/flatten_tuples.c \
	%reldir%/passes/composites.c \
	%reldir%/passes/import_func_calls.c \
	%reldir%/passes/import_xla.c \
	%reldir%/passes/cse.c \
	%reldir%/passes/inline.c \
	%reldir%/passes/inline_meshes.c \
	%reldir%/passes/insert_explicit_reshards.c \
	%reldir%/passes/insert_explicit_reshards.h \
	%reldir%/passes/insert_explicit_reshards_single_device.c \
	%reldir%/passes/insert_explicit_reshards_unreduced.c \
	%reldir%/passes/explicit_reshard_memo.c \
	%reldir%/passes/explicit_reshard_memo.h \
	%reldir%/passes/explicit_reshard_op.c \
	%reldir%/passes/explicit_reshard_plan.c \
	%reldir%/passes/explicit_reshard_plan.h \
	%reldir%/passes/insert_func_call_reshards.c \
	%reldir%/passes/lift_inlined_meshes.c \
	%reldir%/passes/manual_axes_cleanup.c \
	%reldir%/passes/options.c \
	%reldir%/passes/pad_for_divisibility.c \
	%reldir%/passes/pad_for_divisibility.h \
	%reldir%/passes/pad_for_divisibility_ops.c \
	%reldir%/passes/per_instruction_partitioning.c \
	%reldir%/passes/pre_order_funcs.c \
	%reldir%/passes/propagate_sharding_from_func_to_call.c \
	%reldir%/passes/propagate_to_func_results.c \
	%reldir%/passes/remove_ag_rs_for_cmv1.c \
	%reldir%/passes/remove_propagation_debug_info.c \
	%reldir%/passes/remove_sharding_groups.c \
	%reldir%/passes/remove_size_one_axes.c \
	%reldir%/passes/remove_sub_axes_in_io.c \
	%reldir%/passes/reshard_plan.c \
	%reldir%/passes/reshard_plan.h \
	%reldir%/passes/reshard_to_collectives.c \
	%reldir%/passes/resolve_permutation_factors.c \
	%reldir%/passes/resolve_single_device_sharding.c \
	%reldir%/passes/sharding_constraint_to_reshard.c \
	%reldir%/passes/sharding_group_import.c \
	%reldir%/passes/sharding_walk.c \
	%reldir%/passes/sink_data_flow_edges.c \
	%reldir%/passes/sink_func_data_flow_edges.c \
	%reldir%/passes/symbol_dce.c \
	%reldir%/passes/symtab.c \
	%reldir%/passes/unflatten_call_graph.c \
	%reldir%/passes/update_non_divisible.c \
	%reldir%/passes/verify_unreduced_axes.c \
	%reldir%/pipeline/export.c \
	%reldir%/pipeline/import.c \
	%reldir%/pipeline/pipeline.c \
	%reldir%/pipeline/propagation.c \
	%reldir%/pipeline/registry.c \
	%reldir%/propagation/aggressive_propagate.c \
	%reldir%/propagation/basic_propagate.c \
	%reldir%/propagation/boundary.c \
	%reldir%/propagation/debug.c \
	%reldir%/propagation/driver.c \
	%reldir%/propagation/edges.c \
	%reldir%/propagation/factor_propagation.c \
	%reldir%/propagation/groups.c \
	%reldir%/propagation/index.c \
	%reldir%/propagation/intern.c \
	%reldir%/propagation/op_priority_propagate.c \
	%reldir%/propagation/projection.c \
	%reldir%/propagation/rule.c \
	%reldir%/propagation/shardings.c \
	%reldir%/propagation/step.c \
	%reldir%/propagation/user_priority_propagate.c \
	%reldir%/propagation/worklist.c \
	%reldir%/rules/check.c \
	%reldir%/rules/populate.c \
	%reldir%/rules/registry.c \
	%reldir%/util.c \
	%reldir%/util/hash.c \
	%reldir%/util/uf.c \
	%reldir%/verify/verifier.c \
	%reldir%/verify/verify.c \
	%reldir%/verify/verify_collective.c \
	%reldir%/verify/verify_computation.c \
	%reldir%/verify/verify_edges.c \
	%reldir%/verify/verify_mesh.c \
	%reldir%/verify/verify_ops.c \
	%reldir%/verify/verify_quick.c \
	%reldir%/verify/verify_replica_groups.c \
	%reldir%/verify/verify_rule.c \
	%reldir%/verify/verify_sharding.c \
	%reldir%/version.c
libshardlp_core_la_SOURCES += $(formats_sources)
libshardlp_core_la_LIBADD = $(LIBXML2_LIBS) $(JANSSON_LIBS)

noinst_HEADERS += \
	%reldir%/api/cost.h \
	%reldir%/ir/access.h \
	%reldir%/ir/arena.h \
	%reldir%/ir/attr.h \
	%reldir%/ir/axis.h \
	%reldir%/ir/context.h \
	%reldir%/ir/ir.h \
	%reldir%/ir/ops.def \
	%reldir%/ir/rewrite.h \
	%reldir%/ir/stablehlo_attrs.h \
	%reldir%/ir/type.h \
	%reldir%/passes/callgraph.h \
	%reldir%/passes/census.h \
	%reldir%/passes/data_flow_edges.h \
	%reldir%/passes/options.h \
	%reldir%/passes/pass.h \
	%reldir%/passes/passutil.h \
	%reldir%/passes/sharding_walk.h \
	%reldir%/passes/symtab.h \
	%reldir%/pipeline/pipeline.h \
	%reldir%/pipeline/registry.h \
	%reldir%/propagation/factor_propagation.h \
	%reldir%/propagation/projection.h \
	%reldir%/propagation/prop_internal.h \
	%reldir%/propagation/propagation.h \
	%reldir%/rules/rules.h \
	%reldir%/util.h \
	%reldir%/util/checked.h \
	%reldir%/util/hash.h \
	%reldir%/util/uf.h \
	%reldir%/verify/verifier.h \
	%reldir%/verify/verify.h \
	%reldir%/cli/batch_journal.h \
	%reldir%/cli/cli.h \
	%reldir%/cli/cli_emit.h \
	%reldir%/cli/cli_mesh.h \
	%reldir%/cli/cli_out.h \
	%reldir%/cli/cli_solve.h \
	%reldir%/cli/cli_watchdog.h

include_HEADERS += %reldir%/shardlp.h

lib_LTLIBRARIES += libshardlp.la
libshardlp_la_SOURCES =
libshardlp_la_LIBADD = libshardlp_core.la
libshardlp_la_LDFLAGS = -export-symbols-regex '^sl_' -version-info 0:0:0

### Programs

bin_PROGRAMS += shardlp shardlp-opt
shardlp_SOURCES = \
	%reldir%/cli/cli.c \
	%reldir%/cli/batch_journal.c \
	%reldir%/cli/cmd_batch.c \
	%reldir%/cli/cli_emit.c \
	%reldir%/cli/cli_load.c \
	%reldir%/cli/cli_mesh.c \
	%reldir%/cli/cli_out.c \
	%reldir%/cli/cli_watchdog.c \
	%reldir%/cli/cmd_compare.c \
	%reldir%/cli/compare_run.c \
	%reldir%/cli/cmd_export.c \
	%reldir%/cli/cmd_gen.c \
	%reldir%/cli/cmd_import.c \
	%reldir%/cli/cmd_iopddl.c \
	%reldir%/cli/cmd_plot.c \
	%reldir%/cli/cmd_propagate.c \
	%reldir%/cli/cmd_rules.c \
	%reldir%/cli/cmd_solve.c \
	%reldir%/cli/shardlp.c
shardlp_LDADD = libshardlp.la
shardlp_opt_SOURCES = \
	%reldir%/cli/cli.c \
	%reldir%/cli/cli_out.c \
	%reldir%/cli/shardlp_opt.c
## the core linked in, not the shared library: shardlp-opt then loads
## neither libshardlp.so nor libxml2 (formats/read.c says why)
shardlp_opt_LDADD = libshardlp_core.la
