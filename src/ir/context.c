/* context.c - interning, the diagnostic sink, context life cycle. */
#include "ir/context.h"
#include "ir/type.h"

#include <stdlib.h>
#include <string.h>

static void
grow_slots(sl_context *ctx)
{
	size_t n = ctx->nslots ? ctx->nslots * 2 : 1024;
	uint32_t *slots = sli_xcalloc(n, sizeof *slots);
	for (size_t i = 0; i < ctx->nslots; i++) {
		uint32_t s = ctx->slots[i];
		if (!s)
			continue;
		size_t h = sli_hash(ctx->strings.v[s - 1], ctx->lens.v[s - 1]) & (n - 1);
		while (slots[h])
			h = (h + 1) & (n - 1);
		slots[h] = s;
	}
	free(ctx->slots);
	ctx->slots = slots;
	ctx->nslots = n;
}

sl_sym
sl_sym_intern(sl_context *ctx, const char *s, size_t n)
{
	if (ctx->strings.n * 2 >= ctx->nslots)
		grow_slots(ctx);
	size_t mask = ctx->nslots - 1;
	size_t h = sli_hash(s, n) & mask;
	for (;;) {
		uint32_t e = ctx->slots[h];
		if (!e)
			break;
		if (ctx->lens.v[e - 1] == n && memcmp(ctx->strings.v[e - 1], s, n) == 0)
			return e - 1;
		h = (h + 1) & mask;
	}
	if (n > UINT32_MAX)
		sli_xmalloc(SIZE_MAX);
	sl_sym sym = (sl_sym)ctx->strings.n;
	SL_VEC_PUSH(ctx->strings, sli_arena_strndup(&ctx->strarena, s, n));
	SL_VEC_PUSH(ctx->lens, (uint32_t)n);
	ctx->slots[h] = sym + 1;
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
	free(ctx->slots);
	free(ctx->typeslots);
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
