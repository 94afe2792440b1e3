/*
 * test_rules.c - unit tests of the op sharding rule registry (src/rules):
 * the rule of each op family against spec/sharding-rules.md, the reshape
 * decomposition on many shape pairs checked against the factor-size
 * invariants, conservative variants, attached rules, and located errors.
 */
#include "tests.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "formats/mlir_printer.h"
#include "ir/ir.h"
#include "rules/rules.h"

/* The first op of the function body whose name is `name`. */
typedef struct find {
	const char *name;
	sl_op *found;
} find;

static int
find_op(sl_op *op, void *ud)
{
	find *f = ud;

	if (!f->found && op->kind != SL_OP_UNKNOWN && op->kind < SL_OP__COUNT &&
	    !strcmp(sli_op_info[op->kind].name, f->name))
		f->found = op;
	return f->found != NULL;
}

/*
 * Parses `text`, builds the rule of its first op named `name` and returns
 * it printed (malloc'd), "none" when the op has no rule, or "error: " and
 * the diagnostics.
 */
static char *
rule_of(const char *text, const char *name, bool conservative)
{
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx, text);
	sli_rule_opts o = {0};
	find f = {name, NULL};
	sl_rule r;
	sli_buf b;
	int rc;
	char *out;

	sli_buf_init(&b);
	if (!m) {
		sli_buf_printf(&b, "parse error: %s", test_diags());
		goto done;
	}
	sli_walk(m->top, find_op, &f);
	if (!f.found) {
		sli_buf_puts(&b, "op not found");
		goto done;
	}
	o.conservative = conservative;
	o.warn = true;
	rc = sli_rule_for_op(m, f.found, &o, &r);
	sli_rule_opts_fini(&o);
	if (rc < 0) {
		sli_buf_printf(&b, "error: %s", test_diags());
	} else if (rc == SLI_RULE_NONE) {
		sli_buf_puts(&b, "none");
	} else {
		sl_attr a;
		memset(&a, 0, sizeof a);
		a.kind = SL_ATTR_RULE;
		a.u.rule = r;
		sli_print_sdy_attr(&b, ctx, &a, true);
		CU_ASSERT_EQUAL(sli_rule_check(m, f.found, &r), 0);
	}
done:
	out = sli_xstrdup(sli_buf_cstr(&b));
	sli_buf_fini(&b);
	sl_module_free(m);
	sl_context_free(ctx);
	return out;
}

/* Checks the rule of the first `name` op in a one-op function. */
static int
expect_rule(const char *text, const char *name, bool conservative, const char *want)
{
	char *got = rule_of(text, name, conservative);
	int ok = !strcmp(got, want);

	if (!ok)
		fprintf(stderr, "\n  %s:\n    want %s\n    got  %s\n", name, want, got);
	free(got);
	return ok;
}

static void
test_pointwise(void)
{
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<2x1x4xf32>) -> tensor<2x1x4xf32> {\n"
		"  %0 = stablehlo.add %a, %a : tensor<2x1x4xf32>\n"
		"  return %0 : tensor<2x1x4xf32>\n}\n", "stablehlo.add", false,
		"#sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=2, j=1, k=4}>"));
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<f32>) -> tensor<f32> {\n"
		"  %0 = stablehlo.multiply %a, %a : tensor<f32>\n"
		"  return %0 : tensor<f32>\n}\n", "stablehlo.multiply", false,
		"#sdy.op_sharding_rule<([], [])->([])>"));
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<2x0x4xf32>) -> tensor<2x0x4xf32> {\n"
		"  %0 = stablehlo.tanh %a : tensor<2x0x4xf32>\n"
		"  return %0 : tensor<2x0x4xf32>\n}\n", "stablehlo.tanh", false,
		"#sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=2, j=0, k=4}>"));
	CU_ASSERT(expect_rule(
		"func.func @f(%p: tensor<i1>, %a: tensor<4x8xf32>) -> tensor<4x8xf32> {\n"
		"  %0 = stablehlo.select %p, %a, %a : tensor<i1>, tensor<4x8xf32>\n"
		"  return %0 : tensor<4x8xf32>\n}\n", "stablehlo.select", false,
		"#sdy.op_sharding_rule<([], [i, j], [i, j])->([i, j]) {i=4, j=8}>"));
	CU_ASSERT(expect_rule(
		"func.func @f(%s: tensor<f32>, %a: tensor<4x8xf32>) -> tensor<4x8xf32> {\n"
		"  %0 = stablehlo.clamp %s, %a, %s : (tensor<f32>, tensor<4x8xf32>, tensor<f32>) "
		"-> tensor<4x8xf32>\n"
		"  return %0 : tensor<4x8xf32>\n}\n", "stablehlo.clamp", false,
		"#sdy.op_sharding_rule<([], [i, j], [])->([i, j]) {i=4, j=8}>"));
}

