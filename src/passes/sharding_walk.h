/*
 * sharding_walk.h - the sharding walker (spec/import-passes.md section
 * 0.3): fn sees every sharding of the module in Shardy's order and
 * returns a replacement (built in the module arena), or NULL to keep it.
 */
#ifndef SL_PASSES_SHARDING_WALK_H
#define SL_PASSES_SHARDING_WALK_H

#include "ir/access.h"

/* Structural equality of two shardings. */
bool sli_sharding_equal(const sl_sharding *a, const sl_sharding *b);

typedef sl_sharding *sli_sharding_fn(sl_module *m, sl_op *op,
                                     const sl_sharding *s, void *ud);
void sli_transform_shardings(sl_module *m, sli_sharding_fn *fn, void *ud);
/*
 * The same for an fn whose replacement of a sharding never depends on the
 * op or on what it saw before (it may only be computed once): equal
 * per-value lists are given once to fn and then share its replacement
 * attribute.  Propagation leaves many equal lists, and one walk makes
 * fewer new attributes.
 */
void sli_transform_shardings_memo(sl_module *m, sli_sharding_fn *fn, void *ud);

#endif
