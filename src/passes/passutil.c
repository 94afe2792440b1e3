/*
 * passutil.c - helpers shared by the import and export passes
 * (spec/import-passes.md section 0).
 */
#include "passes/passutil.h"

#include <stdlib.h>
#include <string.h>

sl_block *
sli_module_body(sl_module *m)
{
	if (!m->top->nregions)
		return NULL;
	return m->top->regions[0].first;
}

sl_sym
sli_sym(sl_module *m, const char *s)
{
	return sl_sym_intern(m->ctx, s, strlen(s));
}

/* ==================================================================== */
/* Symbol table                                                            */
/* ==================================================================== */

static void
mark(sli_symtab *t, sl_sym name, unsigned char on)
{
	if (name >= t->used.n) {
		SL_VEC_RESERVE(t->used, (size_t)name + 1);
		memset(t->used.v + t->used.n, 0, (size_t)name + 1 - t->used.n);
		t->used.n = (size_t)name + 1;
	}
	t->used.v[name] = on;
}

void
sli_symtab_init(sli_symtab *t, sl_module *m)
{
	memset(t, 0, sizeof *t);
	t->m = m;
	sl_block *body = sli_module_body(m);
	for (sl_op *op = body ? body->first : NULL; op; op = op->next) {
		sl_sym s = sli_op_sym_name(m, op);
		if (s)
			mark(t, s, 1);
	}
}

void
sli_symtab_fini(sli_symtab *t)
{
	SL_VEC_FREE(t->used);
}

bool
sli_symtab_has(const sli_symtab *t, sl_sym name)
{
	return name < t->used.n && t->used.v[name];
}

void
sli_symtab_remove(sli_symtab *t, sl_sym name)
{
	if (name < t->used.n)
		t->used.v[name] = 0;
}

sl_sym
sli_symtab_unique(sli_symtab *t, sl_sym want)
{
	if (!sli_symtab_has(t, want)) {
		mark(t, want, 1);
		return want;
	}
	sli_buf b;
	sli_buf_init(&b);
	sl_sym s;
	do {
		b.n = 0;
		sli_buf_printf(&b, "%s_%u", sl_sym_str(t->m->ctx, want), t->counter++);
		s = sl_sym_intern(t->m->ctx, b.p, b.n);
	} while (sli_symtab_has(t, s));
	sli_buf_fini(&b);
	mark(t, s, 1);
	return s;
}

void
sli_set_sym_name(sl_module *m, sl_op *op, sl_sym name)
{
	const char *s = sl_sym_str(m->ctx, name);
	sli_op_set_prop(m, op, SLS_sym_name, sli_attr_string(m, s, strlen(s)));
}

sl_sym
sli_symtab_insert(sli_symtab *t, sl_op *op, sl_op *before)
{
	sl_sym want = sli_op_sym_name(t->m, op);
	sl_sym got = sli_symtab_unique(t, want);
	if (got != want)
		sli_set_sym_name(t->m, op, got);
	if (before)
		sli_op_insert_before(before, op);
	else
		sli_op_append(sli_module_body(t->m), op);
	return got;
}

/* ==================================================================== */
/* Functions and calls                                                     */
/* ==================================================================== */

sl_sym
sli_call_callee(sl_module *m, const sl_op *call)
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
sli_call_func(sl_module *m, const sl_op *call)
{
	sl_sym s = sli_call_callee(m, call);
	return s ? sli_lookup_func(m, s) : NULL;
}

sl_sym
sli_func_original_name(sl_module *m, const sl_op *func)
{
	sl_attr *a = sli_op_attr(func, sli_sym(m, "sdy.original_func_name"));
	if (a && a->kind == SL_ATTR_STRING)
		return sli_attr_sym(m->ctx, a);
	return sli_op_sym_name(m, func);
}

size_t
sli_symidx_get(const sli_symidx *t, sl_sym s)
{
	return s < t->n ? t->v[s] : SIZE_MAX;
}

void
sli_symidx_set(sli_symidx *t, sl_sym s, size_t x)
{
	if (s >= t->n) {
		size_t n = 2 * (size_t)s + 64;
		t->v = sli_xrealloc(t->v, sizeof *t->v * n);
		for (size_t i = t->n; i < n; i++)
			t->v[i] = SIZE_MAX;
		t->n = n;
	}
	t->v[s] = x;
}

