/*
 * iopddl.c - reads IOPDDL problems and solutions (JSON through jansson,
 * gzip through zlib, which reads plain files as they are) and writes
 * solutions.  The JSON is checked whole before anything is kept: every
 * matrix has |S_u| x |S_v| entries, intervals are ordered and not
 * negative, edges name existing nodes, every node has a strategy.
 * Errors name the path into the JSON ("edges.costs[12]"); jansson keeps
 * no positions of values, so the position of that path is found again
 * in the text (locate) only when there is an error to report.
 * A reader given a deadline (sl_iopddl_read_until) looks at the clock
 * between chunks of its work and gives up once it has passed: reading
 * L (60 MB of JSON) takes seconds, and counts in a solve's time limit.
 */
#include "formats/iopddl.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <zlib.h>

#include "ir/context.h"
#include "util.h"

/* The largest file read (decompressed): a guard against gzip bombs. */
#define MAX_BYTES ((size_t)1 << 31)
/* With a deadline: bytes decompressed or parsed between looks at the
 * clock (and one look per node or edge converted) */
#define CHUNK_BYTES ((size_t)1 << 20)
/* ... and it gives up this share of the time spent parsing before it:
 * freeing the parsed JSON (jansson's tree of it) takes that long (L:
 * 0.45 s after 3.9 s of parsing) */
#define FREE_SHARE 0.2

typedef struct reader {
	sl_context *ctx;
	sl_sym file;
	const char *text;	/* the JSON text, for positions */
	size_t len;
	const char *root;	/* "problem" when the problem is wrapped in it */
	double deadline;	/* an sl_solve_clock() instant; <= 0: none */
	double t0;		/* when parsing began */
	bool late;		/* it passed: gave up, no error reported */
	size_t fed;		/* bytes of text given to the parser so far */
	size_t look;		/* ... when it next looks at the clock */
} reader;

static void
reader_init(reader *rd, sl_context *ctx, const char *name, const char *text,
            size_t len, double deadline)
{
	memset(rd, 0, sizeof *rd);
	rd->ctx = ctx;
	rd->file = sl_sym_intern(ctx, name, strlen(name));
	rd->text = text;
	rd->len = len;
	rd->deadline = deadline;
	rd->t0 = sl_solve_clock();
}

/* Whether the deadline has passed, or will have once what was parsed
 * is freed (once it has, it stays passed). */
static bool
late(reader *rd)
{
	if (rd->late || rd->deadline <= 0)
		return rd->late;
	double now = sl_solve_clock();
	rd->late = now + FREE_SHARE * (now - rd->t0) >= rd->deadline;
	return rd->late;
}

/* {====================================================================
 * Positions: the line and column of a path such as "edges.costs[3]"
 * ===================================================================== */

typedef struct scan {
	const char *p, *e;
} scan;

static void
skip_ws(scan *s)
{
	while (s->p < s->e && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' ||
	                       *s->p == '\r'))
		s->p++;
}

/* Skips a string whose opening quote is at s->p. */
static void
skip_string(scan *s)
{
	for (s->p++; s->p < s->e && *s->p != '"'; s->p++)
		if (*s->p == '\\')
			s->p++;
	if (s->p < s->e)
		s->p++;
}

/* Skips one value: a string, or brackets to their match, or a scalar. */
static void
skip_value(scan *s)
{
	int depth = 0;
	do {
		skip_ws(s);
		if (s->p >= s->e)
			return;
		char c = *s->p;
		if (c == '"')
			skip_string(s);
		else if (c == '[' || c == '{')
			depth++, s->p++;
		else if (c == ']' || c == '}')
			depth--, s->p++;
		else if (c == ',' || c == ':')
			s->p++;
		else
			while (s->p < s->e && !strchr(",]} \t\r\n", *s->p))
				s->p++;
	} while (depth > 0);
}

