/*
 * shardings.c - where shardings live during propagation (spec 1.5): the
 * value that really holds a value's sharding (an edge's result, a
 * computation's block argument seen without its manual axes), the
 * per-value cache in front of ir/access, and the setter that wakes the
 * ops that read a value.  Invariant: P->cur holds what ir/access would
 * return, interned, or P->unloaded.
 */
#include "propagation/prop_internal.h"
#include "ir/access.h"

#include <string.h>

bool
sli_prop_is_func_arg(const sl_value *v)
{
	return !v->def && v->block && v->block->parent && v->block->parent->parent &&
	       v->block->parent->parent->kind == SL_OP_FUNC;
}

bool
sli_prop_is_edge_target(sli_prop *P, sl_value *v)
{
	sl_op *e = sli_prop_indexed(P, v) ? sli_prop_edge(P, v->id) : NULL;
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

/* The value the sharding of v really lives on (NULL: none). */
sl_value *
sli_prop_shardable(sli_prop *P, sl_value *v)
{
	sl_op *e = sli_prop_indexed(P, v) ? sli_prop_edge(P, v->id) : NULL;
	if (e)
		return &e->results[0];
	if (!v->def && !sli_prop_is_func_arg(v) && !data_flow_block_arg(v))
		return NULL;
	return v;
}

/* Whether the sharding of shardable value v is cached in P->cur. */
static bool
cacheable(const sli_prop *P, const sl_value *v)
{
	if (!sli_prop_indexed(P, v))
		return false;
	return v->def ? !computation(v->def) : !data_flow_block_arg(v);
}

static const sl_sharding *load(sli_prop *P, sl_value *v);

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
	return s && !s->mesh ? sli_prop_intern(P, s) : s;
}

/*
 * P->cur of a value whose sharding it does not hold, as sli_prop_get
 * found it: none (no shardable value), not cached (read from the IR each
 * time), or on an edge (the edge result's entry holds it).
 */
static const sl_sharding slot_none, slot_load, slot_edge;

const sl_sharding *
sli_prop_get(sli_prop *P, sl_value *v)
{
	if (!sli_prop_indexed(P, v)) {
		v = sli_prop_shardable(P, v);
		return v ? load(P, v) : NULL;
	}
	const sl_sharding **c = &P->cur[v->id];
	if (*c == P->unloaded) {
		sl_value *w = sli_prop_shardable(P, v);
		if (!w) {
			*c = &slot_none;
			return NULL;
		}
		if (!cacheable(P, w)) {
			*c = &slot_load;
			return load(P, w);
		}
		if (w != v) {
			*c = &slot_edge;
			return sli_prop_get(P, w);
		}
		return *c = load_cached(P, v);
	}
	if (*c == &slot_none)
		return NULL;
	if (*c == &slot_load)
		return load(P, sli_prop_shardable(P, v));
	if (*c == &slot_edge)
		return sli_prop_get(P, sli_prop_shardable(P, v));
	return *c;
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
	       ? sli_sharding_erase_manual(P->m, dfo, s) : s;
}

/* A fully open sharding of type t on the mesh of s. */
sl_sharding *
sli_prop_open_like(sl_module *m, const sl_sharding *s, const sl_type *t)
{
	sl_sharding *o = SL_NEW(&m->arena, sl_sharding);
	o->mesh_name = s->mesh_name;
	o->mesh = s->mesh;
	o->rank = sli_prop_static_tensor(t) || (t && t->kind == SL_TYPE_TENSOR && !t->unranked)
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
	if (!sli_prop_indexed(P, v))
		return;
	if (v->def && v->def->id < P->nops && P->ops[v->def->id] == v->def)
		P->quiet[v->def->id] = 0;
	for (uint32_t i = P->use_last[v->id]; i != SLI_NO_USE; i = P->uses[i].prev)
		P->quiet[P->uses[i].op] = 0;
}

/* Before shardable value v changes: every op that reads it may move. */
static void
wake(sli_prop *P, sl_value *v)
{
	wake_value(P, v);
	sl_op *e = sli_prop_edge(P, v->id);
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

static bool
spv1_eq(const void *item, const void *key)
{
	return ((const spv1_entry *)item)->s == key;
}

static sl_attr *
spv1(sli_prop *P, const sl_sharding *s)
{
	uint64_t h = sli_ptr_hash(s);
	sli_hslot *slot = sli_htab_slot(&P->spv1, h, spv1_eq, s, 256);
	if (!slot->item) {
		spv1_entry *e = SL_NEW(&P->memomem, spv1_entry);
		e->s = s;
		e->a = sli_attr_new(P->m, SL_ATTR_SHARDING_PER_VALUE);
		e->a->u.spv.n = 1;
		e->a->u.spv.v = SL_NEWN(&P->m->arena, sl_sharding *, 1);
		e->a->u.spv.v[0] = (sl_sharding *)s;
		sli_htab_fill(&P->spv1, slot, h, e);
	}
	return ((spv1_entry *)slot->item)->a;
}

void
sli_prop_set(sli_prop *P, sl_value *v, const sl_sharding *s)
{
	sl_module *m = P->m;
	v = sli_prop_shardable(P, v);
	if (!v)
		return;
	if (sli_prop_indexed(P, v))
		wake(P, v);
	if (cacheable(P, v))
		P->cur[v->id] = s;
	if (!v->def) {
		/* a function argument, or a computation's block argument */
		sl_op *dfo = data_flow_block_arg(v);
		if (dfo && dfo->kind == SL_OP_SDY_MANUAL_COMPUTATION)
			s = sli_prop_add_manual(m, dfo, sli_comp_in_sharding(dfo, v->index), s);
		sli_value_set_sharding(m, v, s);
		return;
	}
	sl_op *op = v->def;
	switch (op->kind) {
	case SL_OP_SDY_MANUAL_COMPUTATION:
	case SL_OP_SDY_NAMED_COMPUTATION:
	case SL_OP_SDY_SHARDING_CONSTRAINT:
	case SL_OP_SDY_RESHARD:
	case SL_OP_SDY_DATA_FLOW_EDGE:
		sli_result_set_sharding(m, op, v->index, s);
		return;
	default:
		break;
	}
	/* any other op, sdy collectives too: its sdy.sharding list */
	sl_attr *old = sli_op_sharding_list(op);
	bool indexed = op->id < P->nops && P->ops[op->id] == op;
	if (old && indexed && P->own && P->own[op->id] == old && v->index < old->u.spv.n) {
		old->u.spv.v[v->index] = (sl_sharding *)s;
		return;
	}
	if (op->nresults == 1) {
		sli_op_set_sharding_list(m, op, spv1(P, s));
		if (indexed && P->own && P->own[op->id])
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
			a->u.spv.v[i] = sli_prop_open_like(m, s, op->results[i].type);
	}
	sli_op_set_sharding_list(m, op, a);
	if (indexed) {
		if (!P->own)
			P->own = sli_prop_table(P->nops, sizeof *P->own, SLI_TABLE_SPARSE);
		P->own[op->id] = a;
	}
	/* the other results may have got fully open shardings */
	for (uint32_t i = 0; i < op->nresults; i++)
		if (i != v->index && cacheable(P, &op->results[i]))
			P->cur[op->results[i].id] = P->unloaded;
}

const sl_sharding *
sli_prop_func_result(sli_prop *P, sl_op *func, uint32_t i)
{
	(void)P;
	return sli_func_res_sharding(func, i);
}

void
sli_prop_set_func_result(sli_prop *P, sl_op *func, uint32_t i, const sl_sharding *s)
{
	sli_func_set_res_sharding(P->m, func, i, s);
}
