/*
 * test_stablehlo_attrs.c - unit tests of the typed StableHLO attributes
 * (ir/stablehlo_attrs.h): each kind of dimension numbers, enum values and
 * replica group meshes read from text into its struct, its fields checked, printed back identical; text the reader
 * cannot read stays opaque and the rules report it at the op.
 */
#include "tests.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/mlir_printer.h"
#include "formats/mlir_stablehlo_attrs.h"
#include "ir/ir.h"
#include "rules/rules.h"

/* A context and an empty module whose arena holds the attributes. */
typedef struct fixture {
	sl_context *ctx;
	sl_module *m;
} fixture;

static fixture
open_fixture(void)
{
	fixture f;
	f.ctx = sl_context_new();
	f.m = test_parse(f.ctx, "module {\n}\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f.m);
	return f;
}

static void
close_fixture(fixture *f)
{
	sl_module_free(f->m);
	sl_context_free(f->ctx);
}

static sl_attr *
read_text(fixture *f, const char *text)
{
	sl_loc loc = {0};
	return sli_stablehlo_attr_from_text(f->m, text, strlen(text), loc);
}

/* The attribute prints as `want`. */
static int
prints(const fixture *f, const sl_attr *a, const char *want)
{
	sli_buf b;
	sli_buf_init(&b);
	sli_print_attr(&b, f->ctx, a);
	int ok = strcmp(sli_buf_cstr(&b), want) == 0;
	if (!ok)
		fprintf(stderr, "\n  got  %s\n  want %s\n", sli_buf_cstr(&b), want);
	sli_buf_fini(&b);
	return ok;
}

/* The list holds exactly the n values given. */
static int
list_is(const sl_dim_list *l, uint32_t n, const int64_t *want)
{
	if (l->n != n)
		return 0;
	for (uint32_t i = 0; i < n; i++)
		if (l->v[i] != want[i])
			return 0;
	return 1;
}

#define LIST_IS(l, ...) \
	list_is((l), sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t), (int64_t[]){__VA_ARGS__})

