/*
 * mlir_parser.c - recursive-descent reader of MLIR text: the top level
 * (aliases, implicit or explicit module), operations in the generic form
 * and the custom forms of builtin and func ops, regions and blocks,
 * builtin attributes and types, and SSA value scoping.  The custom forms
 * of sdy and StableHLO ops live in mlir_sdy.c and mlir_stablehlo.c.
 *
 * Grammar (MLIR LangRef, the subset read here):
 *   toplevel   = (alias-def | operation | file-metadata)*
 *   alias-def  = '#' id '=' attribute | '!' id '=' type
 *   operation  = (result (',' result)* '=')? (generic-op | custom-op) loc?
 *   result     = '%' id (':' int)?
 *   generic-op = string '(' operands? ')' ('<' dict '>')? ('(' region (',' region)* ')')?
 *                dict? ':' function-type
 *   region     = '{' (ops | block+) '}'
 *   block      = '^' id ('(' arg (',' arg)* ')')? ':' ops
 */
#include "formats/mlir_parser.h"
#include "formats/mlir_stablehlo_attrs.h"
#include "util/hash.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 256 };

/* ==================================================================== */
/* Tokens and errors                                                     */
/* ==================================================================== */

void
sli_p_next(sli_parser *P)
{
	sli_lex_scan(&P->lx, &P->tok);
}

sl_loc
sli_p_tok_loc(const sli_parser *P, const sli_token *t)
{
	sl_loc l = {P->file, t->line, t->col};
	return l;
}

sl_loc
sli_p_loc(const sli_parser *P)
{
	return sli_p_tok_loc(P, &P->tok);
}

int
sli_p_error_at(sli_parser *P, sl_loc loc, const char *fmt, ...)
{
	if (P->failed)
		return -1;
	P->failed = 1;
	va_list ap;
	va_start(ap, fmt);
	sli_vdiag(P->ctx, SL_DIAG_ERROR, loc, fmt, ap);
	va_end(ap);
	return -1;
}

int
sli_p_error(sli_parser *P, const char *fmt, ...)
{
	if (P->failed)
		return -1;
	P->failed = 1;
	sl_loc loc = sli_p_loc(P);
	if (P->tok.kind == SL_TOK_ERROR && P->lx.err) {
		sli_error(P->ctx, loc, "%s", P->lx.err);
		return -1;
	}
	va_list ap;
	va_start(ap, fmt);
	sli_vdiag(P->ctx, SL_DIAG_ERROR, loc, fmt, ap);
	va_end(ap);
	return -1;
}

bool
sli_p_accept(sli_parser *P, sli_tok_kind k)
{
	if (P->tok.kind != k)
		return false;
	sli_p_next(P);
	return true;
}

int
sli_p_expect(sli_parser *P, sli_tok_kind k, const char *what)
{
	if (sli_p_accept(P, k))
		return 0;
	return sli_p_error(P, "expected %s", what);
}

sl_sym
sli_p_sym(sli_parser *P, const char *s)
{
	return sli_p_intern(P, s, (uint32_t)strlen(s));
}

/* The first min(n, 8) bytes of s as a word, the rest zero. */
static uint64_t
head_word(const char *s, uint32_t n)
{
	uint64_t w = 0;
	if (n >= 8) {
		memcpy(&w, s, 8);
		return w;
	}
	for (uint32_t i = 0; i < n; i++)
		w |= (uint64_t)(unsigned char)s[i] << (8 * i);
	return w;
}

/* Whether a and b of n bytes agree between their first and last eight
 * (words, not a call of memcmp: most names are short). */
static bool
middle_equal(const char *a, const char *b, uint32_t n)
{
	for (uint32_t i = 8; i + 8 < n; i += 8)
		if (head_word(a + i, 8) != head_word(b + i, 8))
			return false;
	return true;
}

/*
 * Every op and attribute name was hashed whole and looked up in the
 * context's table of all names, whose entries and strings are spread
 * over memory (perf, 8,000 layers: 4.5% of parsing).  A program uses few
 * names, so a direct-mapped cache keyed by the two ends of a name finds
 * most of them from two loads; the ends cover names of up to 16 bytes,
 * the middle of longer ones is compared with the interned text.
 */
sl_sym
sli_p_intern(sli_parser *P, const char *s, uint32_t n)
{
	uint64_t first = head_word(s, n), last = n > 8 ? head_word(s + n - 8, 8) : 0;
	uint64_t h = ((first + n) * 0x9e3779b97f4a7c15ull ^ last) * 0xff51afd7ed558ccdull;
	sli_namecache_ent *e = &P->names_seen[h >> (64 - SLI_NAMECACHE_BITS)];
	if (e->text && e->n == n && e->first == first && e->last == last &&
	    middle_equal(e->text, s, n))
		return e->sym;
	sl_sym sym = sl_sym_intern(P->ctx, s, n);
	*e = (sli_namecache_ent){first, last, sl_sym_str(P->ctx, sym), n, sym};
	return sym;
}

static int
enter(sli_parser *P)
{
	if (++P->depth > MAX_DEPTH)
		return sli_p_error(P, "nesting is deeper than %d levels", MAX_DEPTH);
	return 0;
}

static void
leave(sli_parser *P)
{
	P->depth--;
}

/* ==================================================================== */
/* SSA names: a chained hash table with LIFO scopes                      */
/* ==================================================================== */

/*
 * Printed programs name their values %0, %1, ... and %arg0, %arg1, ...:
 * those names skip the hash table and index a table by their number
 * (kind 0 for %N, 1 for %argN), which is filled in order and read near
 * where it was last written, where hashing the text scattered the
 * lookups over the whole table.  A number's slot holds its binding
 * itself, 16 bytes, and the log of numbered bindings 4 bytes more
 * each, for scope_pop to undo; a binding that shadows an outer scope's
 * keeps the slot it took over in `shadowed`.  An entry of 32 bytes and
 * a 4-byte slot for each were 1.9 MB of a 4.4 MB program's peak while
 * it was parsed (issue 17: peak memory).
 */
enum { NUM_MAX = 1u << 28 };

typedef struct nent {
	const char *p;		/* the name */
	sl_value *val;		/* first value bound to the name */
	uint32_t n;		/* length of the name */
	uint32_t next;		/* index+1 of the next entry in the bucket */
	uint32_t count;		/* values bound (results of %x:N) */
	uint32_t hash;		/* low bits of the name's hash */
} nent;

/* The binding of a number. */
typedef struct numslot {
	sl_value *val;		/* first value bound; NULL if unbound */
	uint32_t count;		/* values bound */
	uint32_t pos;		/* its place in the log (sli_names.undo) */
} numslot;

struct sli_names {
	SL_VEC(nent) v;		/* bindings of other names, in order */
	uint32_t *buckets;
	size_t nb;
	numslot *num[2];	/* bindings by number, per kind */
	size_t nnum[2];		/* slots allocated */
	size_t nset[2];		/* slots initialised: the highest number bound + 1 */
	/* numbered bindings in order: number << 2 | kind << 1 | 1 if it
	 * shadows an outer scope's binding of the number */
	SL_VEC(uint32_t) undo;
	SL_VEC(numslot) shadowed;	/* what the shadowing bindings replaced */
};

struct sli_scope {
	struct sli_scope *up;
	size_t mark, undo_mark;		/* lengths of v and undo at its start */
};

/* Whether p[0..n) is "N" or "argN" (no leading zero); sets kind and num. */
static bool
name_number(const char *p, uint32_t n, int *kind, uint32_t *num)
{
	*kind = 0;
	if (n > 3 && p[0] == 'a' && p[1] == 'r' && p[2] == 'g') {
		*kind = 1;
		p += 3;
		n -= 3;
	}
	if (n == 0 || n > 9 || (p[0] == '0' && n > 1))
		return false;
	uint32_t v = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		v = v * 10 + (uint32_t)(p[i] - '0');
	}
	*num = v;
	return v < NUM_MAX;
}

/*
 * The slot of number num of kind, the table grown to hold it.  Only the
 * slots up to the highest number bound are initialised, so that the
 * pages of the table's spare room stay untouched.
 */
static numslot *
num_slot(struct sli_names *t, int kind, uint32_t num)
{
	if (num >= t->nnum[kind])
		t->num[kind] = sli_grow(t->num[kind], &t->nnum[kind], (size_t)num + 1,
		                        sizeof *t->num[kind]);
	if (num >= t->nset[kind]) {
		memset(t->num[kind] + t->nset[kind], 0,
		       ((size_t)num + 1 - t->nset[kind]) * sizeof *t->num[kind]);
		t->nset[kind] = (size_t)num + 1;
	}
	return &t->num[kind][num];
}

/*
 * Room for the numbered bindings of len bytes of text, at most one in
 * 32 bytes (a printed op takes about 100), allocated once: grown by
 * doubling from the top of the heap, the tables were copied and left
 * their freed blocks in the heap, resident under the module built after
 * them (issue 17: peak memory).  The room's pages not used are never
 * touched; a text with more bindings grows the tables as before.  Below
 * 1 MiB of text the tables are small and grow faster than a block of
 * their own is mapped for them (96 layers, 0.4 MB: parsing 8% slower).
 */
static void
names_reserve(struct sli_names *t, size_t len)
{
	if (len < 1 << 20)
		return;
	size_t n = len / 32 + 1;
	t->num[0] = sli_grow(NULL, &t->nnum[0], n, sizeof *t->num[0]);
	SL_VEC_RESERVE(t->undo, n);
}

static void
names_free(struct sli_names *t)
{
	free(t->v.v);
	free(t->buckets);
	free(t->num[0]);
	free(t->num[1]);
	SL_VEC_FREE(t->undo);
	SL_VEC_FREE(t->shadowed);
}

static void
names_rehash(struct sli_names *t)
{
	size_t nb = t->nb ? t->nb * 2 : 1024;
	free(t->buckets);
	t->buckets = sli_xcalloc(nb, sizeof *t->buckets);
	t->nb = nb;
	for (size_t i = 0; i < t->v.n; i++) {
		size_t h = t->v.v[i].hash & (nb - 1);
		t->v.v[i].next = t->buckets[h];
		t->buckets[h] = (uint32_t)i + 1;
	}
}

/* The entry of name p[0..n), not a numbered one, or NULL. */
static nent *
named_find(struct sli_names *t, const char *p, uint32_t n, uint32_t h)
{
	if (!t->nb)
		return NULL;
	for (uint32_t i = t->buckets[h & (t->nb - 1)]; i; i = t->v.v[i - 1].next) {
		nent *e = &t->v.v[i - 1];
		if (e->hash == h && e->n == n && memcmp(e->p, p, n) == 0)
			return e;
	}
	return NULL;
}

/* The first value bound to name p[0..n), their count in *count; NULL if
 * the name is not bound. */
static sl_value *
names_find(struct sli_names *t, const char *p, uint32_t n, uint32_t *count)
{
	int kind;
	uint32_t num;
	if (name_number(p, n, &kind, &num)) {
		const numslot *s = num < t->nset[kind] ? &t->num[kind][num] : NULL;
		*count = s ? s->count : 0;
		return s ? s->val : NULL;
	}
	const nent *e = named_find(t, p, n, (uint32_t)sli_hash(p, n));
	*count = e ? e->count : 0;
	return e ? e->val : NULL;
}

static void
scope_push(sli_parser *P, struct sli_scope *s)
{
	s->up = P->scope;
	s->mark = P->names->v.n;
	s->undo_mark = P->names->undo.n;
	P->scope = s;
}

static void
scope_pop(sli_parser *P)
{
	struct sli_names *t = P->names;
	while (t->v.n > P->scope->mark) {
		nent *e = &t->v.v[--t->v.n];
		t->buckets[e->hash & (t->nb - 1)] = e->next;
	}
	while (t->undo.n > P->scope->undo_mark) {
		uint32_t u = t->undo.v[--t->undo.n];
		numslot *s = &t->num[u >> 1 & 1][u >> 2];
		if (u & 1)
			*s = t->shadowed.v[--t->shadowed.n];
		else
			s->val = NULL;
	}
	P->scope = P->scope->up;
}

