/*
 * verify.h - the sdy dialect verifier (spec/dialect-and-verifier.md
 * section 4, spec/sharding-rules.md section 3) and the structural checks
 * of MLIR that Shardy's tests rely on.  sl_module_verify (shardlp.h) is
 * the entry point; it reports the first failure through the context's
 * sink as MLIR does and changes nothing in the module except the scratch
 * `id` of values (use counts, when it needs them).
 */
#ifndef SL_VERIFY_VERIFY_H
#define SL_VERIFY_VERIFY_H

#include "ir/ir.h"

/*
 * Checks a mesh attribute (spec 2.1, 2.2): axis sizes, device ids, unique
 * axis names.  Returns 0, or -1 with the message (without prefix) in
 * `why`, so that parsers can report it with their own prefix.
 */
int sli_verify_mesh_attr(const sl_context *ctx, const sl_mesh *mesh,
                         sli_buf *why);

/* No reduction may introduce (or remove) unreduced axes. */
enum { SLI_VERIFY_NO_OP = -1 };

/*
 * The unreduced-axes transition of op (spec 4.10) from the shardings
 * src[0..nsrc) to tgt[0..ntgt) (NULL entries have no axes; meshes looked
 * up from op): new unreduced axes are allowed only with reduction
 * `intro`, dropped ones only with `removal` (SL_RED_*, or
 * SLI_VERIFY_NO_OP: never); kept ones keep their reduction.  Nothing is
 * checked unless all the shardings are on one mesh.  Returns 0, or -1
 * after reporting the error on op.
 */
int sli_verify_unreduced_transition(sl_module *m, sl_op *op,
                                    const sl_sharding *const *src, uint32_t nsrc,
                                    const sl_sharding *const *tgt, uint32_t ntgt,
                                    int intro, int removal);

/* The factor symbol of index k: i..z, then z_1, z_2, ... */
void sli_verify_factor_symbol(sli_buf *b, int64_t k);

#endif
