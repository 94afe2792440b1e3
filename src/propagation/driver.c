/*
 * driver.c - the fixpoint driver of spec/propagation.md section 7: where
 * shardings live (1.5), one propagation step through an op, an edge, a
 * barrier or a function result (7.2, 7.4-7.10), the LIFO worklist with
 * Shardy's notification rules (7.3), sharding groups (7.7) and the
 * pass-level flow (7.1).  Invariant: propagation only ever writes a
 * sharding that differs from the current one, so the worklist drains.
 */
#include "propagation/driver.h"
#include "propagation/factor_propagation.h"
#include "formats/mlir_printer.h"
#include "ir/access.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool
is_static_tensor(const sl_type *t)
{
	return t && sli_type_is_static(t);
}

/* ====================================================================
 * Index tables
 * ==================================================================== */

typedef struct collect {
	SL_VEC(sl_op *) ops;
	SL_VEC(sl_value *) values;
} collect;

static int
collect_op(sl_op *op, void *ud)
{
	collect *c = ud;
	op->id = (uint32_t)c->ops.n;
	SL_VEC_PUSH(c->ops, op);
	for (uint32_t i = 0; i < op->nresults; i++)
		SL_VEC_PUSH(c->values, &op->results[i]);
	for (uint32_t r = 0; r < op->nregions; r++)
		for (sl_block *b = op->regions[r].first; b; b = b->next)
			for (uint32_t i = 0; i < b->nargs; i++)
				SL_VEC_PUSH(c->values, &b->args[i]);
	return 0;
}

static void
free_tables(sli_prop *P)
{
	if (P->calls)
		for (uint32_t i = 0; i < P->nops; i++)
			free(P->calls[i]);
	free(P->calls);
	free(P->ops);
	free(P->values);
	free(P->rules);
	free(P->rule_reps);
	sli_arena_fini(&P->tabmem);
	for (size_t i = 0; i < P->groups.n; i++)
		free(P->groups.v[i]);
	SL_VEC_FREE(P->groups);
	SL_VEC_FREE(P->group_sizes);
	P->calls = NULL;
	P->ops = NULL;
	P->values = NULL;
	P->use_first = P->use_n = NULL;
	P->uses = NULL;
	P->edge = NULL;
	P->group = NULL;
	P->rules = NULL;
	P->rule_reps = NULL;
	P->nrule_reps = P->rule_reps_cap = 0;
	P->sig = NULL;
	P->opclass = NULL;
	P->cur = NULL;
	P->getslot = NULL;
	P->own = NULL;
	P->quiet = NULL;
	P->stack = NULL;
	P->queued = NULL;
}

/* The value a data_flow_edge's owner stands for, and the other targets. */
static void
index_edge(sli_prop *P, sl_op *e)
{
	if (!e->noperands || !e->nresults)
		return;
	sl_value *owner = e->operands[0];
	P->edge[owner->id] = e;
	P->edge[e->results[0].id] = e;
	if (owner->def && owner->def->kind == SL_OP_WHILE) {
		sl_op *w = owner->def;
		for (uint32_t r = 0; r < w->nregions && r < 2; r++) {
			sl_block *b = w->regions[r].first;
			if (b && owner->index < b->nargs)
				P->edge[b->args[owner->index].id] = e;
		}
	}
}

static bool has_no_rule(const sl_op *op);

/* Whether visit() hands op to visit_generic. */
static bool
generic_visit(const sl_op *op)
{
	return op->kind != SL_OP_SDY_PROPAGATION_BARRIER &&
	       op->kind != SL_OP_SDY_DATA_FLOW_EDGE &&
	       op->kind != SL_OP_SDY_FUNC_DATA_FLOW_EDGE;
}

static sl_sym
callee_of(sl_module *m, const sl_op *call)
{
	sl_attr *c = sli_op_get(call, SLS_callee);
	if (!c || c->kind != SL_ATTR_SYMREF)
		return 0;
	return sli_attr_sym(m->ctx, c);
}

