/*
 * verify_computation.c - manual and named computations (spec sections
 * 4.5, 4.6): nesting, manual axes, local shapes and their in/out
 * shardings.
 */
#include "verify/verifier.h"

#include <stdlib.h>
#include <string.h>

int
sli_verify_manual_nesting(verifier *v, sl_op *op)
{
	sl_axis_list axes = sli_verify_manual_axes(op);

	for (uint32_t i = 0; i < axes.n; i++) {
		sl_op *owner = sli_verify_manual_owner(op, axes.v[i].name);

		if (!owner)
			continue;
		sli_verify_op_error(v, NULL, "operates on axis \"%s\" which is already bound by "
		                    "a parent sdy.manual_computation op", sli_verify_sym(v, axes.v[i].name));
		v->note.n = 0;
		sli_buf_puts(&v->note, "parent bounding this axis as manual");
		sli_verify_emit_note(v, owner->loc);
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
			if (sli_verify_list_has_name(manual, s->dims[d].axes.v[i].name))
				m *= sli_axis_size(&s->dims[d].axes.v[i], mesh);
		if (m <= 0 || dims[d] % m != 0) {
			free(dims);
			return sli_verify_op_error(v, kind, " dimension size %lld is not divisible "
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
	sl_axis_list manual = sli_verify_manual_axes(op);
	uint32_t nsh = shardings ? shardings->u.spv.n : 0;
	sli_buf pfx;
	int rc;

	if (nglobal == 0 && nlocal == 0 && nsh == 0)
		return 0;
	sli_buf_init(&pfx);
	sli_buf_printf(&pfx, "%s ", kind);
	rc = sli_verify_sharding_list(v, sli_buf_cstr(&pfx),
	                              shardings ? shardings->u.spv.v : NULL, nsh,
	                              globals, nglobal, op);
	sli_buf_fini(&pfx);
	if (rc)
		return -1;
	if (nglobal != nlocal)
		return sli_verify_op_error(v, NULL, "number of op %ss and region %ss must match. "
		                           "Op has %u op %ss and %u region %ss", kind, kind,
		                           nglobal, kind, nlocal, kind);
	for (uint32_t i = 0; i < nglobal && i < nsh; i++) {
		const sl_sharding *s = shardings->u.spv.v[i];
		const sl_mesh *mesh = sli_verify_sharding_mesh(v, s, op);
		sl_type *local = NULL;
		sli_buf *b;

		for (uint32_t d = 0; d < s->rank; d++) {
			const sl_axis_list *l = &s->dims[d].axes;
			uint32_t j = 0;

			while (j < l->n && sli_verify_list_has_name(&manual, l->v[j].name))
				j++;
			while (j < l->n && !sli_verify_list_has_name(&manual, l->v[j].name))
				j++;
			if (j == l->n)
				continue;
			b = sli_verify_op_msg(v, kind);
			sli_buf_printf(b, " sharding at index %u must have all manual axes "
			               "come before free axes in its dimension sharding at "
			               "index %u. Saw manual axis ", i, d);
			sli_verify_put_axis(v, b, &l->v[j]);
			sli_buf_puts(b, " after free axis ");
			sli_verify_put_axis(v, b, &l->v[j - 1]);
			return sli_verify_emit(v);
		}
		if (!globals[i] || globals[i]->kind != SL_TYPE_TENSOR ||
		    globals[i]->unranked)
			continue;
		if (manual_local_type(v, kind, globals[i], s, mesh, &manual, &local))
			return -1;
		if (local != locals[i]) {
			b = sli_verify_op_msg(v, kind);
			sli_buf_printf(b, " shape, corresponding sharding, and region %s "
			               "shape at index %u must match. Expected local shape ",
			               kind, i);
			sli_verify_put_type(v, b, local);
			sli_buf_puts(b, ", actual local shape ");
			sli_verify_put_type(v, b, locals[i]);
			return sli_verify_emit(v);
		}
	}
	return 0;
}

/* Symbol-use verification of a manual computation. */
int
sli_verify_manual_uses(verifier *v, sl_op *op)
{
	const sl_attr *in = sli_comp_in_spv(op);
	const sl_attr *out = sli_result_spv(op);
	sl_axis_list manual = sli_verify_manual_axes(op);
	const sl_mesh *common = NULL, *empty = NULL;
	bool conflict = false;
	sl_type **g, **l;
	uint32_t nl;
	int rc;

	g = sli_verify_operand_types(op);
	l = sli_verify_arg_types(sli_verify_body_block(op), &nl);
	rc = verify_manual_values(v, op, "operand", g, op->noperands, l, nl, in);
	free(g);
	free(l);
	if (rc)
		return -1;
	g = sli_verify_result_types(op);
	l = sli_verify_term_types(sli_verify_body_terminator(op), &nl);
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
			const sl_mesh *m = sli_verify_sharding_mesh(v, a->u.spv.v[i], op);

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
		return sli_verify_op_error(v, NULL, "all in and out shardings must be bound to the "
		                           "same mesh or an empty mesh.");
	for (uint32_t i = 0; common && i < manual.n; i++)
		if (sli_mesh_axis_index(common, manual.v[i].name) < 0)
			return sli_verify_op_error(v, NULL, "unknown manual axis: \"%s\"",
			                           sli_verify_sym(v, manual.v[i].name));
	return 0;
}

static void
put_type_list(verifier *v, sli_buf *b, sl_type *const *t, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			sli_buf_puts(b, ", ");
		sli_verify_put_type(v, b, t[i]);
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
		b = sli_verify_plain_msg(v);
		sli_buf_printf(b, "number of %ss must match the number of %ss: %u != %u",
		               iname, oname, ni, no);
		return sli_verify_emit(v);
	}
	for (uint32_t i = 0; i < ni; i++) {
		if (inner[i] == outer[i])
			continue;
		b = sli_verify_plain_msg(v);
		sli_buf_printf(b, "expected the type of the %u'th %s to match the type "
		               "of the corresponding %s: ", i, iname, oname);
		sli_verify_put_type(v, b, inner[i]);
		sli_buf_puts(b, " vs ");
		sli_verify_put_type(v, b, outer[i]);
		return sli_verify_emit(v);
	}
	return 0;
}

int
sli_verify_named(verifier *v, sl_op *op)
{
	sl_type **ret, **res = sli_verify_result_types(op), **args, **opnds;
	uint32_t nret, nargs;
	bool same;
	int rc = 0;

	ret = sli_verify_term_types(sli_verify_body_terminator(op), &nret);
	same = nret == op->nresults;
	for (uint32_t i = 0; same && i < nret; i++)
		same = ret[i] == res[i];
	if (!same) {
		sli_buf *b = sli_verify_op_msg(v, NULL);

		sli_buf_puts(b, "inferred type(s) ");
		put_type_list(v, b, ret, nret);
		sli_buf_puts(b, " are incompatible with return type(s) of operation ");
		put_type_list(v, b, res, op->nresults);
		sli_verify_emit(v);
		rc = sli_verify_op_error(v, NULL, "failed to infer returned types");
	}
	args = sli_verify_arg_types(sli_verify_body_block(op), &nargs);
	opnds = sli_verify_operand_types(op);
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

int
sli_verify_named_uses(verifier *v, sl_op *op)
{
	const sl_attr *in = sli_comp_in_spv(op);
	const sl_attr *out = sli_result_spv(op);
	sl_type **t;
	int rc = 0;

	if (in) {
		t = sli_verify_operand_types(op);
		rc = sli_verify_spv_attr(v, "in_shardings ", in, t, op->noperands, op);
		free(t);
	}
	if (rc == 0 && out) {
		t = sli_verify_result_types(op);
		rc = sli_verify_spv_attr(v, "out_shardings ", out, t, op->nresults, op);
		free(t);
	}
	return rc;
}
