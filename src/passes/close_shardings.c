/*
 * close_shardings.c - -sdy-close-shardings (export; spec/import-passes.md
 * section 4): every sharding of the module becomes closed on all
 * dimensions and loses its replicated axes; dimension axes, priorities
 * and unreduced axes are kept.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdint.h>
#include <stdlib.h>

/*
 * Closed shardings by the sharding they close.  Propagation leaves one
 * sharding shared by many values, so most lookups hit, and equal inputs
 * keep sharing one output.  Shardings are never mutated.
 */
typedef struct closer {
	const sl_sharding **from;	/* open addressing; NULL = empty */
	sl_sharding **to;		/* NULL: already closed */
	size_t n, cap;			/* cap: a power of two, or 0 */
} closer;

static size_t
slot(const closer *c, const sl_sharding *s)
{
	size_t mask = c->cap - 1;
	size_t j = sli_ptr_hash(s) & mask;
	while (c->from[j] && c->from[j] != s)
		j = (j + 1) & mask;
	return j;
}

static void
grow(closer *c)
{
	closer g = {NULL, NULL, 0, c->cap ? c->cap * 2 : 256};
	g.from = sli_xcalloc(g.cap, sizeof *g.from);
	g.to = sli_xcalloc(g.cap, sizeof *g.to);
	for (size_t i = 0; i < c->cap; i++) {
		if (!c->from[i])
			continue;
		size_t j = slot(&g, c->from[i]);
		g.from[j] = c->from[i];
		g.to[j] = c->to[i];
	}
	g.n = c->n;
	free(c->from);
	free(c->to);
	*c = g;
}

static sl_sharding *
close_new(sl_module *m, const sl_sharding *s)
{
	bool open = s->replicated.n > 0;
	for (uint32_t d = 0; d < s->rank; d++)
		open |= s->dims[d].open;
	if (!open)
		return NULL;
	sl_sharding *r = SL_NEW(&m->arena, sl_sharding);
	*r = *s;
	r->replicated.v = NULL;
	r->replicated.n = 0;
	r->dims = r->rank ? SL_NEWN(&m->arena, sl_dim_sharding, r->rank) : NULL;
	for (uint32_t d = 0; d < r->rank; d++) {
		r->dims[d] = s->dims[d];
		r->dims[d].open = false;
	}
	return r;
}

static sl_sharding *
close_one(sl_module *m, sl_op *op, const sl_sharding *s, void *ud)
{
	(void)op;
	closer *c = ud;
	if (c->n * 2 >= c->cap)
		grow(c);
	size_t j = slot(c, s);
	if (!c->from[j]) {
		c->from[j] = s;
		c->to[j] = close_new(m, s);
		c->n++;
	}
	return c->to[j];
}

int
sli_pass_close_shardings(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	closer c = {NULL, NULL, 0, 0};
	sli_transform_shardings_memo(m, close_one, &c);
	free(c.from);
	free(c.to);
	return 0;
}