static void
test_broadcast_and_bitcast(void)
{
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<2x3x5x1x7xf32>) -> tensor<2x5x3x11x7x13xf32> {\n"
		"  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 2, 1, 3, 4] : "
		"(tensor<2x3x5x1x7xf32>) -> tensor<2x5x3x11x7x13xf32>\n"
		"  return %0 : tensor<2x5x3x11x7x13xf32>\n}\n", "stablehlo.broadcast_in_dim", false,
		"#sdy.op_sharding_rule<([i, k, j, l, n])->([i, j, k, m, n, o]) "
		"{i=2, j=5, k=3, l=1, m=11, n=7, o=13}>"));
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<4x2x2xui32>) -> tensor<4x2xui64> {\n"
		"  %0 = stablehlo.bitcast_convert %a : (tensor<4x2x2xui32>) -> tensor<4x2xui64>\n"
		"  return %0 : tensor<4x2xui64>\n}\n", "stablehlo.bitcast_convert", false,
		"#sdy.op_sharding_rule<([i, j, k])->([i, j]) {i=4, j=2, k=2} need_replication={k}>"));
}

static const char concat_text[] =
	"func.func @f(%a: tensor<4x3x256xf32>, %b: tensor<4x5x256xf32>) -> tensor<4x8x256xf32> {\n"
	"  %0 = stablehlo.concatenate %a, %b, dim = 1 : (tensor<4x3x256xf32>, "
	"tensor<4x5x256xf32>) -> tensor<4x8x256xf32>\n"
	"  return %0 : tensor<4x8x256xf32>\n}\n";

static const char slices_concat_text[] =
	"func.func @f(%a: tensor<4x64xbf16>) -> tensor<10x64xbf16> {\n"
	"  %0 = stablehlo.slice %a [0:2, 0:64] : (tensor<4x64xbf16>) -> tensor<2x64xbf16>\n"
	"  %1 = stablehlo.concatenate %a, %0, %a, dim = 0 : (tensor<4x64xbf16>, "
	"tensor<2x64xbf16>, tensor<4x64xbf16>) -> tensor<10x64xbf16>\n"
	"  return %1 : tensor<10x64xbf16>\n}\n";

static void
test_concatenate(void)
{
	CU_ASSERT(expect_rule(concat_text, "stablehlo.concatenate", false,
		"#sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=8, k=256} "
		"need_replication={j}>"));
	CU_ASSERT(expect_rule(concat_text, "stablehlo.concatenate", true,
		"#sdy.op_sharding_rule<([i, k, j], [i, l, j])->([i, m, j]) "
		"{i=4, j=256, k=1, l=1, m=1}>"));
	CU_ASSERT(expect_rule(slices_concat_text, "stablehlo.concatenate", false,
		"#sdy.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j]) {i=10, j=64} "
		"permutation={i}>"));
}

static const char conv_text[] =
	"func.func @f(%a: tensor<2x224x224x192xf32>, %b: tensor<3x3x192x64xf32>) "
	"-> tensor<2x112x112x64xf32> {\n"
	"  %0 = stablehlo.convolution(%a, %b) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->"
	"[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]]} "
	"{batch_group_count = 1 : i64, feature_group_count = 1 : i64} : "
	"(tensor<2x224x224x192xf32>, tensor<3x3x192x64xf32>) -> tensor<2x112x112x64xf32>\n"
	"  return %0 : tensor<2x112x112x64xf32>\n}\n";

static void
test_convolution(void)
{
	CU_ASSERT(expect_rule(conv_text, "stablehlo.convolution", false,
		"#sdy.op_sharding_rule<([i, jk, lm, n], [k, m, n, o])->([i, j, l, o]) "
		"{i=2, j=112, k=2, l=112, m=2, n=192, o=64} reduction={k, m, n} permutation={j, l}>"));
	CU_ASSERT(expect_rule(conv_text, "stablehlo.convolution", true,
		"#sdy.op_sharding_rule<([i, l, m, j], [n, o, j, k])->([i, p, q, k]) "
		"{i=2, j=192, k=64, l=1, m=1, n=1, o=1, p=1, q=1} reduction={j}>"));
}

static void
test_dots(void)
{
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<2x4x8x4x64x32xf32>, %b: tensor<16x32x64x4x2xf32>) "
		"-> tensor<2x4x8x4x16xf32> {\n"
		"  %0 = stablehlo.dot_general %a, %b, batching_dims = [0, 1] x [4, 3], "
		"contracting_dims = [5, 4] x [1, 2] : (tensor<2x4x8x4x64x32xf32>, "
		"tensor<16x32x64x4x2xf32>) -> tensor<2x4x8x4x16xf32>\n"
		"  return %0 : tensor<2x4x8x4x16xf32>\n}\n", "stablehlo.dot_general", false,
		"#sdy.op_sharding_rule<([i, j, k, l, o, n], [m, n, o, j, i])->([i, j, k, l, m]) "
		"{i=2, j=4, k=8, l=4, m=16, n=32, o=64} reduction={n, o}>"));
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<32xf32>, %b: tensor<32x16xf32>) -> tensor<16xf32> {\n"
		"  %0 = stablehlo.dot %a, %b : (tensor<32xf32>, tensor<32x16xf32>) -> tensor<16xf32>\n"
		"  return %0 : tensor<16xf32>\n}\n", "stablehlo.dot", false,
		"#sdy.op_sharding_rule<([j], [j, i])->([i]) {i=16, j=32} reduction={j}>"));
}

