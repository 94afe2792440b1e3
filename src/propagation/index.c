/*
 * index.c - the tables of one propagation pass indexed by op id (pre-order
 * position) and value id: uses, data-flow edges, sharding groups, callers
 * of each function, meshes and the main function, and each op's class
 * for the worklist.  Rebuilt by sli_prop_index whenever the IR changes
 * shape (spec/propagation.md 1.5, 7.7).
 */
#include "propagation/prop_internal.h"
#include "ir/access.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * Zeroed per-op tables (rules, callers, signatures, own attributes,
 * edges) and the per-value shardings: a big one is mapped from the
 * system, so that its pages stay unmapped until written and go back
 * when freed.  calloc would take them from a heap full of the pass's
 * freed memory and clear every page, and the heap keeps the pages it
 * is given back (issue 17: peak memory).  A header before the table
 * holds its size.
 *
 * A dense table, most of whose entries are written (shardings, rules,
 * signatures), starts on a huge-page boundary and asks for huge pages:
 * where the system grants them, such a table of a big module is
 * faulted in 2 MiB at a time instead of 4 KiB, and the sweeps' lookups
 * in it miss the TLB less (8,000 layers: 4,591 page faults in
 * propagation -> 3,058).  The partial huge page at its end keeps small
 * pages, so it costs no memory a sparse table would not.
 *
 * A resident one, whose entries are written one by one as the sweeps
 * come to them (rules, read first; signatures), is made resident at
 * once (MADV_POPULATE_WRITE, Linux 5.14; elsewhere its pages fault in
 * as before): one call instead of a page fault a page in the sweeps, or
 * two for a page read before it is written (8,000 layers: 656 faults
 * in op-priority level 0 for the rules, 656 in level 1 for the
 * signatures).
 */
enum { TABLE_HDR = 16, TABLE_MAP = 256 * 1024, TABLE_HUGE = 2 * 1024 * 1024 };

/* bytes of zeroed memory from the system, or NULL */
static char *
table_map(size_t bytes, bool dense)
{
	if (!dense || bytes < TABLE_HUGE) {
		char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		               -1, 0);
		return p == MAP_FAILED ? NULL : p;
	}
	/* room to start on a boundary; the pages before and after go back */
	size_t len = bytes + TABLE_HUGE, page = (size_t)sysconf(_SC_PAGESIZE);
	char *q = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (q == MAP_FAILED)
		return NULL;
	char *p = q + (TABLE_HUGE - (uintptr_t)q % TABLE_HUGE) % TABLE_HUGE;
	char *end = p + (bytes + page - 1) / page * page;
	if (p > q)
		munmap(q, (size_t)(p - q));
	if (end < q + len)
		munmap(end, (size_t)(q + len - end));
#ifdef MADV_HUGEPAGE
	madvise(p, bytes, MADV_HUGEPAGE);	/* a hint: refused, small pages do */
#endif
	return p;
}

void *
sli_prop_table(size_t n, size_t size, int use)
{
	size_t bytes = TABLE_HDR + (n ? n : 1) * size;
	char *p = bytes >= TABLE_MAP ? table_map(bytes, use != SLI_TABLE_SPARSE) : NULL;
#ifdef MADV_POPULATE_WRITE
	if (p && use == SLI_TABLE_RESIDENT)
		(void)madvise(p, bytes, MADV_POPULATE_WRITE);	/* advice only */
#endif
	if (!p) {
		p = sli_xcalloc(1, bytes);
		bytes = 0;	/* from the heap */
	}
	memcpy(p, &bytes, sizeof bytes);
	return p + TABLE_HDR;
}

static void
table_free(void *t)
{
	if (!t)
		return;
	char *p = (char *)t - TABLE_HDR;
	size_t bytes;
	memcpy(&bytes, p, sizeof bytes);
	if (bytes)
		munmap(p, bytes);
	else
		free(p);
}