/* Moves s to the member key of the object at s->p; false if absent. */
static bool
enter_key(scan *s, const char *key, size_t n)
{
	skip_ws(s);
	if (s->p >= s->e || *s->p != '{')
		return false;
	s->p++;
	for (;;) {
		skip_ws(s);
		if (s->p >= s->e || *s->p != '"')
			return false;
		const char *k = s->p + 1;
		skip_string(s);
		bool hit = (size_t)(s->p - k - 1) == n && !memcmp(k, key, n);
		skip_ws(s);
		if (s->p < s->e && *s->p == ':')
			s->p++;
		skip_ws(s);
		if (hit)
			return true;
		skip_value(s);
		skip_ws(s);
		if (s->p >= s->e || *s->p != ',')
			return false;
		s->p++;
	}
}

/* Moves s to element i of the array at s->p; false if absent. */
static bool
enter_index(scan *s, unsigned long i)
{
	skip_ws(s);
	if (s->p >= s->e || *s->p != '[')
		return false;
	s->p++;
	for (unsigned long k = 0; k < i; k++) {
		skip_value(s);
		skip_ws(s);
		if (s->p >= s->e || *s->p != ',')
			return false;
		s->p++;
	}
	skip_ws(s);
	return true;
}

/* The position of path (under rd->root) in the text; line 0 if not found. */
static sl_loc
locate(const reader *rd, const char *path)
{
	sl_loc loc = {rd->file, 0, 0};
	scan s = {rd->text, rd->text + rd->len};
	if (!rd->text || (rd->root && !enter_key(&s, rd->root, strlen(rd->root))))
		return loc;
	for (const char *p = path; *p;) {
		if (*p == '[') {
			char *end;
			unsigned long i = strtoul(p + 1, &end, 10);
			if (!enter_index(&s, i) || *end != ']')
				return loc;
			p = end + 1;
		} else {
			if (*p == '.')
				p++;
			size_t n = strcspn(p, ".[");
			if (!enter_key(&s, p, n))
				return loc;
			p += n;
		}
	}
	skip_ws(&s);
	loc.line = 1;
	loc.col = 1;
	for (const char *q = rd->text; q < s.p; q++) {
		if (*q == '\n')
			loc.line++, loc.col = 1;
		else
			loc.col++;
	}
	return loc;
}

/* "PATH: message" at the position of PATH. */
static void
fail(const reader *rd, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
fail(const reader *rd, const char *path, const char *fmt, ...)
{
	sli_buf b;
	va_list ap;
	sli_buf_init(&b);
	va_start(ap, fmt);
	sli_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	sl_loc loc = locate(rd, path);
	const char *sep = *path ? ": " : "";
	if (loc.line)
		sli_error(rd->ctx, loc, "%s%s%s", path, sep, sli_buf_cstr(&b));
	else
		sli_error(rd->ctx, loc, "%s: %s%s%s", sl_sym_str(rd->ctx, rd->file),
		          path, sep, sli_buf_cstr(&b));
	sli_buf_fini(&b);
}

/* }==================================================================== */

/* {====================================================================
 * Values
 * ===================================================================== */

/* The path "base[i]" or "base[i][j]" (j < 0: none) in buf. */
static const char *
at(char *buf, size_t n, const char *base, size_t i, long j)
{
	if (j < 0)
		snprintf(buf, n, "%s[%zu]", base, i);
	else
		snprintf(buf, n, "%s[%zu][%ld]", base, i, j);
	return buf;
}

/*
 * An integer: a JSON integer, or a real that is integral (1e18, as some
 * writers print it).  Values at or above SL_IOPDDL_FORBIDDEN become it.
 */
static bool
get_int(const reader *rd, const json_t *v, const char *path, int64_t *out)
{
	if (json_is_integer(v)) {
		json_int_t x = json_integer_value(v);
		*out = x >= SL_IOPDDL_FORBIDDEN ? SL_IOPDDL_FORBIDDEN : (int64_t)x;
		return true;
	}
	if (json_is_real(v)) {
		double x = json_real_value(v);
		if (x >= 1e18) {
			*out = SL_IOPDDL_FORBIDDEN;
			return true;
		}
		if (x == floor(x) && x > -9e18) {
			*out = (int64_t)x;
			return true;
		}
		fail(rd, path, "expected an integer, got %g", x);
		return false;
	}
	fail(rd, path, "expected a number");
	return false;
}

/*
 * get_int of v at the path "base[i]" or "base[i][j]", formatted only when
 * v is not a plain integer (formatting every one took 7% of reading L).
 */
static bool
get_int_at(const reader *rd, const json_t *v, const char *base, size_t i,
           long j, int64_t *out)
{
	char path[96];
	if (json_is_integer(v))
		return get_int(rd, v, "", out);
	return get_int(rd, v, at(path, sizeof path, base, i, j), out);
}

/* The array member key of obj (path names obj, "" at the root). */
static json_t *
get_array(const reader *rd, json_t *obj, const char *path, const char *key)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%s%s%s", path, *path ? "." : "", key);
	json_t *v = json_object_get(obj, key);
	if (!v) {
		fail(rd, *path ? path : key, "missing field '%s'", key);
		return NULL;
	}
	if (!json_is_array(v)) {
		fail(rd, buf, "expected an array");
		return NULL;
	}
	return v;
}

