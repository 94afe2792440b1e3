/*
 * explicit_gather_scatter_batching.c - -sdy-explicit-gather-scatter-batching
 * (spec/import-passes.md section 2.5): a gather or scatter whose dimension 0
 * is an implicit batch dimension (its index component comes from an iota
 * along dimension 0) gets it as an explicit batching dimension, and that
 * index component is dropped from the indices.  As MLIR's greedy driver,
 * the pass then erases the side-effect-free ops of each function that
 * nothing uses.  The rewritten op stays in place: only its indices operand
 * and dimension numbers change.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef SL_VEC(int64_t) i64vec;

/* The fields of #stablehlo.gather<...> / #stablehlo.scatter<...>. */
enum {
	DN_WINDOW,	/* offset_dims / update_window_dims */
	DN_COLLAPSED,	/* collapsed_slice_dims / inserted_window_dims */
	DN_BATCH,	/* operand_batching_dims / input_batching_dims */
	DN_IDX_BATCH,	/* start_indices_batching_dims / scatter_indices_batching_dims */
	DN_MAP,		/* start_index_map / scatter_dims_to_operand_dims */
	DN_NLISTS
};

typedef struct dn_syntax {
	const char *attr;		/* the inherent attribute holding them */
	const char *prefix;		/* the attribute's text up to the fields */
	const char *keys[DN_NLISTS];	/* list fields, in printed order */
} dn_syntax;

static const dn_syntax gather_syntax = {
	"dimension_numbers", "#stablehlo.gather<",
	{"offset_dims", "collapsed_slice_dims", "operand_batching_dims",
	 "start_indices_batching_dims", "start_index_map"},
};

static const dn_syntax scatter_syntax = {
	"scatter_dimension_numbers", "#stablehlo.scatter<",
	{"update_window_dims", "inserted_window_dims", "input_batching_dims",
	 "scatter_indices_batching_dims", "scatter_dims_to_operand_dims"},
};

typedef struct dimnums {
	i64vec lists[DN_NLISTS];
	int64_t ivd;		/* index_vector_dim, 0 when absent */
} dimnums;

static void
dimnums_fini(dimnums *d)
{
	for (int k = 0; k < DN_NLISTS; k++)
		SL_VEC_FREE(d->lists[k]);
}

/* {====== dimension numbers: text in, text out ============================ */

static const char *
skip_ws(const char *p, const char *e)
{
	while (p < e && isspace((unsigned char)*p))
		p++;
	return p;
}

/* An integer at p (after blanks); NULL if there is none. */
static const char *
scan_i64(const char *p, const char *e, int64_t *v)
{
	bool neg = false;
	int64_t x = 0;
	p = skip_ws(p, e);
	if (p < e && *p == '-') {
		neg = true;
		p++;
	}
	if (p >= e || !isdigit((unsigned char)*p))
		return NULL;
	while (p < e && isdigit((unsigned char)*p)) {
		if (x > (INT64_MAX - 9) / 10)
			return NULL;
		x = x * 10 + (*p++ - '0');
	}
	*v = neg ? -x : x;
	return p;
}

/* `[` (int (`,` int)*)? `]` appended to out; NULL when malformed. */
static const char *
scan_list(const char *p, const char *e, i64vec *out)
{
	p = skip_ws(p, e);
	if (p >= e || *p++ != '[')
		return NULL;
	p = skip_ws(p, e);
	if (p < e && *p == ']')
		return p + 1;
	for (;;) {
		int64_t v;
		if (!(p = scan_i64(p, e, &v)))
			return NULL;
		SL_VEC_PUSH(*out, v);
		p = skip_ws(p, e);
		if (p < e && *p == ',') {
			p++;
			continue;
		}
		return p < e && *p == ']' ? p + 1 : NULL;
	}
}

/*
 * dimnums = prefix (field (`,` field)*)? `>`
 * field   = key `=` `[` ints `]` | `index_vector_dim` `=` int
 * False when the attribute is absent, not opaque, or has another shape.
 */
