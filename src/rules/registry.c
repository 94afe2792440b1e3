/*
 * registry.c - the op sharding rule registry: one table maps an op kind to
 * the function that builds its rule (spec/sharding-rules.md section 4), on
 * top of a builder that numbers factors exactly as Shardy's
 * OpShardingRuleBuilder does (4.1).  Invariant: a rule that leaves here has
 * one mapping per operand and result, one dim mapping per dimension, and
 * every factor index below nfactors; attributes that contradict the types
 * are reported at the op, never trusted.
 */
#include "rules/rules.h"

#include "ir/access.h"
#include "ir/stablehlo_attrs.h"
#include "util/hash.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef sli_i64vec i64vec;

#define NO_DIM (-1)

/* {====== the builder (spec 4.1) ======================================= */

typedef struct mapent {
	uint32_t slot, factor;
} mapent;

/*
 * Tensors are numbered operands first, then results; dimension d of
 * tensor t is slot off[t] + d.  Mappings are appended in creation order,
 * so grouping them by slot keeps each dim's factors major to minor.
 */
struct sli_rule_scratch {
	SL_VEC(uint32_t) rank, off, count, start, fill;
	SL_VEC(const int64_t *) shape;
	SL_VEC(bool) shaped;
	SL_VEC(mapent) map;
	i64vec size;
	SL_VEC(uint8_t) kind, blocked;
	SL_VEC(uint32_t) factors;	/* staged dim mappings, grouped by slot */
	i64vec sets[4], blocked_set;
	SL_VEC(struct cached) cached;	/* rules built into cache_arena */
	sli_htab cache;			/* their index + 1, by content */
	const sli_arena *cache_arena;
};

/* The per-op state; its buffers are the caller's reusable scratch. */
typedef struct builder {
	sl_module *m;
	sl_context *ctx;
	const sl_op *op;
	sli_rule_opts *opts;
	sli_rule_scratch *s;
	uint32_t nops, nres, nt;
	uint32_t *rank;
	const int64_t **shape;
	bool *shaped;		/* a ranked tensor (else a token, tuple, ...) */
	uint32_t *off;		/* nt + 1 entries */
	uint32_t *count;	/* factors mapped so far, per slot */
} builder;

typedef enum which { ALL, OPERANDS, RESULTS } which;

static uint32_t
res(const builder *b, uint32_t i)
{
	return b->nops + i;
}

static int64_t
dimsz(const builder *b, uint32_t t, int64_t d)
{
	return b->shape[t][d];
}

static int
bad(builder *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A located error "'name' op message"; returns -1. */
static int
bad(builder *b, const char *fmt, ...)
{
	sli_buf msg;
	va_list ap;

	sli_buf_init(&msg);
	va_start(ap, fmt);
	sli_buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	sli_error(b->ctx, b->op->loc, "'%s' op %s", sl_sym_str(b->ctx, b->op->name),
	          sli_buf_cstr(&msg));
	sli_buf_fini(&msg);
	return -1;
}

static uint32_t
new_factor(builder *b, int64_t size, sli_factor_kind kind, bool blocked)
{
	SL_VEC_PUSH(b->s->size, size);
	SL_VEC_PUSH(b->s->kind, (uint8_t)kind);
	SL_VEC_PUSH(b->s->blocked, (uint8_t)blocked);
	return (uint32_t)(b->s->size.n - 1);
}

static void
map_raw(builder *b, uint32_t f, uint32_t t, int64_t d)
{
	mapent e;

	if (d < 0 || d >= b->rank[t])
		return;
	e.slot = b->off[t] + (uint32_t)d;
	e.factor = f;
	SL_VEC_PUSH(b->s->map, e);
	b->count[e.slot]++;
}

/*
 * Maps factor f on dim d of tensor t, as addFactor does: a size-1 factor
 * is not added to a dim that already has a factor.
 */
static void
map(builder *b, uint32_t f, uint32_t t, int64_t d)
{
	if (d < 0 || d >= b->rank[t])
		return;
	if (b->s->size.v[f] == 1 && b->count[b->off[t] + d])
		return;
	map_raw(b, f, t, d);
}

/* addFactor(dim, ...) and its ForAllOperands / ForAllResults variants. */
static uint32_t
same_dim(builder *b, which w, int64_t d, int64_t size, sli_factor_kind kind, bool blocked)
{
	uint32_t f = new_factor(b, size, kind, blocked);
	uint32_t from = w == RESULTS ? b->nops : 0;
	uint32_t to = w == OPERANDS ? b->nops : b->nt;

	for (uint32_t t = from; t < to; t++)
		if (b->rank[t] > 0)
			map_raw(b, f, t, d);
	return f;
}

/* addPointwiseWithDiffTypeForMismatch over operand `in` and result `out`. */
static void
pointwise_mismatch(builder *b, uint32_t in, uint32_t out, sli_factor_kind kind,
                   bool blocked)
{
	for (uint32_t d = 0; d < b->rank[in]; d++) {
		int64_t a = dimsz(b, in, d), c = dimsz(b, out, d);
		if (a == c)
			same_dim(b, ALL, d, a, SLI_FACTOR_PASS_THROUGH, false);
		else
			same_dim(b, ALL, d, a, kind, blocked);
	}
}

/* The first n entries of vec, zeroed. */
#define ZEROED(vec, n) \
	(SL_VEC_RESERVE(vec, (size_t)(n)), memset((vec).v, 0, sizeof *(vec).v * (size_t)(n)))

static void
builder_init(builder *b, sl_module *m, const sl_op *op, sli_rule_opts *opts,
             sli_rule_scratch *s)
{
	memset(b, 0, sizeof *b);
	b->m = m;
	b->ctx = m->ctx;
	b->op = op;
	b->opts = opts;
	b->s = s;
	b->nops = op->noperands;
	b->nres = op->nresults;
	b->nt = b->nops + b->nres;
	b->rank = ZEROED(s->rank, b->nt + 1);
	b->shape = ZEROED(s->shape, b->nt + 1);
	b->shaped = ZEROED(s->shaped, b->nt + 1);
	b->off = ZEROED(s->off, b->nt + 1);
	s->map.n = s->size.n = s->kind.n = s->blocked.n = 0;
	for (uint32_t t = 0; t < b->nt; t++) {
		const sl_type *ty = t < b->nops ? op->operands[t]->type : op->results[t - b->nops].type;
		if (ty && ty->kind == SL_TYPE_TENSOR && !ty->unranked) {
			b->shaped[t] = true;
			b->rank[t] = ty->rank;
			b->shape[t] = ty->dims;
		}
		b->off[t + 1] = b->off[t] + b->rank[t];
	}
	b->count = ZEROED(s->count, b->off[b->nt] + 1);
}

static void
scratch_free(sli_rule_scratch *s)
{
	if (!s)
		return;
	SL_VEC_FREE(s->rank);
	SL_VEC_FREE(s->off);
	SL_VEC_FREE(s->count);
	SL_VEC_FREE(s->start);
	SL_VEC_FREE(s->fill);
	SL_VEC_FREE(s->shape);
	SL_VEC_FREE(s->shaped);
	SL_VEC_FREE(s->map);
	SL_VEC_FREE(s->size);
	SL_VEC_FREE(s->kind);
	SL_VEC_FREE(s->blocked);
	for (int k = 0; k < 4; k++)
		SL_VEC_FREE(s->sets[k]);
	SL_VEC_FREE(s->blocked_set);
	SL_VEC_FREE(s->factors);
	SL_VEC_FREE(s->cached);
	sli_htab_fini(&s->cache);
	free(s);
}

void
sli_rule_opts_fini(sli_rule_opts *opts)
{
	scratch_free(opts->scratch);
	opts->scratch = NULL;
}

/* True when some tensor has a dynamic dimension or is unranked. */
static bool
has_dynamic_type(const sl_op *op)
{
	for (uint32_t i = 0; i < op->noperands + op->nresults; i++) {
		const sl_type *t = i < op->noperands ? op->operands[i]->type :
		                   op->results[i - op->noperands].type;
		if (t && t->kind == SL_TYPE_TENSOR && !sli_type_is_static(t))
			return true;
	}
	return false;
}

static int64_t *
dup_set(sli_arena *a, const i64vec *v)
{
	return v->n ? sli_arena_dup(a, v->v, sizeof *v->v * v->n) : NULL;
}

static bool
same_set(const sl_factor_list *l, const i64vec *v)
{
	return l->n == v->n && (!v->n || !memcmp(l->v, v->v, sizeof *v->v * v->n));
}

/*
 * A rule built earlier into the same arena: identical ops (a transformer
 * repeats its layers) share one rule, which keeps memory proportional to
 * the number of distinct rules.  `factors` and `dims` are the contiguous
 * arrays the rule was built with.
 */
typedef struct cached {
	sl_rule rule;
	const uint32_t *factors;
	uint32_t nmap, nslots;
} cached;

/* Hashes n bytes into h, eight at a time. */
static uint64_t
mix(uint64_t h, const void *p, size_t n)
{
	const unsigned char *q = p;

	for (; n >= 8; n -= 8, q += 8) {
		uint64_t x;
		memcpy(&x, q, 8);
		h = (h ^ x) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	for (; n > 0; n--, q++)
		h = (h ^ *q) * 0x100000001b3ULL;
	return h;
}

/* The staged rule (scratch buffers of builder `key`) equals the cached
 * rule whose index + 1 is `item`. */
static bool
same_rule(const void *item, const void *key)
{
	const builder *b = key;
	const sli_rule_scratch *s = b->s;
	const cached *c = &s->cached.v[(uintptr_t)item - 1];
	const sl_rule *r = &c->rule;
	uint32_t nslots = b->off[b->nt];

	if (r->nfactors != s->size.n || r->noperands != b->nops || r->nresults != b->nres ||
	    c->nslots != nslots || c->nmap != s->factors.n)
		return false;
	if (r->nfactors && memcmp(r->factor_sizes, s->size.v, sizeof *s->size.v * s->size.n))
		return false;
	if (memcmp(c->factors, s->factors.v, sizeof *s->factors.v * s->factors.n))
		return false;
	for (uint32_t t = 0; t < b->nt; t++) {
		const sl_tensor_mapping *tm = t < b->nops ? &r->operands[t] : &r->results[t - b->nops];
		if (tm->rank != b->rank[t])
			return false;
		for (uint32_t d = 0; d < tm->rank; d++)
			if (tm->dims[d].n != b->count[b->off[t] + d])
				return false;
	}
	return same_set(&r->reduction, &s->sets[SLI_FACTOR_REDUCTION]) &&
	       same_set(&r->need_replication, &s->sets[SLI_FACTOR_NEED_REPLICATION]) &&
	       same_set(&r->permutation, &s->sets[SLI_FACTOR_PERMUTATION]) &&
	       same_set(&r->blocked, &s->blocked_set);
}

static void
cache_clear(sli_rule_scratch *s)
{
	s->cached.n = 0;
	sli_htab_clear(&s->cache);
}

/*
 * build(): size-1 factors for empty dims, then the rule: staged in the
 * scratch buffers, and copied into arena a unless an identical rule was
 * built into a before.
 */
static void
builder_finish(builder *b, sli_arena *a, sl_rule *r)
{
	sli_rule_scratch *s = b->s;
	uint32_t nslots = b->off[b->nt];
	uint32_t *start, *fill, *factors;
	sl_dim_mapping *dims;
	i64vec *sets = s->sets;
	uint64_t h = 0xcbf29ce484222325ULL;
	cached c;

	for (uint32_t k = 0; k < nslots; k++) {
		if (!b->count[k]) {
			mapent e = {k, new_factor(b, 1, SLI_FACTOR_PASS_THROUGH, false)};
			SL_VEC_PUSH(s->map, e);
			b->count[k] = 1;
		}
	}
	start = ZEROED(s->start, nslots + 1);
	fill = ZEROED(s->fill, nslots + 1);
	for (uint32_t k = 0; k < nslots; k++)
		start[k + 1] = start[k] + b->count[k];
	factors = ZEROED(s->factors, s->map.n + 1);
	s->factors.n = s->map.n;
	for (size_t i = 0; i < s->map.n; i++) {
		uint32_t k = s->map.v[i].slot;
		factors[start[k] + fill[k]++] = s->map.v[i].factor;
	}
	for (int k = 0; k < 4; k++)
		sets[k].n = 0;
	s->blocked_set.n = 0;
	for (uint32_t f = 0; f < s->size.n; f++) {
		if (s->kind.v[f] != SLI_FACTOR_PASS_THROUGH)
			SL_VEC_PUSH(sets[s->kind.v[f]], (int64_t)f);
		if (s->blocked.v[f])
			SL_VEC_PUSH(s->blocked_set, (int64_t)f);
	}

	if (s->cache_arena != a) {
		cache_clear(s);
		s->cache_arena = a;
	}
	h = mix(h, s->size.v, sizeof *s->size.v * s->size.n);
	h = mix(h, s->factors.v, sizeof *s->factors.v * s->factors.n);
	h = mix(h, b->count, sizeof *b->count * nslots);
	h = mix(h, s->kind.v, s->kind.n);
	h = mix(h, s->blocked.v, s->blocked.n);
	h = mix(h, &b->nops, sizeof b->nops);
	sli_hslot *slot = sli_htab_slot(&s->cache, h, same_rule, b, 256);
	if (slot->item) {
		*r = s->cached.v[(uintptr_t)slot->item - 1].rule;
		return;
	}

	memset(r, 0, sizeof *r);
	r->nfactors = (uint32_t)s->size.n;
	r->factor_sizes = dup_set(a, &s->size);
	factors = sli_arena_dup(a, s->factors.v, sizeof *s->factors.v * (s->factors.n + 1));
	dims = sli_arena_alloc(a, sizeof *dims * (nslots + 1));
	for (uint32_t k = 0; k < nslots; k++) {
		dims[k].factors = factors + start[k];
		dims[k].n = b->count[k];
	}
	r->noperands = b->nops;
	r->nresults = b->nres;
	r->operands = sli_arena_alloc(a, sizeof *r->operands * (b->nops + 1));
	r->results = sli_arena_alloc(a, sizeof *r->results * (b->nres + 1));
	for (uint32_t t = 0; t < b->nt; t++) {
		sl_tensor_mapping *tm = t < b->nops ? &r->operands[t] : &r->results[t - b->nops];
		tm->rank = b->rank[t];
		tm->dims = b->rank[t] ? dims + b->off[t] : NULL;
	}
	r->reduction.v = dup_set(a, &sets[SLI_FACTOR_REDUCTION]);
	r->reduction.n = (uint32_t)sets[SLI_FACTOR_REDUCTION].n;
	r->need_replication.v = dup_set(a, &sets[SLI_FACTOR_NEED_REPLICATION]);
	r->need_replication.n = (uint32_t)sets[SLI_FACTOR_NEED_REPLICATION].n;
	r->permutation.v = dup_set(a, &sets[SLI_FACTOR_PERMUTATION]);
	r->permutation.n = (uint32_t)sets[SLI_FACTOR_PERMUTATION].n;
	r->blocked.v = dup_set(a, &s->blocked_set);
	r->blocked.n = (uint32_t)s->blocked_set.n;
	r->has_reduction = r->reduction.n > 0;
	r->has_need_replication = r->need_replication.n > 0;
	r->has_permutation = r->permutation.n > 0;
	r->has_blocked = r->blocked.n > 0;

	c.rule = *r;
	c.factors = factors;
	c.nmap = (uint32_t)s->factors.n;
	c.nslots = nslots;
	SL_VEC_PUSH(s->cached, c);
	/* the arena allocations above never touch the table: slot is current */
	sli_htab_fill(&s->cache, slot, h, (void *)(uintptr_t)s->cached.n);
}

/* }===================================================================== */

/* {====== reading op attributes ========================================== */

static const sl_attr *
attr(const builder *b, const char *name)
{
	return sli_op_get(b->op, sl_sym_intern(b->ctx, name, strlen(name)));
}

static bool
get_ints(const builder *b, const char *name, i64vec *out)
{
	return sli_attr_ints(b->ctx, attr(b, name), out);
}

static bool
get_int(const builder *b, const char *name, int64_t *v)
{
	const sl_attr *a = attr(b, name);

	if (!a || a->kind != SL_ATTR_INT || a->u.i.big)
		return false;
	*v = a->u.i.v;
	return true;
}

static bool
get_bool(const builder *b, const char *name, bool def)
{
	const sl_attr *a = attr(b, name);

	if (a && a->kind == SL_ATTR_BOOL)
		return a->u.b;
	return def;
}

/* Whether a is the enum value with this keyword, e.g. #stablehlo<transpose TRANSPOSE>. */
static bool
enum_is(const builder *b, const sl_attr *a, const char *word)
{
	sl_sym kw = sli_attr_enum_keyword(a);

	return kw && kw == sl_sym_intern(b->ctx, word, strlen(word));
}

static bool
contains(const int64_t *v, size_t n, int64_t x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/* Checks that every entry of v is a dim of a rank-r tensor. */
static int
check_dims(builder *b, const char *what, const int64_t *v, size_t n, uint32_t r)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] < 0 || v[i] >= r)
			return bad(b, "%s contains dimension %" PRId64 ", out of range for rank %u",
			           what, v[i], r);
	return 0;
}

