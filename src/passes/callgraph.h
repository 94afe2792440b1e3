/*
 * callgraph.h - functions and calls for the passes that reshape the call
 * graph (spec/import-passes.md section 0.2).  Ownership: the vectors
 * filled here belong to the caller (SL_VEC_FREE); clones live in the
 * module arena.
 */
#ifndef SL_PASSES_CALLGRAPH_H
#define SL_PASSES_CALLGRAPH_H

#include "passes/symtab.h"

typedef SL_VEC(sl_op *) sli_opvec;

/* sdy.original_func_name if present, else the function's name. */
sl_sym sli_func_original_name(sl_module *m, const sl_op *func);

/* Ops under root (root excluded) in post-order (nested regions first). */
void sli_collect_postorder(sl_op *root, sli_opvec *out);
/* Ops under root (root excluded) in pre-order. */
void sli_collect_preorder(sl_op *root, sli_opvec *out);

/*
 * Functions in call-graph post-order (callees first), or pre-order
 * (callers first).  With `check`, a call to a missing function or a
 * cycle gets a located error and -1 is returned.
 */
int sli_func_order(sl_module *m, bool preorder, bool check, sli_opvec *out);
/* The func.call ops of walkCalls: functions in that order, calls in a
 * post-order (pre-order) op walk of each. */
int sli_call_order(sl_module *m, bool preorder, bool check, sli_opvec *out);

/*
 * Clones func with every function it calls, transitively; each clone
 * carries sdy.original_func_name and is inserted through t (nested
 * clones first).  Returns the top clone, inserted too.
 */
sl_op *sli_clone_func_recursively(sli_symtab *t, sl_op *func);

/* The main function: the only one, else the one named main, or NULL. */
sl_op *sli_main_func(sl_module *m);

#endif
