/* rewrite.c - value maps, cloning, use replacement and use lists. */
#include "ir/rewrite.h"

#include <stdlib.h>
#include <string.h>

/* ==================================================================== */
/* Value maps: open addressing keyed by pointer                          */
/* ==================================================================== */

struct sli_vmap_ent {
	const sl_value *from;
	sl_value *to;
};

static size_t
ptr_hash(const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return (size_t)x;
}

void
sli_vmap_init(sli_vmap *m)
{
	m->v = NULL;
	m->cap = m->n = 0;
}

void
sli_vmap_fini(sli_vmap *m)
{
	free(m->v);
	sli_vmap_init(m);
}

static void
vmap_grow(sli_vmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	struct sli_vmap_ent *v = sli_xcalloc(cap, sizeof *v);
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->v[i].from)
			continue;
		size_t h = ptr_hash(m->v[i].from) & (cap - 1);
		while (v[h].from)
			h = (h + 1) & (cap - 1);
		v[h] = m->v[i];
	}
	free(m->v);
	m->v = v;
	m->cap = cap;
}

void
sli_vmap_set(sli_vmap *m, const sl_value *from, sl_value *to)
{
	if ((m->n + 1) * 2 > m->cap)
		vmap_grow(m);
	size_t h = ptr_hash(from) & (m->cap - 1);
	while (m->v[h].from && m->v[h].from != from)
		h = (h + 1) & (m->cap - 1);
	if (!m->v[h].from)
		m->n++;
	m->v[h].from = from;
	m->v[h].to = to;
}

sl_value *
sli_vmap_get(const sli_vmap *m, const sl_value *from)
{
	if (!m->cap)
		return NULL;
	for (size_t h = ptr_hash(from) & (m->cap - 1); m->v[h].from; h = (h + 1) & (m->cap - 1))
		if (m->v[h].from == from)
			return m->v[h].to;
	return NULL;
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
			a->attrs = b->args[i].attrs;
			a->nattrs = b->args[i].nattrs;
			a->loc = b->args[i].loc;
			a->locattr = b->args[i].locattr;
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
	c->loc = op->loc;
	c->locattr = op->locattr;
	for (uint32_t i = 0; i < op->noperands; i++)
		c->operands[i] = sli_vmap_lookup(map, op->operands[i]);
	for (uint32_t i = 0; i < op->nresults; i++) {
		c->results[i].type = op->results[i].type;
		c->results[i].loc = op->results[i].loc;
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
/* Use lists                                                               */
/* ==================================================================== */

struct sli_uses_ent {
	const sl_value *v;
	size_t first, n;	/* slice of the pool */
};

typedef struct uses_build {
	sli_uses *u;
	int pass;		/* 0: count, 1: fill */
} uses_build;

static struct sli_uses_ent *
uses_slot(sli_uses *u, const sl_value *v, bool insert)
{
	if (!u->cap)
		return NULL;
	size_t h = ptr_hash(v) & (u->cap - 1);
	while (u->v[h].v && u->v[h].v != v)
		h = (h + 1) & (u->cap - 1);
	if (!u->v[h].v) {
		if (!insert)
			return NULL;
		u->v[h].v = v;
		u->n++;
	}
	return &u->v[h];
}

static int
uses_visit(sl_op *op, void *ud)
{
	uses_build *b = ud;
	sli_uses *u = b->u;
	for (uint32_t i = 0; i < op->noperands; i++) {
		if (!op->operands[i])
			continue;
		if (b->pass == 0) {
			if ((u->n + 1) * 2 > u->cap) {
				size_t cap = u->cap ? u->cap * 2 : 256;
				struct sli_uses_ent *v = sli_xcalloc(cap, sizeof *v);
				for (size_t j = 0; j < u->cap; j++) {
					if (!u->v[j].v)
						continue;
					size_t h = ptr_hash(u->v[j].v) & (cap - 1);
					while (v[h].v)
						h = (h + 1) & (cap - 1);
					v[h] = u->v[j];
				}
				free(u->v);
				u->v = v;
				u->cap = cap;
			}
			uses_slot(u, op->operands[i], true)->n++;
			u->npool++;
		} else {
			struct sli_uses_ent *e = uses_slot(u, op->operands[i], false);
			sli_use use = {op, i};
			u->pool[e->first + e->n++] = use;
		}
	}
	return 0;
}

void
sli_uses_compute(sli_uses *u, sl_op *root)
{
	memset(u, 0, sizeof *u);
	uses_build b = {u, 0};
	sli_walk(root, uses_visit, &b);
	u->pool = sli_xmalloc(sizeof *u->pool * (u->npool ? u->npool : 1));
	size_t off = 0;
	for (size_t i = 0; i < u->cap; i++) {
		if (!u->v[i].v)
			continue;
		u->v[i].first = off;
		off += u->v[i].n;
		u->v[i].n = 0;
	}
	b.pass = 1;
	sli_walk(root, uses_visit, &b);
}

void
sli_uses_fini(sli_uses *u)
{
	free(u->v);
	free(u->pool);
	memset(u, 0, sizeof *u);
}

const sli_use *
sli_uses_of(const sli_uses *u, const sl_value *v, size_t *n)
{
	struct sli_uses_ent *e = uses_slot((sli_uses *)u, v, false);
	*n = e ? e->n : 0;
	return e ? u->pool + e->first : NULL;
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
