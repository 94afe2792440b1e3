/* test_sdy.c - unit tests of the sdy syntax (formats/mlir_sdy.c) and of the
 * sdy canonicalization patterns (src/passes/canonicalize.c). */
#include "tests.h"

#include "formats/mlir_printer.h"
#include "ir/access.h"
#include "ir/ir.h"
#include "passes/pass.h"

#include <stdlib.h>
#include <string.h>

/* Parses and prints without verifying; NULL when parsing fails. */
static char *
parse_print(const char *text)
{
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx, text);
	char *out = m ? test_print(m) : NULL;
	if (!m)
		fprintf(stderr, "\n  diags: %s", test_diags());
	sl_module_free(m);
	sl_context_free(ctx);
	return out;
}

/* Whether `text` prints with `want` somewhere in the output. */
static int
prints(const char *text, const char *want)
{
	char *out = parse_print(text);
	int ok = out && strstr(out, want);
	if (!ok)
		fprintf(stderr, "\n  want: %s\n  got: %s", want, out ? out : "(parse failed)");
	free(out);
	return ok;
}

/* Whether `text` fails to parse with every message of `msgs` (NULL-ended),
 * each on line `line`. */
static int
fails(const char *text, int line, const char *const *msgs)
{
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx, text);
	int ok = m == NULL;
	char where[32];
	snprintf(where, sizeof where, "t.mlir:%d:", line);
	for (; *msgs && ok; msgs++) {
		const char *d = strstr(test_diags(), *msgs);
		ok = d != NULL;
		/* the message must sit on a diagnostic of the expected line */
		while (ok && d > test_diags() && d[-1] != '\n')
			d--;
		ok = ok && strncmp(d, where, strlen(where)) == 0;
	}
	if (!ok)
		fprintf(stderr, "\n  diags: %s", test_diags());
	sl_module_free(m);
	sl_context_free(ctx);
	return ok;
}

#define FAILS(text, line, ...) \
	CU_ASSERT(fails(text, line, (const char *const[]){__VA_ARGS__, NULL}))

/* Whether print(parse(print(parse(text)))) equals print(parse(text)). */
static int
stable(const char *text)
{
	char *a = parse_print(text);
	char *b = a ? parse_print(a) : NULL;
	int ok = a && b && strcmp(a, b) == 0;
	if (!ok)
		fprintf(stderr, "\n  first: %s\n  second: %s", a ? a : "-", b ? b : "-");
	free(a);
	free(b);
	return ok;
}

static const char meshes[] =
	"sdy.mesh @m = <[\"a\"=2, \"b\"=4]>\n"
	"sdy.mesh @m2 = <[\"x\"=2, \"y\"=2, \"z\"=2]>\n";

static char *
with_meshes(const char *body)
{
	size_t n = strlen(meshes) + strlen(body) + 1;
	char *s = malloc(n);
	snprintf(s, n, "%s%s", meshes, body);
	return s;
}

/* ==== meshes ==== */

static void
test_mesh(void)
{
	CU_ASSERT(prints("sdy.mesh @m = <[\"a\"=2, \"b\"=2], device_ids=[0, 1, 2, 3]>",
	                 "sdy.mesh @m = <[\"a\"=2, \"b\"=2]>\n"));
	CU_ASSERT(prints("sdy.mesh @m = <[\"a\"=1], device_ids=[0]>", "sdy.mesh @m = <[\"a\"=1]>\n"));
	CU_ASSERT(prints("sdy.mesh @m = <[\"a\"=2], device_ids=[1, 0]>",
	                 "sdy.mesh @m = <[\"a\"=2], device_ids=[1, 0]>"));
	CU_ASSERT(prints("sdy.mesh @m = <[], device_ids=[0]>", "sdy.mesh @m = <[], device_ids=[0]>"));
	CU_ASSERT(prints("sdy.mesh @m = <[]>", "sdy.mesh @m = <[]>"));
	CU_ASSERT(prints("sdy.mesh @m = #sdy.mesh<[\"a\"=2]> {x.y = 1}",
	                 "sdy.mesh @m = <[\"a\"=2]> {x.y = 1 : i64}"));
	CU_ASSERT(prints("sdy.mesh @\"a b\" = <[\"q\\\"r\"=2]>", "sdy.mesh @\"a b\" = <[\"q\\22r\"=2]>"));
}

static void
test_mesh_struct(void)
{
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx, "sdy.mesh @m = <[\"a\"=2, \"b\"=3], device_ids=[5, 4, 3, 2, 1, 0]>");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	sl_op *op = sli_lookup_mesh(m, m->top, sl_sym_intern(ctx, "m", 1));
	CU_ASSERT_PTR_NOT_NULL_FATAL(op);
	sl_attr *a = sli_op_get(op, SLS_mesh);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_EQUAL(a->kind, SL_ATTR_MESH);
	CU_ASSERT_EQUAL(a->u.mesh.naxes, 2);
	CU_ASSERT_EQUAL(a->u.mesh.axes[1].size, 3);
	CU_ASSERT_STRING_EQUAL(sl_sym_str(ctx, a->u.mesh.axes[1].name), "b");
	CU_ASSERT_EQUAL(a->u.mesh.nids, 6);
	CU_ASSERT_EQUAL(a->u.mesh.ids[0], 5);
	sl_attr *name = sli_op_get(op, SLS_sym_name);
	CU_ASSERT_PTR_NOT_NULL_FATAL(name);
	CU_ASSERT_EQUAL(name->kind, SL_ATTR_STRING);
	sl_module_free(m);
	sl_context_free(ctx);
}

static void
test_mesh_errors(void)
{
	FAILS("\nsdy.mesh @m = <[\"a\"=2, \"b\"=0]>", 2, "axis size must be at least 1, got: 0",
	      "custom op 'sdy.mesh' failed to parse Sdy_Mesh parameter 'axes' which is to be "
	      "a `::llvm::ArrayRef<MeshAxisAttr>`");
	FAILS("sdy.mesh @m = <[\"a\"=2, \"b\"=2, \"a\"=4]>\n", 1, "duplicate axis name: \"a\"");
	FAILS("sdy.mesh @m = <[], device_ids=[-1]>\n", 1, "device id must be non-negative, got: -1");
	FAILS("sdy.mesh @m = <[], device_ids=[1, 0]>\n", 1,
	      "axes is empty and device_ids has more than one element");
	FAILS("sdy.mesh @m = <[\"a\"=2], device_ids=[1, 1]>\n", 1,
	      "custom op 'sdy.mesh' sorted device ids must be iota(product(axes)), got: 1, 1");
	FAILS("sdy.mesh @m = <[\"a\"=2], device_ids=[2, 1]>\n", 1,
	      "sorted device ids must be iota(product(axes)), got: 1, 2");
	FAILS("sdy.mesh @m = <[\"a\"=2], device_ids=[0, 1, 2]>\n", 1,
	      "total product of axis sizes must match total number of device ids, got: 2 != 3");
}