static int
redefinition(sli_parser *P, const sli_token *tok)
{
	return sli_p_error_at(P, sli_p_tok_loc(P, tok), "redefinition of SSA value '%.*s'",
	                      (int)tok->n, tok->p);
}

/* Binds %name (token text includes '%') to count values starting at val. */
static int
bind(sli_parser *P, const sli_token *tok, sl_value *val, uint32_t count)
{
	struct sli_names *t = P->names;
	const char *p = tok->p + 1;
	uint32_t n = tok->n - 1;
	int kind;
	uint32_t num;
	if (name_number(p, n, &kind, &num)) {
		numslot *s = num_slot(t, kind, num);
		bool shadows = s->val != NULL;
		if (shadows && s->pos >= P->scope->undo_mark)
			return redefinition(P, tok);
		if (shadows)
			SL_VEC_PUSH(t->shadowed, *s);
		*s = (numslot){val, count, (uint32_t)t->undo.n};
		SL_VEC_PUSH(t->undo, num << 2 | (uint32_t)kind << 1 | shadows);
		return 0;
	}
	uint32_t h = (uint32_t)sli_hash(p, n);
	nent *old = named_find(t, p, n, h);
	if (old && (size_t)(old - t->v.v) >= P->scope->mark)
		return redefinition(P, tok);
	if ((t->v.n + 1) * 2 > t->nb)
		names_rehash(t);
	nent e = {p, val, n, t->buckets[h & (t->nb - 1)], count, h};
	SL_VEC_PUSH(t->v, e);
	t->buckets[h & (t->nb - 1)] = (uint32_t)t->v.n;
	return 0;
}

int
sli_p_operand(sli_parser *P, sl_value **out)
{
	if (!sli_p_is(P, SL_TOK_PERCENT))
		return sli_p_error(P, "expected SSA operand");
	sli_token name = P->tok;
	sli_p_next(P);
	uint64_t index = 0;
	bool has_index = false;
	if (sli_p_is(P, SL_TOK_HASH) && P->tok.p == name.p + name.n) {
		/* %x#N */
		has_index = true;
		for (uint32_t i = 1; i < P->tok.n; i++) {
			char c = P->tok.p[i];
			if (c < '0' || c > '9' || index > UINT32_MAX)
				return sli_p_error(P, "invalid SSA value result number");
			index = index * 10 + (uint64_t)(c - '0');
		}
		if (P->tok.n < 2)
			return sli_p_error(P, "invalid SSA value result number");
		sli_p_next(P);
	}
	uint32_t count;
	sl_value *val = names_find(P->names, name.p + 1, name.n - 1, &count);
	if (!val)
		return sli_p_error_at(P, sli_p_tok_loc(P, &name),
		                      "use of undeclared SSA value name");
	if (index >= count)
		return sli_p_error_at(P, sli_p_tok_loc(P, &name),
		                      "reference to invalid result number");
	(void)has_index;
	*out = val + index;
	return 0;
}

int
sli_p_optional_operand(sli_parser *P, sl_value **out)
{
	if (!sli_p_is(P, SL_TOK_PERCENT))
		return 0;
	return sli_p_operand(P, out) ? -1 : 1;
}

int
sli_p_operand_list(sli_parser *P, sli_opstate *st)
{
	if (!sli_p_is(P, SL_TOK_PERCENT))
		return 0;
	do {
		sl_value *v;
		if (sli_p_operand(P, &v))
			return -1;
		SL_VEC_PUSH(st->operands, v);
	} while (sli_p_accept(P, SL_TOK_COMMA));
	return 0;
}

/* ==================================================================== */
/* Scalars                                                                */
/* ==================================================================== */

/* Parses the digits of an INT token into *out; false on overflow. */
static bool
tok_u64(const sli_token *t, uint64_t *out)
{
	uint64_t v = 0;
	if (t->n > 2 && t->p[1] == 'x') {
		for (uint32_t i = 2; i < t->n; i++) {
			char c = t->p[i];
			unsigned d = c <= '9' ? (unsigned)(c - '0') : (unsigned)((c | 32) - 'a' + 10);
			if (v > (UINT64_MAX >> 4))
				return false;
			v = v << 4 | d;
		}
	} else {
		for (uint32_t i = 0; i < t->n; i++) {
			unsigned d = (unsigned)(t->p[i] - '0');
			if (v > (UINT64_MAX - d) / 10)
				return false;
			v = v * 10 + d;
		}
	}
	*out = v;
	return true;
}

