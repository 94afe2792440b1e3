/*
 * emitted.h - the evaluator's compute and communication: what Shardy's
 * export runs for a module's shardings, priced (emitted.c).
 */
#ifndef SL_COST_EMITTED_H
#define SL_COST_EMITTED_H

#include "cost/cost.h"

/*
 * Sets out's compute, communication, collective counts and bytes to what
 * the export runs for m's shardings: each op's compute with the
 * assignment the export gives it, the collectives it emits priced on
 * cm's links (cm a model of m); leaves the rest of out.  Returns 0, or
 * -1 when the export fails on m (out unchanged).
 */
int sli_cost_emitted(sl_module *m, const sli_cost_model *cm, sli_cost_parts *out);

/* A copy of m, printed and read back, or NULL (solver/solve.c scores
 * candidate shardings on such copies). */
sl_module *sli_cost_copy(sl_module *m);

#endif