static int
need_counts(builder *b, uint32_t nops, uint32_t nres)
{
	if (b->nops != nops || b->nres != nres)
		return bad(b, "expected %u operands and %u results, found %u and %u", nops, nres,
		           b->nops, b->nres);
	return 0;
}

static int
need_shaped(builder *b)
{
	for (uint32_t t = 0; t < b->nt; t++)
		if (!b->shaped[t])
			return bad(b, "expected ranked tensor %s %u", t < b->nops ? "operand" : "result",
			           t < b->nops ? t : t - b->nops);
	return 0;
}

static int
same_rank(builder *b, uint32_t t, uint32_t u)
{
	if (b->rank[t] != b->rank[u])
		return bad(b, "rank of %s %u (%u) differs from rank of %s %u (%u)",
		           t < b->nops ? "operand" : "result", t < b->nops ? t : t - b->nops,
		           b->rank[t], u < b->nops ? "operand" : "result",
		           u < b->nops ? u : u - b->nops, b->rank[u]);
	return 0;
}

/* }===================================================================== */

/* {====== element-wise and simple ops (4.2-4.10) ======================== */

/* buildPointwise: the first result's shape on every operand and result. */
static int
r_pointwise(builder *b)
{
	uint32_t r0;

	if (b->nres == 0 || !b->shaped[b->nops])
		return SLI_RULE_NONE;
	r0 = b->nops;
	for (uint32_t d = 0; d < b->rank[r0]; d++) {
		uint32_t f = new_factor(b, dimsz(b, r0, d), SLI_FACTOR_PASS_THROUGH, false);
		for (uint32_t t = 0; t < b->nt; t++)
			map_raw(b, f, t, d);
	}
	return SLI_RULE_FOUND;
}

/* addPointwise over the shape of tensor t. */
static void
pointwise_of(builder *b, uint32_t t)
{
	for (uint32_t d = 0; d < b->rank[t]; d++)
		same_dim(b, ALL, d, dimsz(b, t, d), SLI_FACTOR_PASS_THROUGH, false);
}

/* 4.3: min and max may be scalars. */
static int
r_clamp(builder *b)
{
	if (need_counts(b, 3, 1) || need_shaped(b))
		return -1;
	pointwise_of(b, 1);
	return SLI_RULE_FOUND;
}

/* 4.4: a scalar predicate gets []. */
static int
r_select(builder *b)
{
	if (need_counts(b, 3, 1) || need_shaped(b))
		return -1;
	pointwise_of(b, res(b, 0));
	return SLI_RULE_FOUND;
}

/* The gathered (scattered) dim of all_gather / reduce_scatter (4.5). */
static int
collective_dim(builder *b, const char *name)
{
	int64_t g;

	if (b->nops == 0 || b->nops != b->nres || need_shaped(b))
		return b->nops == 0 || b->nops != b->nres ?
		       bad(b, "expected as many results as operands") : -1;
	if (!get_int(b, name, &g))
		return bad(b, "expected integer attribute '%s'", name);
	for (uint32_t t = 0; t < b->nt; t++)
		if (same_rank(b, t, 0))
			return -1;
	if (g < 0 || g >= b->rank[0])
		return bad(b, "%s %" PRId64 " is out of range for rank %u", name, g, b->rank[0]);
	for (uint32_t d = 0; d < b->rank[0]; d++)
		if (d != g)
			same_dim(b, ALL, d, dimsz(b, 0, d), SLI_FACTOR_PASS_THROUGH, false);
	same_dim(b, OPERANDS, g, dimsz(b, 0, g), SLI_FACTOR_NEED_REPLICATION, false);
	same_dim(b, RESULTS, g, dimsz(b, res(b, 0), g), SLI_FACTOR_NEED_REPLICATION, false);
	return SLI_RULE_FOUND;
}

static int
r_all_gather(builder *b)
{
	return collective_dim(b, "all_gather_dim");
}

static int
r_reduce_scatter(builder *b)
{
	return collective_dim(b, "scatter_dimension");
}

