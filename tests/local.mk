### Tests: CUnit unit tests, CLI and golden tests, man-page lint

check_PROGRAMS += unit-tests
unit_tests_SOURCES = \
	%reldir%/unit/main.c \
	%reldir%/unit/test_access.c \
	%reldir%/unit/test_access_passes.c \
	%reldir%/unit/test_api.c \
	%reldir%/unit/test_axis.c \
	%reldir%/unit/test_cost.c \
	%reldir%/unit/test_explicit_reshard.c \
	%reldir%/unit/test_gspmd.c \
	%reldir%/unit/test_iopddl.c \
	%reldir%/unit/test_lexer.c \
	%reldir%/unit/test_options.c \
	%reldir%/unit/test_parser.c \
	%reldir%/unit/test_passes.c \
	%reldir%/unit/test_pipeline.c \
	%reldir%/unit/test_printer.c \
	%reldir%/unit/test_propagation.c \
	%reldir%/unit/test_reshard.c \
	%reldir%/unit/test_rules.c \
	%reldir%/unit/test_sdy.c \
	%reldir%/unit/test_solver.c \
	%reldir%/unit/test_stablehlo.c \
	%reldir%/unit/test_stablehlo_attrs.c \
	%reldir%/unit/test_util.c \
	%reldir%/unit/test_verify.c \
	%reldir%/unit/test_xml.c
noinst_HEADERS += %reldir%/unit/tests.h
unit_tests_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
unit_tests_LDADD = libshardlp_core.la $(CUNIT_LIBS)

TESTS += unit-tests

## torture-mutate: the mutants of tests/cli/torture.sh
check_PROGRAMS += torture-mutate
torture_mutate_SOURCES = %reldir%/torture_mutate.c

### Shell tests: CLI exit codes and messages, golden outputs, man pages
## Each script sources tests/setup.sh; the programs' paths come from here.
## SHARDLP_VERIFY_EACH=1: every pipeline verifies the module after each step.

TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = bash
AM_TESTS_ENVIRONMENT = \
	SHARDLP='$(abs_top_builddir)/shardlp$(EXEEXT)'; export SHARDLP; \
	SHARDLP_OPT='$(abs_top_builddir)/shardlp-opt$(EXEEXT)'; export SHARDLP_OPT; \
	top_srcdir='$(abs_top_srcdir)'; export top_srcdir; \
	top_builddir='$(abs_top_builddir)'; export top_builddir; \
	MANDOC='$(MANDOC)'; export MANDOC; \
	SANITIZERS='$(enable_sanitizers)'; export SANITIZERS; \
	SHARDLP_VERIFY_EACH=1; export SHARDLP_VERIFY_EACH;

TESTS += \
	%reldir%/cli/automesh.sh \
	%reldir%/cli/batch.sh \
	%reldir%/cli/batch_scale.sh \
	%reldir%/cli/completion.sh \
	%reldir%/cli/composite.sh \
	%reldir%/cli/compare_dot.sh \
	%reldir%/cli/faults.sh \
	%reldir%/cli/gen.sh \
	%reldir%/cli/greedy_subaxes.sh \
	%reldir%/cli/help.sh \
	%reldir%/cli/import.sh \
	%reldir%/cli/iopddl.sh \
	%reldir%/cli/lpfile.sh \
	%reldir%/cli/manpages.sh \
	%reldir%/cli/megatron.sh \
	%reldir%/cli/mhlo.sh \
	%reldir%/cli/opt.sh \
	%reldir%/cli/partitioned.sh \
	%reldir%/cli/plot.sh \
	%reldir%/cli/real_inputs.sh \
	%reldir%/cli/reliability.sh \
	%reldir%/cli/rules.sh \
	%reldir%/cli/slurm.sh \
	%reldir%/cli/solve.sh \
	%reldir%/cli/stdio.sh \
	%reldir%/cli/torture.sh \
	%reldir%/cli/verify.sh \
	%reldir%/cli/xml_problem.sh \
	%reldir%/golden/run.sh \
	%reldir%/man-lint.sh

