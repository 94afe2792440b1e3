/*
 * step.c - one propagation step through an op (spec 7.2): the directions
 * of its factors, projection, basic or aggressive factor propagation and
 * back-projection, then the writes.  Steps are pure functions of the
 * rule, the (interned) shardings, the directions and the strategy, so
 * their outcomes are memoised (step_memo) and an op whose inputs did not
 * change since a step that moved nothing is skipped (signatures, quiet
 * flags).
 */
#include "propagation/prop_internal.h"
#include "ir/access.h"
#include "propagation/factor_propagation.h"

#include <string.h>

static bool
empty_axes(const sl_sharding *s)
{
	for (uint32_t d = 0; d < s->rank; d++)
		if (s->dims[d].axes.n)
			return false;
	return !s->replicated.n && !s->unreduced.n;
}

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
	uint64_t h = sli_prop_mix(1469598103934665603ULL, (uint64_t)(uintptr_t)rule);
	return sli_prop_mix(h, pt * 4u + other);
}

static bool
dirs_eq(const void *item, const void *key)
{
	const dirs_entry *e = item, *k = key;
	return e->rule == k->rule && e->attached == k->attached && e->pt == k->pt &&
	       e->other == k->other;
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
	dirs_entry key = {rule, a->attached, pt, other, NULL};
	uint64_t h = dirs_hash(rule, pt, other);
	sli_hslot *slot = sli_htab_slot(&P->dirs_cache, h, dirs_eq, &key, 256);
	if (slot->item)
		return ((const dirs_entry *)slot->item)->dirs;
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
	*e = key;
	e->dirs = any_dir ? dirs : NULL;
	sli_htab_fill(&P->dirs_cache, slot, h, e);
	return e->dirs;
}

/* A hash of the addresses of the shardings of a step's tensors. */
static uint64_t
shardings_hash(const stensor *ts, uint32_t nt)
{
	uint64_t h = 1469598103934665603ULL;
	for (uint32_t i = 0; i < nt; i++)
		h = sli_prop_mix(h, (uint64_t)(uintptr_t)ts[i].s);
	return h;
}

