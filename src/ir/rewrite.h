/*
 * rewrite.h - what passes need to change the IR: a map between values,
 * deep cloning of ops and regions through such a map, and replacing uses.
 */
#ifndef SL_IR_REWRITE_H
#define SL_IR_REWRITE_H

#include "ir/ir.h"
#include "util/hash.h"

/*
 * A hash map between pointers (heap-allocated, caller-owned): its pairs
 * in insertion order, and a table of their index + 1.
 */
typedef struct sli_pmap {
	struct sli_pmap_ent *v;
	size_t n, cap;
	sli_htab index;
} sli_pmap;

void sli_pmap_init(sli_pmap *m);
void sli_pmap_fini(sli_pmap *m);
void sli_pmap_set(sli_pmap *m, const void *from, void *to);
/* The pointer mapped from `from`, or NULL. */
void *sli_pmap_get(const sli_pmap *m, const void *from);

/* A map from values to values: a pointer map, typed. */
typedef sli_pmap sli_vmap;

static inline void
sli_vmap_init(sli_vmap *m)
{
	sli_pmap_init(m);
}

static inline void
sli_vmap_fini(sli_vmap *m)
{
	sli_pmap_fini(m);
}

static inline void
sli_vmap_set(sli_vmap *m, const sl_value *from, sl_value *to)
{
	sli_pmap_set(m, from, to);
}

/* The value mapped from `from`, or NULL. */
static inline sl_value *
sli_vmap_get(const sli_vmap *m, const sl_value *from)
{
	return sli_pmap_get(m, from);
}

/* The mapped value, or `from` itself when unmapped. */
static inline sl_value *
sli_vmap_lookup(const sli_vmap *m, sl_value *from)
{
	sl_value *to = sli_vmap_get(m, from);
	return to ? to : from;
}

/*
 * Deep-clones op (its regions, blocks and nested ops) into the module
 * arena; operands are mapped through `map`, and every result and block
 * argument of the clone is added to it.  The clone is not inserted.
 */
sl_op *sli_op_clone(sl_module *m, const sl_op *op, sli_vmap *map);
/* Clones the blocks of `from` into the empty region `to`. */
void sli_region_clone_into(sl_module *m, const sl_region *from, sl_region *to,
                           sli_vmap *map);

/* Replaces every operand under root (root's own operands included) that
 * is `from` by `to`. */
void sli_replace_uses(sl_op *root, const sl_value *from, sl_value *to);
/* Replaces every operand under root through the map. */
void sli_replace_uses_map(sl_op *root, const sli_vmap *map);
/* As sli_replace_uses, except inside `except` (e.g. the new user). */
void sli_replace_uses_except(sl_op *root, const sl_value *from, sl_value *to,
                             const sl_op *except);

/* A use of a value: operand `index` of `user` (use lists: ir/access.h). */
typedef struct sli_use {
	sl_op *user;
	uint32_t index;		/* operand number */
} sli_use;

/* Operand-list surgery (the arrays live in the module arena). */
void sli_op_set_operands(sl_module *m, sl_op *op, sl_value *const *v, uint32_t n);
/* Creates an op with the given operands and result types. */
sl_op *sli_op_create(sl_module *m, sl_op_kind kind, sl_value *const *operands,
                     uint32_t noperands, sl_type *const *results, uint32_t nresults,
                     uint32_t nregions);

#endif