static int
r_all_to_all(builder *b)
{
	int64_t s, c;

	if (b->nops == 0 || b->nops != b->nres)
		return bad(b, "expected as many results as operands");
	if (need_shaped(b))
		return -1;
	if (!get_int(b, "split_dimension", &s) || !get_int(b, "concat_dimension", &c))
		return bad(b, "expected integer attributes 'split_dimension' and "
		           "'concat_dimension'");
	for (uint32_t t = 0; t < b->nt; t++)
		if (same_rank(b, t, 0))
			return -1;
	if (s < 0 || s >= b->rank[0] || c < 0 || c >= b->rank[0])
		return bad(b, "split or concat dimension out of range for rank %u", b->rank[0]);
	for (uint32_t d = 0; d < b->rank[0]; d++)
		if (d != s && d != c)
			same_dim(b, ALL, d, dimsz(b, 0, d), SLI_FACTOR_PASS_THROUGH, false);
	same_dim(b, OPERANDS, s, dimsz(b, 0, s), SLI_FACTOR_NEED_REPLICATION, false);
	same_dim(b, RESULTS, s, dimsz(b, res(b, 0), s), SLI_FACTOR_NEED_REPLICATION, false);
	if (c != s) {
		same_dim(b, OPERANDS, c, dimsz(b, 0, c), SLI_FACTOR_NEED_REPLICATION, false);
		same_dim(b, RESULTS, c, dimsz(b, res(b, 0), c), SLI_FACTOR_NEED_REPLICATION, false);
	}
	return SLI_RULE_FOUND;
}

/* 4.6 */
static int
r_batch_norm_inference(builder *b)
{
	int64_t fi;

	if (need_counts(b, 5, 1) || need_shaped(b))
		return -1;
	if (!get_int(b, "feature_index", &fi) || fi < 0 || fi >= b->rank[0])
		return bad(b, "expected feature_index within the operand rank");
	if (same_rank(b, 0, res(b, 0)))
		return -1;
	for (uint32_t t = 1; t < 5; t++)
		if (b->rank[t] != 1)
			return bad(b, "operand %u must have rank 1", t);
	for (uint32_t d = 0; d < b->rank[0]; d++) {
		uint32_t f = new_factor(b, dimsz(b, 0, d), SLI_FACTOR_PASS_THROUGH, false);
		map(b, f, 0, d);
		if (d == fi)
			for (uint32_t t = 1; t < 5; t++)
				map(b, f, t, 0);
		map(b, f, res(b, 0), d);
	}
	return SLI_RULE_FOUND;
}

/* 4.7 */
static int
r_bitcast_convert(builder *b)
{
	uint32_t in = 0, out, ri, ro;

	if (need_counts(b, 1, 1) || need_shaped(b))
		return -1;
	out = res(b, 0);
	ri = b->rank[in];
	ro = b->rank[out];
	if (ri + 1 < ro || ro + 1 < ri)
		return bad(b, "operand and result ranks differ by more than one");
	pointwise_of(b, ri < ro ? in : out);
	if (ri < ro) {
		uint32_t f = new_factor(b, dimsz(b, out, ro - 1), SLI_FACTOR_NEED_REPLICATION, false);
		map(b, f, out, ro - 1);
	} else if (ri > ro) {
		uint32_t f = new_factor(b, dimsz(b, in, ri - 1), SLI_FACTOR_NEED_REPLICATION, false);
		map(b, f, in, ri - 1);
	}
	return SLI_RULE_FOUND;
}

/* 4.8 */
static int
r_broadcast_in_dim(builder *b)
{
	i64vec bd = {0};
	int64_t *out_to_in;
	uint32_t out;
	int rc = -1;

	if (need_counts(b, 1, 1) || need_shaped(b))
		return -1;
	out = res(b, 0);
	if (!get_ints(b, "broadcast_dimensions", &bd)) {
		SL_VEC_FREE(bd);
		return bad(b, "expected integer array attribute 'broadcast_dimensions'");
	}
	out_to_in = sli_xmalloc(sizeof *out_to_in * (b->rank[out] + 1));
	for (uint32_t o = 0; o < b->rank[out]; o++)
		out_to_in[o] = NO_DIM;
	if (bd.n != b->rank[0]) {
		bad(b, "broadcast_dimensions has %zu entries, expected the operand rank %u", bd.n,
		    b->rank[0]);
		goto done;
	}
	for (uint32_t d = 0; d < bd.n; d++) {
		int64_t o = bd.v[d];
		if (o < 0 || o >= b->rank[out] || out_to_in[o] != NO_DIM) {
			bad(b, "broadcast_dimensions entry %" PRId64 " is out of range or repeated", o);
			goto done;
		}
		if (dimsz(b, 0, d) != 1 && dimsz(b, 0, d) != dimsz(b, out, o)) {
			bad(b, "operand dimension %u (size %" PRId64 ") cannot be broadcast to "
			    "result dimension %" PRId64 " (size %" PRId64 ")", d, dimsz(b, 0, d), o,
			    dimsz(b, out, o));
			goto done;
		}
		out_to_in[o] = d;
	}
	for (uint32_t o = 0; o < b->rank[out]; o++) {
		int64_t d = out_to_in[o];
		uint32_t f;
		if (d != NO_DIM && dimsz(b, 0, d) == 1 && dimsz(b, out, o) != 1) {
			map(b, new_factor(b, 1, SLI_FACTOR_PASS_THROUGH, false), 0, d);
			d = NO_DIM;
		}
		f = new_factor(b, dimsz(b, out, o), SLI_FACTOR_PASS_THROUGH, false);
		map(b, f, 0, d);
		map(b, f, out, o);
	}
	rc = SLI_RULE_FOUND;
done:
	free(out_to_in);
	SL_VEC_FREE(bd);
	return rc;
}

/* 4.9 */
static int
r_cholesky(builder *b)
{
	if (need_counts(b, 1, 1) || need_shaped(b))
		return -1;
	for (uint32_t d = 0; d < b->rank[0]; d++)
		same_dim(b, ALL, d, dimsz(b, 0, d),
		         d + 2 < b->rank[0] ? SLI_FACTOR_PASS_THROUGH : SLI_FACTOR_NEED_REPLICATION,
		         false);
	return SLI_RULE_FOUND;
}

static bool
defined_by(const sl_value *v, sl_op_kind kind)
{
	return v->def && v->def->kind == kind;
}

/* 4.10: permutation when the operands are slices (of one value). */
static sli_factor_kind
concat_kind(const builder *b)
{
	bool all_slices = true, any_slice = false, same = true;
	const sl_value *first = NULL;

	for (uint32_t i = 0; i < b->nops; i++) {
		const sl_value *v = b->op->operands[i];
		if (defined_by(v, SL_OP_SLICE) && v->def->noperands > 0) {
			any_slice = true;
			v = v->def->operands[0];
		} else {
			all_slices = false;
		}
		if (!first)
			first = v;
		same = same && v == first;
	}
	if (all_slices || (same && any_slice))
		return SLI_FACTOR_PERMUTATION;
	return SLI_FACTOR_NEED_REPLICATION;
}

static int
r_concatenate(builder *b)
{
	int64_t c;
	uint32_t out;

	if (b->nops == 0 || b->nres != 1)
		return bad(b, "expected at least one operand and one result");
	if (need_shaped(b))
		return -1;
	out = res(b, 0);
	if (!get_int(b, "dimension", &c) || c < 0 || c >= b->rank[out])
		return bad(b, "expected 'dimension' within the result rank");
	for (uint32_t t = 0; t < b->nops; t++)
		if (same_rank(b, t, out))
			return -1;
	for (uint32_t d = 0; d < b->rank[out]; d++) {
		if (d == c && b->opts->conservative)
			continue;
		same_dim(b, ALL, d, dimsz(b, out, d),
		         d == c ? concat_kind(b) : SLI_FACTOR_PASS_THROUGH, false);
	}
	return SLI_RULE_FOUND;
}

/* }===================================================================== */

/* {====== convolution and dots (4.11-4.13) =============================== */

/* Tensor of each convolution group: lhs, rhs, result. */
static uint32_t
conv_tensor(builder *b, int g)
{
	return g == SL_CONV_INPUT ? 0 : g == SL_CONV_KERNEL ? 1 : res(b, 0);
}

static int
check_conv_dims(builder *b, const sl_conv_dims *c)
{
	size_t ns = c->spatial[SL_CONV_INPUT].n;

	for (int g = 0; g < SL_CONV_NGROUPS; g++) {
		uint32_t r = b->rank[conv_tensor(b, g)];
		if (c->first[g] < 0 || c->first[g] >= r || c->second[g] < 0 || c->second[g] >= r)
			return bad(b, "convolution dimension numbers out of range for the operand "
			           "types");
	}
	for (int g = 0; g < SL_CONV_NGROUPS; g++)
		if (c->spatial[g].n != ns || ns + 2 != b->rank[conv_tensor(b, g)])
			return bad(b, "convolution dimension numbers do not match the operand ranks");
	for (size_t i = 0; i < ns; i++)
		for (int g = 0; g < SL_CONV_NGROUPS; g++)
			if (c->spatial[g].v[i] < 0 || c->spatial[g].v[i] >= b->rank[conv_tensor(b, g)])
				return bad(b, "convolution spatial dimension %zu is missing or out of "
				           "range", i);
	return 0;
}

