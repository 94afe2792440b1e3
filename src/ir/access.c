/*
 * access.c - where the IR stores each sharding (access.h has the table).
 * The getters follow Shardy's getSharding; a setter writes where its
 * getter reads.
 */
#include "ir/access.h"

#include <string.h>

#include "ir/attr.h"

sl_block *
sli_func_body(const sl_op *func)
{
	return func->nregions ? func->regions[0].first : NULL;
}

sl_attr *
sli_attr_sharding(sl_module *m, const sl_sharding *s)
{
	sl_attr *a = sli_attr_new(m, SL_ATTR_SHARDING);
	a->u.sharding = *s;
	return a;
}

sl_attr *
sli_attr_spv(sl_module *m, sl_sharding *const *v, uint32_t n)
{
	sl_attr *a = sli_attr_new(m, SL_ATTR_SHARDING_PER_VALUE);
	a->u.spv.n = n;
	a->u.spv.v = n ? SL_NEWN(&m->arena, sl_sharding *, n) : NULL;
	for (uint32_t i = 0; i < n; i++)
		a->u.spv.v[i] = v[i];
	return a;
}

sl_sharding *
sli_sharding_open(sl_module *m, sl_sym mesh_name, sl_mesh *mesh, uint32_t rank)
{
	sl_sharding *s = SL_NEW(&m->arena, sl_sharding);
	s->mesh_name = mesh_name;
	s->mesh = mesh_name ? NULL : mesh;
	s->rank = rank;
	s->dims = rank ? SL_NEWN(&m->arena, sl_dim_sharding, rank) : NULL;
	for (uint32_t i = 0; i < rank; i++) {
		s->dims[i].open = true;
		s->dims[i].priority = SL_NO_PRIORITY;
	}
	return s;
}

uint32_t
sli_value_rank(const sl_value *v)
{
	const sl_type *t = v->type;
	return t && t->kind == SL_TYPE_TENSOR && !t->unranked ? t->rank : 0;
}

static sl_sharding *
as_sharding(sl_attr *a)
{
	return a && a->kind == SL_ATTR_SHARDING ? &a->u.sharding : NULL;
}

sl_sharding *
sli_func_arg_sharding(const sl_op *func, uint32_t i)
{
	sl_block *b = sli_func_body(func);
	if (b) {
		if (i >= b->nargs)
			return NULL;
		return as_sharding(sli_arg_attr(&b->args[i], SLS_sdy_sharding));
	}
	sl_attr *aa = sli_op_get(func, SLS_arg_attrs);
	if (!aa || aa->kind != SL_ATTR_ARRAY || i >= aa->u.arr.n)
		return NULL;
	sl_attr *d = aa->u.arr.v[i];
	if (d->kind != SL_ATTR_DICT)
		return NULL;
	return as_sharding(sli_dict_get(d->u.dict.v, d->u.dict.n, SLS_sdy_sharding));
}

uint32_t
sli_func_nresults(const sl_op *func)
{
	sl_attr *ft = sli_op_get(func, SLS_function_type);
	return ft && ft->kind == SL_ATTR_TYPE ? ft->u.type->nres : 0;
}

sl_sharding *
sli_func_res_sharding(const sl_op *func, uint32_t i)
{
	sl_attr *ra = sli_op_get(func, SLS_res_attrs);
	if (!ra || ra->kind != SL_ATTR_ARRAY || i >= ra->u.arr.n)
		return NULL;
	sl_attr *d = ra->u.arr.v[i];
	if (d->kind != SL_ATTR_DICT)
		return NULL;
	return as_sharding(sli_dict_get(d->u.dict.v, d->u.dict.n, SLS_sdy_sharding));
}

/* A copy of the named-attribute array with `name` set to attr (removed
 * when NULL), sorted. */
