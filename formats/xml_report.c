/*
 * xml_report.c - XML report of a solved module through libxml2's text
 * writer: <shardlp-solve file=..> with one <result> (status, cost and its
 * components, bound, gap, seconds, model size) and one <tensor> per value
 * of the cost model (its location, type and sharding as MLIR text).
 */
#include "formats/xml_report.h"

#include <libxml/xmlwriter.h>
#include <stdlib.h>
#include <string.h>

#include "formats/mlir_printer.h"

static int
attr_f(xmlTextWriterPtr w, const char *name, double v)
{
	return xmlTextWriterWriteFormatAttribute(w, BAD_CAST name, "%.9g", v) < 0;
}

int
sli_xml_solve_report(FILE *out, const char *file, sl_module *m,
                     const sli_solve_result *r, const sli_cost_params *p)
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
	bad |= xmlTextWriterWriteAttribute(w, BAD_CAST "file", BAD_CAST file) < 0;
	bad |= xmlTextWriterStartElement(w, BAD_CAST "result") < 0;
	bad |= xmlTextWriterWriteAttribute(w, BAD_CAST "status",
	                                   BAD_CAST sli_lp_status_name(r->status)) < 0;
	bad |= attr_f(w, "cost", r->parts.total);
	bad |= attr_f(w, "memory", r->parts.memory);
	bad |= attr_f(w, "communication", r->parts.communication);
	bad |= attr_f(w, "compute", r->parts.compute);
	bad |= attr_f(w, "bytes-per-device", r->parts.bytes);
	bad |= attr_f(w, "bound", r->bound);
	bad |= attr_f(w, "gap", r->gap);
	bad |= attr_f(w, "seconds", r->seconds);
	bad |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "binaries", "%zu",
	                                         r->nbinaries) < 0;
	bad |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "rows", "%zu", r->nrows) < 0;
	bad |= xmlTextWriterEndElement(w) < 0;

	sli_cost_model cm;
	if (sli_cost_model_build(m, p, &cm) == 0) {
		sli_buf b;
		sli_buf_init(&b);
		for (size_t t = 0; t < cm.tensors.n; t++) {
			const sl_value *v = cm.tensors.v[t].v;
			const sl_sharding *s = sli_cost_value_sharding(v);
			sl_loc loc = v->def ? v->def->loc : v->loc;
			bad |= xmlTextWriterStartElement(w, BAD_CAST "tensor") < 0;
			bad |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "line", "%u",
			                                         loc.line) < 0;
			bad |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "col", "%u",
			                                         loc.col) < 0;
			if (v->def)
				bad |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "result",
				                                         "%u", v->index) < 0;
			else
				bad |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "argument",
				                                         "%u", v->index) < 0;
			bad |= xmlTextWriterWriteAttribute(w, BAD_CAST "type",
			        BAD_CAST sl_sym_str(m->ctx, v->type->text)) < 0;
			if (s) {
				sl_attr a;
				memset(&a, 0, sizeof a);
				a.kind = SL_ATTR_SHARDING;
				a.u.sharding = *s;
				b.n = 0;
				sli_print_attr(&b, m->ctx, &a);
				bad |= xmlTextWriterWriteAttribute(w, BAD_CAST "sharding",
				                                   BAD_CAST sli_buf_cstr(&b)) < 0;
			}
			bad |= xmlTextWriterEndElement(w) < 0;
		}
		sli_buf_fini(&b);
		sli_cost_model_fini(&cm);
	}
	bad |= xmlTextWriterEndDocument(w) < 0;
	xmlFreeTextWriter(w);
	if (!bad && fwrite(xmlBufferContent(buf), 1, (size_t)xmlBufferLength(buf), out)
	    != (size_t)xmlBufferLength(buf))
		bad = 1;
	xmlBufferFree(buf);
	return bad ? -1 : 0;
}
