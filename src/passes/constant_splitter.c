/*
 * constant_splitter.c - -sdy-constant-or-scalar-splitter
 * (spec/import-passes.md section 2.4): every non-constant use of a
 * constant sub-computation, or of a broadcast of a scalar, gets its own
 * copy, so that shardings do not leak between the uses.  Afterwards no
 * original constant sub-computation has a non-constant user.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdlib.h>
#include <string.h>

/* A set of symbols: member s when s < n and v[s] (constant-time tests). */
typedef SL_VEC(bool) symvec;

typedef struct splitter {
	sl_module *m;
	sli_symtab syms;
	symvec nonconst_ncs;	/* names of non-constant named computations */
	symvec nonconst_funcs;	/* original names of non-constant functions */
	bool groups;		/* the module has sharding groups */
	/* per region */
	sli_opvec constants, expansions;
	sl_op *owner;		/* the region's op */
	bool have_uses;		/* uses computed */
	sli_uses uses;	/* of the region before it changes */
} splitter;

static bool
has_sym(const symvec *v, sl_sym s)
{
	return s < v->n && v->v[s];
}

static void
add_sym(symvec *v, sl_sym s)
{
	if (s >= v->n) {
		SL_VEC_RESERVE(*v, (size_t)s + 1);
		memset(v->v + v->n, 0, sizeof *v->v * ((size_t)s + 1 - v->n));
		v->n = (size_t)s + 1;
	}
	v->v[s] = true;
}

/* op->id marks, reset for every region */
enum { MARK_NONE, MARK_CONSTANT, MARK_EXPANSION };

/*
 * The uses the splitter asks for are those of values of marked ops
 * (constants and scalar expansions); an op outside the region may carry a
 * stale mark, which only adds use lists nobody asks for.
 */
static bool
marked_value(const sl_value *v)
{
	return v->def && v->def->id != MARK_NONE;
}

static sl_sym
nc_name(splitter *S, const sl_op *nc)
{
	sl_attr *a = sli_op_get(nc, SLS_name);
	if (!a || a->kind != SL_ATTR_STRING)
		return 0;
	return sli_attr_sym(S->m->ctx, a);
}

static bool
is_rank0(const sl_value *v)
{
	return v->type->kind == SL_TYPE_TENSOR && !v->type->unranked && v->type->rank == 0;
}

static bool
is_elementwise(const sl_op *op)
{
	switch (op->kind) {
	case SL_OP_ABS: case SL_OP_ADD: case SL_OP_AND: case SL_OP_ATAN2:
	case SL_OP_CBRT: case SL_OP_CEIL: case SL_OP_CLAMP: case SL_OP_CLZ:
	case SL_OP_CONVERT: case SL_OP_COSINE: case SL_OP_DIVIDE:
	case SL_OP_EXPONENTIAL: case SL_OP_EXPM1: case SL_OP_FLOOR: case SL_OP_IMAG:
	case SL_OP_IS_FINITE: case SL_OP_LOG: case SL_OP_LOG1P: case SL_OP_LOGISTIC:
	case SL_OP_MAXIMUM: case SL_OP_MINIMUM: case SL_OP_MULTIPLY: case SL_OP_NEGATE:
	case SL_OP_NOT: case SL_OP_OR: case SL_OP_POPCNT: case SL_OP_POWER:
	case SL_OP_REAL: case SL_OP_REMAINDER: case SL_OP_ROUND_AFZ:
	case SL_OP_ROUND_EVEN: case SL_OP_RSQRT: case SL_OP_SHIFT_LEFT:
	case SL_OP_SHIFT_RIGHT_ARITHMETIC: case SL_OP_SHIFT_RIGHT_LOGICAL:
	case SL_OP_SIGN: case SL_OP_SINE: case SL_OP_SQRT: case SL_OP_SUBTRACT:
	case SL_OP_TAN: case SL_OP_TANH: case SL_OP_XOR: case SL_OP_REDUCE_PRECISION:
	case SL_OP_COMPLEX: case SL_OP_SELECT: case SL_OP_COMPARE:
	case SL_OP_UNIFORM_QUANTIZE: case SL_OP_UNIFORM_DEQUANTIZE:
	case SL_OP_SDY_PROPAGATION_BARRIER: case SL_OP_SDY_SHARDING_CONSTRAINT:
	case SL_OP_SDY_RESHARD:
		return true;
	case SL_OP_BITCAST_CONVERT: {
		const sl_type *a = op->noperands ? op->operands[0]->type : NULL;
		const sl_type *b = op->nresults ? op->results[0].type : NULL;
		if (!a || !b || a->kind != SL_TYPE_TENSOR || b->kind != SL_TYPE_TENSOR ||
		    a->rank != b->rank)
			return false;
		for (uint32_t i = 0; i < a->rank; i++)
			if (a->dims[i] != b->dims[i])
				return false;
		return true;
	}
	default:
		return sli_op_info[op->kind].format == SL_FMT_CHLO;
	}
}

