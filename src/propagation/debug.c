/*
 * debug.c - the debug attributes of spec/propagation.md 8.4:
 * sdy.sharding_origins (debug-sharding-origins) and sdy.propagation_edges
 * (debug-propagation-edge-sharding), recorded from every successful step
 * by comparing the projections before and after it.  Records are kept per
 * value id and per op id; the attributes are written once, at the end.
 */
#include "propagation/prop_internal.h"
#include "ir/access.h"

#include <stdlib.h>
#include <string.h>

typedef struct orec {
	sl_axis_ref axis;
	sl_sym origin;
} orec;

typedef struct erec {
	sl_axis_ref axis;
	sl_edge_ref src, tgt;
	int64_t step;
} erec;

typedef SL_VEC(orec) orecs;
typedef SL_VEC(erec) erecs;

struct sli_prop_debug {
	orecs *orig;		/* per value id */
	erecs *edges;		/* per op id */
	uint32_t nvalues, nops;
	int64_t step;
};

static sl_sym
sym(sli_prop *P, const char *s)
{
	return sl_sym_intern(P->ctx, s, strlen(s));
}

/* ====================================================================
 * Origins
 * ==================================================================== */

static void
add_origin(sli_prop *P, sl_value *v, sl_axis_ref a, sl_sym origin)
{
	if (!v || v->id >= P->debug->nvalues)
		return;
	orecs *r = &P->debug->orig[v->id];
	for (size_t i = 0; i < r->n; i++)
		if (sli_axis_equal(&r->v[i].axis, &a))
			return;
	orec o = {a, origin};
	SL_VEC_PUSH(*r, o);
}

static void
seed_sharding(sli_prop *P, sl_value *v, const sl_sharding *s, sl_sym origin)
{
	if (!s || !v)
		return;
	for (uint32_t d = 0; d < s->rank; d++)
		for (uint32_t k = 0; k < s->dims[d].axes.n; k++)
			add_origin(P, v, s->dims[d].axes.v[k], origin);
}

static sl_value *
shardable_of(sli_prop *P, sl_value *v)
{
	sl_op *e = sli_prop_indexed(P, v) ? sli_prop_edge(P, v->id) : NULL;
	return e ? &e->results[0] : v;
}

static sl_sym
find_origin(sli_prop *P, sl_value *v, const sl_axis_ref *a)
{
	if (!v || v->id >= P->debug->nvalues)
		return 0;
	orecs *r = &P->debug->orig[v->id];
	for (size_t i = 0; i < r->n; i++)
		if (sli_axis_equal(&r->v[i].axis, a))
			return r->v[i].origin;
	for (size_t i = 0; i < r->n; i++)
		if (sli_axis_contains(&r->v[i].axis, a) || sli_axis_contains(a, &r->v[i].axis))
			return r->v[i].origin;
	return 0;
}

static void
seed_origins(sli_prop *P)
{
	char buf[64];
	int nc = 0, nm = 0;
	sl_sym name_sym = sym(P, "sdy.sharding_origin_name");
	for (uint32_t i = 0; i < P->nops; i++) {
		sl_op *op = P->ops[i];
		if (op->kind != SL_OP_SDY_SHARDING_CONSTRAINT || !op->nresults)
			continue;
		snprintf(buf, sizeof buf, "constraint_%d", nc++);
		sli_op_set_attr(P->m, op, name_sym, sli_attr_string(P->m, buf, strlen(buf)));
		sl_sym o = sym(P, buf);
		seed_sharding(P, &op->results[0], sli_prop_get(P, &op->results[0]), o);
		if (op->noperands)
			seed_sharding(P, shardable_of(P, op->operands[0]),
			              sli_prop_get(P, op->operands[0]), o);
	}
	for (uint32_t i = 0; i < P->nops; i++) {
		sl_op *op = P->ops[i];
		if (op->kind != SL_OP_SDY_MANUAL_COMPUTATION)
			continue;
		int id = nm++;
		snprintf(buf, sizeof buf, "mc_%d", id);
		sli_op_set_attr(P->m, op, name_sym, sli_attr_string(P->m, buf, strlen(buf)));
		sl_block *b = op->nregions ? op->regions[0].first : NULL;
		const sl_sharding *s;
		for (uint32_t k = 0; (s = sli_comp_in_sharding(op, k)); k++) {
			snprintf(buf, sizeof buf, "mc_%d_input: %u", id, k);
			sl_sym o = sym(P, buf);
			if (b && k < b->nargs && sli_prop_edge(P, b->args[k].id))
				seed_sharding(P, &sli_prop_edge(P, b->args[k].id)->results[0], s, o);
			if (k < op->noperands)
				seed_sharding(P, shardable_of(P, op->operands[k]),
				              sli_prop_get(P, op->operands[k]), o);
		}
		for (uint32_t k = 0; (s = sli_result_sharding(op, k)); k++) {
			snprintf(buf, sizeof buf, "mc_%d_output: %u", id, k);
			if (k < op->nresults && sli_prop_edge(P, op->results[k].id))
				seed_sharding(P, &sli_prop_edge(P, op->results[k].id)->results[0], s,
				              sym(P, buf));
		}
	}
	for (uint32_t i = 0; i < P->nops; i++) {
		sl_op *f = P->ops[i];
		if (f->kind != SL_OP_FUNC || !f->nregions || !f->regions[0].first)
			continue;
		sl_block *b = f->regions[0].first;
		for (uint32_t k = 0; k < b->nargs; k++) {
			snprintf(buf, sizeof buf, "input: %u", k);
			seed_sharding(P, &b->args[k], sli_prop_get(P, &b->args[k]), sym(P, buf));
		}
		sl_op *ret = b->last;
		if (!ret || ret->kind != SL_OP_RETURN)
			continue;
		for (uint32_t k = 0; k < ret->noperands; k++) {
			snprintf(buf, sizeof buf, "output: %u", k);
			seed_sharding(P, shardable_of(P, ret->operands[k]),
			              sli_prop_func_result(P, f, k), sym(P, buf));
		}
	}
}

