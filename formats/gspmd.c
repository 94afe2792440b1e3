/*
 * gspmd.c - HLO sharding strings (GSPMD's form), read by hand-written
 * recursive descent, and the sdy mesh whose axes express them: every
 * iota device order `<=[r0,r1,...]T(perm)` is a mesh of axes r0, r1, ...
 * (major first) whose axes the tile dimensions take in transposed order;
 * where a tile dimension ends inside an axis, the axis is split there.
 * One mesh serves a set of shardings when the splits of all of them nest
 * (each cut divides the next), as in XLA's import of GSPMD shardings.
 */
#include "formats/gspmd.h"

#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ====================================================================
 * Reading
 * ==================================================================== */

typedef struct rd {
	sli_arena *a;
	const char *s;
	size_t n, i;
	size_t err_off;
	char *msg;
	size_t msglen;
	int depth;
} rd;

static int
fail(rd *R, const char *what)
{
	R->err_off = R->i;
	snprintf(R->msg, R->msglen, "%s", what);
	return -1;
}

static void
skip_ws(rd *R)
{
	while (R->i < R->n && (R->s[R->i] == ' ' || R->s[R->i] == '\t' || R->s[R->i] == '\n'))
		R->i++;
}

static bool
peek(rd *R, char c)
{
	skip_ws(R);
	return R->i < R->n && R->s[R->i] == c;
}

static bool
accept(rd *R, char c)
{
	if (!peek(R, c))
		return false;
	R->i++;
	return true;
}

static int
expect(rd *R, char c, const char *what)
{
	return accept(R, c) ? 0 : fail(R, what);
}

/* Accepts keyword kw when it is not followed by more of a word. */
static bool
accept_kw(rd *R, const char *kw)
{
	skip_ws(R);
	size_t k = strlen(kw);
	if (R->n - R->i < k || memcmp(R->s + R->i, kw, k))
		return false;
	char c = R->i + k < R->n ? R->s[R->i + k] : 0;
	if ((c >= 'a' && c <= 'z') || c == '_')
		return false;
	R->i += k;
	return true;
}

/* int = [0-9]+, fitting in int64_t */
static int
read_int(rd *R, int64_t *out)
{
	skip_ws(R);
	if (R->i >= R->n || R->s[R->i] < '0' || R->s[R->i] > '9')
		return fail(R, "expected integer in sharding");
	int64_t v = 0;
	size_t at = R->i;
	while (R->i < R->n && R->s[R->i] >= '0' && R->s[R->i] <= '9') {
		int d = R->s[R->i] - '0';
		if (v > (INT64_MAX - d) / 10) {
			R->i = at;
			return fail(R, "integer too large in sharding");
		}
		v = v * 10 + d;
		R->i++;
	}
	*out = v;
	return 0;
}

typedef SL_VEC(int64_t) i64vec;

/* ints = int (',' int)*, closed by `close` (not consumed) */
static int
read_ints(rd *R, i64vec *v, char close)
{
	if (peek(R, close))
		return 0;
	do {
		int64_t x;
		if (read_int(R, &x))
			return -1;
		SL_VEC_PUSH(*v, x);
	} while (accept(R, ','));
	return 0;
}

static int64_t *
keep(rd *R, const i64vec *v)
{
	return v->n ? sli_arena_dup(R->a, v->v, sizeof *v->v * v->n) : NULL;
}

/* '[' int (',' int)* ']' of positive sizes, into the arena */
static int
read_dims(rd *R, int64_t **out, uint32_t *n)
{
	i64vec v = {0};
	int rc = -1;
	if (expect(R, '[', "expected '[' in sharding"))
		goto done;
	while (!peek(R, ']')) {
		int64_t x;
		size_t at = R->i;
		if (read_int(R, &x))
			goto done;
		if (x < 1) {
			R->i = at;
			fail(R, "dimension sizes must be positive in sharding");
			goto done;
		}
		SL_VEC_PUSH(v, x);
		if (!accept(R, ','))
			break;
	}
	if (expect(R, ']', "expected ']' in sharding"))
		goto done;
	*out = keep(R, &v);
	*n = (uint32_t)v.n;
	rc = 0;
done:
	SL_VEC_FREE(v);
	return rc;
}

/* metadata = '{' ... '}' with strings; skipped */
static int
skip_braced(rd *R)
{
	if (expect(R, '{', "expected '{' after 'metadata='"))
		return -1;
	int depth = 1;
	while (R->i < R->n && depth) {
		char c = R->s[R->i++];
		if (c == '"') {
			while (R->i < R->n && R->s[R->i] != '"')
				R->i += R->s[R->i] == '\\' ? 2 : 1;
			R->i++;
		} else if (c == '{') {
			depth++;
		} else if (c == '}') {
			depth--;
		}
	}
	return depth ? fail(R, "unterminated metadata in sharding") : 0;
}

