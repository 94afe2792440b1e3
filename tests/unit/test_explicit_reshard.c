/*
 * test_explicit_reshard.c - unit tests of the explicit-reshard planner
 * (src/passes/explicit_reshard_plan.c) on hand-made rules and shardings,
 * without any IR: element-wise ops, a unary op, a matmul with a sharded
 * contracting dimension, and a sort-like rule whose need-replication
 * factor gives its axes to a batching factor; a dot without the full
 * version, and a reshape whose projection overflows.
 */
#include "tests.h"

#include <string.h>

#include "ir/access.h"
#include "ir/arena.h"
#include "passes/explicit_reshard_plan.h"
#include "propagation/projection.h"

static sl_context *ctx;
static sli_arena arena;
static sl_mesh_axis mesh_axes[3];
static sl_mesh mesh;	/* ["x"=4, "y"=2, "z"=4] */

static void
setup(void)
{
	static const char *names[] = {"x", "y", "z"};
	static const int64_t sizes[] = {4, 2, 4};
	ctx = sl_context_new();
	for (int i = 0; i < 3; i++)
		mesh_axes[i] = (sl_mesh_axis){sl_sym_intern(ctx, names[i], 1), sizes[i]};
	mesh = (sl_mesh){mesh_axes, 3, 0, NULL};
	sli_arena_init(&arena);
}

static void
teardown(void)
{
	sli_arena_fini(&arena);
	sl_context_free(ctx);
	ctx = NULL;
}

/* A closed sharding from "x|y,z|": dimensions split by '|', axes by ','. */
static sl_sharding *
sh(const char *text, uint32_t rank)
{
	sl_sharding *s = SL_NEW(&arena, sl_sharding);
	s->mesh_name = sl_sym_intern(ctx, "mesh", 4);
	s->rank = rank;
	s->dims = SL_NEWN(&arena, sl_dim_sharding, rank);
	const char *p = text;
	for (uint32_t d = 0; d < rank; d++) {
		s->dims[d].priority = SL_NO_PRIORITY;
		s->dims[d].axes.v = SL_NEWN(&arena, sl_axis_ref, 4);
		while (*p && *p != '|') {
			if (*p != ',')
				s->dims[d].axes.v[s->dims[d].axes.n++] =
					sli_axis_full(sl_sym_intern(ctx, p, 1));
			p++;
		}
		if (*p == '|')
			p++;
	}
	return s;
}

/* Whether s has dimensions `text` (same syntax as sh); NULL means "none". */
static bool
is(const sl_sharding *s, const char *text)
{
	if (!s || !text)
		return !s && !text;
	const sl_sharding *want = sh(text, s->rank);
	for (uint32_t d = 0; d < s->rank; d++)
		if (!sli_axis_list_equal(s->dims[d].axes.v, s->dims[d].axes.n,
		                         want->dims[d].axes.v, want->dims[d].axes.n))
			return false;
	return true;
}

/* What kind of op plan_as plans. */
enum { FULL, RESHAPE, DOT_NOT_FULL };

static sli_xr_plan
plan_as(int kind, const sl_rule *rule, const sl_sharding **in, const sl_sharding **out,
        const int64_t *sizes)
{
	sli_xr_in xin = {rule, &mesh, sl_sym_intern(ctx, "mesh", 4), NULL,
	                 rule->noperands, rule->nresults, in, out, NULL, sizes,
	                 kind == RESHAPE, kind != DOT_NOT_FULL, kind == DOT_NOT_FULL};
	sli_xr_plan plan;
	CU_ASSERT_EQUAL(sli_xr_plan_op(ctx, &arena, &arena, &xin, &plan), 0);
	return plan;
}

static sli_xr_plan
plan_of(const sl_rule *rule, const sl_sharding **in, const sl_sharding **out,
        const int64_t *sizes)
{
	return plan_as(FULL, rule, in, out, sizes);
}

/* The identity rule of a 4x32 tensor for n operands and one result. */
static sl_rule
elementwise(uint32_t n)
{
	static int64_t dims[] = {4, 32};
	sl_type t;
	memset(&t, 0, sizeof t);
	t.kind = SL_TYPE_TENSOR;
	t.rank = 2;
	t.dims = dims;
	sl_rule r;
	sli_rule_identity(&arena, &t, n, 1, &r);
	return r;
}

static void
test_compatible(void)
{
	setup();
	sl_rule r = elementwise(2);
	const sl_sharding *in[] = {sh("x|", 2), sh("x|", 2)}, *out[] = {sh("x|", 2)};
	int64_t sizes[] = {128, 128, 128};
	sli_xr_plan p = plan_of(&r, in, out, sizes);
	CU_ASSERT(sli_xr_plan_is_empty(&p));
	teardown();
}

static void
test_binary_conflict(void)
{
	setup();
	/* both operands on x in dim 0, the result on y in dim 1: all take x|y */
	sl_rule r = elementwise(2);
	const sl_sharding *in[] = {sh("x|", 2), sh("x|", 2)}, *out[] = {sh("|y", 2)};
	int64_t sizes[] = {128, 128, 128};
	sli_xr_plan p = plan_of(&r, in, out, sizes);
	CU_ASSERT(is(p.in_to[0], "x|y"));
	CU_ASSERT(is(p.in_to[1], "x|y"));
	CU_ASSERT(is(p.out_as[0], "x|y"));
	CU_ASSERT_EQUAL(p.all_reduce.n, 0);
	teardown();
}

