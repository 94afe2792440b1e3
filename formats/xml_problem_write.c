/*
 * xml_problem_write.c - writes a module as a <shardlp-problem> document
 * (shardlp-xml(5)) through libxml2's text writer: each sdy.mesh at the
 * top as a <mesh> of axes and device ids, every other op as an <op> with
 * its operands, results, properties, regions and attributes in the order
 * of MLIR's generic form, which is the order the reader reads them in.
 * Attribute values are their MLIR text; the <sharding> of a tensor and
 * the <rule> of an op are derived from them for readers without MLIR.
 */
#include "formats/xml_problem.h"

#include <math.h>

#include <libxml/xmlwriter.h>

#include "formats/mlir_printer.h"

typedef struct writer {
	xmlTextWriterPtr w;
	const sl_context *ctx;
	sli_buf b;		/* scratch for MLIR text */
	int bad;
} writer;

static void
start(writer *wr, const char *elem)
{
	wr->bad |= xmlTextWriterStartElement(wr->w, BAD_CAST elem) < 0;
}

static void
end(writer *wr)
{
	wr->bad |= xmlTextWriterEndElement(wr->w) < 0;
}

static void
attr(writer *wr, const char *name, const char *value)
{
	wr->bad |= xmlTextWriterWriteAttribute(wr->w, BAD_CAST name, BAD_CAST value) < 0;
}

static void
attr_i64(writer *wr, const char *name, int64_t v)
{
	wr->bad |= xmlTextWriterWriteFormatAttribute(wr->w, BAD_CAST name, "%lld",
	                                             (long long)v) < 0;
}

static void
attr_sym(writer *wr, const char *name, sl_sym s)
{
	attr(wr, name, sl_sym_str(wr->ctx, s));
}

/* <ELEM name=.. value=..> of one attribute: its MLIR text. */
static void
named(writer *wr, const char *elem, const sl_named_attr *na)
{
	start(wr, elem);
	attr_sym(wr, "name", na->name);
	wr->b.n = 0;
	sli_print_attr(&wr->b, wr->ctx, na->attr);
	attr(wr, "value", sli_buf_cstr(&wr->b));
	end(wr);
}

static void
named_list(writer *wr, const char *elem, const sl_named_attr *v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		named(wr, elem, &v[i]);
}

/* {====== derived elements: shardings, rules =========================== */

static void
axis_refs(writer *wr, const char *elem, const sl_axis_list *l)
{
	for (uint32_t i = 0; i < l->n; i++) {
		start(wr, elem);
		attr_sym(wr, "name", l->v[i].name);
		if (l->v[i].sub) {
			attr_i64(wr, "pre", l->v[i].pre);
			attr_i64(wr, "size", l->v[i].size);
		}
		end(wr);
	}
}

static void
sharding(writer *wr, const sl_sharding *s)
{
	start(wr, "sharding");
	if (s->mesh_name) {
		attr_sym(wr, "mesh", s->mesh_name);
	} else {
		wr->b.n = 0;
		if (s->mesh)
			sli_print_mesh_body(&wr->b, wr->ctx, s->mesh);
		attr(wr, "mesh", sli_buf_cstr(&wr->b));
	}
	for (uint32_t d = 0; d < s->rank; d++) {
		start(wr, "dim");
		attr(wr, "closed", s->dims[d].open ? "false" : "true");
		if (s->dims[d].priority != SL_NO_PRIORITY)
			attr_i64(wr, "priority", s->dims[d].priority);
		axis_refs(wr, "axis", &s->dims[d].axes);
		end(wr);
	}
	axis_refs(wr, "replicated", &s->replicated);
	axis_refs(wr, "unreduced", &s->unreduced);
	end(wr);
}

static bool
in_list(const sl_factor_list *l, int64_t f)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (l->v[i] == f)
			return true;
	return false;
}

/* The factor names of Shardy's printed rules: i, j, ..., z, z_1, z_2. */
static void
factor_name(char *out, size_t n, uint32_t f)
{
	if (f < 18)
		snprintf(out, n, "%c", 'i' + (int)f);
	else
		snprintf(out, n, "z_%u", f - 17);
}

