/*
 * flatten_tuples.c - -flatten-tuples: the tuples JAX and XLA write, where
 * XLA would flatten them, become their elements, since Shardy shards
 * tensors and no tuple:
 *
 *   a custom call with a tuple result      one result per element
 *   a function returning a tuple           one result per element, and
 *                                          its calls likewise
 *   get_tuple_element of a stablehlo.tuple the tuple's operand
 *
 * Each rewritten op's old tuple result is rebuilt as a stablehlo.tuple of
 * the new results, so every other use still sees a tuple; the folding of
 * get_tuple_element then leaves those tuples unused, and they go.  A tuple
 * still used by anything else (a function argument, a loop) is left as it
 * is: propagation names it in a located error.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdlib.h>

typedef SL_VEC(sl_type *) typevec;
typedef SL_VEC(sl_value *) valvec;

/* The leaves of t (t itself unless a tuple), appended to out. */
static void
flat_types(sl_type *t, typevec *out)
{
	if (t->kind != SL_TYPE_TUPLE) {
		SL_VEC_PUSH(*out, t);
		return;
	}
	for (uint32_t i = 0; i < t->rank; i++)
		flat_types(t->types[i], out);
}

static bool
any_tuple(sl_type *const *v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (v[i]->kind == SL_TYPE_TUPLE)
			return true;
	return false;
}

/*
 * A value of type t built from the leaves at *k onward, a stablehlo.tuple
 * (nested as t) inserted before `at`, or the leaf itself.
 */
static sl_value *
rebuild(sl_module *m, sl_type *t, sl_value *const *leaves, size_t *k, sl_op *at)
{
	if (t->kind != SL_TYPE_TUPLE)
		return leaves[(*k)++];
	sl_value **el = SL_NEWN(&m->arena, sl_value *, t->rank + 1);
	for (uint32_t i = 0; i < t->rank; i++)
		el[i] = rebuild(m, t->types[i], leaves, k, at);
	sl_op *tu = sli_op_create(m, SL_OP_TUPLE, el, t->rank, &t, 1, 0);
	tu->loc = at->loc;
	sli_op_insert_before(at, tu);
	return &tu->results[0];
}

/*
 * The leaves of v appended to out: a stablehlo.tuple's operands, else a
 * get_tuple_element per element inserted before `at`.
 */
static void
flat_values(sl_module *m, sl_value *v, sl_op *at, valvec *out)
{
	sl_type *t = v->type;
	if (t->kind != SL_TYPE_TUPLE) {
		SL_VEC_PUSH(*out, v);
		return;
	}
	for (uint32_t i = 0; i < t->rank; i++) {
		sl_value *e;
		if (v->def && v->def->kind == SL_OP_TUPLE && i < v->def->noperands) {
			e = v->def->operands[i];
		} else {
			sl_op *g = sli_op_create(m, SL_OP_GET_TUPLE_ELEMENT, &v, 1, &t->types[i], 1, 0);
			g->loc = at->loc;
			sli_op_set_prop(m, g, sli_sym(m, "index"),
			                sli_attr_int(m, i, sli_type_elem(m->ctx, "i32", 3)));
			sli_op_insert_before(at, g);
			e = &g->results[0];
		}
		flat_values(m, e, at, out);
	}
}

/*
 * op again with the leaves of its result types as results (its operands,
 * attributes and location kept); uses of each old result are redirected,
 * through `map`, to a rebuilt tuple.  The old op is erased.
 */
static sl_op *
split_results(sl_module *m, sl_op *op, sli_vmap *map)
{
	typevec ts = {0};
	for (uint32_t i = 0; i < op->nresults; i++)
		flat_types(op->results[i].type, &ts);
	sl_op *n = sli_op_create(m, op->kind, op->operands, op->noperands, ts.v,
	                         (uint32_t)ts.n, 0);
	n->name = op->name;
	n->loc = op->loc;
	n->locattr = op->locattr;
	n->attrs = op->attrs;
	n->nattrs = op->nattrs;
	n->props = op->props;
	n->nprops = op->nprops;
	sli_op_insert_before(op, n);
	sl_value **leaves = SL_NEWN(&m->arena, sl_value *, ts.n + 1);
	for (size_t i = 0; i < ts.n; i++)
		leaves[i] = &n->results[i];
	size_t k = 0;
	for (uint32_t i = 0; i < op->nresults; i++)
		sli_vmap_set(map, &op->results[i],
		             rebuild(m, op->results[i].type, leaves, &k, op));
	SL_VEC_FREE(ts);
	sli_op_erase(op);
	return n;
}

/*
 * A function's tuple results become their leaves: the returns return the
 * leaves, result attributes of a tuple are dropped (those of the others
 * kept).  False when an argument is a tuple (left alone).
 */
