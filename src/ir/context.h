/*
 * context.h - the context: interned names (sl_sym), uniqued types and the
 * diagnostic sink.  It outlives every module parsed with it; types live
 * in its arena and are compared by pointer.
 */
#ifndef SL_IR_CONTEXT_H
#define SL_IR_CONTEXT_H

#include "shardlp.h"
#include "util.h"
#include "ir/arena.h"
#include "util/hash.h"

/* Names the library compares against, interned first in this order. */
#define SL_WELL_KNOWN_SYMS(X) \
	X(empty, "") \
	X(sdy_sharding, "sdy.sharding") \
	X(sdy_sharding_rule, "sdy.sharding_rule") \
	X(sdy_propagation_edges, "sdy.propagation_edges") \
	X(sdy_result_propagation_edges, "sdy.result_propagation_edges") \
	X(sdy_block_arg_propagation_edges, "sdy.block_arg_propagation_edges") \
	X(sym_name, "sym_name") \
	X(sym_visibility, "sym_visibility") \
	X(function_type, "function_type") \
	X(arg_attrs, "arg_attrs") \
	X(res_attrs, "res_attrs") \
	X(callee, "callee") \
	X(value, "value") \
	X(mesh, "mesh") \
	X(sharding, "sharding") \
	X(in_shardings, "in_shardings") \
	X(out_shardings, "out_shardings") \
	X(manual_axes, "manual_axes") \
	X(out_sharding, "out_sharding") \
	X(group_id, "group_id") \
	X(allowed_direction, "allowed_direction") \
	X(gathering_axes, "gathering_axes") \
	X(slicing_axes, "slicing_axes") \
	X(params, "params") \
	X(reduction_axes, "reduction_axes") \
	X(scatter_axes, "scatter_axes") \
	X(axes, "axes") \
	X(reduction_op, "reduction_op") \
	X(name, "name") \
	X(call_target_name, "call_target_name") \
	X(f32, "f32")

enum {
#define X(id, s) SLS_##id,
	SL_WELL_KNOWN_SYMS(X)
#undef X
	SLS__COUNT
};

typedef struct sl_type sl_type;

struct sl_context {
	/* intern table: strings[sym] is the text of sym */
	SL_VEC(const char *) strings;
	SL_VEC(uint32_t) lens;
	sli_htab syms;		/* items: sym + 1, as pointers (context.c) */
	/* op kind + 1 of an op name by its sym, 0 not looked up yet (ir.c):
	 * every op built asks, and hashing its name again cost 3% of parsing */
	SL_VEC(uint16_t) opkinds;
	sli_arena strarena;

	/* uniqued types, keyed by their canonical text symbol */
	sli_htab types;
	sli_arena typearena;

	sl_diag_fn *diag_fn;
	void *diag_ud;
	unsigned errors;
	bool verify_each;	/* pipelines verify after each step (pipeline.h) */
};

/*
 * A hash of short strings eight bytes at a time, for the tables of
 * interning (names, type spellings), whose order nothing sees: FNV-1a
 * (sli_hash) takes a multiply per byte, and every op's name, attribute
 * names and types are interned while parsing.
 */
static inline uint64_t
sli_hash_words(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n, w;
	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	if (n) {
		w = 0;
		memcpy(&w, s, n);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	return h ^ (h >> 29);
}

static inline uint32_t
sli_sym_len(const sl_context *ctx, sl_sym s)
{
	return ctx->lens.v[s];
}

/* Reports a diagnostic; the message is formatted printf-style. */
void sli_diag(sl_context *ctx, sl_severity sev, sl_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void sli_vdiag(sl_context *ctx, sl_severity sev, sl_loc loc, const char *fmt, va_list ap);
#define sli_error(ctx, loc, ...) sli_diag((ctx), SL_DIAG_ERROR, (loc), __VA_ARGS__)

static inline sl_loc
sli_loc_none(void)
{
	sl_loc l = {0, 0, 0};
	return l;
}

#endif
