/*
 * test_reshard.c - unit tests of the reshard decomposition
 * (src/passes/reshard_plan.c).  Each plan is replayed by an independent
 * model: every axis of a power-of-two mesh becomes a run of size-2 "bits",
 * a sharding a list of bits per dimension; all_gather must drop a suffix,
 * all_slice must add unused bits, all_to_all must move a suffix between
 * dimensions and collective_permute must keep each dimension's size.  The
 * replay must pass through each step's result and end at the target.
 */
#include "tests.h"

#include <stdlib.h>
#include <string.h>

#include "passes/reshard_plan.h"

enum { MAXD = 4, MAXB = 32 };

static sl_context *ctx;
static sl_mesh_axis mesh_axes[4];
static sl_mesh mesh;	/* ["x"=2, "y"=4, "z"=2, "w"=8] */

static void
setup(void)
{
	static const char *names[] = {"x", "y", "z", "w"};
	static const int64_t sizes[] = {2, 4, 2, 8};
	ctx = sl_context_new();
	for (int i = 0; i < 4; i++)
		mesh_axes[i] = (sl_mesh_axis){sl_sym_intern(ctx, names[i], 1), sizes[i]};
	mesh = (sl_mesh){mesh_axes, 4, 0, NULL};
}

static void
teardown(void)
{
	sl_context_free(ctx);
	ctx = NULL;
}

/* A sharding of the model: bits per dimension, each bit (axis, level). */
typedef struct model {
	int n[MAXD];
	int bit[MAXD][MAXB];
} model;

static int
level(int64_t v)
{
	int l = 0;
	while (v > 1) {
		v /= 2;
		l++;
	}
	return l;
}

static void
add_ref(model *s, int d, const sl_axis_ref *r)
{
	int a = sli_mesh_axis_index(&mesh, r->name);
	int lo = level(sli_axis_pre(r)), hi = level(sli_axis_next(r, &mesh));
	/* major bits first: the pre-size 1 part of an axis is its major one */
	for (int l = lo; l < hi; l++)
		s->bit[d][s->n[d]++] = a * 8 + l;
}

static void
model_of(model *s, const sli_axis_vec *v, uint32_t rank)
{
	memset(s, 0, sizeof *s);
	for (uint32_t d = 0; d < rank; d++)
		for (size_t i = 0; i < v[d].n; i++)
			add_ref(s, (int)d, &v[d].v[i]);
}

static bool
model_equal(const model *a, const model *b, uint32_t rank)
{
	for (uint32_t d = 0; d < rank; d++)
		if (a->n[d] != b->n[d] ||
		    memcmp(a->bit[d], b->bit[d], sizeof(int) * (size_t)a->n[d]))
			return false;
	return true;
}

static bool
used(const model *s, int b, uint32_t rank)
{
	for (uint32_t d = 0; d < rank; d++)
		for (int i = 0; i < s->n[d]; i++)
			if (s->bit[d][i] == b)
				return true;
	return false;
}

/* Removes bits `x` (model of one dimension) from the end of dimension d. */
static bool
pop_suffix(model *s, int d, const model *x, int xd)
{
	int k = x->n[xd];
	if (k > s->n[d] || memcmp(s->bit[d] + s->n[d] - k, x->bit[xd], sizeof(int) * (size_t)k))
		return false;
	s->n[d] -= k;
	return true;
}

/* Applies one step to s; false when the step is not legal there. */
static bool
apply(model *s, const sli_rtc_step *st, uint32_t rank)
{
	model ax, after;
	model_of(&ax, st->axes, rank);
	model_of(&after, st->after, rank);
	switch (st->kind) {
	case SL_OP_SDY_ALL_GATHER:
		for (uint32_t d = 0; d < rank; d++)
			if (!pop_suffix(s, (int)d, &ax, (int)d))
				return false;
		return true;
	case SL_OP_SDY_ALL_SLICE:
		for (uint32_t d = 0; d < rank; d++)
			for (int i = 0; i < ax.n[d]; i++) {
				if (used(s, ax.bit[d][i], rank))
					return false;
				s->bit[d][s->n[d]++] = ax.bit[d][i];
			}
		return true;
	case SL_OP_SDY_ALL_TO_ALL:
		if (st->src == st->tgt || !pop_suffix(s, (int)st->src, &ax, 0))
			return false;
		for (int i = 0; i < ax.n[0]; i++)
			s->bit[st->tgt][s->n[st->tgt]++] = ax.bit[0][i];
		return true;
	case SL_OP_SDY_COLLECTIVE_PERMUTE:
		for (uint32_t d = 0; d < rank; d++)
			if (s->n[d] != after.n[d])
				return false;
		*s = after;
		return true;
	default:
		return false;
	}
}

/* Parses "x,y:1:2|z" (dimensions split by '|', sub-axes name:pre:size). */
static void
parse(const char *txt, sl_axis_ref v[MAXD][8], sl_axis_list *l, uint32_t rank)
{
	for (uint32_t d = 0; d < rank; d++)
		l[d] = (sl_axis_list){v[d], 0};
	uint32_t d = 0;
	for (const char *p = txt; *p; ) {
		if (*p == '|') {
			d++;
			p++;
			continue;
		}
		if (*p == ',') {
			p++;
			continue;
		}
		sl_sym n = sl_sym_intern(ctx, p, 1);
		p++;
		sl_axis_ref r = sli_axis_full(n);
		if (*p == ':') {
			char *e;
			int64_t pre = strtoll(p + 1, &e, 10);
			int64_t size = strtoll(e + 1, &e, 10);
			r = sli_axis_sub(n, pre, size);
			p = e;
		}
		v[d][l[d].n++] = r;
	}
}

