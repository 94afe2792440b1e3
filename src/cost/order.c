/*
 * order.c - the written order of every tensor's axes (shardlp-cost(7),
 * "The model of a program"): costs do not depend on it, but the solution
 * writes the user's axes first, in the user's order, and dims no user
 * order reaches follow the data flow, so that no unpriced permutation
 * appears between neighbours.
 */
#include "cost/order.h"

#include <stdlib.h>
#include <string.h>

#include "cost/primitives.h"
#include "util/uf.h"

static uint32_t
prefix_len(const int8_t *axes)
{
	uint32_t n = 0;
	while (n < SLI_COST_MAX_AXES && axes[n] >= 0)
		n++;
	return n;
}

/* The dim of tm that holds factor f alone, or -1. */
static int
single_dim(const sl_tensor_mapping *tm, uint32_t f)
{
	for (uint32_t d = 0; tm && d < tm->rank; d++)
		if (tm->dims[d].n == 1 && tm->dims[d].factors[0] == f)
			return (int)d;
	return -1;
}

/*
 * The order row of the dim of operand or result i of co that holds factor
 * f alone, on the tie root of its tensor (ties), or NULL.
 */
static int8_t *
factor_row(sli_cost_model *cm, sli_uf *ties, const sli_cost_op *co, bool result,
           uint32_t i, uint32_t f)
{
	uint32_t t = result ? co->results[i] : co->operands[i];
	if (t == SLI_COST_NO_TENSOR)
		return NULL;
	int d = single_dim(sli_cost_mapping_of(co, result, i), f);
	sli_cost_tensor *rt = &cm->tensors.v[sli_uf_find(ties, t)];
	return d >= 0 && (uint32_t)d < rt->rank ? rt->major[d] : NULL;
}

/*
 * Orders that cost nothing to choose: a dim no user prefix reaches (its
 * order row empty, so no pin looks at it) takes the order of a dim that
 * the same factor of an op maps to, forward then backward through the
 * program, so that written orders agree along the data flow and no
 * hidden permutation (CAVEATS of shardlp-cost(7)) appears between them.
 */
static void
follow_orders(sli_cost_model *cm, sli_uf *ties)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < cm->ops.n; k++) {
			const sli_cost_op *co = &cm->ops.v[pass ? cm->ops.n - 1 - k : k];
			uint32_t nf = co->kind == SLI_COST_OPAQUE ? 0 : co->rule.nfactors;
			for (uint32_t f = 0; f < nf; f++) {
				const int8_t *from = NULL;
				for (int res = 0; res < 2 && !from; res++)
					for (uint32_t i = 0; i < (res ? co->nresults
					                              : co->noperands) && !from; i++) {
						int8_t *row = factor_row(cm, ties, co, res, i, f);
						if (row && row[0] >= 0)
							from = row;
					}
				for (int res = 0; res < 2 && from; res++)
					for (uint32_t i = 0; i < (res ? co->nresults
					                              : co->noperands); i++) {
						int8_t *row = factor_row(cm, ties, co, res, i, f);
						if (row && row[0] < 0)
							memcpy(row, from, SLI_COST_MAX_AXES);
					}
			}
		}
}

/*
 * The written order of every tensor (sli_cost_tensor.major): per dim, the
 * longest user prefix among the tensors tied to it, since tied tensors
 * carry one sharding.  Where two such prefixes disagree no sharding can
 * start with both, so the choice between them changes nothing.  Dims no
 * prefix reaches follow their neighbours' (follow_orders).
 */
void
sli_cost_compute_major(sli_cost_model *cm)
{
	size_t nt = cm->tensors.n;
	sli_uf ties;
	sli_uf_init(&ties, (uint32_t)nt);
	for (size_t i = 0; i < cm->ties.n; i++)
		sli_uf_union(&ties, cm->ties.v[i].a, cm->ties.v[i].b);
	for (size_t t = 0; t < nt; t++) {
		const sli_cost_tensor *ct = &cm->tensors.v[t];
		sli_cost_tensor *rt = &cm->tensors.v[sli_uf_find(&ties, (uint32_t)t)];
		if (!ct->pin.any)
			continue;
		for (uint32_t d = 0; d < ct->rank && d < rt->rank; d++)
			if (prefix_len(ct->pin.axes[d]) > prefix_len(rt->major[d]))
				memcpy(rt->major[d], ct->pin.axes[d], sizeof rt->major[d]);
	}
	follow_orders(cm, &ties);
	for (size_t t = 0; t < nt; t++) {
		uint32_t r = sli_uf_find(&ties, (uint32_t)t);
		if (r != t)
			memcpy(cm->tensors.v[t].major, cm->tensors.v[r].major,
			       sizeof cm->tensors.v[t].major);
	}
	sli_uf_fini(&ties);
}
