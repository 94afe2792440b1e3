/*
 * flatten_tuples.c - -flatten-tuples: the tuples JAX and XLA write, where
 * XLA would flatten them, become their elements, since Shardy shards
 * tensors and no tuple:
 *
 *   a custom call with a tuple result      one result per element
 *   a function taking or returning a tuple one argument or result per
 *                                          element, and its calls likewise
 *   get_tuple_element of a stablehlo.tuple the tuple's operand
 *
 * Each rewritten tuple value (result or argument) is rebuilt as a
 * stablehlo.tuple of the new values, so every other use still sees a
 * tuple; the folding of get_tuple_element then leaves those tuples
 * unused, and they go.  A tuple still used by anything else (a loop, an
 * op of its own) is left as it is: propagation names it in a located
 * error.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include "formats/gspmd.h"

#include <stdlib.h>

typedef SL_VEC(sl_type *) typevec;
typedef SL_VEC(sl_value *) valvec;
typedef SL_VEC(const sli_hlo_sharding *) hlovec;

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
	sli_op_copy_loc(m, n, op);
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

/* The leaf shardings of h, in order, appended to out. */
static void
leaf_shardings(const sli_hlo_sharding *h, hlovec *out)
{
	if (h->kind != SLI_HLO_TUPLE) {
		SL_VEC_PUSH(*out, h);
		return;
	}
	for (uint32_t i = 0; i < h->nelems; i++)
		leaf_shardings(&h->elems[i], out);
}

/*
 * The attributes (v, n) of a tuple value of n leaves, spread over them:
 * its GSPMD tuple sharding {{...}, {...}} gives each leaf its element as
 * mhlo.sharding, which the import then reads (a sharding that is no
 * tuple holds for every leaf).  out[i] is leaf i's dictionary (empty
 * when nothing fits).  True when the value's attributes all found a
 * place.
 */
static bool
spread_attrs(sl_module *m, const sl_named_attr *v, uint32_t n, uint32_t nleaves,
             sl_attr **out)
{
	sl_sym key = sli_sym(m, "mhlo.sharding");
	sl_attr *str = sli_dict_get(v, n, key);
	for (uint32_t i = 0; i < nleaves; i++)
		out[i] = sli_attr_new(m, SL_ATTR_DICT);
	sli_hlo_sharding h;
	size_t off;
	char msg[128];
	if (!str || str->kind != SL_ATTR_STRING ||
	    sli_gspmd_parse(&m->arena, str->u.s.p, str->u.s.n, &h, &off, msg, sizeof msg))
		return n == 0;
	hlovec leaves = {0};
	leaf_shardings(&h, &leaves);
	bool fits = h.kind != SLI_HLO_TUPLE || leaves.n == nleaves;
	for (uint32_t i = 0; fits && i < nleaves; i++) {
		const sli_hlo_sharding *e = h.kind == SLI_HLO_TUPLE ? leaves.v[i] : &h;
		sl_named_attr *d = SL_NEWN(&m->arena, sl_named_attr, 1);
		d->name = key;
		d->attr = sli_attr_string(m, str->u.s.p + e->off, e->len);
		out[i]->u.dict.v = d;
		out[i]->u.dict.n = 1;
	}
	SL_VEC_FREE(leaves);
	return fits && n == 1;
}

/*
 * The entry block's tuple arguments become their leaves, each old one
 * rebuilt (through map) as a stablehlo.tuple at the top of the body; the
 * attributes of a tuple argument are dropped.  The new input types are
 * appended to ins.
 */
static void
flatten_args(sl_module *m, sl_op *f, sl_block *b, sli_vmap *map, typevec *ins)
{
	size_t first = ins->n;
	for (uint32_t i = 0; i < b->nargs; i++)
		flat_types(b->args[i].type, ins);
	uint32_t n = (uint32_t)(ins->n - first);
	sl_value *na = SL_NEWN(&m->valarena, sl_value, n);
	sl_arg_attrs *naa = SL_NEWN(&m->arena, sl_arg_attrs, n);
	sl_loc *nl = b->arglocs ? SL_NEWN(&m->arena, sl_loc, n) : NULL;
	sl_value **leaves = SL_NEWN(&m->arena, sl_value *, n);
	size_t k = 0;
	for (uint32_t i = 0; i < b->nargs; i++) {
		sl_value *old = &b->args[i];
		size_t from = k;
		typevec one = {0};
		flat_types(old->type, &one);
		for (size_t j = 0; j < one.n; j++, k++) {
			na[k].type = one.v[j];
			na[k].block = b;
			na[k].index = (uint32_t)k;
			if (nl)
				nl[k] = sli_value_loc(old);
			leaves[k] = &na[k];
		}
		SL_VEC_FREE(one);
		uint32_t nattrs;
		sl_named_attr *attrs = sli_arg_attrs(old, &nattrs);
		if (old->type->kind != SL_TYPE_TUPLE) {
			naa[from].v = attrs;
			naa[from].n = nattrs;
			sli_value_set_locattr(m, &na[from], sli_value_locattr(m, old));
			sli_vmap_set(map, old, &na[from]);
			continue;
		}
		sl_attr **d = SL_NEWN(&m->arena, sl_attr *, k - from);
		if (!spread_attrs(m, attrs, nattrs, (uint32_t)(k - from), d))
			sli_diag(m->ctx, SL_DIAG_WARNING, sli_value_loc(old), "the attributes of tuple "
			         "argument %u are dropped: its elements become arguments", i);
		for (size_t j = from; j < k; j++) {
			naa[j].v = d[j - from]->u.dict.v;
			naa[j].n = d[j - from]->u.dict.n;
		}
		size_t at = from;
		sli_vmap_set(map, old, rebuild(m, old->type, leaves, &at, b->first));
	}
	b->args = na;
	b->nargs = n;
	b->argattrs = naa;
	b->arglocs = nl;
}

