/*
 * iopddl.h - the solver side of IOPDDL problems: the evaluator
 * (iopddl_eval.c) and the solver (iopddl_solve.c: reductions, a local
 * search, and the ILP through the GLPK backend that `shardlp solve`
 * uses).  Their interface is public, in shardlp.h's IOPDDL section; this
 * header gathers it with the problem's struct (formats/iopddl.h).
 */
#ifndef SL_SOLVER_IOPDDL_H
#define SL_SOLVER_IOPDDL_H

#include "shardlp.h"
#include "formats/iopddl.h"

#endif
