/*
 * xml_report.h - the XML report of `shardlp solve --format xml` and of
 * `shardlp compare` (libxml2 writer): the result, its cost components and
 * every tensor's sharding.  It takes plain data: the caller (src/api)
 * computes the report from the solver and the cost model and hands it
 * over, so that formats/ knows neither.
 */
#ifndef SL_FORMATS_XML_REPORT_H
#define SL_FORMATS_XML_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* One tensor of the cost model. */
typedef struct sli_xml_tensor {
	unsigned line, col;	/* where it is defined */
	bool result;		/* an op result; else a block argument */
	unsigned index;		/* its result or argument number */
	const char *type;	/* MLIR text */
	const char *sharding;	/* MLIR text, or NULL when it has none */
} sli_xml_tensor;

/* The result of one solve, as <result> prints it. */
typedef struct sli_xml_solve {
	const char *file;	/* the input */
	const char *status;	/* "optimal", "feasible", ... */
	double cost, compute, communication;	/* seconds */
	double peak_bytes;	/* peak live bytes per device */
	double budget;		/* bytes per device; 0: none (not written) */
	double bound, gap, seconds;
	size_t nbinaries, nrows;
	const sli_xml_tensor *tensors;
	size_t ntensors;
} sli_xml_solve;

/* Writes the report; 0, or -1 on a write error. */
int sli_xml_solve_report(FILE *out, const sli_xml_solve *r);

#endif
