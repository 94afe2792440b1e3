/*
 * export_named_computations.c - -sdy-export-named-computations (export;
 * spec/import-passes.md section 4): every `sdy.named_computation`, inner
 * ones first, becomes a private function named after it (uniqued through
 * one symbol table) and a `func.call`; the shardings of its data-flow
 * edges (or its in_shardings) become the argument shardings, those of
 * its result edges (or its out_shardings) the call's, and the edges go
 * away.  The function gets no result shardings, as in Shardy (the cases
 * of export_named_computations print none); in the propagation pipeline
 * sdy-propagate-to-func-results sets them afterwards.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdlib.h>
#include <string.h>

/* The sharding of v's data-flow edge, removing the edge; else `dflt`. */
/*
 * The rewrites of the pass: the first edge of every owner, found in one
 * walk, and the uses to redirect, applied in two walks at the end (edge
 * results to their inputs, then computation results to call results).
 */
typedef struct exporter {
	sli_vmap edge;		/* owner -> result of its first data_flow_edge */
	sli_vmap unedge;	/* edge result -> owner */
	sli_vmap results;	/* named computation result -> call result */
} exporter;

static sl_sharding *
take_edge(exporter *X, const sl_value *v, sl_sharding *dflt)
{
	sl_value *r = sli_vmap_get(&X->edge, v);
	sl_op *e = r ? r->def : NULL;
	if (!e)
		return dflt;
	sl_sharding *s = sli_result_sharding(e, 0);
	sli_vmap_set(&X->unedge, &e->results[0], e->operands[0]);
	sli_op_erase(e);
	return s ? s : dflt;
}

static void
export_one(sl_module *m, sli_symtab *syms, exporter *X, sl_op *nc)
{
	sl_block *b = nc->regions[0].first;
	sl_attr *na = sli_op_get(nc, SLS_name);
	sl_sym thread = sli_sym(m, "execution_thread");
	uint32_t nin = b->nargs, nres = nc->nresults;
	sl_sharding **in = SL_NEWN(&m->arena, sl_sharding *, nin + 1);
	sl_sharding **out = SL_NEWN(&m->arena, sl_sharding *, nres + 1);
	sl_type **tin = SL_NEWN(&m->arena, sl_type *, nin + 1);
	sl_type **tres = SL_NEWN(&m->arena, sl_type *, nres + 1);
	bool any_out = false;
	for (uint32_t i = 0; i < nin; i++) {
		in[i] = take_edge(X, &b->args[i], sli_comp_in_sharding(nc, i));
		tin[i] = b->args[i].type;
	}
	for (uint32_t i = 0; i < nres; i++) {
		out[i] = take_edge(X, &nc->results[i], sli_result_sharding(nc, i));
		tres[i] = nc->results[i].type;
		any_out |= out[i] != NULL;
	}
	sl_op *f = sli_op_create(m, SL_OP_FUNC, NULL, 0, NULL, 0, 1);
	f->loc = nc->loc;
	sli_op_set_prop(m, f, SLS_sym_name, na);
	sli_op_set_prop(m, f, SLS_sym_visibility, sli_attr_string(m, "private", 7));
	sl_attr *ft = sli_attr_new(m, SL_ATTR_TYPE);
	ft->u.type = sli_type_func(m->ctx, nin, tin, nres, tres);
	sli_op_set_prop(m, f, SLS_function_type, ft);
	sli_op_set_attr(m, f, sli_sym(m, "sdy.original_func_name"), na);
	sl_attr *th = sli_op_attr(nc, thread);
	if (th)
		sli_op_set_attr(m, f, thread, th);
	f->regions[0].first = nc->regions[0].first;
	f->regions[0].last = nc->regions[0].last;
	for (sl_block *bb = f->regions[0].first; bb; bb = bb->next)
		bb->parent = &f->regions[0];
	nc->regions[0].first = nc->regions[0].last = NULL;
	sl_op *t = b->last;
	if (t && t->kind == SL_OP_SDY_RETURN) {
		t->kind = SL_OP_RETURN;
		t->name = sli_sym(m, "func.return");
	}
	for (uint32_t i = 0; i < nin; i++)
		if (in[i])
			sli_func_set_arg_sharding(m, f, i, in[i]);
	sl_sym name = sli_symtab_insert(syms, f, NULL);

	sl_op *call = sli_op_create(m, SL_OP_CALL, nc->operands, nc->noperands, tres, nres, 0);
	sli_op_copy_loc(m, call, nc);
	sli_call_set_callee(m, call, name);
	for (uint32_t i = 0; i < nc->nattrs; i++)
		if (nc->attrs[i].name != thread)
			sli_op_set_attr(m, call, nc->attrs[i].name, nc->attrs[i].attr);
	if (any_out) {
		for (uint32_t i = 0; i < nres; i++)
			if (!out[i])
				for (uint32_t k = 0; k < nres && !out[i]; k++)
					if (out[k])
						out[i] = sli_sharding_open(m, out[k]->mesh_name, out[k]->mesh,
						                           sli_value_rank(&nc->results[i]));
		sli_result_set_spv(m, call, sli_attr_spv(m, out, nres));
	}
	sli_op_insert_before(nc, call);
	for (uint32_t i = 0; i < nres; i++)
		sli_vmap_set(&X->results, &nc->results[i], &call->results[i]);
	sli_op_erase(nc);
}

int
sli_pass_export_named_computations(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_symtab syms;
	sli_symtab_init(&syms, m);
	exporter X;
	sli_vmap_init(&X.edge);
	sli_vmap_init(&X.unedge);
	sli_vmap_init(&X.results);
	sli_opvec ops = {0};
	sli_collect_preorder(m->top, &ops);
	for (size_t i = 0; i < ops.n; i++) {
		sl_op *e = ops.v[i];
		if (e->kind == SL_OP_SDY_DATA_FLOW_EDGE && e->noperands == 1 &&
		    !sli_vmap_get(&X.edge, e->operands[0]))
			sli_vmap_set(&X.edge, e->operands[0], &e->results[0]);
	}
	ops.n = 0;
	sli_collect_postorder(m->top, &ops);
	for (size_t i = 0; i < ops.n; i++)
		if (ops.v[i]->kind == SL_OP_SDY_NAMED_COMPUTATION && ops.v[i]->nregions &&
		    ops.v[i]->regions[0].first)
			export_one(m, &syms, &X, ops.v[i]);
	SL_VEC_FREE(ops);
	if (X.unedge.n)
		sli_replace_uses_map(m->top, &X.unedge);
	if (X.results.n)
		sli_replace_uses_map(m->top, &X.results);
	sli_vmap_fini(&X.edge);
	sli_vmap_fini(&X.unedge);
	sli_vmap_fini(&X.results);
	sli_symtab_fini(&syms);
	return 0;
}
