/* test_axis.c - unit tests of the axis-ref algebra (src/ir/axis.c). */
#include "tests.h"

#include <stdlib.h>
#include <string.h>

#include "ir/axis.h"

static sl_context *ctx;
static sl_sym A, B, C, D;
static sl_mesh_axis mesh_axes[4];
static sl_mesh mesh;	/* ["b"=4, "a"=8, "c"=2, "d"=4]: not in name order */

static void
setup(void)
{
	ctx = sl_context_new();
	A = sl_sym_intern(ctx, "a", 1);
	B = sl_sym_intern(ctx, "b", 1);
	C = sl_sym_intern(ctx, "c", 1);
	D = sl_sym_intern(ctx, "d", 1);
	mesh_axes[0] = (sl_mesh_axis){B, 4};
	mesh_axes[1] = (sl_mesh_axis){A, 8};
	mesh_axes[2] = (sl_mesh_axis){C, 2};
	mesh_axes[3] = (sl_mesh_axis){D, 4};
	mesh = (sl_mesh){mesh_axes, 4, 0, NULL};
}

static void
teardown(void)
{
	sl_context_free(ctx);
	ctx = NULL;
}

static sl_axis_ref
full(sl_sym n)
{
	return sli_axis_full(n);
}

static sl_axis_ref
sub(sl_sym n, int64_t pre, int64_t size)
{
	return sli_axis_sub(n, pre, size);
}

static bool
is_sub(const sl_axis_ref *r, sl_sym n, int64_t pre, int64_t size)
{
	return r->name == n && r->sub && r->pre == pre && r->size == size;
}

static bool
is_full(const sl_axis_ref *r, sl_sym n)
{
	return r->name == n && !r->sub;
}

static void
test_mesh_lookup(void)
{
	setup();
	CU_ASSERT_EQUAL(sli_mesh_axis_index(&mesh, A), 1);
	CU_ASSERT_EQUAL(sli_mesh_axis_size(&mesh, D), 4);
	CU_ASSERT_EQUAL(sli_mesh_axis_size(&mesh, sl_sym_intern(ctx, "z", 1)), -1);
	CU_ASSERT_EQUAL(sli_mesh_total_size(&mesh), 256);
	CU_ASSERT_FALSE(sli_mesh_is_maximal(&mesh));
	{
		int64_t id = 3;
		sl_mesh maximal = {NULL, 0, 1, &id}, empty = {NULL, 0, 0, NULL};

		CU_ASSERT_TRUE(sli_mesh_is_maximal(&maximal));
		CU_ASSERT_FALSE(sli_mesh_is_empty(&maximal));
		CU_ASSERT_TRUE(sli_mesh_is_empty(&empty));
		CU_ASSERT_EQUAL(sli_mesh_total_size(&empty), 1);
	}
	teardown();
}

static void
test_sizes(void)
{
	sl_axis_ref a, s;

	setup();
	a = full(A);
	s = sub(A, 2, 2);
	CU_ASSERT_EQUAL(sli_axis_size(&a, &mesh), 8);
	CU_ASSERT_EQUAL(sli_axis_next(&a, &mesh), 8);
	CU_ASSERT_EQUAL(sli_axis_pre(&a), 1);
	CU_ASSERT_EQUAL(sli_axis_size(&s, &mesh), 2);
	CU_ASSERT_EQUAL(sli_axis_next(&s, &mesh), 4);
	CU_ASSERT_EQUAL(sli_axis_pre(&s), 2);
	teardown();
}