static bool
dimnums_read(const sl_attr *a, const dn_syntax *syn, dimnums *d)
{
	memset(d, 0, sizeof *d);
	if (!a || a->kind != SL_ATTR_OPAQUE)
		return false;
	const char *p = a->u.text.p, *e = p + a->u.text.n;
	size_t np = strlen(syn->prefix);
	if ((size_t)(e - p) < np || memcmp(p, syn->prefix, np))
		return false;
	p = skip_ws(p + np, e);
	if (p < e && *p == '>')
		return skip_ws(p + 1, e) == e;
	for (;;) {
		const char *w = p;
		while (p < e && (isalnum((unsigned char)*p) || *p == '_'))
			p++;
		size_t n = (size_t)(p - w);
		p = skip_ws(p, e);
		if (!n || p >= e || *p++ != '=')
			goto bad;
		int k = 0;
		while (k < DN_NLISTS && !(strlen(syn->keys[k]) == n && !memcmp(syn->keys[k], w, n)))
			k++;
		if (k < DN_NLISTS) {
			if (d->lists[k].n || !(p = scan_list(p, e, &d->lists[k])))
				goto bad;
		} else if (n == strlen("index_vector_dim") && !memcmp(w, "index_vector_dim", n)) {
			if (!(p = scan_i64(p, e, &d->ivd)))
				goto bad;
		} else {
			goto bad;
		}
		p = skip_ws(p, e);
		if (p < e && *p == ',') {
			p = skip_ws(p + 1, e);
			continue;
		}
		if (p < e && *p == '>' && skip_ws(p + 1, e) == e)
			return true;
		goto bad;
	}
bad:
	dimnums_fini(d);
	return false;
}

/* The attribute as MLIR prints it: empty lists are left out. */
static sl_attr *
dimnums_attr(sl_module *m, const dn_syntax *syn, const dimnums *d, sl_loc loc)
{
	sli_buf b;
	sli_buf_init(&b);
	sli_buf_puts(&b, syn->prefix);
	for (int k = 0; k < DN_NLISTS; k++) {
		if (!d->lists[k].n)
			continue;
		sli_buf_printf(&b, "%s = [", syn->keys[k]);
		for (size_t i = 0; i < d->lists[k].n; i++)
			sli_buf_printf(&b, "%s%" PRId64, i ? ", " : "", d->lists[k].v[i]);
		sli_buf_puts(&b, "], ");
	}
	sli_buf_printf(&b, "index_vector_dim = %" PRId64 ">", d->ivd);
	sl_attr *a = sli_attr_new(m, SL_ATTR_OPAQUE);
	a->u.text.p = sli_arena_strndup(&m->arena, b.p, b.n);
	a->u.text.n = b.n;
	a->loc = loc;
	sli_buf_fini(&b);
	return a;
}

/* Position of x in v, or -1. */
static int64_t
find_i64(const i64vec *v, int64_t x)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->v[i] == x)
			return (int64_t)i;
	return -1;
}

static void
erase_at(i64vec *v, int64_t i)
{
	memmove(v->v + i, v->v + i + 1, sizeof *v->v * (v->n - (size_t)i - 1));
	v->n--;
}

/* }======================================================================= */

/* {====== the iota origin of an index component ============================ */

static bool
int_prop(sl_module *m, const sl_op *op, const char *name, int64_t *v)
{
	const sl_attr *a = sli_op_get(op, sli_sym(m, name));
	if (!a || a->kind != SL_ATTR_INT)
		return false;
	*v = a->u.i.v;
	return true;
}

static bool
is_kind(const sl_value *v, sl_op_kind kind)
{
	return v->def && v->def->kind == kind;
}

/* Peels reshape, broadcast_in_dim, clamp (its operand) and select (its
 * false branch when that is an iota, else its true branch). */
static sl_value *
unwrap(sl_value *v)
{
	for (;;) {
		const sl_op *d = v->def;
		if (!d)
			return v;
		switch (d->kind) {
		case SL_OP_RESHAPE:
		case SL_OP_BROADCAST_IN_DIM:
			if (d->noperands < 1)
				return v;
			v = d->operands[0];
			break;
		case SL_OP_CLAMP:
			if (d->noperands != 3)
				return v;
			v = d->operands[1];
			break;
		case SL_OP_SELECT:
			if (d->noperands != 3)
				return v;
			v = is_kind(d->operands[2], SL_OP_IOTA) ? d->operands[2] : d->operands[1];
			break;
		default:
			return v;
		}
	}
}

/* Whether component p of the indices comes from an iota along dim 0. */
static bool
iota_origin(sl_module *m, sl_value *indices, int64_t ivd, int64_t p)
{
	int64_t dim;
	sl_value *v = indices;
	if (is_kind(v, SL_OP_CONCATENATE)) {
		const sl_op *c = v->def;
		if (!int_prop(m, c, "dimension", &dim) || dim != ivd || p >= (int64_t)c->noperands)
			return false;
		v = c->operands[p];
	}
	v = unwrap(v);
	return is_kind(v, SL_OP_IOTA) && int_prop(m, v->def, "iota_dimension", &dim) && dim == 0;
}

/* }======================================================================= */

/* {====== the new indices ================================================== */