void
sli_prop_index(sli_prop *P)
{
	const sl_rule **old_rules = P->rules;
	uint32_t old_nops = P->nops;
	P->rules = NULL;
	free_tables(P);
	collect c = {0};
	sli_walk(P->m->top, collect_op, &c);
	P->ops = c.ops.v;
	P->nops = (uint32_t)c.ops.n;
	P->values = c.values.v;
	P->nvalues = (uint32_t)c.values.n;
	for (uint32_t i = 0; i < P->nvalues; i++)
		P->values[i]->id = i;
	uint32_t nv = P->nvalues ? P->nvalues : 1, no = P->nops ? P->nops : 1;

	P->use_first = SL_NEWN(&P->tabmem, uint32_t, nv);
	P->use_n = SL_NEWN(&P->tabmem, uint32_t, nv);
	size_t nuses = 0;
	for (uint32_t i = 0; i < P->nops; i++)
		for (uint32_t k = 0; k < P->ops[i]->noperands; k++)
			if (P->ops[i]->operands[k]) {
				P->use_n[P->ops[i]->operands[k]->id]++;
				nuses++;
			}
	P->uses = sli_arena_alloc(&P->tabmem, sizeof *P->uses * (nuses ? nuses : 1));
	uint32_t off = 0;
	for (uint32_t v = 0; v < P->nvalues; v++) {
		P->use_first[v] = off;
		off += P->use_n[v];
		P->use_n[v] = 0;
	}
	for (uint32_t i = 0; i < P->nops; i++) {
		sl_op *op = P->ops[i];
		for (uint32_t k = 0; k < op->noperands; k++) {
			sl_value *v = op->operands[k];
			if (!v)
				continue;
			sli_use *u = &P->uses[P->use_first[v->id] + P->use_n[v->id]++];
			u->user = op;
			u->index = k;
		}
	}

	P->edge = SL_NEWN(&P->tabmem, sl_op *, nv);
	P->group = sli_arena_alloc(&P->tabmem, sizeof *P->group * nv);
	for (uint32_t v = 0; v < nv; v++)
		P->group[v] = -1;
	P->rules = sli_xcalloc(no, sizeof *P->rules);
	if (old_rules) {
		/* op ids are stable when nothing was inserted */
		if (old_nops == P->nops)
			memcpy(P->rules, old_rules, sizeof *P->rules * P->nops);
		free(old_rules);
	}
	P->calls = sli_xcalloc(no, sizeof *P->calls);
	P->sig = SL_NEWN(&P->tabmem, uint64_t, no);
	P->opclass = SL_NEWN(&P->tabmem, uint8_t, no);
	static const sl_sharding unloaded;
	P->unloaded = &unloaded;
	P->getslot = SL_NEWN(&P->tabmem, int32_t, nv);
	P->own = SL_NEWN(&P->tabmem, sl_attr *, no);
	P->quiet = SL_NEWN(&P->tabmem, uint8_t, no);
	P->cur = sli_arena_alloc(&P->tabmem, sizeof *P->cur * nv);
	for (uint32_t v = 0; v < nv; v++)
		P->cur[v] = P->unloaded;
	P->stack = sli_arena_alloc(&P->tabmem, sizeof *P->stack * no);
	P->queued = SL_NEWN(&P->tabmem, uint8_t, no);
	P->nstack = 0;

	/* sharding groups: members in op order, groups in id order */
	SL_VEC(int64_t) ids = {0};
	SL_VEC(SL_VEC(sl_value *)) members = {0};
	for (uint32_t i = 0; i < P->nops; i++) {
		sl_op *op = P->ops[i];
		if (op->kind == SL_OP_SDY_DATA_FLOW_EDGE) {
			index_edge(P, op);
		} else if (op->kind == SL_OP_CALL) {
			sl_op *f = sli_lookup_func(P->m, callee_of(P->m, op));
			if (f) {
				size_t n = 0;
				while (P->calls[f->id] && P->calls[f->id][n])
					n++;
				P->calls[f->id] = sli_xrealloc(P->calls[f->id], sizeof(sl_op *) * (n + 2));
				P->calls[f->id][n] = op;
				P->calls[f->id][n + 1] = NULL;
			}
		} else if (op->kind == SL_OP_SDY_SHARDING_GROUP && op->noperands) {
			sl_attr *a = sli_op_get(op, SLS_group_id);
			int64_t id = a && a->kind == SL_ATTR_INT ? a->u.i.v : 0;
			size_t g = 0;
			while (g < ids.n && ids.v[g] != id)
				g++;
			if (g == ids.n) {
				SL_VEC_PUSH(ids, id);
				SL_VEC_RESERVE(members, g + 1);
				memset(&members.v[g], 0, sizeof members.v[g]);
				members.n = g + 1;
			}
			sl_value *v = op->operands[0];
			bool dup = false;
			for (size_t j = 0; j < members.v[g].n; j++)
				dup |= members.v[g].v[j] == v;
			if (!dup)
				SL_VEC_PUSH(members.v[g], v);
		}
	}
	/* groups sorted by id */
	size_t ng = ids.n;
	size_t *order = sli_xmalloc(sizeof *order * (ng ? ng : 1));
	for (size_t i = 0; i < ng; i++) {
		size_t j = i;
		while (j > 0 && ids.v[order[j - 1]] > ids.v[i]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	for (size_t i = 0; i < ng; i++) {
		size_t g = order[i];
		SL_VEC_PUSH(P->groups, members.v[g].v);
		SL_VEC_PUSH(P->group_sizes, (uint32_t)members.v[g].n);
		for (size_t j = 0; j < members.v[g].n; j++)
			P->group[members.v[g].v[j]->id] = (int32_t)i;
	}
	free(order);
	SL_VEC_FREE(ids);
	SL_VEC_FREE(members);

	/* meshes and the main function */
	free(P->meshes);
	P->meshes = NULL;
	P->nmeshes = 0;
	P->main_func = NULL;
	sl_op *only = NULL;
	uint32_t nfuncs = 0;
	sl_block *top = P->m->top->nregions ? P->m->top->regions[0].first : NULL;
	for (sl_op *op = top ? top->first : NULL; op; op = op->next) {
		if (op->kind == SL_OP_SDY_MESH) {
			sl_attr *mesh = sli_op_get(op, SLS_mesh);
			if (!mesh || mesh->kind != SL_ATTR_MESH)
				continue;
			P->meshes = sli_xrealloc(P->meshes, sizeof *P->meshes * (P->nmeshes + 1));
			P->meshes[P->nmeshes].name = sli_op_sym_name(P->m, op);
			P->meshes[P->nmeshes].mesh = &mesh->u.mesh;
			P->nmeshes++;
		} else if (op->kind == SL_OP_FUNC) {
			nfuncs++;
			only = op;
			sl_sym name = sli_op_sym_name(P->m, op);
			if (!strcmp(sl_sym_str(P->ctx, name), "main"))
				P->main_func = op;
		}
	}
	if (nfuncs == 1)
		P->main_func = only;
	if (P->main_func && (!P->main_func->nregions || !P->main_func->regions[0].first))
		P->main_func = NULL;

	/* op classes up front: the worklist then skips ops without a look */
	for (uint32_t i = 0; i < P->nops; i++) {
		sl_op *op = P->ops[i];
		uint8_t k = sli_op_priority_class(P, op);
		if (generic_visit(op))
			k |= SLI_OPCLASS_GENERIC | (has_no_rule(op) ? SLI_OPCLASS_NO_STEP : 0);
		P->opclass[i] = k;
	}
}

uint32_t
sli_prop_use_count(const sli_prop *P, const sl_value *v)
{
	return v->id < P->nvalues && P->values[v->id] == v ? P->use_n[v->id] : 0;
}

const sl_mesh *
sli_prop_mesh_of(const sli_prop *P, const sl_sharding *s)
{
	if (s->mesh)
		return s->mesh;
	for (uint32_t i = 0; i < P->nmeshes; i++)
		if (P->meshes[i].name == s->mesh_name)
			return P->meshes[i].mesh;
	return NULL;
}

/* ====================================================================
 * Where shardings live (spec 1.5)
 * ==================================================================== */

static bool
is_func_arg(const sl_value *v)
{
	return !v->def && v->block && v->block->parent && v->block->parent->parent &&
	       v->block->parent->parent->kind == SL_OP_FUNC;
}

static sl_attr *
sharding_attr(sl_module *m, const sl_sharding *s)
{
	sl_attr *a = sli_attr_new(m, SL_ATTR_SHARDING);
	a->u.sharding = *s;
	return a;
}

static const sl_sharding *
attr_sharding(const sl_attr *a)
{
	return a && a->kind == SL_ATTR_SHARDING ? &a->u.sharding : NULL;
}

bool
sli_prop_is_edge_target(sli_prop *P, sl_value *v)
{
	sl_op *e = v->id < P->nvalues && P->values[v->id] == v ? P->edge[v->id] : NULL;
	return e && v != &e->results[0];
}

/* A block argument of a manual or named computation (without an edge). */
static sl_op *
data_flow_block_arg(const sl_value *v)
{
	if (v->def || !v->block || !v->block->parent)
		return NULL;
	sl_op *o = v->block->parent->parent;
	return o && (o->kind == SL_OP_SDY_MANUAL_COMPUTATION ||
	             o->kind == SL_OP_SDY_NAMED_COMPUTATION) ? o : NULL;
}

static bool
computation(const sl_op *op)
{
	return op->kind == SL_OP_SDY_MANUAL_COMPUTATION ||
	       op->kind == SL_OP_SDY_NAMED_COMPUTATION;
}

static const sl_sharding *erase_manual(sl_module *m, const sl_op *mc, const sl_sharding *s);
static const sl_sharding *add_manual(sl_module *m, const sl_op *mc,
                                     const sl_sharding *outer, const sl_sharding *inner);
static const sl_sharding *mc_sharding(const sl_op *mc, sl_sym which, uint32_t i);
static sl_sharding *open_like(sl_module *m, const sl_sharding *s, const sl_type *t);

/* Replaces entry i of the in/out shardings of a computation. */
static void
set_mc_sharding(sl_module *m, sl_op *mc, sl_sym which, uint32_t i, uint32_t n,
                const sl_value *vals, const sl_sharding *s)
{
	sl_attr *old = sli_op_get(mc, which);
	sl_attr *a = sli_attr_new(m, SL_ATTR_SHARDING_PER_VALUE);
	a->u.spv.n = n;
	a->u.spv.v = SL_NEWN(&m->arena, sl_sharding *, n ? n : 1);
	for (uint32_t k = 0; k < n; k++) {
		if (k == i)
			a->u.spv.v[k] = (sl_sharding *)s;
		else if (old && old->kind == SL_ATTR_SHARDING_PER_VALUE && k < old->u.spv.n)
			a->u.spv.v[k] = old->u.spv.v[k];
		else
			a->u.spv.v[k] = open_like(m, s, vals[k].type);
	}
	sli_op_set_prop(m, mc, which, a);
}

/* The value the sharding of v really lives on (NULL: none). */
static sl_value *
shardable(sli_prop *P, sl_value *v)
{
	sl_op *e = v->id < P->nvalues && P->values[v->id] == v ? P->edge[v->id] : NULL;
	if (e)
		return &e->results[0];
	if (!v->def && !is_func_arg(v) && !data_flow_block_arg(v))
		return NULL;
	return v;
}

/* Whether the sharding of shardable value v is cached in P->cur. */
static bool
cacheable(const sli_prop *P, const sl_value *v)
{
	if (v->id >= P->nvalues || P->values[v->id] != v)
		return false;
	return v->def ? !computation(v->def) : !data_flow_block_arg(v);
}

static const sl_sharding *load(sli_prop *P, sl_value *v);
static const sl_sharding *intern(sli_prop *P, const sl_sharding *s);

/*
 * The sharding of cacheable value v for P->cur.  It is interned, so that
 * equal shardings read from the IR share one address with each other and
 * with step results, and steps on them hit the step memo.  Shardings on
 * inline meshes hash by the mesh's address and would gain nothing.
 */
static const sl_sharding *
load_cached(sli_prop *P, sl_value *v)
{
	const sl_sharding *s = load(P, v);
	return s && !s->mesh ? intern(P, s) : s;
}

/* P->getslot: not looked at yet, no sharding, not cached; else id + 1 */
enum { GET_UNKNOWN = 0, GET_NONE = -1, GET_LOAD = -2 };

const sl_sharding *
sli_prop_get(sli_prop *P, sl_value *v)
{
	int32_t *slot = v->id < P->nvalues && P->values[v->id] == v ? &P->getslot[v->id] : NULL;
	if (slot && *slot > 0) {
		uint32_t k = (uint32_t)*slot - 1;
		if (P->cur[k] == P->unloaded)
			P->cur[k] = load_cached(P, P->values[k]);
		return P->cur[k];
	}
	if (slot && *slot == GET_NONE)
		return NULL;
	v = shardable(P, v);
	if (!v) {
		if (slot)
			*slot = GET_NONE;
		return NULL;
	}
	if (!cacheable(P, v)) {
		if (slot)
			*slot = GET_LOAD;
		return load(P, v);
	}
	if (slot)
		*slot = (int32_t)v->id + 1;
	if (P->cur[v->id] == P->unloaded)
		P->cur[v->id] = load_cached(P, v);
	return P->cur[v->id];
}

/*
 * The sharding of shardable value v, read from the IR (ir/access.h); the
 * arguments of a manual computation's body see their in_sharding
 * without the manual axes.  The result of an sdy collective is read as
 * unsharded, as it always was here: whether Shardy's propagation sees
 * its out_sharding is not settled by any conformance case.
 */
static const sl_sharding *
load(sli_prop *P, sl_value *v)
{
	if (v->def && sli_op_info[v->def->kind].format == SL_FMT_SDY_COLLECTIVE)
		return NULL;
	const sl_sharding *s = sli_value_sharding(v);
	sl_op *dfo = data_flow_block_arg(v);
	return dfo && dfo->kind == SL_OP_SDY_MANUAL_COMPUTATION
	       ? erase_manual(P->m, dfo, s) : s;
}

static void
set_named(sl_module *m, sl_named_attr **pv, uint32_t *pn, sl_sym name, sl_attr *attr)
{
	for (uint32_t i = 0; i < *pn; i++)
		if ((*pv)[i].name == name) {
			sl_named_attr *nv = SL_NEWN(&m->arena, sl_named_attr, *pn);
			memcpy(nv, *pv, sizeof *nv * *pn);
			nv[i].attr = attr;
			*pv = nv;
			return;
		}
	sl_named_attr *nv = SL_NEWN(&m->arena, sl_named_attr, *pn + 1);
	if (*pn)
		memcpy(nv, *pv, sizeof *nv * *pn);
	nv[*pn].name = name;
	nv[*pn].attr = attr;
	(*pn)++;
	sli_sort_named(m->ctx, nv, *pn);
	*pv = nv;
}

/* A fully open sharding of type t on the mesh of s. */
static sl_sharding *
open_like(sl_module *m, const sl_sharding *s, const sl_type *t)
{
	sl_sharding *o = SL_NEW(&m->arena, sl_sharding);
	o->mesh_name = s->mesh_name;
	o->mesh = s->mesh;
	o->rank = is_static_tensor(t) || (t && t->kind == SL_TYPE_TENSOR && !t->unranked)
	          ? t->rank : 0;
	o->dims = SL_NEWN(&m->arena, sl_dim_sharding, o->rank ? o->rank : 1);
	for (uint32_t d = 0; d < o->rank; d++) {
		o->dims[d].open = true;
		o->dims[d].priority = SL_NO_PRIORITY;
	}
	return o;
}

/* Clears the quiet flags of the op defining v and of its users. */
static void
wake_value(sli_prop *P, const sl_value *v)
{
	if (v->id >= P->nvalues || P->values[v->id] != v)
		return;
	if (v->def && v->def->id < P->nops && P->ops[v->def->id] == v->def)
		P->quiet[v->def->id] = 0;
	const sli_use *u = &P->uses[P->use_first[v->id]];
	for (uint32_t i = 0; i < P->use_n[v->id]; i++)
		P->quiet[u[i].user->id] = 0;
}

/* Before shardable value v changes: every op that reads it may move. */
static void
wake(sli_prop *P, sl_value *v)
{
	wake_value(P, v);
	sl_op *e = P->edge[v->id];
	if (e && v == &e->results[0] && e->noperands) {
		/* the values whose sharding lives on this edge (index_edge) */
		sl_value *owner = e->operands[0];
		wake_value(P, owner);
		if (owner->def && owner->def->kind == SL_OP_WHILE) {
			sl_op *w = owner->def;
			for (uint32_t r = 0; r < w->nregions && r < 2; r++) {
				sl_block *b = w->regions[r].first;
				if (b && owner->index < b->nargs)
					wake_value(P, &b->args[owner->index]);
			}
		}
	}
	/*
	 * A new in/out_shardings or sdy.sharding attribute may give the other
	 * block arguments of a computation, or the other results of an op,
	 * open shardings of their own.
	 */
	if (data_flow_block_arg(v)) {
		for (uint32_t i = 0; i < v->block->nargs; i++)
			wake_value(P, &v->block->args[i]);
	} else if (v->def && v->def->nresults > 1) {
		for (uint32_t i = 0; i < v->def->nresults; i++)
			wake_value(P, &v->def->results[i]);
	}
}

/*
 * The sdy.sharding attribute [s] of a one-result op.  Ops with equal
 * shardings share it (no attribute is updated in place unless P->own
 * says the op has it alone), so most ops of a large module need no
 * attribute of their own.
 */
typedef struct spv1_entry {
	const sl_sharding *s;
	sl_attr *a;
} spv1_entry;

static sl_attr *
spv1(sli_prop *P, const sl_sharding *s)
{
	if (P->nspv1 * 2 >= P->spv1_cap) {
		uint32_t cap = P->spv1_cap ? P->spv1_cap * 2 : 256;
		spv1_entry *t = sli_xcalloc(cap, sizeof *t);
		for (uint32_t i = 0; i < P->spv1_cap; i++) {
			if (!P->spv1[i].s)
				continue;
			uint32_t j = sli_ptr_hash(P->spv1[i].s) & (cap - 1);
			while (t[j].s)
				j = (j + 1) & (cap - 1);
			t[j] = P->spv1[i];
		}
		free(P->spv1);
		P->spv1 = t;
		P->spv1_cap = cap;
	}
	uint32_t mask = P->spv1_cap - 1;
	uint32_t j = sli_ptr_hash(s) & mask;
	while (P->spv1[j].s && P->spv1[j].s != s)
		j = (j + 1) & mask;
	if (!P->spv1[j].s) {
		sl_attr *a = sli_attr_new(P->m, SL_ATTR_SHARDING_PER_VALUE);
		a->u.spv.n = 1;
		a->u.spv.v = SL_NEWN(&P->m->arena, sl_sharding *, 1);
		a->u.spv.v[0] = (sl_sharding *)s;
		P->spv1[j].s = s;
		P->spv1[j].a = a;
		P->nspv1++;
	}
	return P->spv1[j].a;
}

void
sli_prop_set(sli_prop *P, sl_value *v, const sl_sharding *s)
{
	sl_module *m = P->m;
	v = shardable(P, v);
	if (!v)
		return;
	if (v->id < P->nvalues && P->values[v->id] == v)
		wake(P, v);
	if (cacheable(P, v))
		P->cur[v->id] = s;
	sl_op *dfo = data_flow_block_arg(v);
	if (dfo) {
		if (dfo->kind == SL_OP_SDY_MANUAL_COMPUTATION)
			s = add_manual(m, dfo, mc_sharding(dfo, SLS_in_shardings, v->index), s);
		set_mc_sharding(m, dfo, SLS_in_shardings, v->index, v->block->nargs,
		                v->block->args, s);
		return;
	}
	if (!v->def) {
		set_named(m, &v->attrs, &v->nattrs, SLS_sdy_sharding, sharding_attr(m, s));
		return;
	}
	sl_op *op = v->def;
	if (computation(op)) {
		set_mc_sharding(m, op, SLS_out_shardings, v->index, op->nresults, op->results, s);
		return;
	}
	switch (op->kind) {
	case SL_OP_SDY_SHARDING_CONSTRAINT:
	case SL_OP_SDY_RESHARD:
	case SL_OP_SDY_DATA_FLOW_EDGE:
		sli_op_set_prop(m, op, SLS_sharding, sharding_attr(m, s));
		return;
	default:
		break;
	}
	sl_attr *old = sli_op_attr(op, SLS_sdy_sharding);
	bool indexed = op->id < P->nops && P->ops[op->id] == op;
	if (old && indexed && P->own[op->id] == old && v->index < old->u.spv.n) {
		old->u.spv.v[v->index] = (sl_sharding *)s;
		return;
	}
	if (op->nresults == 1) {
		sli_op_set_attr(m, op, SLS_sdy_sharding, spv1(P, s));
		if (indexed)
			P->own[op->id] = NULL;
		return;
	}
	sl_attr *a = sli_attr_new(m, SL_ATTR_SHARDING_PER_VALUE);
	a->u.spv.n = op->nresults;
	a->u.spv.v = SL_NEWN(&m->arena, sl_sharding *, op->nresults ? op->nresults : 1);
	for (uint32_t i = 0; i < op->nresults; i++) {
		if (i == v->index)
			a->u.spv.v[i] = (sl_sharding *)s;
		else if (old && old->kind == SL_ATTR_SHARDING_PER_VALUE && i < old->u.spv.n)
			a->u.spv.v[i] = old->u.spv.v[i];
		else
			a->u.spv.v[i] = open_like(m, s, op->results[i].type);
	}
	sli_op_set_attr(m, op, SLS_sdy_sharding, a);
	if (indexed)
		P->own[op->id] = a;
	/* the other results may have got fully open shardings */
	for (uint32_t i = 0; i < op->nresults; i++)
		if (i != v->index && cacheable(P, &op->results[i]))
			P->cur[op->results[i].id] = P->unloaded;
}

static const sl_type *
func_type(const sl_op *func)
{
	sl_attr *ft = sli_op_get(func, SLS_function_type);
	return ft && ft->kind == SL_ATTR_TYPE ? ft->u.type : NULL;
}

const sl_sharding *
sli_prop_func_result(sli_prop *P, sl_op *func, uint32_t i)
{
	sl_attr *ra = sli_op_get(func, SLS_res_attrs);
	if (!ra || ra->kind != SL_ATTR_ARRAY || i >= ra->u.arr.n)
		return NULL;
	sl_attr *d = ra->u.arr.v[i];
	if (!d || d->kind != SL_ATTR_DICT)
		return NULL;
	return attr_sharding(sli_dict_get(d->u.dict.v, d->u.dict.n, SLS_sdy_sharding));
}

void
sli_prop_set_func_result(sli_prop *P, sl_op *func, uint32_t i, const sl_sharding *s)
{
	sl_module *m = P->m;
	const sl_type *ft = func_type(func);
	uint32_t n = ft ? ft->nres : i + 1;
	sl_attr *ra = sli_op_get(func, SLS_res_attrs);
	sl_attr *na = sli_attr_new(m, SL_ATTR_ARRAY);
	na->u.arr.n = n;
	na->u.arr.v = SL_NEWN(&m->arena, sl_attr *, n ? n : 1);
	for (uint32_t k = 0; k < n; k++) {
		if (ra && ra->kind == SL_ATTR_ARRAY && k < ra->u.arr.n)
			na->u.arr.v[k] = ra->u.arr.v[k];
		else
			na->u.arr.v[k] = sli_attr_new(m, SL_ATTR_DICT);
	}
	sl_attr *d = sli_attr_new(m, SL_ATTR_DICT);
	if (na->u.arr.v[i]->kind == SL_ATTR_DICT) {
		d->u.dict.v = na->u.arr.v[i]->u.dict.v;
		d->u.dict.n = na->u.arr.v[i]->u.dict.n;
	}
	set_named(m, &d->u.dict.v, &d->u.dict.n, SLS_sdy_sharding, sharding_attr(m, s));
	na->u.arr.v[i] = d;
	sli_op_set_prop(m, func, SLS_res_attrs, na);
}

static bool
axes_eq(const sl_axis_list *a, const sl_axis_list *b)
{
	return sli_axis_list_equal(a->v, a->n, b->v, b->n);
}

static bool
sharding_eq(const sl_sharding *a, const sl_sharding *b)
{
	if (a->mesh_name != b->mesh_name || a->rank != b->rank ||
	    a->reduction != b->reduction)
		return false;
	if ((a->mesh || b->mesh) &&
	    (!a->mesh || !b->mesh || !sli_mesh_equal(a->mesh, b->mesh)))
		return false;
	for (uint32_t d = 0; d < a->rank; d++) {
		const sl_dim_sharding *x = &a->dims[d], *y = &b->dims[d];
		if (x->open != y->open || x->priority != y->priority || !axes_eq(&x->axes, &y->axes))
			return false;
	}
	return axes_eq(&a->replicated, &b->replicated) && axes_eq(&a->unreduced, &b->unreduced);
}

static uint64_t
mix(uint64_t h, uint64_t x)
{
	return (h ^ x) * 1099511628211ULL;
}

static uint64_t
axes_hash(uint64_t h, const sl_axis_list *l)
{
	h = mix(h, l->n);
	for (uint32_t i = 0; i < l->n; i++) {
		h = mix(h, l->v[i].name);
		if (l->v[i].sub)
			h = mix(mix(h, (uint64_t)l->v[i].pre), (uint64_t)l->v[i].size);
	}
	return h;
}

/* Agrees with sharding_eq up to inline meshes, which hash by address. */
static uint64_t
sharding_hash(const sl_sharding *s)
{
	uint64_t h = 1469598103934665603ULL;
	h = mix(mix(h, s->mesh_name), (uint64_t)(uintptr_t)s->mesh);
	h = mix(mix(h, s->rank), (uint64_t)s->reduction);
	for (uint32_t d = 0; d < s->rank; d++) {
		h = mix(mix(h, s->dims[d].open), (uint64_t)s->dims[d].priority);
		h = axes_hash(h, &s->dims[d].axes);
	}
	return axes_hash(axes_hash(h, &s->replicated), &s->unreduced);
}

static sl_axis_list
dup_axes(sli_arena *a, const sl_axis_list *l)
{
	sl_axis_list r = {NULL, l->n};
	if (l->n)
		r.v = sli_arena_dup(a, l->v, sizeof *l->v * l->n);
	return r;
}

/*
 * The module-arena sharding equal to s (a scratch sharding): the one made
 * before, or a copy.  Equal results of many steps share one sharding, so
 * the step signatures, which compare shardings by address, hit more often
 * and the module grows only by shardings that are new.
 */
static const sl_sharding *
intern(sli_prop *P, const sl_sharding *s)
{
	if (P->ninterned * 2 >= P->interned_cap) {
		uint32_t cap = P->interned_cap ? P->interned_cap * 2 : 1024;
		const sl_sharding **t = sli_xcalloc(cap, sizeof *t);
		for (uint32_t i = 0; i < P->interned_cap; i++) {
			const sl_sharding *x = P->interned[i];
			if (!x)
				continue;
			uint32_t j = (uint32_t)sharding_hash(x) & (cap - 1);
			while (t[j])
				j = (j + 1) & (cap - 1);
			t[j] = x;
		}
		free(P->interned);
		P->interned = t;
		P->interned_cap = cap;
	}
	uint32_t mask = P->interned_cap - 1;
	uint32_t j = (uint32_t)sharding_hash(s) & mask;
	for (; P->interned[j]; j = (j + 1) & mask)
		if (sharding_eq(P->interned[j], s))
			return P->interned[j];
	sli_arena *a = &P->m->arena;
	sl_sharding *c = SL_NEW(a, sl_sharding);
	*c = *s;
	c->dims = SL_NEWN(a, sl_dim_sharding, s->rank ? s->rank : 1);
	for (uint32_t d = 0; d < s->rank; d++) {
		c->dims[d] = s->dims[d];
		c->dims[d].axes = dup_axes(a, &s->dims[d].axes);
	}
	c->replicated = dup_axes(a, &s->replicated);
	c->unreduced = dup_axes(a, &s->unreduced);
	P->interned[j] = c;
	P->ninterned++;
	return c;
}

static bool
empty_axes(const sl_sharding *s)
{
	for (uint32_t d = 0; d < s->rank; d++)
		if (s->dims[d].axes.n)
			return false;
	return !s->replicated.n && !s->unreduced.n;
}

static bool
fully_open(const sl_sharding *s)
{
	for (uint32_t d = 0; d < s->rank; d++)
		if (s->dims[d].axes.n || !s->dims[d].open)
			return false;
	return true;
}

/* ====================================================================
 * Manual computations (spec 7.9)
 * ==================================================================== */

static const sl_axis_list *
manual_axes(const sl_op *mc)
{
	sl_attr *a = sli_op_get(mc, SLS_manual_axes);
	return a && a->kind == SL_ATTR_MANUAL_AXES ? &a->u.axes : NULL;
}

static bool
is_manual(const sl_axis_list *manual, const sl_axis_ref *r)
{
	for (uint32_t i = 0; manual && i < manual->n; i++)
		if (manual->v[i].name == r->name)
			return true;
	return false;
}

static const sl_sharding *
mc_sharding(const sl_op *mc, sl_sym which, uint32_t i)
{
	sl_attr *a = sli_op_get(mc, which);
	if (!a || a->kind != SL_ATTR_SHARDING_PER_VALUE || i >= a->u.spv.n)
		return NULL;
	return a->u.spv.v[i];
}

static sl_axis_list
drop_manual(sl_module *m, const sl_axis_list *manual, const sl_axis_list *l)
{
	sl_axis_list out = {NULL, 0};
	if (!l->n)
		return out;
	out.v = SL_NEWN(&m->arena, sl_axis_ref, l->n);
	for (uint32_t i = 0; i < l->n; i++)
		if (!is_manual(manual, &l->v[i]))
			out.v[out.n++] = l->v[i];
	return out;
}

static const sl_sharding *
erase_manual(sl_module *m, const sl_op *mc, const sl_sharding *s)
{
	const sl_axis_list *manual = manual_axes(mc);
	if (!s || !manual || !manual->n)
		return s;
	sl_sharding *o = SL_NEW(&m->arena, sl_sharding);
	*o = *s;
	o->dims = SL_NEWN(&m->arena, sl_dim_sharding, s->rank ? s->rank : 1);
	for (uint32_t d = 0; d < s->rank; d++) {
		o->dims[d] = s->dims[d];
		uint32_t k = 0;
		while (k < s->dims[d].axes.n && is_manual(manual, &s->dims[d].axes.v[k]))
			k++;
		o->dims[d].axes.v = s->dims[d].axes.v + k;
		o->dims[d].axes.n = s->dims[d].axes.n - k;
	}
	o->replicated = drop_manual(m, manual, &s->replicated);
	o->unreduced = drop_manual(m, manual, &s->unreduced);
	return o;
}

static const sl_sharding *
add_manual(sl_module *m, const sl_op *mc, const sl_sharding *outer,
           const sl_sharding *inner)
{
	const sl_axis_list *manual = manual_axes(mc);
	if (!inner || !outer)
		return inner;
	sl_sharding *o = SL_NEW(&m->arena, sl_sharding);
	*o = *inner;
	o->dims = SL_NEWN(&m->arena, sl_dim_sharding, inner->rank ? inner->rank : 1);
	for (uint32_t d = 0; d < inner->rank; d++) {
		o->dims[d] = inner->dims[d];
		uint32_t k = 0;
		if (d < outer->rank)
			while (k < outer->dims[d].axes.n && is_manual(manual, &outer->dims[d].axes.v[k]))
				k++;
		if (!k)
			continue;
		uint32_t n = k + inner->dims[d].axes.n;
		o->dims[d].axes.v = SL_NEWN(&m->arena, sl_axis_ref, n);
		memcpy(o->dims[d].axes.v, outer->dims[d].axes.v, sizeof(sl_axis_ref) * k);
		if (inner->dims[d].axes.n)
			memcpy(o->dims[d].axes.v + k, inner->dims[d].axes.v,
			       sizeof(sl_axis_ref) * inner->dims[d].axes.n);
		o->dims[d].axes.n = n;
	}
	o->replicated = outer->replicated;
	o->unreduced = outer->unreduced;
	o->reduction = SL_RED_SUM;
	return o;
}

/* ====================================================================
 * Worklist and notifications (spec 7.3)
 * ==================================================================== */

static void
push(sli_prop *P, sl_op *op)
{
	if (op->id >= P->nops || P->ops[op->id] != op || P->queued[op->id])
		return;
	P->queued[op->id] = 1;
	P->stack[P->nstack++] = op->id;
}

static void
enqueue(sli_prop *P, sl_op *op)
{
	for (; op && op->kind != SL_OP_MODULE; op = sli_op_parent(op))
		if (op != P->current)
			push(P, op);
}

/* The data_flow_edge op whose source is operand k of user, if any. */
static sl_op *
edge_for_source(sli_prop *P, sl_op *user, uint32_t k)
{
	sl_op *d = NULL;
	if (sli_op_info[user->kind].traits & T_TERM) {
		d = sli_op_parent(user);
		if (!d || (d->kind != SL_OP_WHILE && d->kind != SL_OP_CASE &&
		           d->kind != SL_OP_SDY_MANUAL_COMPUTATION &&
		           d->kind != SL_OP_SDY_NAMED_COMPUTATION))
			return NULL;
	} else if (user->kind == SL_OP_WHILE || user->kind == SL_OP_OPTIMIZATION_BARRIER ||
	           user->kind == SL_OP_CASE) {
		d = user;
	} else {
		return NULL;
	}
	if (k >= d->nresults)
		return NULL;
	return P->edge[d->results[k].id];
}

static void
notify_users(sli_prop *P, sl_value *v, int depth)
{
	if (v->id >= P->nvalues || P->values[v->id] != v || depth > 64)
		return;
	const sli_use *u = &P->uses[P->use_first[v->id]];
	for (uint32_t i = P->use_n[v->id]; i-- > 0;) {
		sl_op *user = u[i].user;
		uint32_t k = u[i].index;
		sl_op *e = edge_for_source(P, user, k);
		if (e) {
			enqueue(P, e);
		} else if (sli_op_info[user->kind].traits & T_TERM) {
			sl_op *parent = sli_op_parent(user);
			if (user->kind != SL_OP_RETURN || !parent || parent->kind != SL_OP_FUNC) {
				enqueue(P, parent);
			} else if (!P->calls[parent->id]) {
				enqueue(P, parent);
			} else {
				for (sl_op **c = P->calls[parent->id]; *c; c++)
					if (k < (*c)->nresults)
						notify_users(P, &(*c)->results[k], depth + 1);
			}
		} else if (user->kind == SL_OP_CALL) {
			sl_op *f = sli_lookup_func(P->m, callee_of(P->m, user));
			sl_block *b = f && f->nregions ? f->regions[0].first : NULL;
			if (b && k < b->nargs)
				notify_users(P, &b->args[k], depth + 1);
		} else {
			enqueue(P, user);
		}
	}
}

/* notifyShardingModified of spec 7.3.2; v is a shardable value. */
static void
notify_modified(sli_prop *P, sl_value *v)
{
	if (v->def && v->def->kind == SL_OP_SDY_DATA_FLOW_EDGE && v->def->noperands) {
		sl_value *owner = v->def->operands[0];
		if (owner->def && owner->def->kind == SL_OP_WHILE) {
			sl_op *w = owner->def;
			for (uint32_t r = 0; r < w->nregions && r < 2; r++) {
				sl_block *b = w->regions[r].first;
				if (b && owner->index < b->nargs)
					notify_users(P, &b->args[owner->index], 0);
			}
		}
	}
	if (v->def)
		enqueue(P, v->def);
	else if (v->block && v->block->parent)
		enqueue(P, v->block->parent->parent);
	notify_users(P, v, 0);
}

/* ====================================================================
 * One propagation step (spec 7.2)
 * ==================================================================== */

enum { VIEW_PLAIN, VIEW_MC_ARG, VIEW_MC_RES };

typedef struct stensor {
	sl_value *v;		/* NULL for a function result */
	sl_op *func;
	uint32_t res;
	const sl_sharding *s;	/* the sharding handed to the projection */
	int view;
	sl_op *mc;		/* manual computation of a VIEW_MC_* edge */
	uint32_t mci;
} stensor;

enum { DIR_FIXED, DIR_STRATEGY };

typedef struct step_args {
	sl_op *op;		/* the op (direction function, debug owner) */
	const sl_rule *rule;
	const sl_rule *attached;	/* the rule attribute, for heuristic 2 */
	int dirmode, dir;
	bool conservative, elementwise, notify, func_sync;
	const uint8_t *dirs;	/* from step_dirs, or NULL: computed by step */
	bool plain;		/* every tensor is plain(): the op's own values */
} step_args;

/*
 * Directions of steps by rule.  Equal ops share their rule, so few entries
 * serve every op, and equal directions share one address (the step memo
 * compares them by address).
 */
typedef struct dirs_entry {
	const sl_rule *rule, *attached;
	uint8_t pt, other;
	const uint8_t *dirs;	/* as step_dirs returns them; may be NULL */
} dirs_entry;

static uint64_t
dirs_hash(const sl_rule *rule, uint8_t pt, uint8_t other)
{
	return mix(mix(1469598103934665603ULL, (uint64_t)(uintptr_t)rule), pt * 4u + other);
}

/* The slot of (rule, attached, pt, other): its entry, or an empty slot. */
static dirs_entry **
dirs_slot(sli_prop *P, const sl_rule *rule, const sl_rule *attached, uint8_t pt,
          uint8_t other)
{
	if (P->ndirs_cache * 2 >= P->dirs_cache_cap) {
		uint32_t cap = P->dirs_cache_cap ? P->dirs_cache_cap * 2 : 256;
		dirs_entry **t = sli_xcalloc(cap, sizeof *t);
		for (uint32_t i = 0; i < P->dirs_cache_cap; i++) {
			dirs_entry *x = P->dirs_cache[i];
			if (!x)
				continue;
			uint32_t j = (uint32_t)dirs_hash(x->rule, x->pt, x->other) & (cap - 1);
			while (t[j])
				j = (j + 1) & (cap - 1);
			t[j] = x;
		}
		free(P->dirs_cache);
		P->dirs_cache = t;
		P->dirs_cache_cap = cap;
	}
	uint32_t mask = P->dirs_cache_cap - 1;
	uint32_t j = (uint32_t)dirs_hash(rule, pt, other) & mask;
	for (; P->dirs_cache[j]; j = (j + 1) & mask) {
		const dirs_entry *e = P->dirs_cache[j];
		if (e->rule == rule && e->attached == attached && e->pt == pt && e->other == other)
			break;
	}
	return &P->dirs_cache[j];
}

/*
 * The direction of every factor of a step (P->memomem), or NULL when no
 * factor may move: then the step does nothing, whatever the shardings.
 */
static const uint8_t *
step_dirs(sli_prop *P, const step_args *a)
{
	const sl_rule *rule = a->rule;
	uint8_t pt, other;
	if (a->dirmode == DIR_FIXED || P->level < 0) {
		pt = other = (uint8_t)(a->dirmode == DIR_FIXED ? a->dir : SL_DIR_BOTH);
	} else {
		sli_op_priority_dirs(P, a->op, P->level, &pt, &other);
		if (!a->attached)
			other = pt;
	}
	if (pt == SL_DIR_NONE && other == SL_DIR_NONE)
		return NULL;
	dirs_entry **slot = dirs_slot(P, rule, a->attached, pt, other);
	if (*slot)
		return (*slot)->dirs;
	uint8_t *dirs = sli_arena_alloc(&P->memomem, rule->nfactors + 1);
	const sl_rule *k = a->attached;
	bool kinds = pt != other && k && (k->reduction.n || k->need_replication.n ||
	                                  k->permutation.n);
	bool any_dir = false;
	for (uint32_t f = 0; f < rule->nfactors; f++) {
		if (rule->blocked.n && sli_rule_factor_blocked(rule, f))
			dirs[f] = SL_DIR_NONE;
		else if (kinds && sli_rule_factor_kind(k, f) != SLI_FACTOR_PASS_THROUGH)
			dirs[f] = other;
		else
			dirs[f] = pt;
		any_dir |= dirs[f] != SL_DIR_NONE;
	}
	dirs_entry *e = SL_NEW(&P->memomem, dirs_entry);
	e->rule = rule;
	e->attached = a->attached;
	e->pt = pt;
	e->other = other;
	e->dirs = any_dir ? dirs : NULL;
	*slot = e;
	P->ndirs_cache++;
	return any_dir ? dirs : NULL;
}

/* Writes s onto v's group members (spec 7.7). */
static void
sync_group(sli_prop *P, sl_value *v, const sl_sharding *s, bool notify)
{
	if (v->id >= P->nvalues || P->values[v->id] != v)
		return;
	int32_t g = P->group[v->id];
	if (g < 0)
		return;
	for (uint32_t i = 0; i < P->group_sizes.v[g]; i++) {
		sl_value *w = P->groups.v[g][i];
		if (w == v)
			continue;
		sli_prop_set(P, w, s);
		if (notify) {
			sl_value *sw = shardable(P, w);
			if (sw)
				notify_modified(P, sw);
		}
	}
}

/* A hash of the addresses of the shardings of a step's tensors. */
static uint64_t
shardings_hash(const stensor *ts, uint32_t nt)
{
	uint64_t h = 1469598103934665603ULL;
	for (uint32_t i = 0; i < nt; i++)
		h = mix(h, (uint64_t)(uintptr_t)ts[i].s);
	return h;
}

/* The signature of a step (nonzero) from shardings_hash h of its tensors. */
static uint64_t
step_sig(const sli_prop *P, const step_args *a, uint64_t h, const uint8_t *dirs)
{
	for (uint32_t f = 0; f < a->rule->nfactors; f++)
		h = mix(h, dirs[f]);
	h = mix(h, (uint64_t)(P->aggressive * 2 + a->conservative));
	return h | 1;
}

/*
 * Whether every factor of projection p has the same axes in every tensor
 * that has it, and no overflow.  Then the compatible axes of each factor
 * are those axes (or none), which no tensor can strictly extend: a step
 * changes nothing, in basic and aggressive propagation alike and whatever
 * the directions.
 */
static bool
agree(const sli_proj *p)
{
	for (uint32_t f = 0; f < p->nfactors; f++) {
		const sli_fsh *first = NULL;
		for (uint32_t i = 0; i < p->nops + p->nres; i++) {
			const sli_fsh *fs = &p->t[i].f[f];
			if (!fs->present)
				continue;
			if (fs->overflow.n)
				return false;
			if (!first)
				first = fs;
			else if (!sli_axis_list_equal(first->axes.v, first->axes.n, fs->axes.v,
			                              fs->axes.n))
				return false;
		}
	}
	return true;
}

/*
 * Whether a step on the shardings now on the op's tensors would agree().
 * last (or NULL) is the projection of the step that wrote them, upd its
 * updates and was its inputs.
 */
static bool
settled(sli_prop *P, const step_args *a, const stensor *ts, uint32_t nops, uint32_t nres,
        const sl_mesh *mesh, const sli_proj *last, const stensor *was, const bool *upd)
{
	const sl_rule *rule = a->rule;
	sli_proj p;
	sli_proj_init(&p, &P->scratch, mesh, rule->factor_sizes, rule->nfactors, nops, nres);
	for (uint32_t i = 0; i < nops + nres; i++) {
		/* a tensor the step left alone is still projected in `last` */
		if (last && !upd[i] && ts[i].s == was[i].s)
			p.t[i] = last->t[i];
		else if (i < nops)
			sli_proj_tensor(&p, i, &rule->operands[i], ts[i].s);
		else
			sli_proj_tensor(&p, i, &rule->results[i - nops], ts[i].s);
	}
	return agree(&p);
}

static void plain(sli_prop *P, stensor *t, sl_value *v);

enum { QUIET_ALWAYS = 255 };

/* What a generic step of op depends on besides the shardings (nonzero). */
static uint8_t
quiet_key(sli_prop *P, const sl_op *op)
{
	uint8_t pt = SL_DIR_BOTH, other = SL_DIR_BOTH;
	if (P->level >= 0)
		sli_op_priority_dirs(P, op, P->level, &pt, &other);
	return (uint8_t)(1 + (pt * 4 + other) * 2 + P->aggressive);
}

static void
set_quiet(sli_prop *P, const step_args *a, uint8_t key)
{
	if (a->plain)
		P->quiet[a->op->id] = key;
}

/*
 * The step memo.  What a step computes is a function of its rule, the
 * shardings of its tensors (never mutated, so compared by address), the
 * directions and the strategy.  Layers of a model repeat the same ops on
 * the same shardings, so the outcome of a step is kept and replayed:
 * the sharding each tensor gets, and whether a step that changed nothing
 * agree()s.  Entries without dirs record settled(): whether the shardings
 * an op has after a change agree().  Rules live as long as the pass
 * (P->rulemem: built, shared by equal ops, or identity_rule), shardings
 * as long as the module; entries live in P->memomem.
 */
typedef struct step_memo {
	uint64_t hash;
	const sl_rule *rule;
	const sl_mesh *mesh;
	const uint8_t *dirs;		/* from step_dirs; NULL: a settled() entry */
	const sl_sharding **in;		/* nt */
	const sl_sharding **out;	/* nt: the sharding written, or NULL */
	uint32_t nt;
	uint8_t flags;
	bool quiet;			/* moved nothing and agree()s, or settled() */
} step_memo;

static bool
memo_equal(const step_memo *a, const step_memo *b)
{
	if (a->hash != b->hash || a->rule != b->rule || a->mesh != b->mesh ||
	    a->flags != b->flags || a->nt != b->nt || a->dirs != b->dirs)
		return false;
	for (uint32_t i = 0; i < a->nt; i++)
		if (a->in[i] != b->in[i])
			return false;
	return true;
}

/*
 * The slot of key k (hash set): its entry, or an empty slot to fill.  h is
 * the shardings_hash of k->in.
 */
static step_memo **
memo_slot(sli_prop *P, step_memo *k, uint64_t h)
{
	if (P->nmemo * 2 >= P->memo_cap) {
		uint32_t cap = P->memo_cap ? P->memo_cap * 2 : 1024;
		step_memo **t = sli_xcalloc(cap, sizeof *t);
		for (uint32_t i = 0; i < P->memo_cap; i++) {
			step_memo *x = P->memo[i];
			if (!x)
				continue;
			uint32_t j = (uint32_t)x->hash & (cap - 1);
			while (t[j])
				j = (j + 1) & (cap - 1);
			t[j] = x;
		}
		free(P->memo);
		P->memo = t;
		P->memo_cap = cap;
	}
	h = mix(mix(h, (uint64_t)(uintptr_t)k->rule), (uint64_t)(uintptr_t)k->mesh);
	k->hash = mix(mix(h, (uint64_t)(uintptr_t)k->dirs), k->flags);
	uint32_t mask = P->memo_cap - 1;
	uint32_t j = (uint32_t)k->hash & mask;
	while (P->memo[j] && !memo_equal(P->memo[j], k))
		j = (j + 1) & mask;
	return &P->memo[j];
}

/* Fills an empty slot with a copy of k (its arrays too). */
static void
memo_put(sli_prop *P, step_memo **slot, const step_memo *k)
{
	sli_arena *a = &P->memomem;
	step_memo *e = SL_NEW(a, step_memo);
	*e = *k;
	e->in = sli_arena_dup(a, k->in, sizeof *k->in * k->nt);
	if (k->out)
		e->out = sli_arena_dup(a, k->out, sizeof *k->out * k->nt);
	*slot = e;
	P->nmemo++;
}

/*
 * settled() through the memo when `memo`; last may be NULL (see settled).
 * h is the shardings_hash of now.
 */
static bool
settled_memo(sli_prop *P, const step_args *a, const stensor *now, uint64_t h,
             uint32_t nops, uint32_t nres, const sl_mesh *mesh, const sli_proj *last,
             const stensor *was, const bool *upd, bool memo)
{
	if (!memo)
		return settled(P, a, now, nops, nres, mesh, last, was, upd);
	uint32_t nt = nops + nres;
	const sl_sharding **in = sli_arena_alloc(&P->scratch, sizeof *in * (nt + 1));
	for (uint32_t i = 0; i < nt; i++)
		in[i] = now[i].s;
	step_memo k = {0, a->rule, mesh, NULL, in, NULL, nt, 0, false};
	step_memo **slot = memo_slot(P, &k, h);
	if (*slot)
		return (*slot)->quiet;
	k.quiet = settled(P, a, now, nops, nres, mesh, last, was, upd);
	memo_put(P, slot, &k);
	return k.quiet;
}

static bool
step(sli_prop *P, const step_args *a, stensor *ts, uint32_t nops, uint32_t nres)
{
	const sl_mesh *mesh = NULL;
	sl_sym mesh_name = 0;
	sl_mesh *inline_mesh = NULL;
	bool mesh_empty = true;
	uint32_t nt = nops + nres;
	for (uint32_t i = 0; i < nt; i++) {
		const sl_sharding *s = ts[i].s;
		if (!s)
			continue;
		const sl_mesh *mm = sli_prop_mesh_of(P, s);
		if (!mm)
			continue;
		if (sli_mesh_is_empty(mm)) {
			if (!mesh) {
				mesh = mm;
				mesh_name = s->mesh_name;
				inline_mesh = s->mesh;
			}
			continue;
		}
		if (!mesh || mesh_empty) {
			mesh = mm;
			mesh_name = s->mesh_name;
			inline_mesh = s->mesh;
			mesh_empty = false;
		} else if (mesh != mm && !sli_mesh_equal(mesh, mm)) {
			return false;
		}
	}
	if (!mesh || mesh_empty || sli_mesh_is_maximal(mesh)) {
		set_quiet(P, a, QUIET_ALWAYS);	/* whatever the directions */
		return false;
	}

	const sl_rule *rule = a->rule;
	const uint8_t *dirs = a->dirs;
	if (!dirs && !(dirs = step_dirs(P, a)))
		return false;

	/*
	 * A step is a function of the shardings (immutable, so compared by
	 * pointer), the directions and the strategy: an op that changed
	 * nothing with the same inputs is not projected again.
	 */
	uint64_t sig = 0, h = shardings_hash(ts, nt);
	bool cache = !a->func_sync && a->op->id < P->nops && P->ops[a->op->id] == a->op;
	if (cache) {
		sig = step_sig(P, a, h, dirs);
		if (P->sig[a->op->id] == sig) {
			set_quiet(P, a, quiet_key(P, a->op));
			return false;
		}
	}

	/* out[i]: the sharding tensor i gets, or NULL (the debug hooks need p) */
	bool memo = !P->debug;
	step_memo key = {0, rule, mesh, dirs, NULL, NULL, nt,
	                 (uint8_t)(P->aggressive * 4 + a->conservative * 2 + a->elementwise),
	                 false};
	step_memo **slot = NULL;
	if (memo) {
		const sl_sharding **in = sli_arena_alloc(&P->scratch, sizeof *in * (nt + 1));
		for (uint32_t i = 0; i < nt; i++)
			in[i] = ts[i].s;
		key.in = in;
		slot = memo_slot(P, &key, h);
	}
	sli_proj p, before;
	bool *upd = NULL;
	const sl_sharding **out;
	if (slot && *slot) {
		out = (*slot)->out;
		key.quiet = (*slot)->quiet;
	} else {
		sli_proj_init(&p, &P->scratch, mesh, rule->factor_sizes, rule->nfactors, nops, nres);
		for (uint32_t i = 0; i < nops; i++)
			sli_proj_tensor(&p, i, &rule->operands[i], ts[i].s);
		for (uint32_t i = 0; i < nres; i++)
			sli_proj_tensor(&p, nops + i, &rule->results[i], ts[nops + i].s);
		if (P->debug)
			sli_proj_copy(&before, &p);
		upd = sli_arena_alloc(&P->scratch, sizeof *upd * (nt + 1));
		if (P->aggressive)
			sli_propagate_aggressive(&p, dirs, a->conservative, a->elementwise, upd);
		else
			sli_propagate_basic(&p, dirs, a->conservative, upd);
		const sl_sharding **o = sli_arena_zalloc(&P->scratch, sizeof *o * (nt + 1));
		bool moved = false;
		for (uint32_t i = 0; i < nt; i++) {
			if (!upd[i])
				continue;
			moved = true;
			const sl_sharding *was = ts[i].s;
			const sl_sharding *nw = sli_proj_back(&P->scratch, &p, i, mesh_name,
			                                      inline_mesh);
			if ((!was && empty_axes(nw)) || (was && sharding_eq(nw, was)))
				continue;
			o[i] = intern(P, nw);
		}
		out = o;
		/* an op that moves nothing and agrees is quiet for good (plain) */
		key.quiet = !moved && agree(&p);
		if (slot) {
			key.out = out;
			memo_put(P, slot, &key);
		}
	}

	bool changed = false;
	bool *written = sli_arena_zalloc(&P->scratch, sizeof *written * (nt + 1));
	sl_value **vals = sli_arena_zalloc(&P->scratch, sizeof *vals * (nt + 1));
	for (uint32_t i = 0; i < nt; i++) {
		const sl_sharding *nw = out[i];
		if (!nw)
			continue;
		stensor *t = &ts[i];
		changed = true;
		written[i] = true;
		if (!t->v) {
			sli_prop_set_func_result(P, t->func, t->res, nw);
			continue;
		}
		const sl_sharding *stored = nw;
		if (t->view == VIEW_MC_ARG)
			stored = erase_manual(P->m, t->mc, nw);
		else if (t->view == VIEW_MC_RES)
			stored = add_manual(P->m, t->mc,
			                    mc_sharding(t->mc, SLS_out_shardings, t->mci), nw);
		sl_value *sv = shardable(P, t->v);
		if (!sv)
			continue;
		vals[i] = sv;
		sli_prop_set(P, sv, stored);
		if (a->notify)
			notify_modified(P, sv);
		sync_group(P, sv, stored, a->notify);
	}
	if (cache) {
		/*
		 * The op is not visited again in this run after a change; when
		 * the new state is settled, its signature spares the next run a
		 * projection.  A state that agree()s needs no step for any
		 * directions until a sharding changes.
		 */
		uint8_t quiet = 0;
		if (changed) {
			sig = 0;
			if (a->plain) {
				stensor *now = sli_arena_alloc(&P->scratch, sizeof *now * (nt + 1));
				for (uint32_t i = 0; i < nt; i++)
					plain(P, &now[i], ts[i].v);
				uint64_t hn = shardings_hash(now, nt);
				if (settled_memo(P, a, now, hn, nops, nres, mesh, upd ? &p : NULL, ts,
				                 upd, memo)) {
					sig = step_sig(P, a, hn, dirs);
					quiet = QUIET_ALWAYS;
				}
			}
		} else if (a->plain) {
			quiet = key.quiet ? QUIET_ALWAYS : quiet_key(P, a->op);
		}
		P->sig[a->op->id] = sig;
		set_quiet(P, a, quiet);
	}
	if (changed && P->debug) {
		for (uint32_t i = 0; i < nt; i++)
			if (!vals[i] && ts[i].v)
				vals[i] = shardable(P, ts[i].v);
		sli_prop_debug_step(P, a->op, &before, &p, vals, written, a->func_sync);
	}
	return changed;
}

static void
plain(sli_prop *P, stensor *t, sl_value *v)
{
	memset(t, 0, sizeof *t);
	t->v = v;
	t->s = sli_prop_get(P, v);
}

/* ====================================================================
 * Handlers (spec 7.2-7.10)
 * ==================================================================== */

/*
 * Rule sharing.  Layers of a model repeat the same ops on the same types,
 * and building a rule costs more than finding an equal op built before:
 * ops the registry builds from themselves alone (sli_rule_local) share the
 * rule of the first op with the same name, types and attributes.
 */
static bool
attrs_equal(const sl_named_attr *a, uint32_t na, const sl_named_attr *b, uint32_t nb,
            sl_sym skip)
{
	uint32_t i = 0, j = 0;
	for (;;) {
		while (i < na && a[i].name == skip)
			i++;
		while (j < nb && b[j].name == skip)
			j++;
		if (i == na || j == nb)
			return i == na && j == nb;
		if (a[i].name != b[j].name || !sli_attr_equal(a[i].attr, b[j].attr))
			return false;
		i++;
		j++;
	}
}

static uint64_t
op_key_hash(const sl_op *op)
{
	uint64_t h = mix(mix(1469598103934665603ULL, op->name), op->noperands);
	for (uint32_t i = 0; i < op->noperands; i++)
		h = mix(h, (uint64_t)(uintptr_t)op->operands[i]->type);
	for (uint32_t i = 0; i < op->nresults; i++)
		h = mix(h, (uint64_t)(uintptr_t)op->results[i].type);
	return mix(h, op->nprops);
}

static bool
op_key_equal(const sl_op *a, const sl_op *b)
{
	if (a->kind != b->kind || a->name != b->name || a->noperands != b->noperands ||
	    a->nresults != b->nresults)
		return false;
	for (uint32_t i = 0; i < a->noperands; i++)
		if (a->operands[i]->type != b->operands[i]->type)
			return false;
	for (uint32_t i = 0; i < a->nresults; i++)
		if (a->results[i].type != b->results[i].type)
			return false;
	return attrs_equal(a->props, a->nprops, b->props, b->nprops, 0) &&
	       attrs_equal(a->attrs, a->nattrs, b->attrs, b->nattrs, SLS_sdy_sharding);
}

/* The slot of op's key in the table: an equal op, or an empty slot. */
static sl_op **
rule_slot(sli_prop *P, const sl_op *op)
{
	if (P->nrule_reps * 2 >= P->rule_reps_cap) {
		uint32_t cap = P->rule_reps_cap ? P->rule_reps_cap * 2 : 256;
		sl_op **t = sli_xcalloc(cap, sizeof *t);
		for (uint32_t i = 0; i < P->rule_reps_cap; i++) {
			sl_op *x = P->rule_reps[i];
			if (!x)
				continue;
			uint32_t j = (uint32_t)op_key_hash(x) & (cap - 1);
			while (t[j])
				j = (j + 1) & (cap - 1);
			t[j] = x;
		}
		free(P->rule_reps);
		P->rule_reps = t;
		P->rule_reps_cap = cap;
	}
	uint32_t mask = P->rule_reps_cap - 1;
	uint32_t j = (uint32_t)op_key_hash(op) & mask;
	while (P->rule_reps[j] && !op_key_equal(P->rule_reps[j], op))
		j = (j + 1) & mask;
	return &P->rule_reps[j];
}

/* A rule in P->rulemem, P->no_rule, or NULL after an error. */
static const sl_rule *
build_rule(sli_prop *P, sl_op *op, bool attach)
{
	sl_rule r;
	int rc = attach ? sli_rule_attach(P->m, op, &P->ropts, &r)
	                : sli_rule_for_op(P->m, op, &P->ropts, &r);
	if (rc < 0) {
		P->failed = true;
		return NULL;
	}
	if (rc != SLI_RULE_FOUND)
		return P->no_rule;
	sl_rule *c = SL_NEW(&P->rulemem, sl_rule);
	*c = r;
	return c;
}

static const sl_rule *
op_rule(sli_prop *P, sl_op *op)
{
	const sl_rule **r = &P->rules[op->id];
	if (*r)
		return *r == P->no_rule ? NULL : *r;
	/*
	 * Shardy attaches every rule it builds; when the rules are dropped
	 * at the end and no dump can show them, building is enough.
	 */
	bool attach = P->o->keep_sharding_rules || (P->o->dump_dir && *P->o->dump_dir);
	if (!attach && sli_rule_local(op) && !sli_op_attr(op, SLS_sdy_sharding_rule)) {
		sl_op **slot = rule_slot(P, op);
		if (*slot) {
			*r = P->rules[(*slot)->id];
		} else {
			const sl_rule *b = build_rule(P, op, false);
			*r = b ? b : P->no_rule;
			if (b) {
				*slot = op;
				P->nrule_reps++;
			}
		}
	} else {
		const sl_rule *b = build_rule(P, op, attach);
		*r = b ? b : P->no_rule;
	}
	return *r == P->no_rule ? NULL : *r;
}

static bool
has_no_rule(const sl_op *op)
{
	switch (op->kind) {
	case SL_OP_MODULE:
	case SL_OP_FUNC:
	case SL_OP_CALL:
	case SL_OP_SDY_MESH:
	case SL_OP_SDY_SHARDING_GROUP:
	case SL_OP_SDY_MANUAL_COMPUTATION:
	case SL_OP_SDY_NAMED_COMPUTATION:
	case SL_OP_SDY_CONSTANT:
	case SL_OP_SDY_RESHARD:
	case SL_OP_WHILE:
	case SL_OP_CASE:
	case SL_OP_OPTIMIZATION_BARRIER:
	case SL_OP_CONSTANT:
	case SL_OP_IOTA:
		return true;
	default:
		return (sli_op_info[op->kind].traits & T_TERM) != 0;
	}
}

/* run_worklist has skipped ops without a rule and ops idle at this level. */
static void
visit_generic(sli_prop *P, sl_op *op)
{
	uint8_t q = P->quiet[op->id];
	if (q && (q == QUIET_ALWAYS || q == quiet_key(P, op)))
		return;
	const sl_rule *rule = op_rule(P, op);
	if (!rule || rule->noperands != op->noperands || rule->nresults != op->nresults)
		return;
	step_args a = {op, rule, rule, DIR_STRATEGY, 0, P->o->conservative,
	               sli_prop_elementwise(op), true, false, NULL, true};
	/* directions first: at low op-priority levels most ops move nothing */
	if (!(a.dirs = step_dirs(P, &a))) {
		P->quiet[op->id] = quiet_key(P, op);
		return;
	}
	uint32_t nt = op->noperands + op->nresults;
	stensor *ts = sli_arena_alloc(&P->scratch, sizeof *ts * (nt + 1));
	for (uint32_t i = 0; i < op->noperands; i++)
		plain(P, &ts[i], op->operands[i]);
	for (uint32_t i = 0; i < op->nresults; i++)
		plain(P, &ts[op->noperands + i], &op->results[i]);
	step(P, &a, ts, op->noperands, op->nresults);
}

/*
 * Identity rules (edges, barriers, result syncs) by type and arity, built
 * once in P->rulemem: every rule a step sees lives as long as the pass,
 * so steps through edges are memoised too.
 */
typedef struct identity_entry {
	const sl_type *type;
	uint32_t nops, nres;
	sl_rule rule;
} identity_entry;

static uint64_t
identity_hash(const sl_type *type, uint32_t nops, uint32_t nres)
{
	return mix(mix(mix(1469598103934665603ULL, (uint64_t)(uintptr_t)type), nops), nres);
}

static const sl_rule *
identity_rule(sli_prop *P, const sl_type *type, uint32_t nops, uint32_t nres)
{
	if (P->nidrules * 2 >= P->idrules_cap) {
		uint32_t cap = P->idrules_cap ? P->idrules_cap * 2 : 64;
		identity_entry **t = sli_xcalloc(cap, sizeof *t);
		for (uint32_t i = 0; i < P->idrules_cap; i++) {
			identity_entry *x = P->idrules[i];
			if (!x)
				continue;
			uint32_t j = (uint32_t)identity_hash(x->type, x->nops, x->nres) & (cap - 1);
			while (t[j])
				j = (j + 1) & (cap - 1);
			t[j] = x;
		}
		free(P->idrules);
		P->idrules = t;
		P->idrules_cap = cap;
	}
	uint32_t mask = P->idrules_cap - 1;
	uint32_t j = (uint32_t)identity_hash(type, nops, nres) & mask;
	for (; P->idrules[j]; j = (j + 1) & mask) {
		identity_entry *e = P->idrules[j];
		if (e->type == type && e->nops == nops && e->nres == nres)
			return &e->rule;
	}
	identity_entry *e = SL_NEW(&P->rulemem, identity_entry);
	e->type = type;
	e->nops = nops;
	e->nres = nres;
	sli_rule_identity(&P->rulemem, type, nops, nres, &e->rule);
	P->idrules[j] = e;
	P->nidrules++;
	return &e->rule;
}

static void
visit_barrier(sli_prop *P, sl_op *op)
{
	if (op->noperands != 1 || op->nresults != 1 || !is_static_tensor(op->results[0].type))
		return;
	sl_attr *d = sli_op_get(op, SLS_allowed_direction);
	int dir = d && d->kind == SL_ATTR_DIRECTION ? d->u.direction : SL_DIR_NONE;
	const sl_rule *rule = identity_rule(P, op->results[0].type, 1, 1);
	stensor ts[2];
	plain(P, &ts[0], op->operands[0]);
	plain(P, &ts[1], &op->results[0]);
	step_args a = {op, rule, NULL, DIR_FIXED, dir, false, true, true, false, NULL, false};
	step(P, &a, ts, 1, 1);
}

static sl_value *
terminator_operand(sl_region *r, uint32_t k)
{
	sl_block *b = r->first;
	sl_op *t = b ? b->last : NULL;
	return t && (sli_op_info[t->kind].traits & T_TERM) && k < t->noperands
	       ? t->operands[k] : NULL;
}

static void
visit_edge(sli_prop *P, sl_op *e)
{
	if (!e->noperands || !e->nresults || !is_static_tensor(e->results[0].type))
		return;
	sl_value *owner = e->operands[0];
	sl_op *d = owner->def;
	uint32_t k = owner->index;
	/* the sources, then the target: at most one source per region, or two */
	uint32_t cap = (d ? d->nregions : 0) + 2, n = 0;
	stensor *ts = sli_arena_alloc(&P->scratch, sizeof *ts * (cap + 1));
	stensor target;
	plain(P, &target, &e->results[0]);
	if (d) {
		switch (d->kind) {
		case SL_OP_WHILE:
			if (k < d->noperands)
				plain(P, &ts[n++], d->operands[k]);
			if (d->nregions > 1 && terminator_operand(&d->regions[1], k))
				plain(P, &ts[n++], terminator_operand(&d->regions[1], k));
			break;
		case SL_OP_CASE:
			for (uint32_t r = 0; r < d->nregions; r++)
				if (terminator_operand(&d->regions[r], k))
					plain(P, &ts[n++], terminator_operand(&d->regions[r], k));
			break;
		case SL_OP_OPTIMIZATION_BARRIER:
			if (k < d->noperands)
				plain(P, &ts[n++], d->operands[k]);
			break;
		case SL_OP_SDY_MANUAL_COMPUTATION:
			target.view = VIEW_MC_RES;
			target.mc = d;
			target.mci = k;
			target.s = erase_manual(P->m, d, target.s);
			/* fall through */
		case SL_OP_SDY_NAMED_COMPUTATION:
			if (d->nregions && terminator_operand(&d->regions[0], k))
				plain(P, &ts[n++], terminator_operand(&d->regions[0], k));
			break;
		default:
			break;
		}
	} else if (owner->block && owner->block->parent) {
		sl_op *o = owner->block->parent->parent;
		if (o && (o->kind == SL_OP_SDY_MANUAL_COMPUTATION ||
		          o->kind == SL_OP_SDY_NAMED_COMPUTATION) && k < o->noperands) {
			plain(P, &ts[n++], o->operands[k]);
			if (o->kind == SL_OP_SDY_MANUAL_COMPUTATION) {
				target.view = VIEW_MC_ARG;
				target.mc = o;
				target.mci = k;
				target.s = add_manual(P->m, o, mc_sharding(o, SLS_in_shardings, k),
				                      target.s);
			}
		}
	}
	if (!n)
		return;
	ts[n] = target;
	const sl_rule *rule = identity_rule(P, e->results[0].type, n, 1);
	step_args a = {e, rule, NULL, DIR_STRATEGY, 0, false, false, true, false, NULL, false};
	step(P, &a, ts, n, 1);
}

static void
visit_func_edge(sli_prop *P, sl_op *e)
{
	if (!e->noperands || !e->nresults || !is_static_tensor(e->results[0].type))
		return;
	sl_value *v = e->operands[0];
	sl_op **calls = NULL, *ret = NULL;
	uint32_t cap = 1, n = 0;
	if (!v->def && is_func_arg(v)) {
		calls = P->calls[v->block->parent->parent->id];
		for (sl_op **c = calls; c && *c; c++)
			cap++;
	} else if (v->def && v->def->kind == SL_OP_CALL) {
		sl_op *f = sli_lookup_func(P->m, callee_of(P->m, v->def));
		if (f && f->nregions && f->regions[0].first)
			ret = f->regions[0].first->last;
	}
	/* the sources (callers' operands, or the callee's returned value), then e */
	stensor *ts = sli_arena_alloc(&P->scratch, sizeof *ts * (cap + 1));
	for (sl_op **c = calls; c && *c; c++)
		if (v->index < (*c)->noperands)
			plain(P, &ts[n++], (*c)->operands[v->index]);
	if (ret && v->index < ret->noperands)
		plain(P, &ts[n++], ret->operands[v->index]);
	if (!n)
		return;
	plain(P, &ts[n], &e->results[0]);
	const sl_rule *rule = identity_rule(P, e->results[0].type, n, 1);
	step_args a = {e, rule, NULL, DIR_STRATEGY, 0, false, false, true, false, NULL, false};
	step(P, &a, ts, n, 1);
}

/* Spec 7.4: main function results against the returned values. */
static void
sync_func_results(sli_prop *P)
{
	sl_op *f = P->main_func;
	if (!f)
		return;
	const sl_type *ft = func_type(f);
	sl_op *ret = f->regions[0].first->last;
	if (!ft || !ret || ret->kind != SL_OP_RETURN)
		return;
	char *mark = P->scratch.cur;
	sli_chunk *head = P->scratch.head;
	for (uint32_t i = 0; i < ft->nres && i < ret->noperands; i++) {
		if (P->scratch.head == head && head)
			P->scratch.cur = mark;
		const sl_type *t = ft->types[ft->rank + i];
		if (!is_static_tensor(t))
			continue;
		stensor ts[2];
		plain(P, &ts[0], ret->operands[i]);
		memset(&ts[1], 0, sizeof ts[1]);
		ts[1].func = f;
		ts[1].res = i;
		ts[1].s = sli_prop_func_result(P, f, i);
		const sl_rule *rule = identity_rule(P, t, 1, 1);
		step_args a = {f, rule, NULL, DIR_FIXED, SL_DIR_BOTH, false, false, false, true, NULL, false};
		step(P, &a, ts, 1, 1);
	}
}

/*
 * Scratch memory of one step is given back by rewinding the arena when
 * no chunk was added: resetting it would free and re-fault its chunk on
 * every step.
 */
typedef struct scratch_mark {
	sli_chunk *head;
	char *cur;
} scratch_mark;

static scratch_mark
scratch_get(sli_prop *P)
{
	scratch_mark k = {P->scratch.head, P->scratch.cur};
	return k;
}

static void
scratch_release(sli_prop *P, scratch_mark k)
{
	if (P->scratch.head == k.head && k.head)
		P->scratch.cur = k.cur;
}

static void
visit(sli_prop *P, sl_op *op)
{
	scratch_mark k = scratch_get(P);
	switch (op->kind) {
	case SL_OP_SDY_PROPAGATION_BARRIER:
		visit_barrier(P, op);
		break;
	case SL_OP_SDY_DATA_FLOW_EDGE:
		visit_edge(P, op);
		break;
	case SL_OP_SDY_FUNC_DATA_FLOW_EDGE:
		visit_func_edge(P, op);
		break;
	default:
		visit_generic(P, op);
		break;
	}
	scratch_release(P, k);
}

static void
run_worklist(sli_prop *P)
{
	/* every op, the first on top (push() for each, without touching ops) */
	memset(P->queued, 1, P->nops);
	for (uint32_t i = 0; i < P->nops; i++)
		P->stack[i] = P->nops - 1 - i;
	P->nstack = P->nops;
	while (P->nstack) {
		uint32_t id = P->stack[--P->nstack];
		P->queued[id] = 0;
		/*
		 * Generic ops that would not step: without a rule, idle at this
		 * level, or quiet whatever the directions (only generic ops are
		 * quiet).
		 */
		uint8_t k = P->opclass[id];
		if ((k & SLI_OPCLASS_NO_STEP) || P->quiet[id] == QUIET_ALWAYS ||
		    ((k & SLI_OPCLASS_GENERIC) && sli_op_priority_idle_class(k, P->level)))
			continue;
		sl_op *op = P->ops[id];
		P->current = op;
		visit(P, op);
		P->current = NULL;
	}
}

static void
fixpoint(sli_prop *P, bool aggressive)
{
	P->aggressive = aggressive;
	sync_func_results(P);
	run_worklist(P);
	sync_func_results(P);
}

void
sli_prop_strategy_run(sli_prop *P, int level)
{
	P->level = level;
	int strategy = P->o->pass == SLI_PROP_BASIC ? SLI_STRATEGY_BASIC : P->o->strategy;
	switch (strategy) {
	case SLI_STRATEGY_BASIC:
		fixpoint(P, false);
		break;
	case SLI_STRATEGY_BASIC_THEN_AGGRESSIVE:
		fixpoint(P, false);
		fixpoint(P, true);
		break;
	default:
		fixpoint(P, true);
		break;
	}
}

/* ====================================================================
 * Sharding groups: initial synchronisation (spec 7.7)
 * ==================================================================== */

/* Inserts `sdy.sharding_constraint v <open>` and redirects v's other uses. */
static sl_value *
insert_open_constraint(sli_prop *P, sl_value *v, const sl_sharding *like)
{
	sl_module *m = P->m;
	sl_op *c = sli_op_create(m, SL_OP_SDY_SHARDING_CONSTRAINT, &v, 1, &v->type, 1, 0);
	sl_sharding *s = open_like(m, like, v->type);
	sli_op_set_prop(m, c, SLS_sharding, sharding_attr(m, s));
	sl_op *scope;
	if (v->def) {
		c->loc = v->def->loc;
		if (v->def->next)
			sli_op_insert_before(v->def->next, c);
		else
			sli_op_append(v->def->parent, c);
		scope = sli_op_parent(v->def);
	} else {
		c->loc = v->block->parent->parent->loc;
		if (v->block->first)
			sli_op_insert_before(v->block->first, c);
		else
			sli_op_append(v->block, c);
		scope = v->block->parent->parent;
	}
	sli_replace_uses_except(scope ? scope : m->top, v, &c->results[0], c);
	return &c->results[0];
}

static sl_loc
value_loc(const sl_value *v)
{
	if (v->def)
		return v->def->loc;
	if (v->block && v->block->parent && v->block->parent->parent)
		return v->block->parent->parent->loc;
	return v->loc;
}

/* "<sharding> on argument 1 of @f (3:17)" and the like, for messages. */
static void
describe(sli_prop *P, sli_buf *b, const sl_value *v, const sl_sharding *s)
{
	sli_print_sharding(b, P->ctx, s, false);
	sl_loc l = v->loc.line ? v->loc : value_loc(v);
	if (v->def) {
		sli_buf_printf(b, " on result %u of '%s'", v->index,
		               sl_sym_str(P->ctx, v->def->name));
	} else {
		sl_op *o = v->block && v->block->parent ? v->block->parent->parent : NULL;
		if (o && o->kind == SL_OP_FUNC)
			sli_buf_printf(b, " on argument %u of @%s", v->index,
			               sl_sym_str(P->ctx, sli_op_sym_name(P->m, o)));
		else
			sli_buf_printf(b, " on block argument %u", v->index);
	}
	if (l.line)
		sli_buf_printf(b, " (%u:%u)", l.line, l.col);
}

/* Returns true when constraints were inserted (the tables are stale). */
static bool
sync_groups_initial(sli_prop *P)
{
	bool inserted = false;
	for (size_t g = 0; g < P->groups.n; g++) {
		sl_value **mem = P->groups.v[g];
		uint32_t n = P->group_sizes.v[g];
		const sl_sharding *common = NULL, *other = NULL;
		uint32_t ci = 0, oi = 0;
		bool conflict = false;
		for (uint32_t i = 0; i < n; i++) {
			const sl_sharding *s = sli_prop_get(P, mem[i]);
			if (!s || fully_open(s))
				continue;
			if (!common) {
				common = s;
				ci = i;
			} else if (!sharding_eq(s, common) && !conflict) {
				conflict = true;
				other = s;
				oi = i;
			}
		}
		if (!common)
			continue;
		if (!conflict) {
			for (uint32_t i = 0; i < n; i++)
				sli_prop_set(P, mem[i], common);
			continue;
		}
		/* Shardy's text, then both sides of the first conflict */
		sli_buf b;
		sli_buf_init(&b);
		describe(P, &b, mem[ci], common);
		sli_buf_printf(&b, " vs ");
		describe(P, &b, mem[oi], other);
		sli_diag(P->ctx, SL_DIAG_WARNING, value_loc(mem[0]),
		         "The initial operand shardings on the sharding groups of groupID: %zu "
		         "do not match. Inserting an open sharding constraint to all constrained "
		         "values. This could result in unexpected behavior if the sharding "
		         "groups are not resolved. Conflict: %s", g, sli_buf_cstr(&b));
		sli_buf_fini(&b);
		for (uint32_t i = 0; i < n; i++)
			mem[i] = insert_open_constraint(P, mem[i], common);
		inserted = true;
	}
	return inserted;
}

/* ====================================================================
 * Pass-level flow (spec 7.1)
 * ==================================================================== */

static int
check_shapes(sli_prop *P)
{
	for (uint32_t i = 0; i < P->nops; i++) {
		sl_op *op = P->ops[i];
		for (uint32_t r = 0; r < op->nresults; r++) {
			const sl_type *t = op->results[r].type;
			if (!t)
				continue;
			if (t->kind == SL_TYPE_TENSOR && !sli_type_is_static(t)) {
				sli_error(P->ctx, op->loc, "Shardy propagation only supports ranked "
				          "tensors with a static shape. type: %s",
				          sl_sym_str(P->ctx, t->text));
				return -1;
			}
			if (t->kind == SL_TYPE_TUPLE) {
				sli_error(P->ctx, op->loc, "Shardy propagation doesn't support tuples: %s",
				          sl_sym_str(P->ctx, t->text));
				return -1;
			}
		}
	}
	return 0;
}

static void
drop_rules(sli_prop *P)
{
	for (uint32_t i = 0; i < P->nops; i++) {
		sl_op *op = P->ops[i];
		sl_attr *r = sli_op_attr(op, SLS_sdy_sharding_rule);
		if (r && !(r->kind == SL_ATTR_RULE && r->u.rule.custom))
			sli_op_set_attr(P->m, op, SLS_sdy_sharding_rule, NULL);
	}
}

sl_module *
sli_prop_module(sli_prop *P)
{
	return P->m;
}

const sli_prop_opts *
sli_prop_options(sli_prop *P)
{
	return P->o;
}

void
sli_prop_dump(sli_prop *P, const char *name)
{
	if (!P->o->dump_dir || !*P->o->dump_dir)
		return;
	sli_buf path;
	sli_buf_init(&path);
	sli_buf_printf(&path, "%s/%02d.%s.mlir", P->o->dump_dir, P->o->dump_index, name);
	FILE *f = fopen(sli_buf_cstr(&path), "w");
	if (!f) {
		fprintf(stderr, "error when writing file %s: %s\n", sli_buf_cstr(&path),
		        strerror(errno));
	} else {
		sl_print_opts po = {false, false};
		sl_module_print(P->m, f, &po);
		fclose(f);
	}
	sli_buf_fini(&path);
}

int
sli_propagate(sl_module *m, const sli_prop_opts *o)
{
	sli_prop P;
	memset(&P, 0, sizeof P);
	P.m = m;
	P.ctx = m->ctx;
	P.o = o;
	P.level = -1;
	P.ropts.conservative = o->conservative;
	P.ropts.warn = true;
	sli_arena_init(&P.scratch);
	sli_arena_init(&P.rulemem);
	sli_arena_init(&P.memomem);
	static const sl_rule no_rule;
	P.no_rule = &no_rule;
	sli_prop_index(&P);
	int rc = 0;
	if (check_shapes(&P)) {
		rc = -1;
		goto done;
	}
	if (sync_groups_initial(&P))
		sli_prop_index(&P);
	sli_prop_debug_init(&P);
	switch (o->pass) {
	case SLI_PROP_USER_PRIORITY:
		sli_prop_user_priority(&P);
		break;
	case SLI_PROP_OP_PRIORITY:
		sli_prop_op_priority(&P);
		break;
	default:
		sli_prop_strategy_run(&P, -1);
		break;
	}
	if (!o->keep_sharding_rules)
		drop_rules(&P);
	sli_prop_debug_finish(&P);
	if (P.failed)
		rc = -1;
done:
	sli_prop_debug_fini(&P);
	sli_rule_opts_fini(&P.ropts);
	free_tables(&P);
	free(P.interned);
	free(P.spv1);
	free(P.memo);
	free(P.dirs_cache);
	free(P.idrules);
	sli_arena_fini(&P.memomem);
	free(P.meshes);
	sli_arena_fini(&P.scratch);
	sli_arena_fini(&P.rulemem);
	return rc;
}

/* ====================================================================
 * Options (spec 8.2)
 * ==================================================================== */

int
sli_prop_opts_parse(sl_module *m, const sli_pass_opts *po, int pass, sli_prop_opts *o)
{
	(void)m;
	*o = po->prop;
	o->pass = pass;
	if (pass == SLI_PROP_BASIC)	/* it takes no propagation-strategy */
		o->strategy = SLI_STRATEGY_BASIC;
	return 0;
}

/* ====================================================================
 * Element-wise ops (spec 4.3)
 * ==================================================================== */

bool
sli_prop_elementwise(const sl_op *op)
{
	switch (op->kind) {
	case SL_OP_REVERSE:
	case SL_OP_AFTER_ALL:
	case SL_OP_CHLO_TOP_K:
		return false;
	case SL_OP_COMPLEX:
	case SL_OP_SELECT:
	case SL_OP_COMPARE:
	case SL_OP_SDY_PROPAGATION_BARRIER:
	case SL_OP_SDY_SHARDING_CONSTRAINT:
	case SL_OP_SDY_RESHARD:
		return true;
	case SL_OP_BITCAST_CONVERT: {
		if (op->noperands != 1 || op->nresults != 1)
			return false;
		const sl_type *a = op->operands[0]->type, *b = op->results[0].type;
		if (!a || !b || a->kind != SL_TYPE_TENSOR || b->kind != SL_TYPE_TENSOR ||
		    a->rank != b->rank)
			return false;
		for (uint32_t d = 0; d < a->rank; d++)
			if (a->dims[d] != b->dims[d])
				return false;
		return true;
	}
	default:
		break;
	}
	sl_op_format f = sli_op_info[op->kind].format;
	return op->kind != SL_OP_UNKNOWN && (f == SL_FMT_SAME || f == SL_FMT_CHLO);
}
