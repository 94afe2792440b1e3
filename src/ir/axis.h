/*
 * axis.h - the axis-ref algebra of spec/dialect-and-verifier.md section 2.3:
 * containment, prefixes and suffixes, overlap, coexistence, merging, the
 * two orders, sort-and-merge and set difference of axis lists.
 * Functions take and return axis refs by value and never allocate, except
 * the sli_axis_vec helpers, whose vectors the caller frees with
 * SL_VEC_FREE.  Axis refs of different names never overlap or contain
 * each other.  "Full size" questions (the size of a full axis) take the
 * mesh; a name missing from the mesh has size -1.
 */
#ifndef SL_IR_AXIS_H
#define SL_IR_AXIS_H

#include "ir/attr.h"

typedef SL_VEC(sl_axis_ref) sli_axis_vec;

/* Position of axis `name` in the mesh, or -1. */
int sli_mesh_axis_index(const sl_mesh *mesh, sl_sym name);
/* Size of axis `name` in the mesh, or -1 when it is not there. */
int64_t sli_mesh_axis_size(const sl_mesh *mesh, sl_sym name);
/* Product of the axis sizes (1 for no axes). */
int64_t sli_mesh_total_size(const sl_mesh *mesh);
/* Maximal: no axes and exactly one device id.  Empty: no axes, no ids. */
bool sli_mesh_is_maximal(const sl_mesh *mesh);
bool sli_mesh_is_empty(const sl_mesh *mesh);

static inline sl_axis_ref
sli_axis_full(sl_sym name)
{
	sl_axis_ref r = {name, false, 0, 0};
	return r;
}

static inline sl_axis_ref
sli_axis_sub(sl_sym name, int64_t pre, int64_t size)
{
	sl_axis_ref r = {name, true, pre, size};
	return r;
}

/* Pre-size: 1 for a full axis. */
static inline int64_t
sli_axis_pre(const sl_axis_ref *r)
{
	return r->sub ? r->pre : 1;
}

/* Size of the ref: the sub-axis size, or the full size from the mesh. */
int64_t sli_axis_size(const sl_axis_ref *r, const sl_mesh *mesh);
/* Next pre-size (pre * size), or the full size for a full axis. */
int64_t sli_axis_next(const sl_axis_ref *r, const sl_mesh *mesh);

/* Same name and same full/sub-axis info. */
bool sli_axis_equal(const sl_axis_ref *a, const sl_axis_ref *b);
/* x contains y: same name and y's range lies inside x's. */
bool sli_axis_contains(const sl_axis_ref *x, const sl_axis_ref *y);
/* x is a prefix of y: y contains x and both start at the same pre-size. */
bool sli_axis_prefix_of(const sl_axis_ref *x, const sl_axis_ref *y);
/* x is a suffix of y: y contains x and both end at the same next pre-size. */
bool sli_axis_suffix_of(const sl_axis_ref *x, const sl_axis_ref *y,
                        const sl_mesh *mesh);
/* Same name and intersecting ranges (a full axis overlaps any same-name ref). */
bool sli_axis_overlaps(const sl_axis_ref *x, const sl_axis_ref *y);
/* Whether x and y can both be sub-axes of one device layout. */
bool sli_axis_can_coexist(const sl_axis_ref *x, const sl_axis_ref *y);
/*
 * The overlap of x and y in *out; false when they have different names,
 * do not overlap or cannot coexist.
 */
bool sli_axis_overlap(const sl_axis_ref *x, const sl_axis_ref *y,
                      sl_axis_ref *out);
/*
 * The part of x before y in *out (x itself when they do not overlap);
 * false when nothing is left or they cannot coexist.
 */
bool sli_axis_prefix_without_overlap(const sl_axis_ref *x, const sl_axis_ref *y,
                                     sl_axis_ref *out);
/* The part of x after y in *out, as above. */
bool sli_axis_suffix_without_overlap(const sl_axis_ref *x, const sl_axis_ref *y,
                                     const sl_mesh *mesh, sl_axis_ref *out);
/* x and y are sub-axes of one axis with y starting where x ends. */
bool sli_axis_can_merge(const sl_axis_ref *x, const sl_axis_ref *y);
/* x merged with y (requires can_merge): the full axis if it covers it. */
sl_axis_ref sli_axis_merge(const sl_axis_ref *x, const sl_axis_ref *y,
                           const sl_mesh *mesh);

/*
 * Lexicographic order: by name text, then for one name a full axis is
 * below a sub-axis iff that sub-axis has pre-size > 1, sub-axes by
 * (pre-size, size).
 */
bool sli_axis_less(const sl_context *ctx, const sl_axis_ref *x,
                   const sl_axis_ref *y);
/*
 * Mesh order: by the position of the name in the mesh (names not in the
 * mesh after all others, by name text), then as sli_axis_less.
 */
bool sli_axis_mesh_less(const sl_context *ctx, const sl_mesh *mesh,
                        const sl_axis_ref *x, const sl_axis_ref *y);
/* Whether v is sorted in mesh order. */
bool sli_axis_is_mesh_sorted(const sl_context *ctx, const sl_mesh *mesh,
                             const sl_axis_ref *v, size_t n);
/* Stable sort in mesh order. */
void sli_axis_mesh_sort(const sl_context *ctx, const sl_mesh *mesh,
                        sl_axis_ref *v, size_t n);

/* Equality of two axis lists, element by element. */
bool sli_axis_list_equal(const sl_axis_ref *a, size_t na,
                         const sl_axis_ref *b, size_t nb);
/* Product of the sizes of the refs (the sharded size of a dimension). */
int64_t sli_axis_list_size(const sl_axis_ref *v, size_t n, const sl_mesh *mesh);

/* Appends r to vec, merged into the last element when they can merge. */
void sli_axis_vec_add_or_merge(sli_axis_vec *vec, const sl_axis_ref *r,
                               const sl_mesh *mesh);
/* Sorts vec in mesh order, then merges mergeable neighbours. */
void sli_axis_vec_sort_and_merge(const sl_context *ctx, const sl_mesh *mesh,
                                 sli_axis_vec *vec);
/*
 * Appends to out the parts of the refs of a that no ref of b covers
 * (Shardy's getAxisSetDiff): for each ref of a, take the first ref of
 * sorted(b) overlapping it, keep its prefix without overlap, continue
 * with its suffix without overlap.
 */
void sli_axis_set_diff(const sl_context *ctx, const sl_mesh *mesh,
                       const sl_axis_ref *a, size_t na,
                       const sl_axis_ref *b, size_t nb, sli_axis_vec *out);

#endif