static sl_named_attr *
named_set(sl_module *m, const sl_named_attr *v, uint32_t n, sl_sym name,
          sl_attr *attr, uint32_t *nout)
{
	sl_named_attr *nv = SL_NEWN(&m->arena, sl_named_attr, n + 1);
	uint32_t k = 0;
	bool done = false;
	for (uint32_t i = 0; i < n; i++) {
		if (v[i].name == name) {
			done = true;
			if (!attr)
				continue;
			nv[k].name = name;
			nv[k++].attr = attr;
			continue;
		}
		nv[k++] = v[i];
	}
	if (!done && attr) {
		nv[k].name = name;
		nv[k++].attr = attr;
		sli_sort_named(m->ctx, nv, k);
	}
	*nout = k;
	return nv;
}

void
sli_func_set_arg_sharding(sl_module *m, sl_op *func, uint32_t i, const sl_sharding *s)
{
	sl_block *b = sli_func_body(func);
	if (!b || i >= b->nargs)
		return;
	sli_arg_set_attr(m, &b->args[i], SLS_sdy_sharding, s ? sli_attr_sharding(m, s) : NULL);
}

void
sli_func_set_res_sharding(sl_module *m, sl_op *func, uint32_t i, const sl_sharding *s)
{
	uint32_t n = sli_func_nresults(func);
	if (i >= n)
		return;
	sl_attr *ra = sli_op_get(func, SLS_res_attrs);
	sl_attr *na = sli_attr_new(m, SL_ATTR_ARRAY);
	na->u.arr.n = n;
	na->u.arr.v = SL_NEWN(&m->arena, sl_attr *, n);
	for (uint32_t k = 0; k < n; k++) {
		sl_attr *d = ra && ra->kind == SL_ATTR_ARRAY && k < ra->u.arr.n ? ra->u.arr.v[k] : NULL;
		if (!d || d->kind != SL_ATTR_DICT)
			d = sli_attr_new(m, SL_ATTR_DICT);
		if (k == i) {
			sl_attr *nd = sli_attr_new(m, SL_ATTR_DICT);
			nd->u.dict.v = named_set(m, d->u.dict.v, d->u.dict.n, SLS_sdy_sharding,
			                         s ? sli_attr_sharding(m, s) : NULL, &nd->u.dict.n);
			d = nd;
		}
		na->u.arr.v[k] = d;
	}
	bool any = false;
	for (uint32_t k = 0; k < n; k++)
		any |= na->u.arr.v[k]->u.dict.n > 0;
	sli_op_set_prop(m, func, SLS_res_attrs, any ? na : NULL);
}

sl_sharding *
sli_spv_get(const sl_op *op, sl_sym name, uint32_t i)
{
	sl_attr *a = sli_op_get(op, name);
	if (!a || a->kind != SL_ATTR_SHARDING_PER_VALUE || i >= a->u.spv.n)
		return NULL;
	return a->u.spv.v[i];
}

sl_sym
sli_single_sharding_prop(const sl_op *op)
{
	switch (op->kind) {
	case SL_OP_SDY_SHARDING_CONSTRAINT:
	case SL_OP_SDY_RESHARD:
	case SL_OP_SDY_DATA_FLOW_EDGE:
		return SLS_sharding;
	default:
		return sli_op_info[op->kind].format == SL_FMT_SDY_COLLECTIVE
		       ? SLS_out_sharding : 0;
	}
}

static bool
computation(const sl_op *op)
{
	return op->kind == SL_OP_SDY_NAMED_COMPUTATION ||
	       op->kind == SL_OP_SDY_MANUAL_COMPUTATION;
}

/*
 * Sets entry i of op's per-value list `name` (a prop when prop, else an
 * attribute) of n values vals to s; the others keep their entry, or are
 * fully open when the list is new.  A NULL s changes nothing: a list
 * has no empty entries.
 */
