/*
 * factor_propagation.h - basic and aggressive factor propagation on one
 * projection (spec/propagation.md sections 3 and 4).  Both update the
 * projection in place (axis lists come from its arena) and set upd[t] for
 * every tensor t (operands, then results) that had a factor expanded.
 */
#ifndef SL_PROPAGATION_FACTOR_PROPAGATION_H
#define SL_PROPAGATION_FACTOR_PROPAGATION_H

#include "propagation/projection.h"

/*
 * dirs[f] is the direction of factor f (SL_DIR_*), blocked factors
 * already NONE.  conservative cuts candidate lists at their first sub-axis.
 */
void sli_propagate_basic(sli_proj *p, const uint8_t *dirs, bool conservative,
                         bool *upd);
/* elementwise: the op is element-wise (spec 4.3). */
void sli_propagate_aggressive(sli_proj *p, const uint8_t *dirs, bool conservative,
                              bool elementwise, bool *upd);

/* Step 1 of spec 3.2: the compatible major axes of factor f. */
void sli_compatible_axes(const sli_proj *p, uint32_t f, int dir, sli_axes *out);

#endif
