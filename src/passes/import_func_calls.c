/*
 * import_func_calls.c - -sdy-import-func-calls (spec/import-passes.md
 * section 2.11): every func.call becomes an `sdy.named_computation` named
 * after the callee's original name, holding the callee's body (moved for
 * the first call, cloned for later ones); the converted functions are
 * erased.  Option add-data-flow-edges-on-named-computations (default
 * true) then adds data-flow edges on every named computation.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool warned_multiple_calls;

/* A mesh that has no axes and one device id. */
static bool
maximal(sl_module *m, const sl_sharding *s)
{
	const sl_mesh *mesh = sli_sharding_mesh(m, s);
	return mesh && mesh->naxes == 0 && mesh->nids == 1;
}

/* The callee's argument shardings, when one is on a non-maximal mesh. */
static sl_attr *
in_shardings(sl_module *m, sl_op *f, uint32_t nargs, sl_value *const *args)
{
	sl_sharding *first = NULL;
	for (uint32_t i = 0; i < nargs && !first; i++) {
		sl_sharding *s = sli_func_arg_sharding(f, i);
		if (s && !maximal(m, s))
			first = s;
	}
	if (!first)
		return NULL;
	sl_sharding **v = SL_NEWN(&m->arena, sl_sharding *, nargs ? nargs : 1);
	for (uint32_t i = 0; i < nargs; i++) {
		v[i] = sli_func_arg_sharding(f, i);
		if (!v[i])
			v[i] = sli_sharding_open(m, first->mesh_name, first->mesh,
			                         sli_value_rank(args[i]));
	}
	return sli_attr_spv(m, v, nargs);
}

/* Moves the blocks of `from` into the empty region `to`. */
static void
move_region(sl_region *from, sl_region *to)
{
	to->first = from->first;
	to->last = from->last;
	for (sl_block *b = to->first; b; b = b->next) {
		b->parent = to;
		b->argattrs = NULL;
	}
	from->first = from->last = NULL;
}

static void
returns_to_sdy(sl_module *m, sl_region *r)
{
	for (sl_block *b = r->first; b; b = b->next) {
		sl_op *t = b->last;
		if (t && t->kind == SL_OP_RETURN) {
			t->kind = SL_OP_SDY_RETURN;
			t->name = sli_sym(m, "sdy.return");
		}
	}
}

/* A callee whose body was moved into a named computation. */
typedef struct moved {
	sl_sym callee;
	sl_region *region;
	sl_attr *in;		/* its argument shardings, read before the move */
} moved;

int
sli_pass_import_func_calls(sl_module *m, const sli_pass_opts *opts)
{
	bool edges = opts->import_calls.edges_on_named;
	sli_opvec calls = {0};
	if (sli_call_order(m, false, true, &calls)) {
		SL_VEC_FREE(calls);
		return -1;
	}
	SL_VEC(moved) done = {0};
	sli_opvec erase = {0};
	sl_sym thread = sli_sym(m, "execution_thread");
	/*
	 * Uses of the calls' results are redirected once at the end, in one
	 * walk, not one walk of the caller per call.
	 */
	sli_vmap pending;
	sli_vmap_init(&pending);
	sli_symidx done_at = {0};	/* callee -> its entry in done */
	int rc = 0;
	for (size_t k = 0; k < calls.n && !rc; k++) {
		sl_op *call = calls.v[k];
		sl_op *f = sli_call_func(m, call);
		sl_sym callee = sli_call_callee(m, call);
		if (!f) {
			sli_error(m->ctx, call->loc, "'func.call' op '%s' does not reference a valid function",
			          sl_sym_str(m->ctx, callee));
			rc = -1;
			break;
		}
		sl_type **rt = SL_NEWN(&m->arena, sl_type *, call->nresults + 1);
		for (uint32_t i = 0; i < call->nresults; i++)
			rt[i] = call->results[i].type;
		sl_op *nc = sli_op_create(m, SL_OP_SDY_NAMED_COMPUTATION, call->operands,
		                          call->noperands, rt, call->nresults, 1);
		sli_op_copy_loc(m, nc, call);
		const char *orig = sl_sym_str(m->ctx, sli_func_original_name(m, f));
		sli_op_set_prop(m, nc, SLS_name, sli_attr_string(m, orig, strlen(orig)));
		size_t di = sli_symidx_get(&done_at, callee);
		moved *prev = di == SIZE_MAX ? NULL : &done.v[di];
		sl_attr *in = prev ? prev->in : in_shardings(m, f, call->noperands, call->operands);
		if (in)
			sli_comp_set_in_spv(m, nc, in);
		sl_attr *out = sli_result_spv(call);
		if (out)
			sli_result_set_spv(m, nc, out);
		for (uint32_t i = 0; i < call->nattrs; i++)
			if (call->attrs[i].name != sli_sharding_list_name())
				sli_op_set_attr(m, nc, call->attrs[i].name, call->attrs[i].attr);
		sl_attr *th = sli_op_get(f, thread);
		if (th)
			sli_op_set_attr(m, nc, thread, th);
		if (!prev) {
			if (!sli_func_body(f)) {
				sli_error(m->ctx, call->loc,
				          "'func.call' op callee @%s is a declaration without a body",
				          sl_sym_str(m->ctx, callee));
				rc = -1;
				break;
			}
			move_region(&f->regions[0], &nc->regions[0]);
			returns_to_sdy(m, &nc->regions[0]);
			moved mv = {callee, &nc->regions[0], in};
			sli_symidx_set(&done_at, callee, done.n);
			SL_VEC_PUSH(done, mv);
			SL_VEC_PUSH(erase, f);
		} else {
			if (!warned_multiple_calls) {
				warned_multiple_calls = true;
				sli_diag(m->ctx, SL_DIAG_WARNING, call->loc,
				         "function @%s has multiple call ops, we need to clone the "
				         "function body for each call", sl_sym_str(m->ctx, callee));
			}
			/* the body cloned must use the named computations already */
			if (pending.n)
				sli_replace_uses_map(prev->region->parent, &pending);
			sli_vmap map;
			sli_vmap_init(&map);
			sli_region_clone_into(m, prev->region, &nc->regions[0], &map);
			sli_vmap_fini(&map);
		}
		sli_op_insert_before(call, nc);
		for (uint32_t i = 0; i < call->nresults; i++)
			sli_vmap_set(&pending, &call->results[i], &nc->results[i]);
		sli_op_erase(call);
	}
	if (pending.n)
		sli_replace_uses_map(m->top, &pending);
	sli_vmap_fini(&pending);
	for (size_t i = 0; i < erase.n; i++)
		sli_op_erase(erase.v[i]);
	SL_VEC_FREE(erase);
	SL_VEC_FREE(done);
	sli_symidx_fini(&done_at);
	SL_VEC_FREE(calls);
	if (rc || !edges)
		return rc;
	sli_opvec ops = {0}, named = {0};
	sli_collect_postorder(m->top, &ops);
	for (size_t i = 0; i < ops.n; i++)
		if (ops.v[i]->kind == SL_OP_SDY_NAMED_COMPUTATION)
			SL_VEC_PUSH(named, ops.v[i]);
	sli_add_data_flow_edges_all(m, named.v, named.n);
	SL_VEC_FREE(named);
	SL_VEC_FREE(ops);
	return 0;
}