/*
 * What the walk over the ops gathers, so that no second walk streams the
 * ops of a big module through the caches again: the ops in pre-order and
 * the values numbered likewise, every use (each value's uses linked, the
 * last first), the op classes, each op's parent, the ops the index looks
 * at again (edges, calls, groups), the first op whose result has a shape
 * propagation rejects.
 */
typedef struct collect {
	SL_VEC(sl_op *) ops;
	SL_VEC(uint32_t) parent;
	SL_VEC(uint32_t) last;		/* per value id: its last use, or SLI_NO_USE;
					 * its length is the next value id */
	SL_VEC(sli_prop_use) uses;	/* in op order */
	SL_VEC(sli_prop_operand_no) use_operands;
	SL_VEC(uint8_t) opclass;
	SL_VEC(sl_op *) special;
	sl_op *bad_shape;
	bool stale;			/* an operand not numbered yet */
	/* P->cur, as long as reserve() expects values (ncur): what the walk
	 * knows of each value's sharding */
	const sl_sharding **cur;
	size_t ncur;
	const sl_sharding *unloaded;
} collect;

/*
 * Numbers a value and gives it no uses yet.  none: v is known to have no
 * sharding (a result of an op without attributes), so that its entry of
 * P->cur says so and the first look at the value needs no look at its
 * op; else the entry is P->unloaded.
 */
static void
collect_value(collect *c, sl_value *v, bool none)
{
	v->id = (uint32_t)c->last.n;
	if (v->id < c->ncur)
		c->cur[v->id] = none ? NULL : c->unloaded;
	SL_VEC_PUSH(c->last, SLI_NO_USE);
}

/*
 * Whether the walk numbered v already: its op (the defining one, or the
 * one whose region holds its block) was walked.  Ids left by an earlier
 * numbering say nothing; the op table tells.
 */
static bool
collected(const collect *c, const sl_value *v)
{
	const sl_op *op = v->def ? v->def
	                  : v->block && v->block->parent ? v->block->parent->parent : NULL;
	return op && op->id < c->ops.n && c->ops.v[op->id] == op;
}

/*
 * C_MULTI_USE for the users of v that need it, now that v has another
 * use (by op i): an op whose class depends on the use counts has it
 * when an operand that is not a scalar has more than one use.
 */
static void
mark_multi(collect *c, uint32_t i, const sl_value *v)
{
	/* its uses are linked from the last: two or more when the last has
	 * a previous one, two when that one has none */
	uint32_t prev = c->uses.v[c->last.v[v->id]].prev;
	if (prev == SLI_NO_USE || sli_op_priority_scalar(v))
		return;
	if (c->uses.v[prev].prev == SLI_NO_USE) {
		uint32_t first = c->uses.v[prev].op;
		if (sli_op_priority_counts(c->opclass.v[first]))
			c->opclass.v[first] = sli_op_priority_class_multi(c->opclass.v[first]);
	}
	if (sli_op_priority_counts(c->opclass.v[i]))
		c->opclass.v[i] = sli_op_priority_class_multi(c->opclass.v[i]);
}

/*
 * Records the uses of op's operands (op i), which in pre-order were
 * numbered before; its class is recorded already.  An operand not
 * numbered yet (a use before its definition) makes the records stale,
 * and sli_prop_index records every op again.
 */
static void
note_operands(collect *c, uint32_t i, const sl_op *op)
{
	for (uint32_t k = 0; k < op->noperands; k++) {
		sl_value *v = op->operands[k];
		if (!v)
			continue;
		if (!collected(c, v)) {
			c->stale = true;
			continue;
		}
		sli_prop_use u = {i, c->last.v[v->id]};
		if (sli_prop_operand_user(op)) {
			sli_prop_operand_no o = {(uint32_t)c->uses.n, k};
			SL_VEC_PUSH(c->use_operands, o);
		}
		c->last.v[v->id] = (uint32_t)c->uses.n;
		SL_VEC_PUSH(c->uses, u);
		mark_multi(c, i, v);
	}
}

