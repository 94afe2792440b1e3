/* context.c - interning, the diagnostic sink, context life cycle. */
#include "ir/context.h"
#include "ir/type.h"

#include <stdlib.h>
#include <string.h>

/*
 * The intern table holds sym + 1 (never NULL) as its items, so that the
 * text and length are read from the context's vectors.
 */
typedef struct sym_key {
	const sl_context *ctx;
	const char *s;
	size_t n;
} sym_key;

static bool
sym_eq(const void *item, const void *key)
{
	const sym_key *k = key;
	uint32_t e = (uint32_t)(uintptr_t)item - 1;
	return k->ctx->lens.v[e] == k->n && memcmp(k->ctx->strings.v[e], k->s, k->n) == 0;
}

sl_sym
sl_sym_intern(sl_context *ctx, const char *s, size_t n)
{
	sym_key k = {ctx, s, n};
	uint64_t h = sli_hash_words(s, n);
	sli_hslot *slot = sli_htab_slot(&ctx->syms, h, sym_eq, &k, 1024);
	if (slot->item)
		return (sl_sym)((uintptr_t)slot->item - 1);
	if (n > UINT32_MAX)
		sli_xmalloc(SIZE_MAX);
	sl_sym sym = (sl_sym)ctx->strings.n;
	SL_VEC_PUSH(ctx->strings, sli_arena_strndup(&ctx->strarena, s, n));
	SL_VEC_PUSH(ctx->lens, (uint32_t)n);
	sli_htab_fill(&ctx->syms, slot, h, (void *)((uintptr_t)sym + 1));
	return sym;
}

const char *
sl_sym_str(const sl_context *ctx, sl_sym sym)
{
	return sym < ctx->strings.n ? ctx->strings.v[sym] : "";
}

sl_context *
sl_context_new(void)
{
	sl_context *ctx = sli_xcalloc(1, sizeof *ctx);
	sli_arena_init(&ctx->strarena);
	sli_arena_init(&ctx->typearena);
	static const char *const names[] = {
#define X(id, s) s,
		SL_WELL_KNOWN_SYMS(X)
#undef X
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		sl_sym_intern(ctx, names[i], strlen(names[i]));
	return ctx;
}

void
sl_context_free(sl_context *ctx)
{
	if (!ctx)
		return;
	SL_VEC_FREE(ctx->strings);
	SL_VEC_FREE(ctx->lens);
	SL_VEC_FREE(ctx->opkinds);
	sli_htab_fini(&ctx->syms);
	sli_htab_fini(&ctx->types);
	sli_arena_fini(&ctx->strarena);
	sli_arena_fini(&ctx->typearena);
	free(ctx);
}

void
sl_context_set_diag(sl_context *ctx, sl_diag_fn *fn, void *userdata)
{
	ctx->diag_fn = fn;
	ctx->diag_ud = userdata;
}

unsigned
sl_context_error_count(const sl_context *ctx)
{
	return ctx->errors;
}

void
sli_vdiag(sl_context *ctx, sl_severity sev, sl_loc loc, const char *fmt, va_list ap)
{
	if (sev == SL_DIAG_ERROR)
		ctx->errors++;
	if (!ctx->diag_fn)
		return;
	sli_buf b;
	sli_buf_init(&b);
	sli_buf_vprintf(&b, fmt, ap);
	sl_diag d = {sev, loc, sli_buf_cstr(&b)};
	ctx->diag_fn(ctx->diag_ud, &d);
	sli_buf_fini(&b);
}

void
sli_diag(sl_context *ctx, sl_severity sev, sl_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sli_vdiag(ctx, sev, loc, fmt, ap);
	va_end(ap);
}

void
sl_diag_format(const sl_context *ctx, const sl_diag *d, FILE *out)
{
	static const char *const kind[] = {"error", "warning", "remark", "note"};
	if (d->loc.line)
		fprintf(out, "%s:%u:%u: ", sl_sym_str(ctx, d->loc.file),
		        d->loc.line, d->loc.col);
	else
		fputs("shardlp: ", out);
	fprintf(out, "%s: %s\n", kind[d->severity], d->message);
}
