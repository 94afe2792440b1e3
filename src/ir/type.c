/* type.c - construction and uniquing of types by canonical text. */
#include "ir/type.h"

#include <stdlib.h>
#include <string.h>

static bool
type_eq(const void *item, const void *key)
{
	return ((const sl_type *)item)->text == *(const sl_sym *)key;
}

enum { TYPES_MIN = 256 };	/* first size of the type table */

static uint64_t
type_hash(sl_sym text)
{
	return (uint32_t)(text * 2654435761u);
}

/* Finds the type whose canonical text is `text`, or inserts `proto`. */
static sl_type *
unique(sl_context *ctx, sl_type *proto)
{
	uint64_t h = type_hash(proto->text);
	sli_hslot *slot = sli_htab_slot(&ctx->types, h, type_eq, &proto->text, TYPES_MIN);
	if (!slot->item)
		sli_htab_fill(&ctx->types, slot, h,
		              sli_arena_dup(&ctx->typearena, proto, sizeof *proto));
	return slot->item;
}

static sl_sym
intern_buf(sl_context *ctx, sli_buf *b)
{
	sl_sym s = sl_sym_intern(ctx, b->p ? b->p : "", b->n);
	sli_buf_fini(b);
	return s;
}

static uint32_t
elem_bits(const char *s, size_t n)
{
	if (n >= 2 && (s[0] == 'i' || s[0] == 'f')) {
		uint32_t v = 0;
		for (size_t i = 1; i < n; i++) {
			if (s[i] < '0' || s[i] > '9')
				goto named;
			v = v * 10 + (uint32_t)(s[i] - '0');
			if (v > 1u << 20)
				return 0;
		}
		return v;
	}
	if (n >= 3 && (s[0] == 's' || s[0] == 'u') && s[1] == 'i') {
		uint32_t v = 0;
		for (size_t i = 2; i < n; i++) {
			if (s[i] < '0' || s[i] > '9')
				return 0;
			v = v * 10 + (uint32_t)(s[i] - '0');
			if (v > 1u << 20)
				return 0;
		}
		return v;
	}
named:
	if (n == 4 && !memcmp(s, "bf16", 4))
		return 16;
	if (n == 5 && !memcmp(s, "index", 5))
		return 64;
	if (n == 4 && !memcmp(s, "tf32", 4))
		return 32;
	if (n >= 3 && !memcmp(s, "f8E", 3))
		return 8;
	if (n >= 3 && !memcmp(s, "f4E", 3))
		return 4;
	if (n >= 3 && !memcmp(s, "f6E", 3))
		return 6;
	if (n > 9 && !memcmp(s, "complex<", 8))
		return 2 * elem_bits(s + 8, n - 9);
	return 0;
}

sl_type *
sli_type_elem(sl_context *ctx, const char *text, size_t n)
{
	sl_type t = {0};
	t.kind = SL_TYPE_ELEM;
	t.text = sl_sym_intern(ctx, text, n);
	t.bits = elem_bits(text, n);
	return unique(ctx, &t);
}

sl_type *
sli_type_other(sl_context *ctx, const char *text, size_t n)
{
	sl_type t = {0};
	t.kind = SL_TYPE_OTHER;
	t.text = sl_sym_intern(ctx, text, n);
	return unique(ctx, &t);
}

sl_type *
sli_type_token(sl_context *ctx)
{
	sl_type t = {0};
	t.kind = SL_TYPE_TOKEN;
	t.text = sl_sym_intern(ctx, "!stablehlo.token", 16);
	return unique(ctx, &t);
}

sl_type *
sli_type_tensor(sl_context *ctx, uint32_t rank, const int64_t *dims,
                sl_type *elem, sl_sym enc, bool unranked)
{
	sli_buf b;
	sli_buf_init(&b);
	sli_buf_puts(&b, "tensor<");
	if (unranked) {
		sli_buf_puts(&b, "*x");
		rank = 0;
	}
	for (uint32_t i = 0; i < rank; i++) {
		if (dims[i] == SL_DYN)
			sli_buf_putc(&b, '?');
		else
			sli_buf_i64(&b, dims[i]);
		sli_buf_putc(&b, 'x');
	}
	sli_buf_puts(&b, sl_sym_str(ctx, elem->text));
	if (enc) {
		sli_buf_puts(&b, ", ");
		sli_buf_puts(&b, sl_sym_str(ctx, enc));
	}
	sli_buf_putc(&b, '>');
	sl_type t = {0};
	t.kind = SL_TYPE_TENSOR;
	t.text = intern_buf(ctx, &b);
	sl_type *old = sli_htab_find(&ctx->types, type_hash(t.text), type_eq, &t.text,
	                             TYPES_MIN);
	if (old)
		return old;
	t.unranked = unranked;
	t.rank = rank;
	t.elem = elem;
	t.enc = enc;
	t.bits = elem->bits;
	t.dims = sli_arena_dup(&ctx->typearena, dims, sizeof *dims * rank);
	return unique(ctx, &t);
}

static void
put_list(sl_context *ctx, sli_buf *b, uint32_t n, sl_type *const *ts)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			sli_buf_puts(b, ", ");
		sli_buf_puts(b, sl_sym_str(ctx, ts[i]->text));
	}
}

sl_type *
sli_type_tuple(sl_context *ctx, uint32_t n, sl_type *const *elems)
{
	sli_buf b;
	sli_buf_init(&b);
	sli_buf_puts(&b, "tuple<");
	put_list(ctx, &b, n, elems);
	sli_buf_putc(&b, '>');
	sl_type t = {0};
	t.kind = SL_TYPE_TUPLE;
	t.text = intern_buf(ctx, &b);
	t.rank = n;
	t.types = sli_arena_dup(&ctx->typearena, elems, sizeof *elems * n);
	return unique(ctx, &t);
}

sl_type *
sli_type_func(sl_context *ctx, uint32_t nin, sl_type *const *in,
              uint32_t nres, sl_type *const *res)
{
	sli_buf b;
	sli_buf_init(&b);
	sli_buf_putc(&b, '(');
	put_list(ctx, &b, nin, in);
	sli_buf_puts(&b, ") -> ");
	bool paren = nres != 1 || res[0]->kind == SL_TYPE_FUNC;
	if (paren)
		sli_buf_putc(&b, '(');
	put_list(ctx, &b, nres, res);
	if (paren)
		sli_buf_putc(&b, ')');
	sl_type t = {0};
	t.kind = SL_TYPE_FUNC;
	t.text = intern_buf(ctx, &b);
	t.rank = nin;
	t.nres = nres;
	t.types = sli_arena_alloc(&ctx->typearena, sizeof *in * (nin + nres));
	if (nin)
		memcpy(t.types, in, sizeof *in * nin);
	if (nres)
		memcpy(t.types + nin, res, sizeof *res * nres);
	return unique(ctx, &t);
}

int64_t
sli_type_num_elements(const sl_type *t)
{
	if (t->kind != SL_TYPE_TENSOR || t->unranked)
		return 1;
	int64_t n = 1;
	for (uint32_t i = 0; i < t->rank; i++) {
		int64_t d = t->dims[i] == SL_DYN ? 1 : t->dims[i];
		if (d && n > INT64_MAX / d)
			return INT64_MAX;
		n *= d;
	}
	return n;
}
