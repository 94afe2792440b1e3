/*
 * xml_report.h - the XML report of `shardlp solve --format xml` and of
 * `shardlp compare` (libxml2 writer): the result, its cost components and
 * every tensor's sharding.
 */
#ifndef SL_FORMATS_XML_REPORT_H
#define SL_FORMATS_XML_REPORT_H

#include "solver/solve.h"

/* Writes the report of a solved module; 0, or -1 on a write error. */
int sli_xml_solve_report(FILE *out, const char *file, sl_module *m,
                         const sli_solve_result *r, const sli_cost_params *p);

#endif