static void
set_spv(sl_module *m, sl_op *op, sl_sym name, bool prop, uint32_t i,
        const sl_value *vals, uint32_t n, const sl_sharding *s)
{
	sl_attr *old = sli_op_get(op, name);
	if (old && old->kind != SL_ATTR_SHARDING_PER_VALUE)
		old = NULL;
	if (!s)
		return;
	SL_VEC(sl_sharding *) v = {0};
	for (uint32_t k = 0; k < n; k++) {
		sl_sharding *e = NULL;
		if (k == i)
			e = (sl_sharding *)s;
		else if (old && k < old->u.spv.n)
			e = old->u.spv.v[k];
		else if (s)
			e = sli_sharding_open(m, s->mesh_name, s->mesh,
			                      sli_value_rank(&vals[k]));
		SL_VEC_PUSH(v, e);
	}
	sl_attr *a = sli_attr_spv(m, v.v, (uint32_t)v.n);
	if (prop)
		sli_op_set_prop(m, op, name, a);
	else
		sli_op_set_attr(m, op, name, a);
	SL_VEC_FREE(v);
}

sl_sharding *
sli_result_sharding(const sl_op *op, uint32_t i)
{
	sl_sym p = sli_single_sharding_prop(op);
	if (p)
		return as_sharding(sli_op_get(op, p));
	if (computation(op))
		return sli_spv_get(op, SLS_out_shardings, i);
	return sli_spv_get(op, SLS_sdy_sharding, i);
}

void
sli_result_set_sharding(sl_module *m, sl_op *op, uint32_t i, const sl_sharding *s)
{
	sl_sym p = sli_single_sharding_prop(op);
	if (p) {
		sli_op_set_prop(m, op, p, s ? sli_attr_sharding(m, s) : NULL);
		return;
	}
	if (computation(op)) {
		set_spv(m, op, SLS_out_shardings, true, i, op->results, op->nresults, s);
		return;
	}
	set_spv(m, op, SLS_sdy_sharding, false, i, op->results, op->nresults, s);
}

/* The op whose region holds block argument v, or NULL. */
static sl_op *
arg_owner(const sl_value *v)
{
	if (v->def || !v->block || !v->block->parent)
		return NULL;
	return v->block->parent->parent;
}

sl_sharding *
sli_value_sharding(const sl_value *v)
{
	if (v->def)
		return sli_result_sharding(v->def, v->index);
	sl_op *owner = arg_owner(v);
	if (!owner)
		return NULL;
	if (owner->kind == SL_OP_FUNC) {
		if (v->block != owner->regions[0].first)
			return NULL;
		return as_sharding(sli_arg_attr(v, SLS_sdy_sharding));
	}
	if (computation(owner))
		return sli_spv_get(owner, SLS_in_shardings, v->index);
	return sli_spv_get(owner, SLS_sdy_sharding, v->index);
}

void
sli_value_set_sharding(sl_module *m, sl_value *v, const sl_sharding *s)
{
	if (v->def) {
		sli_result_set_sharding(m, v->def, v->index, s);
		return;
	}
	sl_op *owner = arg_owner(v);
	if (!owner)
		return;
	if (owner->kind == SL_OP_FUNC) {
		if (v->block == owner->regions[0].first)
			sli_func_set_arg_sharding(m, owner, v->index, s);
		return;
	}
	if (computation(owner))
		set_spv(m, owner, SLS_in_shardings, true, v->index, v->block->args,
		        v->block->nargs, s);
	else if (v->index < owner->nresults)
		set_spv(m, owner, SLS_sdy_sharding, false, v->index, owner->results,
		        owner->nresults, s);
}

sl_attr *
sli_op_rule_attr(const sl_op *op)
{
	return sli_op_attr(op, SLS_sdy_sharding_rule);
}

void
sli_op_set_rule_attr(sl_module *m, sl_op *op, sl_attr *a)
{
	sli_op_set_attr(m, op, SLS_sdy_sharding_rule, a);
}

/* used by cost and solver */

sl_sharding *
sli_comp_in_sharding(const sl_op *op, uint32_t i)
{
	return computation(op) ? sli_spv_get(op, SLS_in_shardings, i) : NULL;
}