/*
 * A function's tuple arguments and results become their leaves: the
 * returns return the leaves, result attributes of a tuple are dropped
 * (those of the others kept).  False when it has none, or when a
 * declaration takes a tuple (left alone).
 */
static bool
flatten_func(sl_module *m, sl_op *f, sli_vmap *map)
{
	sl_attr *ft = sli_op_get(f, SLS_function_type);
	if (!ft || ft->kind != SL_ATTR_TYPE || ft->u.type->kind != SL_TYPE_FUNC)
		return false;
	sl_type *fty = ft->u.type;
	bool targs = any_tuple(fty->types, fty->rank);
	sl_block *body = sli_func_body(f);
	if ((targs && (!body || body->nargs != fty->rank || !body->first)) ||
	    (!targs && !any_tuple(fty->types + fty->rank, fty->nres)))
		return false;
	typevec ins = {0};
	if (targs)
		flatten_args(m, f, body, map, &ins);
	else
		for (uint32_t i = 0; i < fty->rank; i++)
			SL_VEC_PUSH(ins, fty->types[i]);
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
		if (!na)
			continue;
		if (!tuple || ra->u.arr.v[i]->kind != SL_ATTR_DICT) {
			SL_VEC_PUSH(attrs, ra->u.arr.v[i]);
			continue;
		}
		uint32_t nl = (uint32_t)(ts.n - before);
		sl_attr **d = SL_NEWN(&m->arena, sl_attr *, nl);
		const sl_attr *od = ra->u.arr.v[i];
		if (!spread_attrs(m, od->u.dict.v, od->u.dict.n, nl, d))
			sli_diag(m->ctx, SL_DIAG_WARNING, f->loc, "the attributes of tuple "
			         "result %u are dropped: its elements become results", i);
		for (uint32_t k = 0; k < nl; k++)
			SL_VEC_PUSH(attrs, d[k]);
	}
	sl_attr *nft = sli_attr_new(m, SL_ATTR_TYPE);
	nft->u.type = sli_type_func(m->ctx, (uint32_t)ins.n, ins.v, (uint32_t)ts.n, ts.v);
	sli_op_set_prop(m, f, SLS_function_type, nft);
	if (na) {
		na->u.arr.n = (uint32_t)attrs.n;
		na->u.arr.v = sli_arena_dup(&m->arena, attrs.v, sizeof *attrs.v * attrs.n);
		sli_op_set_prop(m, f, SLS_res_attrs, na);
	}
	SL_VEC_FREE(attrs);
	SL_VEC_FREE(ts);
	SL_VEC_FREE(ins);
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

/* Whether a call's values (operands or results) no longer match the
 * types of its function (a one-element tuple keeps the count). */
static bool
call_differs(sl_value *const *v, uint32_t n, sl_type *const *t, uint32_t nt)
{
	if (n != nt)
		return true;
	for (uint32_t i = 0; i < n; i++)
		if (v[i]->type != t[i])
			return true;
	return false;
}

/* A call of a function whose tuple arguments were flattened passes the
 * leaves of its tuple operands. */
static void
flatten_call_operands(sl_module *m, sl_op *call)
{
	sl_op *f = sli_call_func(m, call);
	sl_attr *ft = f ? sli_op_get(f, SLS_function_type) : NULL;
	if (!ft || ft->kind != SL_ATTR_TYPE || !call_differs(call->operands, call->noperands,
	                                                     ft->u.type->types, ft->u.type->rank))
		return;
	valvec vs = {0};
	for (uint32_t i = 0; i < call->noperands; i++)
		flat_values(m, call->operands[i], call, &vs);
	if (vs.n == ft->u.type->rank)
		sli_op_set_operands(m, call, vs.v, (uint32_t)vs.n);
	SL_VEC_FREE(vs);
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
			changed |= flatten_func(m, ops.v[i], &map);
	for (size_t i = 0; i < ops.n; i++) {
		sl_op *op = ops.v[i];
		if (op->kind == SL_OP_CALL)
			flatten_call_operands(m, op);
		if (op->nresults && (op->kind == SL_OP_CUSTOM_CALL || op->kind == SL_OP_CALL)) {
			sl_type **rt = SL_NEWN(&m->arena, sl_type *, op->nresults);
			for (uint32_t k = 0; k < op->nresults; k++)
				rt[k] = op->results[k].type;
			sl_op *f = op->kind == SL_OP_CALL ? sli_call_func(m, op) : NULL;
			sl_attr *ft = f ? sli_op_get(f, SLS_function_type) : NULL;
			bool callee_flat = false;
			if (ft && ft->kind == SL_ATTR_TYPE && ft->u.type->kind == SL_TYPE_FUNC) {
				sl_value **rv = SL_NEWN(&m->arena, sl_value *, op->nresults);
				for (uint32_t k = 0; k < op->nresults; k++)
					rv[k] = &op->results[k];
				callee_flat = call_differs(rv, op->nresults,
				                           ft->u.type->types + ft->u.type->rank,
				                           ft->u.type->nres);
			}
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
