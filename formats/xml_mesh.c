/*
 * xml_mesh.c - reads the XML mesh description (shardlp-xml(5)) with
 * libxml2: parse, validate against the compiled-in schema, then read
 * <shardlp-mesh> (axes, links, cost) into an sli_xml_mesh.  Every libxml2
 * error reaches the context's sink through xmlSetStructuredErrorFunc as
 * `file:line:col`; the parser gives the column (xmlError.int2), schema
 * errors only the element, whose column (and that of the attribute the
 * message names) is found in the source text.  Nothing is printed.
 */
#include "formats/xml_mesh.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>

#include "formats/mlir_printer.h"

/* {====================================================================
 * Diagnostics: libxml2's errors and our own, located in the source text
 * ===================================================================== */

typedef struct reader {
	sl_context *ctx;
	sl_sym file;
	const char *text;	/* the document, for columns */
	size_t len;
	unsigned errors;
	bool schema;		/* reporting on the compiled-in schema itself */
} reader;

static sl_loc
loc_at(const reader *rd, size_t off)
{
	sl_loc l = {rd->file, 1, 1};
	size_t bol = 0;
	for (size_t i = 0; i < off && i < rd->len; i++)
		if (rd->text[i] == '\n') {
			l.line++;
			bol = i + 1;
		}
	l.col = (uint32_t)(off - bol + 1);
	return l;
}

static bool
name_end(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '/' ||
	       c == '>' || c == '=';
}

/*
 * Where element `node` starts (its `<name`) or, when attr is not NULL and
 * the start tag has it, where that attribute starts.  libxml2 records the
 * line on which the start tag ends: search backwards from the end of it.
 */
static sl_loc
locate(const reader *rd, const xmlNode *node, const char *attr)
{
	long line = xmlGetLineNo((xmlNodePtr)node);
	sl_loc none = {rd->file, line > 0 ? (uint32_t)line : 0, line > 0 ? 1 : 0};
	if (line <= 0 || !node->name)
		return none;
	size_t end = 0;
	for (long l = 1; end < rd->len; end++)
		if (rd->text[end] == '\n' && ++l > line)
			break;
	char tag[256];
	int n = node->ns && node->ns->prefix
	        ? snprintf(tag, sizeof tag, "<%s:%s", node->ns->prefix, node->name)
	        : snprintf(tag, sizeof tag, "<%s", node->name);
	if (n <= 0 || (size_t)n >= sizeof tag)
		return none;
	size_t start = SIZE_MAX;
	for (size_t i = end; i-- > 0;)
		if (rd->text[i] == '<' && i + (size_t)n < rd->len &&
		    !memcmp(rd->text + i, tag, (size_t)n) && name_end(rd->text[i + n])) {
			start = i;
			break;
		}
	if (start == SIZE_MAX)
		return none;
	if (attr) {
		size_t alen = strlen(attr);
		char quote = 0;
		for (size_t i = start + (size_t)n; i < rd->len; i++) {
			char c = rd->text[i];
			if (quote) {
				if (c == quote)
					quote = 0;
			} else if (c == '"' || c == '\'') {
				quote = c;
			} else if (c == '>') {
				break;
			} else if (isspace((unsigned char)rd->text[i - 1]) &&
			           i + alen < rd->len &&
			           !memcmp(rd->text + i, attr, alen) &&
			           name_end(rd->text[i + alen])) {
				return loc_at(rd, i);
			}
		}
	}
	return loc_at(rd, start);
}

/* libxml2's message in our wording: lowercase, no final period. */
static void
clean_message(const char *msg, sli_buf *b)
{
	sli_buf_puts(b, msg ? msg : "unknown XML error");
	while (b->n && (isspace((unsigned char)b->p[b->n - 1]) || b->p[b->n - 1] == '.'))
		b->n--;
	if (b->n > 1 && isupper((unsigned char)b->p[0]) && islower((unsigned char)b->p[1]))
		b->p[0] = (char)tolower((unsigned char)b->p[0]);
}

/* The attribute a schema message is about: "Element 'x', attribute 'y': ..." */
static const char *
message_attr(const char *msg, char *out, size_t cap)
{
	const char *p = msg ? strstr(msg, ", attribute '") : NULL;
	if (!p)
		return NULL;
	p += strlen(", attribute '");
	const char *q = strchr(p, '\'');
	if (!q || (size_t)(q - p) >= cap || q == p)
		return NULL;
	memcpy(out, p, (size_t)(q - p));
	out[q - p] = 0;
	return out;
}