void
sli_result_set_shardings(sl_module *m, sl_op *op, sl_sharding *const *v, uint32_t n)
{
	if (sli_single_sharding_prop(op)) {
		if (n)
			sli_result_set_sharding(m, op, 0, v[0]);
		return;
	}
	sl_attr *a = sli_attr_spv(m, v, n);
	if (computation(op))
		sli_op_set_prop(m, op, SLS_out_shardings, a);
	else
		sli_op_set_attr(m, op, SLS_sdy_sharding, a);
}

void
sli_comp_set_in_shardings(sl_module *m, sl_op *op, sl_sharding *const *v, uint32_t n)
{
	if (computation(op))
		sli_op_set_prop(m, op, SLS_in_shardings, sli_attr_spv(m, v, n));
}

/* used by propagation */

sl_attr *
sli_op_sharding_list(const sl_op *op)
{
	return sli_op_attr(op, SLS_sdy_sharding);
}

void
sli_op_set_sharding_list(sl_module *m, sl_op *op, sl_attr *a)
{
	sli_op_set_attr(m, op, SLS_sdy_sharding, a);
}

void
sli_func_set_res_attr(sl_module *m, sl_op *func, uint32_t i, sl_sym name, sl_attr *attr)
{
	sl_attr *ft = sli_op_get(func, SLS_function_type);
	uint32_t n = ft && ft->kind == SL_ATTR_TYPE ? ft->u.type->nres : i + 1;
	if (i >= n)
		return;
	sl_attr *ra = sli_op_get(func, SLS_res_attrs);
	bool have = ra && ra->kind == SL_ATTR_ARRAY;
	sl_attr *na = sli_attr_new(m, SL_ATTR_ARRAY);
	na->u.arr.n = n;
	na->u.arr.v = SL_NEWN(&m->arena, sl_attr *, n);
	for (uint32_t k = 0; k < n; k++)
		na->u.arr.v[k] = have && k < ra->u.arr.n ? ra->u.arr.v[k]
		                 : sli_attr_new(m, SL_ATTR_DICT);
	sl_attr *old = na->u.arr.v[i], *d = sli_attr_new(m, SL_ATTR_DICT);
	bool dict = old->kind == SL_ATTR_DICT;
	d->u.dict.v = named_set(m, dict ? old->u.dict.v : NULL, dict ? old->u.dict.n : 0, name,
	                        attr, &d->u.dict.n);
	na->u.arr.v[i] = d;
	sli_op_set_prop(m, func, SLS_res_attrs, na);
}

/* Entry i of the dictionary array `which` of func (arg_attrs, res_attrs), or NULL. */
static const sl_attr *
dict_at(const sl_op *func, sl_sym which, uint32_t i)
{
	sl_attr *a = sli_op_get(func, which);
	if (!a || a->kind != SL_ATTR_ARRAY || i >= a->u.arr.n)
		return NULL;
	return a->u.arr.v[i]->kind == SL_ATTR_DICT ? a->u.arr.v[i] : NULL;
}

sl_attr *
sli_func_arg_attr(const sl_op *func, uint32_t i, sl_sym name)
{
	sl_block *b = sli_func_body(func);
	if (b)
		return i < b->nargs ? sli_arg_attr(&b->args[i], name) : NULL;
	const sl_attr *d = dict_at(func, SLS_arg_attrs, i);
	return d ? sli_dict_get(d->u.dict.v, d->u.dict.n, name) : NULL;
}

sl_attr *
sli_func_res_attr(const sl_op *func, uint32_t i, sl_sym name)
{
	const sl_attr *d = dict_at(func, SLS_res_attrs, i);
	return d ? sli_dict_get(d->u.dict.v, d->u.dict.n, name) : NULL;
}

void
sli_func_set_arg_attr(sl_module *m, sl_op *func, uint32_t i, sl_sym name, sl_attr *attr)
{
	sl_block *b = sli_func_body(func);
	if (!b || i >= b->nargs)
		return;
	sli_arg_set_attr(m, &b->args[i], name, attr);
}