int
sli_p_int(sli_parser *P, int64_t *out)
{
	bool neg = sli_p_accept(P, SL_TOK_MINUS);
	if (!sli_p_is(P, SL_TOK_INT))
		return sli_p_error(P, "expected integer value");
	uint64_t u;
	if (!tok_u64(&P->tok, &u) || u > (uint64_t)INT64_MAX + neg)
		return sli_p_error(P, "integer value too large");
	*out = neg ? (int64_t)(0 - u) : (int64_t)u;
	sli_p_next(P);
	return 0;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decodes a STRING token's escapes into the module arena. */
static int
decode_string(sli_parser *P, const sli_token *t, const char **s, size_t *n)
{
	const char *p = t->p + 1, *e = t->p + t->n - 1;
	char *out = sli_arena_alloc(&P->m->arena, (size_t)(e - p) + 1);
	size_t k = 0;
	while (p < e) {
		if (*p != '\\') {
			out[k++] = *p++;
			continue;
		}
		p++;
		switch (*p) {
		case 'n': out[k++] = '\n'; p++; break;
		case 't': out[k++] = '\t'; p++; break;
		case '\\': out[k++] = '\\'; p++; break;
		case '"': out[k++] = '"'; p++; break;
		default:
			if (p + 1 < e && hexval(p[0]) >= 0 && hexval(p[1]) >= 0) {
				out[k++] = (char)(hexval(p[0]) * 16 + hexval(p[1]));
				p += 2;
				break;
			}
			return sli_p_error_at(P, sli_p_tok_loc(P, t), "unknown escape in string literal");
		}
	}
	out[k] = 0;
	*s = out;
	*n = k;
	return 0;
}

int
sli_p_string(sli_parser *P, const char **s, size_t *n)
{
	if (!sli_p_is(P, SL_TOK_STRING))
		return sli_p_error(P, "expected string");
	if (decode_string(P, &P->tok, s, n))
		return -1;
	sli_p_next(P);
	return 0;
}

int
sli_p_int_list(sli_parser *P, int64_t **v, uint32_t *n)
{
	/* short lists (dimension numbers) on the stack, not malloc'ed */
	int64_t small[16], *buf = small;
	size_t k = 0, cap = sizeof small / sizeof *small;
	int rc = -1;
	if (sli_p_expect(P, SL_TOK_LSQUARE, "'['"))
		return -1;
	if (!sli_p_is(P, SL_TOK_RSQUARE)) {
		do {
			int64_t x;
			if (sli_p_int(P, &x))
				goto out;
			if (k == cap) {
				int64_t *bigger = sli_xmalloc(sizeof *buf * cap * 2);
				memcpy(bigger, buf, sizeof *buf * k);
				if (buf != small)
					free(buf);
				buf = bigger;
				cap *= 2;
			}
			buf[k++] = x;
		} while (sli_p_accept(P, SL_TOK_COMMA));
	}
	if (sli_p_expect(P, SL_TOK_RSQUARE, "']'"))
		goto out;
	*n = (uint32_t)k;
	/* shared: dimension lists repeat on thousands of ops */
	*v = (int64_t *)sli_module_share(P->m, buf, sizeof *buf * k);
	rc = 0;
out:
	if (buf != small)
		free(buf);
	return rc;
}

/* ==================================================================== */
/* Raw scanning of balanced text (dense<...>, opaque attributes, loc)   */
/* ==================================================================== */

/*
 * From p (at an opening bracket), returns the position just after the
 * matching closer, skipping strings and treating "->" as no bracket.
 * NULL when the text ends first.  Updates the lexer's line tracking.
 */
/* The bytes scan_balanced stops at; types are mostly other bytes. */
static const unsigned char balanced_stop[256] = {
	['"'] = 1, ['\n'] = 1, ['-'] = 1, ['<'] = 1, ['('] = 1, ['['] = 1, ['{'] = 1,
	['>'] = 1, [')'] = 1, [']'] = 1, ['}'] = 1,
};

static const char *
scan_balanced(sli_parser *P, const char *p)
{
	const char *e = P->lx.end;
	size_t depth = 0;
	while (p < e) {
		char c = *p;
		if (!balanced_stop[(unsigned char)c]) {
			p++;
			continue;
		}
		if (c == '"') {
			p++;
			while (p < e && *p != '"') {
				if (*p == '\\')
					p++;
				p++;
			}
			if (p >= e)
				return NULL;
			p++;
			continue;
		}
		if (c == '\n') {
			P->lx.line++;
			P->lx.line_start = p + 1;
		} else if (c == '-' && p + 1 < e && p[1] == '>') {
			p += 2;
			continue;
		} else if (c == '<' || c == '(' || c == '[' || c == '{') {
			depth++;
		} else if (c == '>' || c == ')' || c == ']' || c == '}') {
			if (depth == 0)
				return NULL;
			if (--depth == 0)
				return p + 1;
		}
		p++;
	}
	return NULL;
}

/* Consumes balanced text that starts at the current token's first byte
 * with an opener at `open`; returns the end, or NULL after an error. */
static const char *
take_balanced(sli_parser *P, const char *open, const char *what)
{
	const char *end = scan_balanced(P, open);
	if (!end) {
		sli_p_error(P, "unbalanced brackets in %s", what);
		return NULL;
	}
	P->lx.cur = end;
	sli_p_next(P);
	return end;
}

/* ==================================================================== */
/* Types                                                                  */
/* ==================================================================== */

/* Tensor types by their spelling: the table holds index + 1 in ents. */
typedef struct tcent {
	const char *p;
	uint32_t n;
	uint32_t next_sig;	/* the next signature of the same sig_head chain */
	sl_type *type;
} tcent;

/* Signatures are also found by their first SIG_PREFIX bytes (sig_find). */
#define SIG_PREFIX 32
#define SIG_BITS 10

struct sli_typecache {
	SL_VEC(tcent) ents;
	sli_htab index;
	uint32_t sig_head[1u << SIG_BITS];	/* index + 1 in ents, or 0 */
};

typedef struct tc_key {
	const struct sli_typecache *c;
	const char *p;
	uint32_t n;
} tc_key;

static bool
tc_eq(const void *item, const void *key)
{
	const tc_key *k = key;
	const tcent *e = &k->c->ents.v[(uintptr_t)item - 1];
	return e->n == k->n && memcmp(e->p, k->p, k->n) == 0;
}

static sl_type *
tc_find(struct sli_typecache *c, const char *p, uint32_t n, uint64_t h)
{
	tc_key k = {c, p, n};
	void *item = sli_htab_get(&c->index, h, tc_eq, &k);
	return item ? c->ents.v[(uintptr_t)item - 1].type : NULL;
}

/* Inserts a spelling; returns its entry's index + 1, or 0 if it was in. */
static uint32_t
tc_insert(struct sli_typecache *c, const char *p, uint32_t n, uint64_t h, sl_type *t)
{
	tc_key k = {c, p, n};
	sli_hslot *slot = sli_htab_slot(&c->index, h, tc_eq, &k, 256);
	if (slot->item)
		return 0;
	tcent e = {p, n, 0, t};
	SL_VEC_PUSH(c->ents, e);
	sli_htab_fill(&c->index, slot, h, (void *)(uintptr_t)c->ents.n);
	return (uint32_t)c->ents.n;
}

/* The sig_head chain of the text whose first SIG_PREFIX bytes are at p. */
static uint32_t *
sig_chain(struct sli_typecache *c, const char *p)
{
	uint64_t w[SIG_PREFIX / 8], h = 0;
	memcpy(w, p, sizeof w);
	for (size_t i = 0; i < SIG_PREFIX / 8; i++)
		h = (h ^ w[i]) * 0xff51afd7ed558ccdull;
	return &c->sig_head[h >> (64 - SIG_BITS)];
}

/*
 * A cached signature that the text at p (up to e) starts with, its end in
 * *end.  The end of a functional type that closes with ')' or '>' depends
 * only on its own bytes, so a text that starts with one has the same
 * functional type, ending at the same place; only such signatures are
 * chained (sig_add), and at most one of them can match.
 */
static sl_type *
sig_find(struct sli_typecache *c, const char *p, const char *e, const char **end)
{
	if (e - p < SIG_PREFIX)
		return NULL;
	for (uint32_t i = *sig_chain(c, p); i; i = c->ents.v[i - 1].next_sig) {
		const tcent *t = &c->ents.v[i - 1];
		if (t->n <= (size_t)(e - p) && memcmp(t->p, p, t->n) == 0) {
			*end = p + t->n;
			return t->type;
		}
	}
	return NULL;
}

/* Chains entry i (index + 1) of a function type for sig_find, if it fits. */
static void
sig_add(struct sli_typecache *c, uint32_t i)
{
	tcent *t = &c->ents.v[i - 1];
	char last = t->n ? t->p[t->n - 1] : 0;
	if (t->n < SIG_PREFIX || (last != ')' && last != '>'))
		return;
	uint32_t *head = sig_chain(c, t->p);
	t->next_sig = *head;
	*head = i;
}

typedef struct sli_alias {
	const char *p;		/* name with its '#' or '!' */
	uint32_t n;
	sl_attr *attr;
	sl_type *type;
} sli_alias;

static sli_alias *
find_alias(sli_parser *P, const sli_token *t)
{
	for (size_t i = 0; i < P->naliases; i++)
		if (P->aliases[i].n == t->n && memcmp(P->aliases[i].p, t->p, t->n) == 0)
			return &P->aliases[i];
	return NULL;
}

static bool
is_elem_type_name(const char *p, uint32_t n)
{
	if (n >= 2 && (p[0] == 'i' || p[0] == 'f')) {
		uint32_t i = 1;
		while (i < n && p[i] >= '0' && p[i] <= '9')
			i++;
		if (i == n)
			return true;
		if (p[0] == 'f' && i > 1)
			return true;	/* f8E4M3FN and friends */
	}
	if (n >= 3 && (p[0] == 's' || p[0] == 'u') && p[1] == 'i') {
		uint32_t i = 2;
		while (i < n && p[i] >= '0' && p[i] <= '9')
			i++;
		return i == n;
	}
	return (n == 4 && (!memcmp(p, "bf16", 4) || !memcmp(p, "tf32", 4) || !memcmp(p, "none", 4))) ||
	       (n == 5 && !memcmp(p, "index", 5));
}

static bool
is_type_start(const sli_parser *P)
{
	const sli_token *t = &P->tok;
	if (t->kind == SL_TOK_BANG || t->kind == SL_TOK_LPAREN)
		return true;
	if (t->kind != SL_TOK_IDENT)
		return false;
	return is_elem_type_name(t->p, t->n) || sli_p_is_kw(P, "tensor") ||
	       sli_p_is_kw(P, "tuple") || sli_p_is_kw(P, "complex") ||
	       sli_p_is_kw(P, "vector") || sli_p_is_kw(P, "memref");
}

/* Parses the dims and element type of tensor<...>; current token is '<'. */
static int
parse_tensor_body(sli_parser *P, sl_type **out)
{
	const char *p = P->tok.p + 1, *e = P->lx.end;
	SL_VEC(int64_t) dims = {0};
	bool unranked = false;
	int rc = -1;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (p < e && *p == '*') {
		if (p + 1 >= e || p[1] != 'x') {
			P->lx.cur = p;
			sli_p_next(P);
			sli_p_error(P, "expected 'x' in unranked tensor type");
			goto done;
		}
		unranked = true;
		p += 2;
	} else {
		for (;;) {
			int64_t d;
			const char *q = p;
			if (q < e && *q == '?') {
				d = SL_DYN;
				q++;
			} else if (q < e && *q >= '0' && *q <= '9') {
				uint64_t v = 0;
				while (q < e && *q >= '0' && *q <= '9') {
					unsigned dig = (unsigned)(*q - '0');
					if (v > ((uint64_t)INT64_MAX - dig) / 10) {
						P->lx.cur = p;
						sli_p_next(P);
						sli_p_error(P, "dimension size is too large");
						goto done;
					}
					v = v * 10 + dig;
					q++;
				}
				d = (int64_t)v;
			} else {
				break;
			}
			if (q >= e || *q != 'x') {
				P->lx.cur = q;
				sli_p_next(P);
				sli_p_error(P, "expected 'x' in dimension list");
				goto done;
			}
			SL_VEC_PUSH(dims, d);
			p = q + 1;
		}
	}
	P->lx.cur = p;
	sli_p_next(P);
	sl_type *elem;
	if (sli_p_type(P, &elem))
		goto done;
	sl_sym enc = 0;
	if (sli_p_accept(P, SL_TOK_COMMA)) {
		const char *start = P->tok.p;
		sl_attr *a;
		if (sli_p_attr(P, &a))
			goto done;
		const char *end = P->tok.p;
		while (end > start && (end[-1] == ' ' || end[-1] == '\n'))
			end--;
		enc = sl_sym_intern(P->ctx, start, (size_t)(end - start));
	}
	if (sli_p_expect(P, SL_TOK_GREATER, "'>' in tensor type"))
		goto done;
	if (dims.n > UINT32_MAX / 2) {
		sli_p_error(P, "tensor rank is too large");
		goto done;
	}
	*out = sli_type_tensor(P->ctx, (uint32_t)dims.n, dims.v, elem, enc, unranked);
	rc = 0;
done:
	SL_VEC_FREE(dims);
	return rc;
}

static int
parse_type_uncached(sli_parser *P, sl_type **out)
{
	sli_token t = P->tok;
	if (t.kind == SL_TOK_IDENT) {
		if (sli_p_is_kw(P, "tensor")) {
			sli_p_next(P);
			if (!sli_p_is(P, SL_TOK_LESS))
				return sli_p_error(P, "expected '<' in tensor type");
			return parse_tensor_body(P, out);
		}
		if (sli_p_is_kw(P, "tuple")) {
			sli_p_next(P);
			if (sli_p_expect(P, SL_TOK_LESS, "'<'"))
				return -1;
			sli_typevec ts = {0};
			if (!sli_p_is(P, SL_TOK_GREATER) && sli_p_type_list(P, &ts)) {
				SL_VEC_FREE(ts);
				return -1;
			}
			if (sli_p_expect(P, SL_TOK_GREATER, "'>'")) {
				SL_VEC_FREE(ts);
				return -1;
			}
			*out = sli_type_tuple(P->ctx, (uint32_t)ts.n, ts.v);
			SL_VEC_FREE(ts);
			return 0;
		}
		if (sli_p_is_kw(P, "complex")) {
			sli_p_next(P);
			if (sli_p_expect(P, SL_TOK_LESS, "'<'"))
				return -1;
			sl_type *inner;
			if (sli_p_type(P, &inner) || sli_p_expect(P, SL_TOK_GREATER, "'>'"))
				return -1;
			sli_buf b;
			sli_buf_init(&b);
			sli_buf_printf(&b, "complex<%s>", sl_sym_str(P->ctx, inner->text));
			*out = sli_type_elem(P->ctx, b.p, b.n);
			sli_buf_fini(&b);
			return 0;
		}
		if (sli_p_is_kw(P, "vector") || sli_p_is_kw(P, "memref")) {
			sli_p_next(P);
			const char *end = take_balanced(P, P->tok.p, "type");
			if (!end)
				return -1;
			*out = sli_type_other(P->ctx, t.p, (size_t)(end - t.p));
			return 0;
		}
		if (is_elem_type_name(t.p, t.n)) {
			sli_p_next(P);
			*out = sli_type_elem(P->ctx, t.p, t.n);
			return 0;
		}
		return sli_p_error(P, "expected type, found '%.*s'", (int)t.n, t.p);
	}
	if (t.kind == SL_TOK_BANG) {
		if (t.n == 16 && memcmp(t.p, "!stablehlo.token", 16) == 0) {
			sli_p_next(P);
			*out = sli_type_token(P->ctx);
			return 0;
		}
		sli_alias *al = find_alias(P, &t);
		if (al && al->type) {
			sli_p_next(P);
			*out = al->type;
			return 0;
		}
		if (t.n < 2 || !memchr(t.p, '.', t.n))
			return sli_p_error(P, "undefined symbol alias id '%.*s'", (int)t.n - 1, t.p + 1);
		/* !dialect.type or !dialect.type<...>: kept as text */
		const char *end = t.p + t.n;
		if (end < P->lx.end && *end == '<') {
			end = scan_balanced(P, end);
			if (!end)
				return sli_p_error(P, "unbalanced brackets in type");
		}
		P->lx.cur = end;
		sli_p_next(P);
		*out = sli_type_other(P->ctx, t.p, (size_t)(end - t.p));
		return 0;
	}
	if (t.kind == SL_TOK_LPAREN)
		return sli_p_fn_type(P, out);
	return sli_p_error(P, "expected type");
}

int
sli_p_type(sli_parser *P, sl_type **out)
{
	if (enter(P))
		return -1;
	int rc;
	if (sli_p_is_kw(P, "tensor")) {
		/* Fast path: identical spellings of tensor types are frequent. */
		const char *start = P->tok.p, *lt = start + P->tok.n;
		uint32_t line = P->lx.line;
		const char *ls = P->lx.line_start;
		const char *end = lt < P->lx.end && *lt == '<' ? scan_balanced(P, lt) : NULL;
		P->lx.line = line;
		P->lx.line_start = ls;
		if (end && memchr(start, '\n', (size_t)(end - start)) == NULL) {
			uint32_t n = (uint32_t)(end - start);
			uint64_t h = sli_hash_words(start, n);
			sl_type *t = tc_find(P->typecache, start, n, h);
			if (t) {
				P->lx.cur = end;
				sli_p_next(P);
				*out = t;
				leave(P);
				return 0;
			}
			rc = parse_type_uncached(P, out);
			if (!rc && P->tok.p >= end)
				tc_insert(P->typecache, start, n, h, *out);
			leave(P);
			return rc;
		}
	}
	rc = parse_type_uncached(P, out);
	leave(P);
	return rc;
}

int
sli_p_type_list(sli_parser *P, sli_typevec *out)
{
	do {
		sl_type *t;
		if (sli_p_type(P, &t))
			return -1;
		SL_VEC_PUSH(*out, t);
	} while (sli_p_accept(P, SL_TOK_COMMA));
	return 0;
}

/* '(' types? ')' or a single type (as a function result). */
static int
parse_type_list_parens(sli_parser *P, sli_typevec *out, bool allow_single)
{
	if (sli_p_accept(P, SL_TOK_LPAREN)) {
		if (sli_p_accept(P, SL_TOK_RPAREN))
			return 0;
		if (sli_p_type_list(P, out))
			return -1;
		return sli_p_expect(P, SL_TOK_RPAREN, "')'");
	}
	if (!allow_single)
		return sli_p_error(P, "expected '('");
	sl_type *t;
	if (sli_p_type(P, &t))
		return -1;
	SL_VEC_PUSH(*out, t);
	return 0;
}

static int
functional_type_uncached(sli_parser *P, sli_typevec *ins, sli_typevec *outs)
{
	if (parse_type_list_parens(P, ins, false))
		return -1;
	if (sli_p_expect(P, SL_TOK_ARROW, "'->'"))
		return -1;
	return parse_type_list_parens(P, outs, true);
}

static const char *
skip_blanks(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/*
 * The end of the text of a functional type "(...) -> (...)" or "(...) ->
 * name<...>" that starts at the current '(' and sits on one line, or
 * NULL: the key of the type cache, whose entries hold the function type.
 */
static const char *
functional_type_end(sli_parser *P)
{
	const char *start = P->tok.p, *e = P->lx.end, *p;
	uint32_t line = P->lx.line;
	const char *ls = P->lx.line_start;
	if (P->tok.kind != SL_TOK_LPAREN || !(p = scan_balanced(P, start)))
		goto no;	/* p unset (or NULL): no key */
	p = skip_blanks(p, e);
	if (e - p < 2 || p[0] != '-' || p[1] != '>')
		goto no;
	p = skip_blanks(p + 2, e);
	if (p < e && *p == '(') {
		p = scan_balanced(P, p);
	} else if (p < e && ((*p >= 'a' && *p <= 'z') || *p == '!')) {
		p++;
		while (p < e && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		                 (*p >= '0' && *p <= '9') || *p == '_' || *p == '.'))
			p++;
		if (p < e && *p == '<')
			p = scan_balanced(P, p);
	} else {
		p = NULL;
	}
	if (p && memchr(start, '\n', (size_t)(p - start)))
		p = NULL;
	goto out;
no:
	p = NULL;
out:
	P->lx.line = line;
	P->lx.line_start = ls;
	return p;
}

/* Whether the parse stopped right at end: nothing but white space between. */
static bool
consumed_to(const sli_parser *P, const char *end)
{
	if (P->tok.p < end)
		return false;
	for (const char *q = end; q < P->tok.p; q++)
		if (*q != ' ' && *q != '\t' && *q != '\r' && *q != '\n')
			return false;
	return true;
}

/*
 * Ops of a model repeat their signatures: the text of a whole functional
 * type is looked up first, and parsed (then cached) only when new.
 */
int
sli_p_fn_type(sli_parser *P, sl_type **out)
{
	const char *start = P->tok.p, *end;
	sl_type *t = P->tok.kind == SL_TOK_LPAREN ?
		sig_find(P->typecache, start, P->lx.end, &end) : NULL;
	if (t) {
		P->lx.cur = end;
		sli_p_next(P);
		*out = t;
		return 0;
	}
	end = functional_type_end(P);
	uint32_t n = end ? (uint32_t)(end - start) : 0;
	uint64_t h = end ? sli_hash_words(start, n) : 0;
	t = end ? tc_find(P->typecache, start, n, h) : NULL;
	if (t && t->kind == SL_TYPE_FUNC) {
		P->lx.cur = end;
		sli_p_next(P);
		*out = t;
		return 0;
	}
	sli_typevec ins = {0}, outs = {0};
	int rc = functional_type_uncached(P, &ins, &outs);
	if (!rc) {
		*out = sli_type_func(P->ctx, (uint32_t)ins.n, ins.v, (uint32_t)outs.n, outs.v);
		uint32_t i = end && consumed_to(P, end) ?
			tc_insert(P->typecache, start, n, h, *out) : 0;
		if (i)
			sig_add(P->typecache, i);
	}
	SL_VEC_FREE(ins);
	SL_VEC_FREE(outs);
	return rc;
}

int
sli_p_functional_type(sli_parser *P, sli_typevec *ins, sli_typevec *outs)
{
	sl_type *t;
	if (sli_p_fn_type(P, &t))
		return -1;
	for (uint32_t i = 0; i < t->rank; i++)
		SL_VEC_PUSH(*ins, t->types[i]);
	for (uint32_t i = 0; i < t->nres; i++)
		SL_VEC_PUSH(*outs, t->types[t->rank + i]);
	return 0;
}

/* ==================================================================== */
/* Attributes                                                             */
/* ==================================================================== */

sl_attr *
sli_p_named_get(const sli_namedvec *v, sl_sym name)
{
	return sli_dict_get(v->v, (uint32_t)v->n, name);
}

void
sli_p_named_add(sli_namedvec *v, sl_sym name, sl_attr *a)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->v[i].name == name) {
			v->v[i].attr = a;
			return;
		}
	sl_named_attr na = {name, a};
	SL_VEC_PUSH(*v, na);
}