/* The signature of a step (nonzero) from shardings_hash h of its tensors. */
static uint64_t
step_sig(const sli_prop *P, const step_args *a, uint64_t h, const uint8_t *dirs)
{
	for (uint32_t f = 0; f < a->rule->nfactors; f++)
		h = sli_prop_mix(h, dirs[f]);
	h = sli_prop_mix(h, (uint64_t)(P->aggressive * 2 + a->conservative));
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

/* What a generic step of an op of class k depends on besides the
 * shardings (nonzero). */
uint8_t
sli_prop_quiet_key(sli_prop *P, uint8_t k)
{
	uint8_t pt = SL_DIR_BOTH, other = SL_DIR_BOTH;
	if (P->level >= 0)
		sli_op_priority_dirs_class(P, k, P->level, &pt, &other);
	return (uint8_t)(1 + (pt * 4 + other) * 2 + P->aggressive);
}

static uint8_t
quiet_key(sli_prop *P, const sl_op *op)
{
	return sli_prop_quiet_key(P, sli_op_priority_class(P, op));
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
 * (P->rulemem: built, shared by equal ops, or identity rules, rule.c),
 * shardings as long as the module; entries live in P->memomem.
 */
typedef struct step_memo {
	const sl_rule *rule;
	const sl_mesh *mesh;
	const uint8_t *dirs;		/* from step_dirs; NULL: a settled() entry */
	const sl_sharding **in;		/* nt */
	const sl_sharding **out;	/* nt: the sharding written, or NULL */
	uint32_t nt;
	uint8_t flags;
	bool quiet;			/* moved nothing and agree()s, or settled() */
} step_memo;

static inline bool
memo_equal(const void *item, const void *key)
{
	const step_memo *a = item, *b = key;
	if (a->rule != b->rule || a->mesh != b->mesh || a->flags != b->flags ||
	    a->nt != b->nt || a->dirs != b->dirs)
		return false;
	for (uint32_t i = 0; i < a->nt; i++)
		if (a->in[i] != b->in[i])
			return false;
	return true;
}

/*
 * The slot of key k: its entry, or an empty slot to fill.  h is the
 * shardings_hash of k->in; *hk gets the hash of the whole key.
 */
static sli_hslot *
memo_slot(sli_prop *P, const step_memo *k, uint64_t h, uint64_t *hk)
{
	h = sli_prop_mix(sli_prop_mix(h, (uint64_t)(uintptr_t)k->rule),
	                 (uint64_t)(uintptr_t)k->mesh);
	*hk = sli_prop_mix(sli_prop_mix(h, (uint64_t)(uintptr_t)k->dirs), k->flags);
	return sli_htab_slot(&P->memo, *hk, memo_equal, k, 1024);
}

/* Fills an empty slot (key hash hk) with a copy of k (its arrays too). */
static void
memo_put(sli_prop *P, sli_hslot *slot, uint64_t hk, const step_memo *k)
{
	sli_arena *a = &P->memomem;
	step_memo *e = SL_NEW(a, step_memo);
	*e = *k;
	e->in = sli_arena_dup(a, k->in, sizeof *k->in * k->nt);
	if (k->out)
		e->out = sli_arena_dup(a, k->out, sizeof *k->out * k->nt);
	sli_htab_fill(&P->memo, slot, hk, e);
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
	step_memo k = {a->rule, mesh, NULL, in, NULL, nt, 0, false};
	uint64_t hk;
	sli_hslot *slot = memo_slot(P, &k, h, &hk);
	if (slot->item)
		return ((const step_memo *)slot->item)->quiet;
	k.quiet = settled(P, a, now, nops, nres, mesh, last, was, upd);
	memo_put(P, slot, hk, &k);
	return k.quiet;
}

bool
sli_prop_step(sli_prop *P, const step_args *a, stensor *ts, uint32_t nops, uint32_t nres)
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
	step_memo key = {rule, mesh, dirs, NULL, NULL, nt,
	                 (uint8_t)(P->aggressive * 4 + a->conservative * 2 + a->elementwise),
	                 false};
	sli_hslot *slot = NULL;
	uint64_t hk = 0;
	if (memo) {
		const sl_sharding **in = sli_arena_alloc(&P->scratch, sizeof *in * (nt + 1));
		for (uint32_t i = 0; i < nt; i++)
			in[i] = ts[i].s;
		key.in = in;
		slot = memo_slot(P, &key, h, &hk);
	}
	sli_proj p, before;
	bool *upd = NULL;
	const sl_sharding **out;
	if (slot && slot->item) {
		const step_memo *hit = slot->item;
		out = hit->out;
		key.quiet = hit->quiet;
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
			if ((!was && empty_axes(nw)) || (was && sli_prop_sharding_eq(nw, was)))
				continue;
			o[i] = sli_prop_intern(P, nw);
		}
		out = o;
		/* an op that moves nothing and agrees is quiet for good (plain) */
		key.quiet = !moved && agree(&p);
		if (slot) {
			key.out = out;
			memo_put(P, slot, hk, &key);
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
			stored = sli_sharding_erase_manual(P->m, t->mc, nw);
		else if (t->view == VIEW_MC_RES)
			stored = sli_prop_add_manual(P->m, t->mc,
			                    sli_result_sharding(t->mc, t->mci), nw);
		sl_value *sv = sli_prop_shardable(P, t->v);
		if (!sv)
			continue;
		vals[i] = sv;
		sli_prop_set(P, sv, stored);
		if (a->notify)
			sli_prop_notify_modified(P, sv);
		sli_prop_sync_group(P, sv, stored, a->notify);
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
					sli_prop_plain(P, &now[i], ts[i].v);
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
		if (P->sig[a->op->id] != sig)	/* most stay 0: pages stay unmapped */
			P->sig[a->op->id] = sig;
		set_quiet(P, a, quiet);
	}
	if (changed && P->debug) {
		for (uint32_t i = 0; i < nt; i++)
			if (!vals[i] && ts[i].v)
				vals[i] = sli_prop_shardable(P, ts[i].v);
		sli_prop_debug_step(P, a->op, &before, &p, vals, written, a->func_sync);
	}
	return changed;
}

/* run_worklist has skipped ops without a rule and ops idle at this level. */
void
sli_prop_visit_generic(sli_prop *P, sl_op *op)
{
	uint8_t q = P->quiet[op->id];
	if (q && (q == QUIET_ALWAYS || q == quiet_key(P, op)))
		return;
	const sl_rule *rule = sli_prop_op_rule(P, op);
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
		sli_prop_plain(P, &ts[i], op->operands[i]);
	for (uint32_t i = 0; i < op->nresults; i++)
		sli_prop_plain(P, &ts[op->noperands + i], &op->results[i]);
	sli_prop_step(P, &a, ts, op->noperands, op->nresults);
}