/* ==== tensor shardings ==== */

static void
check_sharding(const char *in, const char *want)
{
	char body[1024];
	snprintf(body, sizeof body,
	         "func.func @f(%%a: tensor<8x8xf32>) -> tensor<8x8xf32> {\n"
	         "  %%0 = stablehlo.abs %%a {sdy.sharding = #sdy.sharding_per_value<[%s]>} "
	         ": tensor<8x8xf32>\n  return %%0 : tensor<8x8xf32>\n}\n", in);
	char *text = with_meshes(body);
	char expect[1024];
	snprintf(expect, sizeof expect, "#sdy.sharding_per_value<[%s]>}", want);
	CU_ASSERT(prints(text, expect));
	CU_ASSERT(stable(text));
	free(text);
}

static void
test_sharding_canonical(void)
{
	check_sharding("<@m, [{\"a\"}, {}]>", "<@m, [{\"a\"}, {}]>");
	check_sharding("<@m, [{}, {}], unreduced={\"b\"}, replicated={\"a\"}>",
	               "<@m, [{}, {}], replicated={\"a\"}, unreduced={\"b\"}>");
	check_sharding("<@m, [{}, {}], unreduced=max{\"a\"}>", "<@m, [{}, {}], unreduced=max{\"a\"}>");
	check_sharding("<@m, [{}, {}], unreduced=min{\"a\"}>", "<@m, [{}, {}], unreduced=min{\"a\"}>");
	check_sharding("<@m, [{}, {}], unreduced=sum{\"a\"}>", "<@m, [{}, {}], unreduced={\"a\"}>");
	check_sharding("<@m, [{}, {}], unreduced{\"a\"}>", "<@m, [{}, {}], unreduced={\"a\"}>");
	check_sharding("<@m, [{\"a\"}p0, {\"b\"}p12]>", "<@m, [{\"a\"}p0, {\"b\"}p12]>");
	check_sharding("<@m, [{\"a\", ?}, {?}p3]>", "<@m, [{\"a\", ?}, {?}p3]>");
	check_sharding("<@m, [{\"b\":(2)2}, {\"a\" }]>", "<@m, [{\"b\":(2)2}, {\"a\"}]>");
	check_sharding("<mesh<[\"x\"=2], device_ids=[0, 1]>, [{\"x\"}, {}]>",
	               "<mesh<[\"x\"=2]>, [{\"x\"}, {}]>");
	check_sharding("<mesh<[\"x\"=2], device_ids=[1, 0]>, [{\"x\"}, {}]>",
	               "<mesh<[\"x\"=2], device_ids=[1, 0]>, [{\"x\"}, {}]>");
	check_sharding("<@m, [{}, {}]>, <@m2, [{\"x\"}, {\"y\"}]>",
	               "<@m, [{}, {}]>, <@m2, [{\"x\"}, {\"y\"}]>");
	check_sharding("", "");
}