static void
test_reductions_and_windows(void)
{
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<2x64x13xf32>, %z: tensor<f32>) -> tensor<2x13xf32> {\n"
		"  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] "
		": (tensor<2x64x13xf32>, tensor<f32>) -> tensor<2x13xf32>\n"
		"  return %0 : tensor<2x13xf32>\n}\n", "stablehlo.reduce", false,
		"#sdy.op_sharding_rule<([i, j, k], [])->([i, k]) {i=2, j=64, k=13} reduction={j}>"));
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<8x16xf32>, %z: tensor<f32>) -> tensor<8x16xf32> {\n"
		"  %0 = \"stablehlo.reduce_window\"(%a, %z) ({\n"
		"  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
		"    %1 = stablehlo.maximum %x, %y : tensor<f32>\n"
		"    stablehlo.return %1 : tensor<f32>\n"
		"  }) {window_dimensions = array<i64: 1, 1>, padding = dense<[[-1, 1], [0, 0]]> : "
		"tensor<2x2xi64>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>\n"
		"  return %0 : tensor<8x16xf32>\n}\n", "stablehlo.reduce_window", true,
		"#sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=8, j=16} permutation={i} "
		"blocked_propagation={i}>"));
}

static const char slice_text[] =
	"func.func @f(%a: tensor<32x4x8xf32>) -> tensor<32x1x2xf32> {\n"
	"  %0 = stablehlo.slice %a [0:32, 1:2, 4:8:2] : (tensor<32x4x8xf32>) -> "
	"tensor<32x1x2xf32>\n"
	"  return %0 : tensor<32x1x2xf32>\n}\n";

static void
test_slices(void)
{
	CU_ASSERT(expect_rule(slice_text, "stablehlo.slice", false,
		"#sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=32, j=4, k=8} "
		"permutation={j, k}>"));
	CU_ASSERT(expect_rule(slice_text, "stablehlo.slice", true,
		"#sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=32, j=4, k=8} "
		"permutation={j, k} blocked_propagation={j, k}>"));
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<32x4x8xf32>, %u: tensor<32x1x2xf32>, %i: tensor<i32>) "
		"-> tensor<32x4x8xf32> {\n"
		"  %0 = stablehlo.dynamic_update_slice %a, %u, %i, %i, %i : (tensor<32x4x8xf32>, "
		"tensor<32x1x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<32x4x8xf32>\n"
		"  return %0 : tensor<32x4x8xf32>\n}\n", "stablehlo.dynamic_update_slice", false,
		"#sdy.op_sharding_rule<([i, j, l], [i, k, m], [], [], [])->([i, j, l]) "
		"{i=32, j=4, k=1, l=8, m=2} need_replication={k, m}>"));
}

static void
test_gather_scatter(void)
{
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<3x4x2x5xf32>, %b: tensor<2x3x3xi64>) "
		"-> tensor<2x3x2x2x1xf32> {\n"
		"  %0 = \"stablehlo.gather\"(%a, %b) {dimension_numbers = #stablehlo.gather<"
		"offset_dims = [2, 3, 4], collapsed_slice_dims = [0], start_index_map = [1, 0, 3], "
		"index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2, 1>, "
		"indices_are_sorted = false} : (tensor<3x4x2x5xf32>, tensor<2x3x3xi64>) "
		"-> tensor<2x3x2x2x1xf32>\n"
		"  return %0 : tensor<2x3x2x2x1xf32>\n}\n", "stablehlo.gather", false,
		"#sdy.op_sharding_rule<([o, k, l, m], [i, j, p])->([i, j, k, l, n]) "
		"{i=2, j=3, k=4, l=2, m=5, n=1, o=3, p=3} reduction={m, o} "
		"need_replication={k, n, p} blocked_propagation={k}>"));
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<3x4x2xf32>, %b: tensor<2x3x2xi64>, %c: tensor<2x3x2x2xf32>) "
		"-> tensor<3x4x2xf32> {\n"
		"  %0 = \"stablehlo.scatter\"(%a, %b, %c) ({\n"
		"  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
		"    %1 = stablehlo.add %x, %y : tensor<f32>\n"
		"    stablehlo.return %1 : tensor<f32>\n"
		"  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], "
		"inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], "
		"index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : "
		"(tensor<3x4x2xf32>, tensor<2x3x2xi64>, tensor<2x3x2x2xf32>) -> tensor<3x4x2xf32>\n"
		"  return %0 : tensor<3x4x2xf32>\n}\n", "stablehlo.scatter", false,
		"#sdy.op_sharding_rule<([n, k, m], [i, j, o], [i, j, l, m])->([n, k, m]) "
		"{i=2, j=3, k=4, l=2, m=2, n=3, o=2} reduction={i, j} need_replication={k, l, o}>"));
	/* StableHLO leaves out an index_vector_dim of 0 (JAX exports do) */
	static const char *const ivd[] = {"", ", index_vector_dim = 0"};
	for (int k = 0; k < 2; k++) {
		char text[1024];
		snprintf(text, sizeof text,
			"func.func @f(%%a: tensor<3xi32>, %%b: tensor<1xi32>, %%c: tensor<i32>) "
			"-> tensor<3xi32> {\n"
			"  %%0 = \"stablehlo.scatter\"(%%a, %%b, %%c) ({\n"
			"  ^bb0(%%x: tensor<i32>, %%y: tensor<i32>):\n"
			"    stablehlo.return %%y : tensor<i32>\n"
			"  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = "
			"[0], scatter_dims_to_operand_dims = [0]%s>} : "
			"(tensor<3xi32>, tensor<1xi32>, tensor<i32>) -> tensor<3xi32>\n"
			"  return %%0 : tensor<3xi32>\n}\n", ivd[k]);
		CU_ASSERT(expect_rule(text, "stablehlo.scatter", false,
			"#sdy.op_sharding_rule<([i], [j], [])->([i]) {i=3, j=1} "
			"need_replication={j}>"));
	}
}

