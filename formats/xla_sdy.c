/*
 * xla_sdy.c - sdy attributes read from the strings XLA and JAX carry them
 * in.  The decoded text is handed to the MLIR reader with its lexer
 * placed at the string's line and column, and every diagnostic of that
 * reading is moved to where its byte was written (escapes widen it).
 */
#include "formats/xla_sdy.h"

#include "formats/mlir_parser.h"

#include <stdlib.h>
#include <string.h>

static unsigned
written_width(unsigned char c)
{
	if (c == '\\')
		return 2;
	return c >= 0x20 && c < 0x7f && c != '"' ? 1 : 3;
}

sl_loc
sli_string_loc(const sl_attr *str, size_t off)
{
	sl_loc l = str->loc;
	if (!l.line || str->kind != SL_ATTR_STRING)
		return l;
	size_t n = off < str->u.s.n ? off : str->u.s.n;
	uint32_t col = l.col + 1;
	for (size_t i = 0; i < n; i++)
		col += written_width((unsigned char)str->u.s.p[i]);
	l.col = col;
	return l;
}

/* The sink that moves diagnostics into the string while it is read. */
typedef struct remap {
	sl_diag_fn *fn;
	void *ud;
	const sl_attr *str;
} remap;

static void
remap_diag(void *ud, const sl_diag *d)
{
	remap *r = ud;
	sl_diag moved = *d;
	sl_loc at = r->str->loc;
	if (at.line && d->loc.file == at.file && d->loc.line == at.line && d->loc.col > at.col)
		moved.loc = sli_string_loc(r->str, d->loc.col - at.col - 1);
	if (r->fn)
		r->fn(r->ud, &moved);
}

sl_attr *
sli_xla_sdy_parse(sl_module *m, const sl_attr *str)
{
	sl_context *ctx = m->ctx;
	sl_loc at = str->loc;
	/* the text starts one column after the quote: pad with that many blanks */
	size_t pad = at.line ? at.col : 0, n = str->u.s.n;
	char *buf = sli_xmalloc(pad + n + 1);
	memset(buf, ' ', pad);
	memcpy(buf + pad, str->u.s.p, n);
	buf[pad + n] = 0;
	remap r = {ctx->diag_fn, ctx->diag_ud, str};
	ctx->diag_fn = remap_diag;
	ctx->diag_ud = &r;
	sl_attr *a = sli_parse_attr_text(m, at.file, buf, pad + n, at.line);
	ctx->diag_fn = r.fn;
	ctx->diag_ud = r.ud;
	free(buf);
	return a;
}
