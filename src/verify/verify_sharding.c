/*
 * verify_sharding.c - tensor shardings against their types (spec
 * sections 4.1, 4.2) and the unreduced-axes transitions between two
 * shardings (4.10).
 */
#include "verify/verifier.h"

#include <stdlib.h>
#include <string.h>

#include "formats/mlir_printer.h"

/* ==================================================================
 * Tensor shardings (4.1, 4.2)
 * ================================================================== */

/* 4.2 #11: no axis bound by an enclosing manual computation. */
static int
check_bound_axes(verifier *v, const char *pfx, const sl_sharding *s,
                 const sl_op *at)
{
	const sl_axis_list *lists[2] = {&s->replicated, &s->unreduced};

	for (uint32_t d = 0; d <= s->rank + 1; d++) {
		const sl_axis_list *l = d < s->rank ? &s->dims[d].axes : lists[d - s->rank];

		for (uint32_t i = 0; i < l->n; i++) {
			sl_op *owner = sli_verify_manual_owner(at, l->v[i].name);

			if (!owner)
				continue;
			sli_verify_op_error(v, pfx, "operates on axis \"%s\" which is already bound "
			                    "by a parent sdy.manual_computation op",
			                    sli_verify_sym(v, l->v[i].name));
			v->note.n = 0;
			sli_buf_puts(&v->note, "parent bounding this axis as manual");
			sli_verify_emit_note(v, owner->loc);
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
int
sli_verify_sharding(verifier *v, const char *pfx, const sl_sharding *s,
                    const sl_type *type, const sl_op *at)
{
	const sl_mesh *mesh = sli_verify_sharding_mesh(v, s, at);
	axis_seen seen = {{0}, {0}};
	sli_buf *b;
	int rc = -1;

	if (!mesh)
		return sli_verify_op_error(v, pfx, "unknown mesh: @%s", sli_verify_sym(v, s->mesh_name));
	if (sli_mesh_is_maximal(mesh) || (!type && sli_verify_fully_replicated(s))) {
		if (s->rank || s->replicated.n || s->unreduced.n)
			return sli_verify_op_error(v, pfx, "a maximal sharding can only have a "
			                           "sharding with rank 0 and no replicated or "
			                           "unreduced axes.");
		return 0;
	}
	if (type && type->kind == SL_TYPE_TUPLE) {
		if (type->rank != 1) {
			b = sli_verify_op_msg(v, pfx);
			sli_buf_puts(b, "ops can only have a sharding for a tuple of size 1: ");
			sli_verify_put_type(v, b, type);
			return sli_verify_emit(v);
		}
		type = type->types[0];
	}
	if (!type || type->kind != SL_TYPE_TENSOR) {
		if (s->rank || s->replicated.n || s->unreduced.n) {
			b = sli_verify_op_msg(v, pfx);
			sli_buf_puts(b, "non-shaped tensors can only have a sharding with "
			             "rank 0 and no replicated or unreduced axes. type: ");
			sli_verify_put_type(v, b, type);
			sli_buf_puts(b, ", sharding: ");
			sli_print_sharding(b, v->ctx, s, true);
			return sli_verify_emit(v);
		}
		return 0;
	}
	if (type->unranked) {
		b = sli_verify_op_msg(v, pfx);
		sli_buf_puts(b, "only ranked tensors can have a sharding. type: ");
		sli_verify_put_type(v, b, type);
		return sli_verify_emit(v);
	}
	if (s->rank != type->rank)
		return sli_verify_op_error(v, pfx, "sharding doesn't match tensor rank: %u != %u",
		                           s->rank, type->rank);
	for (uint32_t d = 0; d < s->rank; d++) {
		const sl_dim_sharding *ds = &s->dims[d];

		if (ds->priority != SL_NO_PRIORITY && ds->priority < 0) {
			sli_verify_op_error(v, pfx, "dim %u has a negative priority", d);
			goto out;
		}
		if (ds->priority != SL_NO_PRIORITY && !ds->open && ds->axes.n == 0) {
			sli_verify_op_error(v, pfx, "dim %u is empty and closed but has a priority", d);
			goto out;
		}
		if (sli_verify_check_axis_list(v, pfx, ds->axes.v, ds->axes.n, mesh, &seen))
			goto out;
	}
	if (sli_verify_check_sorted_axis_list(v, pfx, "replicated", s->replicated.v,
	                                      s->replicated.n, mesh, &seen) ||
	               sli_verify_check_sorted_axis_list(v, pfx, "unreduced", s->unreduced.v,
	                                      s->unreduced.n, mesh, &seen) ||
	               sli_verify_check_sub_axes(v, pfx, mesh, &seen) ||
	               check_bound_axes(v, pfx, s, at))
		goto out;
	rc = 0;
out:
	sli_verify_seen_fini(&seen);
	return rc;
}

/*
 * A list of shardings for `ntypes` values (4.1): `kind` is "result ",
 * "operand ", "in_shardings ", ...; per-value prefixes are "<kind>- " for
 * one value and "<kind><i> - " otherwise.
 */
int
sli_verify_sharding_list(verifier *v, const char *kind, sl_sharding *const *sh,
                         uint32_t n, sl_type *const *types, uint32_t ntypes,
                         const sl_op *at)
{
	sli_buf pfx;
	int rc = 0;

	if (ntypes == 0 && n == 1) {
		const sl_mesh *mesh = sli_verify_sharding_mesh(v, sh[0], at);

		if ((mesh && sli_mesh_is_maximal(mesh)) || sli_verify_fully_replicated(sh[0])) {
			sli_buf_init(&pfx);
			sli_buf_printf(&pfx, "%s0 - ", kind);
			rc = sli_verify_sharding(v, sli_buf_cstr(&pfx), sh[0], NULL, at);
			sli_buf_fini(&pfx);
			return rc;
		}
	}
	if (n != ntypes)
		return sli_verify_op_error(v, kind, "shardings don't match number of values: "
		                           "%u shardings vs %u values", n, ntypes);
	sli_buf_init(&pfx);
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		if (v->quiet) {	/* no failure to word (verify_quick.c) */
			rc = sli_verify_sharding(v, "", sh[i], types[i], at);
			continue;
		}
		pfx.n = 0;
		if (ntypes == 1)
			sli_buf_printf(&pfx, "%s- ", kind);
		else
			sli_buf_printf(&pfx, "%s%u - ", kind, i);
		rc = sli_verify_sharding(v, sli_buf_cstr(&pfx), sh[i], types[i], at);
	}
	sli_buf_fini(&pfx);
	return rc;
}

/* Types of the op results (malloc'd; free it). */
sl_type **
sli_verify_result_types(const sl_op *op)
{
	sl_type **t = sli_xcalloc(op->nresults + 1, sizeof *t);

	for (uint32_t i = 0; i < op->nresults; i++)
		t[i] = op->results[i].type;
	return t;
}

sl_type **
sli_verify_operand_types(const sl_op *op)
{
	sl_type **t = sli_xcalloc(op->noperands + 1, sizeof *t);

	for (uint32_t i = 0; i < op->noperands; i++)
		t[i] = op->operands[i]->type;
	return t;
}

sl_type **
sli_verify_arg_types(const sl_block *b, uint32_t *n)
{
	sl_type **t;

	*n = b ? b->nargs : 0;
	t = sli_xcalloc(*n + 1, sizeof *t);
	for (uint32_t i = 0; i < *n; i++)
		t[i] = b->args[i].type;
	return t;
}

/* Operand types of a terminator (NULL terminator: none). */
sl_type **
sli_verify_term_types(const sl_op *term, uint32_t *n)
{
	*n = term ? term->noperands : 0;
	return term ? sli_verify_operand_types(term) : sli_xcalloc(1, sizeof(sl_type *));
}

int
sli_verify_spv_attr(verifier *v, const char *kind, const sl_attr *a,
                    sl_type *const *types, uint32_t ntypes, const sl_op *at)
{
	return sli_verify_sharding_list(v, kind, a->u.spv.v, a->u.spv.n, types,
	                                ntypes, at);
}

/* ==================================================================
 * Unreduced-axes transitions (4.10)
 * ================================================================== */

/* One side of a transition: its shardings (NULL entries have no axes). */
typedef struct side {
	const sl_sharding *const *v;
	uint32_t n;
	const sl_op *at;	/* where their meshes are looked up */
	sli_axis_vec axes;	/* all their unreduced axes */
} side;

/*
 * The one mesh of both sides' shardings (their unreduced axes gathered
 * on the way), or NULL: none, an unknown one, or two different ones.
 */
static const sl_mesh *
common_mesh(verifier *v, side *a, side *b)
{
	const sl_mesh *mesh = NULL;
	side *sides[2] = {a, b};

	for (int k = 0; k < 2; k++)
		for (uint32_t i = 0; i < sides[k]->n; i++) {
			const sl_sharding *s = sides[k]->v[i];
			const sl_mesh *sm = s ? sli_verify_sharding_mesh(v, s, sides[k]->at) : NULL;
			if (!s)
				continue;
			if (!sm || (mesh && !sli_mesh_equal(sm, mesh)))
				return NULL;
			mesh = sm;
			for (uint32_t j = 0; j < s->unreduced.n; j++)
				SL_VEC_PUSH(sides[k]->axes, s->unreduced.v[j]);
		}
	return mesh;
}

/* Whether two lists of axes share part of an axis. */
static bool
any_overlap(const sl_axis_ref *a, size_t na, const sl_axis_ref *b, size_t nb)
{
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			if (sli_axis_overlaps(&a[i], &b[j]))
				return true;
	return false;
}

/* A sharding of d whose reduction is not `red` and whose unreduced
 * axes overlap one of axes, or NULL. */
static const sl_sharding *
other_reduction(const side *d, const sli_axis_vec *axes, int red)
{
	for (uint32_t i = 0; i < d->n; i++) {
		const sl_sharding *s = d->v[i];
		if (s && (int)s->reduction != red &&
		    any_overlap(s->unreduced.v, s->unreduced.n, axes->v, axes->n))
			return s;
	}
	return NULL;
}

/* An axis unreduced on both sides must keep its reduction: 0, or -1
 * with the error. */
static int
check_kept(verifier *v, const side *src, const side *tgt)
{
	for (uint32_t i = 0; i < tgt->n; i++) {
		const sl_sharding *t = tgt->v[i];
		for (uint32_t j = 0; t && j < src->n; j++) {
			const sl_sharding *s = src->v[j];
			if (s && s->reduction != t->reduction &&
			    any_overlap(t->unreduced.v, t->unreduced.n, s->unreduced.v, s->unreduced.n))
				return sli_verify_op_error(v, NULL, "cannot change the reduction "
				                           "operator of kept unreduced axes from %s "
				                           "to %s.", sli_verify_reduction_name(s->reduction),
				                           sli_verify_reduction_name(t->reduction));
		}
	}
	return 0;
}

static int
check_transition(verifier *v, side *src, side *tgt, int intro, int removal)
{
	const sl_mesh *mesh = common_mesh(v, src, tgt);
	sli_axis_vec added = {0}, dropped = {0};
	const sl_sharding *bad;
	sli_buf *b;
	int rc = 0;

	if (!mesh)
		goto out;
	sli_axis_set_diff(v->ctx, mesh, tgt->axes.v, tgt->axes.n, src->axes.v, src->axes.n,
	                  &added);
	sli_axis_set_diff(v->ctx, mesh, src->axes.v, src->axes.n, tgt->axes.v, tgt->axes.n,
	                  &dropped);
	if (added.n && intro == SLI_VERIFY_NO_OP) {
		b = sli_verify_op_msg(v, NULL);
		sli_buf_puts(b, "cannot add new unreduced axis ");
		sli_verify_put_axis_quoted(v, b, &added.v[0]);
		sli_buf_puts(b, ".");
		rc = sli_verify_emit(v);
	} else if (added.n && (bad = other_reduction(tgt, &added, intro))) {
		rc = sli_verify_op_error(v, NULL, "cannot introduce '%s' unreduced axes. "
		                         "Expected '%s'.", sli_verify_reduction_name(bad->reduction),
		                         sli_verify_reduction_name((sl_reduction)intro));
	} else if (dropped.n && removal == SLI_VERIFY_NO_OP) {
		b = sli_verify_op_msg(v, NULL);
		sli_buf_puts(b, "dropped unreduced axis ");
		sli_verify_put_axis_quoted(v, b, &dropped.v[0]);
		sli_buf_puts(b, " without a blessed operation (e.g., sdy.reshard). "
		             "This is an invalid transition from unreduced to reduced.");
		rc = sli_verify_emit(v);
	} else if (dropped.n && (bad = other_reduction(src, &dropped, removal))) {
		rc = sli_verify_op_error(v, NULL, "cannot reduce '%s' unreduced axes. "
		                         "Expected '%s'.", sli_verify_reduction_name(bad->reduction),
		                         sli_verify_reduction_name((sl_reduction)removal));
	} else {
		rc = check_kept(v, src, tgt);
	}
out:
	SL_VEC_FREE(added);
	SL_VEC_FREE(dropped);
	SL_VEC_FREE(src->axes);
	SL_VEC_FREE(tgt->axes);
	return rc;
}

/*
 * From sharding src to sharding tgt: introducing unreduced axes is allowed
 * only with reduction `intro` (SLI_VERIFY_NO_OP: not at all), removing them only
 * with `removal`.
 */
int
sli_verify_check_unreduced(verifier *v, const sl_sharding *src, const sl_op *src_at,
                           const sl_sharding *tgt, const sl_op *tgt_at, int intro,
                           int removal)
{
	side s = {&src, 1, src_at, {0}}, t = {&tgt, 1, tgt_at, {0}};

	return check_transition(v, &s, &t, intro, removal);
}

int
sli_verify_unreduced_transition(sl_module *m, sl_op *op, const sl_sharding *const *src,
                                uint32_t nsrc, const sl_sharding *const *tgt,
                                uint32_t ntgt, int intro, int removal)
{
	verifier v;
	side s = {src, nsrc, op, {0}}, t = {tgt, ntgt, op, {0}};
	int rc;

	memset(&v, 0, sizeof v);
	v.m = m;
	v.ctx = m->ctx;
	v.op = op;
	sli_buf_init(&v.msg);
	sli_buf_init(&v.note);
	rc = check_transition(&v, &s, &t, intro, removal);
	sli_buf_fini(&v.msg);
	sli_buf_fini(&v.note);
	return rc;
}
