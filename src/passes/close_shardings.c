/*
 * close_shardings.c - -sdy-close-shardings (export; spec/import-passes.md
 * section 4): every sharding of the module becomes closed on all
 * dimensions and loses its replicated axes; dimension axes, priorities
 * and unreduced axes are kept.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdint.h>
#include <string.h>

#include "util/hash.h"

/*
 * Closed shardings by the sharding they close.  Propagation leaves one
 * sharding shared by many values, so most lookups hit, and equal inputs
 * keep sharing one output.  Shardings are never mutated.
 */
typedef struct closed {
	const sl_sharding *from;
	sl_sharding *to;		/* NULL: already closed */
} closed;

typedef struct closer {
	sli_htab memo;			/* of closed, by from */
	sli_arena entries;
} closer;

static bool
closed_eq(const void *item, const void *key)
{
	return ((const closed *)item)->from == key;
}

static sl_sharding *
close_new(sl_module *m, const sl_sharding *s)
{
	bool open = s->replicated.n > 0;
	for (uint32_t d = 0; d < s->rank; d++)
		open |= s->dims[d].open;
	if (!open)
		return NULL;
	sl_sharding *r = SL_NEW(&m->arena, sl_sharding);
	*r = *s;
	r->replicated.v = NULL;
	r->replicated.n = 0;
	r->dims = r->rank ? SL_NEWN(&m->arena, sl_dim_sharding, r->rank) : NULL;
	for (uint32_t d = 0; d < r->rank; d++) {
		r->dims[d] = s->dims[d];
		r->dims[d].open = false;
	}
	return r;
}

static sl_sharding *
close_one(sl_module *m, sl_op *op, const sl_sharding *s, void *ud)
{
	(void)op;
	closer *c = ud;
	uint64_t h = sli_ptr_hash(s);
	sli_hslot *slot = sli_htab_slot(&c->memo, h, closed_eq, s, 256);
	if (!slot->item) {
		closed *e = SL_NEW(&c->entries, closed);
		e->from = s;
		e->to = close_new(m, s);
		sli_htab_fill(&c->memo, slot, h, e);
	}
	return ((closed *)slot->item)->to;
}

int
sli_pass_close_shardings(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	closer c;
	memset(&c, 0, sizeof c);
	sli_arena_init(&c.entries);
	sli_transform_shardings_memo(m, close_one, &c);
	sli_htab_fini(&c.memo);
	sli_arena_fini(&c.entries);
	return 0;
}