static sl_attr *
new_attr(sli_parser *P, sl_attr_kind k, sl_loc loc)
{
	sl_attr *a = sli_attr_new(P->m, k);
	a->loc = loc;
	return a;
}

/* Optional ": type" after a literal. */
static int
optional_colon_type(sli_parser *P, sl_type **t)
{
	*t = NULL;
	if (!sli_p_accept(P, SL_TOK_COLON))
		return 0;
	return sli_p_type(P, t);
}

static int
parse_dense_array(sli_parser *P, sl_attr *a)
{
	/* array<i64: 1, 2> ; current token is '<' */
	sli_p_next(P);
	sl_type *elem;
	if (sli_p_type(P, &elem))
		return -1;
	a->u.darr.elem = elem;
	SL_VEC(int64_t) v = {0};
	const char *start = P->tok.p;
	bool ints = true;
	if (sli_p_accept(P, SL_TOK_COLON)) {
		start = P->tok.p;
		do {
			bool neg = sli_p_accept(P, SL_TOK_MINUS);
			uint64_t u;
			if (sli_p_is(P, SL_TOK_INT) && tok_u64(&P->tok, &u)) {
				SL_VEC_PUSH(v, neg ? (int64_t)(0 - u) : (int64_t)u);
				sli_p_next(P);
			} else if (sli_p_is_kw(P, "true") || sli_p_is_kw(P, "false")) {
				SL_VEC_PUSH(v, sli_p_is_kw(P, "true"));
				sli_p_next(P);
			} else if (sli_p_is(P, SL_TOK_FLOAT) || sli_p_is(P, SL_TOK_INT)) {
				ints = false;
				sli_p_next(P);
			} else {
				SL_VEC_FREE(v);
				return sli_p_error(P, "expected integer or float in array");
			}
		} while (sli_p_accept(P, SL_TOK_COMMA));
	}
	const char *end = P->tok.p;
	if (sli_p_expect(P, SL_TOK_GREATER, "'>'")) {
		SL_VEC_FREE(v);
		return -1;
	}
	a->u.darr.n = (uint32_t)v.n;
	a->u.darr.v = (int64_t *)sli_module_share(P->m, v.v, sizeof *v.v * v.n);
	if (!ints || elem->bits == 1) {
		while (end > start && (end[-1] == ' ' || end[-1] == '\n'))
			end--;
		a->u.darr.text = sl_sym_intern(P->ctx, start, (size_t)(end - start));
	}
	SL_VEC_FREE(v);
	return 0;
}

/*
 * Float literals as MLIR prints them: "%.6e" when that reads back to the
 * same value in the literal's type, else the text as written (more
 * digits, hex bit patterns).  f16 and bf16 values are rounded to their
 * type before the check.
 */
static double
round_to(double v, int kind)
{
	if (kind == 32)
		return (double)(float)v;
	if (kind == 16) {
#ifdef __FLT16_MAX__
		return (double)(_Float16)v;
#else
		return v;
#endif
	}
	if (kind == 'b') {
		/* bf16: the upper half of an f32, rounded to nearest even */
		float f = (float)v;
		uint32_t bits;
		memcpy(&bits, &f, 4);
		if ((bits & 0x7f800000u) != 0x7f800000u)
			bits += 0x7fffu + ((bits >> 16) & 1u);
		bits &= 0xffff0000u;
		memcpy(&f, &bits, 4);
		return (double)f;
	}
	return v;
}

/* Float type kind: 64, 32, 16, 'b' (bf16), or 0 for others. */
static int
float_kind(const char *ty)
{
	if (!strcmp(ty, "f64"))
		return 64;
	if (!strcmp(ty, "f32"))
		return 32;
	if (!strcmp(ty, "bf16"))
		return 'b';
#ifdef __FLT16_MAX__
	if (!strcmp(ty, "f16"))
		return 16;
#endif
	return 0;
}

/* Writes the canonical spelling of the decimal literal s[0..n) into out
 * (size >= 64); returns false to keep the literal as written. */
static bool
canonical_float(const char *s, size_t n, int kind, char *out)
{
	char in[64];
	if (!kind || n >= sizeof in)
		return false;
	memcpy(in, s, n);
	in[n] = 0;
	char *end;
	double v = round_to(strtod(in, &end), kind);
	if (*end || v != v || v - v != 0)
		return false;
	snprintf(out, 64, "%.6e", v);
	return round_to(strtod(out, NULL), kind) == v;
}

static sl_sym
float_text(sli_parser *P, const char *s, size_t n, bool decimal, const sl_type *t)
{
	char out[64];
	if (decimal && canonical_float(s, n, float_kind(sl_sym_str(P->ctx, t->text)), out))
		return sl_sym_intern(P->ctx, out, strlen(out));
	return sl_sym_intern(P->ctx, s, n);
}

/*
 * The body of dense<...> as MLIR prints it: ", " between elements, float
 * elements in canonical form, and a single value when every element is
 * the same (a splat).  Hex and string bodies are kept.
 */
static char *
dense_body(sli_parser *P, const char *s, size_t n, const sl_type *type, size_t *outn)
{
	const sl_type *elem = type->kind == SL_TYPE_TENSOR ? type->elem : type;
	const char *ety = elem ? sl_sym_str(P->ctx, elem->text) : "";
	bool complex = !strncmp(ety, "complex<", 8);
	char inner[16] = "";
	if (complex) {
		size_t k = strlen(ety) - 9;
		if (k < sizeof inner) {
			memcpy(inner, ety + 8, k);
			inner[k] = 0;
		}
		ety = inner;
	}
	int kind = float_kind(ety);
	if (memchr(s, '"', n)) {
		*outn = n;
		return sli_arena_strndup(&P->m->arena, s, n);
	}
	sli_buf b;
	sli_buf_init(&b);
	size_t first_off = 0, first_len = 0, leaves = 0;
	bool splat = true, nested = false;
	for (size_t i = 0; i < n;) {
		char c = s[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			i++;
			continue;
		}
		if (c == '[' || (c == '(' && !complex)) {
			nested = true;
			sli_buf_putc(&b, c);
			i++;
			continue;
		}
		if (c == ']' || (c == ')' && !complex)) {
			sli_buf_putc(&b, c);
			i++;
			continue;
		}
		if (c == ',') {
			sli_buf_puts(&b, ", ");
			i++;
			continue;
		}
		/* a leaf: a number, a word, or a complex "(re, im)" pair */
		size_t start = b.n;
		if (c == '(' && complex) {
			size_t j = i + 1;
			sli_buf_putc(&b, '(');
			while (j < n && s[j] != ')') {
				while (j < n && (s[j] == ' ' || s[j] == ',')) {
					if (s[j] == ',')
						sli_buf_puts(&b, ", ");
					j++;
				}
				size_t k = j;
				while (k < n && s[k] != ',' && s[k] != ')' && s[k] != ' ')
					k++;
				char out[64];
				if (canonical_float(s + j, k - j, kind, out))
					sli_buf_puts(&b, out);
				else
					sli_buf_put(&b, s + j, k - j);
				j = k;
			}
			sli_buf_putc(&b, ')');
			i = j < n ? j + 1 : n;
		} else {
			size_t j = i;
			while (j < n && s[j] != ',' && s[j] != ']' && s[j] != ')' && s[j] != ' ' &&
			       s[j] != '\n' && s[j] != '[')
				j++;
			if (j == i) {
				sli_buf_putc(&b, c);
				i++;
				continue;
			}
			char out[64];
			bool hex = j - i > 2 && s[i] == '0' && s[i + 1] == 'x';
			if (!hex && canonical_float(s + i, j - i, kind, out))
				sli_buf_puts(&b, out);
			else
				sli_buf_put(&b, s + i, j - i);
			i = j;
		}
		size_t len = b.n - start;
		if (leaves == 0) {
			first_off = start;
			first_len = len;
		} else if (len != first_len || memcmp(b.p + first_off, b.p + start, len)) {
			splat = false;
		}
		leaves++;
	}
	char *out;
	if (nested && splat && leaves > 0) {
		out = sli_arena_strndup(&P->m->arena, b.p + first_off, first_len);
		*outn = first_len;
	} else {
		out = sli_arena_strndup(&P->m->arena, b.p ? b.p : "", b.n);
		*outn = b.n;
	}
	sli_buf_fini(&b);
	return out;
}

/* Opaque attribute text with white space runs collapsed, as a printer
 * would write it: none after an opener or before a closer or comma. */
