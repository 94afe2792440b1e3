/*
 * mlir_stablehlo_attrs.c - reading and printing the text of StableHLO
 * dimension numbers.  The reader takes the text the generic attribute
 * reader kept (white space collapsed) and accepts what StableHLO's own
 * parser does: fields in any order, each at most once.  The printer writes
 * MLIR's form: fields in a fixed order, empty lists left out.
 *
 *   dot     = '#stablehlo.dot<' fields '>'
 *   gather  = '#stablehlo.gather<' fields '>'        (scatter alike)
 *   fields  = (field (',' field)*)?
 *   field   = key '=' ('[' (int (',' int)*)? ']' | int)
 *   conv    = '#stablehlo.conv<' (layout | 'raw' fields) '>'
 *   layout  = group 'x' group '->' group
 *   group   = '[' (entry ','?)* ']'       entry = int | '?' | letter
 *   enum    = '#stablehlo<' word ' ' word '>'
 *
 * Of #stablehlo.replica_group_mesh_axes<...> only an inline mesh is read
 * (every `name = "x"` in it and the `size = N` after it); the text around
 * it is kept.
 */
#include "formats/mlir_stablehlo_attrs.h"

#include <ctype.h>
#include <string.h>

typedef sli_i64vec i64vec;

#define NRAW (3 * SL_CONV_NGROUPS)

/* Spatial indices of a layout stay below this (as the custom syntax reads them). */
#define MAX_LAYOUT_INDEX 1000000

/* {====== reading ========================================================= */

typedef struct cursor {
	const char *p, *e;
} cursor;

static bool
is_digit(char ch)
{
	return isdigit((unsigned char)ch);
}