/* last_tile_dims = '{' ('manual' | 'replicated') (',' ...)* '}' */
static int
read_subgroups(rd *R, sli_hlo_sharding *h)
{
	SL_VEC(sli_hlo_kind) v = {0};
	if (expect(R, '{', "expected '{' after 'last_tile_dims='"))
		return -1;
	do {
		if (accept_kw(R, "manual"))
			SL_VEC_PUSH(v, SLI_HLO_MANUAL);
		else if (accept_kw(R, "replicated"))
			SL_VEC_PUSH(v, SLI_HLO_REPLICATED);
		else {
			SL_VEC_FREE(v);
			return fail(R, "expected 'manual' or 'replicated' in last_tile_dims");
		}
	} while (accept(R, ','));
	h->nsub = (uint32_t)v.n;
	h->subgroups = sli_arena_dup(R->a, v.v, sizeof *v.v * v.n);
	SL_VEC_FREE(v);
	return expect(R, '}', "expected '}' after last_tile_dims");
}

/* The device order after devices=[...]: `<=[dims] (T(perm))?` or a list. */
static int
read_order(rd *R, sli_hlo_sharding *h)
{
	skip_ws(R);
	if (R->i + 1 < R->n && R->s[R->i] == '<' && R->s[R->i + 1] == '=') {
		R->i += 2;
		if (read_dims(R, &h->iota, &h->niota))
			return -1;
		if (!h->niota)
			return fail(R, "expected iota dimensions in sharding");
		if (accept(R, 'T')) {
			size_t at = R->i;
			i64vec v = {0};
			if (expect(R, '(', "expected '(' after 'T'") || read_ints(R, &v, ')') ||
			    expect(R, ')', "expected ')' in transpose")) {
				SL_VEC_FREE(v);
				return -1;
			}
			bool ok = v.n == h->niota;
			for (size_t k = 0; ok && k < v.n; k++) {
				ok = v.v[k] >= 0 && v.v[k] < (int64_t)v.n;
				for (size_t j = 0; ok && j < k; j++)
					ok = v.v[j] != v.v[k];
			}
			h->perm = keep(R, &v);
			SL_VEC_FREE(v);
			if (!ok) {
				R->i = at;
				return fail(R, "transpose is not a permutation of the iota dimensions");
			}
		}
		return 0;
	}
	i64vec v = {0};
	int rc = read_ints(R, &v, '}');
	h->devices = keep(R, &v);
	h->ndevices = (uint32_t)v.n;
	SL_VEC_FREE(v);
	return rc;
}

int64_t
sli_gspmd_ndevices(const sli_hlo_sharding *h)
{
	if (h->devices)
		return h->ndevices;
	int64_t n = 1;
	for (uint32_t k = 0; k < h->niota; k++)
		n *= h->iota[k];
	return n;
}

/* tiled = 'devices=' dims order attr* */
static int
read_tiled(rd *R, sli_hlo_sharding *h)
{
	h->kind = SLI_HLO_TILED;
	if (expect(R, '=', "expected '=' after 'devices'"))
		return -1;
	size_t at = R->i;
	if (read_dims(R, &h->tile, &h->ntile) || read_order(R, h))
		return -1;
	int64_t prod = 1;
	for (uint32_t k = 0; k < h->ntile; k++) {
		if (prod > INT64_MAX / h->tile[k]) {
			R->i = at;
			return fail(R, "tile assignment too large in sharding");
		}
		prod *= h->tile[k];
	}
	int64_t ndev = 1;
	for (uint32_t k = 0; k < h->niota; k++) {
		if (ndev > INT64_MAX / h->iota[k])
			return fail(R, "iota too large in sharding");
		ndev *= h->iota[k];
	}
	if (h->devices)
		ndev = h->ndevices;
	if (prod != ndev || !h->ntile) {
		R->i = at;
		return fail(R, "tile assignment does not match the number of devices");
	}
	return 0;
}

static int read_sharding(rd *R, sli_hlo_sharding *h);

/* attr = 'last_tile_dim_replicate' | 'last_tile_dims=' {...} | 'metadata=' {...}
 *      | ('shard_as' | 'shard_like') int */