static json_t *
get_object(const reader *rd, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		fail(rd, "", "missing field '%s'", key);
	else if (!json_is_object(v))
		fail(rd, key, "expected an object");
	else
		return v;
	return NULL;
}

/* }==================================================================== */

/* {====================================================================
 * Problems
 * ===================================================================== */

void
sl_iopddl_free(sl_iopddl *p)
{
	if (!p)
		return;
	free(p->name);
	free(p->lo);
	free(p->hi);
	free(p->nstrat);
	free(p->sfirst);
	free(p->cost);
	free(p->usage);
	free(p->eu);
	free(p->ev);
	free(p->efirst);
	free(p->ecost);
	free(p);
}

/*
 * nodes -> { intervals: [[lo, hi]...], costs: [[c...]...], usages: [[u...]...] }
 * The three arrays have one entry per node; costs[i] and usages[i] have
 * one per strategy.
 */
static bool
read_nodes(reader *rd, json_t *nodes, sl_iopddl *p)
{
	json_t *iv = get_array(rd, nodes, "nodes", "intervals");
	json_t *co = iv ? get_array(rd, nodes, "nodes", "costs") : NULL;
	json_t *us = co ? get_array(rd, nodes, "nodes", "usages") : NULL;
	if (!us)
		return false;
	size_t n = json_array_size(co), total = 0;
	char path[96];
	if (json_array_size(iv) != n || json_array_size(us) != n) {
		fail(rd, json_array_size(iv) != n ? "nodes.intervals" : "nodes.usages",
		     "expected %zu entries (one per node), got %zu", n,
		     json_array_size(json_array_size(iv) != n ? iv : us));
		return false;
	}
	if (n > UINT32_MAX - 1) {
		fail(rd, "nodes.costs", "too many nodes");
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		json_t *c = json_array_get(co, i), *u = json_array_get(us, i);
		if (!json_is_array(c) || !json_is_array(u)) {
			fail(rd, at(path, sizeof path, json_is_array(c) ? "nodes.usages"
			                                   : "nodes.costs", i, -1),
			     "expected an array");
			return false;
		}
		if (json_array_size(c) == 0) {
			fail(rd, at(path, sizeof path, "nodes.costs", i, -1),
			     "node %zu has no strategies", i);
			return false;
		}
		if (json_array_size(u) != json_array_size(c)) {
			fail(rd, at(path, sizeof path, "nodes.usages", i, -1),
			     "expected %zu entries (one per strategy), got %zu",
			     json_array_size(c), json_array_size(u));
			return false;
		}
		if (json_array_size(c) > UINT32_MAX) {
			fail(rd, at(path, sizeof path, "nodes.costs", i, -1),
			     "too many strategies");
			return false;
		}
		total += json_array_size(c);
	}
	p->nnodes = n;
	p->lo = sli_xmalloc((n + 1) * sizeof *p->lo);
	p->hi = sli_xmalloc((n + 1) * sizeof *p->hi);
	p->nstrat = sli_xmalloc((n + 1) * sizeof *p->nstrat);
	p->sfirst = sli_xmalloc((n + 1) * sizeof *p->sfirst);
	p->cost = sli_xmalloc((total + 1) * sizeof *p->cost);
	p->usage = sli_xmalloc((total + 1) * sizeof *p->usage);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (late(rd))
			return false;
		json_t *v = json_array_get(iv, i);
		at(path, sizeof path, "nodes.intervals", i, -1);
		if (!json_is_array(v) || json_array_size(v) != 2) {
			fail(rd, path, "expected an interval [lo, hi]");
			return false;
		}
		char p0[96], p1[96];
		if (!get_int(rd, json_array_get(v, 0), at(p0, sizeof p0, "nodes.intervals", i, 0), &p->lo[i]) ||
		    !get_int(rd, json_array_get(v, 1), at(p1, sizeof p1, "nodes.intervals", i, 1), &p->hi[i]))
			return false;
		if (p->lo[i] < 0) {
			fail(rd, path, "negative interval start %lld", (long long)p->lo[i]);
			return false;
		}
		if (p->hi[i] < p->lo[i]) {
			fail(rd, path, "reversed interval [%lld, %lld)",
			     (long long)p->lo[i], (long long)p->hi[i]);
			return false;
		}
		json_t *c = json_array_get(co, i), *u = json_array_get(us, i);
		p->sfirst[i] = k;
		p->nstrat[i] = (uint32_t)json_array_size(c);
		for (size_t s = 0; s < p->nstrat[i]; s++, k++) {
			if (!get_int_at(rd, json_array_get(c, s), "nodes.costs", i, (long)s, &p->cost[k]) ||
			    !get_int_at(rd, json_array_get(u, s), "nodes.usages", i, (long)s, &p->usage[k]))
				return false;
			if (p->usage[k] < 0 || p->usage[k] >= SL_IOPDDL_FORBIDDEN) {
				fail(rd, at(path, sizeof path, "nodes.usages", i, (long)s), "usage %lld out of range", (long long)p->usage[k]);
				return false;
			}
		}
	}
	p->sfirst[n] = k;
	return true;
}