static void
test_sharding_struct(void)
{
	sl_context *ctx = sl_context_new();
	char *text = with_meshes(
		"func.func @f(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, "
		"[{\"a\", \"b\":(1)2, ?}p2, {}], replicated={\"b\":(2)2}>}) -> tensor<8x8xf32> {\n"
		"  return %a : tensor<8x8xf32>\n}\n");
	sl_module *m = test_parse(ctx, text);
	free(text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	sl_op *f = sli_lookup_func(m, sl_sym_intern(ctx, "f", 1));
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	sl_value *arg = &sli_region_entry(&f->regions[0])->args[0];
	sl_attr *a = sli_arg_attr(arg, SLS_sdy_sharding);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_EQUAL_FATAL(a->kind, SL_ATTR_SHARDING);
	const sl_sharding *s = &a->u.sharding;
	CU_ASSERT_STRING_EQUAL(sl_sym_str(ctx, s->mesh_name), "m");
	CU_ASSERT_PTR_NULL(s->mesh);
	CU_ASSERT_EQUAL_FATAL(s->rank, 2);
	CU_ASSERT_EQUAL_FATAL(s->dims[0].axes.n, 2);
	CU_ASSERT(s->dims[0].open);
	CU_ASSERT_EQUAL(s->dims[0].priority, 2);
	CU_ASSERT_FALSE(s->dims[0].axes.v[0].sub);
	CU_ASSERT(s->dims[0].axes.v[1].sub);
	CU_ASSERT_EQUAL(s->dims[0].axes.v[1].pre, 1);
	CU_ASSERT_EQUAL(s->dims[0].axes.v[1].size, 2);
	CU_ASSERT_FALSE(s->dims[1].open);
	CU_ASSERT_EQUAL(s->dims[1].priority, SL_NO_PRIORITY);
	CU_ASSERT_EQUAL(s->replicated.n, 1);
	CU_ASSERT_EQUAL(s->unreduced.n, 0);
	CU_ASSERT_EQUAL(s->reduction, SL_RED_SUM);

	sli_buf b;
	sli_buf_init(&b);
	sli_print_sharding(&b, ctx, s, true);
	CU_ASSERT_STRING_EQUAL(sli_buf_cstr(&b),
	                       "#sdy.sharding<@m, [{\"a\", \"b\":(1)2, ?}p2, {}], replicated={\"b\":(2)2}>");
	b.n = 0;
	sli_print_sharding(&b, ctx, s, false);
	CU_ASSERT_STRING_EQUAL(sli_buf_cstr(&b),
	                       "<@m, [{\"a\", \"b\":(1)2, ?}p2, {}], replicated={\"b\":(2)2}>");
	b.n = 0;
	sli_print_axis_list(&b, ctx, &s->dims[0].axes);
	CU_ASSERT_STRING_EQUAL(sli_buf_cstr(&b), "{\"a\", \"b\":(1)2}");
	b.n = 0;
	sli_print_axis_ref(&b, ctx, &s->replicated.v[0]);
	CU_ASSERT_STRING_EQUAL(sli_buf_cstr(&b), "\"b\":(2)2");
	sli_buf_fini(&b);
	sl_module_free(m);
	sl_context_free(ctx);
}

static void
test_sharding_errors(void)
{
	static const char spv[] = "failed to parse Sdy_TensorShardingPerValue parameter 'shardings' "
		"which is to be a `::llvm::ArrayRef<TensorShardingAttr>`";
	static const char dims[] = "failed to parse Sdy_TensorSharding parameter 'dim_shardings' "
		"which is to be a `::llvm::ArrayRef<DimensionShardingAttr>`";
	const char *pre = "sdy.mesh @foo = <[\"a\"=2,\"b\"=4]>\n"
		"func.func @f(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {\n"
		"  %0 = stablehlo.abs %a {sdy.sharding = #sdy.sharding_per_value<[<@foo, ";
	const char *post = "]>} : tensor<8x8xf32>\n  return %0 : tensor<8x8xf32>\n}\n";
	char t[1024];
#define CASE(mid) (snprintf(t, sizeof t, "%s%s%s", pre, mid, post), t)
	FAILS(CASE("[{\"a\"}, {\"b\"}p9999999999999999999]>"), 3,
	      "expecting integer priority, got: p9999999999999999999", dims, spv);
	FAILS(CASE("[{\"a\"}p01, {}]>"), 3, "priorities with leading zeros are not allowed, got: p01",
	      dims);
	FAILS(CASE("[{\"a\"}q1, {}]>"), 3, "expecting priority in format 'p<number>', got: q1", dims);
	FAILS(CASE("[{}, {}], replicated{\"a\"}>"), 3, "expected '='",
	      "failed to parse Sdy_TensorSharding parameter 'replicated_axes'", spv);
	FAILS(CASE("[{}, {}], unreduced=[\"a\"]>"), 3, "expected '{'",
	      "failed to parse Sdy_TensorSharding parameter 'unreduced_axes'", spv);
	FAILS(CASE("[{}, {}], unreduced={\"a\", \"b\"[]}>"), 3, "expected '}'",
	      "failed to parse Sdy_TensorSharding parameter 'unreduced_axes'", spv);
	FAILS(CASE("[{}, {}], replicated={\"a\", b}>"), 3, "expected string",
	      "failed to parse Sdy_AxisRef parameter 'name' which is to be a `::llvm::StringRef`",
	      "failed to parse axis list which is expected to be an `ArrayRef<AxisRefAttr>`",
	      "failed to parse Sdy_TensorSharding parameter 'replicated_axes'", spv);
	FAILS(CASE("[{}, {}], unknown={\"a\"}>"), 3,
	      "failed to parse Sdy_TensorSharding, expected valid named axis list after comma", spv);
	FAILS(CASE("[{}, {}], replicated={\"a\"}, >"), 3,
	      "failed to parse Sdy_TensorSharding, expected valid named axis list after comma");
	FAILS(CASE("[{}, {}], unreduced={\"a\"}, unreduced={\"b\"}>"), 3,
	      "failed to parse Sdy_TensorSharding, expected valid named axis list after comma");
#undef CASE
	/* a stripped sharding in an op has no per-value message */
	FAILS("sdy.mesh @foo = <[\"a\"=2]>\n"
	      "func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
	      "  %0 = sdy.reshard %a <@foo, [{\"a\"}p01]> : tensor<8xf32>\n"
	      "  return %0 : tensor<8xf32>\n}\n", 3,
	      "priorities with leading zeros are not allowed, got: p01", dims);
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx, "sdy.mesh @foo = <[\"a\"=2]>\n"
		"func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
		"  %0 = sdy.reshard %a <@foo, [{\"a\"}p01]> : tensor<8xf32>\n"
		"  return %0 : tensor<8xf32>\n}\n");
	CU_ASSERT_PTR_NULL(m);
	CU_ASSERT_PTR_NULL(strstr(test_diags(), "Sdy_TensorShardingPerValue"));
	sl_context_free(ctx);
}

/* ==== sharding rules ==== */

static void
check_rule(const char *in, const char *want)
{
	char t[2048];
	snprintf(t, sizeof t,
	         "func.func @f(%%a: tensor<2x4xf32>) -> tensor<2x4xf32> {\n"
	         "  %%0 = stablehlo.abs %%a {sdy.sharding_rule = #sdy.op_sharding_rule<%s>} "
	         ": tensor<2x4xf32>\n  return %%0 : tensor<2x4xf32>\n}\n", in);
	char w[2048];
	snprintf(w, sizeof w, "#sdy.op_sharding_rule<%s>}", want);
	CU_ASSERT(prints(t, w));
	CU_ASSERT(stable(t));
}

