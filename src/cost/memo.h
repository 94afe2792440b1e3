/*
 * memo.h - remembering work done per assignment: a hash table from an
 * assignment (its SLI_COST_MAX_AXES bytes) to the first index it was
 * seen at.  Many of an op's factor assignments project onto the same
 * sharding of an operand (with sub-axes, tens of thousands onto a few
 * hundred), and what depends only on that sharding is priced once.
 */
#ifndef SL_COST_MEMO_H
#define SL_COST_MEMO_H

#include <stdint.h>
#include <string.h>

#include "cost/cost.h"
#include "util/hash.h"

/*
 * A hash of q that is one-to-one (an invertible mix of its bytes), so
 * that equal hashes mean equal assignments and the table needs no
 * comparison of its own.
 */
static inline uint64_t
sli_cost_asg_hash(const sli_cost_asg *q)
{
	uint64_t h = 0;
	_Static_assert(sizeof q->a == sizeof h, "an assignment is 8 bytes");
	memcpy(&h, q->a, sizeof h);
	h ^= h >> 31;
	h *= 0x9e3779b97f4a7c15u;
	h ^= h >> 29;
	return h;
}

static inline bool
sli_cost_memo_eq(const void *item, const void *key)
{
	(void)item;
	(void)key;
	return true;	/* the hashes matched: one-to-one */
}

/* The first index q was given in t, or else idx, now q's. */
static inline uint32_t
sli_cost_memo(sli_htab *t, const sli_cost_asg *q, uint32_t idx)
{
	uint64_t h = sli_cost_asg_hash(q);
	sli_hslot *s = sli_htab_slot(t, h, sli_cost_memo_eq, NULL, 64);
	if (s->item)
		return (uint32_t)((uintptr_t)s->item - 1);
	sli_htab_fill(t, s, h, (void *)((uintptr_t)idx + 1));
	return idx;
}

#endif