/* 4.11 */
static int
r_convolution(builder *b)
{
	const sl_conv_dims *c = sli_attr_get_conv_dims(attr(b, "dimension_numbers"));
	int64_t bgc = 1, fgc = 1, ofs;
	uint32_t L = 0, R = 1, O;
	uint32_t f;

	if (need_counts(b, 2, 1) || need_shaped(b))
		return -1;
	O = res(b, 0);
	if (!c || !c->known)
		return bad(b, "expected convolution attribute 'dimension_numbers'");
	if (check_conv_dims(b, c))
		return -1;
	get_int(b, "batch_group_count", &bgc);
	get_int(b, "feature_group_count", &fgc);
	if (bgc < 1 || fgc < 1)
		return bad(b, "group counts must be positive");
	int64_t ib = c->first[SL_CONV_INPUT], ifeat = c->second[SL_CONV_INPUT];
	int64_t kif = c->first[SL_CONV_KERNEL], kof = c->second[SL_CONV_KERNEL];
	int64_t ob = c->first[SL_CONV_OUTPUT], of = c->second[SL_CONV_OUTPUT];
	const sl_dim_list *is = &c->spatial[SL_CONV_INPUT], *ks = &c->spatial[SL_CONV_KERNEL];
	const sl_dim_list *os = &c->spatial[SL_CONV_OUTPUT];
	if (bgc > 1) {
		f = new_factor(b, bgc, SLI_FACTOR_PASS_THROUGH, false);
		map(b, f, L, ib);
		map(b, f, R, kof);
		map(b, f, O, of);
	}
	f = new_factor(b, dimsz(b, O, ob), SLI_FACTOR_PASS_THROUGH, false);
	map(b, f, L, ib);
	map(b, f, O, ob);
	for (size_t s = 0; s < is->n && !b->opts->conservative; s++) {
		int64_t windows = dimsz(b, O, os->v[s]);
		int64_t wsize = dimsz(b, R, ks->v[s]);
		int64_t remaining = dimsz(b, L, is->v[s]);
		bool windows_first = windows >= wsize;
		for (int k = 0; k < 2; k++) {
			bool is_windows = (k == 0) == windows_first;
			int64_t size = is_windows ? windows : wsize;
			if (remaining < size)
				size = remaining;
			if (size <= 1)
				continue;
			remaining /= size;
			if (is_windows) {
				f = new_factor(b, size, SLI_FACTOR_PERMUTATION, false);
				map(b, f, L, is->v[s]);
				map(b, f, O, os->v[s]);
			} else {
				f = new_factor(b, size, SLI_FACTOR_REDUCTION, false);
				map(b, f, L, is->v[s]);
				map(b, f, R, ks->v[s]);
			}
		}
	}
	if (fgc > 1) {
		f = new_factor(b, fgc, SLI_FACTOR_PASS_THROUGH, false);
		map(b, f, L, ifeat);
		map(b, f, R, kof);
		map(b, f, O, of);
	}
	f = new_factor(b, dimsz(b, R, kif), SLI_FACTOR_REDUCTION, false);
	map(b, f, L, ifeat);
	map(b, f, R, kif);
	ofs = dimsz(b, O, of) / (bgc * fgc);
	if (ofs > 1) {
		f = new_factor(b, ofs, SLI_FACTOR_PASS_THROUGH, false);
		map(b, f, R, kof);
		map(b, f, O, of);
	}
	return SLI_RULE_FOUND;
}

/* A dim listed twice in batch and contract together, else NO_DIM. */
static int64_t
listed_twice(const sl_dim_list *batch, const sl_dim_list *contract)
{
	for (size_t i = 0; i < batch->n + contract->n; i++) {
		int64_t d = i < batch->n ? batch->v[i] : contract->v[i - batch->n];
		for (size_t j = i + 1; j < batch->n + contract->n; j++)
			if (d == (j < batch->n ? batch->v[j] : contract->v[j - batch->n]))
				return d;
	}
	return NO_DIM;
}

/* 4.12 */
static int
r_dot_general(builder *b)
{
	const sl_attr *a;
	const sl_dim_list *v;
	uint32_t O, od = 0;

	if (need_counts(b, 2, 1) || need_shaped(b))
		return -1;
	O = res(b, 0);
	a = attr(b, "dot_dimension_numbers");
	/* the reader keeps dimension numbers it cannot read as opaque text */
	if (a && a->kind == SL_ATTR_OPAQUE)
		return bad(b, "malformed 'dot_dimension_numbers'");
	if (!sli_attr_get_dot_dims(a))
		return bad(b, "expected attribute 'dot_dimension_numbers'");
	v = a->u.dot->lists;
	for (int k = 0; k < SL_DOT_NLISTS; k++)
		if (check_dims(b, sli_dot_keys[k], v[k].v, v[k].n, b->rank[k % 2]))
			return -1;
	if (v[0].n != v[1].n || v[2].n != v[3].n)
		return bad(b, "lhs and rhs batching or contracting dimensions differ in number");
	for (int k = 0; k < 2; k++) {
		int64_t d = listed_twice(&v[k], &v[k + 2]);
		if (d != NO_DIM)
			return bad(b, "dimension %" PRId64 " of the %s is listed twice", d,
			           k ? "rhs" : "lhs");
	}
	if (b->rank[O] + v[0].n + 2 * v[2].n != b->rank[0] + b->rank[1])
		return bad(b, "result rank %u does not match the dot dimension numbers", b->rank[O]);
	for (size_t i = 0; i < v[0].n; i++) {
		uint32_t f = new_factor(b, dimsz(b, 0, v[0].v[i]), SLI_FACTOR_PASS_THROUGH, false);
		map(b, f, 0, v[0].v[i]);
		map(b, f, 1, v[1].v[i]);
		map(b, f, O, od++);
	}
	for (uint32_t t = 0; t < 2; t++) {
		for (uint32_t d = 0; d < b->rank[t]; d++) {
			uint32_t f;
			if (contains(v[t].v, v[t].n, d) || contains(v[2 + t].v, v[2 + t].n, d))
				continue;
			f = new_factor(b, dimsz(b, t, d), SLI_FACTOR_PASS_THROUGH, false);
			map(b, f, t, d);
			map(b, f, O, od++);
		}
	}
	for (size_t i = 0; i < v[2].n; i++) {
		uint32_t f = new_factor(b, dimsz(b, 0, v[2].v[i]), SLI_FACTOR_REDUCTION, false);
		map(b, f, 0, v[2].v[i]);
		map(b, f, 1, v[3].v[i]);
	}
	return SLI_RULE_FOUND;
}

/* 4.13 */
static int
r_dot(builder *b)
{
	uint32_t O, f;
	bool lm, rm;

	if (need_counts(b, 2, 1) || need_shaped(b))
		return -1;
	O = res(b, 0);
	if (b->rank[0] < 1 || b->rank[0] > 2 || b->rank[1] < 1 || b->rank[1] > 2)
		return bad(b, "expected vector or matrix operands");
	lm = b->rank[0] == 2;
	rm = b->rank[1] == 2;
	if (b->rank[O] != (uint32_t)lm + rm)
		return bad(b, "result rank %u does not match the operand ranks", b->rank[O]);
	if (lm) {
		f = new_factor(b, dimsz(b, 0, 0), SLI_FACTOR_PASS_THROUGH, false);
		map(b, f, 0, 0);
		map(b, f, O, 0);
	}
	if (rm) {
		f = new_factor(b, dimsz(b, 1, 1), SLI_FACTOR_PASS_THROUGH, false);
		map(b, f, 1, 1);
		map(b, f, O, lm ? 1 : 0);
	}
	f = new_factor(b, dimsz(b, 1, 0), SLI_FACTOR_REDUCTION, false);
	map(b, f, 0, lm ? 1 : 0);
	map(b, f, 1, 0);
	return SLI_RULE_FOUND;
}

/* }===================================================================== */

/* {====== reshape, transpose, reductions, windows (4.14-4.18) ============ */

/* Number of elements of tensor t, -1 on overflow. */
static int64_t
num_elements(const builder *b, uint32_t t)
{
	int64_t n = 1;
	for (uint32_t d = 0; d < b->rank[t]; d++) {
		int64_t x = dimsz(b, t, d);
		if (x < 0 || (x && n > INT64_MAX / x))
			return -1;
		n *= x;
	}
	return n;
}

/* 4.14: the gcd-based factor decomposition of reshape. */
static int
r_reshape(builder *b)
{
	uint32_t I = 0, O, ri, ro, idim = 0, odim = 0;
	int64_t pdi = 1, pdo = 1, pfi = 1, pfo = 1, ni, no;
	size_t limit;

	if (need_counts(b, 1, 1) || need_shaped(b))
		return -1;
	O = res(b, 0);
	ri = b->rank[I];
	ro = b->rank[O];
	ni = num_elements(b, I);
	no = num_elements(b, O);
	if (ni < 0 || no < 0 || ni != no)
		return bad(b, "operand has %" PRId64 " elements but result has %" PRId64, ni, no);
	if (ni == 0)
		return SLI_RULE_NONE;
	/* every step either advances a dim or adds a factor of size >= 2 */
	limit = 2 * (size_t)(ri + ro) + 130;
	while (idim < ri || odim < ro) {
		int64_t nin, nout, g;
		if (b->s->size.n > limit)
			return bad(b, "reshape factor decomposition did not terminate");
		if (idim < ri && dimsz(b, I, idim) == 1) {
			map(b, new_factor(b, 1, SLI_FACTOR_PASS_THROUGH, false), I, idim++);
			continue;
		}
		if (odim < ro && dimsz(b, O, odim) == 1) {
			map(b, new_factor(b, 1, SLI_FACTOR_PASS_THROUGH, false), O, odim++);
			continue;
		}
		if (idim < ri && pdi == pfi)
			pdi *= dimsz(b, I, idim);
		if (odim < ro && pdo == pfo)
			pdo *= dimsz(b, O, odim);
		nin = pdi / pfi;
		nout = pdo / pfo;
		g = sli_gcd64(nin, nout);
		if (pfi == pfo) {
			if (g > 1) {
				uint32_t f = new_factor(b, g, SLI_FACTOR_PASS_THROUGH, false);
				map(b, f, I, idim);
				map(b, f, O, odim);
				pfi *= g;
				pfo *= g;
			} else {
				if (nin <= 1 || nout <= 1)
					return bad(b, "reshape factor decomposition failed");
				map(b, new_factor(b, nin, SLI_FACTOR_PASS_THROUGH, false), I, idim);
				map(b, new_factor(b, nout, SLI_FACTOR_PASS_THROUGH, false), O, odim);
				pfi *= nin;
				pfo *= nout;
			}
		} else if (pfi < pfo) {
			int64_t s = pfo / pfi;
			if (!(pfo % pfi == 0 && nin % s == 0))
				s = nin > g ? nin / g : nin;
			if (s <= 1)
				return bad(b, "reshape factor decomposition failed");
			map(b, new_factor(b, s, SLI_FACTOR_PASS_THROUGH, false), I, idim);
			pfi *= s;
		} else {
			int64_t s = pfi / pfo;
			if (!(pfi % pfo == 0 && nout % s == 0))
				s = nout > g ? nout / g : nout;
			if (s <= 1)
				return bad(b, "reshape factor decomposition failed");
			map(b, new_factor(b, s, SLI_FACTOR_PASS_THROUGH, false), O, odim);
			pfo *= s;
		}
		if (idim < ri && pdi == pfi)
			idim++;
		if (odim < ro && pdo == pfo)
			odim++;
	}
	return SLI_RULE_FOUND;
}

/* 4.15 */
static int
r_transpose(builder *b)
{
	i64vec perm = {0};
	uint32_t O;
	int rc = -1;

	if (need_counts(b, 1, 1) || need_shaped(b))
		return -1;
	O = res(b, 0);
	if (!get_ints(b, "permutation", &perm) || perm.n != b->rank[0] || perm.n != b->rank[O]) {
		bad(b, "expected 'permutation' with one entry per operand dimension");
		goto done;
	}
	for (uint32_t o = 0; o < perm.n; o++) {
		int64_t d = perm.v[o];
		uint32_t f;
		if (d < 0 || d >= b->rank[0] || dimsz(b, 0, d) != dimsz(b, O, o) ||
		    b->count[b->off[0] + d]) {
			bad(b, "permutation entry %u (%" PRId64 ") does not match the types", o, d);
			goto done;
		}
		f = new_factor(b, dimsz(b, 0, d), SLI_FACTOR_PASS_THROUGH, false);
		map(b, f, 0, d);
		map(b, f, O, o);
	}
	rc = SLI_RULE_FOUND;
done:
	SL_VEC_FREE(perm);
	return rc;
}