/*
 * edges -> { nodes: [[u, v]...], costs: [[c...]...] }, costs[e] row-major
 * with nstrat[u] * nstrat[v] entries.
 */
static bool
read_edges(reader *rd, json_t *edges, sl_iopddl *p)
{
	json_t *en = get_array(rd, edges, "edges", "nodes");
	json_t *ec = en ? get_array(rd, edges, "edges", "costs") : NULL;
	if (!ec)
		return false;
	size_t m = json_array_size(en), total = 0;
	char path[96];
	if (json_array_size(ec) != m) {
		fail(rd, "edges.costs", "expected %zu entries (one per edge), got %zu",
		     m, json_array_size(ec));
		return false;
	}
	p->nedges = m;
	p->eu = sli_xmalloc((m + 1) * sizeof *p->eu);
	p->ev = sli_xmalloc((m + 1) * sizeof *p->ev);
	p->efirst = sli_xmalloc((m + 1) * sizeof *p->efirst);
	for (size_t e = 0; e < m; e++) {
		json_t *v = json_array_get(en, e);
		at(path, sizeof path, "edges.nodes", e, -1);
		if (!json_is_array(v) || json_array_size(v) != 2) {
			fail(rd, path, "expected a pair of nodes [u, v]");
			return false;
		}
		int64_t end[2];
		for (int k = 0; k < 2; k++) {
			char pk[96];
			if (!get_int(rd, json_array_get(v, k), at(pk, sizeof pk, "edges.nodes", e, k), &end[k]))
				return false;
			if (end[k] < 0 || (uint64_t)end[k] >= p->nnodes) {
				fail(rd, pk, "no node %lld (there are %zu)",
				     (long long)end[k], p->nnodes);
				return false;
			}
		}
		p->eu[e] = (uint32_t)end[0];
		p->ev[e] = (uint32_t)end[1];
		size_t want = (size_t)p->nstrat[p->eu[e]] * p->nstrat[p->ev[e]];
		json_t *c = json_array_get(ec, e);
		at(path, sizeof path, "edges.costs", e, -1);
		if (!json_is_array(c)) {
			fail(rd, path, "expected an array");
			return false;
		}
		if (json_array_size(c) != want) {
			fail(rd, path, "expected %zu entries (%u x %u strategies), got %zu",
			     want, p->nstrat[p->eu[e]], p->nstrat[p->ev[e]],
			     json_array_size(c));
			return false;
		}
		p->efirst[e] = total;
		total += want;
	}
	p->efirst[m] = total;
	p->ecost = sli_xmalloc((total + 1) * sizeof *p->ecost);
	for (size_t e = 0; e < m; e++) {
		json_t *c = json_array_get(ec, e);
		if (late(rd))
			return false;
		for (size_t k = 0; k < json_array_size(c); k++)
			if (!get_int_at(rd, json_array_get(c, k), "edges.costs", e, (long)k,
			                &p->ecost[p->efirst[e] + k]))
				return false;
	}
	return true;
}

