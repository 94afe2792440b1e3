/*
 * test_access.c - ir/access.c: where each sharding is stored.  Every
 * kind of value of the table in access.h is read, then written and read
 * back, and the printed module shows the write landed in the right
 * attribute.
 */
#include "tests.h"

#include <stdlib.h>
#include <string.h>

#include "formats/mlir_printer.h"
#include "ir/access.h"
#include "ir/ir.h"

static const char module_text[] =
	"sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n"
	"func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}, {}]>})"
	" -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {\"b\"}]>}) {\n"
	"  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"b\"}, {}]>]>} : tensor<8x8xf32>\n"
	"  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {\"a\"}]> : tensor<8x8xf32>\n"
	"  %2 = sdy.all_gather [{}, {\"a\"}] %1 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>\n"
	"  %3 = sdy.named_computation<\"f\">(%2) in_shardings=[<@mesh, [{\"a\", \"b\"}, {}]>]"
	" out_shardings=[<@mesh, [{}, {\"a\", \"b\"}]>] (%arg1: tensor<8x8xf32>) {\n"
	"    %4 = stablehlo.negate %arg1 : tensor<8x8xf32>\n"
	"    sdy.return %4 : tensor<8x8xf32>\n"
	"  } : (tensor<8x8xf32>) -> tensor<8x8xf32>\n"
	"  %5 = sdy.manual_computation(%3) in_shardings=[<@mesh, [{\"a\"}, {}]>]"
	" out_shardings=[<@mesh, [{\"a\"}, {}]>] manual_axes={\"a\"} (%arg2: tensor<4x8xf32>) {\n"
	"    sdy.return %arg2 : tensor<4x8xf32>\n"
	"  } : (tensor<8x8xf32>) -> tensor<8x8xf32>\n"
	"  %6 = stablehlo.add %5, %5 : tensor<8x8xf32>\n"
	"  return %6 : tensor<8x8xf32>\n"
	"}\n";

/* The sharding as printed, "-" for none (static buffer). */
static const char *
show(const sl_context *ctx, const sl_sharding *s)
{
	static char out[256];
	if (!s)
		return "-";
	sli_buf b;
	sli_buf_init(&b);
	sli_print_sharding(&b, ctx, s, false);
	snprintf(out, sizeof out, "%s", sli_buf_cstr(&b));
	sli_buf_fini(&b);
	return out;
}

typedef struct fixture {
	sl_context *ctx;
	sl_module *m;
	sl_op *func;
	sl_op *op[7];	/* abs, constraint, all_gather, named, negate, manual, add */
} fixture;

static bool
setup(fixture *f)
{
	f->ctx = sl_context_new();
	f->m = test_parse(f->ctx, module_text);
	if (!f->m || sl_module_verify(f->m))
		return false;
	f->func = f->m->top->regions[0].first->last;
	sl_op *o = sli_func_body(f->func)->first;
	f->op[0] = o;				/* abs */
	f->op[1] = o->next;			/* constraint */
	f->op[2] = o->next->next;		/* all_gather */
	f->op[3] = f->op[2]->next;		/* named computation */
	f->op[4] = f->op[3]->regions[0].first->first;	/* negate */
	f->op[5] = f->op[3]->next;		/* manual computation */
	f->op[6] = f->op[5]->next;		/* add */
	return true;
}

static void
teardown(fixture *f)
{
	sl_module_free(f->m);
	sl_context_free(f->ctx);
}