static void
test_contains_prefix_suffix(void)
{
	sl_axis_ref a, s12, s14, s24, s42, b;

	setup();
	a = full(A), s12 = sub(A, 1, 2), s14 = sub(A, 1, 4);
	s24 = sub(A, 2, 4), s42 = sub(A, 4, 2), b = full(B);
	CU_ASSERT_TRUE(sli_axis_contains(&a, &s24));
	CU_ASSERT_FALSE(sli_axis_contains(&s24, &a));
	CU_ASSERT_TRUE(sli_axis_contains(&s14, &s12));
	CU_ASSERT_FALSE(sli_axis_contains(&s14, &s24));
	CU_ASSERT_TRUE(sli_axis_contains(&s24, &s42));
	CU_ASSERT_FALSE(sli_axis_contains(&a, &b));

	CU_ASSERT_TRUE(sli_axis_prefix_of(&s12, &s14));
	CU_ASSERT_TRUE(sli_axis_prefix_of(&s14, &a));
	CU_ASSERT_FALSE(sli_axis_prefix_of(&s42, &a));
	CU_ASSERT_TRUE(sli_axis_prefix_of(&a, &a));

	CU_ASSERT_TRUE(sli_axis_suffix_of(&s42, &a, &mesh));
	CU_ASSERT_TRUE(sli_axis_suffix_of(&s42, &s24, &mesh));
	CU_ASSERT_FALSE(sli_axis_suffix_of(&s12, &s14, &mesh));
	CU_ASSERT_FALSE(sli_axis_suffix_of(&s14, &a, &mesh));
	CU_ASSERT_TRUE(sli_axis_suffix_of(&a, &a, &mesh));
	teardown();
}

static void
test_overlaps_coexist(void)
{
	sl_axis_ref a, s14, s24, s42, s12, s22, b, s32;

	setup();
	a = full(A), s14 = sub(A, 1, 4), s24 = sub(A, 2, 4);
	s42 = sub(A, 4, 2), s12 = sub(A, 1, 2), s22 = sub(A, 2, 2);
	b = full(B), s32 = sub(A, 3, 2);
	CU_ASSERT_TRUE(sli_axis_overlaps(&a, &s42));
	CU_ASSERT_TRUE(sli_axis_overlaps(&s14, &s24));
	CU_ASSERT_FALSE(sli_axis_overlaps(&s12, &s22));
	CU_ASSERT_FALSE(sli_axis_overlaps(&a, &b));

	CU_ASSERT_TRUE(sli_axis_can_coexist(&s14, &s24));
	CU_ASSERT_TRUE(sli_axis_can_coexist(&s12, &s42));
	CU_ASSERT_TRUE(sli_axis_can_coexist(&a, &s32));
	/* [2, 4) and [3, 6): 4 % 3 != 0 */
	CU_ASSERT_FALSE(sli_axis_can_coexist(&s22, &s32));
	/* [1, 2) and [3, 6): the gap 3 % 2 != 0 */
	CU_ASSERT_FALSE(sli_axis_can_coexist(&s12, &s32));
	teardown();
}

static void
test_overlap(void)
{
	sl_axis_ref a, s14, s24, s12, s42, out;

	setup();
	a = full(A), s14 = sub(A, 1, 4), s24 = sub(A, 2, 4);
	s12 = sub(A, 1, 2), s42 = sub(A, 4, 2);
	CU_ASSERT_TRUE(sli_axis_overlap(&s14, &s24, &out));
	CU_ASSERT_TRUE(is_sub(&out, A, 2, 2));
	CU_ASSERT_TRUE(sli_axis_overlap(&a, &s24, &out));
	CU_ASSERT_TRUE(is_sub(&out, A, 2, 4));
	CU_ASSERT_TRUE(sli_axis_overlap(&s42, &a, &out));
	CU_ASSERT_TRUE(is_sub(&out, A, 4, 2));
	CU_ASSERT_FALSE(sli_axis_overlap(&s12, &s42, &out));
	teardown();
}

static void
test_without_overlap(void)
{
	sl_axis_ref a, s14, s24, s12, s42, s22, out;

	setup();
	a = full(A), s14 = sub(A, 1, 4), s24 = sub(A, 2, 4);
	s12 = sub(A, 1, 2), s42 = sub(A, 4, 2), s22 = sub(A, 2, 2);
	CU_ASSERT_TRUE(sli_axis_prefix_without_overlap(&s14, &s24, &out));
	CU_ASSERT_TRUE(is_sub(&out, A, 1, 2));
	CU_ASSERT_FALSE(sli_axis_prefix_without_overlap(&s24, &s14, &out));
	CU_ASSERT_TRUE(sli_axis_prefix_without_overlap(&a, &s42, &out));
	CU_ASSERT_TRUE(is_sub(&out, A, 1, 4));
	CU_ASSERT_TRUE(sli_axis_prefix_without_overlap(&s12, &s42, &out));
	CU_ASSERT_TRUE(is_sub(&out, A, 1, 2));

	CU_ASSERT_TRUE(sli_axis_suffix_without_overlap(&s24, &s14, &mesh, &out));
	CU_ASSERT_TRUE(is_sub(&out, A, 4, 2));
	CU_ASSERT_FALSE(sli_axis_suffix_without_overlap(&s14, &s24, &mesh, &out));
	CU_ASSERT_TRUE(sli_axis_suffix_without_overlap(&a, &s12, &mesh, &out));
	CU_ASSERT_TRUE(is_sub(&out, A, 2, 4));
	CU_ASSERT_FALSE(sli_axis_suffix_without_overlap(&s22, &a, &mesh, &out));
	teardown();
}

