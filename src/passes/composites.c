/*
 * composites.c - -import-composites and -export-composites: a
 * `stablehlo.composite` is, for sharding, a call of its decomposition
 * function (XLA lowers it to an HLO call with is_composite too).  Import
 * turns each composite whose decomposition is a function of the module
 * into a `func.call` of it, its name, attributes and version kept in a
 * `shardlp.composite` dictionary on the call; the call-graph steps of the
 * pipeline, propagation, the cost model and the ILP then see the
 * decomposition's body as they see any callee's.  Export turns the calls
 * that carry the dictionary back into composites of the function they
 * call (which the call-graph export may have renamed).  The ops are
 * changed in place: operands, results, locations and other attributes
 * stay.
 */
#include "passes/pass.h"
#include "passes/passutil.h"
#include "passes/symtab.h"

#define MARK "shardlp.composite"
#define DECOMPOSITION "decomposition"

static void
to_call(sl_module *m, sl_op *op, sl_sym callee)
{
	sl_sym decomposition = sli_sym(m, DECOMPOSITION);
	sl_attr *d = sli_attr_new(m, SL_ATTR_DICT);
	sl_named_attr *v = SL_NEWN(&m->arena, sl_named_attr, op->nprops ? op->nprops : 1);
	uint32_t n = 0;
	for (uint32_t i = 0; i < op->nprops; i++)
		if (op->props[i].name != decomposition)
			v[n++] = op->props[i];
	d->u.dict.v = v;
	d->u.dict.n = n;
	op->props = NULL;
	op->nprops = 0;
	op->kind = SL_OP_CALL;
	op->name = sli_sym(m, "func.call");
	sli_call_set_callee(m, op, callee);
	sli_op_set_attr(m, op, sli_sym(m, MARK), d);
}

static void
to_composite(sl_module *m, sl_op *op, const sl_attr *d)
{
	sl_attr *callee = sli_op_prop(op, SLS_callee);
	op->props = NULL;
	op->nprops = 0;
	for (uint32_t i = 0; i < d->u.dict.n; i++)
		sli_op_set_prop(m, op, d->u.dict.v[i].name, d->u.dict.v[i].attr);
	sli_op_set_prop(m, op, sli_sym(m, DECOMPOSITION), callee);
	sli_op_set_attr(m, op, sli_sym(m, MARK), NULL);
	op->kind = SL_OP_COMPOSITE;
	op->name = sli_sym(m, "stablehlo.composite");
}

sl_op *
sli_composite_func(sl_module *m, const sl_op *op)
{
	sl_attr *a = sli_op_prop(op, sli_sym(m, DECOMPOSITION));
	if (op->kind != SL_OP_COMPOSITE || !a || a->kind != SL_ATTR_SYMREF)
		return NULL;
	return sli_lookup_func(m, sli_attr_sym(m->ctx, a));
}

static int
import_one(sl_op *op, void *ud)
{
	sl_module *m = ud;
	sl_op *f = sli_composite_func(m, op);
	/* a composite of a missing function stays, unknown to the rules */
	if (f)
		to_call(m, op, sli_op_sym_name(m, f));
	return 0;
}

static int
export_one(sl_op *op, void *ud)
{
	sl_module *m = ud;
	if (op->kind != SL_OP_CALL)
		return 0;
	const sl_attr *d = sli_op_attr(op, sli_sym(m, MARK));
	sl_attr *callee = sli_op_prop(op, SLS_callee);
	if (d && d->kind == SL_ATTR_DICT && callee && callee->kind == SL_ATTR_SYMREF)
		to_composite(m, op, d);
	return 0;
}

int
sli_pass_import_composites(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_walk(m->top, import_one, m);
	return 0;
}

int
sli_pass_export_composites(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_walk(m->top, export_one, m);
	return 0;
}