EXTRA_DIST += \
	%reldir%/cli/automesh.sh \
	%reldir%/cli/batch.sh \
	%reldir%/cli/batch_scale.sh \
	%reldir%/cli/completion.sh \
	%reldir%/cli/composite.sh \
	%reldir%/cli/compare_dot.sh \
	%reldir%/cli/faults.sh \
	%reldir%/cli/gen.sh \
	%reldir%/cli/greedy_subaxes.sh \
	%reldir%/cli/help.sh \
	%reldir%/cli/import.sh \
	%reldir%/cli/iopddl.sh \
	%reldir%/cli/lpfile.sh \
	%reldir%/cli/manpages.sh \
	%reldir%/cli/megatron.sh \
	%reldir%/cli/mhlo.sh \
	%reldir%/cli/opt.sh \
	%reldir%/cli/partitioned.sh \
	%reldir%/cli/plot.sh \
	%reldir%/cli/real_inputs.sh \
	%reldir%/cli/reliability.sh \
	%reldir%/cli/rules.sh \
	%reldir%/cli/slurm.sh \
	%reldir%/cli/solve.sh \
	%reldir%/cli/stdio.sh \
	%reldir%/cli/torture.sh \
	%reldir%/cli/verify.sh \
	%reldir%/cli/xml_problem.sh \
	%reldir%/conformance-check.sh \
	%reldir%/emitted_vs_evaluator.py \
	%reldir%/ilp_vs_greedy.py \
	%reldir%/conformance-pass.txt \
	%reldir%/golden/attention_print.mlir \
	%reldir%/golden/compare_attention.mlir \
	%reldir%/golden/compare_composite.mlir \
	%reldir%/golden/compare_manual.mlir \
	%reldir%/golden/compare_mlp.mlir \
	%reldir%/golden/compare_mlp_cluster.mlir \
	%reldir%/golden/compare_transformer.mlir \
	%reldir%/golden/compare_while.mlir \
	%reldir%/golden/composite_propagate.mlir \
	%reldir%/golden/composite_shared.mlir \
	%reldir%/golden/dense_resource_bad.mlir \
	%reldir%/golden/dense_resource_print.mlir \
	%reldir%/golden/diag_unknown_mesh.mlir \
	%reldir%/golden/drop_sharding_and_mesh_kept.mlir \
	%reldir%/golden/explicit_gather_scatter_batching.mlir \
	%reldir%/golden/flatten_call_graph_import.mlir \
	%reldir%/golden/flatten_tuples.mlir \
	%reldir%/golden/flatten_tuples_shardings.mlir \
	%reldir%/golden/import_pipeline_basic.mlir \
	%reldir%/golden/import_xla_bad_gspmd.mlir \
	%reldir%/golden/import_xla_bad_string.mlir \
	%reldir%/golden/import_xla_export.mlir \
	%reldir%/golden/import_xla_export_gspmd.mlir \
	%reldir%/golden/import_xla_gspmd.mlir \
	%reldir%/golden/import_xla_gspmd_exported.mlir \
	%reldir%/golden/import_xla_gspmd_manual.mlir \
	%reldir%/golden/import_xla_kept.mlir \
	%reldir%/golden/import_xla_manual.mlir \
	%reldir%/golden/import_xla_propagate.mlir \
	%reldir%/golden/import_xla_round_trip.mlir \
	%reldir%/golden/insert_func_call_reshards_unsharded_call.mlir \
	%reldir%/golden/manual_print.mlir \
	%reldir%/golden/mhlo_bad.mlir \
	%reldir%/golden/mhlo_emit.mlir \
	%reldir%/golden/mhlo_emit_xla.mlir \
	%reldir%/golden/mhlo_print.mlir \
	%reldir%/golden/mlp_print.mlir \
	%reldir%/golden/nested_calls_import.mlir \
	%reldir%/golden/resolve_single_device_global_mesh.mlir \
	%reldir%/golden/run.sh \
	%reldir%/golden/sharding_group_import_cross_manual.mlir \
	%reldir%/golden/solve_attention.mlir \
	%reldir%/golden/solve_manual.mlir \
	%reldir%/golden/solve_mlp.mlir \
	%reldir%/golden/solve_mlp_xml.mlir \
	%reldir%/golden/solve_transformer.mlir \
	%reldir%/golden/solve_while.mlir \
	%reldir%/golden/transformer_basic.mlir \
	%reldir%/golden/spec_5_4_basic.mlir \
	%reldir%/golden/spec_5_4_op_priority.mlir \
	%reldir%/golden/transformer_pipeline.mlir \
	%reldir%/golden/unknown_dialect_custom.mlir \
	%reldir%/golden/while_print.mlir \
	%reldir%/man-lint.sh \
	%reldir%/setup.sh

