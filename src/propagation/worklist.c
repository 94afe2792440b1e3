/*
 * worklist.c - the fixpoint of spec 7.3: a LIFO worklist of op ids with
 * Shardy's notification rules (users, enclosing ops, edges, callers and
 * callees of a changed value), one visit per op by kind, and the
 * strategy runs (4.2).  Invariant: propagation only ever writes a
 * sharding that differs from the current one, so the worklist drains.
 */
#include "propagation/prop_internal.h"

#include <string.h>

/* Pushes op id and the ops around it, the current op apart. */
static void
enqueue_id(sli_prop *P, uint32_t id)
{
	uint32_t current = P->current ? P->current->id : SLI_NO_PARENT;
	for (; id != SLI_NO_PARENT; id = P->parent[id]) {
		if (id == current || P->queued[id])
			continue;
		P->queued[id] = 1;
		P->stack[P->nstack++] = id;
	}
}

/* enqueue_id of op, or of the nearest op around it that the index
 * numbered (an op made since is not pushed, the ops around it are). */
static void
enqueue(sli_prop *P, sl_op *op)
{
	for (; op && op->kind != SL_OP_MODULE; op = sli_op_parent(op)) {
		if (op->id < P->nops && P->ops[op->id] == op) {
			enqueue_id(P, op->id);
			return;
		}
	}
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
	return sli_prop_edge(P, d->results[k].id);
}

static void
notify_users(sli_prop *P, sl_value *v, int depth)
{
	if (!sli_prop_indexed(P, v) || depth > 64)
		return;
	/* the last use first */
	for (uint32_t i = P->use_last[v->id]; i != SLI_NO_USE; i = P->uses[i].prev) {
		/*
		 * A user with a rule of its own, a barrier or an edge is no
		 * terminator, call, while, case or optimization barrier: it
		 * is woken itself, known by its class without a look at it.
		 */
		uint32_t id = P->uses[i].op;
		uint8_t cls = P->opclass[id];
		if ((cls & (SLI_OPCLASS_GENERIC | SLI_OPCLASS_NO_STEP)) !=
		    (SLI_OPCLASS_GENERIC | SLI_OPCLASS_NO_STEP)) {
			enqueue_id(P, id);
			continue;
		}
		sl_op *user = P->ops[id];
		uint32_t k = sli_prop_operand_user(user) ? sli_prop_use_operand(P, i) : 0;
		sl_op *e = edge_for_source(P, user, k);
		if (e) {
			enqueue(P, e);
		} else if (sli_op_info[user->kind].traits & T_TERM) {
			sl_op *parent = sli_op_parent(user);
			if (user->kind != SL_OP_RETURN || !parent || parent->kind != SL_OP_FUNC) {
				enqueue(P, parent);
			} else if (!sli_prop_callers(P, parent->id)) {
				enqueue(P, parent);
			} else {
				for (sl_op **c = sli_prop_callers(P, parent->id); *c; c++)
					if (k < (*c)->nresults)
						notify_users(P, &(*c)->results[k], depth + 1);
			}
		} else if (user->kind == SL_OP_CALL) {
			sl_op *f = sli_lookup_func(P->m, sli_prop_callee(P->m, user));
			sl_block *b = f && f->nregions ? f->regions[0].first : NULL;
			if (b && k < b->nargs)
				notify_users(P, &b->args[k], depth + 1);
		} else {
			enqueue(P, user);
		}
	}
}

/* notifyShardingModified of spec 7.3.2; v is a shardable value. */
void
sli_prop_notify_modified(sli_prop *P, sl_value *v)
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
		sli_prop_visit_barrier(P, op);
		break;
	case SL_OP_SDY_DATA_FLOW_EDGE:
		sli_prop_visit_edge(P, op);
		break;
	case SL_OP_SDY_FUNC_DATA_FLOW_EDGE:
		sli_prop_visit_func_edge(P, op);
		break;
	default:
		sli_prop_visit_generic(P, op);
		break;
	}
	scratch_release(P, k);
}

/*
 * What run_worklist tells of an op by its class alone, for the level and
 * strategy of the run: SKIP_CLASS for a generic op that would not step
 * (without a rule, or idle at this level), else the quiet key of the
 * class (sli_prop_quiet_key, at most 32; only generic ops are quiet).
 * Worked out once a class and run (keys[k], NO_KEY until then), not for
 * every op the sweep passes.
 */
enum { SKIP_CLASS = 0, NO_KEY = 255 };

static uint8_t
class_key(sli_prop *P, uint8_t *keys, uint8_t k)
{
	if (keys[k] == NO_KEY)
		keys[k] = (k & SLI_OPCLASS_NO_STEP) ||
		          ((k & SLI_OPCLASS_GENERIC) && sli_op_priority_idle_class(k, P->level))
		          ? SKIP_CLASS : sli_prop_quiet_key(P, k);
	return keys[k];
}

/* Whether run_worklist passes op id by, known without touching the op. */
static inline bool
skipped(sli_prop *P, uint8_t *keys, uint32_t id)
{
	uint8_t key = class_key(P, keys, P->opclass[id]), q = P->quiet[id];
	return key == SKIP_CLASS || q == QUIET_ALWAYS || (q && q == key);
}

/*
 * The sweep's look-ahead: on a module that outgrows the caches, the
 * first look at an op is a miss to memory, which overlaps with the
 * visits before it when the op is asked for (prefetched) early enough.
 * Counted in visits, not ops: most levels visit few of the ops, far
 * apart.  `ring` holds the ids asked for and not visited yet, `asked`
 * the first op not looked at yet.
 */
enum { AHEAD = 8 };

typedef struct lookahead {
	uint32_t ring[AHEAD];
	uint32_t head, n;	/* the first entry; how many */
	uint32_t asked;
} lookahead;

/* Asks for ops the sweep will visit until AHEAD are asked beyond id. */
static inline void
look_ahead(sli_prop *P, uint8_t *keys, lookahead *la, uint32_t id)
{
	while (la->n && la->ring[la->head] <= id) {
		la->head = (la->head + 1) % AHEAD;
		la->n--;
	}
	if (la->asked <= id)
		la->asked = id + 1;
	for (; la->n < AHEAD && la->asked < P->nops; la->asked++) {
		if (skipped(P, keys, la->asked))
			continue;
		const char *op = (const char *)P->ops[la->asked];
		__builtin_prefetch(op);
		__builtin_prefetch(op + 64);
		la->ring[(la->head + la->n++) % AHEAD] = la->asked;
	}
}

static void
run_worklist(sli_prop *P)
{
	/*
	 * Every op, the first on top, below whatever is pushed later (push()
	 * for each, without touching ops): the ops not swept yet, from
	 * `next` on, are the bottom of the stack, so that the stack's pages
	 * hold only what is pushed again.
	 */
	uint8_t keys[256];
	memset(keys, NO_KEY, sizeof keys);
	memset(P->queued, 1, P->nops);
	P->nstack = 0;
	uint32_t next = 0;
	lookahead la = {{0}, 0, 0, 0};
	while (P->nstack || next < P->nops) {
		uint32_t id = P->nstack ? P->stack[--P->nstack] : next++;
		P->queued[id] = 0;
		if (skipped(P, keys, id))
			continue;
		look_ahead(P, keys, &la, id);
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
	sli_prop_sync_func_results(P);
	run_worklist(P);
	sli_prop_sync_func_results(P);
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
