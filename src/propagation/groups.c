/*
 * groups.c - sharding groups (spec 7.7): the initial synchronisation,
 * which gives every member the group's one sharding or, on a conflict,
 * warns and inserts open sharding constraints; and the write of a new
 * sharding onto the other members after a step.  Also the same
 * resolution of conflicts on a module outside propagation (the ILP's).
 */
#include "propagation/prop_internal.h"
#include "formats/mlir_printer.h"
#include "ir/access.h"

static bool
fully_open(const sl_sharding *s)
{
	for (uint32_t d = 0; d < s->rank; d++)
		if (s->dims[d].axes.n || !s->dims[d].open)
			return false;
	return true;
}

/* Writes s onto v's group members (spec 7.7). */
void
sli_prop_sync_group(sli_prop *P, sl_value *v, const sl_sharding *s, bool notify)
{
	if (!P->group || !sli_prop_indexed(P, v))
		return;
	int32_t g = P->group[v->id];
	if (g < 0)
		return;
	for (uint32_t i = 0; i < P->group_sizes.v[g]; i++) {
		sl_value *w = P->groups.v[g][i];
		if (w == v)
			continue;
		sli_prop_set(P, w, s);
		if (notify) {
			sl_value *sw = sli_prop_shardable(P, w);
			if (sw)
				sli_prop_notify_modified(P, sw);
		}
	}
}

/* Inserts `sdy.sharding_constraint v <open>` and redirects v's other uses. */
static sl_value *
insert_open_constraint(sl_module *m, sl_value *v, const sl_sharding *like)
{
	sl_op *c = sli_op_create(m, SL_OP_SDY_SHARDING_CONSTRAINT, &v, 1, &v->type, 1, 0);
	sl_sharding *s = sli_prop_open_like(m, like, v->type);
	sli_result_set_sharding(m, c, 0, s);
	sl_op *scope;
	if (v->def) {
		c->loc = v->def->loc;
		if (v->def->next)
			sli_op_insert_before(v->def->next, c);
		else
			sli_op_append(v->def->parent, c);
		scope = sli_op_parent(v->def);
	} else {
		c->loc = v->block->parent->parent->loc;
		if (v->block->first)
			sli_op_insert_before(v->block->first, c);
		else
			sli_op_append(v->block, c);
		scope = v->block->parent->parent;
	}
	sli_replace_uses_except(scope ? scope : m->top, v, &c->results[0], c);
	return &c->results[0];
}

static sl_loc
value_loc(const sl_value *v)
{
	if (v->def)
		return v->def->loc;
	if (v->block && v->block->parent && v->block->parent->parent)
		return v->block->parent->parent->loc;
	return sli_value_loc(v);
}

/* "<sharding> on argument 1 of @f (3:17)" and the like, for messages. */
static void
describe(sli_prop *P, sli_buf *b, const sl_value *v, const sl_sharding *s)
{
	sli_print_sharding(b, P->ctx, s, false);
	sl_loc l = sli_value_loc(v);
	if (!l.line)
		l = value_loc(v);
	if (v->def) {
		sli_buf_printf(b, " on result %u of '%s'", v->index,
		               sl_sym_str(P->ctx, v->def->name));
	} else {
		sl_op *o = v->block && v->block->parent ? v->block->parent->parent : NULL;
		if (o && o->kind == SL_OP_FUNC)
			sli_buf_printf(b, " on argument %u of @%s", v->index,
			               sl_sym_str(P->ctx, sli_op_sym_name(P->m, o)));
		else
			sli_buf_printf(b, " on block argument %u", v->index);
	}
	if (l.line)
		sli_buf_printf(b, " (%u:%u)", l.line, l.col);
}