static int
read_attrs(rd *R, sli_hlo_sharding *h)
{
	size_t sub_at = 0;
	for (;;) {
		skip_ws(R);
		size_t at = R->i;
		if (accept_kw(R, "last_tile_dim_replicate")) {
			sub_at = at;
			if (h->kind != SLI_HLO_TILED || h->nsub)
				return R->i = at, fail(R, "unexpected 'last_tile_dim_replicate'");
			h->nsub = 1;
			h->subgroups = SL_NEW(R->a, sli_hlo_kind);
			h->subgroups[0] = SLI_HLO_REPLICATED;
		} else if (accept_kw(R, "last_tile_dims")) {
			sub_at = at;
			if (h->kind != SLI_HLO_TILED || h->nsub)
				return R->i = at, fail(R, "unexpected 'last_tile_dims'");
			if (expect(R, '=', "expected '=' after 'last_tile_dims'") || read_subgroups(R, h))
				return -1;
		} else if (accept_kw(R, "metadata")) {
			if (expect(R, '=', "expected '=' after 'metadata'") || skip_braced(R))
				return -1;
		} else if (accept_kw(R, "shard_as") || accept_kw(R, "shard_like")) {
			int64_t id;
			if (read_int(R, &id))
				return -1;
			h->shard_group = true;
		} else {
			break;
		}
	}
	if (h->kind == SLI_HLO_TILED && h->nsub > h->ntile) {
		R->i = sub_at;
		return fail(R, "more subgroup dimensions than tile dimensions");
	}
	return 0;
}

/* element = 'replicated' | 'manual' | 'unknown' | 'maximal device=' int | tiled */
static int
read_element(rd *R, sli_hlo_sharding *h)
{
	if (accept_kw(R, "replicated"))
		h->kind = SLI_HLO_REPLICATED;
	else if (accept_kw(R, "manual"))
		h->kind = SLI_HLO_MANUAL;
	else if (accept_kw(R, "unknown"))
		h->kind = SLI_HLO_UNKNOWN;
	else if (accept_kw(R, "maximal")) {
		h->kind = SLI_HLO_MAXIMAL;
		if (!accept_kw(R, "device"))
			return fail(R, "expected 'device=' after 'maximal'");
		if (expect(R, '=', "expected '=' after 'device'") || read_int(R, &h->device))
			return -1;
	} else if (accept_kw(R, "devices")) {
		if (read_tiled(R, h))
			return -1;
	} else {
		return fail(R, "expected 'replicated', 'manual', 'maximal', 'devices' or '{' in sharding");
	}
	return read_attrs(R, h);
}

/* sharding = '{' (element | sharding (',' sharding)* | ) '}' */
static int
read_sharding(rd *R, sli_hlo_sharding *h)
{
	memset(h, 0, sizeof *h);
	if (++R->depth > 64)
		return fail(R, "sharding nested too deeply");
	skip_ws(R);
	h->off = R->i;
	if (expect(R, '{', "expected '{' to start a sharding"))
		return -1;
	if (peek(R, '{') || peek(R, '}')) {
		SL_VEC(sli_hlo_sharding) v = {0};
		h->kind = SLI_HLO_TUPLE;
		bool more = !peek(R, '}');
		while (more) {
			sli_hlo_sharding e;
			if (!peek(R, '{')) {
				SL_VEC_FREE(v);
				return fail(R, "expected '{' to start a sharding");
			}
			if (read_sharding(R, &e)) {
				SL_VEC_FREE(v);
				return -1;
			}
			SL_VEC_PUSH(v, e);
			more = accept(R, ',');
		}
		h->nelems = (uint32_t)v.n;
		h->elems = v.n ? sli_arena_dup(R->a, v.v, sizeof *v.v * v.n) : NULL;
		SL_VEC_FREE(v);
	} else if (read_element(R, h)) {
		return -1;
	}
	R->depth--;
	if (expect(R, '}', "expected '}' to end a sharding"))
		return -1;
	h->len = R->i - h->off;
	return 0;
}

int
sli_gspmd_parse(sli_arena *a, const char *s, size_t n, sli_hlo_sharding *out,
                size_t *err_off, char *msg, size_t msglen)
{
	rd R = {a, s, n, 0, 0, msg, msglen, 0};
	if (read_sharding(&R, out))
		goto bad;
	skip_ws(&R);
	if (R.i < R.n) {
		fail(&R, "unexpected text after sharding");
		goto bad;
	}
	return 0;
bad:
	*err_off = R.err_off;
	return -1;
}

/* ====================================================================
 * The mesh of a set of tiled shardings
 * ==================================================================== */

/* The iota dims and permutation of h's device order (an explicit list
 * counts only when it is 0, 1, ..., n-1); false otherwise. */
static bool
order_of(const sli_hlo_sharding *h, const int64_t **dims, const int64_t **perm,
         uint32_t *n, int64_t *one)
{
	static const int64_t zero = 0;
	if (h->devices) {
		for (uint32_t k = 0; k < h->ndevices; k++)
			if (h->devices[k] != k)
				return false;
		*one = h->ndevices;
		*dims = one;
		*perm = &zero;
		*n = 1;
		return true;
	}
	*dims = h->iota;
	*perm = h->perm;
	*n = h->niota;
	return true;
}