/* 4.16: N inputs, N scalar inits, N results. */
static int
r_reduce(builder *b)
{
	i64vec dims = {0};
	uint32_t n = b->nops / 2, od = 0;
	int rc = -1;

	if (b->nops == 0 || b->nops % 2 || b->nres != n) {
		bad(b, "expected N inputs, N init values and N results");
		goto done;
	}
	if (need_shaped(b))
		goto done;
	if (!get_ints(b, "dimensions", &dims)) {
		bad(b, "expected integer array attribute 'dimensions'");
		goto done;
	}
	if (check_dims(b, "dimensions", dims.v, dims.n, b->rank[0]))
		goto done;
	for (uint32_t t = 0; t < n; t++) {
		if (same_rank(b, t, 0))
			goto done;
		if (b->rank[res(b, t)] + dims.n != b->rank[0]) {
			bad(b, "result %u rank does not match the reduced dimensions", t);
			goto done;
		}
	}
	for (uint32_t d = 0; d < b->rank[0]; d++) {
		bool reduced = contains(dims.v, dims.n, d);
		uint32_t f = new_factor(b, dimsz(b, 0, d),
		                        reduced ? SLI_FACTOR_REDUCTION : SLI_FACTOR_PASS_THROUGH, false);
		for (uint32_t t = 0; t < n; t++) {
			map(b, f, t, d);
			if (!reduced)
				map(b, f, res(b, t), od);
		}
		od += !reduced;
	}
	rc = SLI_RULE_FOUND;
done:
	SL_VEC_FREE(dims);
	return rc;
}

/*
 * Window attributes of reduce_window / select_and_scatter: dim d is
 * pass-through iff its window size is 1, its stride 1 and its padding
 * (0, 0); absent attributes count as 1 / 1 / zero.
 */
typedef struct window {
	i64vec size, stride, pad;
} window;

static void
window_fini(window *w)
{
	SL_VEC_FREE(w->size);
	SL_VEC_FREE(w->stride);
	SL_VEC_FREE(w->pad);
}

static int
read_window(builder *b, window *w, uint32_t rank)
{
	memset(w, 0, sizeof *w);
	if (attr(b, "window_dimensions") && (!get_ints(b, "window_dimensions", &w->size) ||
	                                     w->size.n != rank))
		return bad(b, "'window_dimensions' must have one entry per dimension");
	if (attr(b, "window_strides") && (!get_ints(b, "window_strides", &w->stride) ||
	                                  w->stride.n != rank))
		return bad(b, "'window_strides' must have one entry per dimension");
	if (attr(b, "padding") && (!get_ints(b, "padding", &w->pad) || w->pad.n != 2 * rank))
		return bad(b, "'padding' must have two entries per dimension");
	return 0;
}

static bool
window_pass_through(const window *w, uint32_t d)
{
	return (!w->size.n || w->size.v[d] == 1) && (!w->stride.n || w->stride.v[d] == 1) &&
	       (!w->pad.n || (w->pad.v[2 * d] == 0 && w->pad.v[2 * d + 1] == 0));
}

/* 4.17 */
static int
r_reduce_window(builder *b)
{
	window w;
	uint32_t O;

	if (b->nops == 0 || b->nops % 2 || b->nres != b->nops / 2)
		return bad(b, "expected N inputs, N init values and N results");
	if (need_shaped(b))
		return -1;
	O = res(b, 0);
	for (uint32_t t = 0; t < b->nops / 2; t++)
		if (same_rank(b, t, O) || same_rank(b, res(b, t), O))
			return -1;
	if (read_window(b, &w, b->rank[O])) {
		window_fini(&w);
		return -1;
	}
	for (uint32_t d = 0; d < b->rank[O]; d++) {
		bool pass = window_pass_through(&w, d);
		same_dim(b, ALL, d, dimsz(b, O, d),
		         pass ? SLI_FACTOR_PASS_THROUGH : SLI_FACTOR_PERMUTATION,
		         !pass && b->opts->conservative);
	}
	window_fini(&w);
	return SLI_RULE_FOUND;
}

/* 4.18: operand, source, init -> result. */
static int
r_select_and_scatter(builder *b)
{
	window w;
	uint32_t O;
	bool cons = b->opts->conservative;

	if (need_counts(b, 3, 1) || need_shaped(b))
		return -1;
	O = res(b, 0);
	if (same_rank(b, 0, 1) || same_rank(b, 0, O))
		return -1;
	if (read_window(b, &w, b->rank[0])) {
		window_fini(&w);
		return -1;
	}
	for (uint32_t d = 0; d < b->rank[0]; d++) {
		uint32_t f;
		if (window_pass_through(&w, d)) {
			f = new_factor(b, dimsz(b, O, d), SLI_FACTOR_PASS_THROUGH, false);
			map(b, f, 0, d);
			map(b, f, 1, d);
			map(b, f, O, d);
			continue;
		}
		f = new_factor(b, dimsz(b, 1, d), SLI_FACTOR_NEED_REPLICATION, cons);
		map(b, f, 1, d);
		f = new_factor(b, dimsz(b, O, d), SLI_FACTOR_PERMUTATION, cons);
		map(b, f, 0, d);
		map(b, f, O, d);
	}
	window_fini(&w);
	return SLI_RULE_FOUND;
}

/* }===================================================================== */

/* {====== slicing, fft, gather/scatter, and the rest (4.19-4.26) ========= */

static int
slice_like(builder *b, sli_factor_kind kind, bool blocked)
{
	if (b->nops < 1 || b->nres != 1)
		return bad(b, "expected an operand and one result");
	if (need_shaped(b) || same_rank(b, 0, res(b, 0)))
		return -1;
	pointwise_mismatch(b, 0, res(b, 0), kind, blocked);
	return SLI_RULE_FOUND;
}

/* 4.19 */
static int
r_slice(builder *b)
{
	if (b->nops != 1)
		return bad(b, "expected one operand");
	return slice_like(b, SLI_FACTOR_PERMUTATION, b->opts->conservative);
}

static int
r_pad(builder *b)
{
	if (b->nops != 2)
		return bad(b, "expected two operands");
	return slice_like(b, SLI_FACTOR_PERMUTATION, b->opts->conservative);
}

static int
r_dynamic_slice(builder *b)
{
	return slice_like(b, SLI_FACTOR_NEED_REPLICATION, true);
}

static bool
is_constant(const sl_value *v)
{
	return defined_by(v, SL_OP_CONSTANT) || defined_by(v, SL_OP_SDY_CONSTANT);
}

/* 4.20: operand, update, start indices... -> result. */
static int
r_dynamic_update_slice(builder *b)
{
	uint32_t O;
	bool constant = true;

	if (b->nops < 2 || b->nres != 1)
		return bad(b, "expected an operand, an update and one result");
	if (need_shaped(b))
		return -1;
	O = res(b, 0);
	if (same_rank(b, 0, 1) || same_rank(b, 0, O))
		return -1;
	for (uint32_t i = 2; i < b->nops; i++)
		constant = constant && is_constant(b->op->operands[i]);
	for (uint32_t d = 0; d < b->rank[0]; d++) {
		uint32_t f;
		if (dimsz(b, 0, d) == dimsz(b, 1, d)) {
			f = new_factor(b, dimsz(b, 0, d), SLI_FACTOR_PASS_THROUGH, false);
			map(b, f, 0, d);
			map(b, f, 1, d);
			map(b, f, O, d);
			continue;
		}
		f = new_factor(b, dimsz(b, 0, d), SLI_FACTOR_PASS_THROUGH, false);
		map(b, f, 0, d);
		map(b, f, O, d);
		f = new_factor(b, dimsz(b, 1, d),
		               constant ? SLI_FACTOR_PASS_THROUGH : SLI_FACTOR_NEED_REPLICATION, false);
		map(b, f, 1, d);
	}
	return SLI_RULE_FOUND;
}

/* 4.21 */
static int
r_fft(builder *b)
{
	i64vec len = {0};
	uint32_t r, O;

	if (need_counts(b, 1, 1) || need_shaped(b))
		return -1;
	O = res(b, 0);
	r = b->rank[0];
	if (same_rank(b, 0, O))
		return -1;
	if (!get_ints(b, "fft_length", &len) || len.n > r || r == 0) {
		SL_VEC_FREE(len);
		return bad(b, "expected 'fft_length' with at most one entry per dimension");
	}
	for (uint32_t d = 0; d < r; d++) {
		sli_factor_kind kind = d + len.n < r ? SLI_FACTOR_PASS_THROUGH :
		                       SLI_FACTOR_NEED_REPLICATION;
		bool blocked = d == r - 1 && dimsz(b, 0, d) != dimsz(b, O, d);
		same_dim(b, ALL, d, dimsz(b, 0, d), kind, blocked);
	}
	SL_VEC_FREE(len);
	return SLI_RULE_FOUND;
}

/* Gather and scatter (4.22), in terms of input / indices / slices. */
typedef struct gs {
	bool scatter;
	uint32_t ninputs;	/* scatter: N inputs, indices, N updates -> N results */
	uint32_t in, idx, sl;	/* tensors: first input, indices, first slices */
	sl_dim_list offset, collapsed, in_batch, idx_batch;	/* in the attribute */
	int64_t ivd;
	bool common_reduction;
} gs;

/* A factor on input dim, indices dim and slices dim (each may be NO_DIM). */
static void
gs_factor(builder *b, const gs *g, int64_t id, int64_t xd, int64_t sd, int64_t size,
          sli_factor_kind kind, bool blocked)
{
	uint32_t f = new_factor(b, size, kind, blocked);

	if (!g->scatter) {
		map(b, f, 0, id);
		map(b, f, 1, xd);
		map(b, f, res(b, 0), sd);
		return;
	}
	for (uint32_t i = 0; i < g->ninputs; i++)
		map(b, f, i, id);
	map(b, f, g->idx, xd);
	for (uint32_t i = 0; i < g->ninputs; i++)
		map(b, f, g->sl + i, sd);
	for (uint32_t i = 0; i < g->ninputs; i++)
		map(b, f, res(b, i), id);
}