/* Returns true when constraints were inserted (the tables are stale). */
bool
sli_prop_sync_groups_initial(sli_prop *P)
{
	bool inserted = false;
	for (size_t g = 0; g < P->groups.n; g++) {
		sl_value **mem = P->groups.v[g];
		uint32_t n = P->group_sizes.v[g];
		const sl_sharding *common = NULL, *other = NULL;
		uint32_t ci = 0, oi = 0;
		bool conflict = false;
		for (uint32_t i = 0; i < n; i++) {
			const sl_sharding *s = sli_prop_get(P, mem[i]);
			if (!s || fully_open(s))
				continue;
			if (!common) {
				common = s;
				ci = i;
			} else if (!sli_prop_sharding_eq(s, common) && !conflict) {
				conflict = true;
				other = s;
				oi = i;
			}
		}
		if (!common)
			continue;
		if (!conflict) {
			for (uint32_t i = 0; i < n; i++)
				sli_prop_set(P, mem[i], common);
			continue;
		}
		/* Shardy's text, then both sides of the first conflict */
		sli_buf b;
		sli_buf_init(&b);
		describe(P, &b, mem[ci], common);
		sli_buf_printf(&b, " vs ");
		describe(P, &b, mem[oi], other);
		sli_diag(P->ctx, SL_DIAG_WARNING, value_loc(mem[0]),
		         "The initial operand shardings on the sharding groups of groupID: %zu "
		         "do not match. Inserting an open sharding constraint to all constrained "
		         "values. This could result in unexpected behavior if the sharding "
		         "groups are not resolved. Conflict: %s", g, sli_buf_cstr(&b));
		sli_buf_fini(&b);
		for (uint32_t i = 0; i < n; i++)
			mem[i] = insert_open_constraint(P->m, mem[i], common);
		inserted = true;
	}
	return inserted;
}

typedef SL_VEC(sl_op *) group_ops;

static int
collect_group(sl_op *op, void *ud)
{
	if (op->kind == SL_OP_SDY_SHARDING_GROUP && op->noperands)
		SL_VEC_PUSH(*(group_ops *)ud, op);
	return 0;
}

/*
 * The groups of m whose members' initial shardings conflict get open
 * sharding constraints as sli_prop_sync_groups_initial gives them (the
 * sharding_group ops then hold the constraints), without its warning,
 * which the greedy strategies give.  Returns true when any was inserted.
 */
bool
sli_groups_resolve_conflicts(sl_module *m)
{
	group_ops ops = {0};
	if (m->top)
		sli_walk(m->top, collect_group, &ops);
	bool inserted = false;
	for (size_t i = 0; i < ops.n; i++) {
		if (!ops.v[i])
			continue;
		sl_attr *a = sli_op_get(ops.v[i], SLS_group_id);
		int64_t id = a && a->kind == SL_ATTR_INT ? a->u.i.v : 0;
		/* the group's members: the operands of the ops of its id */
		SL_VEC(sl_op *) mem = {0};
		const sl_sharding *common = NULL;
		bool conflict = false;
		for (size_t j = i; j < ops.n; j++) {
			sl_attr *b = ops.v[j] ? sli_op_get(ops.v[j], SLS_group_id) : NULL;
			if (!b || b->kind != SL_ATTR_INT || b->u.i.v != id)
				continue;
			SL_VEC_PUSH(mem, ops.v[j]);
			ops.v[j] = NULL;
			const sl_sharding *s = sli_value_sharding(mem.v[mem.n - 1]->operands[0]);
			if (!s || fully_open(s))
				continue;
			if (!common)
				common = s;
			else if (!sli_prop_sharding_eq(s, common))
				conflict = true;
		}
		for (size_t j = 0; conflict && j < mem.n; j++) {
			sl_value *v = mem.v[j]->operands[0];
			if (v->def && v->def->kind == SL_OP_SDY_SHARDING_CONSTRAINT)
				continue;	/* resolved before */
			insert_open_constraint(m, v, common);
			inserted = true;
		}
		SL_VEC_FREE(mem);
	}
	SL_VEC_FREE(ops);
	return inserted;
}