static void
test_rule(void)
{
	check_rule("([i, j])->([ij]) {i=2, j=4}", "([i, j])->([ij]) {i=2, j=4}");
	check_rule("([], [])->([])", "([], [])->([])");
	check_rule("([i, j, k, l])->([i, k, l]) {i=2, j=3, k=5, l=7} reduction={j} "
	           "need_replication={i, l} permutation={k} blocked_propagation={l}, custom",
	           "([i, j, k, l])->([i, k, l]) {i=2, j=3, k=5, l=7} reduction={j} "
	           "need_replication={i, l} permutation={k} blocked_propagation={l}, custom");
	check_rule("([i])->([i]) {i=8589934592}", "([i])->([i]) {i=8589934592}");
	check_rule("([i, j])->([i, j]) {i=2, j=4} reduction={}", "([i, j])->([i, j]) {i=2, j=4}");
	check_rule("([z_1])->([zz_1]) {i=1, j=1, k=1, l=1, m=1, n=1, o=1, p=1, q=1, r=1, s=1, t=1, "
	           "u=1, v=1, w=1, x=1, y=1, z=2, z_1=3}",
	           "([z_1])->([zz_1]) {i=1, j=1, k=1, l=1, m=1, n=1, o=1, p=1, q=1, r=1, s=1, t=1, "
	           "u=1, v=1, w=1, x=1, y=1, z=2, z_1=3}");
	check_rule("([z_8z_9z_10])->([i])", "([z_8z_9z_10])->([i])");

	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx,
		"func.func @f(%a: tensor<2x4xf32>) -> tensor<8xf32> {\n"
		"  %0 = stablehlo.reshape %a {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([ij]) "
		"{i=2, j=4} permutation={j}>} : (tensor<2x4xf32>) -> tensor<8xf32>\n"
		"  return %0 : tensor<8xf32>\n}\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	sl_op *f = sli_lookup_func(m, sl_sym_intern(ctx, "f", 1));
	sl_op *op = sli_region_entry(&f->regions[0])->first;
	sl_attr *a = sli_op_attr(op, SLS_sdy_sharding_rule);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_EQUAL_FATAL(a->kind, SL_ATTR_RULE);
	const sl_rule *r = &a->u.rule;
	CU_ASSERT_EQUAL(r->nfactors, 2);
	CU_ASSERT_EQUAL(r->factor_sizes[1], 4);
	CU_ASSERT_EQUAL(r->noperands, 1);
	CU_ASSERT_EQUAL(r->nresults, 1);
	CU_ASSERT_EQUAL_FATAL(r->results[0].rank, 1);
	CU_ASSERT_EQUAL_FATAL(r->results[0].dims[0].n, 2);
	CU_ASSERT_EQUAL(r->results[0].dims[0].factors[1], 1);
	CU_ASSERT(r->has_permutation);
	CU_ASSERT_FALSE(r->has_reduction);
	CU_ASSERT_EQUAL(r->permutation.n, 1);
	CU_ASSERT_FALSE(r->custom);
	sl_module_free(m);
	sl_context_free(ctx);
}

static void
test_rule_errors(void)
{
	char t[1024];
	static const char tm[] = "failed to parse Sdy_TensorMapping parameter 'dim_mappings'";
	static const char om[] = "failed to parse Sdy_OpShardingRule parameter 'operand_mappings'";
	static const char rm[] = "failed to parse Sdy_OpShardingRule parameter 'result_mappings'";
	static const char iota[] = "expecting factor indices to be ordered like an iota "
		"([0,1,2,...], e.g. {i=#, j=#, ...})";
#define CASE(rule) (snprintf(t, sizeof t, "func.func @f(%%a: tensor<2x4xf32>) {\n" \
	"  %%0 = stablehlo.abs %%a {sdy.sharding_rule = #sdy.op_sharding_rule<%s>} : tensor<2x4xf32>\n" \
	"  return\n}\n", rule), t)
	FAILS(CASE("([i, j])->([i, j]) {i=16, j=32},"), 2, "expected 'custom'");
	FAILS(CASE("([i, j])->([i, j]) {i=16, j=32}, custom_rule"), 2, "expected 'custom'");
	FAILS(CASE("([i, j])->([i j]) {i=2, j=4}"), 2, "expected ']'", rm);
	FAILS(CASE("([i, k])->([ik]) {i=2, k=4}"), 2,
	      "expecting factor indices to be ordered like an iota ([0,1,2,...], e.g. {i=#, j=#, ...}). "
	      "Expecting factor index symbol 'j', received: 'k'");
	FAILS(CASE("([z_, j])->([i]) {z_=2, j=4}"), 2, "expecting integer after 'z_'. Received: 'z_'",
	      tm, om);
	FAILS(CASE("([i_1, j])->([i]) {i_1=2, j=4}"), 2,
	      "expecting symbol from 'i' to 'z'. Received: '_'", tm, om);
	FAILS(CASE("([z_0z_, j])->([i]) {z_0=2, j=4}"), 2,
	      "expecting positive integer without leading zeros. Received: '0'", tm, om);
	FAILS(CASE("([a, j])->([j]) {a=2, j=4}"), 2, "expecting symbol from 'i' to 'z'. Received: 'a'",
	      tm, om);
	FAILS(CASE("([z_-1, j])->([i]) {i=2, j=4}"), 2, "expecting integer after 'z_'", tm, om);
	FAILS(CASE("([j, z_9223372036854775808])->([jz_9223372036854775808]) "
	           "{i=4, z_9223372036854775808=2}"), 2, iota,
	      "expecting symbol index <=2^63-1. Received: '9223372036854775808'");
	FAILS(CASE("([j, z_9223372036854775807])->([j]) {i=4, z_9223372036854775807=2}"), 2, iota);
	FAILS(CASE("()->([i, j]) {i=2, j=8}, custom"), 2, "expected '['", om);
	FAILS(CASE("([i, j])->() {i=2, j=8}, custom"), 2, "expected '['", rm);
	FAILS(CASE("([i, j])->([i]) {i=2, j=3} reduction: {j}"), 2, "expected '='");
	FAILS(CASE("([i, j])->([i]) {i=2, j=3} reduce={j}"), 2, "expected '>'");
	FAILS(CASE("([i, j])->([i]) {i=2, j=3} need_replication={i} reduction={j}"), 2,
	      "expected '>'");
	FAILS(CASE("([i, j])->([i]) {ij=2}"), 2, "expecting single factor symbol: j");
	FAILS(CASE("([i])->([i]) i=8"), 2, "expected '>'");
	FAILS(CASE("([i])->([i]) {i=8} reduction=i"), 2, "expected '>'");
#undef CASE
	/* z_2i parses as [19, 0]: only the ordering of the sizes is wrong */
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx,
		"func.func @f(%a: tensor<2x4xf32>) {\n"
		"  %0 = stablehlo.abs %a {sdy.sharding_rule = #sdy.op_sharding_rule<([j, z_2i])->([j]) "
		"{i=4, k=2}>} : tensor<2x4xf32>\n  return\n}\n");
	CU_ASSERT_PTR_NULL(m);
	CU_ASSERT_PTR_NOT_NULL(strstr(test_diags(), "received: 'k'"));
	CU_ASSERT_PTR_NULL(strstr(test_diags(), "Sdy_TensorMapping"));
	sl_context_free(ctx);
}

/* ==== other attributes ==== */

