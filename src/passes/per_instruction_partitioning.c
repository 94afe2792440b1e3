/*
 * per_instruction_partitioning.c - -sdy-per-instruction-partitioning
 * (sdy_export_passes.md): chosen ops are partitioned one by one, each
 * wrapped in an `sdy.manual_computation` over all axes of its mesh whose
 * body computes one device's part; the rest of the program stays global.
 *
 * The filter option chooses the ops among the sharded ones (ops of a
 * function's body other than terminators and region ops, with a result
 * sharding),
 * counted from 0 in the order of the module:
 *   - empty: all of them;
 *   - "selectLow=N, selectHigh=M" (either order, either key may be left
 *     out): those numbered N to M;
 *   - otherwise a comma-separated list of words: those whose op name
 *     (e.g. stablehlo.dot) contains one of them.
 *
 * An op is partitioned when its operands and results are tensors of
 * static shapes, their shardings (a missing one is replicated) name one
 * mesh with axes and no unreduced axes, every dimension is a multiple of
 * the devices sharding it, and it holds no region: the manual computation
 * takes the op's operands with their shardings, gets the result shardings
 * as out_shardings, and its body is a copy of the op on the local types,
 * without a sharding.  Any other op is left as it is (correct, as XLA
 * still partitions it).
 *
 * Left undone (Shardy runs its partitioner pipeline on each op): padding
 * of indivisible dimensions around the computation (pad-for-divisibility),
 * a reshard's lowering to StableHLO collectives, constants other than
 * splats (each device would need its own slice of the value);
 * per_instruction_partitioning/001 and 003 need them.  A splat sdy.constant
 * becomes a stablehlo.constant of the local type (case 002).
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <stdlib.h>
#include <string.h>

#include "ir/access.h"
#include "ir/axis.h"
#include "ir/rewrite.h"

typedef struct pip {
	sl_module *m;
	const char *words;	/* the filter's words, or NULL */
	bool range;		/* the filter selects by number */
	int64_t lo, hi;
	int64_t next;		/* the number of the next sharded op */
	sli_opvec chosen;
} pip;

/* ---- the filter ---- */

static const char *
skip_sep(const char *p)
{
	while (*p == ' ' || *p == ',')
		p++;
	return p;
}

/* "selectLow=N, selectHigh=M": 0, or -1 when a key or number is wrong. */
static int
parse_range(pip *P, const char *f)
{
	P->range = true;
	P->lo = 0;
	P->hi = INT64_MAX;
	for (const char *p = skip_sep(f); *p; p = skip_sep(p)) {
		int64_t *to = !strncmp(p, "selectLow=", 10) ? &P->lo
		            : !strncmp(p, "selectHigh=", 11) ? &P->hi : NULL;
		if (!to)
			return -1;
		p = strchr(p, '=') + 1;
		char *end;
		*to = strtoll(p, &end, 10);
		if (end == p)
			return -1;
		p = end;
	}
	return 0;
}

/* Whether name contains one of the comma-separated words of P->words. */
static bool
name_matches(const pip *P, const char *name)
{
	for (const char *p = skip_sep(P->words); *p; p = skip_sep(p)) {
		size_t n = strcspn(p, ", ");
		for (const char *q = name; n && *q; q++)
			if (!strncmp(q, p, n))
				return true;
		p += n;
	}
	return false;
}

static bool
sharded_op(const sl_op *op)
{
	const sl_op *parent = sli_op_parent(op);
	if (!parent || parent->kind != SL_OP_FUNC)
		return false;	/* inside a region, the op is not global code */
	if (op->kind == SL_OP_FUNC || op->kind == SL_OP_MODULE || op->nregions || !op->nresults)
		return false;
	if (op->kind != SL_OP_UNKNOWN && (sli_op_info[op->kind].traits & T_TERM))
		return false;
	return sli_result_sharding(op, 0) != NULL;
}

static int
choose(sl_op *op, void *ud)
{
	pip *P = ud;
	if (!sharded_op(op))
		return 0;
	int64_t k = P->next++;
	bool in = P->range ? k >= P->lo && k <= P->hi
	        : !P->words || name_matches(P, sl_sym_str(P->m->ctx, op->name));
	if (in)
		SL_VEC_PUSH(P->chosen, op);
	return 0;
}

/* ---- one op ---- */