static void
on_xml_error(void *ud, xmlErrorPtr e)
{
	reader *rd = ud;
	if (!e || e->level == XML_ERR_NONE)
		return;
	sl_severity sev = e->level == XML_ERR_WARNING ? SL_DIAG_WARNING : SL_DIAG_ERROR;
	sli_buf b;
	sli_buf_init(&b);
	sl_loc loc = sli_loc_none();
	if (rd->schema) {
		sli_buf_printf(&b, "shardlp.xsd:%d: ", e->line);
	} else if (e->domain == XML_FROM_PARSER || e->domain == XML_FROM_NAMESPACE ||
	           e->domain == XML_FROM_IO || e->domain == XML_FROM_DTD) {
		loc.file = rd->file;
		loc.line = e->line > 0 ? (uint32_t)e->line : 0;
		loc.col = e->int2 > 0 ? (uint32_t)e->int2 : 1;
	} else if (e->node && ((xmlNodePtr)e->node)->type == XML_ELEMENT_NODE) {
		char attr[128];
		loc = locate(rd, e->node, message_attr(e->message, attr, sizeof attr));
	} else if (e->line > 0) {
		loc.file = rd->file;
		loc.line = (uint32_t)e->line;
		loc.col = 1;
	}
	clean_message(e->message, &b);
	if (sev == SL_DIAG_ERROR)
		rd->errors++;
	sli_diag(rd->ctx, sev, loc, "%s", sli_buf_cstr(&b));
	sli_buf_fini(&b);
}

/* Generic (unstructured) libxml2 output: the library never prints. */
static void
drop_generic(void *ud, const char *fmt, ...)
{
}

/* libxml2's global error handlers, swapped in for one call and back. */
typedef struct handlers {
	xmlStructuredErrorFunc serror;
	void *sctx;
	xmlGenericErrorFunc gerror;
	void *gctx;
} handlers;

static void
handlers_push(handlers *h, reader *rd)
{
	xmlInitParser();
	h->serror = xmlStructuredError;
	h->sctx = xmlStructuredErrorContext;
	h->gerror = xmlGenericError;
	h->gctx = xmlGenericErrorContext;
	xmlSetStructuredErrorFunc(rd, on_xml_error);
	xmlSetGenericErrorFunc(rd, drop_generic);
}

static void
handlers_pop(const handlers *h)
{
	xmlSetStructuredErrorFunc(h->sctx, h->serror);
	xmlSetGenericErrorFunc(h->gctx, h->gerror);
}

/* }==================================================================== */

/* {====================================================================
 * Parsing and validation
 * ===================================================================== */

/* A mesh description is a few dozen lines; more is not one. */
#define MAX_XML_LEN ((size_t)16 << 20)

/* Offset of the first "<!DOCTYPE" in rd's text, or rd->len. */
static size_t
find_doctype(const reader *rd)
{
	static const char tag[] = "<!DOCTYPE";
	const size_t n = sizeof tag - 1;
	for (const char *p = rd->text, *e = rd->text + rd->len;
	     (p = memchr(p, '<', (size_t)(e - p))) != NULL; p++)
		if ((size_t)(e - p) >= n && !memcmp(p, tag, n))
			return (size_t)(p - rd->text);
	return rd->len;
}

/*
 * Parses rd's text; NULL after diagnostics.  A document type declaration
 * is refused before libxml2 sees it: its entities could expand without
 * bound (validation expands them) and its external parts would read
 * other files.  NONET: nothing is fetched from the network either.
 */
static xmlDocPtr
parse(reader *rd, const char *name)
{
	if (rd->len > MAX_XML_LEN) {
		sli_error(rd->ctx, sli_loc_none(), "'%s' is too large for an XML "
		          "description (more than %zu bytes)", name, MAX_XML_LEN);
		rd->errors++;
		return NULL;
	}
	size_t dt = find_doctype(rd);
	if (dt < rd->len) {
		sli_error(rd->ctx, loc_at(rd, dt), "a document type declaration "
		          "(<!DOCTYPE>) is not allowed in an XML description");
		rd->errors++;
		return NULL;
	}
	unsigned before = rd->errors;
	xmlDocPtr doc = xmlReadMemory(rd->text, (int)rd->len, name, NULL,
	                              XML_PARSE_NONET | XML_PARSE_BIG_LINES);
	if (doc && rd->errors == before && xmlDocGetRootElement(doc))
		return doc;
	if (rd->errors == before) {
		sl_loc l = {rd->file, 1, 1};
		sli_error(rd->ctx, l, "not a well-formed XML document");
		rd->errors++;
	}
	if (doc)
		xmlFreeDoc(doc);
	return NULL;
}