static void
test_edges_and_enums(void)
{
	char *t = with_meshes(
		"func.func @f(%a: tensor<16x8xf32>) -> tensor<16x8xf32> {\n"
		"  %0 = stablehlo.add %a, %a {sdy.propagation_edges = #sdy.propagation_edges<["
		"{step-2 = [{\"y\" = operand-1 -> [operand-0, result-0]}]}, "
		"{step--3 = [{\"x\":(1)2 = result-0 -> [operand-0]}, {\"z\" = result-0 -> []}]}, "
		"{step-4 = []}]>, x.d = #sdy<propagation_direction FORWARD>} : tensor<16x8xf32>\n"
		"  return %0 : tensor<16x8xf32>\n}\n");
	CU_ASSERT(prints(t, "{sdy.propagation_edges = #sdy.propagation_edges<["
	                 "{step-2 = [{\"y\" = operand-1 -> [operand-0, result-0]}]}, "
	                 "{step--3 = [{\"x\":(1)2 = result-0 -> [operand-0]}, {\"z\" = result-0 -> []}]}, "
	                 "{step-4 = []}]>, x.d = #sdy<propagation_direction FORWARD>}"));
	CU_ASSERT(stable(t));
	free(t);
	CU_ASSERT(prints("\"x.y\"() {a = #sdy.axis_ref_list<{\"a\", \"b\":(1)2}>, "
	                 "b = #sdy.manual_axes<{\"c\"}>, c = #sdy.list_of_axis_ref_lists<[{}, {\"x\"}]>, "
	                 "d = #sdy.all_to_all_param_list<[{\"x\"}: 0->1]>, "
	                 "e = #sdy.mesh<[\"q\"=4]>} : () -> ()",
	                 "{a = #sdy.axis_ref_list<{\"a\", \"b\":(1)2}>, b = #sdy<manual_axes{\"c\"}>, "
	                 "c = #sdy.list_of_axis_ref_lists<[{}, {\"x\"}]>, "
	                 "d = #sdy.all_to_all_param_list<[{\"x\"}: 0->1]>, e = #sdy.mesh<[\"q\"=4]>}"));
	/* Shardy's own form of manual axes (no '<' after the mnemonic) */
	CU_ASSERT(prints("\"x.y\"() {b = #sdy<manual_axes{\"c\", \"d\"}>, e = #sdy<manual_axes{}>} : () -> ()",
	                 "{b = #sdy<manual_axes{\"c\", \"d\"}>, e = #sdy<manual_axes{}>}"));
}

/* ==== ops ==== */

static const char ops_module[] =
	"sdy.mesh @m = <[\"a\"=2, \"b\"=2]>\n"
	"func.func @f(%arg0: tensor<16x32xf32>, %arg1: tensor<8xf32>) -> tensor<16x32xf32> {\n"
	"  %0 = sdy.sharding_constraint %arg0 <@m, [{\"a\", ?}, {}]> : tensor<16x32xf32>\n"
	"  %1 = sdy.reshard %0 #sdy.sharding<@m, [{}, {\"b\"}]> {x.y} : tensor<16x32xf32>\n"
	"  %2 = sdy.manual_computation(%1) in_shardings=[<@m, [{\"a\", ?}, {?}]>] "
	"out_shardings=[<@m, [{\"a\", ?}, {?}], replicated={\"b\"}>] manual_axes={\"a\", \"b\"} "
	"(%arg2: tensor<8x32xf32>) {\n"
	"    %10 = stablehlo.add %arg2, %arg2 : tensor<8x32xf32>\n"
	"    sdy.return %10 : tensor<8x32xf32>\n"
	"  } {x.z = 1 : i64} : (tensor<16x32xf32>) -> tensor<16x32xf32>\n"
	"  %3:2 = sdy.named_computation<\"foo\">(%2, %arg1) in_shardings=[<@m, [{}, {}]>, <@m, [{}]>] "
	"(%arg2: tensor<16x32xf32>, %arg3: tensor<8xf32>) {\n"
	"    sdy.return %arg2, %arg3 : tensor<16x32xf32>, tensor<8xf32>\n"
	"  } : (tensor<16x32xf32>, tensor<8xf32>) -> (tensor<16x32xf32>, tensor<8xf32>)\n"
	"  sdy.sharding_group %3#1 group_id = 21 : tensor<8xf32>\n"
	"  %4 = sdy.constant {foo} dense<1.000000e+00> : tensor<8xf32>\n"
	"  %5 = sdy.data_flow_edge %3#0 sharding=<@m, [{\"a\"}, {}]> : tensor<16x32xf32>\n"
	"  %6 = sdy.func_data_flow_edge %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}]>]>}"
	" : tensor<8xf32>\n"
	"  %7 = sdy.propagation_barrier %5 allowed_direction=BACKWARD : tensor<16x32xf32>\n"
	"  %8 = sdy.all_gather [{}, {\"b\"}] %7 out_sharding=<@m, [{\"a\"}, {}]> : tensor<16x32xf32>\n"
	"  %9 = sdy.all_slice [{\"b\"}, {}] %8 out_sharding=<@m, [{\"a\", \"b\"}, {}]> : tensor<16x32xf32>\n"
	"  %11 = sdy.all_to_all [{\"b\"}: 0->1] %9 out_sharding=<@m, [{\"a\"}, {\"b\"}]> : tensor<16x32xf32>\n"
	"  %12 = sdy.collective_permute %11 out_sharding=<@m, [{\"b\"}, {\"a\"}]> : tensor<16x32xf32>\n"
	"  %13 = sdy.all_reduce max {\"a\"} %12 out_sharding=<@m, [{\"b\"}, {}]> : tensor<16x32xf32>\n"
	"  %14 = sdy.all_reduce sum {} %13 out_sharding=<@m, [{\"b\"}, {}]> : tensor<16x32xf32>\n"
	"  %15 = sdy.reduce_scatter min [{}, {\"a\"}] %14 out_sharding=<@m, [{\"b\"}, {\"a\"}]> : tensor<16x32xf32>\n"
	"  %16 = sdy.sharded_to_unreduced [{\"b\"}, {}] %15 out_sharding=<@m, [{}, {\"a\"}], unreduced={\"b\"}> : tensor<16x32xf32>\n"
	"  %17 = sdy.replicated_to_unreduced {\"a\"} %16 out_sharding=<@m, [{}, {}], unreduced={\"a\", \"b\"}> : tensor<16x32xf32>\n"
	"  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {\n"
	"    sdy.return\n"
	"  } : () -> ()\n"
	"  return %17 : tensor<16x32xf32>\n"
	"}\n";

