/*
 * verifier.c - what the parts of the verifier share: the message
 * builders that report the first failure as MLIR words it, and the IR
 * helpers they read ops with.
 */
#include "verify/verifier.h"

#include <stdlib.h>
#include <string.h>

#include "formats/mlir_printer.h"

/* ==================================================================
 * Messages
 * ================================================================== */

const char *
sli_verify_sym(const verifier *v, sl_sym s)
{
	return sl_sym_str(v->ctx, s);
}

/* Starts an op error: "'<op name>' op <pfx>". */
sli_buf *
sli_verify_op_msg(verifier *v, const char *pfx)
{
	v->msg.n = 0;
	sli_buf_printf(&v->msg, "'%s' op %s", sli_verify_sym(v, v->op->name), pfx ? pfx : "");
	return &v->msg;
}

/* Starts an error without the op prefix. */
sli_buf *
sli_verify_plain_msg(verifier *v)
{
	v->msg.n = 0;
	return &v->msg;
}

int
sli_verify_emit(verifier *v)
{
	if (v->quiet)
		return -1;
	sli_error(v->ctx, v->op->loc, "%s", sli_buf_cstr(&v->msg));
	return -1;
}

int
sli_verify_op_error(verifier *v, const char *pfx, const char *fmt, ...)
{
	va_list ap;

	sli_verify_op_msg(v, pfx);
	va_start(ap, fmt);
	sli_buf_vprintf(&v->msg, fmt, ap);
	va_end(ap);
	return sli_verify_emit(v);
}

void
sli_verify_emit_note(verifier *v, sl_loc loc)
{
	if (v->quiet)
		return;
	sli_diag(v->ctx, SL_DIAG_NOTE, loc, "%s", sli_buf_cstr(&v->note));
}

void
sli_verify_put_type(verifier *v, sli_buf *b, const sl_type *t)
{
	sli_buf_printf(b, "'%s'", t ? sli_verify_sym(v, t->text) : "<<NULL TYPE>>");
}

void
sli_verify_put_axis(verifier *v, sli_buf *b, const sl_axis_ref *r)
{
	sli_print_axis_ref(b, v->ctx, r);
}

/* An axis as the unreduced-transition messages name it: 'x' or 'x:(1)2'. */
void
sli_verify_put_axis_quoted(verifier *v, sli_buf *b, const sl_axis_ref *r)
{
	sli_buf_printf(b, "'%s", sli_verify_sym(v, r->name));
	if (r->sub)
		sli_buf_printf(b, ":(%lld)%lld", (long long)r->pre, (long long)r->size);
	sli_buf_putc(b, '\'');
}

/* [ "a", "b":(1)2 ] as the collective messages print expected axes. */
void
sli_verify_put_axis_array(verifier *v, sli_buf *b, const sl_axis_ref *r, size_t n)
{
	sli_buf_putc(b, '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			sli_buf_puts(b, ", ");
		sli_verify_put_axis(v, b, &r[i]);
	}
	sli_buf_putc(b, ']');
}

void
sli_verify_put_mesh(verifier *v, sli_buf *b, const sl_mesh *mesh)
{
	sli_buf_puts(b, "#sdy.mesh");
	sli_print_mesh_body(b, v->ctx, mesh);
}

const char *
sli_verify_reduction_name(sl_reduction r)
{
	return r == SL_RED_MAX ? "max" : r == SL_RED_MIN ? "min" : "sum";
}

/* ==================================================================
 * IR helpers
 * ================================================================== */

bool
sli_verify_has_trait(const sl_op *op, unsigned t)
{
	return op->kind < SL_OP__COUNT && (sli_op_info[op->kind].traits & t);
}

bool
sli_verify_is_isolated(const sl_op *op)
{
	return op->nregions > 0 && sli_verify_has_trait(op, T_ISO);
}

bool
sli_verify_is_collective(const sl_op *op)
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
sl_op *
sli_verify_arg_owner(const sl_value *val)
{
	if (val->def || !val->block || !val->block->parent)
		return NULL;
	return val->block->parent->parent;
}

/* The region a value is defined in. */
sl_region *
sli_verify_value_region(const sl_value *val)
{
	if (val->def)
		return val->def->parent ? val->def->parent->parent : NULL;
	return val->block ? val->block->parent : NULL;
}

/* Whether region r is `anc` or nested inside it. */
bool
sli_verify_region_within(const sl_region *r, const sl_region *anc)
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
sl_op *
sli_verify_body_terminator(const sl_op *op)
{
	if (op->nregions == 0 || !op->regions[0].first)
		return NULL;
	return op->regions[0].first->last;
}

sl_block *
sli_verify_body_block(const sl_op *op)
{
	return op->nregions > 0 ? op->regions[0].first : NULL;
}

/* An attribute of a given kind: by name first, else the first of that
 * kind among the op's inherent attributes. */
sl_attr *
sli_verify_find_kind(const sl_op *op, sl_sym name, sl_attr_kind kind)
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
sl_axis_list
sli_verify_manual_axes(const sl_op *op)
{
	sl_attr *a = sli_op_get(op, SLS_manual_axes);
	sl_axis_list none = {NULL, 0};

	if (a && (a->kind == SL_ATTR_MANUAL_AXES || a->kind == SL_ATTR_AXIS_REF_LIST))
		return a->u.axes;
	return none;
}

bool
sli_verify_list_has_name(const sl_axis_list *l, sl_sym name)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (l->v[i].name == name)
			return true;
	return false;
}

/* The outermost manual computation enclosing `at` (strictly) that makes
 * axis `name` manual, or NULL. */
sl_op *
sli_verify_manual_owner(const sl_op *at, sl_sym name)
{
	sl_op *owner = NULL;

	for (sl_op *p = sli_op_parent(at); p; p = sli_op_parent(p)) {
		sl_axis_list l;

		if (p->kind != SL_OP_SDY_MANUAL_COMPUTATION)
			continue;
		l = sli_verify_manual_axes(p);
		if (sli_verify_list_has_name(&l, name))
			owner = p;
	}
	return owner;
}

/* The mesh a sharding refers to, looked up from op `from`; NULL if none. */
const sl_mesh *
sli_verify_sharding_mesh(verifier *v, const sl_sharding *s, const sl_op *from)
{
	return sli_sharding_mesh_at(v->m, from, s);
}

/* Both shardings name the same mesh (same symbol, or equal inline meshes). */
bool
sli_verify_same_mesh_ref(const sl_sharding *a, const sl_sharding *b)
{
	if (a->mesh || b->mesh)
		return a->mesh && b->mesh && sli_mesh_equal(a->mesh, b->mesh);
	return a->mesh_name == b->mesh_name;
}

bool
sli_verify_fully_replicated(const sl_sharding *s)
{
	for (uint32_t i = 0; i < s->rank; i++)
		if (s->dims[i].axes.n)
			return false;
	return true;
}

/* The result types of a function from its function_type, or NULL. */
const sl_type *
sli_verify_func_type(const sl_op *f)
{
	sl_attr *a = sli_op_get(f, SLS_function_type);

	if (!a || a->kind != SL_ATTR_TYPE || !a->u.type ||
	    a->u.type->kind != SL_TYPE_FUNC)
		return NULL;
	return a->u.type;
}

void
sli_verify_seen_fini(axis_seen *s)
{
	SL_VEC_FREE(s->refs);
	SL_VEC_FREE(s->subs);
}