static int
gs_build(builder *b, gs *g)
{
	int64_t indim = 0, batchpos = 0;
	uint32_t rin = b->rank[g->in], rx = b->rank[g->idx], rs = b->rank[g->sl];

	if (check_dims(b, "offset dims", g->offset.v, g->offset.n, rs) ||
	    check_dims(b, "collapsed dims", g->collapsed.v, g->collapsed.n, rin) ||
	    check_dims(b, "input batching dims", g->in_batch.v, g->in_batch.n, rin) ||
	    check_dims(b, "indices batching dims", g->idx_batch.v, g->idx_batch.n, rx))
		return -1;
	if (g->in_batch.n != g->idx_batch.n)
		return bad(b, "input and indices batching dims differ in number");
	if (g->ivd < 0 || g->ivd > rx)
		return bad(b, "index_vector_dim %" PRId64 " out of range", g->ivd);
	for (uint32_t s = 0; s < rs; s++) {
		int64_t S = dimsz(b, g->sl, s);
		if (contains(g->offset.v, g->offset.n, s)) {
			int64_t I;
			while (contains(g->collapsed.v, g->collapsed.n, indim) ||
			       contains(g->in_batch.v, g->in_batch.n, indim))
				indim++;
			if (indim >= rin)
				return bad(b, "more offset dims than input dims");
			I = dimsz(b, g->in, indim);
			if (I == S) {
				gs_factor(b, g, indim, NO_DIM, s, I, SLI_FACTOR_PASS_THROUGH, false);
			} else if (g->scatter) {
				gs_factor(b, g, indim, NO_DIM, NO_DIM, I, SLI_FACTOR_NEED_REPLICATION,
				          false);
				gs_factor(b, g, NO_DIM, NO_DIM, s, S, SLI_FACTOR_NEED_REPLICATION, false);
			} else if (S == 1) {
				gs_factor(b, g, indim, NO_DIM, NO_DIM, I, SLI_FACTOR_REDUCTION, false);
				gs_factor(b, g, NO_DIM, NO_DIM, s, 1, SLI_FACTOR_NEED_REPLICATION, false);
			} else {
				gs_factor(b, g, indim, NO_DIM, s, I, SLI_FACTOR_NEED_REPLICATION, true);
			}
			indim++;
		} else {
			int64_t xd = batchpos < g->ivd ? batchpos : batchpos + 1;
			int64_t id = NO_DIM;
			sli_factor_kind kind = SLI_FACTOR_PASS_THROUGH;
			if (xd >= rx)
				return bad(b, "more batch dims in the result than in the indices");
			for (size_t k = 0; k < g->idx_batch.n; k++)
				if (g->idx_batch.v[k] == xd)
					id = g->in_batch.v[k];
			if (g->scatter && id == NO_DIM)
				kind = g->common_reduction ? SLI_FACTOR_REDUCTION :
				       SLI_FACTOR_NEED_REPLICATION;
			gs_factor(b, g, id, xd, s, S, kind, false);
			batchpos++;
		}
	}
	for (size_t i = 0; i < g->collapsed.n; i++) {
		int64_t c = g->collapsed.v[i];
		int64_t size = dimsz(b, g->in, c);
		sli_factor_kind kind = g->scatter ? SLI_FACTOR_PASS_THROUGH :
		                       size == 1 ? SLI_FACTOR_NEED_REPLICATION : SLI_FACTOR_REDUCTION;
		gs_factor(b, g, c, NO_DIM, NO_DIM, size, kind, false);
	}
	if (g->ivd < rx)
		gs_factor(b, g, NO_DIM, g->ivd, NO_DIM, dimsz(b, g->idx, g->ivd),
		          SLI_FACTOR_NEED_REPLICATION, false);
	return SLI_RULE_FOUND;
}

/* Reads the dimension numbers of attribute attrname into g. */
static int
gs_dims_of(builder *b, gs *g, const char *attrname)
{
	const sl_attr *a = attr(b, attrname);
	const sl_gs_dims *d = sli_attr_get_gs_dims(a, g->scatter);

	/* the reader keeps dimension numbers it cannot read as opaque text */
	if (!d && a && a->kind == SL_ATTR_OPAQUE)
		return bad(b, "malformed '%s'", attrname);
	if (!d)
		return bad(b, "expected attribute '%s'", attrname);
	g->offset = d->lists[SL_GS_WINDOW];
	g->collapsed = d->lists[SL_GS_COLLAPSED];
	g->in_batch = d->lists[SL_GS_BATCH];
	g->idx_batch = d->lists[SL_GS_IDX_BATCH];
	g->ivd = d->index_vector_dim;
	return 0;
}

static int
r_gather(builder *b)
{
	gs g;
	int rc;

	memset(&g, 0, sizeof g);
	if (need_counts(b, 2, 1) || need_shaped(b))
		return -1;
	g.in = 0;
	g.idx = 1;
	g.sl = res(b, 0);
	g.ninputs = 1;
	rc = gs_dims_of(b, &g, "dimension_numbers");
	if (rc == 0)
		rc = gs_build(b, &g);
	return rc;
}

static bool
is_block_arg(const sl_value *v, const sl_block *blk, uint32_t i)
{
	return !v->def && v->block == blk && v->index == i;
}

static bool
is_i1(const sl_context *ctx, const sl_type *t)
{
	if (t && t->kind == SL_TYPE_TENSOR)
		t = t->elem;
	return t && !strcmp(sl_sym_str(ctx, t->text), "i1");
}

/*
 * A "common supported reduction": every returned value is the same op
 * (add, multiply, maximum, minimum; and, or on i1) of block arguments
 * i and i + N, in either order.
 */
static bool
common_reduction(const builder *b, uint32_t n)
{
	const sl_block *blk;
	const sl_op *ret;
	sl_op_kind kind = SL_OP_UNKNOWN;

	if (b->op->nregions < 1 || !(blk = b->op->regions[0].first) || blk->nargs != 2 * n)
		return false;
	ret = blk->last;
	if (!ret || ret->kind != SL_OP_SHLO_RETURN || ret->noperands != n)
		return false;
	for (uint32_t i = 0; i < n; i++) {
		const sl_op *d = ret->operands[i]->def;
		if (!d || d->noperands != 2 || d->parent != blk)
			return false;
		if (i == 0)
			kind = d->kind;
		if (d->kind != kind)
			return false;
		if (kind != SL_OP_ADD && kind != SL_OP_MULTIPLY && kind != SL_OP_MAXIMUM &&
		    kind != SL_OP_MINIMUM &&
		    !((kind == SL_OP_AND || kind == SL_OP_OR) &&
		      is_i1(b->ctx, d->results[0].type)))
			return false;
		if (!(is_block_arg(d->operands[0], blk, i) && is_block_arg(d->operands[1], blk, i + n)) &&
		    !(is_block_arg(d->operands[1], blk, i) && is_block_arg(d->operands[0], blk, i + n)))
			return false;
	}
	return true;
}

static int
r_scatter(builder *b)
{
	gs g;
	int rc;
	uint32_t n = b->nres;

	memset(&g, 0, sizeof g);
	if (n == 0 || b->nops != 2 * n + 1)
		return bad(b, "expected N inputs, indices and N updates for N results");
	if (need_shaped(b))
		return -1;
	for (uint32_t i = 0; i < n; i++)
		if (same_rank(b, i, 0) || same_rank(b, res(b, i), 0) || same_rank(b, n + 1 + i, n + 1))
			return -1;
	g.scatter = true;
	g.ninputs = n;
	g.in = 0;
	g.idx = n;
	g.sl = n + 1;
	g.common_reduction = common_reduction(b, n);
	rc = gs_dims_of(b, &g, "scatter_dimension_numbers");
	if (rc == 0)
		rc = gs_build(b, &g);
	return rc;
}

/* 4.23 */
static int
r_reverse(builder *b)
{
	i64vec dims = {0};
	uint32_t O;
	int rc = -1;

	if (need_counts(b, 1, 1) || need_shaped(b) || same_rank(b, 0, res(b, 0)))
		return -1;
	O = res(b, 0);
	if (!get_ints(b, "dimensions", &dims)) {
		bad(b, "expected integer array attribute 'dimensions'");
		goto done;
	}
	if (check_dims(b, "dimensions", dims.v, dims.n, b->rank[O]))
		goto done;
	for (uint32_t d = 0; d < b->rank[O]; d++)
		same_dim(b, ALL, d, dimsz(b, O, d),
		         contains(dims.v, dims.n, d) ? SLI_FACTOR_PERMUTATION : SLI_FACTOR_PASS_THROUGH, false);
	rc = SLI_RULE_FOUND;
done:
	SL_VEC_FREE(dims);
	return rc;
}

/* 4.24: initial state -> (output state, output). */
static int
r_rng_bit_generator(builder *b)
{
	if (need_counts(b, 1, 2) || need_shaped(b) || same_rank(b, 0, res(b, 0)))
		return -1;
	for (uint32_t d = 0; d < b->rank[0]; d++) {
		uint32_t f = new_factor(b, dimsz(b, 0, d), SLI_FACTOR_NEED_REPLICATION, true);
		map(b, f, 0, d);
		map(b, f, res(b, 0), d);
	}
	for (uint32_t d = 0; d < b->rank[res(b, 1)]; d++) {
		uint32_t f = new_factor(b, dimsz(b, res(b, 1), d), SLI_FACTOR_PASS_THROUGH, false);
		map(b, f, res(b, 1), d);
	}
	return SLI_RULE_FOUND;
}

/* 4.25 */
static int
r_sort(builder *b)
{
	int64_t dim = -1;
	uint32_t r;
	bool others_one = true;

	if (b->nops == 0 || b->nres != b->nops)
		return bad(b, "expected as many results as operands");
	if (need_shaped(b))
		return -1;
	for (uint32_t t = 0; t < b->nt; t++)
		if (same_rank(b, t, 0))
			return -1;
	r = b->rank[0];
	get_int(b, "dimension", &dim);
	if (dim < 0)
		dim += r;
	if (dim < 0 || dim >= r)
		return bad(b, "sort dimension out of range for rank %u", r);
	for (uint32_t d = 0; d < r; d++)
		if (d != dim && dimsz(b, 0, d) != 1)
			others_one = false;
	for (uint32_t d = 0; d < r; d++) {
		if (d == dim)
			same_dim(b, ALL, d, dimsz(b, 0, d), SLI_FACTOR_NEED_REPLICATION, others_one);
		else
			same_dim(b, ALL, d, dimsz(b, 0, d), SLI_FACTOR_PASS_THROUGH, false);
	}
	return SLI_RULE_FOUND;
}