static void
test_ops_print(void)
{
	static const char *const want[] = {
		"%0 = sdy.sharding_constraint %arg0 <@m, [{\"a\", ?}, {}]> : tensor<16x32xf32>\n",
		"%1 = sdy.reshard %0 <@m, [{}, {\"b\"}]> {x.y} : tensor<16x32xf32>\n",
		"%2 = sdy.manual_computation(%1) in_shardings=[<@m, [{\"a\", ?}, {?}]>] "
		"out_shardings=[<@m, [{\"a\", ?}, {?}], replicated={\"b\"}>] manual_axes={\"a\", \"b\"} "
		"(%arg2: tensor<8x32xf32>) {\n",
		"sdy.return %17 : tensor<8x32xf32>\n",
		"} {x.z = 1 : i64} : (tensor<16x32xf32>) -> tensor<16x32xf32>\n",
		"%3:2 = sdy.named_computation<\"foo\">(%2, %arg1) in_shardings=[<@m, [{}, {}]>, <@m, [{}]>] "
		"(%arg2: tensor<16x32xf32>, %arg3: tensor<8xf32>) {\n",
		"} : (tensor<16x32xf32>, tensor<8xf32>) -> (tensor<16x32xf32>, tensor<8xf32>)\n",
		"sdy.sharding_group %3#1 group_id=21 : tensor<8xf32>\n",
		"sdy.constant {foo} dense<1.000000e+00> : tensor<8xf32>\n",
		"sdy.data_flow_edge %3#0 sharding=<@m, [{\"a\"}, {}]> : tensor<16x32xf32>\n",
		"sdy.func_data_flow_edge %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}]>]>} "
		": tensor<8xf32>\n",
		"sdy.propagation_barrier %5 allowed_direction=BACKWARD : tensor<16x32xf32>\n",
		"sdy.all_gather [{}, {\"b\"}] %7 out_sharding=<@m, [{\"a\"}, {}]> : tensor<16x32xf32>\n",
		"sdy.all_slice [{\"b\"}, {}] %8 out_sharding=<@m, [{\"a\", \"b\"}, {}]> : tensor<16x32xf32>\n",
		"sdy.all_to_all [{\"b\"}: 0->1] %9 out_sharding=<@m, [{\"a\"}, {\"b\"}]>",
		"sdy.collective_permute %10 out_sharding=<@m, [{\"b\"}, {\"a\"}]> : tensor<16x32xf32>\n",
		"sdy.all_reduce max {\"a\"} %11 out_sharding=<@m, [{\"b\"}, {}]> : tensor<16x32xf32>\n",
		"sdy.all_reduce {} %12 out_sharding=<@m, [{\"b\"}, {}]> : tensor<16x32xf32>\n",
		"sdy.reduce_scatter min [{}, {\"a\"}] %13 out_sharding=<@m, [{\"b\"}, {\"a\"}]>",
		"sdy.sharded_to_unreduced [{\"b\"}, {}] %14 out_sharding=<@m, [{}, {\"a\"}], unreduced={\"b\"}>",
		"sdy.replicated_to_unreduced {\"a\"} %15 out_sharding=<@m, [{}, {}], unreduced={\"a\", \"b\"}>",
		"    sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {\n"
		"      sdy.return\n"
		"    } : () -> ()\n",
	};
	char *out = parse_print(ops_module);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		if (!strstr(out, want[i])) {
			CU_FAIL("missing printed op");
			fprintf(stderr, "\n  want: %s\n  got: %s", want[i], out);
		}
	free(out);
	CU_ASSERT(stable(ops_module));
}

/* Finds the first op named `name` in pre-order. */
typedef struct find_ud {
	sl_sym name;
	sl_op *found;
} find_ud;

static int
find_fn(sl_op *op, void *ud)
{
	find_ud *f = ud;
	if (op->name != f->name)
		return 0;
	f->found = op;
	return 1;
}

static sl_op *
find_op(sl_module *m, sl_context *ctx, const char *name)
{
	find_ud f = {sl_sym_intern(ctx, name, strlen(name)), NULL};
	sli_walk(m->top, find_fn, &f);
	return f.found;
}

static void
test_ops_props(void)
{
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx, ops_module);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	struct {
		const char *op;
		sl_sym prop;
		sl_attr_kind kind;
	} cases[] = {
		{"sdy.sharding_constraint", SLS_sharding, SL_ATTR_SHARDING},
		{"sdy.reshard", SLS_sharding, SL_ATTR_SHARDING},
		{"sdy.manual_computation", SLS_in_shardings, SL_ATTR_SHARDING_PER_VALUE},
		{"sdy.manual_computation", SLS_out_shardings, SL_ATTR_SHARDING_PER_VALUE},
		{"sdy.manual_computation", SLS_manual_axes, SL_ATTR_MANUAL_AXES},
		{"sdy.named_computation", SLS_name, SL_ATTR_STRING},
		{"sdy.named_computation", SLS_in_shardings, SL_ATTR_SHARDING_PER_VALUE},
		{"sdy.sharding_group", SLS_group_id, SL_ATTR_INT},
		{"sdy.constant", SLS_value, SL_ATTR_DENSE},
		{"sdy.data_flow_edge", SLS_sharding, SL_ATTR_SHARDING},
		{"sdy.propagation_barrier", SLS_allowed_direction, SL_ATTR_DIRECTION},
		{"sdy.all_gather", SLS_gathering_axes, SL_ATTR_AXIS_REF_LISTS},
		{"sdy.all_slice", SLS_slicing_axes, SL_ATTR_AXIS_REF_LISTS},
		{"sdy.all_to_all", SLS_params, SL_ATTR_ALL_TO_ALL_PARAMS},
		{"sdy.all_reduce", SLS_reduction_axes, SL_ATTR_AXIS_REF_LIST},
		{"sdy.all_reduce", SLS_reduction_op, SL_ATTR_INT},
		{"sdy.reduce_scatter", SLS_scatter_axes, SL_ATTR_AXIS_REF_LISTS},
		{"sdy.sharded_to_unreduced", SLS_axes, SL_ATTR_AXIS_REF_LISTS},
		{"sdy.replicated_to_unreduced", SLS_axes, SL_ATTR_AXIS_REF_LIST},
		{"sdy.collective_permute", SLS_out_sharding, SL_ATTR_SHARDING},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		sl_op *op = find_op(m, ctx, cases[i].op);
		CU_ASSERT_PTR_NOT_NULL_FATAL(op);
		sl_attr *a = sli_op_prop(op, cases[i].prop);
		CU_ASSERT_PTR_NOT_NULL_FATAL(a);
		CU_ASSERT_EQUAL(a->kind, cases[i].kind);
	}
	sl_op *op = find_op(m, ctx, "sdy.all_reduce");
	CU_ASSERT_EQUAL(sli_op_prop(op, SLS_reduction_op)->u.i.v, SL_RED_MAX);
	op = find_op(m, ctx, "sdy.sharding_group");
	CU_ASSERT_EQUAL(sli_op_prop(op, SLS_group_id)->u.i.v, 21);
	CU_ASSERT_EQUAL(op->nresults, 0);
	op = find_op(m, ctx, "sdy.propagation_barrier");
	CU_ASSERT_EQUAL(sli_op_prop(op, SLS_allowed_direction)->u.direction, SL_DIR_BACKWARD);
	op = find_op(m, ctx, "sdy.all_to_all");
	sl_attr *p = sli_op_prop(op, SLS_params);
	CU_ASSERT_EQUAL(p->u.a2a.n, 1);
	CU_ASSERT_EQUAL(p->u.a2a.v[0].src, 0);
	CU_ASSERT_EQUAL(p->u.a2a.v[0].tgt, 1);
	op = find_op(m, ctx, "sdy.manual_computation");
	CU_ASSERT_EQUAL(op->nregions, 1);
	CU_ASSERT_EQUAL(sli_region_entry(&op->regions[0])->nargs, 1);
	CU_ASSERT_EQUAL(sli_op_prop(op, SLS_manual_axes)->u.axes.n, 2);
	op = find_op(m, ctx, "sdy.reshard");
	CU_ASSERT_PTR_NOT_NULL(sli_op_attr(op, sl_sym_intern(ctx, "x.y", 3)));
	sl_module_free(m);
	sl_context_free(ctx);
}