static bool
flatten_func(sl_module *m, sl_op *f)
{
	sl_attr *ft = sli_op_get(f, SLS_function_type);
	if (!ft || ft->kind != SL_ATTR_TYPE || ft->u.type->kind != SL_TYPE_FUNC)
		return false;
	sl_type *fty = ft->u.type;
	if (any_tuple(fty->types, fty->rank) || !any_tuple(fty->types + fty->rank, fty->nres))
		return false;
	typevec ts = {0};
	sl_attr *ra = sli_op_get(f, SLS_res_attrs);
	sl_attr *na = NULL;
	if (ra && ra->kind == SL_ATTR_ARRAY && ra->u.arr.n == fty->nres)
		na = sli_attr_new(m, SL_ATTR_ARRAY);
	SL_VEC(sl_attr *) attrs = {0};
	for (uint32_t i = 0; i < fty->nres; i++) {
		size_t before = ts.n;
		flat_types(fty->types[fty->rank + i], &ts);
		bool tuple = fty->types[fty->rank + i]->kind == SL_TYPE_TUPLE;
		for (size_t k = before; na && k < ts.n; k++)
			SL_VEC_PUSH(attrs, tuple ? sli_attr_new(m, SL_ATTR_DICT) : ra->u.arr.v[i]);
		if (na && tuple && ra->u.arr.v[i]->kind == SL_ATTR_DICT && ra->u.arr.v[i]->u.dict.n)
			sli_diag(m->ctx, SL_DIAG_WARNING, f->loc, "the attributes of tuple "
			         "result %u are dropped: its elements become results", i);
	}
	sl_attr *nft = sli_attr_new(m, SL_ATTR_TYPE);
	nft->u.type = sli_type_func(m->ctx, fty->rank, fty->types, (uint32_t)ts.n, ts.v);
	sli_op_set_prop(m, f, SLS_function_type, nft);
	if (na) {
		na->u.arr.n = (uint32_t)attrs.n;
		na->u.arr.v = sli_arena_dup(&m->arena, attrs.v, sizeof *attrs.v * attrs.n);
		sli_op_set_prop(m, f, SLS_res_attrs, na);
	}
	SL_VEC_FREE(attrs);
	SL_VEC_FREE(ts);
	for (sl_block *b = f->nregions ? f->regions[0].first : NULL; b; b = b->next) {
		sl_op *ret = b->last;
		if (!ret || ret->kind != SL_OP_RETURN)
			continue;
		valvec vs = {0};
		for (uint32_t i = 0; i < ret->noperands; i++)
			flat_values(m, ret->operands[i], ret, &vs);
		sli_op_set_operands(m, ret, vs.v, (uint32_t)vs.n);
		SL_VEC_FREE(vs);
	}
	return true;
}

/* get_tuple_element of a stablehlo.tuple: its operand (through map). */
static void
fold_gte(sl_module *m, sl_op *g, sli_vmap *map)
{
	sl_value *t = sli_vmap_lookup(map, g->operands[0]);
	sl_attr *ix = sli_op_get(g, sli_sym(m, "index"));
	if (!t->def || t->def->kind != SL_OP_TUPLE || !ix || ix->kind != SL_ATTR_INT ||
	    ix->u.i.v < 0 || (uint64_t)ix->u.i.v >= t->def->noperands)
		return;
	sli_vmap_set(map, &g->results[0], sli_vmap_lookup(map, t->def->operands[ix->u.i.v]));
}

/* The tuples no op uses any more (after the folds) erased. */
static void
erase_dead_tuples(sl_module *m)
{
	bool again = true;
	while (again) {
		again = false;
		sli_compute_use_counts(m->top);
		sli_opvec ops = {0};
		sli_collect_postorder(m->top, &ops);
		for (size_t i = 0; i < ops.n; i++) {
			sl_op *op = ops.v[i];
			if ((op->kind == SL_OP_TUPLE || op->kind == SL_OP_GET_TUPLE_ELEMENT) &&
			    op->results[0].id == 0) {
				sli_op_erase(op);
				again = true;
			}
		}
		SL_VEC_FREE(ops);
	}
}

int
sli_pass_flatten_tuples(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_vmap map;
	sli_vmap_init(&map);
	sli_opvec ops = {0};
	bool changed = false;

	/* functions first, so that their calls see the new result types */
	sli_collect_preorder(m->top, &ops);
	for (size_t i = 0; i < ops.n; i++)
		if (ops.v[i]->kind == SL_OP_FUNC)
			changed |= flatten_func(m, ops.v[i]);
	for (size_t i = 0; i < ops.n; i++) {
		sl_op *op = ops.v[i];
		if (op->nresults && (op->kind == SL_OP_CUSTOM_CALL || op->kind == SL_OP_CALL)) {
			sl_type **rt = SL_NEWN(&m->arena, sl_type *, op->nresults);
			for (uint32_t k = 0; k < op->nresults; k++)
				rt[k] = op->results[k].type;
			sl_op *f = op->kind == SL_OP_CALL ? sli_call_func(m, op) : NULL;
			bool callee_flat = f && sli_func_nresults(f) != op->nresults;
			if (any_tuple(rt, op->nresults) && (op->kind == SL_OP_CUSTOM_CALL || callee_flat)) {
				ops.v[i] = split_results(m, op, &map);
				changed = true;
			}
		}
	}
	if (changed) {
		sli_replace_uses_map(m->top, &map);
		SL_VEC_FREE(ops);
		sli_collect_preorder(m->top, &ops);
	}
	/* get_tuple_element of a tuple, in order: nested ones fold too */
	for (size_t i = 0; i < ops.n; i++)
		if (ops.v[i]->kind == SL_OP_GET_TUPLE_ELEMENT && ops.v[i]->noperands == 1)
			fold_gte(m, ops.v[i], &map);
	SL_VEC_FREE(ops);
	if (map.n) {
		sli_replace_uses_map(m->top, &map);
		erase_dead_tuples(m);
	}
	sli_vmap_fini(&map);
	return 0;
}
