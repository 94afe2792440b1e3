/*
 * dense_uses.h - use lists of the values used under root (root's
 * operands included), in arrays indexed by value->id (which it
 * overwrites): one walk and no hashing.  A value that is not used there
 * has no uses.  Ownership: the arrays are heap memory freed by fini.
 */
#ifndef SL_PASSES_DENSE_USES_H
#define SL_PASSES_DENSE_USES_H

#include "ir/rewrite.h"

typedef struct sli_dense_uses {
	SL_VEC(const sl_value *) values;	/* value->id is the position */
	uint32_t *first, *count;
	sli_use *pool;
} sli_dense_uses;

void sli_dense_uses_compute(sli_dense_uses *u, sl_op *root);
/* Only the values want() accepts (the others then have no uses). */
void sli_dense_uses_compute_if(sli_dense_uses *u, sl_op *root,
                               bool (*want)(const sl_value *v));
void sli_dense_uses_fini(sli_dense_uses *u);
/* The uses of v in operand order of a pre-order walk; *n their count. */
const sli_use *sli_dense_uses_of(const sli_dense_uses *u, const sl_value *v, size_t *n);

#endif