static void
test_misc_ops(void)
{
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<256x32x64x100xf32>) -> tensor<100x32x256x64xf32> {\n"
		"  %0 = stablehlo.transpose %a, dims = [3, 1, 0, 2] : (tensor<256x32x64x100xf32>) "
		"-> tensor<100x32x256x64xf32>\n"
		"  return %0 : tensor<100x32x256x64xf32>\n}\n", "stablehlo.transpose", false,
		"#sdy.op_sharding_rule<([k, j, l, i])->([i, j, k, l]) "
		"{i=100, j=32, k=256, l=64}>"));
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<8x32x64xf32>) -> tensor<8x32x33xcomplex<f32>> {\n"
		"  %0 = stablehlo.fft %a, type = RFFT, length = [32, 64] : (tensor<8x32x64xf32>) "
		"-> tensor<8x32x33xcomplex<f32>>\n"
		"  return %0 : tensor<8x32x33xcomplex<f32>>\n}\n", "stablehlo.fft", false,
		"#sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=8, j=32, k=64} "
		"need_replication={j, k} blocked_propagation={k}>"));
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<8x3x3xf32>, %b: tensor<8x3x5xf32>) -> tensor<8x3x5xf32> {\n"
		"  %0 = \"stablehlo.triangular_solve\"(%a, %b) {left_side = true, lower = true, "
		"unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : "
		"(tensor<8x3x3xf32>, tensor<8x3x5xf32>) -> tensor<8x3x5xf32>\n"
		"  return %0 : tensor<8x3x5xf32>\n}\n", "stablehlo.triangular_solve", false,
		"#sdy.op_sharding_rule<([i, j, l], [i, j, k])->([i, l, k]) "
		"{i=8, j=3, k=5, l=3} need_replication={j, k, l}>"));
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<1x4x1xi32>) -> tensor<1x4x1xi32> {\n"
		"  %0 = \"stablehlo.sort\"(%a) ({\n"
		"  ^bb0(%x: tensor<i32>, %y: tensor<i32>):\n"
		"    %1 = stablehlo.compare GT, %x, %y : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
		"    stablehlo.return %1 : tensor<i1>\n"
		"  }) {dimension = 1 : i64, is_stable = true} : (tensor<1x4x1xi32>) "
		"-> tensor<1x4x1xi32>\n"
		"  return %0 : tensor<1x4x1xi32>\n}\n", "stablehlo.sort", false,
		"#sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=1, j=4, k=1} "
		"need_replication={j} blocked_propagation={j}>"));
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<2xui64>) -> tensor<4x1000xui32> {\n"
		"  %s, %o = stablehlo.rng_bit_generator %a, algorithm = DEFAULT : (tensor<2xui64>) "
		"-> (tensor<2xui64>, tensor<4x1000xui32>)\n"
		"  return %o : tensor<4x1000xui32>\n}\n", "stablehlo.rng_bit_generator", false,
		"#sdy.op_sharding_rule<([i])->([i], [j, k]) {i=2, j=4, k=1000} "
		"need_replication={i} blocked_propagation={i}>"));
}

