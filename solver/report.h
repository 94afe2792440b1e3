/*
 * report.h - a solution report in glpsol's printable layout (report.c).
 */
#ifndef SL_SOLVER_REPORT_H
#define SL_SOLVER_REPORT_H

#include <stdio.h>

#include "solver/lp.h"

/*
 * Writes lp's solution x (one value per column) to f as `glpsol -o`
 * does for a MIP, status in glpsol's words ("INTEGER OPTIMAL", ...), then
 * the meaning of the names (sli_form_name_legend).  0, or -1 when f
 * failed.
 */
int sli_lp_write_report(const sli_lp *lp, const double *x, const char *status,
                        FILE *f);

/* What the names of sli_form_name mean, one entry per line. */
extern const char sli_form_name_legend[];

#endif