/* Plans in -> out, replays it, and returns the number of steps (-1 when
 * the replay fails); *kinds gets the step kinds' first letters. */
static int
check(const char *in, const char *out, uint32_t rank, bool sw, char *kinds)
{
	sl_axis_ref iv[MAXD][8], ov[MAXD][8];
	sl_axis_list il[MAXD], ol[MAXD];
	parse(in, iv, il, rank);
	parse(out, ov, ol, rank);
	sli_rtc_plan plan = {0};
	if (sli_rtc_plan_build(ctx, &mesh, il, ol, rank, sw, &plan) < 0)
		return -1;
	model s, t, a;
	sli_axis_vec tv[MAXD] = {{0}};
	for (uint32_t d = 0; d < rank; d++)
		for (uint32_t i = 0; i < il[d].n; i++)
			SL_VEC_PUSH(tv[d], il[d].v[i]);
	model_of(&s, tv, rank);
	for (uint32_t d = 0; d < rank; d++) {
		tv[d].n = 0;
		for (uint32_t i = 0; i < ol[d].n; i++)
			SL_VEC_PUSH(tv[d], ol[d].v[i]);
	}
	model_of(&t, tv, rank);
	int n = (int)plan.steps.n;
	for (size_t i = 0; i < plan.steps.n; i++) {
		const sli_rtc_step *st = &plan.steps.v[i];
		kinds[i] = st->kind == SL_OP_SDY_ALL_GATHER ? 'g' :
		           st->kind == SL_OP_SDY_ALL_SLICE ? 's' :
		           st->kind == SL_OP_SDY_ALL_TO_ALL ? 'a' : 'p';
		model_of(&a, st->after, rank);
		if (!apply(&s, st, rank) || !model_equal(&s, &a, rank))
			n = -1;
	}
	kinds[plan.steps.n] = 0;
	if (!model_equal(&s, &t, rank))
		n = -1;
	for (uint32_t d = 0; d < rank; d++)
		SL_VEC_FREE(tv[d]);
	sli_rtc_plan_fini(&plan);
	return n;
}

#define EXPECT_ON(in, out, rank, sw, want) do { \
	char k[16]; \
	CU_ASSERT_EQUAL(check(in, out, rank, sw, k), (int)strlen(want)); \
	CU_ASSERT_STRING_EQUAL(k, want); \
} while (0)
#define EXPECT(in, out, rank, want) EXPECT_ON(in, out, rank, false, want)

static void
test_same(void)
{
	setup();
	EXPECT("", "", 2, "");
	EXPECT("x|y", "x|y", 2, "");
	teardown();
}

static void
test_replicated(void)
{
	setup();
	EXPECT("x,y|z", "|", 2, "g");
	EXPECT("|", "x|y,z", 2, "s");
	teardown();
}

static void
test_one_axis(void)
{
	setup();
	EXPECT("y|x", "y|", 2, "g");
	EXPECT("x|", "x|z", 2, "s");
	EXPECT("x||", "||x", 3, "a");
	teardown();
}

static void
test_two_axes_orders(void)
{
	setup();
	EXPECT("x|z", "z|x", 2, "p");
	EXPECT("x|y", "y|x", 2, "gs");
	EXPECT("x,z|", "z,x|", 2, "p");
	EXPECT("x|z|", "||z,x", 3, "aa");
	EXPECT("x|z|", "||x,z", 3, "aa");
	teardown();
}

static void
test_sub_axes(void)
{
	setup();
	EXPECT("w|x", "w:1:4|x", 2, "g");
	EXPECT("x|w:1:2", "x|w", 2, "s");
	EXPECT("x|y,w", "x,w:4:2|y,w:1:4", 2, "a");
	EXPECT("x|y,w", "x,w:4:2|", 2, "ag");
	teardown();
}

static void
test_axis_moved(void)
{
	setup();
	EXPECT("|y,x|", "x||y", 3, "aa");
	EXPECT("x,z|y", "x|y,z", 2, "a");
	EXPECT("y|x", "|x,y", 2, "a");
	/* the fallback: gather everything, then slice */
	EXPECT("y|x,z|", "||x,y,z", 3, "gs");
	teardown();
}

static void
test_mesh_switch(void)
{
	setup();
	/* other device ids: one permute, first, whatever else changes */
	EXPECT_ON("x|y", "x|y", 2, true, "p");
	EXPECT_ON("x,z|", "z,x|", 2, true, "p");
	EXPECT_ON("x|y", "x|", 2, true, "pg");
	EXPECT_ON("|y,x|", "x||y", 3, true, "paa");
	teardown();
}

CU_TestInfo tests_reshard[] = {
	{"same sharding: no step", test_same},
	{"to and from replicated", test_replicated},
	{"one axis", test_one_axis},
	{"two axes in both orders", test_two_axes_orders},
	{"sub-axes", test_sub_axes},
	{"axis moved between dims", test_axis_moved},
	{"to a mesh with other device ids", test_mesh_switch},
	CU_TEST_INFO_NULL
};
