/*
 * symbol_dce.c - -symbol-dce, MLIR's pass as the import pipeline uses it
 * (spec/import-passes.md section 1.1): private symbols of the top module
 * that no live symbol refers to, transitively, are erased.  Symbols
 * without a visibility (meshes, public functions) are live.  Names are
 * resolved through a table built once (sym -> top-level ops of that name).
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdlib.h>
#include <string.h>

typedef struct dce {
	sl_module *m;
	sli_opvec work;
	sli_opvec top;			/* top-level ops; op->id is the position */
	SL_VEC(uint32_t) head;		/* per sym: 1 + position of its first op, or 0 */
	SL_VEC(uint32_t) next;		/* per position: 1 + next op of that name, or 0 */
	SL_VEC(unsigned char) live;	/* per position */
} dce;

static bool
is_private(sl_module *m, const sl_op *op)
{
	sl_attr *v = sli_op_get(op, SLS_sym_visibility);
	return v && v->kind == SL_ATTR_STRING && v->u.s.n == 7 && !memcmp(v->u.s.p, "private", 7);
}

/* Marks the top-level symbol `name` live (op->id = 1). */
static void
mark_name(dce *D, const char *p, size_t n)
{
	const char *sep = memchr(p, ':', n);
	if (sep)
		n = (size_t)(sep - p);
	sl_sym s = sl_sym_intern(D->m->ctx, p, n);
	for (uint32_t k = s < D->head.n ? D->head.v[s] : 0; k; k = D->next.v[k - 1])
		if (!D->live.v[k - 1]) {
			D->live.v[k - 1] = 1;
			SL_VEC_PUSH(D->work, D->top.v[k - 1]);
		}
}

/* One attribute of an sli_attr_visit walk: a symbol reference is live. */
static void
mark_ref(const sl_attr *a, void *ud)
{
	if (a->kind == SL_ATTR_SYMREF)
		mark_name(ud, a->u.text.p, a->u.text.n);
}

static void
mark_attr(dce *D, const sl_attr *a)
{
	sli_attr_visit(a, mark_ref, D);
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
	dce D;
	memset(&D, 0, sizeof D);
	D.m = m;
	for (sl_op *op = body->first; op; op = op->next)
		SL_VEC_PUSH(D.top, op);
	SL_VEC_RESERVE(D.next, D.top.n + 1);
	SL_VEC_RESERVE(D.live, D.top.n + 1);
	D.next.n = D.live.n = D.top.n;
	/* in reverse, so that each name lists its ops in module order */
	for (size_t k = D.top.n; k-- > 0;) {
		sl_op *op = D.top.v[k];
		sl_sym sym = sli_op_sym_name(m, op);
		D.next.v[k] = 0;
		if (sym) {
			if (sym >= D.head.n) {
				SL_VEC_RESERVE(D.head, (size_t)sym + 1);
				memset(D.head.v + D.head.n, 0,
				       sizeof *D.head.v * ((size_t)sym + 1 - D.head.n));
				D.head.n = (size_t)sym + 1;
			}
			D.next.v[k] = D.head.v[sym];
			D.head.v[sym] = (uint32_t)k + 1;
		}
		D.live.v[k] = !sym || !is_private(m, op);
	}
	for (size_t k = 0; k < D.top.n; k++)
		if (D.live.v[k])
			SL_VEC_PUSH(D.work, D.top.v[k]);
	while (D.work.n) {
		sl_op *op = D.work.v[--D.work.n];
		sli_walk(op, mark_op, &D);
	}
	for (size_t k = 0; k < D.top.n; k++)
		if (!D.live.v[k])
			sli_op_erase(D.top.v[k]);
	SL_VEC_FREE(D.work);
	SL_VEC_FREE(D.top);
	SL_VEC_FREE(D.head);
	SL_VEC_FREE(D.next);
	SL_VEC_FREE(D.live);
	return 0;
}