/* Whether a result of op has a type propagation rejects (check_shapes). */
static bool
bad_shape(const sl_op *op)
{
	for (uint32_t r = 0; r < op->nresults; r++) {
		const sl_type *t = op->results[r].type;
		if (t && ((t->kind == SL_TYPE_TENSOR && !sli_type_is_static(t)) ||
		          t->kind == SL_TYPE_TUPLE))
			return true;
	}
	return false;
}

/* Whether visit() hands op to visit_generic. */
static bool
generic_visit(const sl_op *op)
{
	return op->kind != SL_OP_SDY_PROPAGATION_BARRIER &&
	       op->kind != SL_OP_SDY_DATA_FLOW_EDGE &&
	       op->kind != SL_OP_SDY_FUNC_DATA_FLOW_EDGE;
}

/*
 * Whether op may hold a sharding or a rule of its own (SLI_OPCLASS_ATTRS):
 * discardable attributes, an sdy.sharding among its properties, or a
 * kind whose shardings are properties (sdy ops, computations) or its
 * arguments' (functions).
 */
static bool
holds_attrs(const sl_op *op)
{
	return op->nattrs || op->kind == SL_OP_FUNC ||
	       op->kind == SL_OP_SDY_MANUAL_COMPUTATION ||
	       op->kind == SL_OP_SDY_NAMED_COMPUTATION || sli_single_sharding_prop(op) ||
	       (op->nprops && sli_op_prop(op, SLS_sdy_sharding));
}

/* Numbers op and its values (results, then its blocks' arguments). */
static int
collect_op(sl_op *op, void *ud)
{
	collect *c = ud;
	uint32_t id = (uint32_t)c->ops.n;
	uint8_t cls = sli_op_priority_class_early(op);
	if (generic_visit(op))
		cls |= SLI_OPCLASS_GENERIC |
		       (sli_prop_has_no_rule(op) ? SLI_OPCLASS_NO_STEP : 0);
	if (holds_attrs(op))
		cls |= SLI_OPCLASS_ATTRS;
	SL_VEC_PUSH(c->opclass, cls);
	/* before op is in the table, which says its results are numbered */
	note_operands(c, id, op);
	/* in pre-order, the parent was numbered before */
	const sl_op *parent = sli_op_parent(op);
	SL_VEC_PUSH(c->parent, parent && parent->kind != SL_OP_MODULE &&
	                       parent->id < c->ops.n && c->ops.v[parent->id] == parent
	                       ? parent->id : SLI_NO_PARENT);
	op->id = id;
	SL_VEC_PUSH(c->ops, op);
	if (op->kind == SL_OP_SDY_DATA_FLOW_EDGE || op->kind == SL_OP_CALL ||
	    (op->kind == SL_OP_SDY_SHARDING_GROUP && op->noperands))
		SL_VEC_PUSH(c->special, op);
	if (!c->bad_shape && bad_shape(op))
		c->bad_shape = op;
	/* without attributes, its results have no sharding of their own
	 * (shardings.c: load()); an edge may hold one (sli_prop_index) */
	for (uint32_t i = 0; i < op->nresults; i++)
		collect_value(c, &op->results[i], !(cls & SLI_OPCLASS_ATTRS));
	for (uint32_t r = 0; r < op->nregions; r++)
		for (sl_block *b = op->regions[r].first; b; b = b->next)
			for (uint32_t i = 0; i < b->nargs; i++)
				collect_value(c, &b->args[i], false);
	return 0;
}

/* After a use before its definition: every op's uses again. */
static void
renote_operands(collect *c)
{
	c->uses.n = 0;
	c->use_operands.n = 0;
	for (size_t v = 0; v < c->last.n; v++)
		c->last.v[v] = SLI_NO_USE;
	for (size_t i = 0; i < c->ops.n; i++) {
		c->opclass.v[i] = sli_op_priority_class_early(c->ops.v[i]) |
		                  (c->opclass.v[i] & ~SLI_OPCLASS_PRIO);
		note_operands(c, (uint32_t)i, c->ops.v[i]);
	}
}