static sl_type *
with_dim(sl_module *m, const sl_type *t, int64_t ivd, int64_t size)
{
	int64_t *dims = sli_xmalloc(sizeof *dims * t->rank);
	memcpy(dims, t->dims, sizeof *dims * t->rank);
	dims[ivd] = size;
	sl_type *r = sli_type_tensor(m->ctx, t->rank, dims, t->elem, 0, false);
	free(dims);
	return r;
}

static sl_attr *
i64_array(sl_module *m, const int64_t *v, uint32_t n)
{
	sl_attr *a = sli_attr_new(m, SL_ATTR_DENSE_ARRAY);
	a->u.darr.elem = sli_type_elem(m->ctx, "i64", 3);
	a->u.darr.n = n;
	a->u.darr.v = n ? sli_arena_dup(&m->arena, v, sizeof *v * n) : NULL;
	return a;
}

/* Inserts op before `at`, at its location. */
static sl_value *
place(sl_op *op, sl_op *at)
{
	op->loc = at->loc;
	op->locattr = at->locattr;
	sli_op_insert_before(at, op);
	return &op->results[0];
}

static sl_value *
new_concat(sl_module *m, sl_op *at, sl_value *const *in, uint32_t n, sl_type *t, int64_t ivd)
{
	sl_op *c = sli_op_create(m, SL_OP_CONCATENATE, in, n, &t, 1, 0);
	sli_op_set_prop(m, c, sli_sym(m, "dimension"),
	                sli_attr_int(m, ivd, sli_type_elem(m->ctx, "i64", 3)));
	return place(c, at);
}

/* indices[..., lo:hi along ivd, ...] */
static sl_value *
new_slice(sl_module *m, sl_op *at, sl_value *indices, int64_t ivd, int64_t lo, int64_t hi)
{
	const sl_type *t = indices->type;
	uint32_t r = t->rank;
	int64_t *v = sli_xcalloc(3 * (size_t)r, sizeof *v);
	int64_t *start = v, *limit = v + r, *strides = v + 2 * r;
	for (uint32_t i = 0; i < r; i++) {
		limit[i] = t->dims[i];
		strides[i] = 1;
	}
	start[ivd] = lo;
	limit[ivd] = hi;
	sl_type *st = with_dim(m, t, ivd, hi - lo);
	sl_op *s = sli_op_create(m, SL_OP_SLICE, &indices, 1, &st, 1, 0);
	sli_op_set_prop(m, s, sli_sym(m, "start_indices"), i64_array(m, start, r));
	sli_op_set_prop(m, s, sli_sym(m, "limit_indices"), i64_array(m, limit, r));
	sli_op_set_prop(m, s, sli_sym(m, "strides"), i64_array(m, strides, r));
	free(v);
	return place(s, at);
}

/*
 * The indices without component p along ivd, built before `at`: a
 * concatenate with one input per component loses input p; otherwise the
 * parts before and after p are sliced out and concatenated.
 */
static sl_value *
drop_component(sl_module *m, sl_op *at, sl_value *indices, int64_t ivd, int64_t p)
{
	const sl_type *t = indices->type;
	int64_t total = t->dims[ivd];
	sl_type *rt = with_dim(m, t, ivd, total - 1);
	int64_t dim;
	if (is_kind(indices, SL_OP_CONCATENATE) &&
	    int_prop(m, indices->def, "dimension", &dim) && dim == ivd &&
	    (int64_t)indices->def->noperands == total) {
		const sl_op *c = indices->def;
		sl_value **in = sli_xmalloc(sizeof *in * c->noperands);
		uint32_t n = 0;
		for (uint32_t i = 0; i < c->noperands; i++)
			if ((int64_t)i != p)
				in[n++] = c->operands[i];
		sl_value *r = n == 1 ? in[0] : new_concat(m, at, in, n, rt, ivd);
		free(in);
		return r;
	}
	sl_value *parts[2];
	uint32_t n = 0;
	if (p > 0)
		parts[n++] = new_slice(m, at, indices, ivd, 0, p);
	if (p + 1 < total)
		parts[n++] = new_slice(m, at, indices, ivd, p + 1, total);
	return n == 1 ? parts[0] : new_concat(m, at, parts, n, rt, ivd);
}

/* }======================================================================= */

static bool
ranked(const sl_type *t)
{
	return t && t->kind == SL_TYPE_TENSOR && !t->unranked;
}

/* Sets a boolean prop to false unless present, as MLIR's builders do. */
static void
default_false(sl_module *m, sl_op *op, const char *name)
{
	sl_sym s = sli_sym(m, name);
	if (sli_op_prop(op, s))
		return;
	sl_attr *a = sli_attr_new(m, SL_ATTR_BOOL);
	a->u.b = false;
	sli_op_set_prop(m, op, s, a);
}

