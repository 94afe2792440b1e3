/*
 * xml_report.c - XML report of a solved module through libxml2's text
 * writer: <shardlp-solve file=..> with one <result> (status, cost and its
 * components, bound, gap, seconds, model size) and one <tensor> per value
 * of the cost model (its location, type and sharding as MLIR text).
 */
#include "formats/xml_report.h"

#include <libxml/xmlwriter.h>

static int
attr_f(xmlTextWriterPtr w, const char *name, double v)
{
	return xmlTextWriterWriteFormatAttribute(w, BAD_CAST name, "%.9g", v) < 0;
}

int
sli_xml_solve_report(FILE *out, const sli_xml_solve *r)
{
	xmlBufferPtr buf = xmlBufferCreate();
	xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
	int bad = 0;
	if (!w) {
		if (buf)
			xmlBufferFree(buf);
		return -1;
	}
	xmlTextWriterSetIndent(w, 1);
	bad |= xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL) < 0;
	bad |= xmlTextWriterStartElement(w, BAD_CAST "shardlp-solve") < 0;
	bad |= xmlTextWriterWriteAttribute(w, BAD_CAST "file", BAD_CAST r->file) < 0;
	bad |= xmlTextWriterStartElement(w, BAD_CAST "result") < 0;
	bad |= xmlTextWriterWriteAttribute(w, BAD_CAST "status", BAD_CAST r->status) < 0;
	bad |= attr_f(w, "cost", r->cost);
	bad |= attr_f(w, "compute", r->compute);
	bad |= attr_f(w, "communication", r->communication);
	bad |= attr_f(w, "peak-bytes", r->peak_bytes);
	if (r->budget > 0)
		bad |= attr_f(w, "memory-budget", r->budget);
	bad |= attr_f(w, "bound", r->bound);
	bad |= attr_f(w, "gap", r->gap);
	bad |= attr_f(w, "seconds", r->seconds);
	bad |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "binaries", "%zu",
	                                         r->nbinaries) < 0;
	bad |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "rows", "%zu", r->nrows) < 0;
	bad |= xmlTextWriterEndElement(w) < 0;

	for (size_t t = 0; t < r->ntensors; t++) {
		const sli_xml_tensor *x = &r->tensors[t];
		bad |= xmlTextWriterStartElement(w, BAD_CAST "tensor") < 0;
		bad |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "line", "%u",
		                                         x->line) < 0;
		bad |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "col", "%u",
		                                         x->col) < 0;
		bad |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST (x->result ? "result"
		                                         : "argument"), "%u", x->index) < 0;
		bad |= xmlTextWriterWriteAttribute(w, BAD_CAST "type",
		                                   BAD_CAST x->type) < 0;
		if (x->sharding)
			bad |= xmlTextWriterWriteAttribute(w, BAD_CAST "sharding",
			                                   BAD_CAST x->sharding) < 0;
		bad |= xmlTextWriterEndElement(w) < 0;
	}
	bad |= xmlTextWriterEndDocument(w) < 0;
	xmlFreeTextWriter(w);
	if (!bad && fwrite(xmlBufferContent(buf), 1, (size_t)xmlBufferLength(buf), out)
	    != (size_t)xmlBufferLength(buf))
		bad = 1;
	xmlBufferFree(buf);
	return bad ? -1 : 0;
}