static void
test_ops_generic_form(void)
{
	/* the generic form fills the same props and prints in the custom form */
	CU_ASSERT(prints("sdy.mesh @m = <[\"a\"=2]>\n"
	                 "func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
	                 "  %0 = \"sdy.sharding_constraint\"(%a) <{sharding = #sdy.sharding<@m, [{\"a\"}]>}>"
	                 " : (tensor<8xf32>) -> tensor<8xf32>\n"
	                 "  return %0 : tensor<8xf32>\n}\n",
	                 "%0 = sdy.sharding_constraint %arg0 <@m, [{\"a\"}]> : tensor<8xf32>"));
	CU_ASSERT(prints("func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
	                 "  %0 = \"sdy.propagation_barrier\"(%a) <{allowed_direction = "
	                 "#sdy<propagation_direction NONE>}> : (tensor<8xf32>) -> tensor<8xf32>\n"
	                 "  return %0 : tensor<8xf32>\n}\n",
	                 "sdy.propagation_barrier %arg0 allowed_direction=NONE : tensor<8xf32>"));
}

static void
test_ops_errors(void)
{
	FAILS("func.func @f(%a: tensor<8xf32>) {\n"
	      "  %0 = sdy.propagation_barrier %a allowed_direction=SIDEWAYS : tensor<8xf32>\n"
	      "  return\n}\n", 2, "custom op 'sdy.propagation_barrier' expected "
	      "::mlir::sdy::PropagationDirection to be one of: NONE, FORWARD, BACKWARD, BOTH");
	FAILS("func.func @f(%a: tensor<8xf32>) {\n"
	      "  %0 = sdy.all_reduce avg {} %a out_sharding=<@m, [{}]> : tensor<8xf32>\n"
	      "  return\n}\n", 2, "expected ::mlir::sdy::ReductionOp to be one of: sum, max, min");
	FAILS("func.func @f(%a: tensor<8xf32>) {\n"
	      "  %0 = sdy.all_gather [{}] %a out_shardings=<@m, [{}]> : tensor<8xf32>\n"
	      "  return\n}\n", 2, "custom op 'sdy.all_gather' expected 'out_sharding'");
	FAILS("func.func @f(%a: tensor<8xf32>) {\n"
	      "  sdy.sharding_group %a group_id 1 : tensor<8xf32>\n"
	      "  return\n}\n", 2, "expected '='");
}

/* ==== canonicalization ==== */

static char *
run_canonicalize(const char *text)
{
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx, text);
	char *out = NULL;
	sli_pass_opts o;
	sli_pass_opts_init(&o);
	if (m && sli_pass_canonicalize(m, &o) == 0)
		out = test_print(m);
	sl_module_free(m);
	sl_context_free(ctx);
	return out;
}

static int
canon_has(const char *text, const char *want, const char *absent)
{
	char *out = run_canonicalize(text);
	int ok = out && strstr(out, want) && (!absent || !strstr(out, absent));
	if (!ok)
		fprintf(stderr, "\n  want: %s\n  got: %s", want, out ? out : "(failed)");
	free(out);
	return ok;
}

