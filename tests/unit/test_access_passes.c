/*
 * test_access_passes.c - the block of ir/access that the passes and the
 * verifier use: per-value lists of results and of computation arguments,
 * the raw attributes the verifier checks, manual axes, meshes, callees
 * and the uses of a value.
 */
#include "tests.h"

#include <stdlib.h>
#include <string.h>

#include "ir/access.h"
#include "ir/axis.h"

static const char module_text[] =
	"sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n"
	"func.func private @g(tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"b\"}]>})"
	" -> tensor<8xf32>\n"
	"func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}]>})"
	" -> tensor<8xf32> {\n"
	"  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"b\"}]>]>} : tensor<8xf32>\n"
	"  %1 = sdy.sharding_constraint %0 <@mesh, [{\"a\"}]> : tensor<8xf32>\n"
	"  %2 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{\"a\"}]>]"
	" out_shardings=[<@mesh, [{\"a\"}]>] manual_axes={\"a\"} (%arg1: tensor<4xf32>) {\n"
	"    sdy.return %arg1 : tensor<4xf32>\n"
	"  } : (tensor<8xf32>) -> tensor<8xf32>\n"
	"  %3 = func.call @g(%2) : (tensor<8xf32>) -> tensor<8xf32>\n"
	"  %4 = stablehlo.add %3, %3 : tensor<8xf32>\n"
	"  return %4 : tensor<8xf32>\n"
	"}\n";

static void
test_lists(void)
{
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx, module_text);
	CU_ASSERT_FATAL(m && !sl_module_verify(m));
	sl_op *g = m->top->regions[0].first->first->next, *main = g->next;
	sl_op *abs = sli_func_body(main)->first, *c = abs->next, *mc = c->next;
	sl_op *call = mc->next, *add = call->next;

	/* results: a list, one sharding, a computation's out_shardings */
	CU_ASSERT_PTR_NOT_NULL(sli_result_spv(abs));
	CU_ASSERT_PTR_NULL(sli_result_spv(c));
	CU_ASSERT_PTR_NOT_NULL(sli_result_spv(mc));
	CU_ASSERT_PTR_NULL(sli_result_spv(add));
	/* in_shardings: only computations have them */
	CU_ASSERT_PTR_NOT_NULL(sli_comp_in_sharding(mc, 0));
	CU_ASSERT_PTR_NULL(sli_comp_in_sharding(mc, 1));
	CU_ASSERT_PTR_NULL(sli_comp_in_spv(abs));
	/* the raw attributes, of a definition and of a declaration */
	const sl_attr *a = sli_func_arg_sharding_attr(main, 0);
	CU_ASSERT_TRUE(a && a->kind == SL_ATTR_SHARDING);
	a = sli_func_arg_sharding_attr(g, 0);
	CU_ASSERT_TRUE(a && a->kind == SL_ATTR_SHARDING);
	CU_ASSERT_PTR_NULL(sli_func_arg_sharding_attr(g, 1));
	CU_ASSERT_PTR_NULL(sli_func_res_sharding_attr(main, 0));
	CU_ASSERT_PTR_NULL(sli_arg_sharding_attr(&mc->regions[0].first->args[0]));
	/* manual axes and meshes */
	const sl_axis_list *manual = sli_manual_axes(mc);
	CU_ASSERT_TRUE(manual && manual->n == 1);
	CU_ASSERT_PTR_NULL(sli_manual_axes(abs));
	const sl_mesh *mesh = sli_sharding_mesh(m, sli_result_sharding(c, 0));
	CU_ASSERT_TRUE(mesh && mesh->naxes == 2);
	CU_ASSERT_PTR_EQUAL(mesh, sli_mesh_op_mesh(m->top->regions[0].first->first));
	/* calls */
	CU_ASSERT_PTR_EQUAL(sli_call_func(m, call), g);
	CU_ASSERT_EQUAL(sli_call_callee(m, add), 0);
	/* uses: both operands of the add */
	sli_usevec u = {0};
	sli_value_uses(&call->results[0], &u);
	CU_ASSERT_EQUAL(u.n, 2);
	CU_ASSERT_TRUE(u.n == 2 && u.v[0].user == add && u.v[0].index == 0 &&
	               u.v[1].index == 1);
	SL_VEC_FREE(u);
	sl_module_free(m);
	sl_context_free(ctx);
}

static void
test_setters(void)
{
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx, module_text);
	CU_ASSERT_FATAL(m && !sl_module_verify(m));
	sl_op *main = m->top->regions[0].first->first->next->next;
	sl_op *abs = sli_func_body(main)->first, *mc = abs->next->next;
	sl_op *call = mc->next;

	/* a call's result list lands in its sdy.sharding, read back */
	sl_attr *l = sli_result_spv(abs);
	sli_result_set_spv(m, call, l);
	CU_ASSERT_PTR_EQUAL(sli_result_spv(call), l);
	/* a computation's lists are its in/out_shardings */
	sli_comp_set_in_spv(m, mc, l);
	CU_ASSERT_PTR_EQUAL(sli_comp_in_spv(mc), l);
	sli_result_set_spv(m, mc, NULL);
	CU_ASSERT_PTR_NULL(sli_result_spv(mc));
	sl_sym b = sl_sym_intern(ctx, "b", 1);
	sl_axis_ref *v = SL_NEWN(&m->arena, sl_axis_ref, 1);
	v[0] = sli_axis_full(b);
	CU_ASSERT_PTR_EQUAL(sli_set_manual_axes(m, mc, v, 1), sli_manual_axes(mc));
	CU_ASSERT_EQUAL(sli_manual_axes(mc)->v[0].name, b);
	sli_call_set_callee(m, call, sl_sym_intern(ctx, "main", 4));
	CU_ASSERT_PTR_EQUAL(sli_call_func(m, call), main);
	sl_module_free(m);
	sl_context_free(ctx);
}

CU_TestInfo tests_access_passes[] = {
	{"the lists, raw attributes and symbols passes read", test_lists},
	{"each setter writes where its getter reads", test_setters},
	CU_TEST_INFO_NULL,
};
