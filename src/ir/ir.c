/* ir.c - op, block and region construction, attribute access, walks. */
#include "ir/ir.h"

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

const sl_op_info sli_op_info[SL_OP__COUNT] = {
	[SL_OP_UNKNOWN] = {"", SL_FMT_GENERIC, 0},
#define OP(id, name, fmt, traits) [SL_OP_##id] = {name, SL_FMT_##fmt, traits},
#include "ir/ops.def"
#undef OP
};

bool
sli_op_format_pure(const sl_op *op)
{
	switch (sli_op_info[op->kind].format) {
	case SL_FMT_SAME:
	case SL_FMT_FUNCTIONAL:
	case SL_FMT_CONSTANT:
	case SL_FMT_IOTA:
	case SL_FMT_TUPLE:
	case SL_FMT_COMPLEX:
	case SL_FMT_SELECT:
	case SL_FMT_CONVOLUTION:
		return true;
	default:
		return false;
	}
}

/*
 * Op kinds by name: the hash set over a static slot array, filled on
 * first use.  It never grows (the assertion), so it is never freed.
 */
static sli_hslot kind_slots[512];
static sli_htab kinds = {kind_slots, 0, 512};
_Static_assert(SL_OP__COUNT * 2 < 512, "kind_slots must grow with the op table");

typedef struct kind_key {
	const char *name;
	size_t n;
} kind_key;

static bool
kind_eq(const void *item, const void *key)
{
	const kind_key *k = key;
	const char *s = sli_op_info[(uintptr_t)item].name;
	return strlen(s) == k->n && memcmp(s, k->name, k->n) == 0;
}

sl_op_kind
sli_op_kind_lookup(const char *name, size_t n)
{
	static int built;
	if (!built) {
		for (int k = 1; k < SL_OP__COUNT; k++) {
			kind_key key = {sli_op_info[k].name, strlen(sli_op_info[k].name)};
			uint64_t h = sli_hash(key.name, key.n);
			sli_hslot *slot = sli_htab_slot(&kinds, h, kind_eq, &key, 512);
			if (!slot->item)
				sli_htab_fill(&kinds, slot, h, (void *)(uintptr_t)k);
		}
		built = 1;
	}
	kind_key key = {name, n};
	return (sl_op_kind)(uintptr_t)sli_htab_get(&kinds, sli_hash(name, n), kind_eq, &key);
}

sl_op_kind
sli_op_kind_of(sl_context *ctx, sl_sym name)
{
	if (name < ctx->opkinds.n && ctx->opkinds.v[name])
		return (sl_op_kind)(ctx->opkinds.v[name] - 1);
	sl_op_kind k = sli_op_kind_lookup(sl_sym_str(ctx, name), sli_sym_len(ctx, name));
	if (name >= ctx->opkinds.n) {
		SL_VEC_RESERVE(ctx->opkinds, (size_t)name + 1);
		memset(ctx->opkinds.v + ctx->opkinds.n, 0,
		       sizeof *ctx->opkinds.v * ((size_t)name + 1 - ctx->opkinds.n));
		ctx->opkinds.n = (size_t)name + 1;
	}
	ctx->opkinds.v[name] = (uint16_t)(k + 1);
	return k;
}

sl_op *
sli_op_new(sl_module *m, sl_sym name, uint32_t noperands, uint32_t nresults,
           uint32_t nregions)
{
	sl_op *op = sli_arena_zalloc(&m->oparena, sizeof *op + sizeof *op->regions * nregions);
	op->name = name;
	op->kind = sli_op_kind_of(m->ctx, name);
	op->noperands = noperands;
	op->nresults = nresults;
	op->nregions = nregions;
	op->operands = noperands ? SL_NEWN(&m->oparena, sl_value *, noperands) : NULL;
	op->results = nresults ? SL_NEWN(&m->valarena, sl_value, nresults) : NULL;
	for (uint32_t i = 0; i < nresults; i++) {
		op->results[i].def = op;
		op->results[i].index = i;
	}
	for (uint32_t i = 0; i < nregions; i++)
		op->regions[i].parent = op;
	return op;
}