/* The local type of t under s on mesh, or NULL when a dimension does not
 * divide. */
static sl_type *
local_type(sl_module *m, sl_type *t, const sl_sharding *s, const sl_mesh *mesh)
{
	if (!t || t->kind != SL_TYPE_TENSOR || t->unranked)
		return NULL;
	if (!s || !t->rank)
		return t;
	int64_t *dims = SL_NEWN(&m->arena, int64_t, t->rank);
	for (uint32_t d = 0; d < t->rank; d++) {
		int64_t n = d < s->rank ? sli_axis_list_size(s->dims[d].axes.v, s->dims[d].axes.n,
		                                             mesh) : 1;
		if (t->dims[d] < 0 || n <= 0 || t->dims[d] % n)
			return NULL;
		dims[d] = t->dims[d] / n;
	}
	return sli_type_tensor(m->ctx, t->rank, dims, t->elem, t->enc, false);
}

/* A closed sharding without axes of rank r on mesh `name`. */
static sl_sharding *
replicated(sl_module *m, sl_sym name, uint32_t r)
{
	sl_sharding *s = sli_sharding_open(m, name, NULL, r);
	for (uint32_t d = 0; d < r; d++)
		s->dims[d].open = false;
	return s;
}

/* The value of constant op when it is one splat value, else NULL. */
static sl_attr *
splat_value(sl_module *m, const sl_op *op)
{
	sl_attr *v = sli_op_get(op, sli_sym(m, "value"));
	if (!v || v->kind != SL_ATTR_DENSE)
		return NULL;
	const char *b = v->u.dense.body;
	size_t n = v->u.dense.n;
	bool one = n && !memchr(b, '[', n) && !memchr(b, ',', n) && !(n > 1 && b[0] == '"') &&
	           !(n > 1 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X'));
	return one ? v : NULL;
}

typedef struct plan {
	sl_sym mesh_name;
	const sl_mesh *mesh;
	sl_sharding **in, **out;
	sl_type **in_local, **out_local;
} plan;

/* The sharding of tensor value v (NULL: none) fits the plan's mesh. */
static bool
fits(plan *L, sl_module *m, const sl_op *op, const sl_sharding *s)
{
	if (!s)
		return true;
	if (!s->mesh_name || s->unreduced.n)
		return false;
	if (!L->mesh_name) {
		L->mesh_name = s->mesh_name;
		L->mesh = sli_sharding_mesh_at(m, op, s);
	}
	return s->mesh_name == L->mesh_name && L->mesh && L->mesh->naxes;
}

/* Fills L for op; false when the op is left alone (file comment). */
static bool
make_plan(sl_module *m, const sl_op *op, plan *L)
{
	uint32_t ni = op->noperands, no = op->nresults;
	memset(L, 0, sizeof *L);
	L->in = SL_NEWN(&m->arena, sl_sharding *, ni + 1);
	L->out = SL_NEWN(&m->arena, sl_sharding *, no + 1);
	L->in_local = SL_NEWN(&m->arena, sl_type *, ni + 1);
	L->out_local = SL_NEWN(&m->arena, sl_type *, no + 1);
	for (uint32_t i = 0; i < ni; i++)
		if (!fits(L, m, op, sli_value_sharding_seen(m, op->operands[i])))
			return false;
	for (uint32_t j = 0; j < no; j++)
		if (!fits(L, m, op, sli_result_sharding(op, j)))
			return false;
	if (!L->mesh_name || !L->mesh)
		return false;
	if (op->kind == SL_OP_SDY_CONSTANT && (no != 1 || !splat_value(m, op)))
		return false;
	for (uint32_t i = 0; i < ni; i++) {
		sl_type *t = op->operands[i]->type;
		const sl_sharding *s = sli_value_sharding_seen(m, op->operands[i]);
		L->in[i] = s ? (sl_sharding *)s : replicated(m, L->mesh_name, t ? t->rank : 0);
		if (!(L->in_local[i] = local_type(m, t, s, L->mesh)))
			return false;
	}
	for (uint32_t j = 0; j < no; j++) {
		sl_type *t = op->results[j].type;
		const sl_sharding *s = sli_result_sharding(op, j);
		L->out[j] = s ? (sl_sharding *)s : replicated(m, L->mesh_name, t ? t->rank : 0);
		if (!(L->out_local[j] = local_type(m, t, s, L->mesh)))
			return false;
	}
	return true;
}

/*
 * A constant's copy is a stablehlo.constant of its splat value on the local
 * type (every device holds the same part).
 */
static void
localize_constant(sl_module *m, sl_op *local, sl_attr *value, sl_type *t)
{
	sl_attr *v = sli_attr_new(m, SL_ATTR_DENSE);
	*v = *value;
	v->u.dense.type = t;
	local->kind = SL_OP_CONSTANT;
	local->name = sli_sym(m, "stablehlo.constant");
	if (sli_op_prop(local, sli_sym(m, "value")))
		sli_op_set_prop(m, local, sli_sym(m, "value"), v);
	else
		sli_op_set_attr(m, local, sli_sym(m, "value"), v);
}

/* The body: a copy of op on the block's arguments, with local types. */
static void
fill_body(sl_module *m, sl_op *op, sl_op *mc, const plan *L)
{
	sl_block *b = sli_block_new(m, op->noperands);
	sli_block_append(&mc->regions[0], b);
	sli_vmap map;
	sli_vmap_init(&map);
	for (uint32_t i = 0; i < op->noperands; i++) {
		b->args[i].type = L->in_local[i];
		sli_vmap_set(&map, op->operands[i], &b->args[i]);
	}
	sl_op *local = sli_op_clone(m, op, &map);
	sli_vmap_fini(&map);
	sli_op_set_sharding_list(m, local, NULL);
	if (op->kind == SL_OP_SDY_CONSTANT)
		localize_constant(m, local, splat_value(m, op), L->out_local[0]);
	sl_value **res = SL_NEWN(&m->arena, sl_value *, op->nresults + 1);
	for (uint32_t j = 0; j < op->nresults; j++) {
		local->results[j].type = L->out_local[j];
		res[j] = &local->results[j];
	}
	sli_op_append(b, local);
	sl_op *ret = sli_op_create(m, SL_OP_SDY_RETURN, res, op->nresults, NULL, 0, 0);
	ret->loc = op->loc;
	sli_op_append(b, ret);
}

static void
partition(sl_module *m, sl_op *op)
{
	plan L;
	if (!make_plan(m, op, &L))
		return;
	uint32_t ni = op->noperands, no = op->nresults;
	sl_type **types = SL_NEWN(&m->arena, sl_type *, no + 1);
	for (uint32_t j = 0; j < no; j++)
		types[j] = op->results[j].type;
	sl_op *mc = sli_op_create(m, SL_OP_SDY_MANUAL_COMPUTATION, op->operands, ni, types, no, 1);
	mc->loc = op->loc;
	sli_comp_set_in_spv(m, mc, sli_attr_spv(m, L.in, ni));
	sli_result_set_spv(m, mc, sli_attr_spv(m, L.out, no));
	sl_axis_ref *axes = SL_NEWN(&m->arena, sl_axis_ref, L.mesh->naxes);
	for (uint32_t a = 0; a < L.mesh->naxes; a++)
		axes[a].name = L.mesh->axes[a].name;
	sli_set_manual_axes(m, mc, axes, L.mesh->naxes);
	fill_body(m, op, mc, &L);
	sli_op_insert_before(op, mc);
	for (uint32_t j = 0; j < no; j++)
		sli_value_replace_uses(&op->results[j], &mc->results[j], NULL);
	sli_op_erase(op);
}

int
sli_pass_per_instruction_partitioning(sl_module *m, const sli_pass_opts *opts)
{
	const char *f = opts->pip.filter ? opts->pip.filter : "";
	pip P = {m, NULL, false, 0, 0, 0, {0}};
	if (strchr(f, '=')) {
		if (parse_range(&P, f)) {
			sl_loc noloc = {0};
			sli_error(m->ctx, noloc, "invalid filter '%s' of "
			          "-sdy-per-instruction-partitioning (expected op name words, or "
			          "'selectLow=N, selectHigh=M')", f);
			return -1;
		}
	} else if (*skip_sep(f)) {
		P.words = f;
	}
	sli_walk(m->top, choose, &P);
	for (size_t i = 0; i < P.chosen.n; i++)
		partition(m, P.chosen.v[i]);
	SL_VEC_FREE(P.chosen);
	return 0;
}
