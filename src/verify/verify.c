/*
 * verify.c - checks every invariant of the sdy dialect (spec/dialect-and-
 * verifier.md section 4, spec/sharding-rules.md section 3) and the MLIR
 * structural rules the tests rely on, in MLIR's order (4.13): ops are
 * visited in pre-order; at each op its discardable sdy.* attributes, then
 * its traits and own verifier run; isolated-from-above ops (functions,
 * manual and named computations) are verified after their non-isolated
 * siblings; region invariants (isolation, symbol tables) run when an op is
 * left; symbol-use verification runs last, when the module is left.  The
 * first failure stops verification, except that sibling isolated ops are
 * all verified, as MLIR verifies them in parallel.
 */
#include "verify/verify.h"

#include <stdlib.h>
#include <string.h>

#include "formats/mlir_printer.h"
#include "ir/access.h"
#include "ir/axis.h"

typedef struct verifier {
	sl_module *m;
	sl_context *ctx;
	sl_op *op;		/* the op whose errors are being reported */
	sli_buf msg;
	sli_buf note;
} verifier;

/* Every axis ref of one sharding (or one collective) seen so far. */
typedef struct axis_seen {
	sli_axis_vec refs;
	sli_axis_vec subs;
} axis_seen;

static int verify_op(verifier *v, sl_op *op);

/* {====================================================================
 * Messages
 * ===================================================================== */

static const char *
sym(const verifier *v, sl_sym s)
{
	return sl_sym_str(v->ctx, s);
}

/* Starts an op error: "'<op name>' op <pfx>". */
static sli_buf *
op_msg(verifier *v, const char *pfx)
{
	v->msg.n = 0;
	sli_buf_printf(&v->msg, "'%s' op %s", sym(v, v->op->name), pfx ? pfx : "");
	return &v->msg;
}

/* Starts an error without the op prefix. */
static sli_buf *
plain_msg(verifier *v)
{
	v->msg.n = 0;
	return &v->msg;
}

static int
emit(verifier *v)
{
	sli_error(v->ctx, v->op->loc, "%s", sli_buf_cstr(&v->msg));
	return -1;
}

static int
op_error(verifier *v, const char *pfx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
op_error(verifier *v, const char *pfx, const char *fmt, ...)
{
	va_list ap;

	op_msg(v, pfx);
	va_start(ap, fmt);
	sli_buf_vprintf(&v->msg, fmt, ap);
	va_end(ap);
	return emit(v);
}

static void
emit_note(verifier *v, sl_loc loc)
{
	sli_diag(v->ctx, SL_DIAG_NOTE, loc, "%s", sli_buf_cstr(&v->note));
}

static void
put_type(verifier *v, sli_buf *b, const sl_type *t)
{
	sli_buf_printf(b, "'%s'", t ? sym(v, t->text) : "<<NULL TYPE>>");
}

static void
put_axis(verifier *v, sli_buf *b, const sl_axis_ref *r)
{
	sli_print_axis_ref(b, v->ctx, r);
}

/* An axis as the unreduced-transition messages name it: 'x' or 'x:(1)2'. */
static void
put_axis_quoted(verifier *v, sli_buf *b, const sl_axis_ref *r)
{
	sli_buf_printf(b, "'%s", sym(v, r->name));
	if (r->sub)
		sli_buf_printf(b, ":(%lld)%lld", (long long)r->pre, (long long)r->size);
	sli_buf_putc(b, '\'');
}

/* [ "a", "b":(1)2 ] as the collective messages print expected axes. */
static void
put_axis_array(verifier *v, sli_buf *b, const sl_axis_ref *r, size_t n)
{
	sli_buf_putc(b, '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			sli_buf_puts(b, ", ");
		put_axis(v, b, &r[i]);
	}
	sli_buf_putc(b, ']');
}

static void
put_mesh(verifier *v, sli_buf *b, const sl_mesh *mesh)
{
	sli_buf_puts(b, "#sdy.mesh");
	sli_print_mesh_body(b, v->ctx, mesh);
}

static const char *
reduction_name(sl_reduction r)
{
	return r == SL_RED_MAX ? "max" : r == SL_RED_MIN ? "min" : "sum";
}

/* }==================================================================== */

/* {====================================================================
 * IR helpers
 * ===================================================================== */

static bool
has_trait(const sl_op *op, unsigned t)
{
	return op->kind < SL_OP__COUNT && (sli_op_info[op->kind].traits & t);
}

static bool
is_isolated(const sl_op *op)
{
	return op->nregions > 0 && has_trait(op, T_ISO);
}

static bool
is_collective(const sl_op *op)
{
	switch (op->kind) {
	case SL_OP_SDY_ALL_GATHER:
	case SL_OP_SDY_ALL_SLICE:
	case SL_OP_SDY_ALL_TO_ALL:
	case SL_OP_SDY_COLLECTIVE_PERMUTE:
	case SL_OP_SDY_ALL_REDUCE:
	case SL_OP_SDY_REDUCE_SCATTER:
	case SL_OP_SDY_SHARDED_TO_UNREDUCED:
	case SL_OP_SDY_REPLICATED_TO_UNREDUCED:
		return true;
	default:
		return false;
	}
}

/* The op owning a block argument, or NULL. */
static sl_op *
arg_owner(const sl_value *val)
{
	if (val->def || !val->block || !val->block->parent)
		return NULL;
	return val->block->parent->parent;
}

/* The region a value is defined in. */
static sl_region *
value_region(const sl_value *val)
{
	if (val->def)
		return val->def->parent ? val->def->parent->parent : NULL;
	return val->block ? val->block->parent : NULL;
}

/* Whether region r is `anc` or nested inside it. */
static bool
region_within(const sl_region *r, const sl_region *anc)
{
	while (r) {
		if (r == anc)
			return true;
		if (!r->parent || !r->parent->parent)
			return false;
		r = r->parent->parent->parent;
	}
	return false;
}

/* The terminator of the first block of op's first region, or NULL. */
static sl_op *
body_terminator(const sl_op *op)
{
	if (op->nregions == 0 || !op->regions[0].first)
		return NULL;
	return op->regions[0].first->last;
}

static sl_block *
body_block(const sl_op *op)
{
	return op->nregions > 0 ? op->regions[0].first : NULL;
}

/* An attribute of a given kind: by name first, else the first of that
 * kind among the op's inherent attributes. */
static sl_attr *
find_kind(const sl_op *op, sl_sym name, sl_attr_kind kind)
{
	sl_attr *a = name ? sli_op_get(op, name) : NULL;

	if (a && a->kind == kind)
		return a;
	for (uint32_t i = 0; i < op->nprops; i++)
		if (op->props[i].attr && op->props[i].attr->kind == kind)
			return op->props[i].attr;
	return NULL;
}

/* The manual axes of a manual computation as a list of names. */
static sl_axis_list
manual_axes(const sl_op *op)
{
	sl_attr *a = sli_op_get(op, SLS_manual_axes);
	sl_axis_list none = {NULL, 0};

	if (a && (a->kind == SL_ATTR_MANUAL_AXES || a->kind == SL_ATTR_AXIS_REF_LIST))
		return a->u.axes;
	return none;
}

static bool
list_has_name(const sl_axis_list *l, sl_sym name)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (l->v[i].name == name)
			return true;
	return false;
}

/* The outermost manual computation enclosing `at` (strictly) that makes
 * axis `name` manual, or NULL. */
static sl_op *
manual_owner(const sl_op *at, sl_sym name)
{
	sl_op *owner = NULL;

	for (sl_op *p = sli_op_parent(at); p; p = sli_op_parent(p)) {
		sl_axis_list l;

		if (p->kind != SL_OP_SDY_MANUAL_COMPUTATION)
			continue;
		l = manual_axes(p);
		if (list_has_name(&l, name))
			owner = p;
	}
	return owner;
}

/* The mesh a sharding refers to, looked up from op `from`; NULL if none. */
static const sl_mesh *
sharding_mesh(verifier *v, const sl_sharding *s, const sl_op *from)
{
	return sli_sharding_mesh_at(v->m, from, s);
}

/* Both shardings name the same mesh (same symbol, or equal inline meshes). */
static bool
same_mesh_ref(const sl_sharding *a, const sl_sharding *b)
{
	if (a->mesh || b->mesh)
		return a->mesh && b->mesh && sli_mesh_equal(a->mesh, b->mesh);
	return a->mesh_name == b->mesh_name;
}

static bool
fully_replicated(const sl_sharding *s)
{
	for (uint32_t i = 0; i < s->rank; i++)
		if (s->dims[i].axes.n)
			return false;
	return true;
}

/* The result types of a function from its function_type, or NULL. */
static const sl_type *
func_type(const sl_op *f)
{
	sl_attr *a = sli_op_get(f, SLS_function_type);

	if (!a || a->kind != SL_ATTR_TYPE || !a->u.type ||
	    a->u.type->kind != SL_TYPE_FUNC)
		return NULL;
	return a->u.type;
}

static void
seen_fini(axis_seen *s)
{
	SL_VEC_FREE(s->refs);
	SL_VEC_FREE(s->subs);
}

/* }==================================================================== */

/* {====================================================================
 * Meshes (2.1, 2.2) and axis lists
 * ===================================================================== */

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

int
sli_verify_mesh_attr(const sl_context *ctx, const sl_mesh *mesh, sli_buf *why)
{
	int64_t total = 1, *sorted;
	bool iota = true;

	for (uint32_t i = 0; i < mesh->naxes; i++) {
		if (mesh->axes[i].size <= 0) {
			sli_buf_printf(why, "axis size must be at least 1, got: %lld",
			               (long long)mesh->axes[i].size);
			return -1;
		}
	}
	for (uint32_t i = 0; i < mesh->nids; i++) {
		if (mesh->ids && mesh->ids[i] < 0) {
			sli_buf_printf(why, "device id must be non-negative, got: %lld",
			               (long long)mesh->ids[i]);
			return -1;
		}
	}
	if (mesh->naxes == 0) {
		if (mesh->nids > 1) {
			sli_buf_puts(why, "axes is empty and device_ids has more than one element");
			return -1;
		}
		return 0;
	}
	for (uint32_t i = 0; i < mesh->naxes; i++) {
		for (uint32_t j = 0; j < i; j++) {
			if (mesh->axes[j].name == mesh->axes[i].name) {
				sli_buf_printf(why, "duplicate axis name: \"%s\"",
				               sl_sym_str(ctx, mesh->axes[i].name));
				return -1;
			}
		}
	}
	if (!mesh->ids || mesh->nids == 0)
		return 0;
	for (uint32_t i = 0; i < mesh->naxes; i++)
		total *= mesh->axes[i].size;
	if (total != (int64_t)mesh->nids) {
		sli_buf_printf(why, "total product of axis sizes must match total number "
		               "of device ids, got: %lld != %u", (long long)total,
		               mesh->nids);
		return -1;
	}
	sorted = sli_xmalloc(mesh->nids * sizeof *sorted);
	memcpy(sorted, mesh->ids, mesh->nids * sizeof *sorted);
	qsort(sorted, mesh->nids, sizeof *sorted, cmp_i64);
	for (uint32_t i = 0; i < mesh->nids; i++)
		if (sorted[i] != (int64_t)i)
			iota = false;
	if (!iota) {
		sli_buf_puts(why, "sorted device ids must be iota(product(axes)), got: ");
		for (uint32_t i = 0; i < mesh->nids; i++)
			sli_buf_printf(why, "%s%lld", i ? ", " : "", (long long)sorted[i]);
	}
	free(sorted);
	return iota ? 0 : -1;
}

