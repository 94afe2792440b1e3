/*
 * explicit_reshard_memo.c - plans shared by equal ops
 * (explicit_reshard_memo.h).  The key of an op: its kind and name, its
 * operand and result types (uniqued, so compared by address), its
 * properties and attributes other than its shardings, and the shardings
 * the caller plans it for, compared by content (equal shardings are
 * often separate copies).  The first op with a key stands for it in the
 * table.
 */
#include "passes/explicit_reshard_memo.h"

#include <string.h>

#include "ir/access.h"
#include "ir/axis.h"
#include "rules/rules.h"
#include "util/hash.h"

/* One remembered plan. */
typedef struct entry {
	const sl_op *rep;		/* the first op with the key */
	const sl_sharding **sh;		/* its shardings: operands, then results */
	bool full;
	int rc;				/* what sli_xr_plan_for_op returned */
	sli_xr_plan plan;		/* when rc is 1 */
} entry;

/* What an op is looked up by. */
typedef struct key {
	const sl_op *op;
	const sl_sharding *const *in, *const *out;
	bool full;
} key;

static uint64_t
hash_axes(uint64_t h, const sl_axis_list *l)
{
	h = sli_hash_mix(h, l->n);
	for (uint32_t i = 0; i < l->n; i++) {
		const sl_axis_ref *r = &l->v[i];
		h = sli_hash_mix(h, r->name);
		if (r->sub)
			h = sli_hash_mix(h, (uint64_t)r->pre * 31 + (uint64_t)r->size);
	}
	return h;
}

/* Agrees with same_sharding: equal shardings hash alike. */
static uint64_t
hash_sharding(uint64_t h, const sl_sharding *s)
{
	if (!s)
		return sli_hash_mix(h, 0);
	h = sli_hash_mix(sli_hash_mix(h, (uint64_t)s->mesh_name + 1), s->rank);
	for (uint32_t d = 0; d < s->rank; d++)
		h = hash_axes(h, &s->dims[d].axes);
	return hash_axes(h, &s->unreduced);
}

/* hash_sharding of s alone, from the memo's cache when s was seen. */
static uint64_t
sharding_hash(sli_xr_memo *memo, const sl_sharding *s)
{
	if (!s)
		return 0;
	size_t i = ((uintptr_t)s >> 4) & (SLI_XR_MEMO_HASHES - 1);
	if (memo->hashes[i].s != s) {
		memo->hashes[i].s = s;
		memo->hashes[i].h = hash_sharding(SLI_HASH_SEED, s);
	}
	return memo->hashes[i].h;
}

static uint64_t
hash_key(sli_xr_memo *memo, const key *k)
{
	const sl_op *op = k->op;
	uint64_t h = sli_hash_mix(sli_hash_mix(SLI_HASH_SEED, op->name), k->full);
	for (uint32_t i = 0; i < op->noperands; i++)
		h = sli_hash_mix(sli_hash_mix(h, (uint64_t)(uintptr_t)op->operands[i]->type),
		        sharding_hash(memo, k->in[i]));
	for (uint32_t j = 0; j < op->nresults; j++)
		h = sli_hash_mix(sli_hash_mix(h, (uint64_t)(uintptr_t)op->results[j].type),
		        sharding_hash(memo, k->out[j]));
	return sli_hash_mix(h, (uint64_t)op->nprops << 32 | op->nattrs);
}

static bool
same_list(const sl_axis_list *a, const sl_axis_list *b)
{
	return sli_axis_list_equal(a->v, a->n, b->v, b->n);
}

/* Equal in every field the planner may read (the location aside). */
static bool
same_sharding(const sl_sharding *a, const sl_sharding *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->mesh_name != b->mesh_name || a->rank != b->rank ||
	    a->reduction != b->reduction || !same_list(&a->unreduced, &b->unreduced) ||
	    !same_list(&a->replicated, &b->replicated))
		return false;
	if (a->mesh != b->mesh && (!a->mesh || !b->mesh || !sli_mesh_equal(a->mesh, b->mesh)))
		return false;
	for (uint32_t d = 0; d < a->rank; d++) {
		const sl_dim_sharding *x = &a->dims[d], *y = &b->dims[d];
		if (x->open != y->open || x->priority != y->priority || !same_list(&x->axes, &y->axes))
			return false;
	}
	return true;
}

/* Lists of named attributes (sorted by name) agree, those named `skip`
 * left out. */