static char *
opaque_text(sli_parser *P, const char *s, size_t n, size_t *outn)
{
	char *out = sli_arena_alloc(&P->m->arena, n + 1);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '"') {
			size_t j = i + 1;
			while (j < n && s[j] != '"') {
				if (s[j] == '\\')
					j++;
				j++;
			}
			if (j >= n)
				j = n - 1;
			memcpy(out + k, s + i, j - i + 1);
			k += j - i + 1;
			i = j;
			continue;
		}
		if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
			size_t j = i;
			while (j < n && (s[j] == ' ' || s[j] == '\n' || s[j] == '\t' || s[j] == '\r'))
				j++;
			bool after_open = k > 0 && strchr("<([{", out[k - 1]);
			bool before_close = j < n && strchr(">)]},", s[j]) && !(s[j] == '>' && k && out[k - 1] == '-');
			if (!after_open && !before_close && k > 0 && j < n)
				out[k++] = ' ';
			i = j - 1;
			continue;
		}
		out[k++] = c;
	}
	out[k] = 0;
	*outn = k;
	return out;
}

static bool
is_sdy_mnemonic(const sli_token *t, const char **mn, size_t *n)
{
	if (t->n > 5 && memcmp(t->p, "#sdy.", 5) == 0) {
		*mn = t->p + 5;
		*n = t->n - 5;
		return true;
	}
	if (t->n == 4 && memcmp(t->p, "#sdy", 4) == 0) {
		*mn = "";
		*n = 0;
		return true;
	}
	return false;
}

static int
parse_attr_inner(sli_parser *P, sl_attr **out)
{
	sli_token t = P->tok;
	sl_loc loc = sli_p_loc(P);
	sl_attr *a;
	switch (t.kind) {
	case SL_TOK_MINUS:
	case SL_TOK_INT:
	case SL_TOK_FLOAT: {
		bool neg = sli_p_accept(P, SL_TOK_MINUS);
		sli_token num = P->tok;
		if (num.kind != SL_TOK_INT && num.kind != SL_TOK_FLOAT)
			return sli_p_error(P, "expected integer or float");
		sli_p_next(P);
		sl_type *ty;
		if (optional_colon_type(P, &ty))
			return -1;
		const char *s = neg ? t.p : num.p;
		size_t n = (size_t)(num.p + num.n - s);
		bool isfloat = num.kind == SL_TOK_FLOAT ||
		               (ty && ty->kind == SL_TYPE_ELEM &&
		                (sl_sym_str(P->ctx, ty->text)[0] == 'f' ||
		                 sl_sym_str(P->ctx, ty->text)[0] == 'b'));
		if (isfloat) {
			a = new_attr(P, SL_ATTR_FLOAT, loc);
			a->u.f.type = ty ? ty : sli_type_elem(P->ctx, "f64", 3);
			a->u.f.text = float_text(P, s, n, num.kind == SL_TOK_FLOAT, a->u.f.type);
		} else {
			a = new_attr(P, SL_ATTR_INT, loc);
			uint64_t u;
			bool ok = tok_u64(&num, &u) && u <= (uint64_t)INT64_MAX + neg;
			bool hex = num.n > 2 && num.p[1] == 'x';
			a->u.i.v = ok ? (neg ? (int64_t)(0 - u) : (int64_t)u) : 0;
			a->u.i.type = ty ? ty : sli_type_elem(P->ctx, "i64", 3);
			if (!ok || hex) {
				a->u.i.big = true;
				a->u.i.text = sl_sym_intern(P->ctx, s, n);
			}
		}
		break;
	}
	case SL_TOK_STRING: {
		a = new_attr(P, SL_ATTR_STRING, loc);
		if (sli_p_string(P, &a->u.s.p, &a->u.s.n))
			return -1;
		sl_type *ty;
		if (optional_colon_type(P, &ty))
			return -1;
		if (ty) {
			/* "..." : type keeps its type as opaque text */
			sl_attr *o = new_attr(P, SL_ATTR_OPAQUE, loc);
			const char *end = P->tok.p;
			while (end > t.p && (end[-1] == ' ' || end[-1] == '\n'))
				end--;
			o->u.text.p = sli_arena_strndup(&P->m->arena, t.p, (size_t)(end - t.p));
			o->u.text.n = (size_t)(end - t.p);
			a = o;
		}
		break;
	}
	case SL_TOK_LSQUARE: {
		sli_p_next(P);
		SL_VEC(sl_attr *) v = {0};
		if (!sli_p_is(P, SL_TOK_RSQUARE)) {
			do {
				sl_attr *e;
				if (sli_p_attr(P, &e)) {
					SL_VEC_FREE(v);
					return -1;
				}
				SL_VEC_PUSH(v, e);
			} while (sli_p_accept(P, SL_TOK_COMMA));
		}
		if (sli_p_expect(P, SL_TOK_RSQUARE, "']'")) {
			SL_VEC_FREE(v);
			return -1;
		}
		a = new_attr(P, SL_ATTR_ARRAY, loc);
		a->u.arr.n = (uint32_t)v.n;
		a->u.arr.v = v.n ? sli_arena_dup(&P->m->arena, v.v, sizeof *v.v * v.n) : NULL;
		SL_VEC_FREE(v);
		break;
	}
	case SL_TOK_LBRACE: {
		sli_namedvec v = {0};
		if (sli_p_optional_attr_dict(P, &v) < 0) {
			SL_VEC_FREE(v);
			return -1;
		}
		a = new_attr(P, SL_ATTR_DICT, loc);
		sli_sort_named(P->ctx, v.v, (uint32_t)v.n);
		a->u.dict.n = (uint32_t)v.n;
		a->u.dict.v = v.n ? sli_arena_dup(&P->m->arena, v.v, sizeof *v.v * v.n) : NULL;
		SL_VEC_FREE(v);
		break;
	}
	case SL_TOK_AT: {
		/* @a or @a::@b */
		const char *start = t.p + 1;
		const char *end = t.p + t.n;
		sli_p_next(P);
		while (sli_p_is(P, SL_TOK_COLONCOLON)) {
			sli_p_next(P);
			if (!sli_p_is(P, SL_TOK_AT))
				return sli_p_error(P, "expected symbol reference");
			end = P->tok.p + P->tok.n;
			sli_p_next(P);
		}
		a = new_attr(P, SL_ATTR_SYMREF, loc);
		if (*start == '"' && end == t.p + t.n) {
			/* @"quoted name": keep the name itself */
			sli_token q = t;
			q.p++;
			q.n--;
			if (decode_string(P, &q, &a->u.text.p, &a->u.text.n))
				return -1;
			break;
		}
		a->u.text.p = sli_arena_strndup(&P->m->arena, start, (size_t)(end - start));
		a->u.text.n = (size_t)(end - start);
		break;
	}
	case SL_TOK_HASH: {
		const char *mn;
		size_t mnn;
		if (is_sdy_mnemonic(&t, &mn, &mnn)) {
			sli_p_next(P);
			if (sli_p_sdy_attr(P, mn, mnn, &a))
				return -1;
			a->loc = loc;
			break;
		}
		sli_alias *al = find_alias(P, &t);
		if (al && al->attr) {
			sli_p_next(P);
			a = al->attr;
			break;
		}
		const char *end = t.p + t.n;
		if (end < P->lx.end && *end == '<') {
			end = scan_balanced(P, end);
			if (!end)
				return sli_p_error(P, "unbalanced brackets in attribute");
		} else if (!memchr(t.p, '.', t.n)) {
			return sli_p_error(P, "undefined symbol alias id '%.*s'", (int)t.n - 1, t.p + 1);
		}
		P->lx.cur = end;
		sli_p_next(P);
		size_t n;
		const char *text = opaque_text(P, t.p, (size_t)(end - t.p), &n);
		/* dimension numbers become structs; other attributes keep their text */
		a = sli_stablehlo_attr_from_text(P->m, text, n, loc);
		if (!a) {
			a = new_attr(P, SL_ATTR_OPAQUE, loc);
			a->u.text.p = text;
			a->u.text.n = n;
		}
		break;
	}
	case SL_TOK_IDENT:
		if (sli_p_is_kw(P, "true") || sli_p_is_kw(P, "false")) {
			a = new_attr(P, SL_ATTR_BOOL, loc);
			a->u.b = sli_p_is_kw(P, "true");
			sli_p_next(P);
			break;
		}
		if (sli_p_is_kw(P, "unit")) {
			sli_p_next(P);
			a = new_attr(P, SL_ATTR_UNIT, loc);
			break;
		}
		if (sli_p_is_kw(P, "array")) {
			sli_p_next(P);
			if (!sli_p_is(P, SL_TOK_LESS))
				return sli_p_error(P, "expected '<' after 'array'");
			a = new_attr(P, SL_ATTR_DENSE_ARRAY, loc);
			if (parse_dense_array(P, a))
				return -1;
			break;
		}
		if (sli_p_is_kw(P, "dense")) {
			sli_p_next(P);
			if (!sli_p_is(P, SL_TOK_LESS))
				return sli_p_error(P, "expected '<' after 'dense'");
			const char *open = P->tok.p;
			const char *end = take_balanced(P, open, "dense attribute");
			if (!end)
				return -1;
			a = new_attr(P, SL_ATTR_DENSE, loc);
			if (sli_p_expect(P, SL_TOK_COLON, "':'") || sli_p_type(P, &a->u.dense.type))
				return -1;
			a->u.dense.body = dense_body(P, open + 1, (size_t)(end - open - 2),
			                             a->u.dense.type, &a->u.dense.n);
			break;
		}
		if (sli_p_is_kw(P, "loc")) {
			if (sli_p_optional_loc(P, &a) < 0)
				return -1;
			break;
		}
		if (sli_p_is_kw(P, "dense_resource") || sli_p_is_kw(P, "sparse") ||
		    sli_p_is_kw(P, "affine_map") || sli_p_is_kw(P, "affine_set") ||
		    sli_p_is_kw(P, "strided") || sli_p_is_kw(P, "distinct") ||
		    sli_p_is_kw(P, "opaque") || sli_p_is_kw(P, "dense_array")) {
			sli_p_next(P);
			const char *p = P->tok.p;
			if (sli_p_is(P, SL_TOK_LSQUARE)) {	/* distinct[N]<...> */
				p = scan_balanced(P, p);
				if (!p)
					return sli_p_error(P, "unbalanced brackets in attribute");
				while (p < P->lx.end && *p == ' ')
					p++;
			}
			if (p >= P->lx.end || *p != '<')
				return sli_p_error(P, "expected '<'");
			const char *end = scan_balanced(P, p);
			if (!end)
				return sli_p_error(P, "unbalanced brackets in attribute");
			P->lx.cur = end;
			sli_p_next(P);
			sl_type *ty;
			if (optional_colon_type(P, &ty))
				return -1;
			const char *tend = ty ? P->tok.p : end;
			while (tend > t.p && (tend[-1] == ' ' || tend[-1] == '\n'))
				tend--;
			a = new_attr(P, SL_ATTR_OPAQUE, loc);
			a->u.text.p = sli_arena_strndup(&P->m->arena, t.p, (size_t)(tend - t.p));
			a->u.text.n = (size_t)(tend - t.p);
			break;
		}
		/* a type used as an attribute */
		/* FALLTHROUGH */
	default:
		if (is_type_start(P)) {
			a = new_attr(P, SL_ATTR_TYPE, loc);
			if (sli_p_type(P, &a->u.type))
				return -1;
			break;
		}
		return sli_p_error(P, "expected attribute value");
	}
	*out = a;
	return 0;
}

int
sli_p_attr(sli_parser *P, sl_attr **out)
{
	if (enter(P))
		return -1;
	int rc = parse_attr_inner(P, out);
	leave(P);
	return rc;
}

int
sli_p_optional_attr_dict(sli_parser *P, sli_namedvec *out)
{
	if (!sli_p_is(P, SL_TOK_LBRACE))
		return 0;
	sli_p_next(P);
	if (sli_p_accept(P, SL_TOK_RBRACE))
		return 1;
	do {
		sl_sym name;
		sl_loc loc = sli_p_loc(P);
		if (sli_p_is(P, SL_TOK_IDENT)) {
			name = sl_sym_intern(P->ctx, P->tok.p, P->tok.n);
			sli_p_next(P);
		} else if (sli_p_is(P, SL_TOK_STRING)) {
			const char *s;
			size_t n;
			if (sli_p_string(P, &s, &n))
				return -1;
			name = sl_sym_intern(P->ctx, s, n);
		} else {
			return sli_p_error(P, "expected attribute name");
		}
		sl_attr *a;
		if (sli_p_accept(P, SL_TOK_EQUAL)) {
			if (sli_p_attr(P, &a))
				return -1;
		} else {
			a = new_attr(P, SL_ATTR_UNIT, loc);
		}
		if (sli_p_named_get(out, name))
			return sli_p_error_at(P, loc, "duplicate key '%s' in dictionary attribute",
			                      sl_sym_str(P->ctx, name));
		sli_p_named_add(out, name, a);
	} while (sli_p_accept(P, SL_TOK_COMMA));
	if (sli_p_expect(P, SL_TOK_RBRACE, "'}' in attribute dictionary"))
		return -1;
	return 1;
}