void
sli_symidx_fini(sli_symidx *t)
{
	free(t->v);
	t->v = NULL;
	t->n = 0;
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

/* ==================================================================== */
/* Shardings                                                               */
/* ==================================================================== */

const sl_mesh *
sli_sharding_mesh(sl_module *m, const sl_sharding *s)
{
	if (!s->mesh_name)
		return s->mesh;
	sl_op *mo = sli_lookup_mesh(m, m->top, s->mesh_name);
	sl_attr *a = mo ? sli_op_get(mo, SLS_mesh) : NULL;
	return a && a->kind == SL_ATTR_MESH ? &a->u.mesh : NULL;
}

bool
sli_sharding_equal(const sl_sharding *a, const sl_sharding *b)
{
	sl_attr x, y;
	memset(&x, 0, sizeof x);
	memset(&y, 0, sizeof y);
	x.kind = y.kind = SL_ATTR_SHARDING;
	x.u.sharding = *a;
	y.u.sharding = *b;
	return sli_attr_equal(&x, &y);
}

/* ---- the sharding walker ---- */

/* A per-value list already seen by a memoizing walk, and what it became. */
typedef struct spv_seen {
	sl_sharding *const *v;	/* the list's entries (never mutated) */
	uint32_t n;
	sl_attr *to;		/* the replacement, or NULL: kept */
} spv_seen;

typedef struct walker {
	sl_module *m;
	sli_sharding_fn *fn;
	void *ud;
	bool memo;
	spv_seen *seen;		/* open addressing; v NULL = empty */
	size_t nseen, cap;	/* cap: a power of two, or 0 */
} walker;

static size_t
spv_hash(sl_sharding *const *v, uint32_t n)
{
	uint64_t h = 1469598103934665603ULL ^ n;
	for (uint32_t i = 0; i < n; i++)
		h = (h ^ (uint64_t)(uintptr_t)v[i]) * 1099511628211ULL;
	return (size_t)(h ^ (h >> 29));
}

/* The slot of list (v, n): its entry, or an empty one. */
static spv_seen *
spv_slot(walker *w, sl_sharding *const *v, uint32_t n)
{
	if (w->nseen * 2 >= w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 256;
		spv_seen *t = sli_xcalloc(cap, sizeof *t);
		for (size_t i = 0; i < w->cap; i++) {
			if (!w->seen[i].v)
				continue;
			size_t j = spv_hash(w->seen[i].v, w->seen[i].n) & (cap - 1);
			while (t[j].v)
				j = (j + 1) & (cap - 1);
			t[j] = w->seen[i];
		}
		free(w->seen);
		w->seen = t;
		w->cap = cap;
	}
	size_t j = spv_hash(v, n) & (w->cap - 1);
	while (w->seen[j].v && (w->seen[j].n != n ||
	                        memcmp(w->seen[j].v, v, sizeof *v * n)))
		j = (j + 1) & (w->cap - 1);
	return &w->seen[j];
}

/* Applies fn to every entry of a per-value attribute; a new attribute when
 * any entry changed, else NULL. */
static sl_attr *
walk_spv(walker *w, sl_op *op, sl_attr *a)
{
	if (!a || a->kind != SL_ATTR_SHARDING_PER_VALUE)
		return NULL;
	spv_seen *seen = NULL;
	if (w->memo && a->u.spv.n) {
		seen = spv_slot(w, a->u.spv.v, a->u.spv.n);
		if (seen->v)
			return seen->to;
	}
	sl_sharding **nv = NULL;
	for (uint32_t i = 0; i < a->u.spv.n; i++) {
		sl_sharding *r = w->fn(w->m, op, a->u.spv.v[i], w->ud);
		if (!r)
			continue;
		if (!nv) {
			nv = SL_NEWN(&w->m->arena, sl_sharding *, a->u.spv.n);
			memcpy(nv, a->u.spv.v, sizeof *nv * a->u.spv.n);
		}
		nv[i] = r;
	}
	sl_attr *to = nv ? sli_attr_spv(w->m, nv, a->u.spv.n) : NULL;
	if (seen) {
		seen->v = a->u.spv.v;
		seen->n = a->u.spv.n;
		seen->to = to;
		w->nseen++;
	}
	return to;
}

static sl_attr *
walk_one(walker *w, sl_op *op, sl_attr *a)
{
	if (!a || a->kind != SL_ATTR_SHARDING)
		return NULL;
	sl_sharding *r = w->fn(w->m, op, &a->u.sharding, w->ud);
	return r ? sli_attr_sharding(w->m, r) : NULL;
}

static int
walk_op(sl_op *op, void *ud)
{
	walker *w = ud;
	sl_module *m = w->m;
	sl_attr *na;
	if (op->kind == SL_OP_FUNC) {
		sl_block *b = sli_func_body(op);
		for (uint32_t i = 0; b && i < b->nargs; i++) {
			sl_sharding *s = sli_func_arg_sharding(op, i);
			sl_sharding *r = s ? w->fn(m, op, s, w->ud) : NULL;
			if (r)
				sli_func_set_arg_sharding(m, op, i, r);
		}
		uint32_t n = sli_func_nresults(op);
		for (uint32_t i = 0; i < n; i++) {
			sl_sharding *s = sli_func_res_sharding(op, i);
			sl_sharding *r = s ? w->fn(m, op, s, w->ud) : NULL;
			if (r)
				sli_func_set_res_sharding(m, op, i, r);
		}
		return 0;
	}
	if (op->kind == SL_OP_SDY_MANUAL_COMPUTATION || op->kind == SL_OP_SDY_NAMED_COMPUTATION) {
		if ((na = walk_spv(w, op, sli_op_get(op, SLS_in_shardings))))
			sli_op_set_prop(m, op, SLS_in_shardings, na);
		if ((na = walk_spv(w, op, sli_op_get(op, SLS_out_shardings))))
			sli_op_set_prop(m, op, SLS_out_shardings, na);
		return 0;
	}
	sl_sym p = sli_single_sharding_prop(op);
	if (p) {
		if ((na = walk_one(w, op, sli_op_get(op, p))))
			sli_op_set_prop(m, op, p, na);
		return 0;
	}
	if ((na = walk_spv(w, op, sli_op_attr(op, SLS_sdy_sharding))))
		sli_op_set_attr(m, op, SLS_sdy_sharding, na);
	return 0;
}

void
sli_transform_shardings(sl_module *m, sli_sharding_fn *fn, void *ud)
{
	walker w = {m, fn, ud, false, NULL, 0, 0};
	sli_walk(m->top, walk_op, &w);
}

void
sli_transform_shardings_memo(sl_module *m, sli_sharding_fn *fn, void *ud)
{
	walker w = {m, fn, ud, true, NULL, 0, 0};
	sli_walk(m->top, walk_op, &w);
	free(w.seen);
}

/* ==================================================================== */
/* Data-flow edges                                                         */
/* ==================================================================== */

bool
sli_is_data_flow_op(const sl_op *op)
{
	switch (op->kind) {
	case SL_OP_SDY_NAMED_COMPUTATION:
	case SL_OP_SDY_MANUAL_COMPUTATION:
	case SL_OP_WHILE:
	case SL_OP_CASE:
	case SL_OP_OPTIMIZATION_BARRIER:
		return true;
	default:
		return false;
	}
}

/* The root under which every use of v lies. */
static sl_op *
use_scope(const sl_value *v)
{
	const sl_block *b = v->def ? v->def->parent : v->block;
	return b->parent->parent;
}

/* The manual-computation in-sharding s without its manual axes. */
static sl_sharding *
drop_manual(sl_module *m, const sl_sharding *s, const sl_axis_list *manual)
{
	sl_sharding *r = SL_NEW(&m->arena, sl_sharding);
	*r = *s;
	r->dims = r->rank ? SL_NEWN(&m->arena, sl_dim_sharding, r->rank) : NULL;
	for (uint32_t d = 0; d < s->rank; d++) {
		r->dims[d] = s->dims[d];
		uint32_t k = 0;
		const sl_axis_list *l = &s->dims[d].axes;
		while (k < l->n) {
			bool is_manual = false;
			for (uint32_t j = 0; j < manual->n; j++)
				is_manual |= manual->v[j].name == l->v[k].name;
			if (!is_manual)
				break;
			k++;
		}
		r->dims[d].axes.v = l->v + k;
		r->dims[d].axes.n = l->n - k;
	}
	const sl_axis_list *lists[2] = {&s->replicated, &s->unreduced};
	sl_axis_list *outs[2] = {&r->replicated, &r->unreduced};
	for (int t = 0; t < 2; t++) {
		sl_axis_ref *v = lists[t]->n ? SL_NEWN(&m->arena, sl_axis_ref, lists[t]->n) : NULL;
		uint32_t n = 0;
		for (uint32_t k = 0; k < lists[t]->n; k++) {
			bool is_manual = false;
			for (uint32_t j = 0; j < manual->n; j++)
				is_manual |= manual->v[j].name == lists[t]->v[k].name;
			if (!is_manual)
				v[n++] = lists[t]->v[k];
		}
		outs[t]->v = v;
		outs[t]->n = n;
	}
	return r;
}

void
sli_op_insert_after(sl_op *after, sl_op *op)
{
	if (after->next)
		sli_op_insert_before(after->next, op);
	else
		sli_op_append(after->parent, op);
}

void
sli_op_prepend(sl_block *b, sl_op *op)
{
	if (b->first)
		sli_op_insert_before(b->first, op);
	else
		sli_op_append(b, op);
}

void
sli_value_replace_uses(sl_value *v, sl_value *to, const sl_op *except)
{
	sli_replace_uses_except(use_scope(v), v, to, except);
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

/* ==================================================================== */
/* Dense use lists                                                         */
/* ==================================================================== */

static bool
dense_known(const sli_dense_uses *u, const sl_value *v)
{
	return v->id < u->values.n && u->values.v[v->id] == v;
}

/*
 * Numbers the values used under the root and records each use with the
 * number of its value, in walk order: one walk, then a counting sort.
 */
typedef struct dense_pair {
	uint32_t id, i;
	sl_op *op;
} dense_pair;

typedef struct dense_numbering {
	sli_dense_uses *u;
	bool (*want)(const sl_value *v);
	SL_VEC(uint32_t) count;
	SL_VEC(dense_pair) pairs;
} dense_numbering;

static int
dense_number(sl_op *op, void *ud)
{
	dense_numbering *d = ud;
	sli_dense_uses *u = d->u;
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
sli_dense_uses_compute(sli_dense_uses *u, sl_op *root)
{
	sli_dense_uses_compute_if(u, root, NULL);
}

void
sli_dense_uses_compute_if(sli_dense_uses *u, sl_op *root,
                          bool (*want)(const sl_value *v))
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
sli_dense_uses_fini(sli_dense_uses *u)
{
	SL_VEC_FREE(u->values);
	free(u->first);
	free(u->count);
	free(u->pool);
	memset(u, 0, sizeof *u);
}

const sli_use *
sli_dense_uses_of(const sli_dense_uses *u, const sl_value *v, size_t *n)
{
	if (!dense_known(u, v)) {
		*n = 0;
		return NULL;
	}
	*n = u->count[v->id];
	return u->pool + u->first[v->id];
}

/* ==================================================================== */
/* Census                                                                  */
/* ==================================================================== */

static int
census_op(sl_op *op, void *ud)
{
	unsigned *c = ud;
	switch (op->kind) {
	case SL_OP_CALL:
		*c |= SLI_HAS_CALL;
		break;
	case SL_OP_SDY_MANUAL_COMPUTATION:
		*c |= SLI_HAS_MANUAL | SLI_HAS_DATA_FLOW_OP;
		break;
	case SL_OP_SDY_NAMED_COMPUTATION:
		*c |= SLI_HAS_NAMED | SLI_HAS_DATA_FLOW_OP;
		break;
	case SL_OP_WHILE:
	case SL_OP_CASE:
	case SL_OP_OPTIMIZATION_BARRIER:
		*c |= SLI_HAS_DATA_FLOW_OP;
		break;
	case SL_OP_SDY_DATA_FLOW_EDGE:
		*c |= SLI_HAS_EDGE;
		break;
	case SL_OP_SDY_FUNC_DATA_FLOW_EDGE:
		*c |= SLI_HAS_FUNC_EDGE;
		break;
	case SL_OP_SDY_SHARDING_CONSTRAINT:
		*c |= SLI_HAS_CONSTRAINT;
		break;
	case SL_OP_SDY_SHARDING_GROUP:
		*c |= SLI_HAS_GROUP;
		break;
	case SL_OP_SDY_RESHARD:
		*c |= SLI_HAS_RESHARD;
		break;
	default:
		break;
	}
	return 0;
}

unsigned
sli_census(sl_module *m)
{
	unsigned c = 0;
	sli_walk(m->top, census_op, &c);
	return c;
}

bool
sli_has_private_symbol(sl_module *m)
{
	sl_block *body = sli_module_body(m);
	for (sl_op *op = body ? body->first : NULL; op; op = op->next) {
		sl_attr *v = sli_op_get(op, SLS_sym_visibility);
		if (v && v->kind == SL_ATTR_STRING && v->u.s.n == 7 &&
		    !memcmp(v->u.s.p, "private", 7) && sli_op_sym_name(m, op))
			return true;
	}
	return false;
}

bool
sli_funcs_may_move(sl_module *m)
{
	sl_block *body = sli_module_body(m);
	uint32_t n = 0;
	for (sl_op *op = body ? body->first : NULL; op; op = op->next)
		if (op->kind == SL_OP_FUNC && (++n > 1 || op->next))
			return true;
	return false;
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

/* One edge for owner, created after `after` (at the start of block `b`
 * when after is NULL); the uses of owner are redirected now, or recorded
 * in `defer` (owner -> edge result). */
static void
add_edge(sl_module *m, sl_value *owner, const sl_sharding *s, sl_op *after, sl_block *b,
         sli_vmap *defer)
{
	if (!sli_type_is_static(owner->type))
		return;
	sl_op *e = sli_op_create(m, SL_OP_SDY_DATA_FLOW_EDGE, &owner, 1, &owner->type, 1, 0);
	e->loc = owner->loc.line ? owner->loc : (after ? after->loc : b->parent->parent->loc);
	if (s)
		sli_op_set_prop(m, e, SLS_sharding, sli_attr_sharding(m, s));
	if (defer)
		sli_vmap_set(defer, owner, &e->results[0]);
	else
		sli_replace_uses_except(use_scope(owner), owner, &e->results[0], e);
	if (after)
		sli_op_insert_after(after, e);
	else
		sli_op_prepend(b, e);
}

static void
add_edges(sl_module *m, sl_op *op, sli_vmap *defer)
{
	bool has_args = op->kind == SL_OP_SDY_NAMED_COMPUTATION ||
	                op->kind == SL_OP_SDY_MANUAL_COMPUTATION;
	sl_attr *manual = sli_op_get(op, SLS_manual_axes);
	if (has_args && op->nregions && op->regions[0].first) {
		sl_block *b = op->regions[0].first;
		/* In reverse, each at the block start, so they end up in order. */
		for (uint32_t i = b->nargs; i-- > 0;) {
			sl_sharding *s = sli_spv_get(op, SLS_in_shardings, i);
			if (s && op->kind == SL_OP_SDY_MANUAL_COMPUTATION && manual &&
			    manual->kind == SL_ATTR_MANUAL_AXES)
				s = drop_manual(m, s, &manual->u.axes);
			add_edge(m, &b->args[i], s, NULL, b, defer);
		}
	}
	for (uint32_t i = op->nresults; i-- > 0;) {
		sl_sharding *s = has_args ? sli_spv_get(op, SLS_out_shardings, i)
		                          : sli_spv_get(op, SLS_sdy_sharding, i);
		add_edge(m, &op->results[i], s, op, NULL, defer);
	}
}

void
sli_add_data_flow_edges(sl_module *m, sl_op *op)
{
	add_edges(m, op, NULL);
}

typedef struct redirect {
	const sli_vmap *map;
} redirect;

/* Operands through the map, except the operand of an edge (its owner). */
static int
redirect_op(sl_op *op, void *ud)
{
	const redirect *r = ud;
	if (op->kind == SL_OP_SDY_DATA_FLOW_EDGE && op->noperands == 1 &&
	    sli_vmap_get(r->map, op->operands[0]) == &op->results[0])
		return 0;
	for (uint32_t i = 0; i < op->noperands; i++)
		op->operands[i] = sli_vmap_lookup(r->map, op->operands[i]);
	return 0;
}

void
sli_add_data_flow_edges_all(sl_module *m, sl_op *const *ops, size_t n)
{
	sli_vmap map;
	sli_vmap_init(&map);
	for (size_t i = 0; i < n; i++)
		if (sli_is_data_flow_op(ops[i]))
			add_edges(m, ops[i], &map);
	if (map.n) {
		redirect r = {&map};
		sli_walk(m->top, redirect_op, &r);
	}
	sli_vmap_fini(&map);
}
