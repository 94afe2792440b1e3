/* rewrite.c - value maps, cloning, use replacement. */
#include "ir/rewrite.h"

#include <stdlib.h>
#include <string.h>

/* ==================================================================== */
/* Pointer maps: open addressing keyed by pointer                        */
/* ==================================================================== */

struct sli_pmap_ent {
	const void *from;
	void *to;
};

typedef struct pmap_key {
	const sli_pmap *m;
	const void *from;
} pmap_key;

static bool
pmap_eq(const void *item, const void *key)
{
	const pmap_key *k = key;
	return k->m->v[(uintptr_t)item - 1].from == k->from;
}

void
sli_pmap_init(sli_pmap *m)
{
	memset(m, 0, sizeof *m);
}

void
sli_pmap_fini(sli_pmap *m)
{
	free(m->v);
	sli_htab_fini(&m->index);
	sli_pmap_init(m);
}

void
sli_pmap_set(sli_pmap *m, const void *from, void *to)
{
	pmap_key k = {m, from};
	uint64_t h = sli_ptr_hash(from);
	sli_hslot *slot = sli_htab_slot(&m->index, h, pmap_eq, &k, 64);
	if (slot->item) {
		m->v[(uintptr_t)slot->item - 1].to = to;
		return;
	}
	struct sli_pmap_ent e = {from, to};
	SL_VEC_PUSH(*m, e);
	sli_htab_fill(&m->index, slot, h, (void *)(uintptr_t)m->n);
}

void *
sli_pmap_get(const sli_pmap *m, const void *from)
{
	pmap_key k = {m, from};
	void *item = sli_htab_get(&m->index, sli_ptr_hash(from), pmap_eq, &k);
	return item ? m->v[(uintptr_t)item - 1].to : NULL;
}

/* ==================================================================== */
/* Cloning                                                                */
/* ==================================================================== */

void
sli_region_clone_into(sl_module *m, const sl_region *from, sl_region *to, sli_vmap *map)
{
	/* First create every block and map its arguments, so that ops may
	 * refer to arguments of later blocks. */
	for (const sl_block *b = from->first; b; b = b->next) {
		sl_block *nb = sli_block_new(m, b->nargs);
		for (uint32_t i = 0; i < b->nargs; i++) {
			sl_value *a = &nb->args[i];
			a->type = b->args[i].type;
			uint32_t n;
			sl_named_attr *attrs = sli_arg_attrs(&b->args[i], &n);
			sli_arg_set_attrs(m, a, attrs, n);
			sli_arg_set_loc(m, a, sli_value_loc(&b->args[i]));
			sli_value_set_locattr(m, a, sli_value_locattr(m, &b->args[i]));
			sli_vmap_set(map, &b->args[i], a);
		}
		sli_block_append(to, nb);
	}
	sl_block *nb = to->first;
	for (const sl_block *b = from->first; b; b = b->next, nb = nb->next)
		for (const sl_op *op = b->first; op; op = op->next)
			sli_op_append(nb, sli_op_clone(m, op, map));
}

sl_op *
sli_op_clone(sl_module *m, const sl_op *op, sli_vmap *map)
{
	sl_op *c = sli_op_new(m, op->name, op->noperands, op->nresults, op->nregions);
	c->kind = op->kind;
	sli_op_copy_loc(m, c, op);
	c->result_locs = op->result_locs;
	for (uint32_t i = 0; i < op->noperands; i++)
		c->operands[i] = sli_vmap_lookup(map, op->operands[i]);
	for (uint32_t i = 0; i < op->nresults; i++) {
		c->results[i].type = op->results[i].type;
		sli_vmap_set(map, &op->results[i], &c->results[i]);
	}
	c->nattrs = op->nattrs;
	c->attrs = op->nattrs ? sli_arena_dup(&m->arena, op->attrs, sizeof *op->attrs * op->nattrs) : NULL;
	c->nprops = op->nprops;
	c->props = op->nprops ? sli_arena_dup(&m->arena, op->props, sizeof *op->props * op->nprops) : NULL;
	for (uint32_t i = 0; i < op->nregions; i++)
		sli_region_clone_into(m, &op->regions[i], &c->regions[i], map);
	return c;
}

/* ==================================================================== */
/* Replacing uses                                                          */
/* ==================================================================== */

typedef struct repl {
	const sl_value *from;
	sl_value *to;
	const sli_vmap *map;
	const sl_op *except;
} repl;

static int
replace_one(sl_op *op, void *ud)
{
	const repl *r = ud;
	if (op == r->except)
		return 0;
	for (uint32_t i = 0; i < op->noperands; i++) {
		if (r->map)
			op->operands[i] = sli_vmap_lookup(r->map, op->operands[i]);
		else if (op->operands[i] == r->from)
			op->operands[i] = r->to;
	}
	return 0;
}

void
sli_replace_uses(sl_op *root, const sl_value *from, sl_value *to)
{
	repl r = {from, to, NULL, NULL};
	sli_walk(root, replace_one, &r);
}

void
sli_replace_uses_except(sl_op *root, const sl_value *from, sl_value *to, const sl_op *except)
{
	repl r = {from, to, NULL, except};
	sli_walk(root, replace_one, &r);
}

void
sli_replace_uses_map(sl_op *root, const sli_vmap *map)
{
	repl r = {NULL, NULL, map, NULL};
	sli_walk(root, replace_one, &r);
}

/* ==================================================================== */
/* Construction helpers                                                    */
/* ==================================================================== */

void
sli_op_set_operands(sl_module *m, sl_op *op, sl_value *const *v, uint32_t n)
{
	op->operands = n ? sli_arena_dup(&m->arena, v, sizeof *v * n) : NULL;
	op->noperands = n;
}

sl_op *
sli_op_create(sl_module *m, sl_op_kind kind, sl_value *const *operands, uint32_t noperands,
              sl_type *const *results, uint32_t nresults, uint32_t nregions)
{
	const char *name = sli_op_info[kind].name;
	sl_op *op = sli_op_new(m, sl_sym_intern(m->ctx, name, strlen(name)), noperands,
	                       nresults, nregions);
	op->kind = kind;
	for (uint32_t i = 0; i < noperands; i++)
		op->operands[i] = operands[i];
	for (uint32_t i = 0; i < nresults; i++)
		op->results[i].type = results[i];
	return op;
}