sl_attr *
sli_arg_attr(const sl_value *v, sl_sym name)
{
	uint32_t n;
	sl_named_attr *a = sli_arg_attrs(v, &n);
	return sli_dict_get(a, n, name);
}

void
sli_arg_set_attr(sl_module *m, sl_value *v, sl_sym name, sl_attr *attr)
{
	uint32_t n;
	sl_named_attr *a = sli_arg_attrs(v, &n);
	a = named_set(m, a, n, name, attr, &n);
	sli_arg_set_attrs(m, v, a, n);
}

/* used by passes and verify */

static sl_attr *
as_spv(sl_attr *a)
{
	return a && a->kind == SL_ATTR_SHARDING_PER_VALUE ? a : NULL;
}

sl_attr *
sli_result_spv(const sl_op *op)
{
	if (sli_single_sharding_prop(op))
		return NULL;
	return as_spv(sli_op_get(op, computation(op) ? SLS_out_shardings : SLS_sdy_sharding));
}

void
sli_result_set_spv(sl_module *m, sl_op *op, sl_attr *spv)
{
	if (computation(op))
		sli_op_set_prop(m, op, SLS_out_shardings, spv);
	else
		sli_op_set_attr(m, op, SLS_sdy_sharding, spv);
}

sl_attr *
sli_comp_in_spv(const sl_op *op)
{
	return computation(op) ? as_spv(sli_op_get(op, SLS_in_shardings)) : NULL;
}

void
sli_comp_set_in_spv(sl_module *m, sl_op *op, sl_attr *spv)
{
	sli_op_set_prop(m, op, SLS_in_shardings, spv);
}

const sl_attr *
sli_arg_sharding_attr(const sl_value *arg)
{
	return sli_arg_attr(arg, SLS_sdy_sharding);
}

/* The `sdy.sharding` of entry i of a func's arg_attrs / res_attrs. */
static const sl_attr *
dict_entry_sharding(const sl_op *func, sl_sym list, uint32_t i)
{
	sl_attr *l = sli_op_get(func, list);
	if (!l || l->kind != SL_ATTR_ARRAY || i >= l->u.arr.n)
		return NULL;
	const sl_attr *d = l->u.arr.v[i];
	if (!d || d->kind != SL_ATTR_DICT)
		return NULL;
	return sli_dict_get(d->u.dict.v, d->u.dict.n, SLS_sdy_sharding);
}

const sl_attr *
sli_func_arg_sharding_attr(const sl_op *func, uint32_t i)
{
	sl_block *b = sli_func_body(func);
	if (!b)
		return dict_entry_sharding(func, SLS_arg_attrs, i);
	return i < b->nargs ? sli_arg_sharding_attr(&b->args[i]) : NULL;
}

const sl_attr *
sli_func_res_sharding_attr(const sl_op *func, uint32_t i)
{
	return dict_entry_sharding(func, SLS_res_attrs, i);
}

const sl_axis_list *
sli_manual_axes(const sl_op *op)
{
	sl_attr *a = sli_op_get(op, SLS_manual_axes);
	return a && a->kind == SL_ATTR_MANUAL_AXES ? &a->u.axes : NULL;
}

const sl_axis_list *
sli_set_manual_axes(sl_module *m, sl_op *op, sl_axis_ref *v, uint32_t n)
{
	sl_attr *a = sli_attr_new(m, SL_ATTR_MANUAL_AXES);
	a->u.axes.v = v;
	a->u.axes.n = n;
	sli_op_set_prop(m, op, SLS_manual_axes, a);
	return &a->u.axes;
}

bool
sli_axis_is_manual(const sl_axis_list *manual, const sl_axis_ref *r)
{
	for (uint32_t i = 0; manual && i < manual->n; i++)
		if (manual->v[i].name == r->name)
			return true;
	return false;
}

