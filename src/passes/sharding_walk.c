/*
 * sharding_walk.c - the sharding walker (spec/import-passes.md section
 * 0.3): every sharding of the module in Shardy's order, each replaceable,
 * read and written through the accessor (ir/access.h).
 */
#include "passes/sharding_walk.h"

#include <stdlib.h>
#include <string.h>

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
	spv_seen *seen;		/* open addressing; v NULL = empty */
	size_t nseen, cap;	/* cap: a power of two, or 0 */
} walker;

static size_t
spv_hash(sl_sharding *const *v, uint32_t n)
{
	uint64_t h = 1469598103934665603ULL ^ n;
	for (uint32_t i = 0; i < n; i++)
		h = (h ^ (uint64_t)(uintptr_t)v[i]) * 1099511628211ULL;
	return (size_t)(h ^ (h >> 29));
}

/* The slot of list (v, n): its entry, or an empty one. */
static spv_seen *
spv_slot(walker *w, sl_sharding *const *v, uint32_t n)
{
	if (w->nseen * 2 >= w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 256;
		spv_seen *t = sli_xcalloc(cap, sizeof *t);
		for (size_t i = 0; i < w->cap; i++) {
			if (!w->seen[i].v)
				continue;
			size_t j = spv_hash(w->seen[i].v, w->seen[i].n) & (cap - 1);
			while (t[j].v)
				j = (j + 1) & (cap - 1);
			t[j] = w->seen[i];
		}
		free(w->seen);
		w->seen = t;
		w->cap = cap;
	}
	size_t j = spv_hash(v, n) & (w->cap - 1);
	while (w->seen[j].v && (w->seen[j].n != n ||
	                        memcmp(w->seen[j].v, v, sizeof *v * n)))
		j = (j + 1) & (w->cap - 1);
	return &w->seen[j];
}

/* Applies fn to every entry of a per-value attribute; a new attribute when
 * any entry changed, else NULL. */
static sl_attr *
walk_spv(walker *w, sl_op *op, sl_attr *a)
{
	if (!a || a->kind != SL_ATTR_SHARDING_PER_VALUE)
		return NULL;
	spv_seen *seen = NULL;
	if (w->memo && a->u.spv.n) {
		seen = spv_slot(w, a->u.spv.v, a->u.spv.n);
		if (seen->v)
			return seen->to;
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
		seen->v = a->u.spv.v;
		seen->n = a->u.spv.n;
		seen->to = to;
		w->nseen++;
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
	walker w = {m, fn, ud, false, NULL, 0, 0};
	sli_walk(m->top, walk_op, &w);
}

void
sli_transform_shardings_memo(sl_module *m, sli_sharding_fn *fn, void *ud)
{
	walker w = {m, fn, ud, true, NULL, 0, 0};
	sli_walk(m->top, walk_op, &w);
	free(w.seen);
}