/* Validates doc against the compiled-in schema: 0, or -1 after diagnostics. */
static int
validate(reader *rd, xmlDocPtr doc)
{
	unsigned before = rd->errors;
	rd->schema = true;
	xmlSchemaParserCtxtPtr pc = xmlSchemaNewMemParserCtxt(sli_xml_schema,
	                                                      (int)sli_xml_schema_len);
	xmlSchemaPtr schema = NULL;
	if (pc) {
		xmlSchemaSetParserStructuredErrors(pc, on_xml_error, rd);
		schema = xmlSchemaParse(pc);
		xmlSchemaFreeParserCtxt(pc);
	}
	rd->schema = false;
	if (!schema) {
		if (rd->errors == before)
			sli_error(rd->ctx, sli_loc_none(), "the compiled-in XML schema "
			          "does not load");
		rd->errors++;
		return -1;
	}
	xmlSchemaValidCtxtPtr vc = xmlSchemaNewValidCtxt(schema);
	int rc = -1;
	if (vc) {
		xmlSchemaSetValidStructuredErrors(vc, on_xml_error, rd);
		rc = xmlSchemaValidateDoc(vc, doc);
		xmlSchemaFreeValidCtxt(vc);
	}
	xmlSchemaFree(schema);
	if (rc != 0 && rd->errors == before) {
		sl_loc l = {rd->file, 1, 1};
		sli_error(rd->ctx, l, "the document does not match the shardlp schema");
		rd->errors++;
	}
	return rc == 0 && rd->errors == before ? 0 : -1;
}

int
sli_xml_validate(sl_context *ctx, const char *name, const char *text, size_t len)
{
	reader rd = {ctx, sl_sym_intern(ctx, name, strlen(name)), text, len, 0, false};
	handlers h;
	handlers_push(&h, &rd);
	xmlDocPtr doc = parse(&rd, name);
	int rc = doc ? validate(&rd, doc) : -1;
	if (doc)
		xmlFreeDoc(doc);
	handlers_pop(&h);
	return rc;
}

/* }==================================================================== */

/* {====================================================================
 * <shardlp-mesh>: reading a valid document
 * ===================================================================== */