static bool
same_attrs(const sl_named_attr *a, uint32_t na, const sl_named_attr *b, uint32_t nb,
           sl_sym skip)
{
	uint32_t i = 0, j = 0;
	while (i < na || j < nb) {
		if (i < na && a[i].name == skip) {
			i++;
		} else if (j < nb && b[j].name == skip) {
			j++;
		} else {
			if (i == na || j == nb || a[i].name != b[j].name ||
			    !sli_attr_equal(a[i].attr, b[j].attr))
				return false;
			i++;
			j++;
		}
	}
	return true;
}

/* The values of a and b, operands then results, have the same types. */
static bool
same_types(const sl_op *a, const sl_op *b)
{
	uint32_t nin = a->noperands;
	for (uint32_t i = 0; i < nin + a->nresults; i++) {
		const sl_value *x = i < nin ? a->operands[i] : &a->results[i - nin];
		const sl_value *y = i < nin ? b->operands[i] : &b->results[i - nin];
		if (x->type != y->type)
			return false;
	}
	return true;
}

/* a and b get the same rule, sizes and kind flags from the planner. */
static bool
same_op(const sl_op *a, const sl_op *b)
{
	return a->kind == b->kind && a->name == b->name && a->noperands == b->noperands &&
	       a->nresults == b->nresults && same_types(a, b) &&
	       same_attrs(a->props, a->nprops, b->props, b->nprops, 0) &&
	       same_attrs(a->attrs, a->nattrs, b->attrs, b->nattrs, sli_sharding_list_name());
}

static bool
entry_eq(const void *item, const void *kv)
{
	const entry *e = item;
	const key *k = kv;
	uint32_t nin = e->rep->noperands;
	if (e->full != k->full || !same_op(e->rep, k->op))
		return false;
	for (uint32_t i = 0; i < nin; i++)
		if (!same_sharding(e->sh[i], k->in[i]))
			return false;
	for (uint32_t j = 0; j < e->rep->nresults; j++)
		if (!same_sharding(e->sh[nin + j], k->out[j]))
			return false;
	return true;
}

static bool
has_reshard(const sli_xr_plan *plan)
{
	for (uint32_t i = 0; i < plan->nin; i++)
		if (plan->in_to[i])
			return true;
	for (uint32_t j = 0; j < plan->nout; j++)
		if (plan->out_as[j])
			return true;
	return false;
}

static entry *
new_entry(sli_xr_memo *memo, const key *k, int rc, const sli_xr_plan *plan)
{
	const sl_op *op = k->op;
	entry *e = SL_NEW(&memo->arena, entry);
	e->rep = op;
	e->sh = SL_NEWN(&memo->arena, const sl_sharding *, op->noperands + op->nresults + 1);
	for (uint32_t i = 0; i < op->noperands; i++)
		e->sh[i] = k->in[i];
	for (uint32_t j = 0; j < op->nresults; j++)
		e->sh[op->noperands + j] = k->out[j];
	e->full = k->full;
	e->rc = rc;
	if (rc > 0)
		e->plan = *plan;
	return e;
}

void
sli_xr_memo_init(sli_xr_memo *memo)
{
	memset(memo, 0, sizeof *memo);
	sli_arena_init(&memo->arena);
}

void
sli_xr_memo_fini(sli_xr_memo *memo)
{
	sli_htab_fini(&memo->plans);
	sli_arena_fini(&memo->arena);
}

int
sli_xr_memo_plan(sli_xr_memo *memo, sl_module *m, const sl_op *op,
                 const sl_sharding *const *in, const sl_sharding *const *out, bool full,
                 struct sli_rule_opts *ropts, sli_arena *scratch, sli_arena *out_arena,
                 sli_xr_plan *plan)
{
	if (!sli_rule_local(op) || sli_op_rule_attr(op))
		return sli_xr_plan_for_op(m, op, in, out, full, ropts, scratch, out_arena, plan);
	key k = {op, in, out, full};
	uint64_t h = hash_key(memo, &k);
	sli_hslot *slot = sli_htab_slot(&memo->plans, h, entry_eq, &k, 256);
	if (slot->item) {
		const entry *e = slot->item;
		if (e->rc > 0)
			*plan = e->plan;
		return e->rc;
	}
	int rc = sli_xr_plan_for_op(m, op, in, out, full, ropts, scratch, out_arena, plan);
	if (rc >= 0 && !(rc > 0 && has_reshard(plan)))
		sli_htab_fill(&memo->plans, slot, h, new_entry(memo, &k, rc, plan));
	return rc;
}