static void
test_custom_calls(void)
{
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<16x8xf32>) -> (tensor<16x1xf32>, tensor<16x1xi32>) {\n"
		"  %0:2 = stablehlo.custom_call @mhlo.topk(%a) : (tensor<16x8xf32>) "
		"-> (tensor<16x1xf32>, tensor<16x1xi32>)\n"
		"  return %0#0, %0#1 : tensor<16x1xf32>, tensor<16x1xi32>\n}\n",
		"stablehlo.custom_call", false,
		"#sdy.op_sharding_rule<([i, j])->([i, j], [i, j]) {i=16, j=8} "
		"need_replication={j} blocked_propagation={j}>"));
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<8x5x3xf32>) -> (tensor<8x5x3xf32>, tensor<8x3xf32>) {\n"
		"  %0:2 = stablehlo.custom_call @Qr(%a) : (tensor<8x5x3xf32>) "
		"-> (tensor<8x5x3xf32>, tensor<8x3xf32>)\n"
		"  return %0#0, %0#1 : tensor<8x5x3xf32>, tensor<8x3xf32>\n}\n",
		"stablehlo.custom_call", false,
		"#sdy.op_sharding_rule<([i, j, k])->([i, j, k], [i, l]) {i=8, j=5, k=3, l=3} "
		"need_replication={j, k, l}>"));
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>) {\n"
		"  %0:2 = stablehlo.custom_call @Eigh(%a) : (tensor<4x4xf32>) "
		"-> (tensor<4x4xf32>, tensor<4xf32>)\n"
		"  return %0#0, %0#1 : tensor<4x4xf32>, tensor<4xf32>\n}\n",
		"stablehlo.custom_call", false,
		"#sdy.op_sharding_rule<([i, j])->([i, j], [j]) {i=4, j=4}>"));
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
		"  %0 = stablehlo.custom_call @tpu_custom_call(%a) : (tensor<4xf32>) "
		"-> tensor<4xf32>\n"
		"  return %0 : tensor<4xf32>\n}\n", "stablehlo.custom_call", false, "none"));
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<4x2xf32>) -> tensor<2x4xf32> {\n"
		"  %0 = stablehlo.custom_call @foo(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<"
		"([i, j])->([j, i]) {i=4, j=2}, custom>} : (tensor<4x2xf32>) -> tensor<2x4xf32>\n"
		"  return %0 : tensor<2x4xf32>\n}\n", "stablehlo.custom_call", false,
		"#sdy.op_sharding_rule<([i, j])->([j, i]) {i=4, j=2}, custom>"));
}

/* Ops without a rule, and the warning for unknown ops. */
static void
test_no_rule(void)
{
	char *got;

	CU_ASSERT(expect_rule(
		"func.func @f() -> tensor<4xi32> {\n"
		"  %0 = stablehlo.iota dim = 0 : tensor<4xi32>\n"
		"  return %0 : tensor<4xi32>\n}\n", "stablehlo.iota", false, "none"));
	CU_ASSERT(expect_rule(
		"func.func @f(%a: tensor<4x0xf32>) -> tensor<0x8xf32> {\n"
		"  %0 = stablehlo.reshape %a : (tensor<4x0xf32>) -> tensor<0x8xf32>\n"
		"  return %0 : tensor<0x8xf32>\n}\n", "stablehlo.reshape", false, "none"));
	got = rule_of("func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
	              "  %0 = stablehlo.custom_call @mystery(%a) : (tensor<4xf32>) -> "
	              "tensor<4xf32>\n"
	              "  return %0 : tensor<4xf32>\n}\n", "stablehlo.custom_call", false);
	CU_ASSERT_STRING_EQUAL(got, "none");
	CU_ASSERT_PTR_NOT_NULL(strstr(test_diags(), "t.mlir:2:3: warning: custom call @mystery "
	                              "is unknown to SDY sharding rule registry"));
	free(got);
	got = rule_of("func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
	              "  %0 = \"stablehlo.map\"(%a) ({\n"
	              "  ^bb0(%x: tensor<f32>):\n"
	              "    stablehlo.return %x : tensor<f32>\n"
	              "  }) {dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>\n"
	              "  return %0 : tensor<4xf32>\n}\n", "stablehlo.map", false);
	CU_ASSERT_STRING_EQUAL(got, "none");
	CU_ASSERT_PTR_NOT_NULL(strstr(test_diags(), "warning: op 'stablehlo.map' is unknown to "
	                              "SDY sharding rule registry"));
	free(got);
}

/* {====== reshape: expected rules and invariants ========================== */

static char *
reshape_text(const char *in, const char *out)
{
	sli_buf b;
	char *s;

	sli_buf_init(&b);
	sli_buf_printf(&b, "func.func @f(%%a: tensor<%sf32>) -> tensor<%sf32> {\n"
	               "  %%0 = stablehlo.reshape %%a : (tensor<%sf32>) -> tensor<%sf32>\n"
	               "  return %%0 : tensor<%sf32>\n}\n", in, out, in, out, out);
	s = sli_xstrdup(sli_buf_cstr(&b));
	sli_buf_fini(&b);
	return s;
}

static int
reshape_is(const char *in, const char *out, const char *want)
{
	char *t = reshape_text(in, out);
	int ok = expect_rule(t, "stablehlo.reshape", false, want);
	free(t);
	return ok;
}

/*
 * Builds the reshape rule for in -> out ("4x6x", "24x"; "" is a scalar)
 * and checks the invariants: every dim's factor sizes multiply to the dim
 * size, size-1 factors stand alone, every factor is used, each factor
 * appears at most once per tensor, all pass-through, and the input and
 * output factor products agree.
 */