static bool
is_word(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

static void
skip_ws(cursor *c)
{
	while (c->p < c->e && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
		c->p++;
}

/* The literal s, after blanks. */
static bool
accept(cursor *c, const char *s)
{
	size_t n = strlen(s);
	skip_ws(c);
	if ((size_t)(c->e - c->p) < n || memcmp(c->p, s, n) != 0)
		return false;
	c->p += n;
	return true;
}

static bool
at_end(cursor *c)
{
	skip_ws(c);
	return c->p == c->e;
}

/* The key keys[k] spelled at the cursor (after blanks), or -1. */
static int
key(cursor *c, const char *const *keys, int nkeys)
{
	skip_ws(c);
	const char *w = c->p;
	while (c->p < c->e && is_word(*c->p))
		c->p++;
	for (int k = 0; k < nkeys; k++)
		if (strlen(keys[k]) == (size_t)(c->p - w) && memcmp(keys[k], w, (size_t)(c->p - w)) == 0)
			return k;
	return -1;
}

/* An integer with an optional '-', after blanks; false on overflow. */
static bool
integer(cursor *c, int64_t *v)
{
	skip_ws(c);
	bool neg = c->p < c->e && *c->p == '-';
	const char *q = c->p + neg;
	uint64_t x = 0;
	if (q >= c->e || !is_digit(*q))
		return false;
	for (; q < c->e && is_digit(*q); q++) {
		if (x > (UINT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (uint64_t)(*q - '0');
	}
	if (x > (uint64_t)INT64_MAX + neg)
		return false;
	*v = neg ? (int64_t)(0 - x) : (int64_t)x;
	c->p = q;
	return true;
}

/* '[' (int (',' int)*)? ']' appended to out */
static bool
int_list(cursor *c, i64vec *out)
{
	if (!accept(c, "["))
		return false;
	if (accept(c, "]"))
		return true;
	do {
		int64_t v;
		if (!integer(c, &v))
			return false;
		SL_VEC_PUSH(*out, v);
	} while (accept(c, ","));
	return accept(c, "]");
}

/*
 * fields '>': out[k] gets the list of keys[k], or its one integer when k
 * >= nlists; seen[k] tells which were present.  False at an unknown or
 * repeated key or a malformed value.
 */
static bool
read_fields(cursor *c, const char *const *keys, int nkeys, int nlists, i64vec *out, bool *seen)
{
	memset(seen, 0, sizeof *seen * (size_t)nkeys);
	if (accept(c, ">"))
		return true;
	do {
		int k = key(c, keys, nkeys);
		if (k < 0 || seen[k] || !accept(c, "="))
			return false;
		seen[k] = true;
		if (k < nlists) {
			if (!int_list(c, &out[k]))
				return false;
		} else {
			int64_t v;
			if (!integer(c, &v))
				return false;
			SL_VEC_PUSH(out[k], v);
		}
	} while (accept(c, ","));
	return accept(c, ">");
}

static sl_dim_list
as_list(const i64vec *v)
{
	sl_dim_list l = {v->v, (uint32_t)v->n};
	return l;
}

static sl_attr *
read_dot(sl_module *m, cursor *c, sl_loc loc, i64vec *v, bool *seen)
{
	sl_dot_dims d;
	if (!read_fields(c, sli_dot_keys, SL_DOT_NLISTS, SL_DOT_NLISTS, v, seen) || !at_end(c))
		return NULL;
	for (int k = 0; k < SL_DOT_NLISTS; k++)
		d.lists[k] = as_list(&v[k]);
	return sli_attr_dot_dims(m, &d, loc);
}

static sl_attr *
read_gs(sl_module *m, cursor *c, bool scatter, sl_loc loc, i64vec *v, bool *seen)
{
	sl_gs_dims d;
	if (!read_fields(c, scatter ? sli_scatter_keys : sli_gather_keys, SL_GS_NLISTS + 1, SL_GS_NLISTS,
	                 v, seen) || !at_end(c))
		return NULL;
	for (int k = 0; k < SL_GS_NLISTS; k++)
		d.lists[k] = as_list(&v[k]);
	d.has_index_vector_dim = seen[SL_GS_NLISTS];
	d.index_vector_dim = seen[SL_GS_NLISTS] ? v[SL_GS_NLISTS].v[0] : 0;
	return sli_attr_gs_dims(m, scatter, &d, loc);
}

int64_t
sli_conv_letter_code(int g, char ch)
{
	if (g == SL_CONV_KERNEL)
		return ch == 'i' ? SL_CONV_I : ch == 'o' ? SL_CONV_O : 0;
	return ch == 'b' ? SL_CONV_B : ch == 'f' ? SL_CONV_F : 0;
}

bool
sli_conv_group_ok(int g, const int64_t *v, size_t n)
{
	int64_t want[2] = {g == SL_CONV_KERNEL ? SL_CONV_I : SL_CONV_B,
	                   g == SL_CONV_KERNEL ? SL_CONV_O : SL_CONV_F};
	for (int k = 0; k < 2; k++) {
		int seen = 0;
		for (size_t i = 0; i < n; i++)
			seen += v[i] == want[k];
		if (seen != 1)
			return false;
	}
	return true;
}

/* group of layout group g */
static bool
read_group(cursor *c, int g, i64vec *out)
{
	if (!accept(c, "["))
		return false;
	for (;;) {
		skip_ws(c);
		if (c->p >= c->e)
			return false;
		char ch = *c->p;
		if (ch == ']')
			break;
		if (is_digit(ch)) {
			int64_t v;
			if (!integer(c, &v) || v >= MAX_LAYOUT_INDEX)
				return false;
			SL_VEC_PUSH(*out, v);
		} else if (ch == '?') {
			SL_VEC_PUSH(*out, (int64_t)SL_CONV_UNKNOWN);
			c->p++;
		} else if (sli_conv_letter_code(g, ch) && (c->p + 1 >= c->e || !is_word(c->p[1]))) {
			SL_VEC_PUSH(*out, sli_conv_letter_code(g, ch));
			c->p++;
		} else {
			return false;
		}
		accept(c, ",");
	}
	c->p++;
	return sli_conv_group_ok(g, out->v, out->n);
}

/* 'raw' fields '>': every batch and feature dimension given */
static bool
read_raw(cursor *c, sl_conv_dims *d, i64vec *v, bool *seen)
{
	static const int nscalar = 2 * SL_CONV_NGROUPS;
	const char *keys[NRAW];
	int at[NRAW];
	/* the list keys first, as read_fields wants them */
	for (int g = 0, n = 0; g < SL_CONV_NGROUPS; g++, n++) {
		keys[n] = sli_conv_raw_keys[3 * g + 2];
		at[n] = 3 * g + 2;
	}
	for (int g = 0, n = SL_CONV_NGROUPS; g < SL_CONV_NGROUPS; g++) {
		for (int k = 0; k < 2; k++, n++) {
			keys[n] = sli_conv_raw_keys[3 * g + k];
			at[n] = 3 * g + k;
		}
	}
	if (!read_fields(c, keys, NRAW, SL_CONV_NGROUPS, v, seen) || !at_end(c))
		return false;
	for (int n = SL_CONV_NGROUPS; n < SL_CONV_NGROUPS + nscalar; n++)
		if (!seen[n])
			return false;
	d->raw = true;
	for (int n = 0; n < NRAW; n++) {
		int g = at[n] / 3, k = at[n] % 3;
		if (k == 2)
			d->spatial[g] = as_list(&v[n]);
		else if (k == 0)
			d->first[g] = v[n].v[0];
		else
			d->second[g] = v[n].v[0];
	}
	return true;
}

static sl_attr *
read_conv(sl_module *m, cursor *c, sl_loc loc, i64vec *v, bool *seen)
{
	sl_conv_dims d;
	memset(&d, 0, sizeof d);
	cursor save = *c;
	if (key(c, (const char *const[]){"raw"}, 1) == 0) {
		if (!read_raw(c, &d, v, seen))
			return NULL;
		return sli_attr_conv_dims(m, &d, loc);
	}
	*c = save;
	if (!read_group(c, SL_CONV_INPUT, &v[0]) || !accept(c, "x") ||
	    !read_group(c, SL_CONV_KERNEL, &v[1]) || !accept(c, "->") ||
	    !read_group(c, SL_CONV_OUTPUT, &v[2]) || !accept(c, ">") || !at_end(c))
		return NULL;
	for (int g = 0; g < SL_CONV_NGROUPS; g++)
		d.layout[g] = as_list(&v[g]);
	return sli_attr_conv_dims(m, &d, loc);
}

/* The mesh at p, if it is #stablehlo.mesh<...>: its axes into out, its end. */
static const char *
read_inline_mesh(sl_module *m, const char *p, const char *end, sl_mesh *out)
{
	static const char head[] = "#stablehlo.mesh<";
	if ((size_t)(end - p) < sizeof head - 1 || memcmp(p, head, sizeof head - 1) != 0)
		return NULL;
	SL_VEC(sl_mesh_axis) axes = {0};
	int depth = 0;
	const char *q = p;
	for (; q < end; q++) {
		if (*q == '<') {
			depth++;
		} else if (*q == '>') {
			if (--depth == 0)
				break;
		} else if (end - q >= 8 && memcmp(q, "name = \"", 8) == 0) {
			/* the size is in the same axis entry, before its '>' */
			const char *s = q + 8, *e = memchr(s, '"', (size_t)(end - s));
			const char *gt = e ? memchr(e, '>', (size_t)(end - e)) : NULL;
			const char *z = gt ? memmem(e, (size_t)(gt - e), "size = ", 7) : NULL;
			if (!z) {
				SL_VEC_FREE(axes);
				return NULL;
			}
			cursor c = {z + 7, end};
			sl_mesh_axis a = {sl_sym_intern(m->ctx, s, (size_t)(e - s)), 0};
			if (!integer(&c, &a.size))
				a.size = 0;
			SL_VEC_PUSH(axes, a);
			q = z + 7;
		}
	}
	if (q >= end) {
		SL_VEC_FREE(axes);
		return NULL;
	}
	memset(out, 0, sizeof *out);
	out->naxes = (uint32_t)axes.n;
	out->axes = axes.n ? sli_arena_dup(&m->arena, axes.v, sizeof *axes.v * axes.n) : NULL;
	SL_VEC_FREE(axes);
	return q + 1;
}

/* A replica group's `mesh = #stablehlo.mesh<...>`, wherever it is in s. */
static sl_attr *
read_replica_mesh_axes(sl_module *m, const char *s, size_t n, sl_loc loc)
{
	static const char key[] = "mesh = #stablehlo.mesh<";
	s = sli_arena_strndup(&m->arena, s, n);
	const char *end = s + n, *at = memmem(s, n, key, sizeof key - 1);
	sl_replica_mesh_axes r;
	memset(&r, 0, sizeof r);
	if (!at)
		return NULL;
	at += strlen("mesh = ");
	const char *after = read_inline_mesh(m, at, end, &r.mesh);
	if (!after)
		return NULL;
	r.head = s;
	r.nhead = (size_t)(at - s);
	r.mesh_text = at;
	r.nmesh_text = (size_t)(after - at);
	r.tail = after;
	r.ntail = (size_t)(end - after);
	return sli_attr_replica_mesh_axes(m, &r, loc);
}

/* word ' ' word '>' of an enum value, spelled exactly so (it prints back so) */
static sl_attr *
read_enum(sl_module *m, cursor *c, sl_loc loc)
{
	const char *w[2];
	size_t n[2];
	for (int k = 0; k < 2; k++) {
		if (k && (c->p >= c->e || *c->p++ != ' '))
			return NULL;
		w[k] = c->p;
		while (c->p < c->e && is_word(*c->p))
			c->p++;
		n[k] = (size_t)(c->p - w[k]);
		if (!n[k])
			return NULL;
	}
	if (c->e - c->p != 1 || *c->p != '>')
		return NULL;
	return sli_attr_stablehlo_enum(m, sl_sym_intern(m->ctx, w[0], n[0]),
	                               sl_sym_intern(m->ctx, w[1], n[1]), loc);
}

sl_attr *
sli_stablehlo_attr_from_text(sl_module *m, const char *s, size_t n, sl_loc loc)
{
	i64vec v[NRAW];
	bool seen[NRAW];
	cursor c = {s, s + n};
	sl_attr *a = NULL;
	memset(v, 0, sizeof v);
	if (accept(&c, "#stablehlo.dot<"))
		a = read_dot(m, &c, loc, v, seen);
	else if (accept(&c, "#stablehlo.gather<"))
		a = read_gs(m, &c, false, loc, v, seen);
	else if (accept(&c, "#stablehlo.scatter<"))
		a = read_gs(m, &c, true, loc, v, seen);
	else if (accept(&c, "#stablehlo.conv<"))
		a = read_conv(m, &c, loc, v, seen);
	else if (accept(&c, "#stablehlo<"))
		a = read_enum(m, &c, loc);
	else if (accept(&c, "#stablehlo.replica_group_mesh_axes<"))
		a = read_replica_mesh_axes(m, s, n, loc);
	for (int k = 0; k < NRAW; k++)
		SL_VEC_FREE(v[k]);
	return a;
}

/* }====================================================================== */

/* {====== printing ======================================================== */

static void
put_list(sli_buf *b, const sl_dim_list *l)
{
	sli_buf_putc(b, '[');
	for (uint32_t i = 0; i < l->n; i++) {
		if (i)
			sli_buf_puts(b, ", ");
		sli_buf_i64(b, l->v[i]);
	}
	sli_buf_putc(b, ']');
}

/* `key = [..]` for each non-empty list, separated by ", ". */
static void
put_lists(sli_buf *b, const char *const *keys, const sl_dim_list *lists, int n, bool *first)
{
	for (int k = 0; k < n; k++) {
		if (!lists[k].n)
			continue;
		sli_buf_puts(b, *first ? "" : ", ");
		*first = false;
		sli_buf_puts(b, keys[k]);
		sli_buf_puts(b, " = ");
		put_list(b, &lists[k]);
	}
}

static char
letter(int64_t code)
{
	switch (code) {
	case SL_CONV_B:
		return 'b';
	case SL_CONV_F:
		return 'f';
	case SL_CONV_I:
		return 'i';
	case SL_CONV_O:
		return 'o';
	default:
		return '?';
	}
}

void
sli_print_conv_layout(sli_buf *b, const sl_conv_dims *c)
{
	for (int g = 0; g < SL_CONV_NGROUPS; g++) {
		const sl_dim_list *l = &c->layout[g];
		if (g == SL_CONV_KERNEL)
			sli_buf_putc(b, 'x');
		else if (g == SL_CONV_OUTPUT)
			sli_buf_puts(b, "->");
		sli_buf_putc(b, '[');
		for (uint32_t i = 0; i < l->n; i++) {
			if (i)
				sli_buf_puts(b, ", ");
			if (l->v[i] < 0)
				sli_buf_putc(b, letter(l->v[i]));
			else
				sli_buf_i64(b, l->v[i]);
		}
		sli_buf_putc(b, ']');
	}
}

static void
put_raw(sli_buf *b, const sl_conv_dims *c)
{
	sli_buf_puts(b, "raw ");
	for (int g = 0; g < SL_CONV_NGROUPS; g++) {
		sli_buf_printf(b, "%s%s = ", g ? ", " : "", sli_conv_raw_keys[3 * g]);
		sli_buf_i64(b, c->first[g]);
		sli_buf_printf(b, ", %s = ", sli_conv_raw_keys[3 * g + 1]);
		sli_buf_i64(b, c->second[g]);
		sli_buf_printf(b, ", %s = ", sli_conv_raw_keys[3 * g + 2]);
		put_list(b, &c->spatial[g]);
	}
}

void
sli_print_stablehlo_attr(sli_buf *b, const sl_context *ctx, const sl_attr *a)
{
	bool first = true;
	switch (a->kind) {
	case SL_ATTR_STABLEHLO_ENUM:
		sli_buf_puts(b, "#stablehlo<");
		sli_buf_puts(b, sl_sym_str(ctx, a->u.shlo_enum.mnemonic));
		sli_buf_putc(b, ' ');
		sli_buf_puts(b, sl_sym_str(ctx, a->u.shlo_enum.keyword));
		break;
	case SL_ATTR_REPLICA_MESH_AXES: {
		const sl_replica_mesh_axes *r = a->u.rmesh;
		sli_buf_put(b, r->head, r->nhead);
		if (r->mesh_name) {
			sli_buf_putc(b, '@');
			sli_buf_puts(b, sl_sym_str(ctx, r->mesh_name));
		} else {
			sli_buf_put(b, r->mesh_text, r->nmesh_text);
		}
		sli_buf_put(b, r->tail, r->ntail);
		return;	/* the tail holds the closing '>' */
	}
	case SL_ATTR_DOT_DIMS:
		sli_buf_puts(b, "#stablehlo.dot<");
		put_lists(b, sli_dot_keys, a->u.dot->lists, SL_DOT_NLISTS, &first);
		break;
	case SL_ATTR_GATHER_DIMS:
	case SL_ATTR_SCATTER_DIMS: {
		bool scatter = a->kind == SL_ATTR_SCATTER_DIMS;
		const sl_gs_dims *d = a->u.gs;
		sli_buf_puts(b, scatter ? "#stablehlo.scatter<" : "#stablehlo.gather<");
		put_lists(b, scatter ? sli_scatter_keys : sli_gather_keys, d->lists, SL_GS_NLISTS, &first);
		if (d->has_index_vector_dim || d->index_vector_dim) {
			sli_buf_puts(b, first ? "index_vector_dim = " : ", index_vector_dim = ");
			sli_buf_i64(b, d->index_vector_dim);
		}
		break;
	}
	case SL_ATTR_CONV_DIMS:
		sli_buf_puts(b, "#stablehlo.conv<");
		if (a->u.conv->raw)
			put_raw(b, a->u.conv);
		else
			sli_print_conv_layout(b, a->u.conv);
		break;
	default:
		SL_UNREACHABLE();
	}
	sli_buf_putc(b, '>');
}

/* }====================================================================== */