/*
 * One axis list inside a sharding or a collective: known names, no ref
 * seen before, no two consecutive mergeable sub-axes.  Sub-axes are kept
 * in seen->subs for the per-name checks.
 */
static int
check_axis_list(verifier *v, const char *pfx, const sl_axis_ref *l, size_t n,
                const sl_mesh *mesh, axis_seen *seen)
{
	const sl_axis_ref *prev = NULL;
	sli_buf *b;

	for (size_t i = 0; i < n; i++) {
		const sl_axis_ref *r = &l[i];

		if (sli_mesh_axis_index(mesh, r->name) < 0)
			return op_error(v, pfx, "unknown axis name: \"%s\"",
			                sym(v, r->name));
		for (size_t j = 0; j < seen->refs.n; j++) {
			if (sli_axis_equal(&seen->refs.v[j], r)) {
				b = op_msg(v, pfx);
				sli_buf_puts(b, "duplicate axis ref: ");
				put_axis(v, b, r);
				return emit(v);
			}
		}
		SL_VEC_PUSH(seen->refs, *r);
		if (r->sub) {
			SL_VEC_PUSH(seen->subs, *r);
			if (prev && sli_axis_can_merge(prev, r)) {
				b = op_msg(v, pfx);
				sli_buf_puts(b, "two consecutive sub-axes can be merged: ");
				put_axis(v, b, prev);
				sli_buf_puts(b, ", ");
				put_axis(v, b, r);
				return emit(v);
			}
		}
		prev = r;
	}
	return 0;
}

/* All names of the list are axes of the mesh. */
static bool
names_known(const sl_axis_ref *l, size_t n, const sl_mesh *mesh)
{
	for (size_t i = 0; i < n; i++)
		if (sli_mesh_axis_index(mesh, l[i].name) < 0)
			return false;
	return true;
}

/* A list that must be sorted in mesh order, then checked as above. */
static int
check_sorted_axis_list(verifier *v, const char *pfx, const char *what,
                       const sl_axis_ref *l, size_t n, const sl_mesh *mesh,
                       axis_seen *seen)
{
	if (names_known(l, n, mesh) &&
	    !sli_axis_is_mesh_sorted(v->ctx, mesh, l, n))
		return op_error(v, pfx, "%s axes are not ordered w.r.t. mesh", what);
	return check_axis_list(v, pfx, l, n, mesh, seen);
}

/* The sub-axes of each axis name (4.2 #10), names in mesh order. */
static int
check_sub_axes(verifier *v, const char *pfx, const sl_mesh *mesh,
               axis_seen *seen)
{
	sli_axis_vec subs = {0};
	int rc = 0;

	for (uint32_t a = 0; a < mesh->naxes && rc == 0; a++) {
		sl_sym name = mesh->axes[a].name;
		int64_t size = mesh->axes[a].size;
		sl_axis_ref full = sli_axis_full(name);
		sli_buf *b;

		subs.n = 0;
		for (size_t i = 0; i < seen->subs.n; i++)
			if (seen->subs.v[i].name == name)
				SL_VEC_PUSH(subs, seen->subs.v[i]);
		if (subs.n == 0)
			continue;
		for (size_t i = 0; i < seen->refs.n; i++) {
			if (sli_axis_equal(&seen->refs.v[i], &full)) {
				rc = op_error(v, pfx, "both sub-axis and full-axis are used "
				              "for axis name: \"%s\"", sym(v, name));
				break;
			}
		}
		if (rc)
			break;
		sli_axis_mesh_sort(v->ctx, mesh, subs.v, subs.n);
		for (size_t i = 0; i < subs.n; i++) {
			const sl_axis_ref *r = &subs.v[i];
			int64_t next = r->pre * r->size;

			b = op_msg(v, pfx);
			if (r->pre < 1)
				sli_buf_puts(b, "sub-axis pre-size must be at least 1: ");
			else if (r->size <= 1)
				sli_buf_puts(b, "sub-axis sizes must be greater than 1: ");
			else if (size % next != 0)
				sli_buf_printf(b, "sub-axis next pre-size %lld doesn't divide "
				               "the size of the full axis %lld: ",
				               (long long)next, (long long)size);
			else if (r->size == size)
				sli_buf_puts(b, "sub-axis size is equal to the full axis size: ");
			else if (i > 0 && subs.v[i - 1].pre * subs.v[i - 1].size > r->pre) {
				sli_buf_puts(b, "overlapping sub-axes: ");
				put_axis(v, b, &subs.v[i - 1]);
				sli_buf_puts(b, ", ");
			} else {
				continue;
			}
			put_axis(v, b, r);
			rc = emit(v);
			break;
		}
	}
	SL_VEC_FREE(subs);
	return rc;
}

/* }==================================================================== */

/* {====================================================================
 * Tensor shardings (4.1, 4.2)
 * ===================================================================== */

/* 4.2 #11: no axis bound by an enclosing manual computation. */
static int
check_bound_axes(verifier *v, const char *pfx, const sl_sharding *s,
                 const sl_op *at)
{
	const sl_axis_list *lists[2] = {&s->replicated, &s->unreduced};

	for (uint32_t d = 0; d <= s->rank + 1; d++) {
		const sl_axis_list *l = d < s->rank ? &s->dims[d].axes : lists[d - s->rank];

		for (uint32_t i = 0; i < l->n; i++) {
			sl_op *owner = manual_owner(at, l->v[i].name);

			if (!owner)
				continue;
			op_error(v, pfx, "operates on axis \"%s\" which is already bound "
			         "by a parent sdy.manual_computation op",
			         sym(v, l->v[i].name));
			v->note.n = 0;
			sli_buf_puts(&v->note, "parent bounding this axis as manual");
			emit_note(v, owner->loc);
			return -1;
		}
	}
	return 0;
}

/*
 * A tensor sharding against a type (NULL: no type), errors prefixed by
 * pfx; `at` is the op whose module holds the mesh and whose enclosing
 * manual computations bind axes.
 */
static int
verify_sharding(verifier *v, const char *pfx, const sl_sharding *s,
                const sl_type *type, const sl_op *at)
{
	const sl_mesh *mesh = sharding_mesh(v, s, at);
	axis_seen seen = {{0}, {0}};
	sli_buf *b;
	int rc = -1;

	if (!mesh)
		return op_error(v, pfx, "unknown mesh: @%s", sym(v, s->mesh_name));
	if (sli_mesh_is_maximal(mesh) || (!type && fully_replicated(s))) {
		if (s->rank || s->replicated.n || s->unreduced.n)
			return op_error(v, pfx, "a maximal sharding can only have a "
			                "sharding with rank 0 and no replicated or "
			                "unreduced axes.");
		return 0;
	}
	if (type && type->kind == SL_TYPE_TUPLE) {
		if (type->rank != 1) {
			b = op_msg(v, pfx);
			sli_buf_puts(b, "ops can only have a sharding for a tuple of size 1: ");
			put_type(v, b, type);
			return emit(v);
		}
		type = type->types[0];
	}
	if (!type || type->kind != SL_TYPE_TENSOR) {
		if (s->rank || s->replicated.n || s->unreduced.n) {
			b = op_msg(v, pfx);
			sli_buf_puts(b, "non-shaped tensors can only have a sharding with "
			             "rank 0 and no replicated or unreduced axes. type: ");
			put_type(v, b, type);
			sli_buf_puts(b, ", sharding: ");
			sli_print_sharding(b, v->ctx, s, true);
			return emit(v);
		}
		return 0;
	}
	if (type->unranked) {
		b = op_msg(v, pfx);
		sli_buf_puts(b, "only ranked tensors can have a sharding. type: ");
		put_type(v, b, type);
		return emit(v);
	}
	if (s->rank != type->rank)
		return op_error(v, pfx, "sharding doesn't match tensor rank: %u != %u",
		                s->rank, type->rank);
	for (uint32_t d = 0; d < s->rank; d++) {
		const sl_dim_sharding *ds = &s->dims[d];

		if (ds->priority != SL_NO_PRIORITY && ds->priority < 0) {
			op_error(v, pfx, "dim %u has a negative priority", d);
			goto out;
		}
		if (ds->priority != SL_NO_PRIORITY && !ds->open && ds->axes.n == 0) {
			op_error(v, pfx, "dim %u is empty and closed but has a priority", d);
			goto out;
		}
		if (check_axis_list(v, pfx, ds->axes.v, ds->axes.n, mesh, &seen))
			goto out;
	}
	if (check_sorted_axis_list(v, pfx, "replicated", s->replicated.v,
	                           s->replicated.n, mesh, &seen) ||
	    check_sorted_axis_list(v, pfx, "unreduced", s->unreduced.v,
	                           s->unreduced.n, mesh, &seen) ||
	    check_sub_axes(v, pfx, mesh, &seen) ||
	    check_bound_axes(v, pfx, s, at))
		goto out;
	rc = 0;
out:
	seen_fini(&seen);
	return rc;
}

/*
 * A list of shardings for `ntypes` values (4.1): `kind` is "result ",
 * "operand ", "in_shardings ", ...; per-value prefixes are "<kind>- " for
 * one value and "<kind><i> - " otherwise.
 */
static int
verify_sharding_list(verifier *v, const char *kind, sl_sharding *const *sh,
                     uint32_t n, sl_type *const *types, uint32_t ntypes,
                     const sl_op *at)
{
	sli_buf pfx;
	int rc = 0;

	if (ntypes == 0 && n == 1) {
		const sl_mesh *mesh = sharding_mesh(v, sh[0], at);

		if ((mesh && sli_mesh_is_maximal(mesh)) || fully_replicated(sh[0])) {
			sli_buf_init(&pfx);
			sli_buf_printf(&pfx, "%s0 - ", kind);
			rc = verify_sharding(v, sli_buf_cstr(&pfx), sh[0], NULL, at);
			sli_buf_fini(&pfx);
			return rc;
		}
	}
	if (n != ntypes)
		return op_error(v, kind, "shardings don't match number of values: "
		                "%u shardings vs %u values", n, ntypes);
	sli_buf_init(&pfx);
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		pfx.n = 0;
		if (ntypes == 1)
			sli_buf_printf(&pfx, "%s- ", kind);
		else
			sli_buf_printf(&pfx, "%s%u - ", kind, i);
		rc = verify_sharding(v, sli_buf_cstr(&pfx), sh[i], types[i], at);
	}
	sli_buf_fini(&pfx);
	return rc;
}

/* Types of the op results (malloc'd; free it). */
static sl_type **
result_types(const sl_op *op)
{
	sl_type **t = sli_xcalloc(op->nresults + 1, sizeof *t);

	for (uint32_t i = 0; i < op->nresults; i++)
		t[i] = op->results[i].type;
	return t;
}