static sl_axis_list
drop_manual(sl_module *m, const sl_axis_list *manual, const sl_axis_list *l)
{
	sl_axis_list out = {NULL, 0};
	if (!l->n)
		return out;
	out.v = SL_NEWN(&m->arena, sl_axis_ref, l->n);
	for (uint32_t i = 0; i < l->n; i++)
		if (!sli_axis_is_manual(manual, &l->v[i]))
			out.v[out.n++] = l->v[i];
	return out;
}

const sl_sharding *
sli_sharding_erase_manual(sl_module *m, const sl_op *mc, const sl_sharding *s)
{
	const sl_axis_list *manual = sli_manual_axes(mc);
	if (!s || !manual || !manual->n)
		return s;
	sl_sharding *o = SL_NEW(&m->arena, sl_sharding);
	*o = *s;
	o->dims = SL_NEWN(&m->arena, sl_dim_sharding, s->rank ? s->rank : 1);
	for (uint32_t d = 0; d < s->rank; d++) {
		o->dims[d] = s->dims[d];
		uint32_t k = 0;
		while (k < s->dims[d].axes.n && sli_axis_is_manual(manual, &s->dims[d].axes.v[k]))
			k++;
		o->dims[d].axes.v = s->dims[d].axes.v + k;
		o->dims[d].axes.n = s->dims[d].axes.n - k;
	}
	o->replicated = drop_manual(m, manual, &s->replicated);
	o->unreduced = drop_manual(m, manual, &s->unreduced);
	return o;
}

const sl_sharding *
sli_value_sharding_seen(sl_module *m, const sl_value *v)
{
	const sl_sharding *s = sli_value_sharding(v);
	sl_op *owner = v->def ? NULL : arg_owner(v);
	return owner && owner->kind == SL_OP_SDY_MANUAL_COMPUTATION
	       ? sli_sharding_erase_manual(m, owner, s) : s;
}

const sl_mesh *
sli_mesh_op_mesh(const sl_op *mesh_op)
{
	sl_attr *a = sli_op_get(mesh_op, SLS_mesh);
	return a && a->kind == SL_ATTR_MESH ? &a->u.mesh : NULL;
}

const sl_mesh *
sli_sharding_mesh_at(const sl_module *m, const sl_op *from, const sl_sharding *s)
{
	if (!s->mesh_name)
		return s->mesh;
	sl_op *mo = sli_lookup_mesh(m, from, s->mesh_name);
	return mo ? sli_mesh_op_mesh(mo) : NULL;
}

const sl_mesh *
sli_sharding_mesh(const sl_module *m, const sl_sharding *s)
{
	return sli_sharding_mesh_at(m, m->top, s);
}

sl_sym
sli_call_callee(const sl_module *m, const sl_op *call)
{
	sl_attr *a = sli_op_get(call, SLS_callee);
	if (!a || a->kind != SL_ATTR_SYMREF)
		return 0;
	return sli_attr_sym(m->ctx, a);
}

void
sli_call_set_callee(sl_module *m, sl_op *call, sl_sym name)
{
	const char *s = sl_sym_str(m->ctx, name);
	sli_op_set_prop(m, call, SLS_callee, sli_attr_symref(m, s, strlen(s)));
}

sl_op *
sli_call_func(const sl_module *m, const sl_op *call)
{
	sl_sym s = sli_call_callee(m, call);
	return s ? sli_lookup_func(m, s) : NULL;
}

/* The op under which every use of v lies. */
static sl_op *
use_scope(const sl_value *v)
{
	const sl_block *b = v->def ? v->def->parent : v->block;
	return b->parent->parent;
}

typedef struct usefind {
	const sl_value *v;
	sli_usevec *out;
} usefind;

static int
find_uses(sl_op *op, void *ud)
{
	usefind *f = ud;
	for (uint32_t i = 0; i < op->noperands; i++)
		if (op->operands[i] == f->v) {
			sli_use u = {op, i};
			SL_VEC_PUSH(*f->out, u);
		}
	return 0;
}

