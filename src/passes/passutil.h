/*
 * passutil.h - what the import and export passes share
 * (spec/import-passes.md section 0), one module per idea: the symbol
 * table, functions and calls, the sharding walker, data-flow edges and
 * the census.  Where a sharding, a symbol, a mesh or a use is stored, and
 * the use lists, are ir/access.h's business.
 */
#ifndef SL_PASSES_PASSUTIL_H
#define SL_PASSES_PASSUTIL_H

#include "passes/callgraph.h"
#include "passes/census.h"
#include "passes/data_flow_edges.h"
#include "passes/sharding_walk.h"
#include "passes/symtab.h"

#endif