sl_block *
sli_block_new(sl_module *m, uint32_t nargs)
{
	sl_block *b = SL_NEW(&m->arena, sl_block);
	b->nargs = nargs;
	b->args = nargs ? SL_NEWN(&m->valarena, sl_value, nargs) : NULL;
	for (uint32_t i = 0; i < nargs; i++) {
		b->args[i].block = b;
		b->args[i].index = i;
	}
	return b;
}

void
sli_arg_set_attrs(sl_module *m, sl_value *v, sl_named_attr *attrs, uint32_t n)
{
	sl_block *b = v->block;
	if (!b->argattrs) {
		if (!n)
			return;
		b->argattrs = SL_NEWN(&m->arena, sl_arg_attrs, b->nargs);
	}
	b->argattrs[v->index].v = attrs;
	b->argattrs[v->index].n = n;
}

void
sli_arg_set_loc(sl_module *m, sl_value *v, sl_loc loc)
{
	sl_block *b = v->block;
	if (!b->arglocs) {
		if (!loc.line)
			return;
		b->arglocs = SL_NEWN(&m->arena, sl_loc, b->nargs);
	}
	b->arglocs[v->index] = loc;
}

void
sli_block_append(sl_region *r, sl_block *b)
{
	b->parent = r;
	b->next = NULL;
	b->prev = r->last;
	if (r->last)
		r->last->next = b;
	else
		r->first = b;
	r->last = b;
}

void
sli_op_append(sl_block *b, sl_op *op)
{
	op->parent = b;
	op->next = NULL;
	op->prev = b->last;
	if (b->last)
		b->last->next = op;
	else
		b->first = op;
	b->last = op;
}

void
sli_op_insert_before(sl_op *before, sl_op *op)
{
	sl_block *b = before->parent;
	op->parent = b;
	op->next = before;
	op->prev = before->prev;
	if (before->prev)
		before->prev->next = op;
	else
		b->first = op;
	before->prev = op;
}

void
sli_op_erase(sl_op *op)
{
	sl_block *b = op->parent;
	if (!b)
		return;
	if (op->prev)
		op->prev->next = op->next;
	else
		b->first = op->next;
	if (op->next)
		op->next->prev = op->prev;
	else
		b->last = op->prev;
	op->prev = op->next = NULL;
	op->parent = NULL;
}

sl_attr *
sli_dict_get(const sl_named_attr *v, uint32_t n, sl_sym name)
{
	for (uint32_t i = 0; i < n; i++)
		if (v[i].name == name)
			return v[i].attr;
	return NULL;
}

sl_attr *
sli_op_attr(const sl_op *op, sl_sym name)
{
	return sli_dict_get(op->attrs, op->nattrs, name);
}

sl_attr *
sli_op_prop(const sl_op *op, sl_sym name)
{
	return sli_dict_get(op->props, op->nprops, name);
}

sl_attr *
sli_op_get(const sl_op *op, sl_sym name)
{
	sl_attr *a = sli_op_prop(op, name);
	return a ? a : sli_op_attr(op, name);
}

static const sl_context *sort_ctx;

static int
cmp_named(const void *a, const void *b)
{
	const sl_named_attr *x = a, *y = b;
	return strcmp(sl_sym_str(sort_ctx, x->name), sl_sym_str(sort_ctx, y->name));
}