/* 4.26: a, b -> result. */
static int
r_triangular_solve(builder *b)
{
	uint32_t r, O, f;
	int64_t d1, d2, an, ac;
	bool tr, left;

	if (need_counts(b, 2, 1) || need_shaped(b))
		return -1;
	O = res(b, 0);
	r = b->rank[0];
	if (r < 2 || same_rank(b, 0, 1) || same_rank(b, 0, O))
		return r < 2 ? bad(b, "expected operands of rank 2 or more") : -1;
	tr = enum_is(b, attr(b, "transpose_a"), "TRANSPOSE") ||
	     enum_is(b, attr(b, "transpose_a"), "ADJOINT");
	left = get_bool(b, "left_side", false);
	for (uint32_t d = 0; d + 2 < r; d++)
		same_dim(b, ALL, d, dimsz(b, 0, d), SLI_FACTOR_PASS_THROUGH, false);
	d1 = r - 2;
	d2 = r - 1;
	if (left) {
		an = tr ? d2 : d1;
		ac = tr ? d1 : d2;
		f = new_factor(b, dimsz(b, 0, an), SLI_FACTOR_NEED_REPLICATION, false);
		map(b, f, 0, an);
		map(b, f, 1, d1);
		f = new_factor(b, dimsz(b, 1, d2), SLI_FACTOR_NEED_REPLICATION, false);
		map(b, f, 1, d2);
		map(b, f, O, d2);
		f = new_factor(b, dimsz(b, 0, ac), SLI_FACTOR_NEED_REPLICATION, false);
		map(b, f, 0, ac);
		map(b, f, O, d1);
	} else {
		an = tr ? d1 : d2;
		ac = tr ? d2 : d1;
		f = new_factor(b, dimsz(b, 1, d1), SLI_FACTOR_NEED_REPLICATION, false);
		map(b, f, 1, d1);
		map(b, f, O, d1);
		f = new_factor(b, dimsz(b, 0, an), SLI_FACTOR_NEED_REPLICATION, false);
		map(b, f, 0, an);
		map(b, f, 1, d2);
		f = new_factor(b, dimsz(b, 0, ac), SLI_FACTOR_NEED_REPLICATION, false);
		map(b, f, 0, ac);
		map(b, f, O, d2);
	}
	return SLI_RULE_FOUND;
}

/* }===================================================================== */

/* {====== custom_call (4.27) ============================================= */

/* Batch dims [0, rank - 2) of `t` on every tensor of rank > 0. */
static void
batch_pointwise(builder *b, uint32_t t)
{
	for (uint32_t d = 0; d + 2 < b->rank[t]; d++)
		same_dim(b, ALL, d, dimsz(b, t, d), SLI_FACTOR_PASS_THROUGH, false);
}

static int
cc_eigh(builder *b)
{
	uint32_t r, f;

	if (need_counts(b, 1, 2) || need_shaped(b))
		return -1;
	r = b->rank[0];
	if (r < 2 || b->rank[res(b, 0)] != r || b->rank[res(b, 1)] != r - 1)
		return bad(b, "expected an operand of rank 2 or more, results of its rank and "
		           "one less");
	batch_pointwise(b, 0);
	f = new_factor(b, dimsz(b, 0, r - 2), SLI_FACTOR_PASS_THROUGH, false);
	map(b, f, 0, r - 2);
	map(b, f, res(b, 0), r - 2);
	f = new_factor(b, dimsz(b, 0, r - 1), SLI_FACTOR_PASS_THROUGH, false);
	map(b, f, 0, r - 1);
	map(b, f, res(b, 0), r - 1);
	map(b, f, res(b, 1), r - 2);
	return SLI_RULE_FOUND;
}

static int
cc_qr(builder *b)
{
	uint32_t r, taus, f;

	if (need_counts(b, 1, 2) || need_shaped(b))
		return -1;
	r = b->rank[0];
	if (r < 2 || b->rank[res(b, 0)] != r || b->rank[res(b, 1)] != r - 1)
		return bad(b, "expected an operand of rank 2 or more, results of its rank and "
		           "one less");
	taus = res(b, 1);
	batch_pointwise(b, 0);
	for (uint32_t d = r - 2; d < r; d++) {
		f = new_factor(b, dimsz(b, 0, d), SLI_FACTOR_NEED_REPLICATION, false);
		map(b, f, 0, d);
		map(b, f, res(b, 0), d);
	}
	f = new_factor(b, dimsz(b, taus, r - 2), SLI_FACTOR_NEED_REPLICATION, false);
	map(b, f, taus, r - 2);
	return SLI_RULE_FOUND;
}

static int
cc_householder(builder *b)
{
	uint32_t r, f;

	if (need_counts(b, 2, 1) || need_shaped(b))
		return -1;
	r = b->rank[0];
	if (r < 2 || b->rank[res(b, 0)] != r || b->rank[1] != r - 1)
		return bad(b, "expected a matrix operand of rank 2 or more, taus of one less "
		           "and a result of its rank");
	batch_pointwise(b, 0);
	for (uint32_t d = r - 2; d < r; d++) {
		f = new_factor(b, dimsz(b, 0, d), SLI_FACTOR_NEED_REPLICATION, false);
		map(b, f, 0, d);
		map(b, f, res(b, 0), d);
	}
	f = new_factor(b, dimsz(b, 1, r - 2), SLI_FACTOR_NEED_REPLICATION, false);
	map(b, f, 1, r - 2);
	return SLI_RULE_FOUND;
}

static int
cc_topk(builder *b)
{
	if (need_counts(b, 1, 2) || need_shaped(b) || same_rank(b, 0, res(b, 0)) ||
	    same_rank(b, 0, res(b, 1)))
		return -1;
	pointwise_mismatch(b, 0, res(b, 0), SLI_FACTOR_NEED_REPLICATION, true);
	return SLI_RULE_FOUND;
}

/* ApproxTopK / PartialReduce: operand, iota, two scalar inits. */
static int
cc_approx_topk(builder *b)
{
	if (need_counts(b, 4, 2) || need_shaped(b) || same_rank(b, 0, 1) ||
	    same_rank(b, 0, res(b, 0)) || same_rank(b, 0, res(b, 1)))
		return -1;
	for (uint32_t d = 0; d < b->rank[0]; d++) {
		int64_t in = dimsz(b, 0, d), out = dimsz(b, res(b, 0), d);
		if (in == out) {
			same_dim(b, ALL, d, in, SLI_FACTOR_PASS_THROUGH, false);
		} else {
			same_dim(b, OPERANDS, d, in, SLI_FACTOR_PASS_THROUGH, false);
			same_dim(b, RESULTS, d, out, SLI_FACTOR_NEED_REPLICATION, true);
		}
	}
	return SLI_RULE_FOUND;
}

typedef struct user_search {
	const sl_op *op;
	sl_op_kind kind;
	bool found;
} user_search;

static int
find_user(sl_op *op, void *ud)
{
	user_search *s = ud;

	if (op->kind != s->kind)
		return 0;
	for (uint32_t i = 0; i < op->noperands; i++)
		if (op->operands[i]->def == s->op)
			s->found = true;
	return s->found;
}

/* Whether some op of `kind` in op's function uses a result of op. */
static bool
has_user(const sl_op *op, sl_op_kind kind)
{
	user_search s = {op, kind, false};
	sl_op *root = sli_op_parent(op);

	while (root && !(sli_op_info[root->kind].traits & T_ISO) && sli_op_parent(root))
		root = sli_op_parent(root);
	if (root)
		sli_walk(root, find_user, &s);
	return s.found;
}

static int
cc_x64_combine(builder *b)
{
	if (!has_user(b->op, SL_OP_RNG_BIT_GENERATOR))
		return r_pointwise(b);
	if (b->nres != 1 || !b->shaped[res(b, 0)] || b->rank[res(b, 0)] != 1)
		return bad(b, "X64Combine used by rng_bit_generator must have a rank-1 result");
	same_dim(b, ALL, 0, dimsz(b, res(b, 0), 0), SLI_FACTOR_NEED_REPLICATION, true);
	return SLI_RULE_FOUND;
}

static int
cc_none(builder *b)
{
	return SLI_RULE_NONE;
}

typedef int rule_fn(builder *b);

static const struct {
	const char *target;
	rule_fn *fn;
} custom_calls[] = {
	{"sdy_testonly", cc_none},
	{"tpu_custom_call", cc_none},
	{"xla_python_cpu_callback", cc_none},
	{"xla_python_gpu_callback", cc_none},
	{"xla_ffi_python_cpu_callback", cc_none},
	{"xla_ffi_python_gpu_callback", cc_none},
	{"xla.debug.Log", cc_none},
	{"annotate_device_placement", r_pointwise},
	{"Cholesky", r_pointwise},
	{"CompactWyHelper", r_pointwise},
	{"InspectSharding", r_pointwise},
	{"InvertDiagBlocksLowerTriangular", r_pointwise},
	{"InvertDiagBlocksUpperTriangular", r_pointwise},
	{"LayoutConstraint", r_pointwise},
	{"mhlo.erf", r_pointwise},
	{"MoveToDevice", r_pointwise},
	{"MoveToHost", r_pointwise},
	{"X64SplitHigh", r_pointwise},
	{"X64SplitLow", r_pointwise},
	{"xla.megascale.provide_metadata", r_pointwise},
	{"_SPMDInternalOp_MultiPad", r_pointwise},
	{"_SPMDInternalOp_RotateRight", r_pointwise},
	{"_SPMDInternalOp_MultiRotate", r_pointwise},
	{"_SPMDInternalOp_MultiSlice", r_pointwise},
	{"_SPMDInternalOp_Wrap", r_pointwise},
	{"Eigh", cc_eigh},
	{"Qr", cc_qr},
	{"QrDecompositionBlock", cc_qr},
	{"ProductOfElementaryHouseholderReflectors", cc_householder},
	{"mhlo.topk", cc_topk},
	{"ApproxTopK", cc_approx_topk},
	{"PartialReduce", cc_approx_topk},
	{"X64Combine", cc_x64_combine},
};

static int
r_custom_call(builder *b)
{
	const sl_attr *a = attr(b, "call_target_name");
	const char *name;
	size_t n;

	if (!a || a->kind != SL_ATTR_STRING)
		return bad(b, "expected string attribute 'call_target_name'");
	name = a->u.s.p;
	n = a->u.s.n;
	for (size_t i = 0; i < sizeof custom_calls / sizeof *custom_calls; i++)
		if (strlen(custom_calls[i].target) == n && !memcmp(custom_calls[i].target, name, n))
			return custom_calls[i].fn(b);
	if (b->opts->warn && !b->opts->warned_call) {
		b->opts->warned_call = true;
		sli_diag(b->ctx, SL_DIAG_WARNING, b->op->loc,
		         "custom call @%.*s is unknown to SDY sharding rule registry", (int)n, name);
	}
	return SLI_RULE_NONE;
}

/* }===================================================================== */

/* {====== the registry =================================================== */

