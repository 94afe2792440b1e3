/*
 * test_pipeline.c - unit tests of the pipeline runner (pipeline.h): the
 * mode and census conditions of steps, and verify-each, which must catch
 * a step that breaks the module and name it.
 */
#include "tests.h"

#include "pipeline/pipeline.h"
#include "passes/passutil.h"

#include <stdlib.h>
#include <string.h>

static const char *const text =
	"sdy.mesh @mesh = <[\"x\"=2]>\n"
	"func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}]>})"
	" -> tensor<8xf32> {\n"
	"  return %arg0 : tensor<8xf32>\n"
	"}\n";

static int ran;			/* bit i: step i ran */

static int
step0(sl_module *m, const sli_pass_opts *o)
{
	ran |= 1;
	return 0;
}

/* Breaks the module: erases the mesh its sharding names. */
static int
step1(sl_module *m, const sli_pass_opts *o)
{
	ran |= 2;
	sl_block *body = sli_module_body(m);
	for (sl_op *op = body->first; op; op = op->next)
		if (op->kind == SL_OP_SDY_MESH) {
			sli_op_erase(op);
			break;
		}
	return 0;
}

static int
step2(sl_module *m, const sli_pass_opts *o)
{
	ran |= 4;
	return 0;
}

static const sli_step steps[] = {
	{"first-step", step0, NULL, 0, 0, 0, 0},
	{"mesh-eraser", step1, NULL, 0, 0, 0, 0},
	{"last-step", step2, NULL, 0, 0, 0, 0},
};

static const sli_pipeline broken = {"broken", steps, 3};

/* Runs the broken pipeline on text with verify-each as asked. */
static int
run_broken(bool verify_each)
{
	sl_context *ctx = sl_context_new();
	sl_context_set_verify_each(ctx, verify_each);
	sl_module *m = test_parse(ctx, text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	sli_pipeline_state s;
	sli_pipeline_start(&s, m, false, false);
	ran = 0;
	int rc = sli_pipeline_run(m, &broken, &s);
	sl_module_free(m);
	sl_context_free(ctx);
	return rc;
}

static void
test_verify_each_names_step(void)
{
	CU_ASSERT_EQUAL(run_broken(true), -1);
	CU_ASSERT_EQUAL(ran, 3);	/* stopped after the broken step */
	CU_ASSERT_PTR_NOT_NULL(strstr(test_diags(),
	                              "module does not verify after step 'mesh-eraser'"));
	CU_ASSERT_PTR_NULL(strstr(test_diags(), "'first-step'"));
}

static void
test_verify_each_off(void)
{
	/* make check turns verify-each on for every context */
	char *env = getenv("SHARDLP_VERIFY_EACH");
	env = env ? strdup(env) : NULL;
	unsetenv("SHARDLP_VERIFY_EACH");
	CU_ASSERT_EQUAL(run_broken(false), 0);
	CU_ASSERT_EQUAL(ran, 7);
	setenv("SHARDLP_VERIFY_EACH", "1", 1);
	CU_ASSERT_EQUAL(run_broken(false), -1);	/* the environment turns it on */
	if (env)
		setenv("SHARDLP_VERIFY_EACH", env, 1);
	else
		unsetenv("SHARDLP_VERIFY_EACH");
	free(env);
}

static const sli_step cond[] = {
	{"dedup", step0, NULL, SLI_WHEN_DEDUP, 0, 0, 0},
	{"calls", step1, NULL, SLI_WHEN_CALLS | SLI_WHEN_NO_DEDUP, 0, 0, 0},
	{"groups", step2, NULL, 0, SLI_HAS_GROUP, 0, 0},
};

/* Steps run only in their mode and with their ops in the census. */
static void
test_conditions(void)
{
	static const sli_pipeline p = {"cond", cond, 3};
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx, text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	sli_pipeline_state s;
	sli_pipeline_start(&s, m, true, true);
	ran = 0;
	CU_ASSERT_EQUAL(sli_pipeline_run(m, &p, &s), 0);
	CU_ASSERT_EQUAL(ran, 1);
	s.census |= SLI_HAS_GROUP;
	ran = 0;
	CU_ASSERT_EQUAL(sli_pipeline_run(m, &p, &s), 0);
	CU_ASSERT_EQUAL(ran, 5);
	sl_module_free(m);
	sl_context_free(ctx);
}

CU_TestInfo tests_pipeline[] = {
	{"verify-each names the step that broke the module", test_verify_each_names_step},
	{"verify-each off, and on by the environment", test_verify_each_off},
	{"mode and census conditions", test_conditions},
	CU_TEST_INFO_NULL,
};