void
sli_value_uses(const sl_value *v, sli_usevec *out)
{
	usefind f = {v, out};
	sl_op *scope = use_scope(v);
	for (uint32_t r = 0; r < scope->nregions; r++)
		for (sl_block *b = scope->regions[r].first; b; b = b->next)
			for (sl_op *o = b->first; o; o = o->next)
				sli_walk(o, find_uses, &f);
}

void
sli_value_replace_uses(sl_value *v, sl_value *to, const sl_op *except)
{
	sli_replace_uses_except(use_scope(v), v, to, except);
}

static bool
dense_known(const sli_uses *u, const sl_value *v)
{
	return v->id < u->values.n && u->values.v[v->id] == v;
}

/*
 * Use lists: numbers the values used under the root and records each use with the
 * number of its value, in walk order: one walk, then a counting sort.
 */
typedef struct dense_pair {
	uint32_t id, i;
	sl_op *op;
} dense_pair;

typedef struct dense_numbering {
	sli_uses *u;
	bool (*want)(const sl_value *v);
	SL_VEC(uint32_t) count;
	SL_VEC(dense_pair) pairs;
} dense_numbering;

static int
dense_number(sl_op *op, void *ud)
{
	dense_numbering *d = ud;
	sli_uses *u = d->u;
	for (uint32_t i = 0; i < op->noperands; i++) {
		sl_value *v = op->operands[i];
		if (!v || (d->want && !d->want(v)))
			continue;
		if (dense_known(u, v)) {
			d->count.v[v->id]++;
		} else {
			v->id = (uint32_t)u->values.n;
			SL_VEC_PUSH(u->values, v);
			SL_VEC_PUSH(d->count, 1);
		}
		dense_pair p = {v->id, i, op};
		SL_VEC_PUSH(d->pairs, p);
	}
	return 0;
}

void
sli_uses_compute(sli_uses *u, sl_op *root)
{
	sli_uses_compute_if(u, root, NULL);
}

void
sli_uses_compute_if(sli_uses *u, sl_op *root, bool (*want)(const sl_value *v))
{
	memset(u, 0, sizeof *u);
	dense_numbering d = {u, want, {0}, {0}};
	sli_walk(root, dense_number, &d);
	size_t n = u->values.n ? u->values.n : 1;
	u->first = sli_xcalloc(n, sizeof *u->first);
	SL_VEC_RESERVE(d.count, 1);
	u->count = d.count.v;
	size_t total = 0;
	for (size_t i = 0; i < u->values.n; i++) {
		u->first[i] = (uint32_t)total;
		total += u->count[i];
		u->count[i] = 0;
	}
	u->pool = sli_xmalloc(sizeof *u->pool * (total ? total : 1));
	for (size_t k = 0; k < d.pairs.n; k++) {
		const dense_pair *p = &d.pairs.v[k];
		sli_use x = {p->op, p->i};
		u->pool[u->first[p->id] + u->count[p->id]++] = x;
	}
	SL_VEC_FREE(d.pairs);
}

void
sli_uses_fini(sli_uses *u)
{
	SL_VEC_FREE(u->values);
	free(u->first);
	free(u->count);
	free(u->pool);
	memset(u, 0, sizeof *u);
}

const sli_use *
sli_uses_of(const sli_uses *u, const sl_value *v, size_t *n)
{
	if (!dense_known(u, v)) {
		*n = 0;
		return NULL;
	}
	*n = u->count[v->id];
	return u->pool + u->first[v->id];
}

void
sli_uses_replace(const sli_uses *u, const sl_value *from, sl_value *to)
{
	size_t n;
	const sli_use *use = sli_uses_of(u, from, &n);
	for (size_t k = 0; k < n; k++)
		if (use[k].user->operands[use[k].index] == from)
			use[k].user->operands[use[k].index] = to;
}
