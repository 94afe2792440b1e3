/* test_util.c - unit tests of the hash set, the scoped table of names and
 * the union-find (src/util/). */
#include "tests.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "util/hash.h"
#include "util/stab.h"
#include "util/uf.h"

static bool
int_eq(const void *item, const void *key)
{
	return *(const int *)item == *(const int *)key;
}

/* A hash with many collisions, so that probing is exercised. */
static uint64_t
weak_hash(int x)
{
	return (uint64_t)(x % 7);
}

static void
test_htab_insert_find(void)
{
	enum { N = 1000 };
	int *v = malloc(sizeof *v * N);
	sli_htab t = {0};
	for (int i = 0; i < N; i++) {
		v[i] = i * 3;
		sli_hslot *s = sli_htab_slot(&t, weak_hash(v[i]), int_eq, &v[i], 4);
		CU_ASSERT_PTR_NULL(s->item);
		sli_htab_fill(&t, s, weak_hash(v[i]), &v[i]);
	}
	CU_ASSERT_EQUAL(t.n, N);
	CU_ASSERT_TRUE(t.n * 2 < t.cap);
	CU_ASSERT_EQUAL(t.cap & (t.cap - 1), 0);
	for (int i = 0; i < N; i++) {
		int k = i * 3;
		CU_ASSERT_PTR_EQUAL(sli_htab_find(&t, weak_hash(k), int_eq, &k, 4), &v[i]);
		k = i * 3 + 1;
		CU_ASSERT_PTR_NULL(sli_htab_find(&t, weak_hash(k), int_eq, &k, 4));
	}
	sli_htab_clear(&t);
	CU_ASSERT_EQUAL(t.n, 0);
	int k = 3;
	CU_ASSERT_PTR_NULL(sli_htab_find(&t, weak_hash(k), int_eq, &k, 4));
	sli_htab_fini(&t);
	CU_ASSERT_PTR_NULL(t.slots);
	free(v);
}

/* Items equal under eq but with different hashes are different keys. */
static bool
any_eq(const void *item, const void *key)
{
	(void)item;
	(void)key;
	return true;
}

static void
test_htab_hash_first(void)
{
	int a = 1, b = 2;
	sli_htab t = {0};
	sli_hslot *s = sli_htab_slot(&t, 10, any_eq, &a, 8);
	sli_htab_fill(&t, s, 10, &a);
	CU_ASSERT_PTR_NULL(sli_htab_find(&t, 11, any_eq, &b, 8));
	CU_ASSERT_PTR_EQUAL(sli_htab_find(&t, 10, any_eq, &b, 8), &a);
	CU_ASSERT_EQUAL(t.cap, 8);
	sli_htab_fini(&t);
}

static void
test_htab_strings(void)
{
	sl_context *ctx = sl_context_new();
	sl_sym a = sl_sym_intern(ctx, "alpha", 5);
	sl_sym b = sl_sym_intern(ctx, "alphabet", 8);
	CU_ASSERT_NOT_EQUAL(a, b);
	CU_ASSERT_EQUAL(sl_sym_intern(ctx, "alphabet", 5), a);
	char buf[32];
	sl_sym first = 0;
	for (int i = 0; i < 5000; i++) {
		int n = snprintf(buf, sizeof buf, "s%d", i);
		sl_sym s = sl_sym_intern(ctx, buf, (size_t)n);
		if (!i)
			first = s;
		else
			CU_ASSERT_EQUAL(s, first + (sl_sym)i);
	}
	CU_ASSERT_EQUAL(sl_sym_intern(ctx, "s0", 2), first);
	CU_ASSERT_STRING_EQUAL(sl_sym_str(ctx, first + 4999), "s4999");
	sl_context_free(ctx);
}

