/*
 * dense_uses.c - use lists of the values under an op in arrays indexed by
 * value->id: one walk and a counting sort, no hashing.
 */
#include "passes/dense_uses.h"

#include <stdlib.h>
#include <string.h>

static bool
dense_known(const sli_dense_uses *u, const sl_value *v)
{
	return v->id < u->values.n && u->values.v[v->id] == v;
}

/*
 * Numbers the values used under the root and records each use with the
 * number of its value, in walk order: one walk, then a counting sort.
 */
typedef struct dense_pair {
	uint32_t id, i;
	sl_op *op;
} dense_pair;

typedef struct dense_numbering {
	sli_dense_uses *u;
	bool (*want)(const sl_value *v);
	SL_VEC(uint32_t) count;
	SL_VEC(dense_pair) pairs;
} dense_numbering;

static int
dense_number(sl_op *op, void *ud)
{
	dense_numbering *d = ud;
	sli_dense_uses *u = d->u;
	for (uint32_t i = 0; i < op->noperands; i++) {
		sl_value *v = op->operands[i];
		if (!v || (d->want && !d->want(v)))
			continue;
		if (dense_known(u, v)) {
			d->count.v[v->id]++;
		} else {
			v->id = (uint32_t)u->values.n;
			SL_VEC_PUSH(u->values, v);
			SL_VEC_PUSH(d->count, 1);
		}
		dense_pair p = {v->id, i, op};
		SL_VEC_PUSH(d->pairs, p);
	}
	return 0;
}

void
sli_dense_uses_compute(sli_dense_uses *u, sl_op *root)
{
	sli_dense_uses_compute_if(u, root, NULL);
}

void
sli_dense_uses_compute_if(sli_dense_uses *u, sl_op *root,
                          bool (*want)(const sl_value *v))
{
	memset(u, 0, sizeof *u);
	dense_numbering d = {u, want, {0}, {0}};
	sli_walk(root, dense_number, &d);
	size_t n = u->values.n ? u->values.n : 1;
	u->first = sli_xcalloc(n, sizeof *u->first);
	SL_VEC_RESERVE(d.count, 1);
	u->count = d.count.v;
	size_t total = 0;
	for (size_t i = 0; i < u->values.n; i++) {
		u->first[i] = (uint32_t)total;
		total += u->count[i];
		u->count[i] = 0;
	}
	u->pool = sli_xmalloc(sizeof *u->pool * (total ? total : 1));
	for (size_t k = 0; k < d.pairs.n; k++) {
		const dense_pair *p = &d.pairs.v[k];
		sli_use x = {p->op, p->i};
		u->pool[u->first[p->id] + u->count[p->id]++] = x;
	}
	SL_VEC_FREE(d.pairs);
}

void
sli_dense_uses_fini(sli_dense_uses *u)
{
	SL_VEC_FREE(u->values);
	free(u->first);
	free(u->count);
	free(u->pool);
	memset(u, 0, sizeof *u);
}

const sli_use *
sli_dense_uses_of(const sli_dense_uses *u, const sl_value *v, size_t *n)
{
	if (!dense_known(u, v)) {
		*n = 0;
		return NULL;
	}
	*n = u->count[v->id];
	return u->pool + u->first[v->id];
}
