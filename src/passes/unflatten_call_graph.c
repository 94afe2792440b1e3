/*
 * unflatten_call_graph.c - -sdy-unflatten-call-graph (spec/propagation.md
 * section 8.1, step 16; sdy_export_passes.md): the clones of one original
 * function (sdy.original_func_name, else the function's own name) with
 * the same sdy.func_manual_axes form a group.  By default a call is sent
 * to the first callee met (calls in module walk order) of its group with
 * the same argument and result shardings.  With dedup-functions-fully
 * every call of a group goes to one callee whatever its shardings: the
 * first met, replaced by the callee of a later call whose sharding
 * signature has then been called strictly more often than the chosen
 * callee's.  Then
 * sdy.original_func_name and sdy.func_manual_axes leave every function;
 * symbol-dce removes the unused clones afterwards.
 *
 * Inferred from the cases (unflatten_call_graph_dedup_functions_fully_true):
 * a call whose operands or results now disagree with the shardings of
 * the callee it is sent to keeps them as they are, no reshard is added
 * (case 001 keeps a call whose operand sharding differs from the callee's
 * argument sharding untouched).
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdint.h>
#include <stdlib.h>

#include "util.h"

static bool
same(const sl_sharding *a, const sl_sharding *b)
{
	return a == b || (a && b && sli_sharding_equal(a, b));
}

static bool
same_shardings(const sl_op *f, const sl_op *g)
{
	sl_block *a = sli_func_body(f), *b = sli_func_body(g);
	uint32_t na = a ? a->nargs : 0, nb = b ? b->nargs : 0;
	if (na != nb || sli_func_nresults(f) != sli_func_nresults(g))
		return false;
	for (uint32_t i = 0; i < na; i++)
		if (!same(sli_func_arg_sharding(f, i), sli_func_arg_sharding(g, i)))
			return false;
	for (uint32_t i = 0; i < sli_func_nresults(f); i++)
		if (!same(sli_func_res_sharding(f, i), sli_func_res_sharding(g, i)))
			return false;
	return true;
}

/* The functions that may replace one another: same origin, same manual axes. */
typedef struct group {
	const sl_attr *manual;	/* sdy.func_manual_axes, or NULL */
	size_t next;		/* next group of the same origin, or SIZE_MAX */
	size_t first_class;	/* its first sharding signature */
	size_t chosen;		/* class of the callee all its calls get (dedup) */
	sl_op *callee;		/* that callee */
} group;

/* One sharding signature of a group: the first function met with it. */
typedef struct sigclass {
	sl_op *func;
	size_t group;
	size_t next;		/* next class of the group, or SIZE_MAX */
	size_t calls;		/* calls counted so far (dedup) */
} sigclass;

typedef struct unflatten {
	sl_module *m;
	sl_sym manual_name;
	SL_VEC(group) groups;
	SL_VEC(sigclass) classes;
	sli_symidx first_group;	/* by original name */
} unflatten;

static size_t
find_group(unflatten *u, sl_op *f)
{
	sl_sym orig = sli_func_original_name(u->m, f);
	const sl_attr *manual = sli_op_get(f, u->manual_name);
	size_t last = SIZE_MAX;
	for (size_t g = sli_symidx_get(&u->first_group, orig); g != SIZE_MAX;
	     g = u->groups.v[g].next) {
		if (sli_attr_equal(u->groups.v[g].manual, manual))
			return g;
		last = g;
	}
	group n = {manual, SIZE_MAX, SIZE_MAX, SIZE_MAX, f};
	if (last == SIZE_MAX)
		sli_symidx_set(&u->first_group, orig, u->groups.n);
	else
		u->groups.v[last].next = u->groups.n;
	SL_VEC_PUSH(u->groups, n);
	return u->groups.n - 1;
}

/* The class of f's sharding signature in its group, added when new. */
static size_t
find_class(unflatten *u, sl_op *f)
{
	size_t g = find_group(u, f), last = SIZE_MAX;
	for (size_t c = u->groups.v[g].first_class; c != SIZE_MAX; c = u->classes.v[c].next) {
		if (u->classes.v[c].func == f || same_shardings(u->classes.v[c].func, f))
			return c;
		last = c;
	}
	sigclass n = {f, g, SIZE_MAX, 0};
	if (last == SIZE_MAX)
		u->groups.v[g].first_class = u->classes.n;
	else
		u->classes.v[last].next = u->classes.n;
	SL_VEC_PUSH(u->classes, n);
	return u->classes.n - 1;
}

/*
 * The callee each group's calls get, by Shardy's counting (see the head
 * comment): the callee of the call whose count overtakes, which may be a
 * later function with the signature than the class's first.
 */
static void
choose_fully(unflatten *u, sl_op *const *callees, const size_t *cls, size_t ncalls)
{
	for (size_t i = 0; i < ncalls; i++) {
		if (cls[i] == SIZE_MAX)
			continue;
		sigclass *c = &u->classes.v[cls[i]];
		group *g = &u->groups.v[c->group];
		c->calls++;
		if (g->chosen == SIZE_MAX)
			g->chosen = cls[i];
		else if (c->calls > u->classes.v[g->chosen].calls) {
			g->chosen = cls[i];
			g->callee = callees[i];
		}
	}
}

static void
strip_func_attrs(sl_module *m)
{
	sl_sym orig = sli_sym(m, "sdy.original_func_name");
	sl_sym manual = sli_sym(m, "sdy.func_manual_axes");
	sl_block *body = sli_module_body(m);
	for (sl_op *f = body ? body->first : NULL; f; f = f->next) {
		if (f->kind != SL_OP_FUNC)
			continue;
		sli_op_set_attr(m, f, orig, NULL);
		sli_op_set_attr(m, f, manual, NULL);
	}
}

int
sli_pass_unflatten_call_graph(sl_module *m, const sli_pass_opts *opts)
{
	bool fully = opts->pipeline.dedup_fully;
	unflatten u = {m, sli_sym(m, "sdy.func_manual_axes"), {0}, {0}, {0}};
	sli_opvec ops = {0};
	SL_VEC(sl_op *) calls = {0};
	sli_collect_preorder(m->top, &ops);
	for (size_t i = 0; i < ops.n; i++)
		if (ops.v[i]->kind == SL_OP_CALL)
			SL_VEC_PUSH(calls, ops.v[i]);
	size_t *cls = sli_xcalloc(calls.n ? calls.n : 1, sizeof *cls);
	sl_op **callees = sli_xcalloc(calls.n ? calls.n : 1, sizeof *callees);
	for (size_t i = 0; i < calls.n; i++) {
		/*
		 * The first class of a call to an existing function is the
		 * callee's own, so the callee of a new group (group.callee)
		 * is the function of its first call.
		 */
		sl_op *f = sli_call_func(m, calls.v[i]);
		callees[i] = f;
		cls[i] = f ? find_class(&u, f) : SIZE_MAX;
	}
	if (fully)
		choose_fully(&u, callees, cls, calls.n);
	for (size_t i = 0; i < calls.n; i++) {
		if (cls[i] == SIZE_MAX)
			continue;
		const sigclass *c = &u.classes.v[cls[i]];
		sl_op *to = fully ? u.groups.v[c->group].callee : c->func;
		if (to != callees[i])
			sli_call_set_callee(m, calls.v[i], sli_op_sym_name(m, to));
	}
	free(callees);
	free(cls);
	sli_symidx_fini(&u.first_group);
	SL_VEC_FREE(u.classes);
	SL_VEC_FREE(u.groups);
	SL_VEC_FREE(calls);
	SL_VEC_FREE(ops);
	strip_func_attrs(m);
	return 0;
}
