/*
 * callgraph.c - functions and calls for the passes that reshape the call
 * graph (spec/import-passes.md section 0.2): op orders, function and call
 * orders, recursive cloning of a function, the main function.
 */
#include "passes/callgraph.h"

#include <string.h>

sl_sym
sli_func_original_name(sl_module *m, const sl_op *func)
{
	sl_attr *a = sli_op_attr(func, sli_sym(m, "sdy.original_func_name"));
	if (a && a->kind == SL_ATTR_STRING)
		return sli_attr_sym(m->ctx, a);
	return sli_op_sym_name(m, func);
}

static void
postorder(sl_op *op, sli_opvec *out)
{
	for (uint32_t r = 0; r < op->nregions; r++)
		for (sl_block *b = op->regions[r].first; b; b = b->next)
			for (sl_op *o = b->first; o; o = o->next)
				postorder(o, out);
	SL_VEC_PUSH(*out, op);
}

void
sli_collect_postorder(sl_op *root, sli_opvec *out)
{
	for (uint32_t r = 0; r < root->nregions; r++)
		for (sl_block *b = root->regions[r].first; b; b = b->next)
			for (sl_op *o = b->first; o; o = o->next)
				postorder(o, out);
}

static int
push_op(sl_op *op, void *ud)
{
	SL_VEC_PUSH(*(sli_opvec *)ud, op);
	return 0;
}

void
sli_collect_preorder(sl_op *root, sli_opvec *out)
{
	for (uint32_t r = 0; r < root->nregions; r++)
		for (sl_block *b = root->regions[r].first; b; b = b->next)
			for (sl_op *o = b->first; o; o = o->next)
				sli_walk(o, push_op, out);
}

/* DFS state: op->id of a function is 0 unvisited, 1 on the stack, 2 done. */
typedef struct cg {
	sl_module *m;
	bool check;
	int rc;
	sli_opvec post;
} cg;

static void
cg_visit(cg *g, sl_op *func)
{
	func->id = 1;
	sli_opvec ops = {0};
	sli_collect_preorder(func, &ops);
	for (size_t i = 0; i < ops.n && !g->rc; i++) {
		sl_op *call = ops.v[i];
		if (call->kind != SL_OP_CALL)
			continue;
		sl_op *callee = sli_call_func(g->m, call);
		if (!callee) {
			if (g->check) {
				sl_sym s = sli_call_callee(g->m, call);
				sli_error(g->m->ctx, call->loc,
				          "'func.call' op '%s' does not reference a valid function",
				          sl_sym_str(g->m->ctx, s));
				g->rc = -1;
			}
			continue;
		}
		if (callee->id == 1 && g->check) {
			sli_error(g->m->ctx, call->loc,
			          "recursive call to @%s: the call graph must be acyclic",
			          sl_sym_str(g->m->ctx, sli_op_sym_name(g->m, callee)));
			g->rc = -1;
		}
		if (!callee->id)
			cg_visit(g, callee);
	}
	SL_VEC_FREE(ops);
	func->id = 2;
	SL_VEC_PUSH(g->post, func);
}

int
sli_func_order(sl_module *m, bool preorder, bool check, sli_opvec *out)
{
	cg g = {m, check, 0, {0}};
	sl_block *body = sli_module_body(m);
	for (sl_op *op = body ? body->first : NULL; op; op = op->next)
		if (op->kind == SL_OP_FUNC)
			op->id = 0;
	for (sl_op *op = body ? body->first : NULL; op && !g.rc; op = op->next)
		if (op->kind == SL_OP_FUNC && !op->id)
			cg_visit(&g, op);
	for (size_t i = 0; i < g.post.n; i++)
		SL_VEC_PUSH(*out, g.post.v[preorder ? g.post.n - 1 - i : i]);
	SL_VEC_FREE(g.post);
	return g.rc;
}

int
sli_call_order(sl_module *m, bool preorder, bool check, sli_opvec *out)
{
	sli_opvec funcs = {0};
	int rc = sli_func_order(m, preorder, check, &funcs);
	for (size_t i = 0; !rc && i < funcs.n; i++) {
		sli_opvec ops = {0};
		if (preorder)
			sli_collect_preorder(funcs.v[i], &ops);
		else
			sli_collect_postorder(funcs.v[i], &ops);
		for (size_t j = 0; j < ops.n; j++)
			if (ops.v[j]->kind == SL_OP_CALL)
				SL_VEC_PUSH(*out, ops.v[j]);
		SL_VEC_FREE(ops);
	}
	SL_VEC_FREE(funcs);
	return rc;
}

sl_op *
sli_clone_func_recursively(sli_symtab *t, sl_op *func)
{
	sl_module *m = t->m;
	sl_sym orig = sli_func_original_name(m, func);
	sli_vmap map;
	sli_vmap_init(&map);
	sl_op *c = sli_op_clone(m, func, &map);
	sli_vmap_fini(&map);
	const char *os = sl_sym_str(m->ctx, orig);
	sli_op_set_attr(m, c, sli_sym(m, "sdy.original_func_name"),
	                sli_attr_string(m, os, strlen(os)));
	sli_opvec ops = {0};
	sli_collect_preorder(c, &ops);
	for (size_t i = 0; i < ops.n; i++) {
		if (ops.v[i]->kind != SL_OP_CALL)
			continue;
		sl_op *callee = sli_call_func(m, ops.v[i]);
		if (!callee)
			continue;
		sl_op *cc = sli_clone_func_recursively(t, callee);
		sli_call_set_callee(m, ops.v[i], sli_op_sym_name(m, cc));
	}
	SL_VEC_FREE(ops);
	sli_symtab_insert(t, c, NULL);
	return c;
}

sl_op *
sli_main_func(sl_module *m)
{
	sl_block *body = sli_module_body(m);
	sl_op *only = NULL, *main = NULL;
	int n = 0;
	sl_sym ms = sli_sym(m, "main");
	for (sl_op *op = body ? body->first : NULL; op; op = op->next) {
		if (op->kind != SL_OP_FUNC)
			continue;
		n++;
		only = op;
		if (sli_op_sym_name(m, op) == ms)
			main = op;
	}
	return n == 1 ? only : main;
}