static sl_type **
operand_types(const sl_op *op)
{
	sl_type **t = sli_xcalloc(op->noperands + 1, sizeof *t);

	for (uint32_t i = 0; i < op->noperands; i++)
		t[i] = op->operands[i]->type;
	return t;
}

static sl_type **
arg_types(const sl_block *b, uint32_t *n)
{
	sl_type **t;

	*n = b ? b->nargs : 0;
	t = sli_xcalloc(*n + 1, sizeof *t);
	for (uint32_t i = 0; i < *n; i++)
		t[i] = b->args[i].type;
	return t;
}

/* Operand types of a terminator (NULL terminator: none). */
static sl_type **
term_types(const sl_op *term, uint32_t *n)
{
	*n = term ? term->noperands : 0;
	return term ? operand_types(term) : sli_xcalloc(1, sizeof(sl_type *));
}

static int
verify_spv_attr(verifier *v, const char *kind, const sl_attr *a,
                sl_type *const *types, uint32_t ntypes, const sl_op *at)
{
	return verify_sharding_list(v, kind, a->u.spv.v, a->u.spv.n, types,
	                            ntypes, at);
}

/* }==================================================================== */

/* {====================================================================
 * Unreduced-axes transitions (4.10)
 * ===================================================================== */

enum { NO_OP = -1 };

/*
 * From sharding src to sharding tgt: introducing unreduced axes is allowed
 * only with reduction `intro` (NO_OP: not at all), removing them only
 * with `removal`.
 */
static int
check_unreduced(verifier *v, const sl_sharding *src, const sl_op *src_at,
                const sl_sharding *tgt, const sl_op *tgt_at, int intro,
                int removal)
{
	const sl_mesh *sm = sharding_mesh(v, src, src_at);
	const sl_mesh *tm = sharding_mesh(v, tgt, tgt_at);
	sli_axis_vec added = {0}, dropped = {0};
	sli_buf *b;
	int rc = 0;

	if (!sm || !tm || !sli_mesh_equal(sm, tm))
		return 0;
	sli_axis_set_diff(v->ctx, tm, tgt->unreduced.v, tgt->unreduced.n,
	                  src->unreduced.v, src->unreduced.n, &added);
	sli_axis_set_diff(v->ctx, tm, src->unreduced.v, src->unreduced.n,
	                  tgt->unreduced.v, tgt->unreduced.n, &dropped);
	if (added.n && intro == NO_OP) {
		b = op_msg(v, NULL);
		sli_buf_puts(b, "cannot add new unreduced axis ");
		put_axis_quoted(v, b, &added.v[0]);
		sli_buf_puts(b, ".");
		rc = emit(v);
	} else if (added.n && (int)tgt->reduction != intro) {
		rc = op_error(v, NULL, "cannot introduce '%s' unreduced axes. "
		              "Expected '%s'.", reduction_name(tgt->reduction),
		              reduction_name((sl_reduction)intro));
	} else if (dropped.n && removal == NO_OP) {
		b = op_msg(v, NULL);
		sli_buf_puts(b, "dropped unreduced axis ");
		put_axis_quoted(v, b, &dropped.v[0]);
		sli_buf_puts(b, " without a blessed operation (e.g., sdy.reshard). "
		             "This is an invalid transition from unreduced to reduced.");
		rc = emit(v);
	} else if (dropped.n && (int)src->reduction != removal) {
		rc = op_error(v, NULL, "cannot reduce '%s' unreduced axes. "
		              "Expected '%s'.", reduction_name(src->reduction),
		              reduction_name((sl_reduction)removal));
	} else if (src->reduction != tgt->reduction) {
		for (uint32_t i = 0; i < tgt->unreduced.n && rc == 0; i++)
			for (uint32_t j = 0; j < src->unreduced.n && rc == 0; j++)
				if (sli_axis_overlaps(&tgt->unreduced.v[i], &src->unreduced.v[j]))
					rc = op_error(v, NULL, "cannot change the reduction "
					              "operator of kept unreduced axes from %s "
					              "to %s.", reduction_name(src->reduction),
					              reduction_name(tgt->reduction));
	}
	SL_VEC_FREE(added);
	SL_VEC_FREE(dropped);
	return rc;
}

/* }==================================================================== */

/* {====================================================================
 * Sharding rules (sharding-rules.md 3)
 * ===================================================================== */

void
sli_verify_factor_symbol(sli_buf *b, int64_t k)
{
	if (k >= 0 && k <= 17)
		sli_buf_putc(b, (char)('i' + k));
	else
		sli_buf_printf(b, "z_%lld", (long long)(k - 17));
}

static int
check_rule_mappings(verifier *v, sl_type *const *types, uint32_t ntypes,
                    const sl_tensor_mapping *maps, uint32_t nmaps,
                    const sl_rule *rule, bool *used, const char *kind)
{
	bool *mine = sli_xcalloc(rule->nfactors + 1, sizeof *mine);
	sli_buf pfx;
	int rc = 0;

	if (ntypes != nmaps) {
		free(mine);
		return op_error(v, NULL, "number of %ss and mappings must match: "
		                "%u != %u", kind, ntypes, nmaps);
	}
	if (nmaps == 0) {
		free(mine);
		return op_error(v, NULL, "number of %ss mappings cannot be 0. Op "
		                "sharding rules can only be defined on operations with "
		                "at least one operand and result.", kind);
	}
	sli_buf_init(&pfx);
	for (uint32_t i = 0; i < nmaps && rc == 0; i++) {
		const sl_type *t = types[i];
		const sl_tensor_mapping *tm = &maps[i];

		memset(mine, 0, (rule->nfactors + 1) * sizeof *mine);
		pfx.n = 0;
		if (nmaps == 1)
			sli_buf_printf(&pfx, "%s - ", kind);
		else
			sli_buf_printf(&pfx, "%s %u - ", kind, i);
		if (!t || !sli_type_is_static(t)) {
			sli_buf *b = op_msg(v, sli_buf_cstr(&pfx));

			sli_buf_puts(b, "expected a ranked tensor with a static shape. type: ");
			put_type(v, b, t);
			rc = emit(v);
			break;
		}
		if (tm->rank != t->rank) {
			rc = op_error(v, sli_buf_cstr(&pfx), "mapping rank must match: "
			              "%u != %u", tm->rank, t->rank);
			break;
		}
		for (uint32_t d = 0; d < tm->rank && rc == 0; d++) {
			const sl_dim_mapping *dm = &tm->dims[d];

			if (dm->n == 0) {
				rc = op_error(v, sli_buf_cstr(&pfx), "dim mapping must have "
				              "at least one factor");
				break;
			}
			for (uint32_t f = 0; f < dm->n; f++) {
				uint32_t k = dm->factors[f];

				if (k >= rule->nfactors) {
					rc = op_error(v, sli_buf_cstr(&pfx), "expecting factor "
					              "indices to be within 0<=...<num_factors; "
					              "received: %u, num_factors: %u", k,
					              rule->nfactors);
					break;
				}
				if (mine[k]) {
					rc = op_error(v, sli_buf_cstr(&pfx), "cannot reuse "
					              "factors for the same tensor value");
					break;
				}
				if (rule->factor_sizes[k] == 1 && dm->n > 1) {
					rc = op_error(v, sli_buf_cstr(&pfx), "dim mapping can't "
					              "have a factor of size 1 if there are "
					              "multiple factors");
					break;
				}
				mine[k] = true;
				used[k] = true;
			}
		}
	}
	sli_buf_fini(&pfx);
	free(mine);
	return rc;
}

static int
check_factor_set(verifier *v, const sl_factor_list *l, uint32_t nfactors)
{
	if (l->n == 0)
		return 0;
	for (uint32_t i = 1; i < l->n; i++)
		if (l->v[i] < l->v[i - 1])
			return op_error(v, NULL, "indices of special factors must be sorted");
	for (uint32_t i = 1; i < l->n; i++)
		if (l->v[i] == l->v[i - 1])
			return op_error(v, NULL, "indices of special factors must be unique");
	if (l->v[0] < 0)
		return op_error(v, NULL, "index must be non-negative");
	if (l->v[l->n - 1] >= (int64_t)nfactors)
		return op_error(v, NULL, "index must be less than %u, got: %lld",
		                nfactors, (long long)l->v[l->n - 1]);
	return 0;
}

static bool
factor_in(const sl_factor_list *l, int64_t k)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (l->v[i] == k)
			return true;
	return false;
}

static int
verify_rule(verifier *v, const sl_op *op, const sl_rule *rule)
{
	bool *used = sli_xcalloc(rule->nfactors + 1, sizeof *used);
	sl_type **ot = operand_types(op), **rt = result_types(op);
	int rc;

	rc = check_rule_mappings(v, ot, op->noperands, rule->operands,
	                         rule->noperands, rule, used, "operand");
	if (rc == 0)
		rc = check_rule_mappings(v, rt, op->nresults, rule->results,
		                         rule->nresults, rule, used, "result");
	for (uint32_t k = 0; rc == 0 && k < rule->nfactors; k++) {
		if (!used[k]) {
			sli_buf *b = op_msg(v, NULL);

			sli_buf_puts(b, "has factor ");
			sli_verify_factor_symbol(b, k);
			sli_buf_printf(b, "=%lld that isn't used in operand and result "
			               "mappings", (long long)rule->factor_sizes[k]);
			rc = emit(v);
		}
	}
	if (rc == 0)
		rc = check_factor_set(v, &rule->reduction, rule->nfactors);
	if (rc == 0)
		rc = check_factor_set(v, &rule->need_replication, rule->nfactors);
	if (rc == 0)
		rc = check_factor_set(v, &rule->permutation, rule->nfactors);
	for (uint32_t i = 0; rc == 0 && i < rule->reduction.n; i++)
		if (factor_in(&rule->need_replication, rule->reduction.v[i]) ||
		    factor_in(&rule->permutation, rule->reduction.v[i]))
			rc = -2;
	for (uint32_t i = 0; rc == 0 && i < rule->need_replication.n; i++)
		if (factor_in(&rule->permutation, rule->need_replication.v[i]))
			rc = -2;
	if (rc == -2)
		rc = op_error(v, NULL, "a factor can only be in one of the reduction, "
		              "need replication, or permutation factor sets");
	if (rc == 0)
		rc = check_factor_set(v, &rule->blocked, rule->nfactors);
	for (uint32_t r = 0; rc == 0 && r < rule->nresults; r++)
		for (uint32_t d = 0; rc == 0 && d < rule->results[r].rank; d++)
			for (uint32_t f = 0; rc == 0 && f < rule->results[r].dims[d].n; f++)
				if (factor_in(&rule->reduction, rule->results[r].dims[d].factors[f]))
					rc = op_error(v, NULL, "reduction factor cannot be in "
					              "result mappings");
	free(used);
	free(ot);
	free(rt);
	return rc;
}

/* }==================================================================== */

/* {====================================================================
 * Propagation edges (2.9)
 * ===================================================================== */

static bool
edge_ref_equal(const sl_edge_ref *a, const sl_edge_ref *b)
{
	return a->result == b->result && a->index == b->index;
}