static void
rule(writer *wr, const sl_attr *a)
{
	static const char *const kinds[] = {
		"pass-through", "reduction", "need-replication", "permutation",
		"blocked-propagation",
	};
	const sl_rule *r = &a->u.rule;
	start(wr, "rule");
	wr->b.n = 0;
	sli_print_attr(&wr->b, wr->ctx, a);
	attr(wr, "text", sli_buf_cstr(&wr->b));
	for (uint32_t f = 0; f < r->nfactors; f++) {
		int k = in_list(&r->reduction, f) ? 1 : in_list(&r->need_replication, f) ? 2
		      : in_list(&r->permutation, f) ? 3 : in_list(&r->blocked, f) ? 4 : 0;
		char name[16];
		factor_name(name, sizeof name, f);
		start(wr, "factor");
		attr(wr, "name", name);
		attr_i64(wr, "size", r->factor_sizes[f]);
		attr(wr, "kind", kinds[k]);
		end(wr);
	}
	end(wr);
}

/* }===================================================================== */

static const sl_attr *
find_attr(const sl_named_attr *v, uint32_t n, sl_sym name)
{
	for (uint32_t i = 0; i < n; i++)
		if (v[i].name == name)
			return v[i].attr;
	return NULL;
}

/*
 * <ELEM id type shape element> of a value; attrs (a function argument's)
 * as <attribute> children; its sharding, from them or given (an op's
 * sdy.sharding for this result), as <sharding>.
 */
static void
value(writer *wr, const char *elem, const sl_value *v, const sl_sharding *s)
{
	start(wr, elem);
	wr->bad |= xmlTextWriterWriteFormatAttribute(wr->w, BAD_CAST "id", "v%u", v->id) < 0;
	attr_sym(wr, "type", v->type->text);
	if (v->type->kind == SL_TYPE_TENSOR && !v->type->unranked) {
		wr->b.n = 0;
		for (uint32_t d = 0; d < v->type->rank; d++) {
			if (d)
				sli_buf_putc(&wr->b, 'x');
			if (v->type->dims[d] == SL_DYN)
				sli_buf_putc(&wr->b, '?');
			else
				sli_buf_i64(&wr->b, v->type->dims[d]);
		}
		attr(wr, "shape", sli_buf_cstr(&wr->b));
		attr_sym(wr, "element", v->type->elem->text);
	}
	uint32_t nattrs;
	const sl_named_attr *attrs = sli_arg_attrs(v, &nattrs);
	named_list(wr, "attribute", attrs, nattrs);
	const sl_attr *a = find_attr(attrs, nattrs, SLS_sdy_sharding);
	if (!s && a && a->kind == SL_ATTR_SHARDING)
		s = &a->u.sharding;
	if (s)
		sharding(wr, s);
	end(wr);
}

/* Whether op is an sdy.mesh the <mesh> element spells: a name and a mesh. */
static bool
plain_mesh(const sl_module *m, const sl_op *op)
{
	return op->kind == SL_OP_SDY_MESH && op->nprops == 2 && !op->nattrs &&
	       !op->nregions && !op->noperands && !op->nresults && !sli_op_locattr(m, op) &&
	       find_attr(op->props, 2, SLS_mesh) &&
	       find_attr(op->props, 2, SLS_mesh)->kind == SL_ATTR_MESH &&
	       find_attr(op->props, 2, SLS_sym_name) &&
	       find_attr(op->props, 2, SLS_sym_name)->kind == SL_ATTR_STRING;
}

static void
mesh(writer *wr, const sl_op *op)
{
	const sl_attr *name = find_attr(op->props, 2, SLS_sym_name);
	const sl_mesh *m = &find_attr(op->props, 2, SLS_mesh)->u.mesh;
	start(wr, "mesh");
	wr->b.n = 0;
	sli_buf_put(&wr->b, name->u.s.p, name->u.s.n);
	attr(wr, "name", sli_buf_cstr(&wr->b));
	for (uint32_t i = 0; i < m->naxes; i++) {
		start(wr, "axis");
		attr_sym(wr, "name", m->axes[i].name);
		attr_i64(wr, "size", m->axes[i].size);
		end(wr);
	}
	if (m->ids) {
		wr->b.n = 0;
		for (uint32_t i = 0; i < m->nids; i++) {
			if (i)
				sli_buf_putc(&wr->b, ' ');
			sli_buf_i64(&wr->b, m->ids[i]);
		}
		wr->bad |= xmlTextWriterWriteElement(wr->w, BAD_CAST "devices",
		                                     BAD_CAST sli_buf_cstr(&wr->b)) < 0;
	}
	end(wr);
}

static void op_elem(writer *wr, const sl_op *op);

static void
region(writer *wr, const sl_region *r)
{
	start(wr, "region");
	for (const sl_block *b = r->first; b; b = b->next) {
		start(wr, "block");
		for (uint32_t i = 0; i < b->nargs; i++)
			value(wr, "argument", &b->args[i], NULL);
		for (const sl_op *o = b->first; o; o = o->next)
			op_elem(wr, o);
		end(wr);
	}
	end(wr);
}

