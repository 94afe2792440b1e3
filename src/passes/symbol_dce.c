/*
 * symbol_dce.c - -symbol-dce, MLIR's pass as the import pipeline uses it
 * (spec/import-passes.md section 1.1): private symbols of the top module
 * that no live symbol refers to, transitively, are erased.  Symbols
 * without a visibility (meshes, public functions) are live.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdlib.h>
#include <string.h>

typedef struct dce {
	sl_module *m;
	sli_opvec work;
} dce;

static bool
is_private(sl_module *m, const sl_op *op)
{
	sl_attr *v = sli_op_get(op, SLS_sym_visibility);
	return v && v->kind == SL_ATTR_STRING && v->u.s.n == 7 && !memcmp(v->u.s.p, "private", 7);
}

static void mark_attr(dce *D, const sl_attr *a);

/* Marks the top-level symbol `name` live (op->id = 1). */
static void
mark_name(dce *D, const char *p, size_t n)
{
	const char *sep = memchr(p, ':', n);
	if (sep)
		n = (size_t)(sep - p);
	sl_sym s = sl_sym_intern(D->m->ctx, p, n);
	sl_block *body = sli_module_body(D->m);
	for (sl_op *op = body->first; op; op = op->next)
		if (!op->id && sli_op_sym_name(D->m, op) == s) {
			op->id = 1;
			SL_VEC_PUSH(D->work, op);
		}
}

static void
mark_attr(dce *D, const sl_attr *a)
{
	if (!a)
		return;
	switch (a->kind) {
	case SL_ATTR_SYMREF:
		mark_name(D, a->u.text.p, a->u.text.n);
		break;
	case SL_ATTR_ARRAY:
		for (uint32_t i = 0; i < a->u.arr.n; i++)
			mark_attr(D, a->u.arr.v[i]);
		break;
	case SL_ATTR_DICT:
		for (uint32_t i = 0; i < a->u.dict.n; i++)
			mark_attr(D, a->u.dict.v[i].attr);
		break;
	default:
		break;
	}
}

static int
mark_op(sl_op *op, void *ud)
{
	dce *D = ud;
	for (uint32_t i = 0; i < op->nattrs; i++)
		mark_attr(D, op->attrs[i].attr);
	for (uint32_t i = 0; i < op->nprops; i++)
		mark_attr(D, op->props[i].attr);
	return 0;
}

int
sli_pass_symbol_dce(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sl_block *body = sli_module_body(m);
	if (!body)
		return 0;
	dce D = {m, {0}};
	for (sl_op *op = body->first; op; op = op->next) {
		bool sym = sli_op_sym_name(m, op) != 0;
		op->id = !sym || !is_private(m, op);
		if (op->id)
			SL_VEC_PUSH(D.work, op);
	}
	while (D.work.n) {
		sl_op *op = D.work.v[--D.work.n];
		sli_walk(op, mark_op, &D);
	}
	SL_VEC_FREE(D.work);
	sl_op *next;
	for (sl_op *op = body->first; op; op = next) {
		next = op->next;
		if (!op->id)
			sli_op_erase(op);
	}
	return 0;
}