/* Ops without a rule, silently (4.28, spec 5). */
static int
r_none(builder *b)
{
	return SLI_RULE_NONE;
}

/*
 * Op kind -> rule builder.  A missing row means "unknown to the registry":
 * no rule, and a warning (spec 5).  Adding an op is one row here and, if
 * its rule is new, one function above.
 */
static rule_fn *const registry[SL_OP__COUNT] = {
	/* builtin, func, sdy */
	[SL_OP_MODULE] = r_none,
	[SL_OP_FUNC] = r_none,
	[SL_OP_CALL] = r_none,
	[SL_OP_SDY_MESH] = r_none,
	[SL_OP_SDY_SHARDING_CONSTRAINT] = r_pointwise,
	[SL_OP_SDY_RESHARD] = r_none,
	[SL_OP_SDY_MANUAL_COMPUTATION] = r_none,
	[SL_OP_SDY_NAMED_COMPUTATION] = r_none,
	[SL_OP_SDY_SHARDING_GROUP] = r_none,
	[SL_OP_SDY_CONSTANT] = r_none,
	[SL_OP_SDY_DATA_FLOW_EDGE] = r_none,
	[SL_OP_SDY_FUNC_DATA_FLOW_EDGE] = r_none,
	[SL_OP_SDY_PROPAGATION_BARRIER] = r_none,
	/* stablehlo: element-wise (4.2) */
	[SL_OP_ABS] = r_pointwise,
	[SL_OP_ADD] = r_pointwise,
	[SL_OP_ALL_REDUCE] = r_pointwise,
	[SL_OP_AND] = r_pointwise,
	[SL_OP_ATAN2] = r_pointwise,
	[SL_OP_CBRT] = r_pointwise,
	[SL_OP_CEIL] = r_pointwise,
	[SL_OP_CLZ] = r_pointwise,
	[SL_OP_COLLECTIVE_BROADCAST] = r_pointwise,
	[SL_OP_COLLECTIVE_PERMUTE] = r_pointwise,
	[SL_OP_COMPARE] = r_pointwise,
	[SL_OP_COMPLEX] = r_pointwise,
	[SL_OP_CONVERT] = r_pointwise,
	[SL_OP_COSINE] = r_pointwise,
	[SL_OP_DIVIDE] = r_pointwise,
	[SL_OP_EXPONENTIAL] = r_pointwise,
	[SL_OP_EXPM1] = r_pointwise,
	[SL_OP_FLOOR] = r_pointwise,
	[SL_OP_IMAG] = r_pointwise,
	[SL_OP_IS_FINITE] = r_pointwise,
	[SL_OP_LOG1P] = r_pointwise,
	[SL_OP_LOG] = r_pointwise,
	[SL_OP_LOGISTIC] = r_pointwise,
	[SL_OP_MAXIMUM] = r_pointwise,
	[SL_OP_MINIMUM] = r_pointwise,
	[SL_OP_MULTIPLY] = r_pointwise,
	[SL_OP_NEGATE] = r_pointwise,
	[SL_OP_NOT] = r_pointwise,
	[SL_OP_OR] = r_pointwise,
	[SL_OP_POPCNT] = r_pointwise,
	[SL_OP_POWER] = r_pointwise,
	[SL_OP_REAL] = r_pointwise,
	[SL_OP_REDUCE_PRECISION] = r_pointwise,
	[SL_OP_REMAINDER] = r_pointwise,
	[SL_OP_ROUND_EVEN] = r_pointwise,
	[SL_OP_ROUND_AFZ] = r_pointwise,
	[SL_OP_RSQRT] = r_pointwise,
	[SL_OP_SHIFT_LEFT] = r_pointwise,
	[SL_OP_SHIFT_RIGHT_ARITHMETIC] = r_pointwise,
	[SL_OP_SHIFT_RIGHT_LOGICAL] = r_pointwise,
	[SL_OP_SIGN] = r_pointwise,
	[SL_OP_SINE] = r_pointwise,
	[SL_OP_SQRT] = r_pointwise,
	[SL_OP_SUBTRACT] = r_pointwise,
	[SL_OP_TAN] = r_pointwise,
	[SL_OP_TANH] = r_pointwise,
	[SL_OP_XOR] = r_pointwise,
	/* stablehlo: the others, alphabetically */
	[SL_OP_AFTER_ALL] = r_none,
	[SL_OP_ALL_GATHER] = r_all_gather,
	[SL_OP_ALL_TO_ALL] = r_all_to_all,
	[SL_OP_BATCH_NORM_INFERENCE] = r_batch_norm_inference,
	[SL_OP_BITCAST_CONVERT] = r_bitcast_convert,
	[SL_OP_BROADCAST_IN_DIM] = r_broadcast_in_dim,
	[SL_OP_CASE] = r_none,
	[SL_OP_CHOLESKY] = r_cholesky,
	[SL_OP_CLAMP] = r_clamp,
	[SL_OP_CONCATENATE] = r_concatenate,
	[SL_OP_CONSTANT] = r_none,
	[SL_OP_CONVOLUTION] = r_convolution,
	[SL_OP_CREATE_TOKEN] = r_none,
	[SL_OP_CUSTOM_CALL] = r_custom_call,
	[SL_OP_DOT] = r_dot,
	[SL_OP_DOT_GENERAL] = r_dot_general,
	[SL_OP_DYNAMIC_SLICE] = r_dynamic_slice,
	[SL_OP_DYNAMIC_UPDATE_SLICE] = r_dynamic_update_slice,
	[SL_OP_FFT] = r_fft,
	[SL_OP_GATHER] = r_gather,
	[SL_OP_GET_TUPLE_ELEMENT] = r_none,
	[SL_OP_INFEED] = r_none,
	[SL_OP_IOTA] = r_none,
	[SL_OP_OPTIMIZATION_BARRIER] = r_none,
	[SL_OP_OUTFEED] = r_none,
	[SL_OP_PAD] = r_pad,
	[SL_OP_PARTITION_ID] = r_none,
	[SL_OP_RECV] = r_none,
	[SL_OP_REDUCE] = r_reduce,
	[SL_OP_REDUCE_SCATTER] = r_reduce_scatter,
	[SL_OP_REDUCE_WINDOW] = r_reduce_window,
	[SL_OP_RESHAPE] = r_reshape,
	[SL_OP_REVERSE] = r_reverse,
	[SL_OP_RNG_BIT_GENERATOR] = r_rng_bit_generator,
	[SL_OP_SCATTER] = r_scatter,
	[SL_OP_SELECT] = r_select,
	[SL_OP_SELECT_AND_SCATTER] = r_select_and_scatter,
	[SL_OP_SEND] = r_none,
	[SL_OP_SLICE] = r_slice,
	[SL_OP_SORT] = r_sort,
	[SL_OP_TRANSPOSE] = r_transpose,
	[SL_OP_TRIANGULAR_SOLVE] = r_triangular_solve,
	[SL_OP_WHILE] = r_none,
};

static void
warn_unknown(sl_module *m, const sl_op *op, sli_rule_opts *o)
{
	if (!o->warn || o->warned_op)
		return;
	o->warned_op = true;
	sli_diag(m->ctx, SL_DIAG_WARNING, op->loc,
	         "op '%s' is unknown to SDY sharding rule registry", sl_sym_str(m->ctx, op->name));
}

/*
 * The registry's rule for op (createOpShardingRule).  Scratch buffers are
 * kept in o when keep (the caller's opts), else freed.
 */
static int
create_rule(sl_module *m, const sl_op *op, sli_rule_opts *o, bool keep, sl_rule *out)
{
	rule_fn *fn = op->kind > SL_OP_UNKNOWN && op->kind < SL_OP__COUNT ? registry[op->kind] :
	              NULL;
	sli_rule_scratch *s;
	builder b;
	int rc;

	if (op->kind > SL_OP_UNKNOWN && op->kind < SL_OP__COUNT &&
	    (sli_op_info[op->kind].traits & T_TERM))
		return SLI_RULE_NONE;
	if (!fn) {
		warn_unknown(m, op, o);
		return SLI_RULE_NONE;
	}
	if (fn == r_none || has_dynamic_type(op))
		return SLI_RULE_NONE;
	s = o->scratch ? o->scratch : sli_xcalloc(1, sizeof *s);
	builder_init(&b, m, op, o, s);
	rc = fn(&b);
	if (rc == SLI_RULE_FOUND)
		builder_finish(&b, o->arena ? o->arena : &m->arena, out);
	if (keep)
		o->scratch = s;
	else if (s != o->scratch)
		scratch_free(s);
	return rc;
}

int
sli_rule_for_op(sl_module *m, const sl_op *op, sli_rule_opts *opts, sl_rule *out)
{
	sli_rule_opts defaults = {0};
	sli_rule_opts *o = opts ? opts : &defaults;

	if (!o->registry_only) {
		const sl_attr *a = sli_op_rule_attr(op);
		if (a) {
			if (a->kind != SL_ATTR_RULE) {
				sli_error(m->ctx, op->loc, "'%s' op should have a sharding rule attribute "
				          "of type OpShardingRuleAttr for attr named 'sdy.sharding_rule'",
				          sl_sym_str(m->ctx, op->name));
				return -1;
			}
			if (sli_rule_check(m, op, &a->u.rule))
				return -1;
			*out = a->u.rule;
			return SLI_RULE_FOUND;
		}
	}
	return create_rule(m, op, o, opts != NULL, out);
}

bool
sli_rule_local(const sl_op *op)
{
	switch (op->kind) {
	case SL_OP_SCATTER:		/* common_reduction looks at the body */
	case SL_OP_CONCATENATE:		/* concat_kind looks at the operands' defs */
	case SL_OP_DYNAMIC_UPDATE_SLICE:	/* whether the start indices are constants */
	case SL_OP_CUSTOM_CALL:		/* X64Combine looks for its users */
		return false;
	default:
		return op->kind > SL_OP_UNKNOWN && op->kind < SL_OP__COUNT;
	}
}

int
sli_rule_attach(sl_module *m, sl_op *op, sli_rule_opts *opts, sl_rule *out)
{
	sl_rule r;
	bool had = !(opts && opts->registry_only) && sli_op_rule_attr(op);
	int rc = sli_rule_for_op(m, op, opts, &r);

	if (rc == SLI_RULE_FOUND && !had)
		sli_op_set_rule_attr(m, op, sli_rule_attr_new(m, &r));
	if (rc == SLI_RULE_FOUND && out)
		*out = r;
	return rc;
}

sl_attr *
sli_rule_attr_new(sl_module *m, const sl_rule *rule)
{
	sl_attr *a = sli_attr_new(m, SL_ATTR_RULE);

	a->u.rule = *rule;
	return a;
}

/* }===================================================================== */