void
sli_prop_index_fini(sli_prop *P)
{
	if (P->calls)	/* only a module with calls has the table */
		for (uint32_t i = 0; i < P->nops; i++)
			free(P->calls[i]);
	table_free(P->calls);
	free(P->ops);
	free(P->parent);
	free(P->use_last);
	free(P->uses);
	free(P->use_operands);
	table_free(P->edge);
	table_free(P->rules);
	free(P->opclass);
	table_free(P->sig);
	table_free(P->own);
	sli_htab_fini(&P->rule_reps);
	table_free(P->cur);
	sli_arena_fini(&P->tabmem);
	for (size_t i = 0; i < P->groups.n; i++)
		free(P->groups.v[i]);
	SL_VEC_FREE(P->groups);
	SL_VEC_FREE(P->group_sizes);
	P->calls = NULL;
	P->ops = NULL;
	P->parent = NULL;
	P->use_last = NULL;
	P->uses = NULL;
	P->use_operands = NULL;
	P->nuse_operands = 0;
	P->edge = NULL;
	P->group = NULL;
	P->rules = NULL;
	P->sig = NULL;
	P->opclass = NULL;
	P->cur = NULL;
	P->own = NULL;
	P->quiet = NULL;
	P->stack = NULL;
	P->queued = NULL;
}

/* The value a data_flow_edge's owner stands for, and the other targets. */
static void
index_edge(sli_prop *P, sl_op *e)
{
	if (!e->noperands || !e->nresults)
		return;
	sl_value *owner = e->operands[0];
	P->edge[owner->id] = e;
	P->edge[e->results[0].id] = e;
	if (owner->def && owner->def->kind == SL_OP_WHILE) {
		sl_op *w = owner->def;
		for (uint32_t r = 0; r < w->nregions && r < 2; r++) {
			sl_block *b = w->regions[r].first;
			if (b && owner->index < b->nargs)
				P->edge[b->args[owner->index].id] = e;
		}
	}
}

sl_sym
sli_prop_callee(sl_module *m, const sl_op *call)
{
	sl_attr *c = sli_op_get(call, SLS_callee);
	if (!c || c->kind != SL_ATTR_SYMREF)
		return 0;
	return sli_attr_sym(m->ctx, c);
}

typedef SL_VEC(int64_t) id_vec;
typedef SL_VEC(sl_value *) value_vec;
typedef SL_VEC(value_vec) members_vec;

/* The calls, edges and sharding groups the walk set aside, in op order. */
static void
index_special(sli_prop *P, sl_op *op, id_vec *ids, members_vec *members)
{
	if (op->kind == SL_OP_SDY_DATA_FLOW_EDGE) {
		index_edge(P, op);
	} else if (op->kind == SL_OP_CALL) {
		sl_op *f = sli_lookup_func(P->m, sli_prop_callee(P->m, op));
		if (f) {
			if (!P->calls)
				P->calls = sli_prop_table(P->nops, sizeof *P->calls,
				                          SLI_TABLE_SPARSE);
			size_t n = 0;
			while (P->calls[f->id] && P->calls[f->id][n])
				n++;
			P->calls[f->id] = sli_xrealloc(P->calls[f->id], sizeof(sl_op *) * (n + 2));
			P->calls[f->id][n] = op;
			P->calls[f->id][n + 1] = NULL;
		}
	} else {
		sl_attr *a = sli_op_get(op, SLS_group_id);
		int64_t id = a && a->kind == SL_ATTR_INT ? a->u.i.v : 0;
		size_t g = 0;
		while (g < ids->n && ids->v[g] != id)
			g++;
		if (g == ids->n) {
			SL_VEC_PUSH(*ids, id);
			SL_VEC_RESERVE(*members, g + 1);
			memset(&members->v[g], 0, sizeof members->v[g]);
			members->n = g + 1;
		}
		sl_value *v = op->operands[0];
		bool dup = false;
		for (size_t j = 0; j < members->v[g].n; j++)
			dup |= members->v[g].v[j] == v;
		if (!dup)
			SL_VEC_PUSH(members->v[g], v);
	}
}

