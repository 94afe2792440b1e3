/*
 * resolve_single_device_sharding.c - -sdy-resolve-single-device-sharding
 * (sdy_export_passes.md): an op (not of the sdy dialect) whose ranked
 * results are sharded on a single-device (maximal) mesh runs only on that
 * device.  Before it: partition_id, converted to i64, compared EQ with the
 * device id; a stablehlo.if on that runs a copy of the op (without its
 * sdy.sharding, and reading the inputs of its operands' reshards to a
 * single device) in its true branch and yields zeros (create_token for a
 * token) in its false one.  After the if, each ranked result goes through
 * an `sdy.all_reduce` over every axis of the global mesh with a closed
 * replicated out_sharding; a user that is a reshard to exactly that
 * sharding is replaced by the all_reduce, other users read it.  Token
 * results are read from the if directly.  The op goes, and so do the
 * single-device reshards of its operands that are left unused.  Ops are
 * taken in post-order per function, collected before any change.
 *
 * Inferred from the case: the global mesh is the first `sdy.mesh` of the
 * module with axes (nothing happens without one); the device id is the
 * partition id, the replica-count / partition-count options of Shardy are
 * not taken (the cases never give them).  A single-device op whose other
 * ranked results are not fully replicated is left alone (Shardy aborts).
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include "ir/axis.h"
#include "ir/stablehlo_attrs.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef struct resolver {
	sl_module *m;
	sl_sym global;			/* the global mesh's name */
	const sl_mesh *global_mesh;
} resolver;

static bool
ranked(const sl_value *v)
{
	return v->type && v->type->kind == SL_TYPE_TENSOR && !v->type->unranked;
}

/* The device of a single-device sharding, or -1. */
static int64_t
single_device(const resolver *R, const sl_sharding *s)
{
	const sl_mesh *mesh = s ? sli_sharding_mesh(R->m, s) : NULL;
	return mesh && sli_mesh_is_maximal(mesh) && mesh->nids ? mesh->ids[0] : -1;
}

static bool
fully_replicated(const sl_sharding *s)
{
	for (uint32_t i = 0; i < s->rank; i++)
		if (s->dims[i].axes.n)
			return false;
	return true;
}

/* The device op runs on, or -1 (see the head comment). */
static int64_t
op_device(const resolver *R, const sl_op *op)
{
	int64_t dev = -1;
	bool other = false;
	for (uint32_t i = 0; i < op->nresults; i++) {
		const sl_sharding *s = ranked(&op->results[i]) ? sli_result_sharding(op, i) : NULL;
		int64_t d = single_device(R, s);
		if (d >= 0 && (dev < 0 || d == dev))
			dev = d;
		else if (d >= 0 || (s && !fully_replicated(s)))
			other = true;
	}
	return other ? -1 : dev;
}

static sl_attr *
dense(sl_module *m, const char *body, sl_type *type)
{
	sl_attr *d = sli_attr_new(m, SL_ATTR_DENSE);
	d->u.dense.n = strlen(body);
	d->u.dense.body = sli_arena_strndup(&m->arena, body, d->u.dense.n);
	d->u.dense.type = type;
	return d;
}

/* Creates op kind with operands and one result of `type`, before `at`
 * (or at the end of block b when at is NULL). */
static sl_op *
emit(sl_module *m, sl_op_kind kind, sl_value **in, uint32_t nin, sl_type *type,
     sl_op *at, sl_block *b, sl_loc loc)
{
	sl_op *op = sli_op_create(m, kind, in, nin, type ? &type : NULL, type ? 1 : 0, 0);
	op->loc = loc;
	if (at)
		sli_op_insert_before(at, op);
	else
		sli_op_append(b, op);
	return op;
}

static sl_value *
constant(sl_module *m, const char *body, sl_type *type, sl_op *at, sl_block *b, sl_loc loc)
{
	sl_op *c = emit(m, SL_OP_CONSTANT, NULL, 0, type, at, b, loc);
	sli_op_set_prop(m, c, SLS_value, dense(m, body, type));
	return &c->results[0];
}

