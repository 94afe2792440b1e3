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
	const sl_mesh *sm = sli_verify_sharding_mesh(v, src, src_at);
	const sl_mesh *tm = sli_verify_sharding_mesh(v, tgt, tgt_at);
	sli_axis_vec added = {0}, dropped = {0};
	sli_buf *b;
	int rc = 0;

	if (!sm || !tm || !sli_mesh_equal(sm, tm))
		return 0;
	sli_axis_set_diff(v->ctx, tm, tgt->unreduced.v, tgt->unreduced.n,
	                  src->unreduced.v, src->unreduced.n, &added);
	sli_axis_set_diff(v->ctx, tm, src->unreduced.v, src->unreduced.n,
	                  tgt->unreduced.v, tgt->unreduced.n, &dropped);
	if (added.n && intro == SLI_VERIFY_NO_OP) {
		b = sli_verify_op_msg(v, NULL);
		sli_buf_puts(b, "cannot add new unreduced axis ");
		sli_verify_put_axis_quoted(v, b, &added.v[0]);
		sli_buf_puts(b, ".");
		rc = sli_verify_emit(v);
	} else if (added.n && (int)tgt->reduction != intro) {
		rc = sli_verify_op_error(v, NULL, "cannot introduce '%s' unreduced axes. "
		                         "Expected '%s'.", sli_verify_reduction_name(tgt->reduction),
		                         sli_verify_reduction_name((sl_reduction)intro));
	} else if (dropped.n && removal == SLI_VERIFY_NO_OP) {
		b = sli_verify_op_msg(v, NULL);
		sli_buf_puts(b, "dropped unreduced axis ");
		sli_verify_put_axis_quoted(v, b, &dropped.v[0]);
		sli_buf_puts(b, " without a blessed operation (e.g., sdy.reshard). "
		             "This is an invalid transition from unreduced to reduced.");
		rc = sli_verify_emit(v);
	} else if (dropped.n && (int)src->reduction != removal) {
		rc = sli_verify_op_error(v, NULL, "cannot reduce '%s' unreduced axes. "
		                         "Expected '%s'.", sli_verify_reduction_name(src->reduction),
		                         sli_verify_reduction_name((sl_reduction)removal));
	} else if (src->reduction != tgt->reduction) {
		for (uint32_t i = 0; i < tgt->unreduced.n && rc == 0; i++)
			for (uint32_t j = 0; j < src->unreduced.n && rc == 0; j++)
				if (sli_axis_overlaps(&tgt->unreduced.v[i], &src->unreduced.v[j]))
					rc = sli_verify_op_error(v, NULL, "cannot change the reduction "
					                         "operator of kept unreduced axes from %s "
					                         "to %s.", sli_verify_reduction_name(src->reduction),
					                         sli_verify_reduction_name(tgt->reduction));
	}
	SL_VEC_FREE(added);
	SL_VEC_FREE(dropped);
	return rc;
}