static bool
is_constant_preserving(splitter *S, const sl_op *op)
{
	switch (op->kind) {
	case SL_OP_CALL: {
		sl_op *f = sli_call_func(S->m, op);
		if (!f)
			return false;
		return !has_sym(&S->nonconst_funcs, sli_func_original_name(S->m, f));
	}
	case SL_OP_SDY_NAMED_COMPUTATION:
		return !has_sym(&S->nonconst_ncs, nc_name(S, op));
	case SL_OP_BROADCAST_IN_DIM:
	case SL_OP_RESHAPE:
	case SL_OP_SLICE:
		return true;
	default:
		return is_elementwise(op);
	}
}

static bool
is_constant_expression(splitter *S, const sl_op *op)
{
	if (op->kind == SL_OP_SDY_CONSTANT || op->kind == SL_OP_IOTA)
		return true;
	if (!is_constant_preserving(S, op))
		return false;
	for (uint32_t i = 0; i < op->noperands; i++) {
		const sl_op *d = op->operands[i]->def;
		if (!d || d->id != MARK_CONSTANT)
			return false;
	}
	return true;
}

static bool
is_scalar_expansion(const sl_op *op)
{
	return op->kind == SL_OP_BROADCAST_IN_DIM && op->noperands == 1 &&
	       is_rank0(op->operands[0]);
}

/* Clones the sub-computation producing r right before each original op
 * (operands first), with the sharding groups on r. */
static void
clone_sub(splitter *S, sl_value *r, sli_vmap *map)
{
	if (is_rank0(r) || sli_vmap_get(map, r))
		return;
	sl_op *op = r->def;
	for (uint32_t i = 0; i < op->noperands; i++)
		if (op->operands[i]->def)
			clone_sub(S, op->operands[i], map);
	sl_op *c = sli_op_clone(S->m, op, map);
	sli_op_insert_before(op, c);
	if (c->kind == SL_OP_CALL) {
		sl_op *f = sli_call_func(S->m, c);
		if (f) {
			sl_op *cf = sli_clone_func_recursively(&S->syms, f);
			sli_call_set_callee(S->m, c, sli_op_sym_name(S->m, cf));
		}
	}
	if (!S->groups)
		return;
	/* the first clone is the region's first change: its uses are still
	 * those of the region as it was */
	if (!S->have_uses) {
		sli_uses_compute_if(&S->uses, S->owner, marked_value);
		S->have_uses = true;
	}
	size_t n;
	const sli_use *u = sli_uses_of(&S->uses, r, &n);
	for (size_t i = 0; i < n; i++)
		if (u[i].user->kind == SL_OP_SDY_SHARDING_GROUP)
			sli_op_insert_before(op, sli_op_clone(S->m, u[i].user, map));
}

static sl_value *
clone_root(splitter *S, sl_value *r)
{
	if (is_rank0(r))
		return r;
	sli_vmap map;
	sli_vmap_init(&map);
	clone_sub(S, r, &map);
	sl_value *c = sli_vmap_lookup(&map, r);
	sli_vmap_fini(&map);
	return c;
}

/* Ops of a region in pre-order, not entering named computation bodies. */
static void
collect(sl_block *b, sli_opvec *out)
{
	for (sl_op *op = b->first; op; op = op->next) {
		SL_VEC_PUSH(*out, op);
		if (op->kind == SL_OP_SDY_NAMED_COMPUTATION)
			continue;
		for (uint32_t r = 0; r < op->nregions; r++)
			for (sl_block *bb = op->regions[r].first; bb; bb = bb->next)
				collect(bb, out);
	}
}