/* The gather or scatter pattern; true when op was rewritten. */
static bool
rewrite(sl_module *m, sl_op *op)
{
	bool gather = op->kind == SL_OP_GATHER;
	const dn_syntax *syn = gather ? &gather_syntax : &scatter_syntax;
	uint32_t iidx;
	if (gather) {
		if (op->noperands != 2 || op->nresults != 1)
			return false;
		iidx = 1;
	} else {
		if (op->noperands < 3 || op->noperands % 2 == 0 || op->nregions != 1)
			return false;
		iidx = (op->noperands - 1) / 2;
	}
	sl_value *indices = op->operands[iidx];
	const sl_type *ot = op->operands[0]->type, *it = indices->type;
	if (!ranked(ot) || !ranked(it) || ot->rank == 0 || it->rank == 0)
		return false;

	dimnums d;
	sl_sym attr = sli_sym(m, syn->attr);
	const sl_attr *old = sli_op_prop(op, attr);
	if (!dimnums_read(old, syn, &d))
		return false;
	bool ok = false;
	int64_t p, c;
	if (d.lists[DN_BATCH].n || d.ivd < 0 || d.ivd >= (int64_t)it->rank ||
	    it->dims[d.ivd] <= 1 || it->dims[0] != ot->dims[0] ||
	    (p = find_i64(&d.lists[DN_MAP], 0)) < 0 ||
	    !iota_origin(m, indices, d.ivd, p) ||
	    (c = find_i64(&d.lists[DN_COLLAPSED], 0)) < 0)
		goto done;

	op->operands[iidx] = drop_component(m, op, indices, d.ivd, p);
	erase_at(&d.lists[DN_MAP], p);
	erase_at(&d.lists[DN_COLLAPSED], c);
	SL_VEC_PUSH(d.lists[DN_BATCH], 0);
	d.lists[DN_IDX_BATCH].n = 0;
	SL_VEC_PUSH(d.lists[DN_IDX_BATCH], 0);
	sli_op_set_prop(m, op, attr, dimnums_attr(m, syn, &d, old->loc));
	default_false(m, op, "indices_are_sorted");
	if (!gather)
		default_false(m, op, "unique_indices");
	ok = true;
done:
	dimnums_fini(&d);
	return ok;
}

/* {====== dead ops ========================================================= */

/* Side-effect-free ops MLIR's greedy driver erases when unused. */
static bool
is_pure(const sl_op *op)
{
	switch (op->kind) {
	case SL_OP_UNKNOWN:
	case SL_OP_RNG:
	case SL_OP_RNG_BIT_GENERATOR:
	case SL_OP_AFTER_ALL:
		return false;
	case SL_OP_GATHER:
	case SL_OP_SDY_CONSTANT:
		return true;
	default:
		break;
	}
	switch (sli_op_info[op->kind].format) {
	case SL_FMT_SAME:
	case SL_FMT_FUNCTIONAL:
	case SL_FMT_CONSTANT:
	case SL_FMT_IOTA:
	case SL_FMT_TUPLE:
	case SL_FMT_COMPLEX:
	case SL_FMT_SELECT:
	case SL_FMT_CONVOLUTION:
		return true;
	default:
		return false;
	}
}

/*
 * Erases the unused pure ops under func.  Users come before their
 * operands' producers in reverse post-order, so one sweep that updates
 * the use counts (value->id) erases whole dead chains.
 */
static void
erase_dead(sl_op *func)
{
	sli_opvec ops = {0};
	sli_compute_use_counts(func);
	sli_collect_postorder(func, &ops);
	for (size_t i = ops.n; i-- > 0;) {
		sl_op *op = ops.v[i];
		if (!op->nresults || !is_pure(op))
			continue;
		bool used = false;
		for (uint32_t r = 0; r < op->nresults && !used; r++)
			used = op->results[r].id != 0;
		if (used)
			continue;
		for (uint32_t k = 0; k < op->noperands; k++)
			op->operands[k]->id--;
		sli_op_erase(op);
	}
	SL_VEC_FREE(ops);
}

/* }======================================================================= */

int
sli_pass_explicit_gather_scatter_batching(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sl_block *body = sli_module_body(m);
	for (sl_op *f = body ? body->first : NULL; f; f = f->next) {
		if (f->kind != SL_OP_FUNC)
			continue;
		sli_opvec ops = {0};
		sli_collect_preorder(f, &ops);
		for (size_t i = 0; i < ops.n; i++)
			if (ops.v[i]->kind == SL_OP_GATHER || ops.v[i]->kind == SL_OP_SCATTER)
				rewrite(m, ops.v[i]);
		SL_VEC_FREE(ops);
		erase_dead(f);
	}
	return 0;
}
