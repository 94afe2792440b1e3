/*
 * data_flow_edges.h - `sdy.data_flow_edge` ops (spec/import-passes.md
 * section 0.4), and inserting ops next to others.  Edges are created in
 * the module arena.
 */
#ifndef SL_PASSES_DATA_FLOW_EDGES_H
#define SL_PASSES_DATA_FLOW_EDGES_H

#include "ir/access.h"

/* named and manual computations, while, case, optimization_barrier */
bool sli_is_data_flow_op(const sl_op *op);
/*
 * Adds `sdy.data_flow_edge` ops for the edge owners of a data-flow op
 * (named and manual computations: body arguments then results; while,
 * case and optimization_barrier: results), routing all other uses
 * through them.
 */
void sli_add_data_flow_edges(sl_module *m, sl_op *op);
/*
 * The same for every data-flow op among ops[0..n), with one walk of the
 * module to redirect the uses (instead of one per edge).
 */
void sli_add_data_flow_edges_all(sl_module *m, sl_op *const *ops, size_t n);

/* Inserts op right after `after` in its block. */
void sli_op_insert_after(sl_op *after, sl_op *op);
/* Inserts op at the start of block b. */
void sli_op_prepend(sl_block *b, sl_op *op);

#endif