/*
 * Room for every op, value and use of m at once, bounded by the arenas
 * that hold the ops with their operand lists and the values: grown by
 * doubling, the tables were copied a few times over on a big module and
 * left the copies in the heap (issue 17: peak memory).  The pages of the
 * room not used are not touched.  More than that (operand lists outside
 * the op arena, more than two uses a value) still grows as before.
 */
static void
reserve(collect *c, const sl_module *m)
{
	size_t nops = m->oparena.total / sizeof(sl_op) + 1;
	size_t nvalues = m->valarena.total / sizeof(sl_value) + 1;
	/* an op's operand list is a fraction of its arena's bytes: two uses
	 * a value covers real programs without reserving a lot more */
	size_t nuses = m->oparena.total / sizeof(sl_value *) + 1;
	if (nuses > 2 * nvalues)
		nuses = 2 * nvalues;
	SL_VEC_RESERVE(c->ops, nops);
	SL_VEC_RESERVE(c->parent, nops);
	SL_VEC_RESERVE(c->opclass, nops + 1);
	SL_VEC_RESERVE(c->last, nvalues + 1);
	SL_VEC_RESERVE(c->uses, nuses + 1);
	c->ncur = nvalues + 1;
	c->cur = sli_prop_table(c->ncur, sizeof *c->cur, SLI_TABLE_DENSE);
}

