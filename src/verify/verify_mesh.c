/*
 * verify_mesh.c - meshes and axis lists (spec/dialect-and-verifier.md
 * sections 2.1, 2.2): axis sizes, device ids, and the axis lists of
 * shardings and collectives.
 */
#include "verify/verifier.h"
#include "util/checked.h"

#include <stdlib.h>
#include <string.h>

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

int
sli_verify_mesh_attr(const sl_context *ctx, const sl_mesh *mesh, sli_buf *why)
{
	int64_t total = 1, *sorted;
	bool iota = true;

	for (uint32_t i = 0; i < mesh->naxes; i++) {
		if (mesh->axes[i].size <= 0) {
			sli_buf_printf(why, "axis size must be at least 1, got: %lld",
			               (long long)mesh->axes[i].size);
			return -1;
		}
	}
	for (uint32_t i = 0; i < mesh->nids; i++) {
		if (mesh->ids && mesh->ids[i] < 0) {
			sli_buf_printf(why, "device id must be non-negative, got: %lld",
			               (long long)mesh->ids[i]);
			return -1;
		}
	}
	/* every product of axis sizes below is then within int64 */
	for (uint32_t i = 0; i < mesh->naxes; i++) {
		if (!sli_mul_i64_ok(total, mesh->axes[i].size, &total)) {
			sli_buf_printf(why, "total product of axis sizes is out of range "
			               "(more than %lld)", (long long)INT64_MAX);
			return -1;
		}
	}
	if (mesh->naxes == 0) {
		if (mesh->nids > 1) {
			sli_buf_puts(why, "axes is empty and device_ids has more than one element");
			return -1;
		}
		return 0;
	}
	for (uint32_t i = 0; i < mesh->naxes; i++) {
		for (uint32_t j = 0; j < i; j++) {
			if (mesh->axes[j].name == mesh->axes[i].name) {
				sli_buf_printf(why, "duplicate axis name: \"%s\"",
				               sl_sym_str(ctx, mesh->axes[i].name));
				return -1;
			}
		}
	}
	if (!mesh->ids || mesh->nids == 0)
		return 0;
	if (total != (int64_t)mesh->nids) {
		sli_buf_printf(why, "total product of axis sizes must match total number "
		               "of device ids, got: %lld != %u", (long long)total,
		               mesh->nids);
		return -1;
	}
	sorted = sli_xmalloc(mesh->nids * sizeof *sorted);
	memcpy(sorted, mesh->ids, mesh->nids * sizeof *sorted);
	qsort(sorted, mesh->nids, sizeof *sorted, cmp_i64);
	for (uint32_t i = 0; i < mesh->nids; i++)
		if (sorted[i] != (int64_t)i)
			iota = false;
	if (!iota) {
		sli_buf_puts(why, "sorted device ids must be iota(product(axes)), got: ");
		for (uint32_t i = 0; i < mesh->nids; i++)
			sli_buf_printf(why, "%s%lld", i ? ", " : "", (long long)sorted[i]);
	}
	free(sorted);
	return iota ? 0 : -1;
}

/*
 * One axis list inside a sharding or a collective: known names, no ref
 * seen before, no two consecutive mergeable sub-axes.  Sub-axes are kept
 * in seen->subs for the per-name checks.
 */
int
sli_verify_check_axis_list(verifier *v, const char *pfx, const sl_axis_ref *l, size_t n,
                           const sl_mesh *mesh, axis_seen *seen)
{
	const sl_axis_ref *prev = NULL;
	sli_buf *b;

	for (size_t i = 0; i < n; i++) {
		const sl_axis_ref *r = &l[i];

		if (sli_mesh_axis_index(mesh, r->name) < 0)
			return sli_verify_op_error(v, pfx, "unknown axis name: \"%s\"",
			                           sli_verify_sym(v, r->name));
		for (size_t j = 0; j < seen->refs.n; j++) {
			if (sli_axis_equal(&seen->refs.v[j], r)) {
				b = sli_verify_op_msg(v, pfx);
				sli_buf_puts(b, "duplicate axis ref: ");
				sli_verify_put_axis(v, b, r);
				return sli_verify_emit(v);
			}
		}
		SL_VEC_PUSH(seen->refs, *r);
		if (r->sub) {
			SL_VEC_PUSH(seen->subs, *r);
			if (prev && sli_axis_can_merge(prev, r)) {
				b = sli_verify_op_msg(v, pfx);
				sli_buf_puts(b, "two consecutive sub-axes can be merged: ");
				sli_verify_put_axis(v, b, prev);
				sli_buf_puts(b, ", ");
				sli_verify_put_axis(v, b, r);
				return sli_verify_emit(v);
			}
		}
		prev = r;
	}
	return 0;
}