/* The attribute's own invariants (checked by MLIR when it is built). */
static int
check_edges_attr(verifier *v, const sl_attr *a)
{
	for (uint32_t s = 0; s < a->u.edges.n; s++) {
		const sl_edge_step *st = &a->u.edges.v[s];

		if (st->step < 0)
			return op_error(v, NULL, "propagation edges have negative step "
			                "index: %lld", (long long)st->step);
		for (uint32_t t = 0; t < s; t++)
			if (a->u.edges.v[t].step == st->step)
				return op_error(v, NULL, "propagation edges have duplicate "
				                "step index: %lld", (long long)st->step);
		for (uint32_t e = 0; e < st->n; e++) {
			const sl_edge_entry *en = &st->entries[e];

			for (uint32_t i = 0; i < en->ntargets; i++) {
				if (edge_ref_equal(&en->targets[i], &en->source))
					return op_error(v, NULL, "propagation edges have a source "
					                "that is the same as a target");
				for (uint32_t j = 0; j < i; j++) {
					if (!edge_ref_equal(&en->targets[i], &en->targets[j]))
						continue;
					return op_error(v, NULL, "propagation edges have duplicate "
					                "targets for step index: %lld and axis: %s",
					                (long long)st->step, sym(v, en->axis.name));
				}
			}
		}
	}
	return 0;
}

static const sl_sharding *
edge_ref_sharding(verifier *v, const sl_op *op, const sl_edge_ref *r)
{
	if (r->index < 0)
		return NULL;
	if (r->result)
		return r->index < op->nresults ? sli_value_sharding(&op->results[r->index])
		                               : NULL;
	return r->index < op->noperands ? sli_value_sharding(op->operands[r->index])
	                                : NULL;
}

static int
check_edge_ref_range(verifier *v, const sl_op *op, const sl_edge_ref *r)
{
	uint32_t n = r->result ? op->nresults : op->noperands;

	if (r->index < 0 || r->index >= n)
		return op_error(v, NULL, "expected a value ref to have %s %s index in "
		                "range [0, %u), got: %lld", r->result ? "a" : "an",
		                r->result ? "result" : "operand", n,
		                (long long)r->index);
	return 0;
}

static int
verify_edges(verifier *v, const sl_op *op, const sl_attr *a)
{
	const sl_mesh *mesh = NULL;
	bool any = false, common = true;

	for (uint32_t s = 0; s < a->u.edges.n; s++) {
		const sl_edge_step *st = &a->u.edges.v[s];

		for (uint32_t e = 0; e < st->n; e++) {
			const sl_edge_entry *en = &st->entries[e];

			for (uint32_t i = 0; i <= en->ntargets; i++) {
				const sl_edge_ref *r = i == 0 ? &en->source : &en->targets[i - 1];
				const sl_sharding *sh = edge_ref_sharding(v, op, r);
				const sl_mesh *m;

				if (!sh)
					continue;
				any = true;
				m = sharding_mesh(v, sh, op);
				if (!mesh)
					mesh = m;
				else if (!m || !sli_mesh_equal(m, mesh))
					common = false;
			}
		}
	}
	if (!any)
		return op_error(v, NULL, "expected propagation edges attr to reference "
		                "a sharding");
	if (!mesh || !common)
		return op_error(v, NULL, "expected a common mesh for propagation edges "
		                "attr");
	for (uint32_t s = 0; s < a->u.edges.n; s++) {
		const sl_edge_step *st = &a->u.edges.v[s];

		for (uint32_t e = 0; e < st->n; e++)
			if (sli_mesh_axis_index(mesh, st->entries[e].axis.name) < 0)
				return op_error(v, NULL, "expected axis ref to be in one of "
				                "the meshes");
	}
	if (op->kind == SL_OP_SDY_FUNC_DATA_FLOW_EDGE)
		return 0;
	for (uint32_t s = 0; s < a->u.edges.n; s++) {
		const sl_edge_step *st = &a->u.edges.v[s];

		for (uint32_t e = 0; e < st->n; e++) {
			const sl_edge_entry *en = &st->entries[e];

			if (check_edge_ref_range(v, op, &en->source))
				return -1;
			for (uint32_t i = 0; i < en->ntargets; i++)
				if (check_edge_ref_range(v, op, &en->targets[i]))
					return -1;
		}
	}
	return 0;
}

/* }==================================================================== */

/* {====================================================================
 * Dialect attributes on ops and functions (4.1, 4.11, 4.12)
 * ===================================================================== */

/* The sdy.* discardable attributes of an op, in dictionary order. */
static int
verify_op_attrs(verifier *v, sl_op *op)
{
	for (uint32_t i = 0; i < op->nattrs; i++) {
		sl_sym name = op->attrs[i].name;
		const sl_attr *a = op->attrs[i].attr;

		if (sli_is_sharding_attr_name(name)) {
			sl_type **t;
			int rc;

			if (!a || a->kind != SL_ATTR_SHARDING_PER_VALUE)
				return op_error(v, NULL, "should have a sharding attribute of "
				                "type TensorShardingPerValueAttr");
			t = result_types(op);
			rc = verify_spv_attr(v, "result ", a, t, op->nresults, op);
			free(t);
			if (rc)
				return -1;
		} else if (name == SLS_sdy_sharding_rule) {
			if (!a || a->kind != SL_ATTR_RULE)
				return op_error(v, NULL, "should have a sharding rule attribute "
				                "of type OpShardingRuleAttr for attr named "
				                "'sdy.sharding_rule'");
			if (verify_rule(v, op, &a->u.rule))
				return -1;
		} else if (name == SLS_sdy_propagation_edges) {
			if (!a || a->kind != SL_ATTR_PROP_EDGES)
				return op_error(v, NULL, "should have a propagation edges "
				                "attribute of type PropagationEdgesAttr for attr "
				                "named 'sdy.propagation_edges'");
			if (verify_edges(v, op, a))
				return -1;
		} else if (name == SLS_sdy_result_propagation_edges ||
		           name == SLS_sdy_block_arg_propagation_edges) {
			bool ok = a && a->kind == SL_ATTR_ARRAY;

			for (uint32_t j = 0; ok && j < a->u.arr.n; j++)
				ok = a->u.arr.v[j] && a->u.arr.v[j]->kind == SL_ATTR_PROP_EDGES;
			if (!ok)
				return op_error(v, NULL, "should have a propagation edges "
				                "attribute of type ArrayAttr<PropagationEdgesAttr> "
				                "for attr named 'sdy.result_propagation_edges' or "
				                "'sdy.block_arg_propagation_edges'");
		}
	}
	return 0;
}

/* The sharding of one func argument or result, a (prefix "arg N - "). */
static int
verify_func_value_attrs(verifier *v, const sl_op *f, const char *what,
                        uint32_t index, const sl_attr *a, const sl_type *type)
{
	sli_buf pfx;
	int rc;

	if (!a)
		return 0;
	sli_buf_init(&pfx);
	sli_buf_printf(&pfx, "%s %u - ", what, index);
	if (a->kind != SL_ATTR_SHARDING)
		rc = op_error(v, sli_buf_cstr(&pfx), "should have a sharding attribute "
		              "of type TensorShardingAttr");
	else
		rc = verify_sharding(v, sli_buf_cstr(&pfx), &a->u.sharding, type, f);
	sli_buf_fini(&pfx);
	return rc;
}

static int
verify_func(verifier *v, sl_op *f)
{
	const sl_type *ft = func_type(f);
	sl_block *entry = body_block(f);

	if (entry) {
		for (uint32_t i = 0; i < entry->nargs; i++) {
			const sl_value *a = &entry->args[i];

			if (ft && i < ft->rank && ft->types[i] != a->type) {
				sli_buf *b = op_msg(v, NULL);

				sli_buf_printf(b, "type of entry block argument #%u(", i);
				put_type(v, b, a->type);
				sli_buf_puts(b, ") must match the type of the corresponding "
				             "argument in function signature(");
				put_type(v, b, ft->types[i]);
				sli_buf_putc(b, ')');
				return emit(v);
			}
			if (verify_func_value_attrs(v, f, "arg", i, sli_arg_sharding_attr(a),
			                            a->type))
				return -1;
		}
	} else if (ft) {
		for (uint32_t i = 0; i < ft->rank; i++)
			if (verify_func_value_attrs(v, f, "arg", i,
			                            sli_func_arg_sharding_attr(f, i),
			                            ft->types[i]))
				return -1;
	}
	for (uint32_t i = 0; ft && i < ft->nres; i++)
		if (verify_func_value_attrs(v, f, "result", i,
		                            sli_func_res_sharding_attr(f, i),
		                            ft->types[ft->rank + i]))
			return -1;
	return 0;
}

/* }==================================================================== */

/* {====================================================================
 * Collectives (4.9)
 * ===================================================================== */

/* The operand sharding of a collective, or a fully replicated stand-in. */
typedef struct coll {
	const sl_sharding *out;
	const sl_mesh *mesh;		/* of out */
	const sl_sharding *in;		/* NULL: operand without sharding */
	sl_sharding repl;		/* stand-in for a missing operand sharding */
	const sl_sharding *operand;	/* in, or &repl */
} coll;

static void
coll_fini(coll *c)
{
	free(c->repl.dims);
}

static sl_reduction
reduction_of(const sl_op *op)
{
	sl_attr *a = sli_op_get(op, SLS_reduction_op);
	const char *p = NULL;
	size_t n = 0;

	if (!a)
		return SL_RED_SUM;
	switch (a->kind) {
	case SL_ATTR_INT:
		return a->u.i.v == 1 ? SL_RED_MAX : a->u.i.v == 2 ? SL_RED_MIN : SL_RED_SUM;
	case SL_ATTR_STRING:
		p = a->u.s.p;
		n = a->u.s.n;
		break;
	case SL_ATTR_OPAQUE:
		p = a->u.text.p;
		n = a->u.text.n;
		break;
	default:
		return SL_RED_SUM;
	}
	for (size_t i = 0; i + 3 <= n; i++) {
		if (!memcmp(p + i, "max", 3))
			return SL_RED_MAX;
		if (!memcmp(p + i, "min", 3))
			return SL_RED_MIN;
	}
	return SL_RED_SUM;
}