static void
test_unary(void)
{
	setup();
	sl_rule r = elementwise(1);
	int64_t sizes[] = {128, 128};
	/* the larger sharding wins: the operand is resharded */
	const sl_sharding *in[] = {sh("y|", 2)}, *out[] = {sh("x|", 2)};
	sli_xr_plan p = plan_of(&r, in, out, sizes);
	CU_ASSERT(is(p.in_to[0], "x|"));
	CU_ASSERT(is(p.out_as[0], NULL));
	/* a tie keeps the operand: the result is computed as it and resharded */
	const sl_sharding *in2[] = {sh("x|", 2)}, *out2[] = {sh("|z", 2)};
	p = plan_of(&r, in2, out2, sizes);
	CU_ASSERT(is(p.in_to[0], NULL));
	CU_ASSERT(is(p.out_as[0], "x|"));
	teardown();
}

/* lhs MxK, rhs KxN, result MxN: factors m, n, k (k a reduction). */
static sl_rule
matmul(int64_t m, int64_t n, int64_t k)
{
	sl_rule r;
	memset(&r, 0, sizeof r);
	static uint32_t fm = 0, fn = 1, fk = 2;
	r.nfactors = 3;
	r.factor_sizes = SL_NEWN(&arena, int64_t, 3);
	r.factor_sizes[0] = m;
	r.factor_sizes[1] = n;
	r.factor_sizes[2] = k;
	sl_dim_mapping *d = SL_NEWN(&arena, sl_dim_mapping, 6);
	d[0] = (sl_dim_mapping){&fm, 1};
	d[1] = (sl_dim_mapping){&fk, 1};
	d[2] = (sl_dim_mapping){&fk, 1};
	d[3] = (sl_dim_mapping){&fn, 1};
	d[4] = (sl_dim_mapping){&fm, 1};
	d[5] = (sl_dim_mapping){&fn, 1};
	r.operands = SL_NEWN(&arena, sl_tensor_mapping, 2);
	r.results = SL_NEWN(&arena, sl_tensor_mapping, 1);
	r.operands[0] = (sl_tensor_mapping){d, 2};
	r.operands[1] = (sl_tensor_mapping){d + 2, 2};
	r.results[0] = (sl_tensor_mapping){d + 4, 2};
	r.noperands = 2;
	r.nresults = 1;
	r.reduction.v = SL_NEWN(&arena, int64_t, 1);
	r.reduction.v[0] = 2;
	r.reduction.n = 1;
	r.has_reduction = true;
	return r;
}

static void
test_matmul_contracting(void)
{
	setup();
	sl_rule r = matmul(8, 16, 32);
	int64_t sizes[] = {8 * 32, 32 * 16, 8 * 16};
	/* k sharded alike on both sides: no reshard, an all-reduce over x */
	const sl_sharding *in[] = {sh("|x", 2), sh("x|", 2)}, *out[] = {sh("|", 2)};
	sli_xr_plan p = plan_of(&r, in, out, sizes);
	CU_ASSERT(is(p.in_to[0], NULL) && is(p.in_to[1], NULL) && is(p.out_as[0], NULL));
	CU_ASSERT_EQUAL(p.all_reduce.n, 1);
	if (p.all_reduce.n)
		CU_ASSERT_EQUAL(p.all_reduce.v[0].name, sl_sym_intern(ctx, "x", 1));
	/* the result's own sharding of m conflicts with nothing */
	const sl_sharding *in2[] = {sh("y|x", 2), sh("x|", 2)}, *out2[] = {sh("y|", 2)};
	p = plan_of(&r, in2, out2, sizes);
	CU_ASSERT(is(p.in_to[0], NULL) && is(p.in_to[1], NULL) && is(p.out_as[0], NULL));
	CU_ASSERT_EQUAL(p.factor_axes[0].n, 1);
	CU_ASSERT_EQUAL(p.factor_axes[2].n, 1);
	teardown();
}

static void
test_need_replication(void)
{
	setup();
	/* sort along dim 0 of 4x32: factor 0 needs replication; its axis x
	 * moves to the batching factor 1 */
	sl_rule r = elementwise(1);
	r.need_replication.v = SL_NEWN(&arena, int64_t, 1);
	r.need_replication.v[0] = 0;
	r.need_replication.n = 1;
	r.has_need_replication = true;
	int64_t sizes[] = {128, 128};
	const sl_sharding *in[] = {sh("x|", 2)}, *out[] = {NULL};
	sli_xr_plan p = plan_of(&r, in, out, sizes);
	CU_ASSERT(is(p.in_to[0], "|x"));
	CU_ASSERT(is(p.out_as[0], "|x"));
	teardown();
}