int
sli_p_optional_attr_dict_with_keyword(sli_parser *P, sli_namedvec *out)
{
	if (!sli_p_accept_kw(P, "attributes"))
		return 0;
	if (!sli_p_is(P, SL_TOK_LBRACE))
		return sli_p_error(P, "expected '{'");
	return sli_p_optional_attr_dict(P, out);
}

int
sli_p_optional_loc(sli_parser *P, sl_attr **out)
{
	if (!sli_p_is_kw(P, "loc"))
		return 0;
	sli_token t = P->tok;
	sli_p_next(P);
	if (!sli_p_is(P, SL_TOK_LPAREN))
		return sli_p_error(P, "expected '(' in location");
	const char *end = take_balanced(P, P->tok.p, "location");
	if (!end)
		return -1;
	sl_attr *a = new_attr(P, SL_ATTR_LOC, sli_p_tok_loc(P, &t));
	a->u.text.p = sli_arena_strndup(&P->m->arena, t.p, (size_t)(end - t.p));
	a->u.text.n = (size_t)(end - t.p);
	*out = a;
	return 1;
}

/* ==================================================================== */
/* Operations                                                             */
/* ==================================================================== */

static int parse_op(sli_parser *P, sl_block *b);

typedef struct result_name {
	sli_token tok;
	uint32_t count;
} result_name;

static void
opstate_fini(sli_opstate *st)
{
	SL_VEC_FREE(st->operands);
	SL_VEC_FREE(st->result_types);
	SL_VEC_FREE(st->attrs);
	SL_VEC_FREE(st->props);
	SL_VEC_FREE(st->regions);
}

/*
 * The op state and result names of a new op at the current nesting of
 * ops, reset: they are kept level by level for the whole parse, so that
 * their vectors are not allocated and freed again for every op.
 */
struct sli_opslot {
	sli_opstate st;
	SL_VEC(result_name) rn;
};

static struct sli_opslot *
opslot_take(sli_parser *P)
{
	if (P->opdepth == P->nopslots) {
		P->opslots = sli_xrealloc(P->opslots, sizeof *P->opslots * (P->nopslots + 1));
		P->opslots[P->nopslots++] = sli_xcalloc(1, sizeof **P->opslots);
	}
	struct sli_opslot *o = P->opslots[P->opdepth++];
	/* every field of sli_opstate, emptied with the vectors' memory kept:
	 * a copy aside, a memset and the vectors put back cost 2.6% of
	 * parsing (perf, 8,000 layers) */
	sli_opstate *st = &o->st;
	st->name = 0;
	st->kind = (sl_op_kind)0;
	st->loc = (sl_loc){0};
	st->nresults = 0;
	st->operands.n = st->result_types.n = st->attrs.n = st->props.n = st->regions.n = 0;
	o->rn.n = 0;
	return o;
}

static void
opslots_free(sli_parser *P)
{
	for (uint32_t i = 0; i < P->nopslots; i++) {
		opstate_fini(&P->opslots[i]->st);
		SL_VEC_FREE(P->opslots[i]->rn);
		free(P->opslots[i]);
	}
	free(P->opslots);
}

static sl_named_attr *
dup_named(sli_parser *P, sli_namedvec *v, uint32_t *n)
{
	*n = (uint32_t)v->n;
	if (!v->n)
		return NULL;
	sl_named_attr *out = sli_arena_dup(&P->m->arena, v->v, sizeof *v->v * v->n);
	sli_sort_named(P->ctx, out, *n);
	return out;
}

/*
 * An op's attribute list: the module's shared one when it is a single
 * shared attribute (dims = [0, 1] of thousands of ops), which
 * sli_op_set_attr copies before it writes; else dup_named.
 */
static sl_named_attr *
op_named(sli_parser *P, sli_namedvec *v, uint32_t *n)
{
	if (v->n == 1 && v->v[0].attr->shared) {
		*n = 1;
		return sli_named1_share(P->m, v->v[0].name, v->v[0].attr);
	}
	return dup_named(P, v, n);
}

int
sli_p_arg_list(sli_parser *P, sli_argvec *out, bool allow_attrs)
{
	if (sli_p_expect(P, SL_TOK_LPAREN, "'('"))
		return -1;
	if (sli_p_accept(P, SL_TOK_RPAREN))
		return 0;
	do {
		sli_argdef d = {0};
		if (!sli_p_is(P, SL_TOK_PERCENT))
			return sli_p_error(P, "expected SSA identifier");
		d.name = P->tok;
		d.loc = sli_p_loc(P);
		sli_p_next(P);
		if (sli_p_expect(P, SL_TOK_COLON, "':'") || sli_p_type(P, &d.type))
			return -1;
		if (allow_attrs && sli_p_is(P, SL_TOK_LBRACE)) {
			sli_namedvec v = {0};
			if (sli_p_optional_attr_dict(P, &v) < 0) {
				SL_VEC_FREE(v);
				return -1;
			}
			d.attrs = dup_named(P, &v, &d.nattrs);
			SL_VEC_FREE(v);
		}
		if (sli_p_optional_loc(P, &d.locattr) < 0)
			return -1;
		SL_VEC_PUSH(*out, d);
	} while (sli_p_accept(P, SL_TOK_COMMA));
	return sli_p_expect(P, SL_TOK_RPAREN, "')'");
}

static int
define_args(sli_parser *P, sl_block *b, const sli_argdef *args, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		sl_value *v = &b->args[i];
		v->type = args[i].type;
		sli_arg_set_attrs(P->m, v, args[i].attrs, args[i].nattrs);
		sli_arg_set_loc(P->m, v, args[i].loc);
		sli_value_set_locattr(P->m, v, args[i].locattr);
		if (args[i].name.n && bind(P, &args[i].name, v, 1))
			return -1;
	}
	return 0;
}

/* Ops of one block until '}' or the next block label. */
static int
parse_block_body(sli_parser *P, sl_block *b)
{
	while (!sli_p_is(P, SL_TOK_RBRACE) && !sli_p_is(P, SL_TOK_CARET)) {
		if (sli_p_is(P, SL_TOK_EOF))
			return sli_p_error(P, "expected '}' to end region");
		if (parse_op(P, b))
			return -1;
	}
	return 0;
}

int
sli_p_region(sli_parser *P, sl_region **out, const sli_argdef *args, uint32_t nargs)
{
	sl_loc open = sli_p_loc(P);
	if (sli_p_expect(P, SL_TOK_LBRACE, "'{' to begin a region"))
		return -1;
	if (enter(P))
		return -1;
	sl_region *r = SL_NEW(&P->m->arena, sl_region);
	struct sli_scope scope;
	scope_push(P, &scope);
	int rc = -1;
	if (args) {
		sl_block *b = sli_block_new(P->m, nargs);
		sli_block_append(r, b);
		if (define_args(P, b, args, nargs) || parse_block_body(P, b))
			goto done;
		if (sli_p_is(P, SL_TOK_CARET)) {
			sli_p_error(P, "invalid block name in region with named arguments");
			goto done;
		}
	} else if (!sli_p_is(P, SL_TOK_RBRACE)) {
		bool first = true;
		while (!sli_p_is(P, SL_TOK_RBRACE)) {
			sli_argvec av = {0};
			if (sli_p_is(P, SL_TOK_CARET)) {
				sli_p_next(P);
				if (sli_p_is(P, SL_TOK_LPAREN) && sli_p_arg_list(P, &av, false)) {
					SL_VEC_FREE(av);
					goto done;
				}
				if (sli_p_expect(P, SL_TOK_COLON, "':' after block name")) {
					SL_VEC_FREE(av);
					goto done;
				}
			} else if (!first) {
				sli_p_error(P, "expected block label");
				goto done;
			}
			sl_block *b = sli_block_new(P->m, (uint32_t)av.n);
			sli_block_append(r, b);
			int err = define_args(P, b, av.v, (uint32_t)av.n);
			SL_VEC_FREE(av);
			if (err || parse_block_body(P, b))
				goto done;
			first = false;
		}
	}
	if (sli_p_is(P, SL_TOK_EOF)) {
		sli_p_error_at(P, open, "expected '}' to end region");
		goto done;
	}
	if (sli_p_expect(P, SL_TOK_RBRACE, "'}' to end region"))
		goto done;
	*out = r;
	rc = 0;
done:
	scope_pop(P);
	leave(P);
	return rc;
}

/* generic-op after its name string: '(' operands ')' props regions dict ':' fn-type */
int
sli_parse_fmt_GENERIC(sli_parser *P, sli_opstate *st)
{
	if (sli_p_expect(P, SL_TOK_LPAREN, "'(' to start operand list"))
		return -1;
	SL_VEC(sli_token) names = {0};
	SL_VEC(sl_loc) locs = {0};
	int rc = -1;
	if (!sli_p_is(P, SL_TOK_RPAREN)) {
		do {
			sl_value *v;
			if (sli_p_operand(P, &v))
				goto done;
			SL_VEC_PUSH(st->operands, v);
		} while (sli_p_accept(P, SL_TOK_COMMA));
	}
	if (sli_p_expect(P, SL_TOK_RPAREN, "')'"))
		goto done;
	if (sli_p_is(P, SL_TOK_LSQUARE)) {
		sli_p_error(P, "successors are not supported");
		goto done;
	}
	if (sli_p_accept(P, SL_TOK_LESS)) {
		sli_namedvec v = {0};
		if (sli_p_optional_attr_dict(P, &v) <= 0) {
			if (!P->failed)
				sli_p_error(P, "expected '{' for properties");
			SL_VEC_FREE(v);
			goto done;
		}
		for (size_t i = 0; i < v.n; i++)
			SL_VEC_PUSH(st->props, v.v[i]);
		SL_VEC_FREE(v);
		if (sli_p_expect(P, SL_TOK_GREATER, "'>' to close properties"))
			goto done;
	}
	if (sli_p_is(P, SL_TOK_LPAREN)) {
		sli_p_next(P);
		do {
			sl_region *r;
			if (sli_p_region(P, &r, NULL, 0))
				goto done;
			SL_VEC_PUSH(st->regions, r);
		} while (sli_p_accept(P, SL_TOK_COMMA));
		if (sli_p_expect(P, SL_TOK_RPAREN, "')' to end region list"))
			goto done;
	}
	if (sli_p_optional_attr_dict(P, (sli_namedvec *)&st->attrs) < 0)
		goto done;
	if (sli_p_expect(P, SL_TOK_COLON, "':' followed by operation type"))
		goto done;
	sl_loc tloc = sli_p_loc(P);
	sl_type *ft;
	if (sli_p_type(P, &ft))
		goto done;
	if (ft->kind != SL_TYPE_FUNC) {
		sli_p_error_at(P, tloc, "expected function type");
		goto done;
	}
	if (ft->rank != st->operands.n) {
		sli_p_error_at(P, tloc, "expected %u operand type%s but had %u", (unsigned)st->operands.n,
		               st->operands.n == 1 ? "" : "s", ft->rank);
		goto done;
	}
	for (uint32_t i = 0; i < ft->rank; i++)
		if (st->operands.v[i]->type != ft->types[i]) {
			sli_p_error_at(P, tloc, "use of value expects different type than prior uses: '%s' vs '%s'",
			               sl_sym_str(P->ctx, ft->types[i]->text),
			               sl_sym_str(P->ctx, st->operands.v[i]->type->text));
			goto done;
		}
	for (uint32_t i = 0; i < ft->nres; i++)
		SL_VEC_PUSH(st->result_types, ft->types[ft->rank + i]);
	rc = 0;
done:
	SL_VEC_FREE(names);
	SL_VEC_FREE(locs);
	return rc;
}