void
sli_prop_index(sli_prop *P)
{
	uint32_t *old_rules = P->rules;
	uint32_t old_nops = P->nops;
	P->rules = NULL;
	sli_prop_index_fini(P);
	static const sl_sharding unloaded;
	P->unloaded = &unloaded;
	collect c = {0};
	c.unloaded = P->unloaded;
	reserve(&c, P->m);
	SL_VEC_PUSH(c.last, SLI_NO_USE);	/* id 0: no value (sli_prop_indexed) */
	c.cur[0] = P->unloaded;
	sli_walk(P->m->top, collect_op, &c);
	if (c.stale)
		renote_operands(&c);
	P->ops = c.ops.v;
	P->parent = c.parent.v;
	P->nops = (uint32_t)c.ops.n;
	P->nvalues = (uint32_t)c.last.n;
	P->bad_shape = c.bad_shape;
	/* no entries, also for no ops; a use, also for none */
	SL_VEC_PUSH(c.uses, (sli_prop_use){0});
	uint32_t nv = P->nvalues, no = P->nops ? P->nops : 1;

	P->use_last = c.last.v;
	P->uses = c.uses.v;
	P->use_operands = c.use_operands.v;
	P->nuse_operands = (uint32_t)c.use_operands.n;
	SL_VEC_PUSH(c.opclass, 0);	/* no entries, also for no ops */
	P->opclass = c.opclass.v;
	/* most programs have no edges, and then no table (sli_prop_edge) */
	for (size_t i = 0; i < c.special.n && !P->edge; i++)
		if (c.special.v[i]->kind == SL_OP_SDY_DATA_FLOW_EDGE)
			P->edge = sli_prop_table(nv, sizeof *P->edge, SLI_TABLE_SPARSE);
	P->rules = sli_prop_table(no, sizeof *P->rules, SLI_TABLE_RESIDENT);
	if (old_rules) {
		/* op ids are stable when nothing was inserted */
		if (old_nops == P->nops)
			memcpy(P->rules, old_rules, sizeof *P->rules * P->nops);
		table_free(old_rules);
	}
	/* P->own gets its table with the first owned attribute (sli_prop_set) */
	P->sig = sli_prop_table(no, sizeof *P->sig, SLI_TABLE_RESIDENT);
	P->quiet = SL_NEWN(&P->tabmem, uint8_t, no);
	/* the biggest table, filled whole: its pages go back at the end,
	 * before export and printing pile onto the heap.  The walk filled
	 * it, unless there were more values than reserve() expected, or an
	 * edge holds the sharding of a value it took to have none. */
	P->cur = c.cur;
	if (nv > c.ncur || P->edge) {
		if (nv > c.ncur) {
			table_free(c.cur);
			P->cur = sli_prop_table(nv, sizeof *P->cur, SLI_TABLE_DENSE);
		}
		for (uint32_t v = 0; v < nv; v++)
			P->cur[v] = P->unloaded;
	}
	P->stack = sli_arena_alloc(&P->tabmem, sizeof *P->stack * no);
	P->queued = SL_NEWN(&P->tabmem, uint8_t, no);
	P->nstack = 0;

	/* edges, callers and sharding groups (members in op order, groups
	 * in id order below) */
	id_vec ids = {0};
	members_vec members = {0};
	for (size_t i = 0; i < c.special.n; i++)
		index_special(P, c.special.v[i], &ids, &members);
	SL_VEC_FREE(c.special);
	/* groups sorted by id */
	size_t ng = ids.n;
	size_t *order = sli_xmalloc(sizeof *order * (ng ? ng : 1));
	for (size_t i = 0; i < ng; i++) {
		size_t j = i;
		while (j > 0 && ids.v[order[j - 1]] > ids.v[i]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	/* no table when there are no groups, the common case */
	if (ng) {
		P->group = sli_arena_alloc(&P->tabmem, sizeof *P->group * nv);
		for (uint32_t v = 0; v < nv; v++)
			P->group[v] = -1;
	}
	for (size_t i = 0; i < ng; i++) {
		size_t g = order[i];
		SL_VEC_PUSH(P->groups, members.v[g].v);
		SL_VEC_PUSH(P->group_sizes, (uint32_t)members.v[g].n);
		for (size_t j = 0; j < members.v[g].n; j++)
			P->group[members.v[g].v[j]->id] = (int32_t)i;
	}
	free(order);
	SL_VEC_FREE(ids);
	SL_VEC_FREE(members);

	/* meshes and the main function */
	free(P->meshes);
	P->meshes = NULL;
	P->nmeshes = 0;
	P->main_func = NULL;
	sl_op *only = NULL;
	uint32_t nfuncs = 0;
	sl_block *top = P->m->top->nregions ? P->m->top->regions[0].first : NULL;
	for (sl_op *op = top ? top->first : NULL; op; op = op->next) {
		if (op->kind == SL_OP_SDY_MESH) {
			sl_attr *mesh = sli_op_get(op, SLS_mesh);
			if (!mesh || mesh->kind != SL_ATTR_MESH)
				continue;
			P->meshes = sli_xrealloc(P->meshes, sizeof *P->meshes * (P->nmeshes + 1));
			P->meshes[P->nmeshes].name = sli_op_sym_name(P->m, op);
			P->meshes[P->nmeshes].mesh = &mesh->u.mesh;
			P->nmeshes++;
		} else if (op->kind == SL_OP_FUNC) {
			nfuncs++;
			only = op;
			sl_sym name = sli_op_sym_name(P->m, op);
			if (!strcmp(sl_sym_str(P->ctx, name), "main"))
				P->main_func = op;
		}
	}
	if (nfuncs == 1)
		P->main_func = only;
	if (P->main_func && (!P->main_func->nregions || !P->main_func->regions[0].first))
		P->main_func = NULL;

}

bool
sli_prop_multi_use(const sli_prop *P, const sl_value *v)
{
	if (!sli_prop_indexed(P, v))
		return false;
	uint32_t last = P->use_last[v->id];
	return last != SLI_NO_USE && P->uses[last].prev != SLI_NO_USE;
}

uint32_t
sli_prop_use_operand(const sli_prop *P, uint32_t use)
{
	uint32_t lo = 0, hi = P->nuse_operands;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (P->use_operands[mid].use < use)
			lo = mid + 1;
		else
			hi = mid;
	}
	return P->use_operands[lo].operand;
}

const sl_mesh *
sli_prop_mesh_of(const sli_prop *P, const sl_sharding *s)
{
	if (s->mesh)
		return s->mesh;
	for (uint32_t i = 0; i < P->nmeshes; i++)
		if (P->meshes[i].name == s->mesh_name)
			return P->meshes[i].mesh;
	return NULL;
}