static int
reshape_invariants(const char *in, const char *out)
{
	sl_context *ctx = sl_context_new();
	char *text = reshape_text(in, out);
	sl_module *m = test_parse(ctx, text);
	find f = {"stablehlo.reshape", NULL};
	sl_rule r;
	int ok = 0;

	if (!m)
		goto done;
	sli_walk(m->top, find_op, &f);
	if (!f.found || sli_rule_for_op(m, f.found, NULL, &r) != SLI_RULE_FOUND)
		goto done;
	ok = sli_rule_check(m, f.found, &r) == 0 && r.noperands == 1 && r.nresults == 1 &&
	     !r.reduction.n && !r.need_replication.n && !r.permutation.n && !r.blocked.n;
	for (uint32_t t = 0; t < 2 && ok; t++) {
		const sl_tensor_mapping *tm = t ? &r.results[0] : &r.operands[0];
		const sl_type *ty = t ? f.found->results[0].type : f.found->operands[0]->type;
		for (uint32_t d = 0; d < tm->rank && ok; d++) {
			int64_t p = 1;
			for (uint32_t k = 0; k < tm->dims[d].n; k++)
				p *= r.factor_sizes[tm->dims[d].factors[k]];
			ok = p == ty->dims[d];
		}
	}
	if (ok) {
		int64_t pin = 1, pout = 1;
		for (uint32_t d = 0; d < r.operands[0].rank; d++)
			for (uint32_t k = 0; k < r.operands[0].dims[d].n; k++)
				pin *= r.factor_sizes[r.operands[0].dims[d].factors[k]];
		for (uint32_t d = 0; d < r.results[0].rank; d++)
			for (uint32_t k = 0; k < r.results[0].dims[d].n; k++)
				pout *= r.factor_sizes[r.results[0].dims[d].factors[k]];
		/* factors on one side only multiply to the same leftover on both */
		ok = pin == pout;
	}
done:
	if (!ok)
		fprintf(stderr, "\n  reshape %s -> %s: invariants violated\n%s", in, out,
		        test_diags());
	free(text);
	sl_module_free(m);
	sl_context_free(ctx);
	return ok;
}

static void
test_reshape_rules(void)
{
	CU_ASSERT(reshape_is("2x4x", "8x", "#sdy.op_sharding_rule<([i, j])->([ij]) {i=2, j=4}>"));
	CU_ASSERT(reshape_is("8x", "2x4x", "#sdy.op_sharding_rule<([ij])->([i, j]) {i=2, j=4}>"));
	CU_ASSERT(reshape_is("4x6x", "24x", "#sdy.op_sharding_rule<([i, j])->([ij]) {i=4, j=6}>"));
	CU_ASSERT(reshape_is("2x12x", "4x6x",
		"#sdy.op_sharding_rule<([i, jk])->([ij, k]) {i=2, j=2, k=6}>"));
	CU_ASSERT(reshape_is("4x12x", "4x2x3x2x",
		"#sdy.op_sharding_rule<([i, jkl])->([i, j, k, l]) {i=4, j=2, k=3, l=2}>"));
	CU_ASSERT(reshape_is("8x4x5x", "2x16x5x",
		"#sdy.op_sharding_rule<([ij, k, l])->([i, jk, l]) {i=2, j=4, k=4, l=5}>"));
	CU_ASSERT(reshape_is("3x2x", "2x3x",
		"#sdy.op_sharding_rule<([i, l])->([j, k]) {i=3, j=2, k=3, l=2}>"));
	CU_ASSERT(reshape_is("6x4x", "4x6x",
		"#sdy.op_sharding_rule<([ij, mn])->([ik, ln]) {i=2, j=3, k=2, l=3, m=2, n=2}>"));
	CU_ASSERT(reshape_is("5x2x5x3x", "5x3x5x2x",
		"#sdy.op_sharding_rule<([i, j, l, n])->([i, k, m, o]) "
		"{i=5, j=2, k=3, l=5, m=5, n=3, o=2}>"));
	CU_ASSERT(reshape_is("2x3x8x", "3x4x4x",
		"#sdy.op_sharding_rule<([i, k, mn])->([j, lm, n]) {i=2, j=3, k=3, l=2, m=2, n=4}>"));
	CU_ASSERT(reshape_is("4x7x5x8x", "14x10x8x",
		"#sdy.op_sharding_rule<([ij, l, n, o])->([ik, mn, o]) "
		"{i=2, j=2, k=7, l=7, m=2, n=5, o=8}>"));
	CU_ASSERT(reshape_is("1x8x4x", "8x1x4x1x",
		"#sdy.op_sharding_rule<([i, j, l])->([j, k, l, m]) {i=1, j=8, k=1, l=4, m=1}>"));
	CU_ASSERT(reshape_is("32x", "8x1x4x",
		"#sdy.op_sharding_rule<([ik])->([i, j, k]) {i=8, j=1, k=4}>"));
	CU_ASSERT(reshape_is("1x1x", "", "#sdy.op_sharding_rule<([i, j])->([]) {i=1, j=1}>"));
}

