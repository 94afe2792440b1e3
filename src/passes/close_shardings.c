/*
 * close_shardings.c - -sdy-close-shardings (export; spec/import-passes.md
 * section 4): every sharding of the module becomes closed on all
 * dimensions and loses its replicated axes; dimension axes, priorities
 * and unreduced axes are kept.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

static sl_sharding *
close_one(sl_module *m, sl_op *op, const sl_sharding *s, void *ud)
{
	(void)op;
	(void)ud;
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

int
sli_pass_close_shardings(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_transform_shardings(m, close_one, NULL);
	return 0;
}