/* The common checks of every collective (interface verifier). */
static int
verify_collective_common(verifier *v, sl_op *op, coll *c)
{
	const sl_type *t = op->nresults ? op->results[0].type : NULL;
	const sl_mesh *in_mesh;
	bool may_miss = op->kind == SL_OP_SDY_ALL_SLICE ||
	                op->kind == SL_OP_SDY_ALL_REDUCE ||
	                op->kind == SL_OP_SDY_REDUCE_SCATTER;

	memset(c, 0, sizeof *c);
	if (op->noperands != 1 || op->nresults != 1)
		return op_error(v, NULL, "expected one operand and one result");
	c->out = sli_result_sharding(op, 0);
	if (!c->out)
		return op_error(v, NULL, "requires attribute 'out_sharding'");
	c->in = sli_value_sharding(op->operands[0]);
	if (!c->in && !may_miss)
		return op_error(v, NULL, "collective on operand without sharding");
	if (verify_sharding(v, NULL, c->out, t, op))
		return -1;
	c->mesh = sharding_mesh(v, c->out, op);
	if (c->in && op->kind != SL_OP_SDY_COLLECTIVE_PERMUTE) {
		in_mesh = sharding_mesh(v, c->in, op);
		if (in_mesh && !sli_mesh_equal(in_mesh, c->mesh)) {
			op_error(v, NULL, "result mesh does not match operand mesh");
			v->note.n = 0;
			sli_buf_puts(&v->note, "operand mesh: ");
			put_mesh(v, &v->note, in_mesh);
			emit_note(v, op->operands[0]->loc);
			return -1;
		}
	}
	if (c->in && c->in->rank != c->out->rank)
		return op_error(v, NULL, "result sharding has rank %u but operand "
		                "sharding has rank %u", c->out->rank, c->in->rank);
	c->repl = *c->out;
	c->repl.rank = 0;
	c->repl.dims = NULL;
	if (!c->in) {
		const sl_type *ot = op->operands[0]->type;
		uint32_t rank = ot && ot->kind == SL_TYPE_TENSOR ? ot->rank : 0;

		c->repl.rank = rank;
		c->repl.dims = sli_xcalloc(rank + 1, sizeof *c->repl.dims);
		for (uint32_t d = 0; d < rank; d++)
			c->repl.dims[d].priority = SL_NO_PRIORITY;
		c->repl.replicated.n = 0;
		c->repl.unreduced.n = 0;
		c->repl.reduction = SL_RED_SUM;
	}
	c->operand = c->in ? c->in : &c->repl;
	return 0;
}

/* Removes gathering axes from the end of dim axes (gather semantics). */
static int
gather_dim(verifier *v, const sl_axis_list *dim, const sl_axis_ref *axes,
           size_t n, uint32_t d, const sl_mesh *mesh, const char *what,
           sli_axis_vec *out)
{
	out->n = 0;
	for (uint32_t i = 0; i < dim->n; i++)
		SL_VEC_PUSH(*out, dim->v[i]);
	for (size_t i = n; i-- > 0;) {
		sl_axis_ref last, prefix;

		if (out->n == 0 || !sli_axis_suffix_of(&axes[i], &out->v[out->n - 1], mesh)) {
			sli_buf *b = op_msg(v, NULL);

			sli_buf_printf(b, "can't apply %s axis ", what);
			put_axis(v, b, &axes[i]);
			sli_buf_printf(b, " to operand sharding on dimension %u", d);
			return emit(v);
		}
		last = out->v[--out->n];
		if (sli_axis_prefix_without_overlap(&last, &axes[i], &prefix))
			SL_VEC_PUSH(*out, prefix);
	}
	return 0;
}

/* Appends slicing axes to dim axes, merging sub-axes (slice semantics). */
static void
slice_dim(const sl_axis_list *dim, const sl_axis_ref *axes, size_t n,
          const sl_mesh *mesh, sli_axis_vec *out)
{
	out->n = 0;
	for (uint32_t i = 0; i < dim->n; i++)
		SL_VEC_PUSH(*out, dim->v[i]);
	for (size_t i = 0; i < n; i++)
		sli_axis_vec_add_or_merge(out, &axes[i], mesh);
}

static int
expect_dim(verifier *v, const coll *c, uint32_t d, const sli_axis_vec *want)
{
	const sl_axis_list *got = &c->out->dims[d].axes;
	sli_buf *b;

	if (sli_axis_list_equal(want->v, want->n, got->v, got->n))
		return 0;
	b = op_msg(v, NULL);
	sli_buf_puts(b, "result sharding doesn't match expected sharding ");
	put_axis_array(v, b, want->v, want->n);
	sli_buf_printf(b, " on dimension %u", d);
	return emit(v);
}

/* all_gather, all_slice, reduce_scatter, sharded_to_unreduced. */
static int
verify_per_dim(verifier *v, const coll *c, const sl_attr *lists,
               bool gather, const char *what)
{
	axis_seen seen = {{0}, {0}};
	sli_axis_vec want = {0};
	int rc = 0;

	for (uint32_t i = 0; i < lists->u.lists.n && rc == 0; i++)
		rc = check_axis_list(v, NULL, lists->u.lists.v[i].v,
		                     lists->u.lists.v[i].n, c->mesh, &seen);
	if (rc == 0 && c->out->rank != lists->u.lists.n)
		rc = op_error(v, NULL, "result sharding has rank %u but collective "
		              "axes has rank %u", c->out->rank, lists->u.lists.n);
	for (uint32_t d = 0; rc == 0 && d < lists->u.lists.n && d < c->operand->rank; d++) {
		const sl_axis_list *l = &lists->u.lists.v[d];

		if (gather)
			rc = gather_dim(v, &c->operand->dims[d].axes, l->v, l->n, d,
			                c->mesh, what, &want);
		else
			slice_dim(&c->operand->dims[d].axes, l->v, l->n, c->mesh, &want);
		if (rc == 0)
			rc = expect_dim(v, c, d, &want);
	}
	seen_fini(&seen);
	SL_VEC_FREE(want);
	return rc;
}

/* The per-dimension axis lists of a collective (reported when missing). */
static const sl_attr *
lists_attr(verifier *v, sl_op *op, sl_sym name)
{
	const sl_attr *a = find_kind(op, name, SL_ATTR_AXIS_REF_LISTS);

	if (!a)
		op_error(v, NULL, "requires attribute '%s'", sym(v, name));
	return a;
}

static int
verify_all_to_all(verifier *v, sl_op *op, const coll *c)
{
	const sl_attr *a = find_kind(op, SLS_params, SL_ATTR_ALL_TO_ALL_PARAMS);
	const sl_type *t = op->results[0].type;
	int64_t rank = t && t->kind == SL_TYPE_TENSOR ? t->rank : 0;
	bool *seen_dims = sli_xcalloc(rank + 1, sizeof *seen_dims);
	axis_seen seen = {{0}, {0}};
	sli_axis_vec want = {0};
	int64_t prev = -1;
	int rc = 0;

	if (!a || a->u.a2a.n == 0)
		rc = op_error(v, NULL, "parameter list is empty");
	for (uint32_t i = 0; rc == 0 && i < a->u.a2a.n; i++) {
		const sl_a2a_param *p = &a->u.a2a.v[i];
		int64_t dims[2] = {p->src, p->tgt};

		rc = check_axis_list(v, NULL, p->axes.v, p->axes.n, c->mesh, &seen);
		for (int k = 0; rc == 0 && k < 2; k++)
			if (dims[k] < 0 || dims[k] >= rank)
				rc = op_error(v, NULL, "%s dimension %lld is out of range "
				              "[0, %lld)", k ? "target" : "source",
				              (long long)dims[k], (long long)rank);
		for (int k = 0; rc == 0 && k < 2; k++) {
			if (seen_dims[dims[k]])
				rc = op_error(v, NULL, "overlapping source/target dimensions "
				              "in all-to-all params: %lld", (long long)dims[k]);
			seen_dims[dims[k]] = true;
		}
		if (rc == 0 && prev >= p->src)
			rc = op_error(v, NULL, "source dimensions are not sorted in "
			              "ascending order: %lld appears after %lld",
			              (long long)p->src, (long long)prev);
		prev = p->src;
	}
	for (uint32_t i = 0; rc == 0 && i < a->u.a2a.n; i++) {
		const sl_a2a_param *p = &a->u.a2a.v[i];

		if (p->src >= c->operand->rank || p->tgt >= c->operand->rank ||
		    p->src >= c->out->rank || p->tgt >= c->out->rank)
			break;
		rc = gather_dim(v, &c->operand->dims[p->src].axes, p->axes.v,
		                p->axes.n, p->src, c->mesh, "all-to-all", &want);
		if (rc == 0)
			rc = expect_dim(v, c, p->src, &want);
		if (rc == 0) {
			slice_dim(&c->operand->dims[p->tgt].axes, p->axes.v, p->axes.n,
			          c->mesh, &want);
			rc = expect_dim(v, c, p->tgt, &want);
		}
	}
	for (uint32_t d = 0; rc == 0 && d < c->operand->rank && d < c->out->rank; d++) {
		if (d < rank && seen_dims[d])
			continue;
		slice_dim(&c->operand->dims[d].axes, NULL, 0, c->mesh, &want);
		rc = expect_dim(v, c, d, &want);
	}
	free(seen_dims);
	seen_fini(&seen);
	SL_VEC_FREE(want);
	return rc;
}

static int
verify_collective_permute(verifier *v, sl_op *op, const coll *c)
{
	const sl_mesh *in_mesh = sharding_mesh(v, c->operand, op);
	const char *bad = NULL;

	if (!in_mesh || !c->mesh)
		return 0;
	if (in_mesh->naxes != c->mesh->naxes) {
		bad = "result mesh has different axes than operand mesh";
	} else {
		for (uint32_t i = 0; i < in_mesh->naxes; i++)
			if (in_mesh->axes[i].name != c->mesh->axes[i].name ||
			    in_mesh->axes[i].size != c->mesh->axes[i].size)
				bad = "result mesh has different axes than operand mesh";
	}
	if (!bad && !same_mesh_ref(c->operand, c->out)) {
		bool same_ids = in_mesh->nids == c->mesh->nids &&
		                (!in_mesh->ids) == (!c->mesh->ids);

		for (uint32_t i = 0; same_ids && in_mesh->ids && i < in_mesh->nids; i++)
			same_ids = in_mesh->ids[i] == c->mesh->ids[i];
		if (same_ids)
			bad = "result mesh name is different but same device ids as operand";
	}
	if (bad) {
		op_error(v, NULL, "%s", bad);
		v->note.n = 0;
		sli_buf_puts(&v->note, "operand mesh: ");
		put_mesh(v, &v->note, in_mesh);
		emit_note(v, op->operands[0]->loc);
		return -1;
	}
	for (uint32_t d = 0; d < c->operand->rank && d < c->out->rank; d++) {
		const sl_axis_list *in = &c->operand->dims[d].axes;
		const sl_axis_list *out = &c->out->dims[d].axes;
		int64_t insz, outsz;

		if (sli_axis_list_equal(in->v, in->n, out->v, out->n))
			continue;
		insz = sli_axis_list_size(in->v, in->n, c->mesh);
		outsz = sli_axis_list_size(out->v, out->n, c->mesh);
		if (insz != outsz)
			return op_error(v, NULL, "sharded size of result doesn't match "
			                "operand on dimension %u: %lld != %lld", d,
			                (long long)outsz, (long long)insz);
	}
	return 0;
}

/* Any ref of l overlaps r. */
static bool
any_overlap(const sl_axis_ref *l, size_t n, const sl_axis_ref *r)
{
	for (size_t i = 0; i < n; i++)
		if (sli_axis_overlaps(&l[i], r))
			return true;
	return false;
}

/* r overlaps an axis of a dimension of s (or, with repl, a replicated one). */
static bool
overlaps_dims(const sl_sharding *s, const sl_axis_ref *r, bool repl)
{
	for (uint32_t d = 0; d < s->rank; d++)
		if (any_overlap(s->dims[d].axes.v, s->dims[d].axes.n, r))
			return true;
	return repl && any_overlap(s->replicated.v, s->replicated.n, r);
}