static void
test_reshape_invariants(void)
{
	static const char *const pairs[][2] = {
		{"4x6x", "24x"}, {"24x", "4x6x"}, {"2x12x", "4x6x"}, {"6x4x", "4x6x"},
		{"4x6x", "6x4x"}, {"3x2x", "2x3x"}, {"1x8x4x", "8x1x4x1x"}, {"32x1x", "8x4x"},
		{"8x4x", "32x1x"}, {"1x1x", ""}, {"", "1x1x1x"}, {"7x", "7x"}, {"7x11x", "77x"},
		{"77x", "11x7x"}, {"2x3x5x7x", "210x"}, {"210x", "7x5x3x2x"}, {"6x10x15x", "30x30x"},
		{"30x30x", "6x10x15x"}, {"12x18x", "8x27x"}, {"8x27x", "12x18x"},
		{"1x2x1x3x1x", "6x"}, {"6x", "1x3x1x2x1x"}, {"64x64x", "4096x"},
		{"1024x2x32x32x", "2048x1024x"}, {"16x", "4x4x"}, {"2x128x", "256x"},
		{"9x10x", "6x15x"}, {"6x15x", "9x10x"}, {"4x9x25x", "10x90x"},
		{"2x2x2x2x2x2x2x2x", "256x"}, {"13x17x", "17x13x"}, {"2x3x4x5x6x", "720x"},
		{"720x", "6x5x4x3x2x"}, {"100x", "10x10x"}, {"60x", "4x15x"}, {"15x4x", "6x10x"},
	};
	for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
		CU_ASSERT(reshape_invariants(pairs[i][0], pairs[i][1]));
}

/* }====================================================================== */

/* {====== errors ========================================================== */

/* The rule of the first `name` op fails with `where` and `msg`. */
static int
fails_with(const char *text, const char *name, const char *where, const char *msg)
{
	char *got = rule_of(text, name, false);
	int ok = !strncmp(got, "error: ", 7) && strstr(got, where) && strstr(got, msg);

	if (!ok)
		fprintf(stderr, "\n  want %s %s\n  got  %s\n", where, msg, got);
	free(got);
	return ok;
}

static void
test_malformed_user_rules(void)
{
	CU_ASSERT(fails_with(
		"func.func @f(%a: tensor<4x2xf32>) -> tensor<2x4xf32> {\n"
		"  %0 = stablehlo.custom_call @foo(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<"
		"([i, j], [i, j])->([j, i]) {i=4, j=2}>} : (tensor<4x2xf32>) -> tensor<2x4xf32>\n"
		"  return %0 : tensor<2x4xf32>\n}\n", "stablehlo.custom_call", "t.mlir:2:3:",
		"number of operands and mappings must match: 1 != 2"));
	CU_ASSERT(fails_with(
		"func.func @f(%a: tensor<4x2xf32>) -> tensor<2x4xf32> {\n"
		"  %0 = stablehlo.custom_call @foo(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<"
		"([i, k])->([j, i]) {i=4, j=2}>} : (tensor<4x2xf32>) -> tensor<2x4xf32>\n"
		"  return %0 : tensor<2x4xf32>\n}\n", "stablehlo.custom_call", "t.mlir:2:3:",
		"expecting factor indices to be within 0<=...<num_factors; received: 2, "
		"num_factors: 2"));
	CU_ASSERT(fails_with(
		"func.func @f(%a: tensor<4x2xf32>) -> tensor<2x4xf32> {\n"
		"  %0 = stablehlo.custom_call @foo(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<"
		"([i])->([j, i]) {i=4, j=2}>} : (tensor<4x2xf32>) -> tensor<2x4xf32>\n"
		"  return %0 : tensor<2x4xf32>\n}\n", "stablehlo.custom_call", "t.mlir:2:3:",
		"operand - mapping rank must match: 1 != 2"));
	CU_ASSERT(fails_with(
		"func.func @f(%a: tensor<4x2xf32>) -> tensor<2x4xf32> {\n"
		"  %0 = stablehlo.custom_call @foo(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<"
		"([i, jk])->([j, i]) {i=4, j=2, k=1}>} : (tensor<4x2xf32>) -> tensor<2x4xf32>\n"
		"  return %0 : tensor<2x4xf32>\n}\n", "stablehlo.custom_call", "t.mlir:2:3:",
		"dim mapping can't have a factor of size 1 if there are multiple factors"));
	CU_ASSERT(fails_with(
		"func.func @f(%a: tensor<4x2xf32>) -> tensor<2x4xf32> {\n"
		"  %0 = stablehlo.custom_call @foo(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<"
		"([i, j])->([j, i]) {i=4, j=2} reduction={j}>} : (tensor<4x2xf32>) "
		"-> tensor<2x4xf32>\n"
		"  return %0 : tensor<2x4xf32>\n}\n", "stablehlo.custom_call", "t.mlir:2:3:",
		"reduction factor cannot be in result mappings"));
}