static int64_t
axis_at(const int64_t *dims, const int64_t *perm, uint32_t m)
{
	return dims[perm ? perm[m] : m];
}

/* Device-order prefix product of dims before dimension d. */
static int64_t
prefix(const int64_t *dims, int64_t d)
{
	int64_t p = 1;
	for (int64_t k = 0; k < d; k++)
		p *= dims[k];
	return p;
}

static void
add_cut(sli_gspmd_cuts *c, int64_t x)
{
	if (x <= 1 || x >= c->ndevices)
		return;
	uint32_t k = 0;
	while (k < c->n && c->v[k] < x)
		k++;
	if (k < c->n && c->v[k] == x)
		return;
	c->v = sli_grow(c->v, &c->cap, c->n + 1, sizeof *c->v);
	memmove(c->v + k + 1, c->v + k, sizeof *c->v * (c->n - k));
	c->v[k] = x;
	c->n++;
}

bool
sli_gspmd_add_cuts(sli_gspmd_cuts *c, const sli_hlo_sharding *h)
{
	const int64_t *dims, *perm;
	uint32_t nd;
	int64_t one;
	if (h->kind != SLI_HLO_TILED || !order_of(h, &dims, &perm, &nd, &one))
		return false;
	int64_t n = sli_gspmd_ndevices(h);
	if (c->ndevices && c->ndevices != n)
		return false;
	c->ndevices = n;
	for (uint32_t j = 1; j < nd; j++)
		add_cut(c, prefix(dims, j));
	/* tile boundaries walk the axes in transposed order */
	int64_t t = 1, u = 1;
	uint32_t m = 0;
	for (uint32_t k = 0; k + 1 < h->ntile; k++) {
		t *= h->tile[k];
		while (m < nd && t % (u * axis_at(dims, perm, m)) == 0) {
			u *= axis_at(dims, perm, m);
			m++;
		}
		if (t == u)
			continue;
		int64_t s = m < nd ? axis_at(dims, perm, m) : 0;
		if (!s || t % u || s % (t / u))
			return false;
		add_cut(c, prefix(dims, perm ? perm[m] : m) * (t / u));
	}
	return true;
}

bool
sli_gspmd_mesh_sizes(const sli_gspmd_cuts *c, int64_t *sizes, uint32_t *n)
{
	int64_t prev = 1;
	uint32_t k = 0;
	for (uint32_t i = 0; i < c->n; i++) {
		if (c->v[i] % prev)
			return false;
		sizes[k++] = c->v[i] / prev;
		prev = c->v[i];
	}
	if (c->ndevices > 1) {
		if (c->ndevices % prev)
			return false;
		sizes[k++] = c->ndevices / prev;
	}
	*n = k;
	return true;
}

void
sli_gspmd_cuts_fini(sli_gspmd_cuts *c)
{
	free(c->v);
	memset(c, 0, sizeof *c);
}

bool
sli_gspmd_tile_axes(const sli_gspmd_cuts *c, const sli_hlo_sharding *h,
                    uint32_t *axes, uint32_t *first)
{
	const int64_t *dims, *perm;
	uint32_t nd, na;
	int64_t one;
	if (h->kind != SLI_HLO_TILED || !order_of(h, &dims, &perm, &nd, &one) ||
	    sli_gspmd_ndevices(h) != c->ndevices)
		return false;
	int64_t *sizes = sli_xmalloc(sizeof *sizes * (c->n + 1));
	if (!sli_gspmd_mesh_sizes(c, sizes, &na)) {
		free(sizes);
		return false;
	}
	/* the mesh axes in the transposed order of h's device dimensions */
	uint32_t nl = 0;
	for (uint32_t m = 0; m < nd; m++) {
		int64_t d = perm ? perm[m] : m;
		int64_t lo = prefix(dims, d), hi = lo * dims[d], at = 1;
		for (uint32_t a = 0; a < na; a++) {
			if (at >= lo && at * sizes[a] <= hi)
				axes[nl++] = a;
			at *= sizes[a];
		}
	}
	/* each tile dimension takes the next axes whose product is its size */
	uint32_t next = 0;
	bool ok = true;
	for (uint32_t k = 0; k < h->ntile && ok; k++) {
		first[k] = next;
		int64_t p = 1;
		while (p < h->tile[k] && next < nl)
			p *= sizes[axes[next++]];
		ok = p == h->tile[k];
	}
	first[h->ntile] = next;
	free(sizes);
	return ok && next == nl;
}