/* `partition_id == dev` as an i1 scalar, before op. */
static sl_value *
device_guard(sl_module *m, sl_op *op, int64_t dev)
{
	sl_context *ctx = m->ctx;
	sl_type *u32 = sli_type_tensor(ctx, 0, NULL, sli_type_elem(ctx, "ui32", 4), 0, false);
	sl_type *i64 = sli_type_tensor(ctx, 0, NULL, sli_type_elem(ctx, "i64", 3), 0, false);
	sl_type *i1 = sli_type_tensor(ctx, 0, NULL, sli_type_elem(ctx, "i1", 2), 0, false);
	char num[32];
	sl_value *pid = &emit(m, SL_OP_PARTITION_ID, NULL, 0, u32, op, NULL, op->loc)->results[0];
	sl_value *cv = &emit(m, SL_OP_CONVERT, &pid, 1, i64, op, NULL, op->loc)->results[0];
	snprintf(num, sizeof num, "%" PRId64, dev);
	sl_value *in[2] = {cv, constant(m, num, i64, op, NULL, op->loc)};
	sl_op *cmp = emit(m, SL_OP_COMPARE, in, 2, i1, op, NULL, op->loc);
	sl_loc noloc = {0};
	sli_op_set_prop(m, cmp, sli_sym(m, "comparison_direction"),
	                sli_attr_stablehlo_enum(m, sli_sym(m, "comparison_direction"),
	                                        sli_sym(m, "EQ"), noloc));
	return &cmp->results[0];
}

/* The text of a zero of element type t in a dense attribute. */
static const char *
zero_text(const sl_context *ctx, const sl_type *t)
{
	const char *s = t ? sl_sym_str(ctx, t->text) : "";
	if (!strcmp(s, "i1"))
		return "false";
	if (s[0] == 'i' || s[0] == 'u' || s[0] == 's')
		return "0";
	if (!strncmp(s, "complex", 7))
		return "(0.000000e+00,0.000000e+00)";
	return "0.000000e+00";
}

static sl_block *
new_branch(sl_module *m, sl_op *ifop, uint32_t k)
{
	sl_block *b = sli_block_new(m, 0);
	sli_block_append(&ifop->regions[k], b);
	return b;
}

static void
emit_return(sl_module *m, sl_block *b, sl_value **v, uint32_t n, sl_loc loc)
{
	emit(m, SL_OP_SHLO_RETURN, v, n, NULL, NULL, b, loc);
}

/* True branch: a copy of op reading past its single-device reshards. */
static void
fill_true(resolver *R, sl_op *op, sl_block *b)
{
	sl_module *m = R->m;
	sli_vmap map;
	sli_vmap_init(&map);
	sl_op *copy = sli_op_clone(m, op, &map);
	sli_vmap_fini(&map);
	sli_op_set_sharding_list(m, copy, NULL);
	for (uint32_t i = 0; i < copy->noperands; i++) {
		sl_op *d = copy->operands[i]->def;
		if (d && d->kind == SL_OP_SDY_RESHARD && d->noperands == 1 &&
		    single_device(R, sli_result_sharding(d, 0)) >= 0)
			copy->operands[i] = d->operands[0];
	}
	sli_op_append(b, copy);
	sl_value **res = SL_NEWN(&m->arena, sl_value *, copy->nresults + 1);
	for (uint32_t i = 0; i < copy->nresults; i++)
		res[i] = &copy->results[i];
	emit_return(m, b, res, copy->nresults, op->loc);
}

/* False branch: zeros and tokens. */
static void
fill_false(sl_module *m, const sl_op *op, sl_block *b)
{
	sl_value **res = SL_NEWN(&m->arena, sl_value *, op->nresults + 1);
	uint32_t n = 0;
	for (uint32_t i = 0; i < op->nresults; i++) {
		sl_type *t = op->results[i].type;
		if (ranked(&op->results[i]))
			res[n++] = constant(m, zero_text(m->ctx, t->elem), t, NULL, b, op->loc);
		else if (t && t->kind == SL_TYPE_TOKEN)
			res[n++] = &emit(m, SL_OP_CREATE_TOKEN, NULL, 0, t, NULL, b, op->loc)->results[0];
	}
	emit_return(m, b, res, n, op->loc);
}

/* `sdy.all_reduce {all global axes} v out_sharding=<global, closed replicated>` before at. */
static sl_op *
all_reduce(resolver *R, sl_value *v, sl_op *at, sl_loc loc)
{
	sl_module *m = R->m;
	sl_op *ar = emit(m, SL_OP_SDY_ALL_REDUCE, &v, 1, v->type, at, NULL, loc);
	sl_attr *axes = sli_attr_new(m, SL_ATTR_AXIS_REF_LIST);
	axes->u.axes.n = R->global_mesh->naxes;
	axes->u.axes.v = SL_NEWN(&m->arena, sl_axis_ref, axes->u.axes.n + 1);
	for (uint32_t i = 0; i < axes->u.axes.n; i++)
		axes->u.axes.v[i].name = R->global_mesh->axes[i].name;
	sli_op_set_prop(m, ar, SLS_reduction_axes, axes);
	sl_sharding *s = sli_sharding_open(m, R->global, NULL, sli_value_rank(v));
	for (uint32_t i = 0; i < s->rank; i++)
		s->dims[i].open = false;
	sli_result_set_sharding(m, ar, 0, s);
	return ar;
}