static void
test_merge(void)
{
	sl_axis_ref s12, s22, s24, s42, m, a;

	setup();
	s12 = sub(A, 1, 2), s22 = sub(A, 2, 2), s24 = sub(A, 2, 4);
	s42 = sub(A, 4, 2), a = full(A);
	CU_ASSERT_TRUE(sli_axis_can_merge(&s12, &s22));
	CU_ASSERT_FALSE(sli_axis_can_merge(&s22, &s12));
	CU_ASSERT_FALSE(sli_axis_can_merge(&a, &s22));
	m = sli_axis_merge(&s12, &s22, &mesh);
	CU_ASSERT_TRUE(is_sub(&m, A, 1, 4));
	m = sli_axis_merge(&s12, &s24, &mesh);
	CU_ASSERT_TRUE(is_full(&m, A));
	m = sli_axis_merge(&s22, &s42, &mesh);
	CU_ASSERT_TRUE(is_sub(&m, A, 2, 4));
	teardown();
}

static void
test_orders(void)
{
	sl_axis_ref a, b, s12, s22, s14;

	setup();
	a = full(A), b = full(B), s12 = sub(A, 1, 2), s22 = sub(A, 2, 2);
	s14 = sub(A, 1, 4);
	CU_ASSERT_TRUE(sli_axis_less(ctx, &a, &b));
	CU_ASSERT_FALSE(sli_axis_less(ctx, &b, &a));
	CU_ASSERT_TRUE(sli_axis_less(ctx, &s12, &a));
	CU_ASSERT_TRUE(sli_axis_less(ctx, &a, &s22));
	CU_ASSERT_TRUE(sli_axis_less(ctx, &s12, &s14));
	CU_ASSERT_FALSE(sli_axis_less(ctx, &a, &a));
	/* mesh order puts "b" before "a" */
	CU_ASSERT_TRUE(sli_axis_mesh_less(ctx, &mesh, &b, &a));
	CU_ASSERT_FALSE(sli_axis_mesh_less(ctx, &mesh, &a, &b));
	CU_ASSERT_TRUE(sli_axis_mesh_less(ctx, &mesh, &s12, &s22));
	{
		sl_axis_ref v[4] = {full(C), s22, b, s12};

		CU_ASSERT_FALSE(sli_axis_is_mesh_sorted(ctx, &mesh, v, 4));
		sli_axis_mesh_sort(ctx, &mesh, v, 4);
		CU_ASSERT_TRUE(is_full(&v[0], B));
		CU_ASSERT_TRUE(is_sub(&v[1], A, 1, 2));
		CU_ASSERT_TRUE(is_sub(&v[2], A, 2, 2));
		CU_ASSERT_TRUE(is_full(&v[3], C));
		CU_ASSERT_TRUE(sli_axis_is_mesh_sorted(ctx, &mesh, v, 4));
	}
	teardown();
}