static bool
erased(const sl_op *op)
{
	for (; op; op = sli_op_parent(op))
		if (!op->parent)
			return op->kind != SL_OP_MODULE;
	return false;
}

/* Erases op when all its remaining users are sharding groups. */
static void
erase_if_unused(sl_op *op, const sli_uses *uses)
{
	for (uint32_t r = 0; r < op->nresults; r++) {
		size_t n;
		const sli_use *u = sli_uses_of(uses, &op->results[r], &n);
		for (size_t i = 0; i < n; i++)
			if (!erased(u[i].user) && u[i].user->kind != SL_OP_SDY_SHARDING_GROUP)
				return;
	}
	for (uint32_t r = 0; r < op->nresults; r++) {
		size_t n;
		const sli_use *u = sli_uses_of(uses, &op->results[r], &n);
		for (size_t i = 0; i < n; i++)
			if (!erased(u[i].user))
				sli_op_erase(u[i].user);
	}
	sli_op_erase(op);
}

/*
 * Processes one region: the body of `owner` (a function or a named
 * computation nested in func).  ops: its ops as collect() gives them,
 * when the caller has them (they are freed here), else NULL.
 */
static void
process_region(splitter *S, sl_op *owner, sl_op *func, sli_opvec *pre)
{
	sl_block *b = owner->nregions ? owner->regions[0].first : NULL;
	sli_opvec ops = {0};
	if (pre) {
		ops = *pre;
		memset(pre, 0, sizeof *pre);
	}
	if (!b) {
		SL_VEC_FREE(ops);
		return;
	}
	if (!pre)
		collect(b, &ops);
	for (size_t i = 0; i < ops.n; i++)
		ops.v[i]->id = MARK_NONE;
	S->constants.n = S->expansions.n = 0;
	S->owner = owner;
	S->have_uses = false;
	bool nonconst = false;	/* the names below are added once per region */
	for (size_t i = 0; i < ops.n; i++) {
		sl_op *op = ops.v[i];
		if (op->kind == SL_OP_FUNC || op->kind == SL_OP_SDY_SHARDING_GROUP)
			continue;
		if (is_constant_expression(S, op)) {
			op->id = MARK_CONSTANT;
			SL_VEC_PUSH(S->constants, op);
			continue;
		}
		if (!nonconst && !is_constant_preserving(S, op) &&
		    !(sli_op_info[op->kind].traits & T_TERM)) {
			nonconst = true;
			if (owner != func)
				add_sym(&S->nonconst_ncs, nc_name(S, owner));
			add_sym(&S->nonconst_funcs, sli_func_original_name(S->m, func));
		}
		if (is_scalar_expansion(op)) {
			op->id = MARK_EXPANSION;
			SL_VEC_PUSH(S->expansions, op);
			continue;
		}
		for (uint32_t k = 0; k < op->noperands; k++) {
			sl_op *d = op->operands[k]->def;
			if (d && d->id != MARK_NONE)
				op->operands[k] = clone_root(S, op->operands[k]);
		}
	}
	SL_VEC_FREE(ops);
	if (S->have_uses)
		sli_uses_fini(&S->uses);
	if (!S->expansions.n && !S->constants.n)
		return;		/* nothing to erase: the uses are not needed */
	sli_uses uses;
	sli_uses_compute_if(&uses, owner, marked_value);
	for (size_t i = 0; i < S->expansions.n; i++)
		erase_if_unused(S->expansions.v[i], &uses);
	for (size_t i = S->constants.n; i-- > 0;)
		erase_if_unused(S->constants.v[i], &uses);
	sli_uses_fini(&uses);
}

/*
 * What the first walk finds besides turning constants into sdy ones; and
 * the ops of each top-level function in module order, as collect() gives
 * them (the walk visits them anyway; a second walk of a large module
 * costs as much again in cache misses).
 */
typedef struct scan {
	sl_module *m;
	bool calls, named, groups;
	SL_VEC(sli_opvec) bodies;
} scan;

