/*
 * op_priority_propagate.c - the sdy-op-priority-propagate pass and the
 * heuristic schedule of spec/propagation.md section 5: five cumulative
 * heuristics decide, per op and factor, which directions are allowed at
 * each level; levels 0..4 run one full strategy run each.
 */
#include "propagation/prop_internal.h"

#include <string.h>

static int
dir_union(int a, int b)
{
	if ((a == SL_DIR_FORWARD && b == SL_DIR_BACKWARD) ||
	    (a == SL_DIR_BACKWARD && b == SL_DIR_FORWARD))
		return SL_DIR_BOTH;
	return a > b ? a : b;
}

static bool
is_move_call(const sl_op *op)
{
	if (op->kind != SL_OP_CUSTOM_CALL)
		return false;
	sl_attr *t = sli_op_get(op, SLS_call_target_name);
	if (!t || t->kind != SL_ATTR_STRING)
		return false;
	return (t->u.s.n == 10 && !memcmp(t->u.s.p, "MoveToHost", 10)) ||
	       (t->u.s.n == 12 && !memcmp(t->u.s.p, "MoveToDevice", 12));
}

static bool
pass_through_op(const sl_op *op)
{
	switch (op->kind) {
	case SL_OP_RESHAPE:
	case SL_OP_TRANSPOSE:
	case SL_OP_SDY_DATA_FLOW_EDGE:
	case SL_OP_SDY_FUNC_DATA_FLOW_EDGE:
		return true;
	default:
		return sli_prop_elementwise(op) || is_move_call(op);
	}
}

static bool
dynamic_slice_op(const sl_op *op)
{
	return op->kind == SL_OP_DYNAMIC_SLICE || op->kind == SL_OP_DYNAMIC_UPDATE_SLICE;
}

bool
sli_op_priority_scalar(const sl_value *v)
{
	const sl_type *t = v->type;
	return t && t->kind == SL_TYPE_TENSOR && !t->unranked && t->rank == 0;
}

/* Some operand that is not a rank-0 tensor has more than one use. */
static bool
multi_use(const sli_prop *P, const sl_op *op)
{
	for (uint32_t i = 0; i < op->noperands; i++) {
		if (sli_op_priority_scalar(op->operands[i]))
			continue;
		if (sli_prop_multi_use(P, op->operands[i]))
			return true;
	}
	return false;
}

/*
 * Op traits the heuristics look at, computed once per op and pass (the
 * driver keeps SLI_OPCLASS_* in the high bits).
 */
enum {
	C_DONE = 1,
	C_PASS_THROUGH = 2,
	C_DYNAMIC_SLICE = 4,
	C_MULTI_USE = 8,
	C_BROADCAST = 16
};

uint8_t
sli_op_priority_class_early(const sl_op *op)
{
	uint8_t k = C_DONE;
	if (pass_through_op(op))
		k |= C_PASS_THROUGH;
	if (dynamic_slice_op(op))
		k |= C_DYNAMIC_SLICE;
	if (op->kind == SL_OP_BROADCAST_IN_DIM)
		k |= C_BROADCAST;
	return k;
}

bool
sli_op_priority_counts(uint8_t k)
{
	return (k & (C_PASS_THROUGH | C_DYNAMIC_SLICE)) != 0;
}

uint8_t
sli_op_priority_class_multi(uint8_t k)
{
	return (uint8_t)(k | C_MULTI_USE);
}

static unsigned
op_class(sli_prop *P, const sl_op *op)
{
	uint8_t *c = op->id < P->nops && P->ops[op->id] == op ? &P->opclass[op->id] : NULL;
	if (c && (*c & C_DONE))
		return *c & (C_DONE | C_PASS_THROUGH | C_DYNAMIC_SLICE | C_MULTI_USE | C_BROADCAST);
	unsigned k = sli_op_priority_class_early(op);
	if (sli_op_priority_counts((uint8_t)k) && multi_use(P, op))
		k |= C_MULTI_USE;
	if (c)
		*c |= (uint8_t)k;
	return k;
}

static int
heuristic(unsigned k, bool pass_through_factor, int h)
{
	switch (h) {
	case 0:
		if (k & C_PASS_THROUGH)
			return k & C_MULTI_USE ? SL_DIR_NONE : SL_DIR_BOTH;
		if (k & C_DYNAMIC_SLICE)
			return k & C_MULTI_USE ? SL_DIR_NONE : SL_DIR_FORWARD;
		return SL_DIR_NONE;
	case 1:
		if (k & C_PASS_THROUGH)
			return SL_DIR_BOTH;
		return k & C_DYNAMIC_SLICE ? SL_DIR_FORWARD : SL_DIR_NONE;
	case 2:
		if (!pass_through_factor)
			return SL_DIR_NONE;
		return k & C_BROADCAST ? SL_DIR_BACKWARD : SL_DIR_BOTH;
	case 3:
		return k & C_BROADCAST ? SL_DIR_BACKWARD : SL_DIR_BOTH;
	default:
		return SL_DIR_BOTH;
	}
}

uint8_t
sli_op_priority_class(sli_prop *P, const sl_op *op)
{
	return (uint8_t)op_class(P, op);
}

bool
sli_op_priority_idle_class(uint8_t k, int level)
{
	if (level < 0 || level > 1)
		return false;
	if (!(k & (C_PASS_THROUGH | C_DYNAMIC_SLICE)))
		return true;	/* heuristics 0 and 1 allow nothing */
	return level == 0 && (k & C_MULTI_USE);
}

void
sli_op_priority_dirs(sli_prop *P, const sl_op *op, int level, uint8_t *pass_through,
                     uint8_t *other)
{
	sli_op_priority_dirs_class(P, (uint8_t)op_class(P, op), level, pass_through, other);
}

void
sli_op_priority_dirs_class(sli_prop *P, uint8_t k, int level, uint8_t *pass_through,
                           uint8_t *other)
{
	/* a function of the class and the level: every op asks, few classes */
	if (level != P->prio_level) {
		memset(P->prio_dirs, 0, sizeof P->prio_dirs);
		P->prio_level = level;
	}
	uint8_t *c = &P->prio_dirs[k & 31];
	if (!*c) {
		int dp = SL_DIR_NONE, doth = SL_DIR_NONE;
		for (int h = 0; h <= level; h++) {
			dp = dir_union(dp, heuristic(k, true, h));
			doth = dir_union(doth, heuristic(k, false, h));
		}
		*c = (uint8_t)(1 + dp * 4 + doth);
	}
	*pass_through = (uint8_t)((*c - 1) / 4);
	*other = (uint8_t)((*c - 1) % 4);
}

void
sli_prop_op_priority(sli_prop *P)
{
	if (!sli_prop_options(P)->op_priority) {
		sli_prop_strategy_run(P, -1);
		return;
	}
	for (int level = 0; level <= 4; level++)
		sli_prop_strategy_run(P, level);
}

int
sli_pass_op_priority_propagate(sl_module *m, const sli_pass_opts *opts)
{
	sli_prop_opts o;
	if (sli_prop_opts_parse(m, opts, SLI_PROP_OP_PRIORITY, &o))
		return -1;
	return sli_propagate(m, &o);
}