static void
op_elem(writer *wr, const sl_op *op)
{
	start(wr, "op");
	attr_sym(wr, "name", op->name);
	for (uint32_t i = 0; i < op->noperands; i++) {
		start(wr, "operand");
		wr->bad |= xmlTextWriterWriteFormatAttribute(wr->w, BAD_CAST "value", "v%u",
		                                             op->operands[i]->id) < 0;
		end(wr);
	}
	const sl_attr *spv = find_attr(op->attrs, op->nattrs, SLS_sdy_sharding);
	for (uint32_t i = 0; i < op->nresults; i++) {
		const sl_sharding *s = spv && spv->kind == SL_ATTR_SHARDING_PER_VALUE &&
		                       i < spv->u.spv.n ? spv->u.spv.v[i] : NULL;
		value(wr, "result", &op->results[i], s);
	}
	named_list(wr, "property", op->props, op->nprops);
	for (uint32_t i = 0; i < op->nregions; i++)
		region(wr, &op->regions[i]);
	named_list(wr, "attribute", op->attrs, op->nattrs);
	const sl_attr *r = find_attr(op->attrs, op->nattrs, SLS_sdy_sharding_rule);
	if (r && r->kind == SL_ATTR_RULE)
		rule(wr, r);
	end(wr);
}

/* Numbers every value in walk order: v0, v1, ...; ids are unique in the
 * document, as the schema's xs:ID wants. */
static void
number(const sl_op *op, uint32_t *n)
{
	for (uint32_t i = 0; i < op->nresults; i++)
		op->results[i].id = (*n)++;
	for (uint32_t r = 0; r < op->nregions; r++)
		for (sl_block *b = op->regions[r].first; b; b = b->next) {
			for (uint32_t i = 0; i < b->nargs; i++)
				b->args[i].id = (*n)++;
			for (const sl_op *o = b->first; o; o = o->next)
				number(o, n);
		}
}

/* <result-of method status cost ...>, a number left out when it is none. */
static void
result_of(writer *wr, const sl_method_result *r)
{
	const char *const names[] = {"cost", "peak-bytes", "communication", "compute",
	                             "seconds"};
	const double v[] = {r->cost, r->peak_bytes, r->communication, r->compute,
	                    r->seconds};
	start(wr, "result-of");
	attr(wr, "method", r->method);
	attr(wr, "status", r->status);
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		if (isfinite(v[i]))
			wr->bad |= xmlTextWriterWriteFormatAttribute(wr->w, BAD_CAST names[i],
			                                             "%.9g", v[i]) < 0;
	end(wr);
}

int
sl_module_write_xml(sl_module *m, FILE *out, const char *source)
{
	return sl_module_write_xml_results(m, out, source, NULL, 0);
}

int
sl_module_write_xml_results(sl_module *m, FILE *out, const char *source,
                            const sl_method_result *r, size_t nr)
{
	xmlBufferPtr buf = xmlBufferCreate();
	writer wr = {buf ? xmlNewTextWriterMemory(buf, 0) : NULL, m ? m->ctx : NULL, {0}, 0};
	if (!wr.w) {
		if (buf)
			xmlBufferFree(buf);
		return -1;
	}
	uint32_t n = 0;
	xmlTextWriterSetIndent(wr.w, 1);
	wr.bad |= xmlTextWriterStartDocument(wr.w, NULL, "UTF-8", NULL) < 0;
	start(&wr, "shardlp-problem");
	attr(&wr, "version", "1");
	if (source)
		attr(&wr, "source", source);
	if (m) {
		number(m->top, &n);
		named_list(&wr, "property", m->top->props, m->top->nprops);
		named_list(&wr, "attribute", m->top->attrs, m->top->nattrs);
		for (const sl_op *o = m->top->regions[0].first->first; o; o = o->next) {
			if (plain_mesh(m, o))
				mesh(&wr, o);
			else
				op_elem(&wr, o);
		}
	}
	for (size_t i = 0; i < nr; i++)
		result_of(&wr, &r[i]);
	wr.bad |= xmlTextWriterEndDocument(wr.w) < 0;
	xmlFreeTextWriter(wr.w);
	sli_buf_fini(&wr.b);
	size_t len = (size_t)xmlBufferLength(buf);
	if (!wr.bad && fwrite(xmlBufferContent(buf), 1, len, out) != len)
		wr.bad = 1;
	xmlBufferFree(buf);
	return wr.bad ? -1 : 0;
}