static void
test_canonicalize(void)
{
	const char *head = "sdy.mesh @m = <[\"x\"=2, \"y\"=2]>\n"
		"func.func @f(%a: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m, [{\"x\"}, {\"y\"}]>})"
		" -> tensor<16x8xf32> {\n";
	char t[2048];
#define CASE(body) (snprintf(t, sizeof t, "%s%s}\n", head, body), t)
	CU_ASSERT(canon_has(CASE("  %0 = sdy.reshard %a <@m, [{\"x\"}, {}]> : tensor<16x8xf32>\n"
	                         "  %1 = sdy.reshard %0 <@m, [{}, {\"x\"}]> : tensor<16x8xf32>\n"
	                         "  return %1 : tensor<16x8xf32>\n"),
	                    "%0 = sdy.reshard %arg0 <@m, [{}, {\"x\"}]> : tensor<16x8xf32>\n"
	                    "    return %0", "[{\"x\"}, {}]>"));
	CU_ASSERT(canon_has(CASE("  %0 = sdy.all_gather [{}, {}] %a out_sharding=<@m, [{\"x\"}, {\"y\"}]> "
	                         ": tensor<16x8xf32>\n  return %0 : tensor<16x8xf32>\n"),
	                    "{\n    return %arg0 : tensor<16x8xf32>", "all_gather"));
	CU_ASSERT(canon_has(CASE("  %0 = sdy.collective_permute %a out_sharding=<@m, [{\"x\", ?}, {\"y\"}]> "
	                         ": tensor<16x8xf32>\n  return %0 : tensor<16x8xf32>\n"),
	                    "return %arg0", "collective_permute"));
	CU_ASSERT(canon_has(CASE("  %0 = sdy.collective_permute %a out_sharding=<@m, [{\"y\"}, {\"x\"}]> "
	                         ": tensor<16x8xf32>\n  return %0 : tensor<16x8xf32>\n"),
	                    "sdy.collective_permute %arg0", NULL));
	CU_ASSERT(canon_has(CASE("  %0 = sdy.all_reduce {\"x\"} %a out_sharding=<@m, [{}, {\"y\"}]> "
	                         ": tensor<16x8xf32>\n"
	                         "  %1 = sdy.all_slice [{}, {\"x\"}] %0 out_sharding=<@m, [{}, {\"y\", \"x\"}]> "
	                         ": tensor<16x8xf32>\n  return %1 : tensor<16x8xf32>\n"),
	                    "%0 = sdy.reduce_scatter [{}, {\"x\"}] %arg0 out_sharding=<@m, [{\"x\"}, "
	                    "{\"y\", \"x\"}]>", "all_reduce"));
	CU_ASSERT(canon_has(CASE("  %0 = sdy.all_to_all [{\"x\"}: 0->1] %a out_sharding=<@m, [{}, {\"y\", \"x\"}]> "
	                         ": tensor<16x8xf32>\n  return %a : tensor<16x8xf32>\n"),
	                    "{\n    return %arg0", "all_to_all"));
	CU_ASSERT(canon_has("sdy.mesh @m = <[\"x\"=2, \"y\"=1]>\n"
	                    "func.func @f(%a: tensor<8xf32>, %b: tensor<4xf32>) -> tensor<8xf32> {\n"
	                    "  %0 = sdy.manual_computation(%a, %b) in_shardings=[<@m, [{\"y\"}]>, <@m, [{}]>] "
	                    "out_shardings=[<@m, [{\"y\"}]>] manual_axes={\"y\"} "
	                    "(%c: tensor<8xf32>, %d: tensor<4xf32>) {\n"
	                    "    %1 = stablehlo.negate %c : tensor<8xf32>\n"
	                    "    sdy.return %1 : tensor<8xf32>\n"
	                    "  } : (tensor<8xf32>, tensor<4xf32>) -> tensor<8xf32>\n"
	                    "  return %0 : tensor<8xf32>\n}\n",
	                    "{\n    %0 = stablehlo.negate %arg0 : tensor<8xf32>\n    return %0",
	                    "manual_computation"));
	CU_ASSERT(canon_has("sdy.mesh @m = <[\"x\"=2]>\n"
	                    "func.func @f(%a: tensor<8xf32>, %b: tensor<4xf32>) -> tensor<8xf32> {\n"
	                    "  %0 = sdy.manual_computation(%a, %b) in_shardings=[<@m, [{\"x\"}]>, <@m, [{}]>] "
	                    "out_shardings=[<@m, [{\"x\"}]>] manual_axes={\"x\"} "
	                    "(%c: tensor<4xf32>, %d: tensor<4xf32>) {\n"
	                    "    sdy.return %c : tensor<4xf32>\n"
	                    "  } : (tensor<8xf32>, tensor<4xf32>) -> tensor<8xf32>\n"
	                    "  return %0 : tensor<8xf32>\n}\n",
	                    "sdy.manual_computation(%arg0) in_shardings=[<@m, [{\"x\"}]>] "
	                    "out_shardings=[<@m, [{\"x\"}]>] manual_axes={\"x\"} (%arg2: tensor<4xf32>) {\n"
	                    "      sdy.return %arg2", NULL));
	CU_ASSERT(canon_has("sdy.mesh @m = <[\"a\"=4]>\n"
	                    "func.func @f(%a: tensor<2x4xi32>) -> (tensor<2x4xi32>, tensor<8xi32>) {\n"
	                    "  %0 = sdy.reshard %a <@m, [{\"a\":(1)2}, {\"a\":(2)2}]> : tensor<2x4xi32>\n"
	                    "  %1 = stablehlo.reshape %a : (tensor<2x4xi32>) -> tensor<8xi32>\n"
	                    "  %2 = sdy.reshard %1 <@m, [{\"a\"}]> : tensor<8xi32>\n"
	                    "  return %0, %2 : tensor<2x4xi32>, tensor<8xi32>\n}\n",
	                    "%1 = stablehlo.reshape %0 : (tensor<2x4xi32>) -> tensor<8xi32>\n"
	                    "    return %0, %1", NULL));
	CU_ASSERT(canon_has("sdy.mesh @m = <[\"a\"=2]>\n"
	                    "func.func @f(%a: tensor<16xf32>) -> (tensor<16xf32>, tensor<4x4xf32>) {\n"
	                    "  %0 = sdy.reshard %a <@m, [{\"a\"}]> : tensor<16xf32>\n"
	                    "  %1 = stablehlo.reshape %a : (tensor<16xf32>) -> tensor<4x4xf32>\n"
	                    "  %2 = sdy.reshard %1 <@m, [{}, {\"a\"}]> : tensor<4x4xf32>\n"
	                    "  return %0, %2 : tensor<16xf32>, tensor<4x4xf32>\n}\n",
	                    "%2 = sdy.reshard %1 <@m, [{}, {\"a\"}]>", NULL));
#undef CASE
}

CU_TestInfo tests_sdy[] = {
	{"mesh forms", test_mesh},
	{"mesh struct", test_mesh_struct},
	{"mesh errors", test_mesh_errors},
	{"sharding canonical form", test_sharding_canonical},
	{"sharding struct and printers", test_sharding_struct},
	{"sharding errors", test_sharding_errors},
	{"sharding rule", test_rule},
	{"sharding rule errors", test_rule_errors},
	{"edges and enums", test_edges_and_enums},
	{"ops print", test_ops_print},
	{"ops props", test_ops_props},
	{"ops generic form", test_ops_generic_form},
	{"ops errors", test_ops_errors},
	{"canonicalize", test_canonicalize},
	CU_TEST_INFO_NULL,
};