static void
test_getters(void)
{
	fixture f;
	CU_ASSERT_TRUE_FATAL(setup(&f));
	sl_block *body = sli_func_body(f.func);
	sl_value *mc_arg = &f.op[5]->regions[0].first->args[0];
	sl_value *nc_arg = &f.op[3]->regions[0].first->args[0];
	CU_ASSERT_STRING_EQUAL(show(f.ctx, sli_value_sharding(&body->args[0])),
	                       "<@mesh, [{\"a\"}, {}]>");
	CU_ASSERT_STRING_EQUAL(show(f.ctx, sli_func_arg_sharding(f.func, 0)),
	                       "<@mesh, [{\"a\"}, {}]>");
	CU_ASSERT_STRING_EQUAL(show(f.ctx, sli_func_res_sharding(f.func, 0)),
	                       "<@mesh, [{}, {\"b\"}]>");
	CU_ASSERT_STRING_EQUAL(show(f.ctx, sli_value_sharding(&f.op[0]->results[0])),
	                       "<@mesh, [{\"b\"}, {}]>");
	CU_ASSERT_STRING_EQUAL(show(f.ctx, sli_value_sharding(&f.op[1]->results[0])),
	                       "<@mesh, [{}, {\"a\"}]>");
	CU_ASSERT_STRING_EQUAL(show(f.ctx, sli_value_sharding(&f.op[2]->results[0])),
	                       "<@mesh, [{}, {}]>");
	CU_ASSERT_STRING_EQUAL(show(f.ctx, sli_value_sharding(&f.op[3]->results[0])),
	                       "<@mesh, [{}, {\"a\", \"b\"}]>");
	CU_ASSERT_STRING_EQUAL(show(f.ctx, sli_value_sharding(nc_arg)),
	                       "<@mesh, [{\"a\", \"b\"}, {}]>");
	CU_ASSERT_STRING_EQUAL(show(f.ctx, sli_value_sharding(mc_arg)),
	                       "<@mesh, [{\"a\"}, {}]>");
	CU_ASSERT_STRING_EQUAL(show(f.ctx, sli_value_sharding(&f.op[4]->results[0])), "-");
	CU_ASSERT_STRING_EQUAL(show(f.ctx, sli_value_sharding(&f.op[6]->results[0])), "-");
	CU_ASSERT_EQUAL(sli_single_sharding_prop(f.op[1]), SLS_sharding);
	CU_ASSERT_EQUAL(sli_single_sharding_prop(f.op[2]), SLS_out_sharding);
	CU_ASSERT_EQUAL(sli_single_sharding_prop(f.op[0]), 0);
	teardown(&f);
}

/* Sets v's sharding to s and reads it back as want. */
static void
set_and_get(fixture *f, sl_value *v, const sl_sharding *s, const char *want)
{
	sli_value_set_sharding(f->m, v, s);
	CU_ASSERT_STRING_EQUAL(show(f->ctx, sli_value_sharding(v)), want);
}

static void
test_setters(void)
{
	fixture f;
	CU_ASSERT_TRUE_FATAL(setup(&f));
	/* the constraint's sharding, <@mesh, [{}, {"a"}]>, is the one to write */
	const sl_sharding *s = sli_value_sharding(&f.op[1]->results[0]);
	const sl_sharding *gathered = sli_value_sharding(&f.op[2]->results[0]);
	const char *want = "<@mesh, [{}, {\"a\"}]>";
	sl_block *body = sli_func_body(f.func);
	set_and_get(&f, &body->args[0], s, want);
	set_and_get(&f, &f.op[0]->results[0], s, want);
	set_and_get(&f, &f.op[2]->results[0], s, want);
	set_and_get(&f, &f.op[3]->results[0], s, want);
	set_and_get(&f, &f.op[3]->regions[0].first->args[0], s, want);
	set_and_get(&f, &f.op[6]->results[0], s, want);
	sli_func_set_res_sharding(f.m, f.func, 0, s);
	CU_ASSERT_STRING_EQUAL(show(f.ctx, sli_func_res_sharding(f.func, 0)), want);

	/* each write landed in the attribute the table names */
	char *out = test_print(f.m);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "%arg0: tensor<8x8xf32> {sdy.sharding = "
	                              "#sdy.sharding<@mesh, [{}, {\"a\"}]>}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "-> (tensor<8x8xf32> {sdy.sharding = "
	                              "#sdy.sharding<@mesh, [{}, {\"a\"}]>})"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "out_sharding=<@mesh, [{}, {\"a\"}]>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "in_shardings=[<@mesh, [{}, {\"a\"}]>] "
	                              "out_shardings=[<@mesh, [{}, {\"a\"}]>]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "stablehlo.add %4, %4 {sdy.sharding = "
	                              "#sdy.sharding_per_value<[<@mesh, [{}, {\"a\"}]>]>}"));
	free(out);
	/* the all_gather's own out_sharding back: the module is valid again */
	set_and_get(&f, &f.op[2]->results[0], gathered, "<@mesh, [{}, {}]>");
	CU_ASSERT_EQUAL(sl_module_verify(f.m), 0);
	teardown(&f);
}

CU_TestInfo tests_access[] = {
	{"each kind of value reads its own attribute", test_getters},
	{"each setter writes where its getter reads", test_setters},
	CU_TEST_INFO_NULL,
};