/* ====================================================================
 * Hooks
 * ==================================================================== */

void
sli_prop_debug_init(sli_prop *P)
{
	const sli_prop_opts *o = P->o;
	if (!o->debug_origins && !o->debug_edges)
		return;
	sli_prop_debug *d = sli_xcalloc(1, sizeof *d);
	P->debug = d;
	d->nvalues = P->nvalues;
	d->nops = P->nops;
	d->orig = sli_xcalloc(P->nvalues ? P->nvalues : 1, sizeof *d->orig);
	d->edges = sli_xcalloc(P->nops ? P->nops : 1, sizeof *d->edges);
	int64_t maxstep = -1;
	for (uint32_t i = 0; i < P->nops; i++) {
		sl_attr *a = sli_op_attr(P->ops[i], SLS_sdy_propagation_edges);
		if (!a || a->kind != SL_ATTR_PROP_EDGES)
			continue;
		for (uint32_t k = 0; k < a->u.edges.n; k++)
			if (a->u.edges.v[k].step > maxstep)
				maxstep = a->u.edges.v[k].step;
	}
	d->step = maxstep + 1;
	if (o->debug_origins)
		seed_origins(P);
}

static sl_edge_ref
tref(const sli_proj *p, uint32_t t)
{
	sl_edge_ref r;
	r.result = t >= p->nops;
	r.index = r.result ? t - p->nops : t;
	return r;
}

/* The first tensor whose old axes for f start with `nw`, or -1. */
static int
source_of(const sli_proj *before, uint32_t f, const sli_axes *nw)
{
	for (uint32_t s = 0; s < before->nops + before->nres; s++) {
		const sli_fsh *fs = &before->t[s].f[f];
		if (fs->present &&
		    sli_axes_prefix_status(nw->v, nw->n, fs->axes.v, fs->axes.n) != SLI_NOT_A_PREFIX)
			return (int)s;
	}
	return -1;
}

/* Erases the record of axis a on tensor t made in this step (a merge). */
static void
unrecord(sli_prop *P, sl_op *owner, const sli_proj *before, sl_value *const *vals,
         uint32_t t, sl_axis_ref a, int64_t step, bool func_sync)
{
	sli_prop_debug *d = P->debug;
	if (P->o->debug_origins) {
		sl_value *tv = vals[t] ? vals[t] : func_sync ? vals[0] : NULL;
		orecs *r = tv && tv->id < d->nvalues ? &d->orig[tv->id] : NULL;
		if (r && r->n && sli_axis_equal(&r->v[r->n - 1].axis, &a))
			r->n--;
	}
	if (P->o->debug_edges && owner && owner->id < d->nops && P->ops[owner->id] == owner) {
		erecs *e = &d->edges[owner->id];
		sl_edge_ref tr = tref(before, t);
		for (size_t i = e->n; i-- > 0;)
			if (e->v[i].step == step && sli_axis_equal(&e->v[i].axis, &a) &&
			    e->v[i].tgt.result == tr.result && e->v[i].tgt.index == tr.index) {
				memmove(&e->v[i], &e->v[i + 1], sizeof *e->v * (e->n - i - 1));
				e->n--;
				break;
			}
	}
}