/* jansson's source of text: its next bytes, or (size_t)-1 (an error to
 * jansson) once the reader is late. */
static size_t
feed(void *buf, size_t size, void *data)
{
	reader *rd = data;
	if (rd->fed >= rd->look) {
		rd->look += CHUNK_BYTES;
		if (late(rd))
			return (size_t)-1;
	}
	size_t n = rd->len - rd->fed;
	if (n > size)
		n = size;
	memcpy(buf, rd->text + rd->fed, n);
	rd->fed += n;
	return n;
}

/* The parsed JSON, with a syntax error reported at its position (none
 * when the reader is late). */
static json_t *
load_json(reader *rd)
{
	json_error_t err;
	json_t *root = json_load_callback(feed, rd, JSON_REJECT_DUPLICATES, &err);
	if (!root && !rd->late) {
		sl_loc loc = {rd->file, err.line > 0 ? (uint32_t)err.line : 0,
		              err.column > 0 ? (uint32_t)err.column : 1};
		if (loc.line)
			sli_error(rd->ctx, loc, "%s", err.text);
		else
			sli_error(rd->ctx, loc, "%s: %s", sl_sym_str(rd->ctx, rd->file),
			          err.text);
	}
	return root;
}

/* The problem in rd's text; NULL after an error or once late. */
static sl_iopddl *
parse(reader *rd)
{
	json_t *root = load_json(rd);
	if (!root)
		return NULL;
	sl_iopddl *p = sli_xcalloc(1, sizeof *p);
	json_t *prob = root;
	bool ok = false;
	if (!json_is_object(root)) {
		fail(rd, "", "expected an object");
		goto out;
	}
	if (json_object_get(root, "problem")) {
		rd->root = "problem";
		prob = json_object_get(root, "problem");
		if (!json_is_object(prob)) {
			rd->root = NULL;
			fail(rd, "problem", "expected an object");
			goto out;
		}
	}
	json_t *nodes = get_object(rd, prob, "nodes");
	json_t *edges = nodes ? get_object(rd, prob, "edges") : NULL;
	if (!edges || !read_nodes(rd, nodes, p) || !read_edges(rd, edges, p))
		goto out;
	json_t *name_v = json_object_get(prob, "name");
	if (json_is_string(name_v))
		p->name = sli_xstrdup(json_string_value(name_v));
	json_t *lim = json_object_get(prob, "usage_limit");
	if (lim && !json_is_null(lim)) {
		if (!get_int(rd, lim, "usage_limit", &p->usage_limit))
			goto out;
		if (p->usage_limit < 0) {
			fail(rd, "usage_limit", "negative usage limit");
			goto out;
		}
		p->has_limit = true;
	}
	ok = true;
out:
	json_decref(root);
	if (!ok) {
		sl_iopddl_free(p);
		return NULL;
	}
	return p;
}

sl_iopddl *
sl_iopddl_parse(sl_context *ctx, const char *name, const char *text, size_t len)
{
	reader rd;
	reader_init(&rd, ctx, name, text, len, 0);
	return parse(&rd);
}

/* }==================================================================== */

/* {====================================================================
 * Files: plain or gzip-compressed, read whole
 * ===================================================================== */

/* The decompressed bytes of path ("-": stdin); NULL after an error, or
 * with *late set once deadline (> 0) has passed. */