static bool
is_elem(const xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

/* Attribute text (heap, xmlFree) or NULL when absent. */
static char *
prop(const xmlNode *n, const char *name)
{
	return (char *)xmlGetNoNsProp((xmlNodePtr)n, BAD_CAST name);
}

/*
 * Reads a finite number from attribute `name` of n into *out; false when
 * absent.  A value the schema let through but C cannot use (NaN, INF, a
 * number out of range) is an error at the attribute, counted in rd.
 */
static bool
get_double(reader *rd, const xmlNode *n, const char *name, double *out)
{
	char *s = prop(n, name);
	if (!s)
		return false;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	while (end != s && isspace((unsigned char)*end))
		end++;
	if (end == s || *end || errno == ERANGE || !isfinite(v)) {
		sli_error(rd->ctx, locate(rd, n, name), "%s of <%s> must be a finite "
		          "number, found '%s'", name, (const char *)n->name, s);
		rd->errors++;
		xmlFree(s);
		return false;
	}
	xmlFree(s);
	*out = v;
	return true;
}

/* axis = <axis name=NAME size=N/> */
static void
read_axis(reader *rd, const xmlNode *n, sli_xml_mesh *mesh)
{
	if (mesh->naxes == SLI_COST_MAX_AXES) {
		sli_error(rd->ctx, locate(rd, n, NULL), "a mesh of more than %d axes: "
		          "the cost model takes %d at most", SLI_COST_MAX_AXES,
		          SLI_COST_MAX_AXES);
		rd->errors++;
		return;
	}
	sli_xml_mesh_axis *a = &mesh->axes[mesh->naxes++];
	char *name = prop(n, "name"), *size = prop(n, "size");
	a->name = sl_sym_intern(rd->ctx, name ? name : "", name ? strlen(name) : 0);
	a->loc = locate(rd, n, NULL);
	a->size_loc = locate(rd, n, "size");
	a->bandwidth = 0;
	a->latency = -1;
	char *end;
	errno = 0;
	long long v = size ? strtoll(size, &end, 10) : 0;
	if (!size || errno == ERANGE || v <= 0) {
		sli_error(rd->ctx, a->size_loc, "size of axis '%s' must be a positive "
		          "64-bit integer, found '%s'", name ? name : "",
		          size ? size : "");
		rd->errors++;
		v = 1;
	}
	a->size = v;
	xmlFree(name);
	xmlFree(size);
}

/* The axis of the description called name, or NULL. */
static sli_xml_mesh_axis *
find_axis(sli_xml_mesh *mesh, sl_sym name)
{
	for (uint32_t i = 0; i < mesh->naxes; i++)
		if (mesh->axes[i].name == name)
			return &mesh->axes[i];
	return NULL;
}

/* link = <link axis=NAME bandwidth=B [latency=L]/> */
static void
read_link(reader *rd, const xmlNode *n, sli_xml_mesh *mesh)
{
	char *name = prop(n, "axis");
	sl_sym sym = sl_sym_intern(rd->ctx, name ? name : "", name ? strlen(name) : 0);
	sli_xml_mesh_axis *a = find_axis(mesh, sym);
	if (!a) {
		sli_buf b;
		sli_buf_init(&b);
		for (uint32_t i = 0; i < mesh->naxes; i++)
			sli_buf_printf(&b, "%s'%s'", i ? ", " : "",
			               sl_sym_str(rd->ctx, mesh->axes[i].name));
		sli_error(rd->ctx, locate(rd, n, "axis"), "<link> to unknown axis "
		          "'%s'; the mesh has %s", name ? name : "", sli_buf_cstr(&b));
		sli_buf_fini(&b);
		rd->errors++;
		xmlFree(name);
		return;
	}
	xmlFree(name);
	double bw;
	if (get_double(rd, n, "bandwidth", &bw)) {
		if (bw > 0) {
			a->bandwidth = bw;
		} else {
			sli_error(rd->ctx, locate(rd, n, "bandwidth"), "bandwidth of "
			          "axis '%s' must be positive, found %g",
			          sl_sym_str(rd->ctx, a->name), bw);
			rd->errors++;
		}
	}
	double lat;
	if (get_double(rd, n, "latency", &lat)) {
		if (lat >= 0) {
			a->latency = lat;
		} else {
			sli_error(rd->ctx, locate(rd, n, "latency"), "latency of axis "
			          "'%s' must not be negative, found %g",
			          sl_sym_str(rd->ctx, a->name), lat);
			rd->errors++;
		}
	}
}

/* A non-negative figure of attribute attr of n into *out (kept when absent). */
static bool
get_figure(reader *rd, const xmlNode *n, const char *attr, double *out)
{
	double v;
	if (!get_double(rd, n, attr, &v))
		return false;
	if (v < 0) {
		sli_error(rd->ctx, locate(rd, n, attr), "%s must not be negative, "
		          "found %g", attr, v);
		rd->errors++;
		return false;
	}
	*out = v;
	return true;
}

/* device = <device [flops=F] [hbm=B] [memory-budget=B]> flops* </device>,
 * flops = <flops type=T value=F/> */
static void
read_device(reader *rd, const xmlNode *n, sli_xml_mesh *mesh)
{
	if (get_figure(rd, n, "flops", &mesh->flops))
		mesh->set |= SLI_XML_MESH_FLOPS;
	if (get_figure(rd, n, "hbm", &mesh->hbm))
		mesh->set |= SLI_XML_MESH_HBM;
	if (get_figure(rd, n, "memory-budget", &mesh->memory_budget))
		mesh->set |= SLI_XML_MESH_MEMORY_BUDGET;
	for (const xmlNode *c = n->children; c; c = c->next) {
		if (!is_elem(c, "flops"))
			continue;
		if (mesh->ntypes == SLI_XML_MESH_MAX_TYPES) {
			sli_error(rd->ctx, locate(rd, c, NULL), "more than %d <flops> "
			          "entries", SLI_XML_MESH_MAX_TYPES);
			rd->errors++;
			return;
		}
		char *type = prop(c, "type");
		sli_cost_flops *f = &mesh->types[mesh->ntypes];
		f->type = sl_sym_str(rd->ctx, sl_sym_intern(rd->ctx, type ? type : "",
		                                            type ? strlen(type) : 0));
		xmlFree(type);
		if (get_figure(rd, c, "value", &f->flops) && f->flops > 0)
			mesh->ntypes++;
	}
}

/* mesh = <shardlp-mesh [name=NAME]> axis+ link* device? </shardlp-mesh> */
static int
read_mesh(reader *rd, xmlDocPtr doc, sli_xml_mesh *mesh)
{
	const xmlNode *root = xmlDocGetRootElement(doc);
	memset(mesh, 0, sizeof *mesh);
	mesh->loc = locate(rd, root, NULL);
	if (!is_elem(root, "shardlp-mesh")) {
		sli_error(rd->ctx, mesh->loc, "expected a mesh description "
		          "<shardlp-mesh>, found <%s>", (const char *)root->name);
		return -1;
	}
	unsigned before = rd->errors;
	char *name = prop(root, "name");
	if (name) {
		mesh->name = sl_sym_intern(rd->ctx, name, strlen(name));
		xmlFree(name);
	}
	for (const xmlNode *n = root->children; n; n = n->next) {
		if (is_elem(n, "axis"))
			read_axis(rd, n, mesh);
		else if (is_elem(n, "link"))
			read_link(rd, n, mesh);
		else if (is_elem(n, "device"))
			read_device(rd, n, mesh);
	}
	for (uint32_t i = 0; i < mesh->naxes; i++) {
		sli_cost_axis *l = &mesh->links[i];
		l->name = sl_sym_str(rd->ctx, mesh->axes[i].name);
		l->bandwidth = mesh->axes[i].bandwidth;
		l->latency = mesh->axes[i].latency;
	}
	return rd->errors == before ? 0 : -1;
}

int
sli_xml_mesh_parse(sl_context *ctx, const char *name, const char *text,
                   size_t len, sli_xml_mesh *mesh)
{
	reader rd = {ctx, sl_sym_intern(ctx, name, strlen(name)), text, len, 0, false};
	handlers h;
	handlers_push(&h, &rd);
	xmlDocPtr doc = parse(&rd, name);
	int rc = doc ? validate(&rd, doc) : -1;
	if (rc == 0)
		rc = read_mesh(&rd, doc, mesh);
	if (doc)
		xmlFreeDoc(doc);
	handlers_pop(&h);
	return rc;
}

int
sli_xml_read_mesh_costs(sl_context *ctx, const char *path, sli_xml_mesh *mesh,
                        sli_cost_params *params)
{
	size_t len;
	char *text = sli_read_file(path, &len);
	if (!text) {
		sli_error(ctx, sli_loc_none(), "cannot read '%s': %s", path,
		          strerror(errno));
		return -1;
	}
	int rc = sli_xml_mesh_parse(ctx, strcmp(path, "-") ? path : "<stdin>",
	                            text, len, mesh);
	free(text);
	if (rc == 0 && params)
		sli_xml_mesh_apply(mesh, params, 0);
	return rc;
}

/* }==================================================================== */

/* Whether a is one of the file's own links, name and figures alike: a
 * copy of params the file was applied to holds them already. */
static bool
is_link(const sli_xml_mesh *mesh, const sli_cost_axis *a)
{
	for (uint32_t j = 0; j < mesh->naxes; j++) {
		const sli_cost_axis *l = &mesh->links[j];
		if (l->name && a->name && !strcmp(l->name, a->name) &&
		    l->bandwidth == a->bandwidth && l->latency == a->latency)
			return true;
	}
	return false;
}

void
sli_xml_mesh_apply(sli_xml_mesh *mesh, sli_cost_params *p, unsigned keep)
{
	unsigned set = mesh->set & ~keep;
	if (set & SLI_XML_MESH_FLOPS)
		p->flops = mesh->flops;
	if (set & SLI_XML_MESH_HBM)
		p->hbm = mesh->hbm;
	if (set & SLI_XML_MESH_MEMORY_BUDGET)
		p->memory_budget = mesh->memory_budget;
	if (mesh->ntypes && !(keep & SLI_XML_MESH_FLOPS)) {
		p->type_flops = mesh->types;
		p->ntype_flops = mesh->ntypes;
	}
	const uint32_t cap = sizeof mesh->links / sizeof mesh->links[0];
	uint32_t n = mesh->naxes;
	if (p->axes == mesh->links) {
		/* applied before: keep what followed the file's links */
		n = p->naxes;
	} else {
		for (uint32_t k = 0; k < p->naxes && n < cap; k++)
			if (!is_link(mesh, &p->axes[k]))
				mesh->links[n++] = p->axes[k];
	}
	p->axes = mesh->links;
	p->naxes = n;
}

/* {====================================================================
 * The description against the module's sdy.mesh
 * ===================================================================== */

/* The module's mesh op for the description; NULL after an error. */
static const sl_op *
module_mesh(sl_context *ctx, const sli_xml_mesh *mesh, const sl_module *m)
{
	sl_block *body = m->top && m->top->nregions ? m->top->regions[0].first : NULL;
	const sl_op *found = NULL;
	unsigned nwith = 0;
	for (const sl_op *op = body ? body->first : NULL; op; op = op->next) {
		if (op->kind != SL_OP_SDY_MESH)
			continue;
		const sl_attr *a = sli_op_get(op, SLS_mesh);
		if (!a || a->kind != SL_ATTR_MESH)
			continue;
		if (mesh->name) {
			if (sli_op_sym_name(m, op) == mesh->name)
				return op;
		} else if (a->u.mesh.naxes) {
			if (!found)
				found = op;
			nwith++;
		}
	}
	if (mesh->name)
		sli_error(ctx, mesh->loc, "the module has no sdy.mesh @%s",
		          sl_sym_str(ctx, mesh->name));
	else if (!found)
		sli_error(ctx, mesh->loc, "the module has no sdy.mesh with axes");
	else if (nwith > 1)
		sli_error(ctx, mesh->loc, "the module has %u meshes with axes; "
		          "name one with <shardlp-mesh name=\"...\">", nwith);
	else
		return found;
	return NULL;
}

int
sli_xml_mesh_check(const sli_xml_mesh *mesh, const sl_module *m)
{
	sl_context *ctx = m->ctx;
	const sl_op *op = module_mesh(ctx, mesh, m);
	if (!op)
		return -1;
	const sl_mesh *mm = &sli_op_get(op, SLS_mesh)->u.mesh;
	const char *mname = sl_sym_str(ctx, sli_op_sym_name(m, op));
	uint32_t n = mesh->naxes > mm->naxes ? mesh->naxes : mm->naxes;
	int bad = 0;
	for (uint32_t i = 0; i < n && !bad; i++) {
		const sli_xml_mesh_axis *a = i < mesh->naxes ? &mesh->axes[i] : NULL;
		const sl_mesh_axis *b = i < mm->naxes ? &mm->axes[i] : NULL;
		if (!a) {
			sli_error(ctx, mesh->loc, "the description lacks axis '%s' "
			          "(size %lld) of the module's mesh @%s",
			          sl_sym_str(ctx, b->name), (long long)b->size, mname);
			bad = 1;
		} else if (!b || a->name != b->name) {
			uint32_t j = 0;
			while (j < mm->naxes && mm->axes[j].name != a->name)
				j++;
			if (j < mm->naxes)
				sli_error(ctx, a->loc, "axis '%s' is axis %u here but axis "
				          "%u of the module's mesh @%s", sl_sym_str(ctx, a->name),
				          i + 1, j + 1, mname);
			else
				sli_error(ctx, a->loc, "axis '%s' is not in the module's "
				          "mesh @%s", sl_sym_str(ctx, a->name), mname);
			bad = 1;
		} else if (a->size != b->size) {
			sli_error(ctx, a->size_loc, "axis '%s' has size %lld here but %lld "
			          "in the module's mesh @%s", sl_sym_str(ctx, a->name),
			          (long long)a->size, (long long)b->size, mname);
			bad = 1;
		}
	}
	if (!bad)
		return 0;
	sli_buf b;
	sli_buf_init(&b);
	sli_print_mesh_body(&b, ctx, mm);
	sli_diag(ctx, SL_DIAG_NOTE, op->loc, "the module's mesh: sdy.mesh @%s = %s",
	         mname, sli_buf_cstr(&b));
	sli_buf_fini(&b);
	return -1;
}

/* }==================================================================== */
