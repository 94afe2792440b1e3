/*
 * insert_func_call_reshards.c - -sdy-insert-func-call-reshards
 * (sdy_export_passes.md): where a func.call's result sharding differs
 * from its callee's result sharding, the call takes the callee's
 * sharding and an `sdy.reshard` to the call's old one follows it; every
 * other use of the result then reads the reshard.  Calls are visited in
 * module walk order, and the reshards of one call are each inserted right
 * after the call, result 0 first (so they end up in reverse result order,
 * as the cases print them).  Arguments are left alone.
 *
 * Inferred from the cases (insert_func_call_reshards): a callee result
 * without a sharding counts as fully replicated, closed, on the mesh of
 * the call's sharding (012, 013); a call result without a sharding
 * simply takes the callee's, with no reshard, and nothing happens when
 * neither has one.  A call to a missing function is left alone, and so
 * is a result that feeds an sdy.func_data_flow_edge (not sunk yet: the
 * edge must read the call's result, so no reshard can go in between).
 */
#include "passes/pass.h"
#include "passes/passutil.h"

/* A closed, fully replicated sharding on the mesh of `like`. */
static sl_sharding *
replicated_like(sl_module *m, const sl_sharding *like)
{
	sl_sharding *s = sli_sharding_open(m, like->mesh_name, like->mesh, like->rank);
	for (uint32_t i = 0; i < s->rank; i++)
		s->dims[i].open = false;
	return s;
}

/* Inserts `sdy.reshard r <to>` right after call and sends r's other uses to it. */
static void
reshard_after(sl_module *m, sl_op *call, sl_value *r, const sl_sharding *to)
{
	sl_op *rs = sli_op_create(m, SL_OP_SDY_RESHARD, &r, 1, &r->type, 1, 0);
	rs->loc = call->loc;
	sli_result_set_sharding(m, rs, 0, to);
	if (call->next)
		sli_op_insert_before(call->next, rs);
	else
		sli_op_append(call->parent, rs);
	sli_value_replace_uses(r, &rs->results[0], rs);
}

/* Whether v feeds an sdy.func_data_flow_edge, which must read the call's
 * result itself. */
static bool
has_func_edge(const sl_value *v)
{
	sli_usevec uses = {0};
	bool edge = false;
	sli_value_uses(v, &uses);
	for (size_t k = 0; k < uses.n && !edge; k++)
		edge = uses.v[k].user->kind == SL_OP_SDY_FUNC_DATA_FLOW_EDGE;
	SL_VEC_FREE(uses);
	return edge;
}

static void
fix_call(sl_module *m, sl_op *call)
{
	sl_op *f = sli_call_func(m, call);
	uint32_t n = f ? sli_func_nresults(f) : 0;
	for (uint32_t i = 0; i < call->nresults && i < n; i++) {
		const sl_sharding *want = sli_func_res_sharding(f, i);
		sl_sharding *have = sli_result_sharding(call, i);
		if (has_func_edge(&call->results[i]))
			continue;
		if (!have) {
			if (want)
				sli_result_set_sharding(m, call, i, want);
			continue;
		}
		if (want && sli_sharding_equal(want, have))
			continue;
		sli_result_set_sharding(m, call, i, want ? want : replicated_like(m, have));
		reshard_after(m, call, &call->results[i], have);
	}
}

int
sli_pass_insert_func_call_reshards(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_opvec ops = {0};
	sli_collect_postorder(m->top, &ops);
	for (size_t i = 0; i < ops.n; i++)
		if (ops.v[i]->kind == SL_OP_CALL)
			fix_call(m, ops.v[i]);
	SL_VEC_FREE(ops);
	return 0;
}