/* module [@name] [attributes {...}] region */
int
sli_parse_fmt_MODULE(sli_parser *P, sli_opstate *st)
{
	if (sli_p_is(P, SL_TOK_AT)) {
		sl_attr *a = sli_attr_string(P->m, P->tok.p + 1, P->tok.n - 1);
		sli_p_named_add((sli_namedvec *)&st->props, SLS_sym_name, a);
		sli_p_next(P);
	}
	if (sli_p_optional_attr_dict_with_keyword(P, (sli_namedvec *)&st->attrs) < 0)
		return -1;
	sl_region *r;
	if (sli_p_region(P, &r, NULL, 0))
		return -1;
	if (!r->first)
		sli_block_append(r, sli_block_new(P->m, 0));
	SL_VEC_PUSH(st->regions, r);
	return 0;
}

/*
 * func.func [visibility] @name '(' args ')' ['->' results] [attributes dict] [region]
 * args    = (%x ':' type dict? loc?)* | (type dict?)*  (declarations)
 * results = type | '(' (type dict?)* ')'
 */
int
sli_parse_fmt_FUNC(sli_parser *P, sli_opstate *st)
{
	sli_namedvec *props = (sli_namedvec *)&st->props;
	if (sli_p_is(P, SL_TOK_IDENT)) {
		sl_attr *vis = sli_attr_string(P->m, P->tok.p, P->tok.n);
		sli_p_named_add(props, SLS_sym_visibility, vis);
		sli_p_next(P);
	}
	if (!sli_p_is(P, SL_TOK_AT))
		return sli_p_error(P, "expected valid '@'-identifier for symbol name");
	if (P->tok.p[1] == '"') {
		sli_token s = P->tok;
		s.p++;
		s.n--;
		const char *str;
		size_t n;
		if (decode_string(P, &s, &str, &n))
			return -1;
		sli_p_named_add(props, SLS_sym_name, sli_attr_string(P->m, str, n));
	} else {
		sli_p_named_add(props, SLS_sym_name, sli_attr_string(P->m, P->tok.p + 1, P->tok.n - 1));
	}
	sli_p_next(P);
	sli_argvec args = {0};
	sli_typevec ins = {0}, outs = {0};
	SL_VEC(sl_attr *) resattrs = {0};
	SL_VEC(sl_attr *) argattrs = {0};
	bool any_res_attr = false, any_arg_attr = false, decl = false;
	int rc = -1;
	if (sli_p_expect(P, SL_TOK_LPAREN, "'('"))
		goto done;
	if (!sli_p_is(P, SL_TOK_RPAREN)) {
		do {
			sli_argdef d = {0};
			d.loc = sli_p_loc(P);
			if (sli_p_is(P, SL_TOK_PERCENT)) {
				d.name = P->tok;
				sli_p_next(P);
				if (sli_p_expect(P, SL_TOK_COLON, "':'"))
					goto done;
			} else {
				decl = true;
			}
			if (sli_p_type(P, &d.type))
				goto done;
			if (sli_p_is(P, SL_TOK_LBRACE)) {
				sli_namedvec v = {0};
				if (sli_p_optional_attr_dict(P, &v) < 0) {
					SL_VEC_FREE(v);
					goto done;
				}
				d.attrs = dup_named(P, &v, &d.nattrs);
				SL_VEC_FREE(v);
			}
			if (sli_p_optional_loc(P, &d.locattr) < 0)
				goto done;
			SL_VEC_PUSH(ins, d.type);
			SL_VEC_PUSH(args, d);
		} while (sli_p_accept(P, SL_TOK_COMMA));
	}
	if (sli_p_expect(P, SL_TOK_RPAREN, "')'"))
		goto done;
	for (size_t i = 0; i < args.n; i++)
		if (decl != !args.v[i].name.n) {
			sli_p_error(P, "expected SSA identifier");
			goto done;
		}
	if (sli_p_accept(P, SL_TOK_ARROW)) {
		if (sli_p_accept(P, SL_TOK_LPAREN)) {
			if (!sli_p_is(P, SL_TOK_RPAREN)) {
				do {
					sl_type *t;
					if (sli_p_type(P, &t))
						goto done;
					SL_VEC_PUSH(outs, t);
					sl_attr *d = sli_attr_new(P->m, SL_ATTR_DICT);
					sli_namedvec v = {0};
					if (sli_p_optional_attr_dict(P, &v) < 0) {
						SL_VEC_FREE(v);
						goto done;
					}
					d->u.dict.v = dup_named(P, &v, &d->u.dict.n);
					SL_VEC_FREE(v);
					any_res_attr |= d->u.dict.n > 0;
					SL_VEC_PUSH(resattrs, d);
				} while (sli_p_accept(P, SL_TOK_COMMA));
			}
			if (sli_p_expect(P, SL_TOK_RPAREN, "')'"))
				goto done;
		} else {
			sl_type *t;
			if (sli_p_type(P, &t))
				goto done;
			SL_VEC_PUSH(outs, t);
			SL_VEC_PUSH(resattrs, sli_attr_new(P->m, SL_ATTR_DICT));
		}
	}
	sl_attr *ft = sli_attr_new(P->m, SL_ATTR_TYPE);
	ft->u.type = sli_type_func(P->ctx, (uint32_t)ins.n, ins.v, (uint32_t)outs.n, outs.v);
	sli_p_named_add(props, SLS_function_type, ft);
	if (any_res_attr) {
		sl_attr *ra = sli_attr_new(P->m, SL_ATTR_ARRAY);
		ra->u.arr.n = (uint32_t)resattrs.n;
		ra->u.arr.v = sli_arena_dup(&P->m->arena, resattrs.v, sizeof *resattrs.v * resattrs.n);
		sli_p_named_add(props, SLS_res_attrs, ra);
	}
	if (sli_p_optional_attr_dict_with_keyword(P, (sli_namedvec *)&st->attrs) < 0)
		goto done;
	if (decl) {
		for (size_t i = 0; i < args.n; i++) {
			sl_attr *d = sli_attr_new(P->m, SL_ATTR_DICT);
			d->u.dict.v = args.v[i].attrs;
			d->u.dict.n = args.v[i].nattrs;
			any_arg_attr |= d->u.dict.n > 0;
			SL_VEC_PUSH(argattrs, d);
		}
		if (any_arg_attr) {
			sl_attr *aa = sli_attr_new(P->m, SL_ATTR_ARRAY);
			aa->u.arr.n = (uint32_t)argattrs.n;
			aa->u.arr.v = sli_arena_dup(&P->m->arena, argattrs.v, sizeof *argattrs.v * argattrs.n);
			sli_p_named_add(props, SLS_arg_attrs, aa);
		}
	}
	if (sli_p_is(P, SL_TOK_LBRACE)) {
		if (decl) {
			sli_p_error(P, "expected SSA identifier");
			goto done;
		}
		sl_region *r;
		if (sli_p_region(P, &r, args.v, (uint32_t)args.n))
			goto done;
		SL_VEC_PUSH(st->regions, r);
	} else if (args.n && !decl) {
		sli_p_error(P, "expected '{' to begin a region");
		goto done;
	} else {
		/* a declaration: an empty region */
		SL_VEC_PUSH(st->regions, SL_NEW(&P->m->arena, sl_region));
	}
	rc = 0;
done:
	SL_VEC_FREE(args);
	SL_VEC_FREE(ins);
	SL_VEC_FREE(outs);
	SL_VEC_FREE(resattrs);
	SL_VEC_FREE(argattrs);
	return rc;
}

/* return [dict] [operands ':' types] */
int
sli_parse_fmt_RETURN(sli_parser *P, sli_opstate *st)
{
	if (sli_p_optional_attr_dict(P, (sli_namedvec *)&st->attrs) < 0)
		return -1;
	if (!sli_p_is(P, SL_TOK_PERCENT))
		return 0;
	if (sli_p_operand_list(P, st))
		return -1;
	if (sli_p_expect(P, SL_TOK_COLON, "':'"))
		return -1;
	sl_loc tloc = sli_p_loc(P);
	sli_typevec ts = {0};
	if (sli_p_type_list(P, &ts)) {
		SL_VEC_FREE(ts);
		return -1;
	}
	int rc = 0;
	if (ts.n != st->operands.n)
		rc = sli_p_error_at(P, tloc, "%u operands present, but expected %u",
		                    (unsigned)st->operands.n, (unsigned)ts.n);
	for (size_t i = 0; !rc && i < ts.n; i++)
		if (ts.v[i] != st->operands.v[i]->type)
			rc = sli_p_error_at(P, tloc, "use of value expects different type than prior uses: '%s' vs '%s'",
			                    sl_sym_str(P->ctx, ts.v[i]->text),
			                    sl_sym_str(P->ctx, st->operands.v[i]->type->text));
	SL_VEC_FREE(ts);
	return rc;
}

/* call @f '(' operands ')' [dict] ':' fn-type */
int
sli_parse_fmt_CALL(sli_parser *P, sli_opstate *st)
{
	if (!sli_p_is(P, SL_TOK_AT))
		return sli_p_error(P, "expected symbol reference");
	sl_attr *callee;
	if (sli_p_attr(P, &callee))
		return -1;
	sli_p_named_add((sli_namedvec *)&st->props, SLS_callee, callee);
	if (sli_p_expect(P, SL_TOK_LPAREN, "'('"))
		return -1;
	if (!sli_p_is(P, SL_TOK_RPAREN) && sli_p_operand_list(P, st))
		return -1;
	if (sli_p_expect(P, SL_TOK_RPAREN, "')'"))
		return -1;
	if (sli_p_optional_attr_dict(P, (sli_namedvec *)&st->attrs) < 0)
		return -1;
	if (sli_p_expect(P, SL_TOK_COLON, "':'"))
		return -1;
	sli_typevec ins = {0}, outs = {0};
	int rc = sli_p_functional_type(P, &ins, &outs);
	if (!rc && ins.n != st->operands.n)
		rc = sli_p_error(P, "expected %u operand types but had %u",
		                 (unsigned)st->operands.n, (unsigned)ins.n);
	for (size_t i = 0; !rc && i < outs.n; i++)
		SL_VEC_PUSH(st->result_types, outs.v[i]);
	SL_VEC_FREE(ins);
	SL_VEC_FREE(outs);
	return rc;
}

static sli_op_parse_fn *const parsers[SL_FMT__COUNT] = {
#define X(f) [SL_FMT_##f] = sli_parse_fmt_##f,
	FMTS(X)
#undef X
};

/*
 * Inherent attributes of the StableHLO ops that print in the generic form:
 * written in the trailing dictionary by older producers, MLIR keeps them
 * as properties and prints them in <{...}>.
 */
static const char *
inherent_names(sl_op_kind k)
{
	switch (k) {
	case SL_OP_ALL_REDUCE:
		return " replica_groups channel_handle use_global_device_ids ";
	case SL_OP_ALL_GATHER:
		return " all_gather_dim replica_groups channel_handle use_global_device_ids ";
	case SL_OP_REDUCE_SCATTER:
		return " scatter_dimension replica_groups channel_handle use_global_device_ids ";
	case SL_OP_ALL_TO_ALL:
		return " split_dimension concat_dimension split_count replica_groups channel_handle ";
	case SL_OP_COLLECTIVE_PERMUTE:
		return " source_target_pairs channel_handle ";
	case SL_OP_COLLECTIVE_BROADCAST:
		return " replica_groups channel_handle ";
	case SL_OP_GATHER:
	case SL_OP_DYNAMIC_GATHER:
		return " dimension_numbers slice_sizes indices_are_sorted ";
	case SL_OP_SCATTER:
		return " scatter_dimension_numbers indices_are_sorted unique_indices ";
	case SL_OP_SORT:
		return " dimension is_stable ";
	case SL_OP_REDUCE_WINDOW:
		return " window_dimensions window_strides base_dilations window_dilations padding ";
	case SL_OP_SELECT_AND_SCATTER:
		return " window_dimensions window_strides padding ";
	case SL_OP_TRIANGULAR_SOLVE:
		return " left_side lower unit_diagonal transpose_a ";
	case SL_OP_BATCH_NORM_TRAINING:
	case SL_OP_BATCH_NORM_INFERENCE:
	case SL_OP_BATCH_NORM_GRAD:
		return " epsilon feature_index ";
	case SL_OP_MAP:
		return " dimensions ";
	case SL_OP_INFEED:
		return " infeed_config layout ";
	case SL_OP_OUTFEED:
		return " outfeed_config ";
	case SL_OP_SEND:
	case SL_OP_RECV:
		return " channel_handle is_host_transfer source_target_pairs ";
	default:
		return NULL;
	}
}

