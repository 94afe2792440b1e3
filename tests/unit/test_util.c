/* test_util.c - unit tests of the hash set and union-find (src/util/) and
 * of the arena (src/ir/arena.c). */
#include "tests.h"

#include <stdlib.h>
#include <string.h>

#include "ir/arena.h"
#include "util.h"
#include "util/hash.h"
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
	int k0 = 0;
	CU_ASSERT_PTR_NULL(sli_htab_get(&t, weak_hash(k0), int_eq, &k0));
	CU_ASSERT_PTR_NULL(t.slots);	/* a read-only lookup never allocates */
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
		CU_ASSERT_PTR_EQUAL(sli_htab_get(&t, weak_hash(k), int_eq, &k), &v[i]);
		k = i * 3 + 1;
		CU_ASSERT_PTR_NULL(sli_htab_find(&t, weak_hash(k), int_eq, &k, 4));
		CU_ASSERT_PTR_NULL(sli_htab_get(&t, weak_hash(k), int_eq, &k));
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

/*
 * An arena told it will be big takes chunks of the largest size (4 MiB)
 * from the first, each on a 2 MiB boundary (huge pages); a small one
 * starts at 64 KiB as before.  What is written stays, over many chunks.
 */
static void
test_arena_expect(void)
{
	enum { MIB = 1024 * 1024, N = 3000, SZ = 4096 };
	sli_arena small, big;
	sli_arena_init(&small);
	sli_arena_init(&big);
	sli_arena_expect(&small, MIB);
	sli_arena_expect(&big, SLI_ARENA_HUGE);
	CU_ASSERT_FALSE(small.huge);
	CU_ASSERT_TRUE(big.huge);
	char *p = sli_arena_alloc(&small, 24), *q = sli_arena_alloc(&big, 24);
	CU_ASSERT_PTR_NOT_NULL(p);
	CU_ASSERT_PTR_NOT_NULL(q);
#ifndef SL_ARENA_EXACT
	CU_ASSERT(small.total < 64 * 1024);
	CU_ASSERT(big.total > 4 * MIB - 64 && big.total < 4 * MIB);
	CU_ASSERT((uintptr_t)q % (2 * MIB) < 64);	/* just after the chunk's header */
#endif
	/* 12 MB over several chunks, each block written, then read back */
	char **blk = malloc(sizeof *blk * N);
	for (int i = 0; i < N; i++) {
		blk[i] = sli_arena_alloc(&big, SZ);
		memset(blk[i], i % 251, SZ);
	}
	int bad = 0;
	for (int i = 0; i < N; i++)
		for (int k = 0; k < SZ; k += 511)
			bad += (unsigned char)blk[i][k] != i % 251;
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(big.total >= (size_t)N * SZ);
	free(blk);
	sli_arena_fini(&big);
	sli_arena_fini(&small);
	CU_ASSERT_FALSE(big.huge);
	CU_ASSERT_EQUAL(big.total, 0);
}

CU_TestInfo tests_util[] = {
	{"hash set: insert, find, grow, clear", test_htab_insert_find},
	{"hash set: hashes compared first", test_htab_hash_first},
	{"hash set: the context's intern table", test_htab_strings},
	{"union-find", test_uf},
	{"arena: a big one on huge pages, chunks of the largest size", test_arena_expect},
	CU_TEST_INFO_NULL,
};