/* Sends the uses of op's result r to v, a reshard of r to exactly v's
 * sharding being replaced by v itself. */
static void
redirect(sl_module *m, sl_value *r, sl_value *v)
{
	const sl_sharding *want = sli_result_sharding(v->def, 0);
	sli_usevec uses = {0};
	sli_value_uses(r, &uses);
	for (size_t k = 0; k < uses.n; k++) {
		sl_op *u = uses.v[k].user;
		const sl_sharding *s = u->kind == SL_OP_SDY_RESHARD ? sli_result_sharding(u, 0) : NULL;
		if (s && want && sli_sharding_equal(s, want)) {
			sli_value_replace_uses(&u->results[0], v, NULL);
			sli_op_erase(u);
		} else {
			u->operands[uses.v[k].index] = v;
		}
	}
	SL_VEC_FREE(uses);
}

static bool
unused(const sl_value *v)
{
	sli_usevec uses = {0};
	sli_value_uses(v, &uses);
	bool none = uses.n == 0;
	SL_VEC_FREE(uses);
	return none;
}

static void
resolve(resolver *R, sl_op *op, int64_t dev)
{
	sl_module *m = R->m;
	sl_value *guard = device_guard(m, op, dev);
	sl_type **types = SL_NEWN(&m->arena, sl_type *, op->nresults + 1);
	for (uint32_t i = 0; i < op->nresults; i++)
		types[i] = op->results[i].type;
	sl_op *ifop = sli_op_create(m, SL_OP_IF, &guard, 1, types, op->nresults, 2);
	ifop->loc = op->loc;
	sli_op_insert_before(op, ifop);
	fill_true(R, op, new_branch(m, ifop, 0));
	fill_false(m, op, new_branch(m, ifop, 1));
	for (uint32_t i = 0; i < op->nresults; i++) {
		if (ranked(&op->results[i]))
			redirect(m, &op->results[i],
			         &all_reduce(R, &ifop->results[i], op, op->loc)->results[0]);
		else
			sli_value_replace_uses(&op->results[i], &ifop->results[i], NULL);
	}
	sl_op **reshards = SL_NEWN(&m->arena, sl_op *, op->noperands + 1);
	uint32_t n = 0;
	for (uint32_t i = 0; i < op->noperands; i++) {
		sl_op *d = op->operands[i]->def;
		if (d && d->kind == SL_OP_SDY_RESHARD && single_device(R, sli_result_sharding(d, 0)) >= 0)
			reshards[n++] = d;
	}
	sli_op_erase(op);
	for (uint32_t i = 0; i < n; i++)
		if (reshards[i]->parent && unused(&reshards[i]->results[0]))
			sli_op_erase(reshards[i]);
}

static bool
is_sdy(const sl_module *m, const sl_op *op)
{
	return !strncmp(sl_sym_str(m->ctx, op->name), "sdy.", 4);
}

/* The first sdy.mesh of the module with axes, or NULL. */
static sl_op *
global_mesh(sl_module *m)
{
	sl_block *body = sli_module_body(m);
	for (sl_op *op = body ? body->first : NULL; op; op = op->next) {
		const sl_mesh *mesh = op->kind == SL_OP_SDY_MESH ? sli_mesh_op_mesh(op) : NULL;
		if (mesh && mesh->naxes)
			return op;
	}
	return NULL;
}

int
sli_pass_resolve_single_device_sharding(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sl_op *g = global_mesh(m);
	if (!g)
		return 0;
	resolver R = {m, sli_op_sym_name(m, g), sli_mesh_op_mesh(g)};
	sl_block *body = sli_module_body(m);
	sli_opvec ops = {0};
	SL_VEC(int64_t) devs = {0};
	for (sl_op *f = body->first; f; f = f->next) {
		if (f->kind != SL_OP_FUNC)
			continue;
		size_t from = ops.n;
		sli_collect_postorder(f, &ops);
		size_t keep = from;
		for (size_t i = from; i < ops.n; i++) {
			sl_op *op = ops.v[i];
			int64_t dev = is_sdy(m, op) ? -1 : op_device(&R, op);
			if (dev < 0)
				continue;
			ops.v[keep++] = op;
			SL_VEC_PUSH(devs, dev);
		}
		ops.n = keep;
	}
	for (size_t i = 0; i < ops.n; i++)
		resolve(&R, ops.v[i], devs.v[i]);
	SL_VEC_FREE(devs);
	SL_VEC_FREE(ops);
	return 0;
}
