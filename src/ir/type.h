/*
 * type.h - MLIR types as shardlp needs them: ranked and unranked tensors
 * (static and dynamic dims, element type, optional encoding), element
 * types, !stablehlo.token, tuples, function types, and anything else kept
 * as text.  Types are uniqued in the context by their canonical text, so
 * two types are equal iff their pointers are.
 */
#ifndef SL_IR_TYPE_H
#define SL_IR_TYPE_H

#include "ir/context.h"

#define SL_DYN INT64_MIN	/* a dynamic dimension, printed '?' */

typedef enum sl_type_kind {
	SL_TYPE_TENSOR,
	SL_TYPE_ELEM,		/* i32, f32, index, complex<f32>, ... */
	SL_TYPE_TOKEN,		/* !stablehlo.token */
	SL_TYPE_TUPLE,
	SL_TYPE_FUNC,
	SL_TYPE_OTHER		/* any other type, kept as its text */
} sl_type_kind;

struct sl_type {
	sl_type_kind kind;
	bool unranked;		/* tensor<*x...> */
	uint32_t rank;		/* tensor rank; tuple size; function inputs */
	uint32_t nres;		/* function results */
	int64_t *dims;		/* tensor dims, SL_DYN for '?' */
	sl_type *elem;		/* tensor element type */
	sl_type **types;	/* tuple elements; function inputs then results */
	sl_sym text;		/* canonical text, as printed */
	sl_sym enc;		/* tensor encoding attribute text, 0 if none */
	uint32_t bits;		/* element bit width when known, else 0 */
};

sl_type *sli_type_tensor(sl_context *ctx, uint32_t rank, const int64_t *dims,
                         sl_type *elem, sl_sym enc, bool unranked);
sl_type *sli_type_elem(sl_context *ctx, const char *text, size_t n);
sl_type *sli_type_token(sl_context *ctx);
sl_type *sli_type_tuple(sl_context *ctx, uint32_t n, sl_type *const *elems);
sl_type *sli_type_func(sl_context *ctx, uint32_t nin, sl_type *const *in,
                       uint32_t nres, sl_type *const *res);
sl_type *sli_type_other(sl_context *ctx, const char *text, size_t n);

static inline bool
sli_type_is_static(const sl_type *t)
{
	if (t->kind != SL_TYPE_TENSOR || t->unranked)
		return false;
	for (uint32_t i = 0; i < t->rank; i++)
		if (t->dims[i] == SL_DYN)
			return false;
	return true;
}

/* Number of elements of a static tensor (saturating), 1 for scalars. */
int64_t sli_type_num_elements(const sl_type *t);

#endif
