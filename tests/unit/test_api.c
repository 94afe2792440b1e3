/*
 * test_api.c - the public API of shardlp.h seen as a user sees it: this
 * file includes no internal header.  Cost parameters and the XML mesh
 * description, scoring, comparing two modules' shardings, the ILP and
 * its report, the rule listing, and reading a text.
 */
#include "tests.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *
srcdir(void)
{
	const char *s = getenv("top_srcdir");
	return s && *s ? s : ".";
}

/* data/NAME parsed into ctx (without a sink: diagnostics dropped). */
static sl_module *
data(sl_context *ctx, const char *name)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/data/%s", srcdir(), name);
	return sl_module_parse_file(ctx, path);
}

static void
test_params(void)
{
	sl_cost_params p;
	sl_cost_params_init(&p);
	/* the default cluster of shardlp-cost(7) */
	CU_ASSERT_DOUBLE_EQUAL(p.bandwidth, 100e9, 1);
	CU_ASSERT_DOUBLE_EQUAL(p.latency, 5e-6, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(p.flops, 100e12, 1);
	CU_ASSERT_DOUBLE_EQUAL(p.hbm, 16e9, 1);
	CU_ASSERT_EQUAL(p.memory_budget, SL_COST_BUDGET_HBM);
	CU_ASSERT_EQUAL(p.naxes, 0);

	/* the file's links come first, so an axis given by the user wins;
	 * a figure the user gave stays */
	sl_context *ctx = sl_context_new();
	sl_module *m = data(ctx, "mlp.mlir");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	p.hbm = 3e9;
	p.axes[0] = (sl_cost_axis){"x", 0.5e9, 2e-6};
	p.naxes = 1;
	char path[4096];
	snprintf(path, sizeof path, "%s/data/mesh-4x2.xml", srcdir());
	CU_ASSERT_EQUAL(sl_cost_params_read_mesh_xml(ctx, path, m, &p,
	                SL_COST_GIVEN_HBM), 0);
	CU_ASSERT_DOUBLE_EQUAL(p.hbm, 3e9, 1);
	CU_ASSERT_DOUBLE_EQUAL(p.flops, 100e12, 1);
	CU_ASSERT_EQUAL_FATAL(p.naxes, 3);
	CU_ASSERT_STRING_EQUAL(p.axes[0].name, "x");
	CU_ASSERT_DOUBLE_EQUAL(p.axes[0].bandwidth, 25e9, 1);
	CU_ASSERT_DOUBLE_EQUAL(p.axes[0].latency, 10e-6, 1e-15);
	CU_ASSERT_STRING_EQUAL(p.axes[1].name, "y");
	CU_ASSERT_DOUBLE_EQUAL(p.axes[2].bandwidth, 0.5e9, 1);

	/* read again into the same params: the same list, not the file's
	 * links twice */
	sl_cost_params again = p;
	CU_ASSERT_EQUAL(sl_cost_params_read_mesh_xml(ctx, path, m, &again,
	                SL_COST_GIVEN_HBM), 0);
	CU_ASSERT_EQUAL(again.naxes, p.naxes);

	/* a missing file: -1 and p untouched */
	sl_cost_params q = p;
	CU_ASSERT_EQUAL(sl_cost_params_read_mesh_xml(ctx, "/nonexistent.xml", m, &p, 0), -1);
	CU_ASSERT_EQUAL(memcmp(&p, &q, sizeof p), 0);
	sl_module_free(m);
	sl_context_free(ctx);
}

/* Counts the diagnostics reported through a context. */
static void
count_diag(void *ud, const sl_diag *d)
{
	(void)d;
	++*(int *)ud;
}

/* A count past the axes array is read as the array; a failed score
 * fills no garbage and says why. */
static void
test_params_misuse(void)
{
	sl_context *ctx = sl_context_new();
	int ndiag = 0;
	sl_context_set_diag(ctx, count_diag, &ndiag);
	sl_module *m = data(ctx, "mlp.mlir");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	sl_cost_params p;
	sl_cost_params_init(&p);
	for (uint32_t i = 0; i < 2 * SL_COST_MAX_AXES; i++)
		p.axes[i] = (sl_cost_axis){"x", 0.5e9, 2e-6};
	p.naxes = 2 * SL_COST_MAX_AXES + 5;
	sl_cost_parts a, b;
	CU_ASSERT_EQUAL(sl_cost_eval(m, &p, &a), 0);
	p.naxes = 2 * SL_COST_MAX_AXES;
	CU_ASSERT_EQUAL(sl_cost_eval(m, &p, &b), 0);
	CU_ASSERT_DOUBLE_EQUAL(a.total, b.total, 1e-15);
	sl_module_free(m);

	static const char no_mesh[] =
		"func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
		"  return %arg0 : tensor<8xf32>\n"
		"}\n";
	m = sl_module_parse(ctx, "no_mesh.mlir", no_mesh, sizeof no_mesh - 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	memset(&a, 0x7f, sizeof a);
	ndiag = 0;
	CU_ASSERT_EQUAL(sl_cost_eval(m, &p, &a), -1);
	CU_ASSERT_DOUBLE_EQUAL(a.total, 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(a.peak_bytes, 0, 0);
	CU_ASSERT(ndiag > 0);
	sl_module_free(m);
	sl_context_free(ctx);
}

static void
test_solve_and_compare(void)
{
	sl_context *ctx = sl_context_new();
	sl_module *greedy = data(ctx, "mlp.mlir"), *m = data(ctx, "mlp.mlir");
	CU_ASSERT_PTR_NOT_NULL_FATAL(greedy);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	char err[256];
	CU_ASSERT_EQUAL_FATAL(sl_pass_run(greedy, "sdy-basic-propagate", "", err,
	                                  sizeof err), 0);
	sl_cost_parts g;
	CU_ASSERT_EQUAL_FATAL(sl_cost_eval(greedy, NULL, &g), 0);
	CU_ASSERT_DOUBLE_EQUAL(g.total, g.communication + g.compute, 1e-15);
	CU_ASSERT(g.peak_bytes > 0);

	sl_solve_opts so;
	sl_solve_result r;
	sl_solve_opts_init(&so);
	so.start = greedy;
	CU_ASSERT_EQUAL_FATAL(sl_solve(m, &so, &r), 0);
	CU_ASSERT_EQUAL(r.status, SL_SOLVE_OPTIMAL);
	CU_ASSERT_STRING_EQUAL(sl_solve_status_name(r.status), "optimal");
	CU_ASSERT(r.parts.total <= g.total + 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.parts.total, r.objective, 1e-6);
	CU_ASSERT(r.nbinaries > 0 && r.nrows > 0);
	CU_ASSERT(sl_solve_clock() > 0);

	/* the ILP's answer differs from greedy's on some tensors, not on
	 * itself; NULL compares to nothing */
	sl_assignment *a = sl_assignment_read(m, NULL);
	sl_assignment *b = sl_assignment_read(greedy, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_EQUAL(sl_assignment_diff(a, a), 0);
	CU_ASSERT(sl_assignment_diff(a, b) > 0);
	CU_ASSERT_EQUAL(sl_assignment_diff(a, NULL), -1);
	sl_assignment_free(a);
	sl_assignment_free(b);

	/* the report names the result and every tensor */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	CU_ASSERT_EQUAL(sl_solve_write_xml(f, "mlp.mlir", m, &r, NULL), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "<result status=\"optimal\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "<tensor line=\"5\" col=\"17\" argument=\"0\" "
	                                    "type=\"tensor&lt;32x64xf32&gt;\" sharding="));
	free(text);
	sl_module_free(m);
	sl_module_free(greedy);
	sl_context_free(ctx);
}

static void
test_rules(void)
{
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx,
	        "func.func @f(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {\n"
	        "  %0 = stablehlo.add %a, %a : tensor<8x4xf32>\n"
	        "  return %0 : tensor<8x4xf32>\n"
	        "}\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	sl_rules_opts o = {false, true, false};
	sl_rules_count n;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	CU_ASSERT_EQUAL(sl_rules_print(m, f, &o, &n), 0);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(text,
	        "t.mlir:2:3: stablehlo.add #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) "
	        "{i=8, j=4}>\n"
	        "  i=8        pass-through              operand 0 dim 0, operand 1 dim 0, "
	        "result 0 dim 0\n"
	        "  j=4        pass-through              operand 0 dim 1, operand 1 dim 1, "
	        "result 0 dim 1\n");
	CU_ASSERT_EQUAL(n.ops, 1);
	CU_ASSERT_EQUAL(n.rules, 1);
	CU_ASSERT_EQUAL(n.factors, 2);
	free(text);
	sl_module_free(m);
	sl_context_free(ctx);
}

/*
 * sl_read_text: a regular file read whole in a block of its size, a
 * stream without a size (fmemopen, no descriptor) grown past its first
 * 64 KiB block, an empty file; each NUL-terminated, byte for byte.
 */
static void
test_read_text(void)
{
	enum { N = 200000 };	/* over three doublings of 64 KiB */
	char *want = malloc(N + 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(want);
	for (size_t i = 0; i < N; i++)
		want[i] = (char)('a' + (i * 7 + i / 251) % 26);
	want[N] = 0;

	FILE *f = tmpfile();
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(fwrite(want, 1, N, f), N);
	rewind(f);
	size_t len = 0;
	char *got = sl_read_text(f, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_EQUAL(len, N);
	CU_ASSERT_EQUAL(memcmp(got, want, N), 0);
	CU_ASSERT_EQUAL(got[N], 0);
	free(got);
	/* read from its middle: the rest only */
	CU_ASSERT_EQUAL(fseek(f, N - 10, SEEK_SET), 0);
	got = sl_read_text(f, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_EQUAL(len, 10);
	CU_ASSERT_STRING_EQUAL(got, want + N - 10);
	free(got);
	fclose(f);

	f = fmemopen(want, N, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	got = sl_read_text(f, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_EQUAL(len, N);
	CU_ASSERT_EQUAL(memcmp(got, want, N), 0);
	CU_ASSERT_EQUAL(got[N], 0);
	free(got);
	fclose(f);

	f = tmpfile();
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	len = 1;
	got = sl_read_text(f, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_EQUAL(len, 0);
	CU_ASSERT_EQUAL(got[0], 0);
	free(got);
	fclose(f);
	free(want);
}

CU_TestInfo tests_api[] = {
	{"cost parameters and the XML mesh description", test_params},
	{"misused parameters and a failed score", test_params_misuse},
	{"solve, score, compare and report", test_solve_and_compare},
	{"the rule of every op", test_rules},
	{"a text read whole, sized or grown", test_read_text},
	CU_TEST_INFO_NULL,
};
