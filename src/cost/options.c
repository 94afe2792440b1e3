/*
 * options.c - the valid shardings of a tensor and the valid factor
 * assignments of an op (shardlp-cost(7), "The model of a program" and
 * "Constraints"): each axis on at most one dimension or factor, the
 * divisibility rule, the user's pins and written orders, manual axes
 * kept off.  The evaluator and the ILP enumerate the same options here.
 */
#include "cost/options.h"

#include <string.h>

#include "cost/primitives.h"

uint32_t
sli_cost_dim_axes(const sli_cost_model *cm, const int8_t *major,
                  const sli_cost_asg *q, uint32_t d, int8_t *out)
{
	uint32_t n = 0, seen = 0;
	for (uint32_t k = 0; major && k < SLI_COST_MAX_AXES && major[k] >= 0; k++)
		if (q->a[major[k]] == (int8_t)d) {
			out[n++] = major[k];
			seen |= 1u << major[k];
		}
	for (uint32_t a = 0; a < cm->naxes; a++)
		if (q->a[a] == (int8_t)d && !(seen >> a & 1))
			out[n++] = (int8_t)a;
	return n;
}

bool
sli_cost_pin_allows(const sli_cost_model *cm, const sli_cost_tensor *ct,
                    const sli_cost_pin *pin,
                    const int8_t (*major)[SLI_COST_MAX_AXES],
                    const sli_cost_asg *q)
{
	if (ct->fixed)
		return !memcmp(ct->fixed->a, q->a, cm->naxes);
	if (cm->nmeshes > 1 && sli_cost_asg_mesh(cm, q) == -2)
		return false;
	for (uint32_t a = 0; a < cm->naxes; a++) {
		if (q->a[a] < 0)
			continue;
		if ((uint32_t)q->a[a] >= ct->rank || (ct->forbidden >> a & 1) ||
		    (pin->replicated >> a & 1))
			return false;
	}
	for (uint32_t d = 0; d < ct->rank; d++) {
		int64_t n = sli_cost_dim_shards(cm, q, d);
		/* a dim of size 0 holds nothing: any axes fit it, as in Shardy */
		bool fits = n <= 1 || ct->dims[d] == 0 ||
		            (cm->params.conservative ? ct->dims[d] % n == 0
		                                     : n <= ct->dims[d]);
		if (!pin->any) {
			if (!fits)
				return false;
			continue;
		}
		/* the axes on d as written start with the user's (are all of
		 * them when closed) */
		int8_t w[SLI_COST_MAX_AXES];
		uint32_t nw = sli_cost_dim_axes(cm, major[d], q, d, w), k;
		for (k = 0; k < SLI_COST_MAX_AXES && pin->axes[d][k] >= 0; k++)
			if (k >= nw || w[k] != pin->axes[d][k])
				return false;
		if (pin->closed[d] && nw != k)
			return false;
		/* the user's own axes may overflow the dim (or shard a
		 * dim of size 0), as Shardy lets them; none may be added */
		if (!fits && !(k > 0 && nw == k))
			return false;
	}
	return true;
}

bool
sli_cost_asg_apart(const sli_cost_model *cm, const sli_cost_asg *q)
{
	/* (the pieces of an axis are consecutive model axes; a piece after
	 * the first has a pre-size above 1) */
	for (uint32_t a = 1; a < cm->naxes; a++)
		if (cm->axis_pre[a] > 1 && q->a[a] != q->a[a - 1])
			return true;
	return false;
}

bool
sli_cost_tensor_allows(const sli_cost_model *cm, uint32_t t, const sli_cost_asg *q)
{
	const sli_cost_tensor *ct = &cm->tensors.v[t];
	if (ct->whole && sli_cost_asg_apart(cm, q))
		return false;
	return sli_cost_pin_allows(cm, ct, &ct->pin, ct->major, q);
}

bool
sli_cost_op_allows(const sli_cost_model *cm, uint32_t o, const sli_cost_asg *s)
{
	const sli_cost_op *co = &cm->ops.v[o];
	const sl_rule *r = &co->rule;
	uint32_t nf = co->kind == SLI_COST_OPAQUE ? 0 : r->nfactors;

	/* tensors on different meshes share no factor */
	if (cm->nmeshes > 1 && sli_cost_asg_mesh(cm, s) == -2)
		return false;
	for (uint32_t a = 0; a < cm->naxes; a++) {
		int f = s->a[a];
		if (f < 0)
			continue;
		if ((uint32_t)f >= nf || (co->forbidden >> a & 1))
			return false;
		sli_factor_kind k = sli_rule_factor_kind(r, (uint32_t)f);
		if (k == SLI_FACTOR_NEED_REPLICATION || k == SLI_FACTOR_PERMUTATION ||
		    sli_rule_factor_blocked(r, (uint32_t)f))
			return false;
	}
	for (uint32_t f = 0; f < nf; f++) {
		int64_t n = sli_cost_factor_shards(cm, s, f);
		if (n > 1 && r->factor_sizes[f] != 0 &&
		    (cm->params.conservative ? r->factor_sizes[f] % n != 0
		                             : n > r->factor_sizes[f]))
			return false;
	}
	/* every sharded factor a result has must be expressible there */
	for (uint32_t i = 0; i < co->nresults; i++) {
		const sl_tensor_mapping *tm = sli_cost_mapping_of(co, true, i);
		if (!tm)
			continue;
		for (uint32_t a = 0; a < cm->naxes; a++) {
			if (s->a[a] < 0)
				continue;
			uint32_t f = (uint32_t)s->a[a];
			bool has = false;
			for (uint32_t d = 0; d < tm->rank && !has; d++)
				for (uint32_t k = 0; k < tm->dims[d].n; k++)
					if (tm->dims[d].factors[k] == f)
						has = true;
			if (has && sli_cost_factor_dim(cm, r, tm, s, f) < 0)
				return false;
		}
	}
	return true;
}