static void
test_sort_and_merge(void)
{
	sli_axis_vec vec = {0};
	sl_axis_ref r;

	setup();
	r = sub(A, 4, 2), SL_VEC_PUSH(vec, r);
	r = full(C), SL_VEC_PUSH(vec, r);
	r = sub(A, 1, 2), SL_VEC_PUSH(vec, r);
	r = sub(A, 2, 2), SL_VEC_PUSH(vec, r);
	r = full(B), SL_VEC_PUSH(vec, r);
	sli_axis_vec_sort_and_merge(ctx, &mesh, &vec);
	CU_ASSERT_EQUAL_FATAL(vec.n, 3);
	CU_ASSERT_TRUE(is_full(&vec.v[0], B));
	CU_ASSERT_TRUE(is_full(&vec.v[1], A));
	CU_ASSERT_TRUE(is_full(&vec.v[2], C));

	vec.n = 0;
	r = sub(A, 1, 2), SL_VEC_PUSH(vec, r);
	r = sub(A, 2, 2);
	sli_axis_vec_add_or_merge(&vec, &r, &mesh);
	CU_ASSERT_EQUAL(vec.n, 1);
	CU_ASSERT_TRUE(is_sub(&vec.v[0], A, 1, 4));
	r = full(B);
	sli_axis_vec_add_or_merge(&vec, &r, &mesh);
	CU_ASSERT_EQUAL(vec.n, 2);
	SL_VEC_FREE(vec);
	teardown();
}

static void
test_set_diff(void)
{
	sli_axis_vec out = {0};
	sl_axis_ref x[2], y[2];

	setup();
	x[0] = full(B), x[1] = full(A);
	sli_axis_set_diff(ctx, &mesh, x, 2, NULL, 0, &out);
	CU_ASSERT_EQUAL(out.n, 2);
	out.n = 0;
	x[0] = full(A), x[1] = sub(B, 1, 2);
	y[0] = sub(B, 1, 2), y[1] = full(A);
	sli_axis_set_diff(ctx, &mesh, x, 2, y, 2, &out);
	CU_ASSERT_EQUAL(out.n, 0);
	out.n = 0;
	/* "a" minus "a":(2)2 leaves "a":(1)2 and "a":(4)2 */
	x[0] = full(A);
	y[0] = sub(A, 2, 2);
	sli_axis_set_diff(ctx, &mesh, x, 1, y, 1, &out);
	CU_ASSERT_EQUAL_FATAL(out.n, 2);
	CU_ASSERT_TRUE(is_sub(&out.v[0], A, 1, 2));
	CU_ASSERT_TRUE(is_sub(&out.v[1], A, 4, 2));
	out.n = 0;
	/* "a", "d" minus "a":(1)4, "c": "a":(4)2 and "d" */
	x[0] = full(A), x[1] = full(D);
	y[0] = full(C), y[1] = sub(A, 1, 4);
	sli_axis_set_diff(ctx, &mesh, x, 2, y, 2, &out);
	CU_ASSERT_EQUAL_FATAL(out.n, 2);
	CU_ASSERT_TRUE(is_sub(&out.v[0], A, 4, 2));
	CU_ASSERT_TRUE(is_full(&out.v[1], D));
	SL_VEC_FREE(out);
	teardown();
}

static void
test_lists(void)
{
	sl_axis_ref x[2], y[2];

	setup();
	x[0] = full(A), x[1] = sub(B, 1, 2);
	y[0] = full(A), y[1] = sub(B, 1, 2);
	CU_ASSERT_TRUE(sli_axis_list_equal(x, 2, y, 2));
	y[1] = sub(B, 2, 2);
	CU_ASSERT_FALSE(sli_axis_list_equal(x, 2, y, 2));
	CU_ASSERT_FALSE(sli_axis_list_equal(x, 2, y, 1));
	CU_ASSERT_EQUAL(sli_axis_list_size(x, 2, &mesh), 16);
	CU_ASSERT_EQUAL(sli_axis_list_size(x, 0, &mesh), 1);
	teardown();
}

CU_TestInfo tests_axis[] = {
	{"mesh lookup", test_mesh_lookup},
	{"sizes", test_sizes},
	{"contains, prefix, suffix", test_contains_prefix_suffix},
	{"overlaps, coexist", test_overlaps_coexist},
	{"overlap", test_overlap},
	{"prefix/suffix without overlap", test_without_overlap},
	{"merge", test_merge},
	{"orders", test_orders},
	{"sort and merge", test_sort_and_merge},
	{"set difference", test_set_diff},
	{"lists", test_lists},
	CU_TEST_INFO_NULL,
};