/* All names of the list are axes of the mesh. */
static bool
names_known(const sl_axis_ref *l, size_t n, const sl_mesh *mesh)
{
	for (size_t i = 0; i < n; i++)
		if (sli_mesh_axis_index(mesh, l[i].name) < 0)
			return false;
	return true;
}

/* A list that must be sorted in mesh order, then checked as above. */
int
sli_verify_check_sorted_axis_list(verifier *v, const char *pfx, const char *what,
                                  const sl_axis_ref *l, size_t n, const sl_mesh *mesh,
                                  axis_seen *seen)
{
	if (names_known(l, n, mesh) &&
	    !sli_axis_is_mesh_sorted(v->ctx, mesh, l, n))
		return sli_verify_op_error(v, pfx, "%s axes are not ordered w.r.t. mesh", what);
	return sli_verify_check_axis_list(v, pfx, l, n, mesh, seen);
}

/* The sub-axes of each axis name (4.2 #10), names in mesh order. */
int
sli_verify_check_sub_axes(verifier *v, const char *pfx, const sl_mesh *mesh,
                          axis_seen *seen)
{
	sli_axis_vec subs = {0};
	int rc = 0;

	for (uint32_t a = 0; a < mesh->naxes && rc == 0; a++) {
		sl_sym name = mesh->axes[a].name;
		int64_t size = mesh->axes[a].size;
		sl_axis_ref full = sli_axis_full(name);
		sli_buf *b;

		subs.n = 0;
		for (size_t i = 0; i < seen->subs.n; i++)
			if (seen->subs.v[i].name == name)
				SL_VEC_PUSH(subs, seen->subs.v[i]);
		if (subs.n == 0)
			continue;
		for (size_t i = 0; i < seen->refs.n; i++) {
			if (sli_axis_equal(&seen->refs.v[i], &full)) {
				rc = sli_verify_op_error(v, pfx, "both sub-axis and full-axis are used "
				                         "for axis name: \"%s\"", sli_verify_sym(v, name));
				break;
			}
		}
		if (rc)
			break;
		sli_axis_mesh_sort(v->ctx, mesh, subs.v, subs.n);
		for (size_t i = 0; i < subs.n; i++) {
			const sl_axis_ref *r = &subs.v[i];
			int64_t next;
			bool fits = sli_mul_i64_ok(r->pre, r->size, &next);

			b = sli_verify_op_msg(v, pfx);
			if (r->pre < 1)
				sli_buf_puts(b, "sub-axis pre-size must be at least 1: ");
			else if (r->size <= 1)
				sli_buf_puts(b, "sub-axis sizes must be greater than 1: ");
			else if (!fits)
				sli_buf_printf(b, "sub-axis next pre-size is out of range "
				               "(more than the size of the full axis %lld): ",
				               (long long)size);
			else if (size % next != 0)
				sli_buf_printf(b, "sub-axis next pre-size %lld doesn't divide "
				               "the size of the full axis %lld: ",
				               (long long)next, (long long)size);
			else if (r->size == size)
				sli_buf_puts(b, "sub-axis size is equal to the full axis size: ");
			else if (i > 0 && subs.v[i - 1].pre * subs.v[i - 1].size > r->pre) {
				sli_buf_puts(b, "overlapping sub-axes: ");
				sli_verify_put_axis(v, b, &subs.v[i - 1]);
				sli_buf_puts(b, ", ");
			} else {
				continue;
			}
			sli_verify_put_axis(v, b, r);
			rc = sli_verify_emit(v);
			break;
		}
	}
	SL_VEC_FREE(subs);
	return rc;
}
