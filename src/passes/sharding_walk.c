/*
 * sharding_walk.c - the sharding walker (spec/import-passes.md section
 * 0.3): every sharding of the module in Shardy's order, each replaceable,
 * read and written through the accessor (ir/access.h).
 */
#include "passes/sharding_walk.h"

#include <string.h>

#include "util/hash.h"

bool
sli_sharding_equal(const sl_sharding *a, const sl_sharding *b)
{
	sl_attr x, y;
	memset(&x, 0, sizeof x);
	memset(&y, 0, sizeof y);
	x.kind = y.kind = SL_ATTR_SHARDING;
	x.u.sharding = *a;
	y.u.sharding = *b;
	return sli_attr_equal(&x, &y);
}

/* ---- the sharding walker ---- */

/* A per-value list already seen by a memoizing walk, and what it became. */
typedef struct spv_seen {
	sl_sharding *const *v;	/* the list's entries (never mutated) */
	uint32_t n;
	sl_attr *to;		/* the replacement, or NULL: kept */
} spv_seen;

typedef struct walker {
	sl_module *m;
	sli_sharding_fn *fn;
	void *ud;
	bool memo;
	sli_htab seen;		/* of spv_seen, by list */
	sli_arena entries;
} walker;

static uint64_t
spv_hash(sl_sharding *const *v, uint32_t n)
{
	uint64_t h = 1469598103934665603ULL ^ n;
	for (uint32_t i = 0; i < n; i++)
		h = (h ^ (uint64_t)(uintptr_t)v[i]) * 1099511628211ULL;
	return h ^ (h >> 29);
}

static bool
spv_eq(const void *item, const void *key)
{
	const spv_seen *a = item, *b = key;
	return a->n == b->n && !memcmp(a->v, b->v, sizeof *b->v * b->n);
}

/* Applies fn to every entry of a per-value attribute; a new attribute when
 * any entry changed, else NULL. */
static sl_attr *
walk_spv(walker *w, sl_op *op, sl_attr *a)
{
	if (!a || a->kind != SL_ATTR_SHARDING_PER_VALUE)
		return NULL;
	spv_seen key = {a->u.spv.v, a->u.spv.n, NULL};
	uint64_t h = 0;
	sli_hslot *seen = NULL;
	if (w->memo && a->u.spv.n) {
		h = spv_hash(key.v, key.n);
		seen = sli_htab_slot(&w->seen, h, spv_eq, &key, 256);
		if (seen->item)
			return ((spv_seen *)seen->item)->to;
	}
	sl_sharding **nv = NULL;
	for (uint32_t i = 0; i < a->u.spv.n; i++) {
		sl_sharding *r = w->fn(w->m, op, a->u.spv.v[i], w->ud);
		if (!r)
			continue;
		if (!nv) {
			nv = SL_NEWN(&w->m->arena, sl_sharding *, a->u.spv.n);
			memcpy(nv, a->u.spv.v, sizeof *nv * a->u.spv.n);
		}
		nv[i] = r;
	}
	sl_attr *to = nv ? sli_attr_spv(w->m, nv, a->u.spv.n) : NULL;
	if (seen) {
		/* fn and the attribute built use the module only, never w->seen,
		 * so the empty slot is still the one to fill */
		spv_seen *e = SL_NEW(&w->entries, spv_seen);
		*e = key;
		e->to = to;
		sli_htab_fill(&w->seen, seen, h, e);
	}
	return to;
}

static int
walk_op(sl_op *op, void *ud)
{
	walker *w = ud;
	sl_module *m = w->m;
	sl_attr *na;
	if (op->kind == SL_OP_FUNC) {
		sl_block *b = sli_func_body(op);
		for (uint32_t i = 0; b && i < b->nargs; i++) {
			sl_sharding *s = sli_func_arg_sharding(op, i);
			sl_sharding *r = s ? w->fn(m, op, s, w->ud) : NULL;
			if (r)
				sli_func_set_arg_sharding(m, op, i, r);
		}
		uint32_t n = sli_func_nresults(op);
		for (uint32_t i = 0; i < n; i++) {
			sl_sharding *s = sli_func_res_sharding(op, i);
			sl_sharding *r = s ? w->fn(m, op, s, w->ud) : NULL;
			if (r)
				sli_func_set_res_sharding(m, op, i, r);
		}
		return 0;
	}
	if (sli_single_sharding_prop(op)) {
		sl_sharding *s = sli_result_sharding(op, 0);
		sl_sharding *r = s ? w->fn(m, op, s, w->ud) : NULL;
		if (r)
			sli_result_set_sharding(m, op, 0, r);
		return 0;
	}
	/* A computation's in_shardings come before its out_shardings. */
	if ((na = walk_spv(w, op, sli_comp_in_spv(op))))
		sli_comp_set_in_spv(m, op, na);
	if ((na = walk_spv(w, op, sli_result_spv(op))))
		sli_result_set_spv(m, op, na);
	return 0;
}

void
sli_transform_shardings(sl_module *m, sli_sharding_fn *fn, void *ud)
{
	walker w = {m, fn, ud, false, {0}, {0}};
	sli_walk(m->top, walk_op, &w);
}

void
sli_transform_shardings_memo(sl_module *m, sli_sharding_fn *fn, void *ud)
{
	walker w = {m, fn, ud, true, {0}, {0}};
	sli_arena_init(&w.entries);
	sli_walk(m->top, walk_op, &w);
	sli_htab_fini(&w.seen);
	sli_arena_fini(&w.entries);
}