static int
verify_all_reduce(verifier *v, sl_op *op, const coll *c)
{
	const sl_attr *a = find_kind(op, SLS_reduction_axes, SL_ATTR_AXIS_REF_LIST);
	sl_axis_list axes = a ? a->u.axes : (sl_axis_list){NULL, 0};
	axis_seen seen = {{0}, {0}};
	bool equiv = fully_replicated(c->operand) && fully_replicated(c->out);
	sli_buf *b;
	int rc;

	if (!equiv && same_mesh_ref(c->operand, c->out) &&
	    c->operand->rank == c->out->rank) {
		equiv = true;
		for (uint32_t d = 0; d < c->out->rank; d++)
			if (!sli_axis_list_equal(c->operand->dims[d].axes.v,
			                         c->operand->dims[d].axes.n,
			                         c->out->dims[d].axes.v,
			                         c->out->dims[d].axes.n))
				equiv = false;
	}
	if (!equiv)
		return op_error(v, NULL, "operand and result shardings are not "
		                "equivalent");
	rc = check_sorted_axis_list(v, NULL, "reduction", axes.v, axes.n, c->mesh,
	                            &seen);
	seen_fini(&seen);
	if (rc)
		return -1;
	for (uint32_t i = 0; i < axes.n; i++) {
		const char *what = NULL;

		if (overlaps_dims(c->operand, &axes.v[i], true))
			what = "operand dimension sharding or replicated axes";
		else if (any_overlap(c->out->unreduced.v, c->out->unreduced.n, &axes.v[i]))
			what = "result unreduced axes";
		if (!what)
			continue;
		b = op_msg(v, NULL);
		sli_buf_puts(b, "reduction axis ");
		put_axis(v, b, &axes.v[i]);
		sli_buf_printf(b, " overlaps with %s", what);
		return emit(v);
	}
	return check_unreduced(v, c->operand, op, c->out, op, NO_OP,
	                       (int)reduction_of(op));
}

/* The expected out unreduced axes: sortAndMerge(operand unreduced + axes). */
static int
expect_unreduced(verifier *v, const coll *c, const sl_axis_ref *axes,
                 size_t n, const char *msg)
{
	sli_axis_vec want = {0};
	bool ok;

	for (uint32_t i = 0; i < c->operand->unreduced.n; i++)
		SL_VEC_PUSH(want, c->operand->unreduced.v[i]);
	for (size_t i = 0; i < n; i++)
		SL_VEC_PUSH(want, axes[i]);
	sli_axis_vec_sort_and_merge(v->ctx, c->mesh, &want);
	ok = sli_axis_list_equal(want.v, want.n, c->out->unreduced.v,
	                         c->out->unreduced.n);
	SL_VEC_FREE(want);
	return ok ? 0 : op_error(v, NULL, "%s", msg);
}

static int
verify_sharded_to_unreduced(verifier *v, sl_op *op, const coll *c)
{
	const sl_attr *a = lists_attr(v, op, SLS_axes);
	sli_axis_vec all = {0};
	int rc;

	if (!a)
		return -1;
	if (c->out->reduction != SL_RED_SUM)
		return op_error(v, NULL, "out_sharding reduction_op must be SUM");
	if (verify_per_dim(v, c, a, true, "shard-to-unreduce"))
		return -1;
	for (uint32_t d = 0; d < a->u.lists.n; d++)
		for (uint32_t i = 0; i < a->u.lists.v[d].n; i++)
			SL_VEC_PUSH(all, a->u.lists.v[d].v[i]);
	rc = expect_unreduced(v, c, all.v, all.n, "out_unreduced_axes should be "
	                      "in_unreduced_axes + sharded_to_unreduced_axes");
	SL_VEC_FREE(all);
	return rc;
}

static bool
dim_sharding_equal(const sl_dim_sharding *a, const sl_dim_sharding *b)
{
	return a->open == b->open && a->priority == b->priority &&
	       sli_axis_list_equal(a->axes.v, a->axes.n, b->axes.v, b->axes.n);
}

static int
verify_replicated_to_unreduced(verifier *v, sl_op *op, const coll *c)
{
	const sl_attr *a = find_kind(op, SLS_axes, SL_ATTR_AXIS_REF_LIST);
	sl_axis_list axes = a ? a->u.axes : (sl_axis_list){NULL, 0};
	axis_seen seen = {{0}, {0}};
	bool same = c->operand->rank == c->out->rank;
	int rc;

	if (c->out->reduction != SL_RED_SUM)
		return op_error(v, NULL, "out_sharding reduction_op must be SUM");
	for (uint32_t d = 0; same && d < c->out->rank; d++)
		same = dim_sharding_equal(&c->operand->dims[d], &c->out->dims[d]);
	if (!same)
		return op_error(v, NULL, "input and output must share the same "
		                "dimension shardings");
	if (axes.n == 0)
		return op_error(v, NULL, "r2u axes must not be empty");
	rc = check_sorted_axis_list(v, NULL, "r2u", axes.v, axes.n, c->mesh, &seen);
	seen_fini(&seen);
	if (rc)
		return -1;
	for (uint32_t i = 0; i < axes.n; i++) {
		const char *what = NULL;
		sli_buf *b;

		if (overlaps_dims(c->operand, &axes.v[i], false))
			what = "operand dimension sharding";
		else if (any_overlap(c->operand->unreduced.v, c->operand->unreduced.n,
		                     &axes.v[i]))
			what = "operand unreduced axes";
		if (!what)
			continue;
		b = op_msg(v, NULL);
		sli_buf_puts(b, "r2u axis ");
		put_axis(v, b, &axes.v[i]);
		sli_buf_printf(b, " overlaps with %s", what);
		return emit(v);
	}
	return expect_unreduced(v, c, axes.v, axes.n, "out_unreduced_axes should "
	                        "be in_unreduced_axes + r2u_axes");
}

static int
verify_collective(verifier *v, sl_op *op)
{
	const sl_attr *lists;
	coll c;
	int rc;

	if (verify_collective_common(v, op, &c)) {
		coll_fini(&c);
		return -1;
	}
	switch (op->kind) {
	case SL_OP_SDY_ALL_GATHER:
		lists = lists_attr(v, op, SLS_gathering_axes);
		rc = lists ? verify_per_dim(v, &c, lists, true, "gathering") : -1;
		break;
	case SL_OP_SDY_ALL_SLICE:
		lists = lists_attr(v, op, SLS_slicing_axes);
		rc = lists ? verify_per_dim(v, &c, lists, false, "slicing") : -1;
		break;
	case SL_OP_SDY_REDUCE_SCATTER:
		lists = lists_attr(v, op, SLS_scatter_axes);
		rc = lists ? check_unreduced(v, c.operand, op, c.out, op, NO_OP,
		                             (int)reduction_of(op)) : -1;
		if (rc == 0)
			rc = verify_per_dim(v, &c, lists, false, "slicing");
		break;
	case SL_OP_SDY_ALL_TO_ALL:
		rc = verify_all_to_all(v, op, &c);
		break;
	case SL_OP_SDY_COLLECTIVE_PERMUTE:
		rc = verify_collective_permute(v, op, &c);
		break;
	case SL_OP_SDY_ALL_REDUCE:
		rc = verify_all_reduce(v, op, &c);
		break;
	case SL_OP_SDY_SHARDED_TO_UNREDUCED:
		rc = verify_sharded_to_unreduced(v, op, &c);
		break;
	case SL_OP_SDY_REPLICATED_TO_UNREDUCED:
		rc = verify_replicated_to_unreduced(v, op, &c);
		break;
	default:
		rc = 0;
	}
	coll_fini(&c);
	return rc;
}

/* }==================================================================== */

/* {====================================================================
 * Manual and named computations (4.5, 4.6)
 * ===================================================================== */

static int
verify_manual_nesting(verifier *v, sl_op *op)
{
	sl_axis_list axes = manual_axes(op);

	for (uint32_t i = 0; i < axes.n; i++) {
		sl_op *owner = manual_owner(op, axes.v[i].name);

		if (!owner)
			continue;
		op_error(v, NULL, "operates on axis \"%s\" which is already bound by "
		         "a parent sdy.manual_computation op", sym(v, axes.v[i].name));
		v->note.n = 0;
		sli_buf_puts(&v->note, "parent bounding this axis as manual");
		emit_note(v, owner->loc);
		return -1;
	}
	return 0;
}

/* The local type a global type has in the body, or NULL (error reported). */
static int
manual_local_type(verifier *v, const char *kind, const sl_type *global,
                  const sl_sharding *s, const sl_mesh *mesh,
                  const sl_axis_list *manual, sl_type **local)
{
	int64_t *dims = sli_xcalloc(global->rank + 1, sizeof *dims);

	for (uint32_t d = 0; d < global->rank; d++) {
		int64_t m = 1;

		dims[d] = global->dims[d];
		if (dims[d] == SL_DYN || d >= s->rank)
			continue;
		for (uint32_t i = 0; i < s->dims[d].axes.n; i++)
			if (list_has_name(manual, s->dims[d].axes.v[i].name))
				m *= sli_axis_size(&s->dims[d].axes.v[i], mesh);
		if (m <= 0 || dims[d] % m != 0) {
			free(dims);
			return op_error(v, kind, " dimension size %lld is not divisible "
			                "by the manual axes size %lld",
			                (long long)global->dims[d], (long long)m);
		}
		dims[d] /= m;
	}
	*local = sli_type_tensor(v->ctx, global->rank, dims, global->elem, 0, false);
	free(dims);
	return 0;
}

/* Operands (kind "operand") or results ("result") of a manual computation. */
static int
verify_manual_values(verifier *v, sl_op *op, const char *kind,
                     sl_type *const *globals, uint32_t nglobal,
                     sl_type *const *locals, uint32_t nlocal,
                     const sl_attr *shardings)
{
	sl_axis_list manual = manual_axes(op);
	uint32_t nsh = shardings ? shardings->u.spv.n : 0;
	sli_buf pfx;
	int rc;

	if (nglobal == 0 && nlocal == 0 && nsh == 0)
		return 0;
	sli_buf_init(&pfx);
	sli_buf_printf(&pfx, "%s ", kind);
	rc = verify_sharding_list(v, sli_buf_cstr(&pfx),
	                          shardings ? shardings->u.spv.v : NULL, nsh,
	                          globals, nglobal, op);
	sli_buf_fini(&pfx);
	if (rc)
		return -1;
	if (nglobal != nlocal)
		return op_error(v, NULL, "number of op %ss and region %ss must match. "
		                "Op has %u op %ss and %u region %ss", kind, kind,
		                nglobal, kind, nlocal, kind);
	for (uint32_t i = 0; i < nglobal && i < nsh; i++) {
		const sl_sharding *s = shardings->u.spv.v[i];
		const sl_mesh *mesh = sharding_mesh(v, s, op);
		sl_type *local = NULL;
		sli_buf *b;

		for (uint32_t d = 0; d < s->rank; d++) {
			const sl_axis_list *l = &s->dims[d].axes;
			uint32_t j = 0;

			while (j < l->n && list_has_name(&manual, l->v[j].name))
				j++;
			while (j < l->n && !list_has_name(&manual, l->v[j].name))
				j++;
			if (j == l->n)
				continue;
			b = op_msg(v, kind);
			sli_buf_printf(b, " sharding at index %u must have all manual axes "
			               "come before free axes in its dimension sharding at "
			               "index %u. Saw manual axis ", i, d);
			put_axis(v, b, &l->v[j]);
			sli_buf_puts(b, " after free axis ");
			put_axis(v, b, &l->v[j - 1]);
			return emit(v);
		}
		if (!globals[i] || globals[i]->kind != SL_TYPE_TENSOR ||
		    globals[i]->unranked)
			continue;
		if (manual_local_type(v, kind, globals[i], s, mesh, &manual, &local))
			return -1;
		if (local != locals[i]) {
			b = op_msg(v, kind);
			sli_buf_printf(b, " shape, corresponding sharding, and region %s "
			               "shape at index %u must match. Expected local shape ",
			               kind, i);
			put_type(v, b, local);
			sli_buf_puts(b, ", actual local shape ");
			put_type(v, b, locals[i]);
			return emit(v);
		}
	}
	return 0;
}