/* Records axis a newly on tensor t from tensor src; true if an origin or edge was kept. */
static bool
record(sli_prop *P, sl_op *owner, const sli_proj *before, sl_value *const *vals,
       uint32_t t, int src, sl_axis_ref a, int64_t step, bool func_sync)
{
	sli_prop_debug *d = P->debug;
	bool kept = false;
	if (P->o->debug_origins) {
		sl_value *tv = vals[t] ? vals[t] : func_sync ? vals[0] : NULL;
		sl_value *sv = vals[src] ? vals[src] : func_sync ? vals[0] : NULL;
		sl_sym o = find_origin(P, sv, &a);
		if (o && tv && tv->id < d->nvalues) {
			size_t n = d->orig[tv->id].n;
			add_origin(P, tv, a, o);
			kept = d->orig[tv->id].n > n;
		}
	}
	if (P->o->debug_edges && owner && owner->id < d->nops && P->ops[owner->id] == owner) {
		erec e = {a, tref(before, (uint32_t)src), tref(before, t), step};
		SL_VEC_PUSH(d->edges[owner->id], e);
		kept = true;
	}
	return kept;
}

void
sli_prop_debug_step(sli_prop *P, sl_op *owner, const sli_proj *before,
                    const sli_proj *after, sl_value *const *vals,
                    const bool *written, bool func_sync)
{
	int64_t step = P->debug->step++;
	uint32_t nt = after->nops + after->nres;
	for (uint32_t t = 0; t < nt; t++) {
		const sli_tproj *tp = &after->t[t];
		for (uint32_t d = 0; d < tp->map->rank; d++) {
			const sl_dim_mapping *dm = &tp->map->dims[d];
			bool have_prev = false;
			sl_axis_ref prev = {0, false, 0, 0};
			for (uint32_t k = 0; k < dm->n; k++) {
				uint32_t f = dm->factors[k];
				const sli_fsh *o = &before->t[t].f[f], *n = &tp->f[f];
				if (!n->present ||
				    sli_axes_prefix_status(o->axes.v, o->axes.n, n->axes.v, n->axes.n) !=
				    SLI_STRICT_PREFIX) {
					have_prev = false;
					continue;
				}
				int src = source_of(before, f, &n->axes);
				if (src < 0) {
					have_prev = false;
					continue;
				}
				uint32_t start = o->axes.n;
				if (start && !sli_axis_equal(&o->axes.v[start - 1], &n->axes.v[start - 1]))
					start--;
				for (uint32_t i = start; i < n->axes.n; i++) {
					sl_axis_ref a = n->axes.v[i];
					if (i == start && have_prev && sli_axis_can_merge(&prev, &a)) {
						unrecord(P, owner, before, vals, t, prev, step, func_sync);
						a = sli_axis_merge(&prev, &a, after->mesh);
					}
					record(P, owner, before, vals, t, src, a, step, func_sync);
				}
				have_prev = n->axes.n > 0 && n->axes.n > start;
				if (have_prev)
					prev = n->axes.v[n->axes.n - 1];
			}
		}
	}
}

/* ====================================================================
 * Output
 * ==================================================================== */

static sl_named_attr *
set_named(sl_module *m, sl_named_attr *v, uint32_t *pn, sl_sym name, sl_attr *attr)
{
	for (uint32_t i = 0; i < *pn; i++)
		if (v[i].name == name) {
			sl_named_attr *nv = SL_NEWN(&m->arena, sl_named_attr, *pn);
			memcpy(nv, v, sizeof *nv * *pn);
			nv[i].attr = attr;
			return nv;
		}
	sl_named_attr *nv = SL_NEWN(&m->arena, sl_named_attr, *pn + 1);
	if (*pn)
		memcpy(nv, v, sizeof *nv * *pn);
	nv[*pn].name = name;
	nv[*pn].attr = attr;
	(*pn)++;
	sli_sort_named(m->ctx, nv, *pn);
	return nv;
}

