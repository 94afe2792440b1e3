/*
 * resolve_permutation_factors.c - -sdy-resolve-permutation-factors
 * (sdy_export_passes.md): an op whose sharding rule has a permutation
 * factor (a pad's or slice's padded dimension, a reverse, a convolution's
 * or window's spatial dimension) that some tensor shards would need
 * devices to exchange data; the pass makes every such dimension
 * replicated instead.
 *
 * Per op with such a factor (the one strategy of enable-halo-exchange=
 * false, the REPL prefix of resolve_permutation_factors/000):
 *
 *   - each operand with a sharding that shards a dimension holding a
 *     sharded permutation factor is resharded, right before the op, to
 *     its sharding with those dimensions' axes taken off;
 *   - each result gets the same treatment: the op produces it with those
 *     dimensions replicated, and a reshard right after the op brings it
 *     back to its own sharding, which the later users read.
 *
 * A dimension is cleared whole when it holds a sharded permutation factor
 * (a reshape's dimension may hold several factors): the result is
 * replicated along it, which is always correct, where Shardy may keep a
 * part of the axes.
 *
 * Left undone, inferred from the cases: the halo exchange of
 * enable-halo-exchange=true (collective permutes inside a manual
 * computation, the HALO prefix) and Shardy's communication-free cases
 * (a pad or slice whose shards need no data of their neighbours, a
 * reshape whose split keeps each shard whole); the option is accepted and
 * both settings replicate.  resolve_permutation_factors/000 does not
 * pass.
 */
#include "passes/pass.h"
#include <stdlib.h>

#include "passes/passutil.h"

#include "ir/access.h"
#include "ir/rewrite.h"
#include "rules/rules.h"

typedef struct resolver {
	sl_module *m;
	sli_rule_opts ropts;
	sli_arena rules;	/* the rules the registry builds */
	sli_vmap subst;		/* results to the reshard their users read */
} resolver;

static const sl_tensor_mapping *
mapping(const sl_rule *r, const sl_op *op, uint32_t t)
{
	return t < op->noperands ? &r->operands[t] : &r->results[t - op->noperands];
}

static const sl_sharding *
tensor_sharding(sl_module *m, const sl_op *op, uint32_t t)
{
	return t < op->noperands ? sli_value_sharding_seen(m, op->operands[t])
	                         : sli_result_sharding(op, t - op->noperands);
}

/* Whether dimension d of a tensor (its mapping and sharding) has axes. */
static bool
dim_sharded(const sl_sharding *s, const sl_tensor_mapping *map, uint32_t d)
{
	return s && d < s->rank && d < map->rank && s->dims[d].axes.n;
}

/*
 * The permutation factors that some tensor of op shards, as flags per
 * factor in `hot`; whether there is one.
 */
static bool
sharded_permutations(resolver *R, const sl_op *op, const sl_rule *r, bool *hot)
{
	bool any = false;
	for (uint32_t t = 0; t < op->noperands + op->nresults; t++) {
		const sl_tensor_mapping *map = mapping(r, op, t);
		const sl_sharding *s = tensor_sharding(R->m, op, t);
		for (uint32_t d = 0; d < map->rank; d++) {
			if (!dim_sharded(s, map, d))
				continue;
			for (uint32_t k = 0; k < map->dims[d].n; k++) {
				uint32_t f = map->dims[d].factors[k];
				if (sli_rule_factor_kind(r, f) == SLI_FACTOR_PERMUTATION) {
					hot[f] = true;
					any = true;
				}
			}
		}
	}
	return any;
}

/* s with the axes of every dimension holding a hot factor taken off, or
 * NULL when none of those dimensions has axes. */
static sl_sharding *
cleared(sl_module *m, const sl_sharding *s, const sl_tensor_mapping *map, const bool *hot)
{
	sl_sharding *c = NULL;
	for (uint32_t d = 0; d < map->rank; d++) {
		bool clear = false;
		for (uint32_t k = 0; k < map->dims[d].n; k++)
			clear |= hot[map->dims[d].factors[k]];
		if (!clear || !dim_sharded(s, map, d))
			continue;
		if (!c) {
			c = SL_NEW(&m->arena, sl_sharding);
			*c = *s;
			c->dims = SL_NEWN(&m->arena, sl_dim_sharding, s->rank);
			for (uint32_t e = 0; e < s->rank; e++)
				c->dims[e] = s->dims[e];
		}
		c->dims[d].axes = (sl_axis_list){NULL, 0};
	}
	return c;
}

/* A reshard of v to `to` for op, placed before `at`; its result. */
static sl_value *
reshard_before(sl_module *m, const sl_op *op, sl_op *at, sl_value *v, const sl_sharding *to)
{
	sl_op *rs = sli_op_create(m, SL_OP_SDY_RESHARD, &v, 1, &v->type, 1, 0);
	rs->loc = op->loc;
	sli_result_set_sharding(m, rs, 0, to);
	sli_op_insert_before(at, rs);
	return &rs->results[0];
}

/* Replicates op's dimensions of sharded permutation factors (file comment). */
static void
resolve_op(resolver *R, sl_op *op, const sl_rule *r, const bool *hot)
{
	sl_module *m = R->m;
	for (uint32_t i = 0; i < op->noperands; i++) {
		const sl_sharding *s = sli_value_sharding_seen(m, op->operands[i]);
		sl_sharding *c = s ? cleared(m, s, &r->operands[i], hot) : NULL;
		if (!c)
			continue;
		op->operands[i] = reshard_before(m, op, op, op->operands[i], c);
	}
	sl_op *at = op->next;
	for (uint32_t j = 0; j < op->nresults; j++) {
		sl_sharding *s = sli_result_sharding(op, j);
		sl_sharding *c = s ? cleared(m, s, &r->results[j], hot) : NULL;
		if (!c)
			continue;
		sl_value *back = reshard_before(m, op, at, &op->results[j], s);
		sli_result_set_sharding(m, op, j, c);
		sli_vmap_set(&R->subst, &op->results[j], back);
	}
}

static int
visit(sl_op *op, void *ud)
{
	resolver *R = ud;
	for (uint32_t i = 0; R->subst.n && i < op->noperands; i++) {
		sl_value *to = sli_vmap_lookup(&R->subst, op->operands[i]);
		if (to->def != op)	/* not the reshard that reads the result */
			op->operands[i] = to;
	}
	if (op->kind == SL_OP_FUNC || op->kind == SL_OP_SDY_RESHARD || !op->nresults)
		return 0;
	sl_rule r;
	if (sli_rule_for_op(R->m, op, &R->ropts, &r) != SLI_RULE_FOUND || r.custom ||
	    r.noperands != op->noperands || r.nresults != op->nresults || !r.nfactors)
		return 0;
	bool *hot = sli_xcalloc(r.nfactors, sizeof *hot);
	if (sharded_permutations(R, op, &r, hot))
		resolve_op(R, op, &r, hot);
	free(hot);
	return 0;
}

int
sli_pass_resolve_permutation_factors(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;	/* enable-halo-exchange: both settings replicate */
	resolver R = {m, {0}, {0}, {0}};
	sli_arena_init(&R.rules);
	R.ropts.arena = &R.rules;
	sli_vmap_init(&R.subst);
	int rc = sli_walk(m->top, visit, &R);
	sli_vmap_fini(&R.subst);
	sli_rule_opts_fini(&R.ropts);
	sli_arena_fini(&R.rules);
	return rc ? -1 : 0;
}
