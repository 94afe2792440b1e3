/*
 * inline_meshes.c - -sdy-inline-meshes (the inverse of
 * -sdy-lift-inlined-meshes): every sharding that names an `sdy.mesh` of
 * the top module holds a copy of that mesh instead, and the `sdy.mesh`
 * ops go away.  Shardings already inlined, or naming no known mesh, stay
 * as they are.
 *
 * StableHLO replica groups that name a mesh
 * (#stablehlo.replica_group_mesh_axes<mesh = @m, ...>, which the reader
 * keeps as text) get the mesh written inline, as StableHLO prints it:
 * #stablehlo.mesh<axes=[<name = "x", size = 2>, ...]>, with
 * `device_ids=dense<[...]> : tensor<Nxi64>` after the axes when the mesh
 * has explicit device ids (case 007).  So does a stray `sdy.sharding`
 * attribute on an op whose sharding is an out_sharding.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include <string.h>

#include "ir/stablehlo_attrs.h"

static sl_sharding *
inline_sharding(sl_module *m, sl_op *op, const sl_sharding *s, void *ud)
{
	(void)op;
	(void)ud;
	if (!s->mesh_name)
		return NULL;
	const sl_mesh *mesh = sli_sharding_mesh(m, s);
	if (!mesh)
		return NULL;
	sl_sharding *r = SL_NEW(&m->arena, sl_sharding);
	*r = *s;
	r->mesh_name = 0;
	r->mesh = SL_NEW(&m->arena, sl_mesh);
	*r->mesh = *mesh;
	return r;
}

/* ---- replica groups ---- */

/* mesh as StableHLO writes an inline mesh. */
static void
put_mesh(sli_buf *b, const sl_context *ctx, const sl_mesh *mesh)
{
	sli_buf_puts(b, "#stablehlo.mesh<axes=[");
	for (uint32_t i = 0; i < mesh->naxes; i++) {
		sli_buf_puts(b, i ? ", <name = \"" : "<name = \"");
		sli_buf_puts(b, sl_sym_str(ctx, mesh->axes[i].name));
		sli_buf_puts(b, "\", size = ");
		sli_buf_i64(b, mesh->axes[i].size);
		sli_buf_putc(b, '>');
	}
	sli_buf_putc(b, ']');
	if (mesh->ids) {
		sli_buf_puts(b, ", device_ids=dense<[");
		for (uint32_t i = 0; i < mesh->nids; i++) {
			if (i)
				sli_buf_puts(b, ", ");
			sli_buf_i64(b, mesh->ids[i]);
		}
		sli_buf_printf(b, "]> : tensor<%uxi64>", mesh->nids);
	}
	sli_buf_putc(b, '>');
}

static bool
is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '$' || c == '.' || c == '-';
}

/*
 * The replica group text `a` (an opaque attribute) with its `mesh = @m`
 * replaced by the inline mesh m names, or NULL when it names none.
 */
static sl_attr *
inline_replica_group(sl_module *m, const sl_op *op, const sl_attr *a)
{
	static const char head[] = "#stablehlo.replica_group_mesh_axes<", key[] = "mesh = @";
	const char *s = a->u.text.p, *end = s + a->u.text.n;
	if (a->u.text.n < sizeof head - 1 || memcmp(s, head, sizeof head - 1))
		return NULL;
	const char *at = memmem(s, a->u.text.n, key, sizeof key - 1);
	if (!at)
		return NULL;
	const char *name = at + sizeof key - 1, *after = name;
	while (after < end && is_name_char(*after))
		after++;
	sl_op *mo = sli_lookup_mesh(m, op, sl_sym_intern(m->ctx, name, (size_t)(after - name)));
	const sl_mesh *mesh = mo ? sli_mesh_op_mesh(mo) : NULL;
	if (!mesh)
		return NULL;
	sli_buf b;
	sli_buf_init(&b);
	put_mesh(&b, m->ctx, mesh);
	sl_replica_mesh_axes r;
	memset(&r, 0, sizeof r);
	r.head = s;
	r.nhead = (size_t)(name - 1 - s);
	r.nmesh_text = b.n;
	r.mesh_text = sli_arena_dup(&m->arena, b.p, b.n);
	r.mesh = *mesh;
	r.tail = after;
	r.ntail = (size_t)(end - after);
	sli_buf_fini(&b);
	return sli_attr_replica_mesh_axes(m, &r, a->loc);
}

/* What the walk over the ops needs. */
typedef struct groups {
	sl_module *m;
	sl_sym rg;	/* replica_groups */
} groups;

/*
 * An op whose sharding is its out_sharding may carry a stray `sdy.sharding`
 * too (a collective in ttmlir's tests does); its shardings name meshes
 * like any other.
 */
static void
inline_stray_shardings(sl_module *m, sl_op *op)
{
	sl_attr *a = sli_single_sharding_prop(op) ? sli_op_attr(op, sli_sharding_list_name())
	                                          : NULL;
	if (!a || a->kind != SL_ATTR_SHARDING_PER_VALUE)
		return;
	sl_sharding **v = SL_NEWN(&m->arena, sl_sharding *, a->u.spv.n + 1);
	for (uint32_t i = 0; i < a->u.spv.n; i++) {
		sl_sharding *r = inline_sharding(m, op, a->u.spv.v[i], NULL);
		v[i] = r ? r : a->u.spv.v[i];
	}
	sli_op_set_attr(m, op, sli_sharding_list_name(), sli_attr_spv(m, v, a->u.spv.n));
}

static int
inline_groups_of(sl_op *op, void *ud)
{
	sl_module *m = ((groups *)ud)->m;
	sl_sym rg = ((groups *)ud)->rg;
	inline_stray_shardings(m, op);
	sl_attr *a = sli_op_get(op, rg);
	sl_attr *na = a && a->kind == SL_ATTR_OPAQUE ? inline_replica_group(m, op, a) : NULL;
	if (!na)
		return 0;
	if (sli_op_prop(op, rg))
		sli_op_set_prop(m, op, rg, na);
	else
		sli_op_set_attr(m, op, rg, na);
	return 0;
}

int
sli_pass_inline_meshes(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_transform_shardings_memo(m, inline_sharding, NULL);
	groups g = {m, sli_sym(m, "replica_groups")};
	sli_walk(m->top, inline_groups_of, &g);
	sl_block *body = sli_module_body(m);
	sl_op *next;
	for (sl_op *op = body ? body->first : NULL; op; op = next) {
		next = op->next;
		if (op->kind == SL_OP_SDY_MESH)
			sli_op_erase(op);
	}
	return 0;
}