/* Symbol-use verification of a manual computation. */
static int
verify_manual_uses(verifier *v, sl_op *op)
{
	const sl_attr *in = sli_comp_in_shardings(op);
	const sl_attr *out = sli_result_shardings(op);
	sl_axis_list manual = manual_axes(op);
	const sl_mesh *common = NULL, *empty = NULL;
	bool conflict = false;
	sl_type **g, **l;
	uint32_t nl;
	int rc;

	g = operand_types(op);
	l = arg_types(body_block(op), &nl);
	rc = verify_manual_values(v, op, "operand", g, op->noperands, l, nl, in);
	free(g);
	free(l);
	if (rc)
		return -1;
	g = result_types(op);
	l = term_types(body_terminator(op), &nl);
	rc = verify_manual_values(v, op, "result", g, op->nresults, l, nl, out);
	free(g);
	free(l);
	if (rc)
		return -1;
	if ((!in || in->u.spv.n == 0) && (!out || out->u.spv.n == 0))
		return 0;
	for (int k = 0; k < 2; k++) {
		const sl_attr *a = k ? out : in;

		for (uint32_t i = 0; a && i < a->u.spv.n; i++) {
			const sl_mesh *m = sharding_mesh(v, a->u.spv.v[i], op);

			if (!m)
				continue;
			if (sli_mesh_is_empty(m))
				empty = m;
			else if (!common)
				common = m;
			else if (!sli_mesh_equal(common, m))
				conflict = true;
		}
	}
	if (conflict)
		common = NULL;
	else if (!common)
		common = empty;
	if (!common && manual.n)
		return op_error(v, NULL, "all in and out shardings must be bound to the "
		                "same mesh or an empty mesh.");
	for (uint32_t i = 0; common && i < manual.n; i++)
		if (sli_mesh_axis_index(common, manual.v[i].name) < 0)
			return op_error(v, NULL, "unknown manual axis: \"%s\"",
			                sym(v, manual.v[i].name));
	return 0;
}

static void
put_type_list(verifier *v, sli_buf *b, sl_type *const *t, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			sli_buf_puts(b, ", ");
		put_type(v, b, t[i]);
	}
}

/* "expected the type of the 0'th block argument to match ..." */
static int
match_types(verifier *v, sl_type *const *inner, uint32_t ni,
            sl_type *const *outer, uint32_t no, const char *iname,
            const char *oname)
{
	sli_buf *b;

	if (ni != no) {
		b = plain_msg(v);
		sli_buf_printf(b, "number of %ss must match the number of %ss: %u != %u",
		               iname, oname, ni, no);
		return emit(v);
	}
	for (uint32_t i = 0; i < ni; i++) {
		if (inner[i] == outer[i])
			continue;
		b = plain_msg(v);
		sli_buf_printf(b, "expected the type of the %u'th %s to match the type "
		               "of the corresponding %s: ", i, iname, oname);
		put_type(v, b, inner[i]);
		sli_buf_puts(b, " vs ");
		put_type(v, b, outer[i]);
		return emit(v);
	}
	return 0;
}

static int
verify_named(verifier *v, sl_op *op)
{
	sl_type **ret, **res = result_types(op), **args, **opnds;
	uint32_t nret, nargs;
	bool same;
	int rc = 0;

	ret = term_types(body_terminator(op), &nret);
	same = nret == op->nresults;
	for (uint32_t i = 0; same && i < nret; i++)
		same = ret[i] == res[i];
	if (!same) {
		sli_buf *b = op_msg(v, NULL);

		sli_buf_puts(b, "inferred type(s) ");
		put_type_list(v, b, ret, nret);
		sli_buf_puts(b, " are incompatible with return type(s) of operation ");
		put_type_list(v, b, res, op->nresults);
		emit(v);
		rc = op_error(v, NULL, "failed to infer returned types");
	}
	args = arg_types(body_block(op), &nargs);
	opnds = operand_types(op);
	if (rc == 0)
		rc = match_types(v, args, nargs, opnds, op->noperands,
		                 "block argument", "operand");
	if (rc == 0)
		rc = match_types(v, ret, nret, res, op->nresults, "returned value",
		                 "result");
	free(ret);
	free(res);
	free(args);
	free(opnds);
	return rc;
}

static int
verify_named_uses(verifier *v, sl_op *op)
{
	const sl_attr *in = sli_comp_in_shardings(op);
	const sl_attr *out = sli_result_shardings(op);
	sl_type **t;
	int rc = 0;

	if (in) {
		t = operand_types(op);
		rc = verify_spv_attr(v, "in_shardings ", in, t, op->noperands, op);
		free(t);
	}
	if (rc == 0 && out) {
		t = result_types(op);
		rc = verify_spv_attr(v, "out_shardings ", out, t, op->nresults, op);
		free(t);
	}
	return rc;
}

/* }==================================================================== */

/* {====================================================================
 * Other sdy ops and generic MLIR rules
 * ===================================================================== */

static int
same_operand_result_type(verifier *v, const sl_op *op)
{
	const sl_type *t = NULL;

	for (uint32_t i = 0; i < op->noperands; i++) {
		if (t && op->operands[i]->type != t)
			goto bad;
		t = op->operands[i]->type;
	}
	for (uint32_t i = 0; i < op->nresults; i++) {
		if (t && op->results[i].type != t)
			goto bad;
		t = op->results[i].type;
	}
	return 0;
bad:
	return op_error(v, NULL, "requires the same type for all operands and "
	                "results");
}

static int
verify_data_flow_edge(verifier *v, sl_op *op)
{
	const sl_value *in;
	sli_buf *b;

	if (op->noperands != 1 || op->nresults != 1)
		return 0;
	in = op->operands[0];
	if (!sli_type_is_static(op->results[0].type)) {
		b = op_msg(v, NULL);
		sli_buf_puts(b, "expected sdy.data_flow_edge to have a static-shaped "
		             "result. type: ");
		put_type(v, b, op->results[0].type);
		return emit(v);
	}
	if (in->id != 1)
		return op_error(v, NULL, "expected input of sdy.data_flow_edge to have "
		                "a single user");
	if (in->def && has_trait(in->def, T_SDY) &&
	    in->def->kind != SL_OP_SDY_MANUAL_COMPUTATION &&
	    in->def->kind != SL_OP_SDY_NAMED_COMPUTATION) {
		op_error(v, NULL, "expected input of sdy.data_flow_edge to not be "
		         "defined by an SdyDialect op (other than an "
		         "sdy.named_computation).");
		v->note.n = 0;
		sli_buf_puts(&v->note, "sdy op defining the input of the "
		             "sdy.data_flow_edge");
		emit_note(v, in->def->loc);
		return -1;
	}
	return 0;
}

static int
verify_func_data_flow_edge(verifier *v, sl_op *op)
{
	const sl_value *in;
	sl_op *owner;
	sli_buf *b;

	if (op->noperands != 1 || op->nresults != 1)
		return 0;
	in = op->operands[0];
	if (!sli_type_is_static(op->results[0].type)) {
		b = op_msg(v, NULL);
		sli_buf_puts(b, "expected sdy.func_data_flow_edge to have a "
		             "static-shaped result. type: ");
		put_type(v, b, op->results[0].type);
		return emit(v);
	}
	if (in->id != 1)
		return op_error(v, NULL, "expected operand of sdy.func_data_flow_edge "
		                "to have a single user");
	owner = arg_owner(in);
	if (!in->def && (!owner || owner->kind != SL_OP_FUNC))
		return op_error(v, NULL, "expected operand of sdy.func_data_flow_edge "
		                "to be a block argument of a func op.");
	if (in->def && in->def->kind != SL_OP_CALL)
		return op_error(v, NULL, "expected operand of sdy.func_data_flow_edge "
		                "to be a result of call op.");
	return 0;
}

static int
verify_mesh_op(verifier *v, sl_op *op)
{
	sl_op *parent = sli_op_parent(op);
	sl_attr *a = sli_op_get(op, SLS_mesh);
	int rc = 0;

	if (parent && parent->kind != SL_OP_MODULE)
		return op_error(v, NULL, "expects parent op 'builtin.module'");
	if (!a || a->kind != SL_ATTR_MESH)
		return op_error(v, NULL, "requires attribute 'mesh'");
	if (sli_verify_mesh_attr(v->ctx, &a->u.mesh, &v->note)) {
		op_msg(v, NULL);
		sli_buf_puts(&v->msg, sli_buf_cstr(&v->note));
		rc = emit(v);
	}
	v->note.n = 0;
	return rc;
}

static int
verify_func_return(verifier *v, sl_op *op)
{
	sl_op *f = sli_op_parent(op);
	const sl_type *ft;
	sli_buf *b;

	if (!f || f->kind != SL_OP_FUNC || !(ft = func_type(f)))
		return 0;
	if (op->noperands != ft->nres)
		return op_error(v, NULL, "has %u operands, but enclosing function (@%s) "
		                "returns %u", op->noperands,
		                sym(v, sli_op_sym_name(v->m, f)), ft->nres);
	for (uint32_t i = 0; i < ft->nres; i++) {
		if (op->operands[i]->type == ft->types[ft->rank + i])
			continue;
		b = op_msg(v, NULL);
		sli_buf_printf(b, "type of return operand %u (", i);
		put_type(v, b, op->operands[i]->type);
		sli_buf_puts(b, ") doesn't match function result type (");
		put_type(v, b, ft->types[ft->rank + i]);
		sli_buf_printf(b, ") in function @%s", sym(v, sli_op_sym_name(v->m, f)));
		return emit(v);
	}
	return 0;
}