static void
test_htab_remove(void)
{
	enum { N = 600 };
	int *v = malloc(sizeof *v * N);
	sli_htab t = {0};
	for (int i = 0; i < N; i++) {
		v[i] = i;
		sli_hslot *s = sli_htab_slot(&t, weak_hash(v[i]), int_eq, &v[i], 4);
		sli_htab_fill(&t, s, weak_hash(v[i]), &v[i]);
	}
	/* removing from the middle of long probe chains keeps the rest found */
	for (int i = 0; i < N; i += 2)
		sli_htab_remove(&t, sli_htab_slot(&t, weak_hash(i), int_eq, &i, 4));
	CU_ASSERT_EQUAL(t.n, N / 2);
	for (int i = 0; i < N; i++)
		CU_ASSERT_PTR_EQUAL(sli_htab_get(&t, weak_hash(i), int_eq, &i),
		                    i % 2 ? &v[i] : NULL);
	sli_htab_fini(&t);
	free(v);
}

static void
test_stab(void)
{
	sli_stab t = {0};
	CU_ASSERT_EQUAL(sli_stab_find(&t, "x", 1), 0);
	CU_ASSERT_EQUAL(sli_stab_bind(&t, "x", 1), 0);
	CU_ASSERT_EQUAL(sli_stab_bind(&t, "y", 1), 1);
	size_t mark = sli_stab_mark(&t);
	CU_ASSERT_EQUAL(sli_stab_bind(&t, "x", 1), 2);	/* hides the outer x */
	static char names[1000][8];
	for (int i = 0; i < 1000; i++) {
		int n = snprintf(names[i], sizeof names[i], "v%d", i);
		sli_stab_bind(&t, names[i], (uint32_t)n);
	}
	CU_ASSERT_EQUAL(sli_stab_find(&t, "x", 1), 3);
	CU_ASSERT_EQUAL(sli_stab_find(&t, "v999", 4), 1003);
	sli_stab_pop(&t, mark);
	CU_ASSERT_EQUAL(sli_stab_find(&t, "x", 1), 1);	/* uncovered */
	CU_ASSERT_EQUAL(sli_stab_find(&t, "y", 1), 2);
	CU_ASSERT_EQUAL(sli_stab_find(&t, "v0", 2), 0);
	sli_stab_pop(&t, 0);
	CU_ASSERT_EQUAL(sli_stab_find(&t, "x", 1), 0);
	CU_ASSERT_EQUAL(t.index.n, 0);
	sli_stab_fini(&t);
}

static void
test_uf(void)
{
	sli_uf u;
	sli_uf_init(&u, 10);
	for (uint32_t i = 0; i < 10; i++)
		CU_ASSERT_EQUAL(sli_uf_find(&u, i), i);
	CU_ASSERT_EQUAL(sli_uf_union(&u, 1, 2), 2);
	CU_ASSERT_EQUAL(sli_uf_union(&u, 3, 4), 4);
	CU_ASSERT_EQUAL(sli_uf_union(&u, 2, 4), 4);
	for (uint32_t i = 1; i <= 4; i++)
		CU_ASSERT_EQUAL(sli_uf_find(&u, i), 4);
	CU_ASSERT_EQUAL(sli_uf_find(&u, 0), 0);
	CU_ASSERT_EQUAL(sli_uf_union(&u, 9, 1), 4);
	CU_ASSERT_EQUAL(sli_uf_find(&u, 9), 4);
	CU_ASSERT_EQUAL(sli_uf_union(&u, 4, 1), 4);	/* already joined */
	CU_ASSERT_EQUAL(sli_uf_find(&u, 5), 5);
	sli_uf_fini(&u);
	CU_ASSERT_PTR_NULL(u.parent);

	/* a long chain stays correct under path halving */
	sli_uf_init(&u, 1000);
	for (uint32_t i = 0; i + 1 < 1000; i++)
		sli_uf_union(&u, i, i + 1);
	for (uint32_t i = 0; i < 1000; i++)
		CU_ASSERT_EQUAL(sli_uf_find(&u, i), 999);
	sli_uf_fini(&u);
}

CU_TestInfo tests_util[] = {
	{"hash set: insert, find, grow, clear", test_htab_insert_find},
	{"hash set: hashes compared first", test_htab_hash_first},
	{"hash set: the context's intern table", test_htab_strings},
	{"hash set: remove", test_htab_remove},
	{"scoped names: bind, hide, pop", test_stab},
	{"union-find", test_uf},
	CU_TEST_INFO_NULL,
};