static void
test_contradicting_types(void)
{
	CU_ASSERT(fails_with(
		"func.func @f(%a: tensor<4x2xf32>) -> tensor<2x4xf32> {\n"
		"  %0 = \"stablehlo.transpose\"(%a) {permutation = array<i64: 1, 7>} : "
		"(tensor<4x2xf32>) -> tensor<2x4xf32>\n"
		"  return %0 : tensor<2x4xf32>\n}\n", "stablehlo.transpose", "t.mlir:2:3:",
		"'stablehlo.transpose' op permutation entry 1 (7) does not match the types"));
	CU_ASSERT(fails_with(
		"func.func @f(%a: tensor<4x6xf32>) -> tensor<25xf32> {\n"
		"  %0 = \"stablehlo.reshape\"(%a) : (tensor<4x6xf32>) -> tensor<25xf32>\n"
		"  return %0 : tensor<25xf32>\n}\n", "stablehlo.reshape", "t.mlir:2:3:",
		"operand has 24 elements but result has 25"));
	CU_ASSERT(fails_with(
		"func.func @f(%a: tensor<4xf32>) -> tensor<4x8xf32> {\n"
		"  %0 = \"stablehlo.broadcast_in_dim\"(%a) {broadcast_dimensions = array<i64: 1>} : "
		"(tensor<4xf32>) -> tensor<4x8xf32>\n"
		"  return %0 : tensor<4x8xf32>\n}\n", "stablehlo.broadcast_in_dim", "t.mlir:2:3:",
		"cannot be broadcast"));
	CU_ASSERT(fails_with(
		"func.func @f(%a: tensor<8x32xf32>, %b: tensor<32x16xf32>) -> tensor<8x16xf32> {\n"
		"  %0 = \"stablehlo.dot_general\"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<"
		"lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [0]>} : "
		"(tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>\n"
		"  return %0 : tensor<8x16xf32>\n}\n", "stablehlo.dot_general", "t.mlir:2:3:",
		"lhs_contracting_dimensions contains dimension 3, out of range for rank 2"));
}

/* }====================================================================== */

static void
test_factor_names(void)
{
	sli_buf b;

	sli_buf_init(&b);
	sli_rule_factor_name(&b, 0);
	sli_rule_factor_name(&b, 17);
	sli_rule_factor_name(&b, 18);
	sli_rule_factor_name(&b, 27);
	CU_ASSERT_STRING_EQUAL(sli_buf_cstr(&b), "izz_1z_10");
	sli_buf_fini(&b);
}

/*
 * sli_rule_local: rules that depend on more than the op itself (operand
 * producers, users, the scatter body) may not be shared between ops.
 */
static const char local_text[] =
	"func.func @f(%a: tensor<4x8xf32>, %i: tensor<2x1xi32>, %u: tensor<2x8xf32>, "
	"%s: tensor<i32>) -> tensor<4x8xf32> {\n"
	"  %0 = stablehlo.add %a, %a : tensor<4x8xf32>\n"
	"  %1 = stablehlo.concatenate %0, %a, dim = 0 : (tensor<4x8xf32>, tensor<4x8xf32>) "
	"-> tensor<8x8xf32>\n"
	"  %2 = stablehlo.dynamic_update_slice %0, %u, %s, %s : (tensor<4x8xf32>, "
	"tensor<2x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>\n"
	"  %3 = \"stablehlo.scatter\"(%0, %i, %u) ({\n"
	"  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
	"    %r = stablehlo.add %x, %y : tensor<f32>\n"
	"    stablehlo.return %r : tensor<f32>\n"
	"  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], "
	"inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], "
	"index_vector_dim = 1>} : (tensor<4x8xf32>, tensor<2x1xi32>, tensor<2x8xf32>) "
	"-> tensor<4x8xf32>\n"
	"  %4 = stablehlo.custom_call @Foo(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>\n"
	"  %cst = stablehlo.constant dense<0.0> : tensor<f32>\n"
	"  %5 = stablehlo.reduce(%4 init: %cst) applies stablehlo.add across dimensions = [1] "
	": (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>\n"
	"  return %0 : tensor<4x8xf32>\n}\n";

static void
test_local_rules(void)
{
	static const struct {
		const char *name;
		bool local;
	} want[] = {
		{"stablehlo.add", true},
		{"stablehlo.concatenate", false},
		{"stablehlo.dynamic_update_slice", false},
		{"stablehlo.scatter", false},
		{"stablehlo.custom_call", false},
		{"stablehlo.reduce", true},
	};
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx, local_text);

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		find f = {want[i].name, NULL};
		sli_walk(m->top, find_op, &f);
		CU_ASSERT_PTR_NOT_NULL(f.found);
		if (f.found && sli_rule_local(f.found) != want[i].local)
			CU_FAIL(want[i].name);
	}
	sl_module_free(m);
	sl_context_free(ctx);
}

CU_TestInfo tests_rules[] = {
	{"ops whose rule may be shared", test_local_rules},
	{"pointwise, select, clamp", test_pointwise},
	{"broadcast_in_dim, bitcast_convert", test_broadcast_and_bitcast},
	{"concatenate", test_concatenate},
	{"convolution", test_convolution},
	{"dot, dot_general", test_dots},
	{"reduce, reduce_window", test_reductions_and_windows},
	{"slice, dynamic_update_slice", test_slices},
	{"gather, scatter", test_gather_scatter},
	{"transpose, fft, triangular_solve, sort, rng", test_misc_ops},
	{"custom_call targets and user rules", test_custom_calls},
	{"ops without a rule", test_no_rule},
	{"reshape rules", test_reshape_rules},
	{"reshape invariants", test_reshape_invariants},
	{"malformed user rules", test_malformed_user_rules},
	{"types contradicting attributes", test_contradicting_types},
	{"factor names", test_factor_names},
	CU_TEST_INFO_NULL,
};
