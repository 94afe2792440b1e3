/*
 * verify_replica_groups.c - the replica groups of the StableHLO
 * collectives a program writes itself (stablehlo.all_reduce, all_gather,
 * reduce_scatter, all_to_all).  The cost model prices these collectives
 * on the devices or mesh axes their groups name (shardlp-cost(7), "The
 * collectives priced"), so groups it cannot read are errors here rather
 * than collectives priced as moving nothing:
 *
 *   dense<[[...], ...]>  a rank-2 tensor of integers; each id a device
 *                        (>= 0), or -1 as padding of an all_reduce's
 *                        shorter groups; no id twice;
 *   #stablehlo.replica_group_mesh_axes<mesh = @m | #stablehlo.mesh<...>,
 *                        axes = [#stablehlo.axis_ref<name = "x">, ...]>
 *                        the mesh declared, each axis one of its axes,
 *                        none twice.
 */
#include "verify/verifier.h"

#include <stdlib.h>
#include <string.h>

#include "ir/stablehlo_attrs.h"

/* The group text's axis names, as `name = "..."` entries. */
static const char name_key[] = "name = \"";

/* The mesh axis named [p, p + n) of mesh, or -1. */
static int
mesh_axis(const verifier *v, const sl_mesh *mesh, const char *p, size_t n)
{
	for (uint32_t x = 0; x < mesh->naxes; x++) {
		const char *s = sli_verify_sym(v, mesh->axes[x].name);
		if (strlen(s) == n && !memcmp(s, p, n))
			return (int)x;
	}
	return -1;
}

/* The axes named in [p, e) all on mesh, each once. */
static int
check_axes(verifier *v, const sl_mesh *mesh, const char *p, const char *e)
{
	uint64_t seen = 0;

	while (p < e && (p = memmem(p, (size_t)(e - p), name_key, sizeof name_key - 1))) {
		p += sizeof name_key - 1;
		const char *q = memchr(p, '"', (size_t)(e - p));
		if (!q)
			break;
		int x = mesh_axis(v, mesh, p, (size_t)(q - p));
		if (x < 0)
			return sli_verify_op_error(v, NULL, "replica groups name axis \"%.*s\", "
			                           "which is not in the mesh", (int)(q - p), p);
		if (x < 64 && (seen >> x & 1))
			return sli_verify_op_error(v, NULL, "replica groups name axis \"%.*s\" "
			                           "more than once", (int)(q - p), p);
		if (x < 64)
			seen |= UINT64_C(1) << x;
		p = q + 1;
	}
	return 0;
}

/* The axes named in [p, e) on the mesh declared as `name`, seen from op. */
static int
check_on_mesh(verifier *v, const sl_op *op, sl_sym name, const char *p, const char *e)
{
	sl_sharding named;
	memset(&named, 0, sizeof named);
	named.mesh_name = name;
	const sl_mesh *mesh = sli_sharding_mesh_at(v->m, op, &named);
	if (!mesh)
		return sli_verify_op_error(v, NULL, "replica groups name mesh @%s, which is "
		                           "not declared", sli_verify_sym(v, name));
	return check_axes(v, mesh, p, e);
}

/* #stablehlo.replica_group_mesh_axes<mesh = @name, ...> kept as text. */
static int
check_named_text(verifier *v, const sl_op *op, const char *p, size_t n)
{
	static const char key[] = "mesh = @";
	const char *e = p + n;
	const char *at = memmem(p, n, key, sizeof key - 1);

	if (!at)
		return sli_verify_op_error(v, NULL, "replica groups name no mesh");
	at += sizeof key - 1;
	size_t len = strcspn(at, ",> ");
	if (len > (size_t)(e - at))
		len = (size_t)(e - at);
	return check_on_mesh(v, op, sl_sym_intern(v->ctx, at, len), at + len, e);
}

static int
cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
	return (a > b) - (a < b);
}

/* dense<...> device ids: rank 2, >= 0 (or -1 where padding is allowed), distinct. */
static int
check_dense(verifier *v, const sl_attr *a, bool padding)
{
	const sl_type *t = a->u.dense.type;
	sli_i64vec ids = {0};
	int rc = 0;

	if (!t || t->kind != SL_TYPE_TENSOR || t->unranked || t->rank != 2)
		return sli_verify_op_error(v, NULL, "replica groups should be a rank 2 tensor");
	if (!sli_attr_ints(v->ctx, a, &ids))
		rc = sli_verify_op_error(v, NULL, "replica groups should be integers of at most 64 bits");
	for (size_t i = 0; !rc && i < ids.n; i++)
		if (ids.v[i] < -1 || (ids.v[i] == -1 && !padding))
			rc = sli_verify_op_error(v, NULL, "replica id %lld is not a device id",
			                         (long long)ids.v[i]);
	if (!rc && ids.n > 1) {	/* sorted, a repeated id sits beside itself */
		qsort(ids.v, ids.n, sizeof *ids.v, cmp_i64);
		for (size_t i = 1; !rc && i < ids.n; i++)
			if (ids.v[i] == ids.v[i - 1] && ids.v[i] != -1)
				rc = sli_verify_op_error(v, NULL, "replica id %lld appears more than once "
				                         "in the replica groups", (long long)ids.v[i]);
	}
	SL_VEC_FREE(ids);
	return rc;
}

int
sli_verify_replica_groups(verifier *v, sl_op *op)
{
	const sl_attr *a = sli_op_get(op, sl_sym_intern(v->ctx, "replica_groups", sizeof "replica_groups" - 1));
	const sl_replica_mesh_axes *r = sli_attr_get_replica_mesh_axes(a);

	if (!a)
		return sli_verify_op_error(v, NULL, "requires attribute 'replica_groups'");
	if (r) {
		if (r->mesh_name)
			return check_on_mesh(v, op, r->mesh_name, r->tail, r->tail + r->ntail);
		return check_axes(v, &r->mesh, r->tail, r->tail + r->ntail);
	}
	if (a->kind == SL_ATTR_OPAQUE &&
	    !strncmp(a->u.text.p, "#stablehlo.replica_group_mesh_axes<",
	             sizeof "#stablehlo.replica_group_mesh_axes<" - 1))
		return check_named_text(v, op, a->u.text.p, a->u.text.n);
	if (a->kind == SL_ATTR_DENSE)
		return check_dense(v, a, op->kind == SL_OP_ALL_REDUCE);
	return sli_verify_op_error(v, NULL, "replica groups should be a dense tensor or "
	                           "#stablehlo.replica_group_mesh_axes");
}
