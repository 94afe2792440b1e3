/*
 * inline.c - -inline, MLIR's inliner for the calls shardlp's inputs have:
 * every func.call to a function of the module whose body is one block
 * ending in func.return is replaced by a copy of that body, its arguments
 * bound to the call's operands and the call's results to the returned
 * values; calls inside the copies are inlined in turn, and private
 * functions left without calls are erased (symbol-dce).  A call that
 * would inline a function into itself, directly or through others, is
 * left as it is (depth bound: the nesting of the call graph).  As MLIR's
 * inliner does, the callee's argument and result attributes (shardings
 * among them) are not carried over.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include "ir/rewrite.h"

typedef SL_VEC(sl_op *) opvec;

static int
find_calls(sl_op *op, void *ud)
{
	if (op->kind == SL_OP_CALL)
		SL_VEC_PUSH(*(opvec *)ud, op);
	return 0;
}

/* The function op holds: the func.func above it. */
static sl_op *
enclosing_func(sl_op *op)
{
	while (op && op->kind != SL_OP_FUNC)
		op = op->parent && op->parent->parent ? op->parent->parent->parent : NULL;
	return op;
}

/* Whether callee's body is one block that ends in func.return of as many
 * values as call has results. */
static bool
inlinable(const sl_op *call, const sl_op *callee)
{
	sl_block *b = callee ? sli_func_body(callee) : NULL;
	if (!b || b->next || !b->last || b->last->kind != SL_OP_RETURN)
		return false;
	return b->last->noperands == call->nresults && b->nargs == call->noperands;
}

/* Replaces call by a copy of callee's body. */
static void
inline_call(sl_module *m, sl_op *call, const sl_op *callee)
{
	sl_block *b = sli_func_body(callee);
	sli_vmap map;
	sli_vmap_init(&map);
	for (uint32_t i = 0; i < b->nargs; i++)
		sli_vmap_set(&map, &b->args[i], call->operands[i]);
	for (sl_op *op = b->first; op != b->last; op = op->next) {
		sl_op *copy = sli_op_clone(m, op, &map);
		sli_op_insert_before(call, copy);
	}
	for (uint32_t i = 0; i < call->nresults; i++)
		sli_value_replace_uses(&call->results[i],
		                       sli_vmap_lookup(&map, b->last->operands[i]), call);
	sli_vmap_fini(&map);
	sli_op_erase(call);
}

int
sli_pass_inline(sl_module *m, const sli_pass_opts *opts)
{
	opvec calls = {0};
	bool changed = false;
	/* each round inlines the calls the last one copied in: as many rounds
	 * as the call graph is deep, and no more than it has functions */
	size_t nfuncs = 0;
	sl_block *body = sli_module_body(m);
	for (sl_op *f = body ? body->first : NULL; f; f = f->next)
		nfuncs += f->kind == SL_OP_FUNC;
	for (size_t round = 0; round <= nfuncs; round++) {
		calls.n = 0;
		sli_walk(m->top, find_calls, &calls);
		size_t done = 0;
		for (size_t i = 0; i < calls.n; i++) {
			sl_op *call = calls.v[i];
			sl_op *callee = sli_call_func(m, call);
			if (!inlinable(call, callee) || callee == enclosing_func(call))
				continue;
			inline_call(m, call, callee);
			done++;
		}
		if (!done)
			break;
		changed = true;
	}
	SL_VEC_FREE(calls);
	return changed ? sli_pass_symbol_dce(m, opts) : 0;
}