static void
test_dot(void)
{
	fixture f = open_fixture();
	const char *text = "#stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = "
	                   "[1], lhs_contracting_dimensions = [2, 3], rhs_contracting_dimensions = "
	                   "[0, 2]>";
	sl_attr *a = read_text(&f, text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_EQUAL(a->kind, SL_ATTR_DOT_DIMS);
	const sl_dot_dims *d = sli_attr_get_dot_dims(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT(LIST_IS(&d->lists[SL_DOT_LHS_BATCH], 0));
	CU_ASSERT(LIST_IS(&d->lists[SL_DOT_RHS_BATCH], 1));
	CU_ASSERT(LIST_IS(&d->lists[SL_DOT_LHS_CONTRACT], 2, 3));
	CU_ASSERT(LIST_IS(&d->lists[SL_DOT_RHS_CONTRACT], 0, 2));
	CU_ASSERT(prints(&f, a, text));

	/* any order and spacing in; MLIR's order out, empty lists left out */
	a = read_text(&f, "#stablehlo.dot<rhs_contracting_dimensions=[0],"
	                  "lhs_batching_dimensions = [], lhs_contracting_dimensions = [1]>");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_EQUAL(sli_attr_get_dot_dims(a)->lists[SL_DOT_LHS_BATCH].n, 0);
	CU_ASSERT(prints(&f, a, "#stablehlo.dot<lhs_contracting_dimensions = [1], "
	                        "rhs_contracting_dimensions = [0]>"));
	a = read_text(&f, "#stablehlo.dot<>");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT(prints(&f, a, "#stablehlo.dot<>"));
	CU_ASSERT_PTR_NULL(sli_attr_get_conv_dims(a));
	close_fixture(&f);
}

static void
test_gather_scatter(void)
{
	fixture f = open_fixture();
	const char *g = "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [1], "
	                "operand_batching_dims = [0], start_indices_batching_dims = [0], "
	                "start_index_map = [1, 2], index_vector_dim = 1>";
	sl_attr *a = read_text(&f, g);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_EQUAL(a->kind, SL_ATTR_GATHER_DIMS);
	CU_ASSERT_PTR_NULL(sli_attr_get_gs_dims(a, true));
	const sl_gs_dims *d = sli_attr_get_gs_dims(a, false);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT(LIST_IS(&d->lists[SL_GS_WINDOW], 1));
	CU_ASSERT(LIST_IS(&d->lists[SL_GS_COLLAPSED], 1));
	CU_ASSERT(LIST_IS(&d->lists[SL_GS_BATCH], 0));
	CU_ASSERT(LIST_IS(&d->lists[SL_GS_IDX_BATCH], 0));
	CU_ASSERT(LIST_IS(&d->lists[SL_GS_MAP], 1, 2));
	CU_ASSERT_EQUAL(d->index_vector_dim, 1);
	CU_ASSERT(prints(&f, a, g));

	/* an index_vector_dim of 0 prints only when written */
	const char *s = "#stablehlo.scatter<inserted_window_dims = [0], "
	                "scatter_dims_to_operand_dims = [0]>";
	a = read_text(&f, s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	d = sli_attr_get_gs_dims(a, true);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT(!d->has_index_vector_dim && d->index_vector_dim == 0);
	CU_ASSERT_EQUAL(d->lists[SL_GS_WINDOW].n, 0);
	CU_ASSERT(prints(&f, a, s));
	s = "#stablehlo.scatter<update_window_dims = [1], index_vector_dim = 0>";
	a = read_text(&f, s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT(sli_attr_get_gs_dims(a, true)->has_index_vector_dim);
	CU_ASSERT(prints(&f, a, s));
	close_fixture(&f);
}

static void
test_conv(void)
{
	fixture f = open_fixture();
	const char *text = "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 1, 0, f]>";
	sl_attr *a = read_text(&f, text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	const sl_conv_dims *c = sli_attr_get_conv_dims(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT(!c->raw && c->known);
	CU_ASSERT(LIST_IS(&c->layout[SL_CONV_INPUT], SL_CONV_B, 0, 1, SL_CONV_F));
	CU_ASSERT(LIST_IS(&c->layout[SL_CONV_KERNEL], 0, 1, SL_CONV_I, SL_CONV_O));
	CU_ASSERT_EQUAL(c->first[SL_CONV_INPUT], 0);
	CU_ASSERT_EQUAL(c->second[SL_CONV_INPUT], 3);
	CU_ASSERT_EQUAL(c->first[SL_CONV_KERNEL], 2);
	CU_ASSERT_EQUAL(c->second[SL_CONV_KERNEL], 3);
	CU_ASSERT(LIST_IS(&c->spatial[SL_CONV_INPUT], 1, 2));
	CU_ASSERT(LIST_IS(&c->spatial[SL_CONV_OUTPUT], 2, 1));
	CU_ASSERT(prints(&f, a, text));

	/* '?' reads and prints, but leaves the roles unknown */
	text = "#stablehlo.conv<[b, ?, f]x[0, i, o]->[b, 0, f]>";
	a = read_text(&f, text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT(!sli_attr_get_conv_dims(a)->known);
	CU_ASSERT(prints(&f, a, text));

	text = "#stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 2, "
	       "input_spatial_dimensions = [1], kernel_input_feature_dimension = 1, "
	       "kernel_output_feature_dimension = 2, kernel_spatial_dimensions = [0], "
	       "output_batch_dimension = 0, output_feature_dimension = 2, "
	       "output_spatial_dimensions = [1]>";
	a = read_text(&f, text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	c = sli_attr_get_conv_dims(a);
	CU_ASSERT(c->raw && c->known);
	CU_ASSERT_EQUAL(c->second[SL_CONV_INPUT], 2);
	CU_ASSERT_EQUAL(c->first[SL_CONV_KERNEL], 1);
	CU_ASSERT(LIST_IS(&c->spatial[SL_CONV_KERNEL], 0));
	CU_ASSERT(prints(&f, a, text));
	close_fixture(&f);
}

static void
test_enum(void)
{
	fixture f = open_fixture();
	sl_attr *a = read_text(&f, "#stablehlo<comparison_direction EQ>");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_EQUAL(a->kind, SL_ATTR_STABLEHLO_ENUM);
	CU_ASSERT_STRING_EQUAL(sl_sym_str(f.ctx, a->u.shlo_enum.mnemonic), "comparison_direction");
	CU_ASSERT_EQUAL(sli_attr_enum_keyword(a), sl_sym_intern(f.ctx, "EQ", 2));
	CU_ASSERT(prints(&f, a, "#stablehlo<comparison_direction EQ>"));
	CU_ASSERT_EQUAL(sli_attr_enum_keyword(read_text(&f, "#stablehlo.dot<>")), 0);
	close_fixture(&f);
}

static void
test_replica_mesh_axes(void)
{
	fixture f = open_fixture();
	const char *text = "#stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = "
	                   "[#stablehlo.mesh_axis<name = \"z\", size = 4>, #stablehlo.mesh_axis<"
	                   "name = \"w\", size = 2>]>, axes = [#stablehlo.axis_ref<name = \"z\">]>";
	sl_attr *a = read_text(&f, text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	const sl_replica_mesh_axes *r = sli_attr_get_replica_mesh_axes(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->mesh_name, 0);
	CU_ASSERT_EQUAL_FATAL(r->mesh.naxes, 2);
	CU_ASSERT_STRING_EQUAL(sl_sym_str(f.ctx, r->mesh.axes[1].name), "w");
	CU_ASSERT_EQUAL(r->mesh.axes[0].size, 4);
	CU_ASSERT(prints(&f, a, text));

	/* lifted: the mesh becomes a name, the rest stays */
	sl_replica_mesh_axes lifted = *r;
	lifted.mesh_name = sl_sym_intern(f.ctx, "mesh", 4);
	sl_loc loc = {0};
	CU_ASSERT(prints(&f, sli_attr_replica_mesh_axes(f.m, &lifted, loc),
	                 "#stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = "
	                 "[#stablehlo.axis_ref<name = \"z\">]>"));
	/* a mesh given by name has nothing to read */
	CU_ASSERT_PTR_NULL(read_text(&f, "#stablehlo.replica_group_mesh_axes<mesh = @mesh, "
	                                 "axes = [#stablehlo.axis_ref<name = \"z\">]>"));
	close_fixture(&f);
}

/* Text the reader cannot read stays opaque (and so prints unchanged). */
static void
test_malformed_text(void)
{
	static const char *const bad[] = {
		"#stablehlo.dot<lhs_contracting_dimensions = [1], lhs_contracting_dimensions = [1]>",
		"#stablehlo.dot<lhs_contracting_dimensions = [1] rhs_contracting_dimensions = [0]>",
		"#stablehlo.dot<foo = [1]>",
		"#stablehlo.gather<offset_dims = [1, x]>",
		"#stablehlo.scatter<index_vector_dim = [1]>",
		"#stablehlo.conv<[b, 0, f]x[0, i, i]->[b, 0, f]>",
		"#stablehlo.conv<[b, 0, f]x[0, i, o]>",
		"#stablehlo.conv<raw input_batch_dimension = 0>",
		"#stablehlo.dot_algorithm<lhs_precision_type = f32>",
		"#stablehlo<precision HIGH, HIGH>",
		"#stablehlo<HIGH>",
	};
	fixture f = open_fixture();
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		sl_attr *a = read_text(&f, bad[i]);
		if (a)
			fprintf(stderr, "\n  read: %s\n", bad[i]);
		CU_ASSERT_PTR_NULL(a);
	}
	close_fixture(&f);
}

/* The first dot_general of a module. */
static int
find_dot(sl_op *op, void *ud)
{
	if (op->kind != SL_OP_DOT_GENERAL)
		return 0;
	*(sl_op **)ud = op;
	return 1;
}

/* A generic dot_general reads typed; a malformed one stays opaque and the
 * rule reports it at the op, as before. */
static void
test_in_module(void)
{
	static const char good[] =
		"func.func @f(%a: tensor<8x32xf32>, %b: tensor<32x16xf32>) -> tensor<8x16xf32> {\n"
		"  %0 = \"stablehlo.dot_general\"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<"
		"lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : "
		"(tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>\n"
		"  return %0 : tensor<8x16xf32>\n}\n";
	static const char bad[] =
		"func.func @f(%a: tensor<8x32xf32>, %b: tensor<32x16xf32>) -> tensor<8x16xf32> {\n"
		"  %0 = \"stablehlo.dot_general\"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<"
		"lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0, x]>} : "
		"(tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>\n"
		"  return %0 : tensor<8x16xf32>\n}\n";
	sl_context *ctx = sl_context_new();
	sli_rule_opts o = {0};
	sl_rule r;
	sl_op *op = NULL;

	sl_module *m = test_parse(ctx, good);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	sli_walk(m->top, find_dot, &op);
	CU_ASSERT_PTR_NOT_NULL_FATAL(op);
	const sl_attr *a = sli_op_get(op, sl_sym_intern(ctx, "dot_dimension_numbers", 21));
	CU_ASSERT_PTR_NOT_NULL(sli_attr_get_dot_dims(a));
	char *out = test_print(m);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "contracting_dims = [1] x [0]"));
	free(out);
	sl_module_free(m);

	m = test_parse(ctx, bad);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	op = NULL;
	sli_walk(m->top, find_dot, &op);
	CU_ASSERT_PTR_NOT_NULL_FATAL(op);
	a = sli_op_get(op, sl_sym_intern(ctx, "dot_dimension_numbers", 21));
	CU_ASSERT(a && a->kind == SL_ATTR_OPAQUE);
	CU_ASSERT(sli_rule_for_op(m, op, &o, &r) < 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(test_diags(), "t.mlir:2:3:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(test_diags(), "malformed 'dot_dimension_numbers'"));
	sli_rule_opts_fini(&o);
	sl_module_free(m);
	sl_context_free(ctx);
}

/* The custom syntax's own errors keep their location. */
static void
test_custom_syntax_error(void)
{
	static const char text[] =
		"func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
		"  %0 = stablehlo.convolution(%a, %a) dim_numbers = [b, 0, f]x[0, i, i]->[b, 0, f], "
		"window = {} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n"
		"  return %0 : tensor<2xf32>\n}\n";
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx, text);
	CU_ASSERT_PTR_NULL(m);
	CU_ASSERT_PTR_NOT_NULL(strstr(test_diags(), "t.mlir:2:69: error: duplicate dimension 'i'"));
	sl_module_free(m);
	sl_context_free(ctx);
}

CU_TestInfo tests_stablehlo_attrs[] = {
	{"dot dimension numbers", test_dot},
	{"gather and scatter dimension numbers", test_gather_scatter},
	{"convolution dimension numbers", test_conv},
	{"enum values", test_enum},
	{"replica group mesh axes", test_replica_mesh_axes},
	{"malformed text stays opaque", test_malformed_text},
	{"read once in a module, rules report malformed text", test_in_module},
	{"custom syntax errors are located", test_custom_syntax_error},
	CU_TEST_INFO_NULL,
};