static void
move_inherent(sli_parser *P, sli_opstate *st)
{
	const char *names = inherent_names(st->kind);
	if (!names)
		return;
	size_t k = 0;
	for (size_t i = 0; i < st->attrs.n; i++) {
		const char *s = sl_sym_str(P->ctx, st->attrs.v[i].name);
		size_t n = strlen(s);
		const char *hit = strstr(names, s);
		if (hit && hit[-1] == ' ' && hit[n] == ' ' && !sli_p_named_get((sli_namedvec *)&st->props, st->attrs.v[i].name))
			SL_VEC_PUSH(st->props, st->attrs.v[i]);
		else
			st->attrs.v[k++] = st->attrs.v[i];
	}
	st->attrs.n = k;
}

/* Builds the op from its state, binds result names, appends it to b. */
static sl_op *
build_op(sli_parser *P, sli_opstate *st, sl_block *b, result_name *rn, size_t nrn)
{
	uint32_t nres = (uint32_t)st->result_types.n;
	uint32_t bound = 0;
	for (size_t i = 0; i < nrn; i++)
		bound += rn[i].count;
	if (nrn && bound != nres) {
		sli_p_error_at(P, st->loc, "operation defines %u results but was provided %u to bind",
		               nres, bound);
		return NULL;
	}
	if (st->regions.n > SL_MAX_REGIONS) {
		sli_p_error_at(P, st->loc, "operation has %zu regions, more than %u",
		               st->regions.n, SL_MAX_REGIONS);
		return NULL;
	}
	move_inherent(P, st);
	sl_op *op = sli_op_new(P->m, st->name, (uint32_t)st->operands.n, nres,
	                       (uint32_t)st->regions.n);
	op->kind = st->kind;
	op->loc = st->loc;
	op->result_locs = 1;
	if (st->operands.n)
		memcpy(op->operands, st->operands.v, sizeof *op->operands * st->operands.n);
	for (uint32_t i = 0; i < nres; i++)
		op->results[i].type = st->result_types.v[i];
	for (uint32_t i = 0; i < op->nregions; i++) {
		op->regions[i] = *st->regions.v[i];
		op->regions[i].parent = op;
		for (sl_block *blk = op->regions[i].first; blk; blk = blk->next)
			blk->parent = &op->regions[i];
	}
	op->attrs = op_named(P, (sli_namedvec *)&st->attrs, &op->nattrs);
	op->props = op_named(P, (sli_namedvec *)&st->props, &op->nprops);
	if (op->kind == SL_OP_FUNC && op->nregions && op->regions[0].first) {
		/* generic func.func: argument attributes belong on the arguments */
		sl_attr *aa = sli_op_prop(op, SLS_arg_attrs);
		sl_block *entry = op->regions[0].first;
		if (aa && aa->kind == SL_ATTR_ARRAY && aa->u.arr.n == entry->nargs) {
			for (uint32_t i = 0; i < entry->nargs; i++) {
				sl_attr *d = aa->u.arr.v[i];
				if (d->kind == SL_ATTR_DICT)
					sli_arg_set_attrs(P->m, &entry->args[i], d->u.dict.v,
					                  d->u.dict.n);
			}
			sli_op_set_prop(P->m, op, SLS_arg_attrs, NULL);
		}
	}
	uint32_t k = 0;
	for (size_t i = 0; i < nrn; i++) {
		if (bind(P, &rn[i].tok, &op->results[k], rn[i].count))
			return NULL;
		k += rn[i].count;
	}
	sli_op_append(b, op);
	return op;
}

/* Maps a custom op name (with the func dialect's default namespace). */
static sl_op_kind
custom_kind(sli_parser *P, const sli_token *t, sl_sym *name)
{
	static const struct { const char *in, *full; uint32_t n; } defaults[] = {
		{"return", "func.return", 6}, {"call", "func.call", 4},
		{"module", "builtin.module", 6}, {"func", "func.func", 4},
	};
	for (size_t i = 0; i < sizeof defaults / sizeof *defaults; i++)
		if (defaults[i].n == t->n && memcmp(defaults[i].in, t->p, t->n) == 0) {
			*name = sli_p_sym(P, defaults[i].full);
			return sli_op_kind_lookup(defaults[i].full, strlen(defaults[i].full));
		}
	*name = sli_p_intern(P, t->p, t->n);
	sl_op_kind k = sli_op_kind_of(P->ctx, *name);
	return k == SL_OP_UNKNOWN ? sli_mhlo_kind(P, t->p, t->n, name) : k;
}

static int
parse_op(sli_parser *P, sl_block *b)
{
	struct sli_opslot *slot = opslot_take(P);
	sli_opstate *st = &slot->st;
	int rc = -1;
	st->loc = sli_p_loc(P);
	if (enter(P))
		goto done;
	if (sli_p_is(P, SL_TOK_PERCENT)) {
		do {
			if (!sli_p_is(P, SL_TOK_PERCENT)) {
				sli_p_error(P, "expected SSA identifier");
				goto done;
			}
			result_name r = {P->tok, 1};
			sli_p_next(P);
			if (sli_p_accept(P, SL_TOK_COLON)) {
				int64_t n;
				if (!sli_p_is(P, SL_TOK_INT) || sli_p_int(P, &n) || n < 1 || n > UINT32_MAX / 2) {
					sli_p_error(P, "expected integer number of results");
					goto done;
				}
				r.count = (uint32_t)n;
			}
			SL_VEC_PUSH(slot->rn, r);
		} while (sli_p_accept(P, SL_TOK_COMMA));
		if (sli_p_expect(P, SL_TOK_EQUAL, "'=' after SSA name"))
			goto done;
	}
	sli_token nt = P->tok;
	sl_loc nameloc = sli_p_loc(P);
	if (nt.kind == SL_TOK_STRING) {
		const char *s;
		size_t n;
		if (sli_p_string(P, &s, &n))
			goto done;
		st->name = sl_sym_intern(P->ctx, s, n);
		st->kind = sli_op_kind_of(P->ctx, st->name);
		if (sli_parse_fmt_GENERIC(P, st))
			goto done;
		if (st->kind == SL_OP_UNKNOWN)
			sli_mhlo_generic(P, st);
	} else if (nt.kind == SL_TOK_IDENT) {
		st->kind = custom_kind(P, &nt, &st->name);
		sl_op_format f = sli_op_info[st->kind].format;
		if (st->kind == SL_OP_UNKNOWN || f == SL_FMT_GENERIC) {
			sli_p_error_at(P, nameloc, "custom op '%.*s' is unknown", (int)nt.n, nt.p);
			goto done;
		}
		sli_p_next(P);
		if (parsers[f](P, st))
			goto done;
	} else {
		sli_p_error(P, slot->rn.n ? "expected operation name in quotes"
		                    : "expected operation name");
		goto done;
	}
	sl_attr *loc = NULL;
	if (sli_p_optional_loc(P, &loc) < 0)
		goto done;
	sl_op *op = build_op(P, st, b, slot->rn.v, slot->rn.n);
	if (!op)
		goto done;
	sli_op_set_locattr(P->m, op, loc);
	rc = 0;
done:
	leave(P);
	P->opdepth--;
	return rc;
}

/* ==================================================================== */
/* The top level                                                           */
/* ==================================================================== */

static int
parse_alias(sli_parser *P)
{
	sli_token name = P->tok;
	sli_p_next(P);
	if (sli_p_expect(P, SL_TOK_EQUAL, "'=' in alias definition"))
		return -1;
	sli_alias al = {name.p, name.n, NULL, NULL};
	if (name.kind == SL_TOK_BANG) {
		if (sli_p_type(P, &al.type))
			return -1;
	} else {
		if (sli_p_attr(P, &al.attr))
			return -1;
		if (al.attr->kind == SL_ATTR_LOC) {
			sl_named_attr na = {sl_sym_intern(P->ctx, name.p, name.n), al.attr};
			SL_VEC_PUSH(P->m->loc_aliases, na);
		}
	}
	if (find_alias(P, &name))
		return sli_p_error_at(P, sli_p_tok_loc(P, &name), "redefinition of symbol alias id '%.*s'",
		                      (int)name.n - 1, name.p + 1);
	if (P->naliases == P->calias)
		P->aliases = sli_grow(P->aliases, &P->calias, P->naliases + 1, sizeof *P->aliases);
	P->aliases[P->naliases++] = al;
	return 0;
}

sl_module *
sli_mlir_parse_at(sl_context *ctx, const char *name, const char *text, size_t len,
                  unsigned first_line)
{
	sl_module *m = sli_xcalloc(1, sizeof *m);
	m->ctx = ctx;
	m->input_bytes = len;
	sli_arena_init(&m->arena);
	sli_arena_init(&m->oparena);
	sli_arena_init(&m->valarena);
	/* the module of a big text is about as big (arena.c: huge pages) */
	sli_arena_expect(&m->arena, len);
	sli_arena_expect(&m->oparena, len);
	sli_arena_expect(&m->valarena, len);
	struct sli_names names = {0};
	struct sli_typecache tc = {0};
	sli_parser P = {0};
	P.ctx = ctx;
	P.m = m;
	P.file = sl_sym_intern(ctx, name, strlen(name));
	P.names = &names;
	P.typecache = &tc;
	names_reserve(&names, len);
	sli_lex_init(&P.lx, text, len);
	P.lx.line = first_line ? first_line : 1;
	sli_p_next(&P);

	sl_op *top = sli_op_new(m, sli_p_sym(&P, "builtin.module"), 0, 0, 1);
	top->loc = sli_p_loc(&P);
	sl_block *body = sli_block_new(m, 0);
	sli_block_append(&top->regions[0], body);
	struct sli_scope scope;
	scope_push(&P, &scope);
	while (!P.failed && !sli_p_is(&P, SL_TOK_EOF)) {
		if (sli_p_is(&P, SL_TOK_FILE_METADATA)) {
			sli_p_next(&P);
			continue;
		}
		if ((sli_p_is(&P, SL_TOK_HASH) || sli_p_is(&P, SL_TOK_BANG)) && P.tok.n > 1) {
			/* an alias definition "#name = ..." */
			const char *q = P.tok.p + P.tok.n;
			while (q < P.lx.end && (*q == ' ' || *q == '\t'))
				q++;
			if (q < P.lx.end && *q == '=') {
				parse_alias(&P);
				continue;
			}
		}
		parse_op(&P, body);
	}
	scope_pop(&P);
	names_free(&names);
	opslots_free(&P);
	SL_VEC_FREE(tc.ents);
	sli_htab_fini(&tc.index);
	free(P.aliases);
	if (P.failed) {
		sl_module_free(m);
		return NULL;
	}
	/* A lone explicit module is the top module itself. */
	if (body->first && body->first == body->last && body->first->kind == SL_OP_MODULE) {
		m->top = body->first;
		m->top->parent = NULL;
		m->top->prev = m->top->next = NULL;
	} else {
		m->top = top;
		m->implicit_top = true;
	}
	return m;
}

sl_attr *
sli_parse_attr_text(sl_module *m, sl_sym file, const char *text, size_t len,
                    unsigned line)
{
	struct sli_names names = {0};
	struct sli_typecache tc = {0};
	sli_parser P = {0};
	P.ctx = m->ctx;
	P.m = m;
	P.file = file;
	P.names = &names;
	P.typecache = &tc;
	sli_lex_init(&P.lx, text, len);
	P.lx.line = line ? line : 1;
	sli_p_next(&P);
	sl_attr *a = NULL;
	if (!sli_p_attr(&P, &a) && !sli_p_is(&P, SL_TOK_EOF))
		sli_p_error(&P, "expected end of attribute text");
	SL_VEC_FREE(tc.ents);
	sli_htab_fini(&tc.index);
	free(P.aliases);
	return P.failed ? NULL : a;
}