/* The origins dictionary of value v, entries equal to `self` renamed. */
static sl_attr *
origins_dict(sli_prop *P, sl_value *v, sl_sym self)
{
	sl_module *m = P->m;
	orecs *r = &P->debug->orig[v->id];
	sl_attr *d = sli_attr_new(m, SL_ATTR_DICT);
	d->u.dict.v = SL_NEWN(&m->arena, sl_named_attr, r->n ? r->n : 1);
	sl_sym selfsym = sym(P, "self");
	for (size_t i = 0; i < r->n; i++) {
		sli_buf b;
		sli_buf_init(&b);
		const sl_axis_ref *a = &r->v[i].axis;
		sli_buf_puts(&b, sl_sym_str(P->ctx, a->name));
		if (a->sub)
			sli_buf_printf(&b, ":(%lld)%lld", (long long)a->pre, (long long)a->size);
		sl_sym key = sl_sym_intern(P->ctx, b.p, b.n);
		sli_buf_fini(&b);
		sl_sym o = r->v[i].origin == self ? selfsym : r->v[i].origin;
		const char *os = sl_sym_str(P->ctx, o);
		d->u.dict.v[d->u.dict.n].name = key;
		d->u.dict.v[d->u.dict.n].attr = sli_attr_string(m, os, strlen(os));
		d->u.dict.n++;
	}
	sli_sort_named(P->ctx, d->u.dict.v, d->u.dict.n);
	return d;
}

static sl_sym
edge_self_name(sli_prop *P, sl_op *edge)
{
	char buf[64];
	if (!edge->noperands)
		return 0;
	sl_value *owner = edge->operands[0];
	sl_op *mc = owner->def ? owner->def : owner->block && owner->block->parent
	            ? owner->block->parent->parent : NULL;
	if (!mc || mc->kind != SL_OP_SDY_MANUAL_COMPUTATION)
		return 0;
	sl_attr *n = sli_op_attr(mc, sym(P, "sdy.sharding_origin_name"));
	if (!n || n->kind != SL_ATTR_STRING)
		return 0;
	snprintf(buf, sizeof buf, "%.*s_%s: %u", (int)n->u.s.n, n->u.s.p,
	         owner->def ? "output" : "input", owner->index);
	return sym(P, buf);
}

static void
write_origins(sli_prop *P)
{
	sl_module *m = P->m;
	sl_sym key = sym(P, "sdy.sharding_origins");
	char buf[64];
	for (uint32_t i = 0; i < P->nops; i++) {
		sl_op *op = P->ops[i];
		if (op->kind == SL_OP_FUNC && op->nregions && op->regions[0].first) {
			sl_block *b = op->regions[0].first;
			for (uint32_t k = 0; k < b->nargs; k++) {
				if (!P->debug->orig[b->args[k].id].n)
					continue;
				snprintf(buf, sizeof buf, "input: %u", k);
				uint32_t n;
				sl_named_attr *a = sli_arg_attrs(&b->args[k], &n);
				a = set_named(m, a, &n, key, origins_dict(P, &b->args[k], sym(P, buf)));
				sli_arg_set_attrs(m, &b->args[k], a, n);
			}
			sl_op *ret = b->last;
			for (uint32_t k = 0; ret && ret->kind == SL_OP_RETURN && k < ret->noperands; k++) {
				sl_value *v = shardable_of(P, ret->operands[k]);
				bool first = true;
				for (uint32_t j = 0; j < k; j++)
					first &= shardable_of(P, ret->operands[j]) != v;
				if (!first || !P->debug->orig[v->id].n)
					continue;
				snprintf(buf, sizeof buf, "output: %u", k);
				sli_func_set_res_attr(m, op, k, key, origins_dict(P, v, sym(P, buf)));
			}
			continue;
		}
		if (!op->nresults)
			continue;
		if (op->kind == SL_OP_SDY_SHARDING_CONSTRAINT || op->kind == SL_OP_SDY_DATA_FLOW_EDGE) {
			if (!P->debug->orig[op->results[0].id].n)
				continue;
			sl_sym self = 0;
			if (op->kind == SL_OP_SDY_DATA_FLOW_EDGE) {
				self = edge_self_name(P, op);
			} else {
				sl_attr *n = sli_op_attr(op, sym(P, "sdy.sharding_origin_name"));
				if (n && n->kind == SL_ATTR_STRING)
					self = sl_sym_intern(P->ctx, n->u.s.p, n->u.s.n);
			}
			sli_op_set_attr(m, op, key, origins_dict(P, &op->results[0], self));
			continue;
		}
		bool any = false;
		for (uint32_t k = 0; k < op->nresults; k++)
			any |= P->debug->orig[op->results[k].id].n > 0;
		if (!any)
			continue;
		sl_attr *arr = sli_attr_new(m, SL_ATTR_ARRAY);
		arr->u.arr.n = op->nresults;
		arr->u.arr.v = SL_NEWN(&m->arena, sl_attr *, op->nresults);
		for (uint32_t k = 0; k < op->nresults; k++)
			arr->u.arr.v[k] = origins_dict(P, &op->results[k], 0);
		sli_op_set_attr(m, op, key, arr);
	}
}