static void
test_dot_not_full(void)
{
	setup();
	/* the result conflicts on n with exactly the contracting axes: it is
	 * computed on rhs's axis y and resharded back to x */
	sl_rule r = matmul(4, 8, 32);
	int64_t sizes[] = {4 * 32, 32 * 8, 4 * 8};
	const sl_sharding *in[] = {sh("|x", 2), sh("x|y", 2)}, *out[] = {sh("|x", 2)};
	sli_xr_plan p = plan_as(DOT_NOT_FULL, &r, in, out, sizes);
	CU_ASSERT(is(p.in_to[0], NULL) && is(p.in_to[1], NULL));
	CU_ASSERT(is(p.out_as[0], "|y"));
	CU_ASSERT_EQUAL(p.all_reduce.n, 0);
	teardown();
}

/* Whether dimension d of s is the one sub-axis name:(pre)size. */
static bool
is_sub(const sl_sharding *s, uint32_t d, const char *name, int64_t pre, int64_t size)
{
	const sl_axis_list *l = &s->dims[d].axes;
	return l->n == 1 && l->v[0].sub && l->v[0].name == sl_sym_intern(ctx, name, 1) &&
	       l->v[0].pre == pre && l->v[0].size == size;
}

static void
test_reshape_overflow(void)
{
	setup();
	/* 6x2 -> 12 sharded x,y (x=4, y=2): factor i=6 takes x:(1)2 and
	 * nothing else fits it, so both sides end on x:(1)2 */
	static uint32_t fi = 0, fj = 1, fij[] = {0, 1};
	sl_rule r;
	memset(&r, 0, sizeof r);
	r.nfactors = 2;
	r.factor_sizes = SL_NEWN(&arena, int64_t, 2);
	r.factor_sizes[0] = 6;
	r.factor_sizes[1] = 2;
	sl_dim_mapping *d = SL_NEWN(&arena, sl_dim_mapping, 3);
	d[0] = (sl_dim_mapping){&fi, 1};
	d[1] = (sl_dim_mapping){&fj, 1};
	d[2] = (sl_dim_mapping){fij, 2};
	r.operands = SL_NEWN(&arena, sl_tensor_mapping, 1);
	r.results = SL_NEWN(&arena, sl_tensor_mapping, 1);
	r.operands[0] = (sl_tensor_mapping){d, 2};
	r.results[0] = (sl_tensor_mapping){d + 2, 1};
	r.noperands = r.nresults = 1;
	int64_t sizes[] = {12, 12};
	const sl_sharding *in[] = {sh("|", 2)}, *out[] = {sh("x,y", 1)};
	sli_xr_plan p = plan_as(RESHAPE, &r, in, out, sizes);
	CU_ASSERT(p.in_to[0] && is_sub(p.in_to[0], 0, "x", 1, 2) && !p.in_to[0]->dims[1].axes.n);
	CU_ASSERT(p.out_as[0] && is_sub(p.out_as[0], 0, "x", 1, 2));
	teardown();
}

static void
test_for_op(void)
{
	setup();
	/* an add of the IR planned for hypothetical shardings: x on the
	 * first operand, y on the result; the op itself has none */
	sl_module *m = test_parse(ctx,
		"sdy.mesh @mesh = <[\"x\"=4, \"y\"=2, \"z\"=4]>\n"
		"func.func @f(%a: tensor<4x32xf32>, %b: tensor<4x32xf32>) -> tensor<4x32xf32> {\n"
		"  %0 = stablehlo.add %a, %b : tensor<4x32xf32>\n"
		"  return %0 : tensor<4x32xf32>\n"
		"}\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	sl_op *f = sli_region_entry(&m->top->regions[0])->last;
	sl_op *add = sli_region_entry(&f->regions[0])->first;
	CU_ASSERT_EQUAL_FATAL(add->kind, SL_OP_ADD);
	const sl_sharding *in[] = {sh("x|", 2), NULL}, *out[] = {sh("|y", 2)};
	sli_xr_plan p;
	CU_ASSERT_EQUAL(sli_xr_plan_for_op(m, add, in, out, true, NULL, &arena, &arena, &p), 1);
	CU_ASSERT(is(p.in_to[0], "x|y") && is(p.in_to[1], "x|y") && is(p.out_as[0], "x|y"));
	CU_ASSERT_PTR_NULL(sli_result_sharding(add, 0));
	/* no sharding at all: nothing to plan */
	const sl_sharding *none[] = {NULL, NULL};
	CU_ASSERT_EQUAL(sli_xr_plan_for_op(m, add, none, none, true, NULL, &arena, &arena, &p), 0);
	sl_module_free(m);
	teardown();
}

CU_TestInfo tests_explicit_reshard[] = {
	{"compatible shardings: empty plan", test_compatible},
	{"binary element-wise conflict", test_binary_conflict},
	{"unary op keeps the preferred tensor", test_unary},
	{"matmul: sharded contraction all-reduces", test_matmul_contracting},
	{"need-replication axes move to batching factors", test_need_replication},
	{"dot without the full version reshards its result", test_dot_not_full},
	{"reshape with overflow axes", test_reshape_overflow},
	{"an op of the IR with hypothetical shardings", test_for_op},
	CU_TEST_INFO_NULL
};