### Benchmark and fuzzing: not part of `make check`

## bench-rules: rule-building time against parse time (tests/bench_rules.sh)
EXTRA_PROGRAMS += bench-rules
bench_rules_SOURCES = %reldir%/bench_rules.c
bench_rules_LDADD = libshardlp_core.la
CLEANFILES += bench-rules$(EXEEXT)

## bench-scale: each phase's CPU time in one process (tests/bench_scale.sh)
EXTRA_PROGRAMS += bench-scale
bench_scale_SOURCES = %reldir%/bench_scale.c
bench_scale_LDADD = libshardlp_core.la
CLEANFILES += bench-scale$(EXEEXT)

## bench-export: the export passes against propagation (tests/bench_export.sh)
EXTRA_PROGRAMS += bench-export
bench_export_SOURCES = %reldir%/bench_export.c
bench_export_LDADD = libshardlp_core.la
CLEANFILES += bench-export$(EXEEXT)

EXTRA_DIST += \
	%reldir%/bench.sh \
	%reldir%/bench_propagation.sh \
	%reldir%/bench_batch.sh \
	%reldir%/bench_iopddl.sh \
	%reldir%/bench_solver.sh \
	%reldir%/bench_rules.sh \
	%reldir%/bench_scale.sh \
	%reldir%/bench_export.sh \
	%reldir%/cli/export_corpus.sh \
	%reldir%/fuzz/fuzz_mlir.c \
	%reldir%/fuzz/fuzz_sdy.c \
	%reldir%/fuzz/fuzz_xml.c \
	%reldir%/fuzz/mlir.dict \
	%reldir%/fuzz/run.sh \
	%reldir%/fuzz/seeds-sdy/huge.txt \
	%reldir%/fuzz/seeds-sdy/plain.txt \
	%reldir%/fuzz/seeds-sdy/subaxes.txt \
	%reldir%/fuzz/seeds-sdy/three.txt \
	%reldir%/fuzz/seeds-xml/mesh-4x2.xml \
	%reldir%/fuzz/seeds-xml/minimal.xml \
	%reldir%/fuzz/seeds-xml/problem.xml \
	%reldir%/fuzz/seeds/attention.mlir \
	%reldir%/fuzz/seeds/errors.mlir \
	%reldir%/fuzz/seeds/generic.mlir \
	%reldir%/fuzz/seeds/manual.mlir \
	%reldir%/fuzz/seeds/mlp.mlir \
	%reldir%/fuzz/seeds/while.mlir

### Round trip of the shared corpus (skipped without ../shared/corpus)

TESTS += %reldir%/corpus.sh
EXTRA_DIST += %reldir%/corpus.sh

# `shardlp compare` on the shared corpus, outcomes by category (issue 15);
# minutes, so run by hand: tests/corpus_compare.sh from the build directory
EXTRA_DIST += %reldir%/corpus_compare.sh
