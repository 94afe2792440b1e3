/*
 * insert_explicit_reshards.h - what the files of -sdy-insert-explicit-reshards
 * share (insert_explicit_reshards.c, insert_explicit_reshards_unreduced.c).
 * New ops and attributes live in the module arena.
 */
#ifndef SL_PASSES_INSERT_EXPLICIT_RESHARDS_H
#define SL_PASSES_INSERT_EXPLICIT_RESHARDS_H

#include "ir/access.h"

/* Inserts op before `at`, or at the end of block b when at is NULL. */
void sli_xr_place(sl_op *op, sl_op *at, sl_block *b);

/*
 * Operand i of user, whose sharding is `have`, flows into `target`: when
 * target has unreduced axes `have` lacks, inserts (before `at` in b) the
 * reshard and replicated-to-unreduced that make them unreduced and
 * returns target; otherwise returns have.
 */
const sl_sharding *sli_xr_make_unreduced(sl_module *m, sl_op *user, uint32_t i,
                                         const sl_sharding *have,
                                         const sl_sharding *target, sl_op *at,
                                         sl_block *b);

/*
 * Replaces reshard rs (its input has sharding `in`) by the collectives
 * that make axes unreduced, when its target adds unreduced axes; whether
 * it did.  Its users are to read the new value: rs's result maps to it in
 * subst.
 */
bool sli_xr_reshard_to_unreduced(sl_module *m, sl_op *rs, const sl_sharding *in,
                                 sli_vmap *subst);

/*
 * When op has a result sharding on a maximal mesh, reshards its operands
 * onto that device and its results back (insert_explicit_reshards_single_
 * device.c); whether it did.  seen(m, v) gives the sharding ops see for v;
 * each result maps in subst to the value its later users are to read.
 */
bool sli_xr_single_device(sl_module *m, sl_op *op,
                          const sl_sharding *(*seen)(sl_module *, const sl_value *),
                          sli_vmap *subst);

#endif