static char *
read_bytes(sl_context *ctx, const char *path, double deadline, size_t *len,
           bool *late)
{
	sl_loc none = sli_loc_none();
	gzFile f = strcmp(path, "-") ? gzopen(path, "rb") : gzdopen(dup(0), "rb");
	if (!f) {
		sli_error(ctx, none, "cannot open '%s': %s", path,
		          errno ? strerror(errno) : "out of memory");
		return NULL;
	}
	gzbuffer(f, 1 << 17);
	size_t cap = 1 << 16, n = 0;
	char *buf = sli_xmalloc(cap);
	const char *why = NULL;
	for (;;) {
		if (n + 1 >= cap) {
			if (cap >= MAX_BYTES) {
				why = "file too large (more than 2 GiB of JSON)";
				break;
			}
			cap *= 2;
			buf = sli_xrealloc(buf, cap);
		}
		if (deadline > 0 && sl_solve_clock() >= deadline) {
			*late = true;
			break;
		}
		size_t want = cap - n - 1;
		int got = gzread(f, buf + n, (unsigned)(want > CHUNK_BYTES ? CHUNK_BYTES : want));
		if (got < 0) {
			int err;
			why = gzerror(f, &err);
			break;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	int err = Z_OK;
	if (*late) {
		gzclose_r(f);
		free(buf);
		return NULL;
	}
	if (!why) {
		const char *msg = gzerror(f, &err);
		if (err != Z_OK)
			why = msg;
	}
	char whybuf[128];
	if (why)
		snprintf(whybuf, sizeof whybuf, "%s", why);
	int rc = gzclose_r(f);
	if (!why && rc != Z_OK)
		snprintf(whybuf, sizeof whybuf, "%s", rc == Z_BUF_ERROR ?
		         "unexpected end of file" : "read error"),
		why = whybuf;
	if (why) {
		/* zlib says "unexpected end of file" of a truncated gzip stream */
		sli_error(ctx, none, "cannot read '%s': %s%s", path, whybuf,
		          strstr(whybuf, "end of file") ? " (truncated gzip data)" : "");
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	*len = n;
	return buf;
}

sl_iopddl *
sl_iopddl_read_until(sl_context *ctx, const char *path, double deadline, bool *late)
{
	size_t len;
	*late = false;
	char *text = read_bytes(ctx, path, deadline, &len, late);
	if (!text)
		return NULL;
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	reader rd;
	reader_init(&rd, ctx, name, text, len, deadline);
	sl_iopddl *p = parse(&rd);
	*late = rd.late;
	free(text);
	return p;
}

sl_iopddl *
sl_iopddl_read(sl_context *ctx, const char *path)
{
	bool late;
	return sl_iopddl_read_until(ctx, path, 0, &late);
}

/* }==================================================================== */

/* {====================================================================
 * Solutions
 * ===================================================================== */

/* solution -> [s0, s1, ...] */
int
sl_iopddl_read_solution(sl_context *ctx, const char *path, int64_t **out,
                        size_t *n)
{
	size_t len;
	bool late = false;
	char *text = read_bytes(ctx, path, 0, &len, &late);
	if (!text)
		return -1;
	reader rd;
	reader_init(&rd, ctx, path, text, len, 0);
	json_t *root = load_json(&rd);
	int rc = -1;
	if (root && !json_is_array(root))
		fail(&rd, "", "expected an array of strategy indices");
	else if (root) {
		size_t k = json_array_size(root);
		int64_t *v = sli_xmalloc((k + 1) * sizeof *v);
		rc = 0;
		for (size_t i = 0; i < k && !rc; i++)
			if (!get_int_at(&rd, json_array_get(root, i), "", i, -1, &v[i]))
				rc = -1;
		if (rc)
			free(v);
		else
			*out = v, *n = k;
	}
	json_decref(root);
	free(text);
	return rc;
}

int
sl_iopddl_write_solution(FILE *out, const int64_t *sol, size_t n)
{
	fputc('[', out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, i ? ", %lld" : "%lld", (long long)sol[i]);
	fputs("]\n", out);
	return ferror(out) ? -1 : 0;
}

/* }==================================================================== */