void
sli_sort_named(const sl_context *ctx, sl_named_attr *v, uint32_t n)
{
	if (n < 2)
		return;
	/* Insertion sort: stable, and the lists are short and mostly sorted. */
	for (uint32_t i = 1; i < n; i++) {
		sl_named_attr x = v[i];
		const char *xs = sl_sym_str(ctx, x.name);
		uint32_t j = i;
		while (j > 0 && strcmp(sl_sym_str(ctx, v[j - 1].name), xs) > 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
	(void)cmp_named;
}

static void
set_named(sl_module *m, sl_named_attr **pv, uint32_t *pn, sl_sym name, sl_attr *attr)
{
	sl_named_attr *v = *pv;
	uint32_t n = *pn;
	for (uint32_t i = 0; i < n; i++) {
		if (v[i].name != name)
			continue;
		if (attr && n == 1 && sli_named1_shared(m, v)) {
			*pv = sli_named1_share(m, name, attr);	/* copy on write */
		} else if (attr) {
			v[i].attr = attr;
		} else {
			memmove(v + i, v + i + 1, sizeof *v * (n - i - 1));
			*pn = n - 1;
		}
		return;
	}
	if (!attr)
		return;
	if (!n) {
		/* the first: a shared list, as most ops get the same few */
		*pv = sli_named1_share(m, name, attr);
		*pn = 1;
		return;
	}
	sl_named_attr *nv = SL_NEWN(&m->arena, sl_named_attr, n + 1);
	if (n)
		memcpy(nv, v, sizeof *v * n);
	nv[n].name = name;
	nv[n].attr = attr;
	sli_sort_named(m->ctx, nv, n + 1);
	*pv = nv;
	*pn = n + 1;
}

void
sli_op_set_attr(sl_module *m, sl_op *op, sl_sym name, sl_attr *attr)
{
	set_named(m, &op->attrs, &op->nattrs, name, attr);
}

void
sli_op_set_prop(sl_module *m, sl_op *op, sl_sym name, sl_attr *attr)
{
	set_named(m, &op->props, &op->nprops, name, attr);
}

sl_sym
sli_attr_sym(sl_context *ctx, sl_attr *a)
{
	if (a->kind == SL_ATTR_SYMREF) {
		if (!a->u.text.sym1)
			a->u.text.sym1 = sl_sym_intern(ctx, a->u.text.p, a->u.text.n) + 1;
		return a->u.text.sym1 - 1;
	}
	assert(a->kind == SL_ATTR_STRING);
	if (!a->u.s.sym1)
		a->u.s.sym1 = sl_sym_intern(ctx, a->u.s.p, a->u.s.n) + 1;
	return a->u.s.sym1 - 1;
}

sl_sym
sli_op_sym_name(const sl_module *m, const sl_op *op)
{
	sl_attr *a = sli_op_get(op, SLS_sym_name);
	if (!a || a->kind != SL_ATTR_STRING)
		return 0;
	return sli_attr_sym(m->ctx, a);
}

sl_op *
sli_lookup_mesh(const sl_module *m, const sl_op *from, sl_sym name)
{
	/* The nearest enclosing builtin.module holds the symbol table. */
	const sl_op *mod = from;
	while (mod && mod->kind != SL_OP_MODULE)
		mod = sli_op_parent(mod);
	if (!mod)
		mod = m->top;
	if (!mod->nregions || !mod->regions[0].first)
		return NULL;
	for (sl_op *op = mod->regions[0].first->first; op; op = op->next)
		if (op->kind == SL_OP_SDY_MESH && sli_op_sym_name(m, op) == name)
			return op;
	return NULL;
}

/*
 * Function lookup by name.  Passes add, erase and rename functions freely,
 * so the table is a cache: a hit is used only while the op is still a
 * top-level func.func of that name, and any miss or stale entry rebuilds
 * it (one scan of the module).
 */
typedef struct func_key {
	const sl_module *m;
	sl_sym name;
} func_key;

static bool
func_eq(const void *item, const void *key)
{
	const func_key *k = key;
	return sli_op_sym_name(k->m, item) == k->name;
}

static uint64_t
func_hash(sl_sym name)
{
	return (uint64_t)name * 0x9E3779B97F4A7C15ULL;
}

static void
functab_rebuild(const sl_module *m, sli_htab *t, sl_block *body)
{
	sli_htab_clear(t);
	for (sl_op *op = body->first; op; op = op->next) {
		if (op->kind != SL_OP_FUNC)
			continue;
		func_key k = {m, sli_op_sym_name(m, op)};
		uint64_t h = func_hash(k.name);
		sli_hslot *slot = sli_htab_slot(t, h, func_eq, &k, 16);
		if (!slot->item)	/* the first of duplicate names wins */
			sli_htab_fill(t, slot, h, op);
	}
}

sl_op *
sli_lookup_func(const sl_module *m, sl_sym name)
{
	const sl_op *mod = m->top;
	if (!mod->nregions || !mod->regions[0].first)
		return NULL;
	sl_block *body = mod->regions[0].first;
	sli_htab *t = &((sl_module *)m)->functab;
	func_key k = {m, name};
	sl_op *op = sli_htab_get(t, func_hash(name), func_eq, &k);
	if (op && op->parent == body && op->kind == SL_OP_FUNC)
		return op;
	functab_rebuild(m, t, body);
	return sli_htab_get(t, func_hash(name), func_eq, &k);
}

static int
count_uses(sl_op *op, void *ud)
{
	for (uint32_t i = 0; i < op->noperands; i++)
		if (op->operands[i])
			op->operands[i]->id++;
	return 0;
}

static int
zero_ids(sl_op *op, void *ud)
{
	for (uint32_t i = 0; i < op->nresults; i++)
		op->results[i].id = 0;
	for (uint32_t r = 0; r < op->nregions; r++)
		for (sl_block *b = op->regions[r].first; b; b = b->next)
			for (uint32_t i = 0; i < b->nargs; i++)
				b->args[i].id = 0;
	return 0;
}

void
sli_compute_use_counts(sl_op *root)
{
	sli_walk(root, zero_ids, NULL);
	sli_walk(root, count_uses, NULL);
}

int
sli_walk(sl_op *root, sli_walk_fn *fn, void *ud)
{
	/* Iterative pre-order walk: deep nesting cannot overflow the stack. */
	sl_op *op = root;
	int r = fn(op, ud);
	if (r)
		return r;
	for (;;) {
		/* descend into the first non-empty region */
		sl_op *child = NULL;
		for (uint32_t i = 0; i < op->nregions && !child; i++)
			for (sl_block *b = op->regions[i].first; b && !child; b = b->next)
				child = b->first;
		if (child) {
			op = child;
		} else {
			/* advance to the next op, climbing as needed */
			for (;;) {
				if (op == root)
					return 0;
				if (op->next) {
					op = op->next;
					break;
				}
				sl_block *b = op->parent;
				sl_block *nb = b->next;
				while (nb && !nb->first)
					nb = nb->next;
				if (nb) {
					op = nb->first;
					break;
				}
				/* next region of the parent op */
				sl_region *reg = b->parent;
				sl_op *parent = reg->parent;
				sl_op *found = NULL;
				for (uint32_t i = (uint32_t)(reg - parent->regions) + 1;
				     i < parent->nregions && !found; i++)
					for (sl_block *bb = parent->regions[i].first; bb && !found; bb = bb->next)
						found = bb->first;
				if (found) {
					op = found;
					break;
				}
				op = parent;
			}
		}
		r = fn(op, ud);
		if (r)
			return r;
	}
}

int
sli_walk_funcs(sl_op *op, sli_walk_fn *fn, void *ud)
{
	for (uint32_t i = 0; i < op->nregions; i++)
		for (sl_block *b = op->regions[i].first; b; b = b->next)
			for (sl_op *o = b->first; o; o = o->next) {
				int r = 0;
				if (o->kind == SL_OP_FUNC)
					r = sli_walk(o, fn, ud);
				else if (o->kind == SL_OP_MODULE)
					r = sli_walk_funcs(o, fn, ud);
				if (r)
					return r;
			}
	return 0;
}

void
sli_attr_visit(const sl_attr *a, sli_attr_visit_fn *fn, void *ud)
{
	if (!a)
		return;
	fn(a, ud);
	if (a->kind == SL_ATTR_ARRAY)
		for (uint32_t i = 0; i < a->u.arr.n; i++)
			sli_attr_visit(a->u.arr.v[i], fn, ud);
	else if (a->kind == SL_ATTR_DICT)
		for (uint32_t i = 0; i < a->u.dict.n; i++)
			sli_attr_visit(a->u.dict.v[i].attr, fn, ud);
}

/* Bytes an attribute of each kind needs: the union member only, so that
 * large arrays of integers do not pay for the largest sdy struct.  Kinds
 * not listed take a whole sl_attr. */
#define USIZE(member) (offsetof(sl_attr, u) + sizeof ((sl_attr *)0)->u.member)
static const uint16_t attr_sizes[SL_ATTR_REPLICA_MESH_AXES + 1] = {
	[SL_ATTR_UNIT] = USIZE(direction), [SL_ATTR_BOOL] = USIZE(direction),
	[SL_ATTR_DIRECTION] = USIZE(direction), [SL_ATTR_INT] = USIZE(i),
	[SL_ATTR_FLOAT] = USIZE(f), [SL_ATTR_STRING] = USIZE(s),
	[SL_ATTR_ARRAY] = USIZE(arr), [SL_ATTR_DICT] = USIZE(dict),
	[SL_ATTR_DENSE_ARRAY] = USIZE(darr), [SL_ATTR_DENSE] = USIZE(dense),
	[SL_ATTR_TYPE] = USIZE(type), [SL_ATTR_SYMREF] = USIZE(text),
	[SL_ATTR_OPAQUE] = USIZE(text), [SL_ATTR_LOC] = USIZE(text),
	[SL_ATTR_MESH] = USIZE(mesh), [SL_ATTR_SHARDING] = USIZE(sharding),
	[SL_ATTR_SHARDING_PER_VALUE] = USIZE(spv), [SL_ATTR_AXIS_REF_LIST] = USIZE(axes),
	[SL_ATTR_MANUAL_AXES] = USIZE(axes),
	/* each of these a pointer to its struct */
	[SL_ATTR_DOT_DIMS] = USIZE(dot), [SL_ATTR_CONV_DIMS] = USIZE(dot),
	[SL_ATTR_GATHER_DIMS] = USIZE(dot), [SL_ATTR_SCATTER_DIMS] = USIZE(dot),
	[SL_ATTR_REPLICA_MESH_AXES] = USIZE(dot),
	[SL_ATTR_STABLEHLO_ENUM] = USIZE(shlo_enum),
};
#undef USIZE

size_t
sli_attr_size(sl_attr_kind kind)
{
	size_t n = (size_t)kind < sizeof attr_sizes / sizeof *attr_sizes ? attr_sizes[kind] : 0;
	return n ? n : sizeof(sl_attr);
}

sl_attr *
sli_attr_new(sl_module *m, sl_attr_kind kind)
{
	sl_attr *a = sli_arena_zalloc(&m->arena, sli_attr_size(kind));
	a->kind = kind;
	return a;
}

sl_attr *
sli_attr_string(sl_module *m, const char *s, size_t n)
{
	sl_attr *a = sli_attr_new(m, SL_ATTR_STRING);
	a->u.s.p = sli_arena_strndup(&m->arena, s, n);
	a->u.s.n = n;
	return a;
}

sl_attr *
sli_attr_int(sl_module *m, int64_t v, sl_type *type)
{
	sl_attr *a = sli_attr_new(m, SL_ATTR_INT);
	a->u.i.v = v;
	a->u.i.type = type;
	return a;
}

sl_attr *
sli_attr_symref(sl_module *m, const char *s, size_t n)
{
	sl_attr *a = sli_attr_new(m, SL_ATTR_SYMREF);
	a->u.text.p = sli_arena_strndup(&m->arena, s, n);
	a->u.text.n = n;
	return a;
}

void
sl_module_free(sl_module *m)
{
	if (!m)
		return;
	SL_VEC_FREE(m->loc_aliases);
	sli_htab_fini(&m->functab);
	sli_htab_fini(&m->shared);
	sli_htab_fini(&m->shared_attrs);
	sli_htab_fini(&m->shared_named);
	sli_htab_fini(&m->locattrs);
	sli_arena_fini(&m->arena);
	sli_arena_fini(&m->oparena);
	sli_arena_fini(&m->valarena);
	free(m);
}