static int
eref_cmp(const sl_edge_ref *a, const sl_edge_ref *b)
{
	if (a->result != b->result)
		return a->result ? 1 : -1;
	return a->index < b->index ? -1 : a->index > b->index;
}

static const sl_context *sort_ctx;

static int
erec_cmp(const void *pa, const void *pb)
{
	const erec *a = pa, *b = pb;
	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	if (sli_axis_less(sort_ctx, &a->axis, &b->axis))
		return -1;
	if (sli_axis_less(sort_ctx, &b->axis, &a->axis))
		return 1;
	int c = eref_cmp(&a->src, &b->src);
	return c ? c : eref_cmp(&a->tgt, &b->tgt);
}

/* The #sdy.propagation_edges attribute of the records in e (sorted). */
static sl_attr *
edges_attr(sli_prop *P, erecs *e)
{
	sl_module *m = P->m;
	/* keep the smallest step of each (axis, source, target) */
	size_t n = 0;
	for (size_t i = 0; i < e->n; i++) {
		bool dup = false;
		for (size_t j = 0; j < n && !dup; j++)
			dup = sli_axis_equal(&e->v[j].axis, &e->v[i].axis) &&
			      !eref_cmp(&e->v[j].src, &e->v[i].src) &&
			      !eref_cmp(&e->v[j].tgt, &e->v[i].tgt);
		if (!dup)
			e->v[n++] = e->v[i];
	}
	e->n = n;
	sort_ctx = P->ctx;
	qsort(e->v, e->n, sizeof *e->v, erec_cmp);
	sl_attr *a = sli_attr_new(m, SL_ATTR_PROP_EDGES);
	a->u.edges.v = SL_NEWN(&m->arena, sl_edge_step, e->n ? e->n : 1);
	for (size_t i = 0; i < e->n;) {
		sl_edge_step *st = &a->u.edges.v[a->u.edges.n++];
		st->step = e->v[i].step;
		st->entries = SL_NEWN(&m->arena, sl_edge_entry, e->n - i);
		size_t j = i;
		while (j < e->n && e->v[j].step == st->step) {
			sl_edge_entry *en = &st->entries[st->n++];
			en->axis = e->v[j].axis;
			en->source = e->v[j].src;
			en->targets = SL_NEWN(&m->arena, sl_edge_ref, e->n - j);
			size_t k = j;
			while (k < e->n && e->v[k].step == st->step &&
			       sli_axis_equal(&e->v[k].axis, &en->axis) &&
			       !eref_cmp(&e->v[k].src, &en->source))
				en->targets[en->ntargets++] = e->v[k++].tgt;
			j = k;
		}
		i = j;
	}
	return a;
}

static void
write_edges(sli_prop *P)
{
	for (uint32_t i = 0; i < P->nops; i++) {
		erecs *e = &P->debug->edges[i];
		if (!e->n)
			continue;
		sl_op *op = P->ops[i];
		sl_attr *a = edges_attr(P, e);
		if (op->kind == SL_OP_FUNC)
			sli_func_set_res_attr(P->m, op, 0, SLS_sdy_propagation_edges, a);
		else
			sli_op_set_attr(P->m, op, SLS_sdy_propagation_edges, a);
	}
}

void
sli_prop_debug_finish(sli_prop *P)
{
	if (!P->debug)
		return;
	if (P->o->debug_origins)
		write_origins(P);
	if (P->o->debug_edges)
		write_edges(P);
}

void
sli_prop_debug_fini(sli_prop *P)
{
	sli_prop_debug *d = P->debug;
	if (!d)
		return;
	for (uint32_t i = 0; i < d->nvalues; i++)
		SL_VEC_FREE(d->orig[i]);
	for (uint32_t i = 0; i < d->nops; i++)
		SL_VEC_FREE(d->edges[i]);
	free(d->orig);
	free(d->edges);
	free(d);
	P->debug = NULL;
}