static int
scan_op(sl_op *op, void *ud)
{
	scan *sc = ud;
	switch (op->kind) {
	case SL_OP_CONSTANT:
		op->kind = SL_OP_SDY_CONSTANT;
		op->name = sli_sym(sc->m, "sdy.constant");
		break;
	case SL_OP_CALL:
		sc->calls = true;
		break;
	case SL_OP_SDY_NAMED_COMPUTATION:
		sc->named = true;
		break;
	case SL_OP_SDY_SHARDING_GROUP:
		sc->groups = true;
		break;
	default:
		break;
	}
	return 0;
}

/*
 * Scans the ops of b and everything nested; pushes them onto out (when
 * not NULL) in pre-order without entering named computations, as
 * collect() does.
 */
static void
scan_block(scan *sc, sl_block *b, sli_opvec *out)
{
	for (sl_op *op = b->first; op; op = op->next) {
		scan_op(op, sc);
		if (out)
			SL_VEC_PUSH(*out, op);
		sli_opvec *inner = op->kind == SL_OP_SDY_NAMED_COMPUTATION ? NULL : out;
		for (uint32_t r = 0; r < op->nregions; r++)
			for (sl_block *bb = op->regions[r].first; bb; bb = bb->next)
				scan_block(sc, bb, inner);
	}
}

/* The scan of the whole module, with the bodies of its functions. */
static void
scan_module(scan *sc)
{
	sl_op *top = sc->m->top;
	if (!top)
		return;
	scan_op(top, sc);
	for (uint32_t r = 0; r < top->nregions; r++)
		for (sl_block *b = top->regions[r].first; b; b = b->next)
			for (sl_op *op = b->first; op; op = op->next) {
				scan_op(op, sc);
				sli_opvec *body = NULL;
				if (op->kind == SL_OP_FUNC && b == sli_module_body(sc->m)) {
					/* one per function, as funcs lists them */
					sli_opvec none = {0};
					SL_VEC_PUSH(sc->bodies, none);
					body = &sc->bodies.v[sc->bodies.n - 1];
				}
				for (uint32_t k = 0; k < op->nregions; k++)
					for (sl_block *bb = op->regions[k].first; bb; bb = bb->next)
						scan_block(sc, bb, k == 0 && bb == op->regions[0].first
						                   ? body : NULL);
			}
}

int
sli_pass_constant_or_scalar_splitter(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	scan sc = {m, false, false, false, {0}};
	scan_module(&sc);
	splitter S;
	memset(&S, 0, sizeof S);
	S.m = m;
	S.groups = sc.groups;
	sli_symtab_init(&S.syms, m);
	/*
	 * Callees first; without calls that is module order, and without
	 * named computations a function is one region (no walks to find out).
	 */
	sli_opvec funcs = {0};
	int rc = 0;
	if (sc.calls) {
		rc = sli_func_order(m, false, true, &funcs);
	} else {
		sl_block *body = sli_module_body(m);
		for (sl_op *op = body ? body->first : NULL; op; op = op->next)
			if (op->kind == SL_OP_FUNC)
				SL_VEC_PUSH(funcs, op);
	}
	for (size_t i = 0; !rc && i < funcs.n; i++) {
		sl_op *func = funcs.v[i];
		/* without calls funcs is in module order, as sc.bodies */
		sli_opvec *pre = !sc.calls && !sc.named && i < sc.bodies.n
		                 ? &sc.bodies.v[i] : NULL;
		if (sc.named) {
			sli_opvec ops = {0};
			sli_collect_postorder(func, &ops);
			for (size_t k = 0; k < ops.n; k++)
				if (ops.v[k]->kind == SL_OP_SDY_NAMED_COMPUTATION)
					process_region(&S, ops.v[k], func, NULL);
			SL_VEC_FREE(ops);
		}
		process_region(&S, func, func, pre);
	}
	for (size_t i = 0; i < sc.bodies.n; i++)
		SL_VEC_FREE(sc.bodies.v[i]);
	SL_VEC_FREE(sc.bodies);
	SL_VEC_FREE(funcs);
	SL_VEC_FREE(S.constants);
	SL_VEC_FREE(S.expansions);
	SL_VEC_FREE(S.nonconst_ncs);
	SL_VEC_FREE(S.nonconst_funcs);
	sli_symtab_fini(&S.syms);
	return rc;
}