/* Traits and op verifiers, run when an op is entered. */
static int
verify_invariants(verifier *v, sl_op *op)
{
	const sl_attr *a;

	if (has_trait(op, T_TERM) && op->next)
		return op_error(v, NULL, "must be the last operation in the parent "
		                "block");
	switch (op->kind) {
	case SL_OP_FUNC:
		return verify_func(v, op);
	case SL_OP_RETURN:
		return verify_func_return(v, op);
	case SL_OP_SDY_MESH:
		return verify_mesh_op(v, op);
	case SL_OP_SDY_SHARDING_CONSTRAINT:
	case SL_OP_SDY_RESHARD:
		if (!sli_result_sharding(op, 0))
			return op_error(v, NULL, "requires attribute 'sharding'");
		return same_operand_result_type(v, op);
	case SL_OP_SDY_MANUAL_COMPUTATION:
		return verify_manual_nesting(v, op);
	case SL_OP_SDY_NAMED_COMPUTATION:
		return verify_named(v, op);
	case SL_OP_SDY_SHARDING_GROUP:
		if (op->noperands == 1 && (op->operands[0]->type->kind != SL_TYPE_TENSOR ||
		                           op->operands[0]->type->unranked)) {
			sli_buf *b = op_msg(v, NULL);

			sli_buf_puts(b, "operand #0 must be ranked tensor of any type "
			             "values, but got ");
			put_type(v, b, op->operands[0]->type);
			return emit(v);
		}
		return 0;
	case SL_OP_SDY_CONSTANT:
		if (op->nresults == 1 && !sli_type_is_static(op->results[0].type))
			return op_error(v, NULL, "elements literal type must have static "
			                "shape");
		return 0;
	case SL_OP_SDY_DATA_FLOW_EDGE:
		if (same_operand_result_type(v, op))
			return -1;
		return verify_data_flow_edge(v, op);
	case SL_OP_SDY_FUNC_DATA_FLOW_EDGE:
		return verify_func_data_flow_edge(v, op);
	case SL_OP_SDY_PROPAGATION_BARRIER:
		if (same_operand_result_type(v, op))
			return -1;
		a = sli_op_get(op, SLS_allowed_direction);
		if (a && a->kind == SL_ATTR_DIRECTION && a->u.direction == SL_DIR_BOTH)
			return op_error(v, NULL, "cannot specify `BOTH` as the direction. "
			                "Not blocking propagation direction makes the op "
			                "redundant.");
		return 0;
	default:
		if (is_collective(op)) {
			if (same_operand_result_type(v, op))
				return -1;
			return verify_collective(v, op);
		}
		return 0;
	}
}

/* Region isolation: no op inside uses a value defined outside. */
static int
verify_isolation(verifier *v, sl_op *iso)
{
	for (uint32_t r = 0; r < iso->nregions; r++) {
		sl_region *region = &iso->regions[r];
		SL_VEC(sl_region *) pending = {0};

		SL_VEC_PUSH(pending, region);
		while (pending.n) {
			sl_region *cur = pending.v[--pending.n];

			for (sl_block *b = cur->first; b; b = b->next) {
				for (sl_op *o = b->first; o; o = o->next) {
					for (uint32_t i = 0; i < o->noperands; i++) {
						if (region_within(value_region(o->operands[i]), region))
							continue;
						SL_VEC_FREE(pending);
						v->op = o;
						op_error(v, NULL, "using value defined outside the "
						         "region");
						v->note.n = 0;
						sli_buf_puts(&v->note, "required by region isolation "
						             "constraints");
						emit_note(v, iso->loc);
						return -1;
					}
					if (o->nregions && !has_trait(o, T_ISO))
						for (uint32_t k = 0; k < o->nregions; k++)
							SL_VEC_PUSH(pending, &o->regions[k]);
				}
			}
		}
		SL_VEC_FREE(pending);
	}
	return 0;
}

/* }==================================================================== */

/* {====================================================================
 * Symbol tables and symbol uses
 * ===================================================================== */

static int
verify_call(verifier *v, sl_op *op)
{
	sl_sym name = sli_call_callee(v->m, op);
	const sl_type *ft;
	sl_op *f;
	sli_buf *b;

	if (!name)
		return 0;
	f = sli_lookup_func(v->m, name);
	if (!f)
		return op_error(v, NULL, "'%s' does not reference a valid function",
		                sym(v, name));
	if (!(ft = func_type(f)))
		return 0;
	if (ft->rank != op->noperands)
		return op_error(v, NULL, "incorrect number of operands for callee");
	for (uint32_t i = 0; i < ft->rank; i++) {
		if (op->operands[i]->type == ft->types[i])
			continue;
		b = op_msg(v, NULL);
		sli_buf_puts(b, "operand type mismatch: expected operand type ");
		put_type(v, b, ft->types[i]);
		sli_buf_puts(b, ", but provided ");
		put_type(v, b, op->operands[i]->type);
		sli_buf_printf(b, " for operand number %u", i);
		return emit(v);
	}
	if (ft->nres != op->nresults)
		return op_error(v, NULL, "incorrect number of results for callee");
	for (uint32_t i = 0; i < ft->nres; i++)
		if (op->results[i].type != ft->types[ft->rank + i])
			return op_error(v, NULL, "result type mismatch at index %u", i);
	return 0;
}

/* The sharding of the input of a constraint, through propagation barriers. */
static const sl_sharding *
input_sharding(verifier *v, const sl_value *val, const sl_op **at)
{
	while (val->def && val->def->kind == SL_OP_SDY_PROPAGATION_BARRIER &&
	       val->def->noperands == 1)
		val = val->def->operands[0];
	*at = val->def ? val->def : arg_owner(val);
	return sli_value_sharding(val);
}

static int
verify_symbol_uses(verifier *v, sl_op *op)
{
	const sl_sharding *s, *src;
	const sl_op *src_at;

	v->op = op;
	switch (op->kind) {
	case SL_OP_CALL:
		return verify_call(v, op);
	case SL_OP_SDY_SHARDING_CONSTRAINT:
	case SL_OP_SDY_RESHARD:
		s = sli_result_sharding(op, 0);
		if (!s || op->nresults != 1 || op->noperands != 1)
			return 0;
		if (verify_sharding(v, NULL, s, op->results[0].type, op))
			return -1;
		src = input_sharding(v, op->operands[0], &src_at);
		if (!src || !src_at)
			return 0;
		return check_unreduced(v, src, src_at, s, op, SL_RED_SUM,
		                       (int)src->reduction);
	case SL_OP_SDY_DATA_FLOW_EDGE:
		s = sli_result_sharding(op, 0);
		if (!s || op->nresults != 1)
			return 0;
		return verify_sharding(v, NULL, s, op->results[0].type, op);
	case SL_OP_SDY_MANUAL_COMPUTATION:
		return verify_manual_uses(v, op);
	case SL_OP_SDY_NAMED_COMPUTATION:
		return verify_named_uses(v, op);
	default:
		return 0;
	}
}

static int
walk_symbol_uses(verifier *v, sl_op *op)
{
	for (uint32_t r = 0; r < op->nregions; r++)
		for (sl_block *b = op->regions[r].first; b; b = b->next)
			for (sl_op *o = b->first; o; o = o->next) {
				if (verify_symbol_uses(v, o))
					return -1;
				if (o->kind != SL_OP_MODULE && walk_symbol_uses(v, o))
					return -1;
			}
	return 0;
}

/* The symbol table of a module: unique names, then symbol uses. */
static int
verify_symbol_table(verifier *v, sl_op *mod)
{
	sl_block *b = body_block(mod);
	/* the first op defining each name, by symbol (names are dense ids) */
	sl_op **first = NULL;
	size_t nfirst = 0;

	for (sl_op *o = b ? b->first : NULL; o; o = o->next) {
		sl_sym name = sli_op_sym_name(v->m, o);

		if (!name)
			continue;
		if (name >= nfirst) {
			size_t n = 2 * (size_t)name + 64;
			first = sli_xrealloc(first, sizeof *first * n);
			memset(first + nfirst, 0, sizeof *first * (n - nfirst));
			nfirst = n;
		}
		sl_op *p = first[name];
		if (!p) {
			first[name] = o;
		} else {
			free(first);
			v->op = o;
			plain_msg(v);
			sli_buf_printf(&v->msg, "redefinition of symbol named '%s'",
			               sym(v, name));
			emit(v);
			v->note.n = 0;
			sli_buf_puts(&v->note, "see existing symbol definition here");
			emit_note(v, p->loc);
			return -1;
		}
	}
	free(first);
	return walk_symbol_uses(v, mod);
}

/* }==================================================================== */

/* {====================================================================
 * The walk (4.13)
 * ===================================================================== */

static bool
needs_terminator(const sl_op *op)
{
	return op->kind == SL_OP_FUNC || op->kind == SL_OP_SDY_MANUAL_COMPUTATION ||
	       op->kind == SL_OP_SDY_NAMED_COMPUTATION;
}

static int
verify_block(verifier *v, sl_op *parent, sl_block *b)
{
	bool failed = false;

	for (sl_op *o = b->first; o; o = o->next)
		if (!is_isolated(o) && verify_op(v, o))
			return -1;
	for (sl_op *o = b->first; o; o = o->next)
		if (is_isolated(o) && verify_op(v, o))
			failed = true;
	if (failed)
		return -1;
	if (needs_terminator(parent) && !b->first) {
		v->op = parent;
		plain_msg(v);
		sli_buf_puts(&v->msg, "empty block: expect at least a terminator");
		return emit(v);
	}
	return 0;
}

/*
 * The invariants MLIR checks when it builds attributes, that is while it
 * parses: they come before any op verification, in text order.
 */
static int
verify_built_attrs(verifier *v, sl_op *op)
{
	v->op = op;
	for (uint32_t i = 0; i < op->nattrs; i++) {
		const sl_attr *a = op->attrs[i].attr;

		if (a && a->kind == SL_ATTR_PROP_EDGES && check_edges_attr(v, a))
			return -1;
		for (uint32_t j = 0; a && a->kind == SL_ATTR_ARRAY && j < a->u.arr.n; j++)
			if (a->u.arr.v[j] && a->u.arr.v[j]->kind == SL_ATTR_PROP_EDGES &&
			    check_edges_attr(v, a->u.arr.v[j]))
				return -1;
	}
	for (uint32_t r = 0; r < op->nregions; r++)
		for (sl_block *b = op->regions[r].first; b; b = b->next)
			for (sl_op *o = b->first; o; o = o->next)
				if (verify_built_attrs(v, o))
					return -1;
	return 0;
}

static int
verify_op(verifier *v, sl_op *op)
{
	v->op = op;
	if (verify_op_attrs(v, op) || verify_invariants(v, op))
		return -1;
	for (uint32_t r = 0; r < op->nregions; r++)
		for (sl_block *b = op->regions[r].first; b; b = b->next)
			if (verify_block(v, op, b))
				return -1;
	v->op = op;
	if (is_isolated(op) && verify_isolation(v, op))
		return -1;
	if (op->kind == SL_OP_MODULE && verify_symbol_table(v, op))
		return -1;
	return 0;
}

int
sl_module_verify(sl_module *m)
{
	verifier v;
	int rc;

	memset(&v, 0, sizeof v);
	v.m = m;
	v.ctx = m->ctx;
	sli_buf_init(&v.msg);
	sli_buf_init(&v.note);
	sli_compute_use_counts(m->top);
	rc = verify_built_attrs(&v, m->top);
	if (rc == 0)
		rc = verify_op(&v, m->top);
	sli_buf_fini(&v.msg);
	sli_buf_fini(&v.note);
	return rc ? -1 : 0;
}

/* }==================================================================== */