/*
 * Steps q to the next assignment of its first naxes axes to {-1, 0..n-1}
 * (axis 0 counting fastest, from all -1); false after the last.
 */
static bool
next_asg(sli_cost_asg *q, uint32_t naxes, uint32_t n)
{
	for (uint32_t a = 0; a < naxes; a++) {
		if (q->a[a] + 1 < (int)n) {
			q->a[a]++;
			return true;
		}
		q->a[a] = SLI_COST_NONE;
	}
	return false;
}

/* The assignments of naxes axes to {-1, 0..n-1} that ok takes, in order. */
static size_t
enumerate(uint32_t naxes, uint32_t n, bool (*ok)(const sli_cost_model *, uint32_t,
          const sli_cost_asg *), const sli_cost_model *cm, uint32_t idx,
          sli_cost_asg **out)
{
	SL_VEC(sli_cost_asg) v = {0};
	sli_cost_asg q;
	memset(q.a, SLI_COST_NONE, sizeof q.a);
	do {
		if (ok(cm, idx, &q))
			SL_VEC_PUSH(v, q);
	} while (next_asg(&q, naxes, n));
	*out = v.v;
	return v.n;
}

size_t
sli_cost_tensor_options(const sli_cost_model *cm, uint32_t t, sli_cost_asg **out)
{
	return enumerate(cm->naxes, cm->tensors.v[t].rank, sli_cost_tensor_allows,
	                 cm, t, out);
}

/* Per op: its valid assignments once enumerated (opt NULL before). */
struct sli_cost_op_memo {
	size_t nops;
	sli_cost_asg **opt;
	size_t *n;
};

sli_cost_op_memo *
sli_cost_op_memo_new(size_t nops)
{
	sli_cost_op_memo *m = sli_xcalloc(1, sizeof *m);
	m->nops = nops;
	m->opt = sli_xcalloc(nops + 1, sizeof *m->opt);
	m->n = sli_xcalloc(nops + 1, sizeof *m->n);
	return m;
}

void
sli_cost_op_memo_free(sli_cost_op_memo *m)
{
	if (!m)
		return;
	for (size_t o = 0; o < m->nops; o++)
		free(m->opt[o]);
	free(m->opt);
	free(m->n);
	free(m);
}

size_t
sli_cost_op_options(const sli_cost_model *cm, uint32_t o, sli_cost_asg **out)
{
	const sli_cost_op *co = &cm->ops.v[o];
	uint32_t nf = co->kind == SLI_COST_OPAQUE ? 0 : co->rule.nfactors;
	sli_cost_op_memo *m = cm->op_memo;
	if (!m || o >= m->nops)
		return enumerate(cm->naxes, nf, sli_cost_op_allows, cm, o, out);
	if (!m->opt[o]) {
		m->n[o] = enumerate(cm->naxes, nf, sli_cost_op_allows, cm, o, &m->opt[o]);
		if (!m->opt[o])	/* none, and known */
			m->opt[o] = sli_xmalloc(sizeof *m->opt[o]);
	}
	*out = sli_xmalloc((m->n[o] + 1) * sizeof **out);
	memcpy(*out, m->opt[o], m->n[o] * sizeof **out);
	return m->n[o];
}

void
sli_cost_result_options(sli_cost_model *cm, sli_cost_op *co, uint32_t i,
                        const sli_cost_pin *pin)
{
	const sli_cost_tensor *ct = &cm->tensors.v[co->operands[i]];
	bool open = false;
	for (uint32_t d = 0; d < ct->rank; d++)
		open |= !pin->closed[d];
	if (!open || ct->fixed)
		return;
	SL_VEC(sli_cost_asg) v = {0};
	SL_VEC_PUSH(v, co->req[i]);
	sli_cost_asg q;
	memset(q.a, SLI_COST_NONE, sizeof q.a);
	do {
		if (sli_cost_pin_allows(cm, ct, pin, pin->axes, &q) &&
		    memcmp(q.a, co->req[i].a, sizeof q.a))
			SL_VEC_PUSH(v, q);
	} while (next_asg(&q, cm->naxes, ct->rank));
	if (!co->ropt) {
		co->ropt = SL_NEWN(&cm->arena, sli_cost_asg *, co->noperands + 1);
		co->nropt = SL_NEWN(&cm->arena, uint32_t, co->noperands + 1);
	}
	co->ropt[i] = SL_NEWN(&cm->arena, sli_cost_asg, v.n);
	memcpy(co->ropt[i], v.v, v.n * sizeof *v.v);
	co->nropt[i] = (uint32_t)v.n;
	SL_VEC_FREE(v);
}
