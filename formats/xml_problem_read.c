/*
 * xml_problem_read.c - reads a <shardlp-problem> document (shardlp-xml(5))
 * into a module.  The document is validated against the compiled-in
 * schema first (sli_xml_validate: size cap, no DTD, located errors), so
 * that the walk below meets only the elements the schema allows.  The
 * walk writes each op in MLIR's generic form, starting on the line of its
 * <op> element (and each property and attribute on the line of its
 * element), and the MLIR reader builds the module from that text under
 * the XML file's name: an error in an attribute's text is reported at
 * the line it has in the XML file.  <sharding>, <rule>, <link> and
 * <result-of> are derived data and are not read.
 */
#include "formats/xml_problem.h"

#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "formats/mlir_parser.h"
#include "formats/mlir_printer.h"
#include "formats/xml_mesh.h"

/* A value's id and its MLIR type, for the operand types of the ops. */
typedef struct idtype {
	const char *id, *type;
} idtype;

typedef struct gen {
	sli_buf b;		/* the generic MLIR text */
	unsigned line;		/* the line b ends on */
	idtype *ids;		/* sorted by id */
	size_t nids, cap;
	const char *text;	/* the XML, for the columns of values */
	size_t len;
	size_t *bol;		/* where each line of text begins, from line 1 */
	size_t nlines;
} gen;

static bool
is_elem(const xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

static const char *
prop(const xmlNode *n, const char *name)
{
	for (const xmlAttr *a = n->properties; a; a = a->next)
		if (!strcmp((const char *)a->name, name) && a->children)
			return (const char *)a->children->content;
	return "";
}

/* Text that may hold line breaks: b's line count follows it. */
static void
put(gen *g, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			g->line++;
		sli_buf_putc(&g->b, *s);
	}
}

/* Line breaks up to line n (none when b is past it already). */
static void
at_line(gen *g, const xmlNode *n)
{
	unsigned line = (unsigned)xmlGetLineNo(n);
	while (g->line < line) {
		sli_buf_putc(&g->b, '\n');
		g->line++;
	}
}

/*
 * Spaces up to the column of the text of element n's value attribute in
 * the XML, so that an error in it is reported at its column (exact until
 * a character reference in the value).
 */
static void
at_value_column(gen *g, const xmlNode *n)
{
	long line = xmlGetLineNo(n);
	if (line < 1 || (size_t)line > g->nlines)
		return;
	const char *p = g->text + g->bol[line - 1], *e = g->text + g->len;
	const char *nl = memchr(p, '\n', (size_t)(e - p));
	e = nl ? nl : e;
	for (const char *q = p; q + 7 <= e; q++)
		if (!memcmp(q, "value=", 6) && (q[6] == '"' || q[6] == '\'')) {
			size_t col = (size_t)(q + 7 - p);
			size_t bol = g->b.n;
			while (bol && g->b.p[bol - 1] != '\n')
				bol--;
			while (g->b.n - bol < col)
				sli_buf_putc(&g->b, ' ');
			return;
		}
}

/* {====== the ids and their types ===================================== */

static void
collect_ids(gen *g, const xmlNode *n)
{
	for (const xmlNode *c = n->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (is_elem(c, "result") || is_elem(c, "argument")) {
			if (g->nids == g->cap) {
				g->cap = g->cap ? 2 * g->cap : 256;
				g->ids = sli_xrealloc(g->ids, g->cap * sizeof *g->ids);
			}
			g->ids[g->nids++] = (idtype){prop(c, "id"), prop(c, "type")};
		}
		collect_ids(g, c);
	}
}

static int
cmp_id(const void *a, const void *b)
{
	return strcmp(((const idtype *)a)->id, ((const idtype *)b)->id);
}

static const char *
type_of(gen *g, const char *id)
{
	idtype key = {id, NULL};
	const idtype *t = g->nids ? bsearch(&key, g->ids, g->nids, sizeof *g->ids, cmp_id)
	                          : NULL;
	return t ? t->type : "none";	/* the schema's IDREF makes this rare */
}

/* }===================================================================== */

/* {====== the generic form ============================================ */

/* A dictionary key: bare when MLIR reads it bare, else a string. */
static void
key(gen *g, const char *s)
{
	bool bare = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_';
	for (const char *p = s; bare && *p; p++)
		bare = strchr("_$.-", *p) || (*p >= '0' && *p <= '9') ||
		       (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z');
	if (bare)
		put(g, s);
	else
		sli_print_string(&g->b, s, strlen(s));
}

/* "k = v, ..." of the <ELEM> children of n; returns how many. */
static unsigned
entries(gen *g, const xmlNode *n, const char *elem, unsigned k)
{
	for (const xmlNode *c = n->children; c; c = c->next) {
		if (!is_elem(c, elem))
			continue;
		put(g, k++ ? ", " : "");
		at_line(g, c);
		key(g, prop(c, "name"));
		put(g, " = ");
		at_value_column(g, c);
		put(g, prop(c, "value"));
	}
	return k;
}

static bool
has_child(const xmlNode *n, const char *elem)
{
	for (const xmlNode *c = n->children; c; c = c->next)
		if (is_elem(c, elem))
			return true;
	return false;
}

/* arg_attrs = [{..}, ..] of a func.func, from its entry block's
 * <argument>s, when some has an <attribute>. */
static unsigned
arg_attrs(gen *g, const xmlNode *op, unsigned k)
{
	const xmlNode *block = NULL;
	for (const xmlNode *c = op->children; c && !block; c = c->next)
		if (is_elem(c, "region"))
			for (const xmlNode *b = c->children; b && !block; b = b->next)
				if (is_elem(b, "block"))
					block = b;
	bool any = false;
	for (const xmlNode *a = block ? block->children : NULL; a; a = a->next)
		any |= is_elem(a, "argument") && has_child(a, "attribute");
	if (!any)
		return k;
	put(g, k++ ? ", arg_attrs = [" : "arg_attrs = [");
	unsigned i = 0;
	for (const xmlNode *a = block->children; a; a = a->next) {
		if (!is_elem(a, "argument"))
			continue;
		put(g, i++ ? ", {" : "{");
		entries(g, a, "attribute", 0);
		put(g, "}");
	}
	put(g, "]");
	return k;
}

static void gen_op(gen *g, const xmlNode *op);

/* %v1: type, ... of a block's arguments. */
static void
block_args(gen *g, const xmlNode *b)
{
	unsigned i = 0;
	for (const xmlNode *a = b->children; a; a = a->next) {
		if (!is_elem(a, "argument"))
			continue;
		put(g, i++ ? ", %" : "%");
		put(g, prop(a, "id"));
		put(g, ": ");
		put(g, prop(a, "type"));
	}
}

static void
gen_region(gen *g, const xmlNode *r, unsigned *label)
{
	put(g, "{");
	bool first = true;
	for (const xmlNode *b = r->children; b; b = b->next) {
		if (!is_elem(b, "block"))
			continue;
		put(g, "\n");
		at_line(g, b);
		if (has_child(b, "argument") || !first) {
			char l[32];
			snprintf(l, sizeof l, "^bb%u(", (*label)++);
			put(g, l);
			block_args(g, b);
			put(g, "):");
		}
		first = false;
		for (const xmlNode *o = b->children; o; o = o->next)
			if (is_elem(o, "op"))
				gen_op(g, o);
	}
	put(g, "\n}");
}

/* %v1, %v2 = of the <result>s, and the types of <ELEM>s as (t1, t2). */
static void
types(gen *g, const xmlNode *op, const char *elem)
{
	unsigned i = 0;
	put(g, "(");
	for (const xmlNode *c = op->children; c; c = c->next) {
		if (!is_elem(c, elem))
			continue;
		put(g, i++ ? ", " : "");
		put(g, is_elem(c, "operand") ? type_of(g, prop(c, "value")) : prop(c, "type"));
	}
	put(g, ")");
}

/*
 * op = results "name"(operands) <{properties}> (regions) {attributes}
 *      : (operand types) -> (result types)
 */
static void
gen_op(gen *g, const xmlNode *op)
{
	put(g, "\n");
	at_line(g, op);
	unsigned i = 0;
	for (const xmlNode *c = op->children; c; c = c->next)
		if (is_elem(c, "result")) {
			put(g, i++ ? ", %" : "%");
			put(g, prop(c, "id"));
		}
	put(g, i ? " = " : "");
	const char *name = prop(op, "name");
	sli_print_string(&g->b, name, strlen(name));
	put(g, "(");
	i = 0;
	for (const xmlNode *c = op->children; c; c = c->next)
		if (is_elem(c, "operand")) {
			put(g, i++ ? ", %" : "%");
			put(g, prop(c, "value"));
		}
	put(g, ")");
	if (has_child(op, "property") || !strcmp(name, "func.func")) {
		size_t mark = g->b.n;
		put(g, " <{");
		unsigned k = entries(g, op, "property", 0);
		if (!strcmp(name, "func.func"))
			k = arg_attrs(g, op, k);
		if (k)
			put(g, "}>");
		else
			g->b.n = mark;	/* no property after all (a line break kept none) */
	}
	unsigned label = 0, r = 0;
	for (const xmlNode *c = op->children; c; c = c->next)
		if (is_elem(c, "region")) {
			put(g, r++ ? ", " : " (");
			gen_region(g, c, &label);
		}
	put(g, r ? ")" : "");
	if (has_child(op, "attribute")) {
		put(g, " {");
		entries(g, op, "attribute", 0);
		put(g, "}");
	}
	put(g, " : ");
	types(g, op, "operand");
	put(g, " -> ");
	types(g, op, "result");
}

/* sdy.mesh @name = <["x"=2, ...], device_ids=[...]>, generic. */
static void
gen_mesh(gen *g, const xmlNode *m)
{
	put(g, "\n");
	at_line(g, m);
	put(g, "\"sdy.mesh\"() <{mesh = #sdy.mesh<[");
	unsigned i = 0;
	const xmlNode *devices = NULL;
	for (const xmlNode *c = m->children; c; c = c->next) {
		if (is_elem(c, "devices"))
			devices = c;
		if (!is_elem(c, "axis"))
			continue;
		put(g, i++ ? ", " : "");
		const char *a = prop(c, "name");
		sli_print_string(&g->b, a, strlen(a));
		put(g, "=");
		put(g, prop(c, "size"));
	}
	put(g, "]");
	if (devices) {
		xmlChar *t = xmlNodeGetContent(devices);
		put(g, ", device_ids=[");
		bool first = true, sep = false;
		for (const char *p = t ? (const char *)t : ""; *p; p++) {
			if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
				sep = true;
				continue;
			}
			if (sep && !first)
				put(g, ", ");
			sli_buf_putc(&g->b, *p);
			first = sep = false;
		}
		put(g, "]");
		xmlFree(t);
	}
	put(g, ">, sym_name = ");
	const char *name = prop(m, "name");
	sli_print_string(&g->b, name, strlen(name));
	put(g, "}> : () -> ()");
}

/* }===================================================================== */

bool
sli_xml_problem_sniff(const char *text, size_t len)
{
	size_t i = 0;
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && strchr(" \t\r\n", text[i]) && text[i])
		i++;
	return i < len && text[i] == '<';
}

static void
drop_error(void *ud, xmlErrorPtr e)
{
	(void)ud;
	(void)e;
}

sl_module *
sli_xml_problem_parse(sl_context *ctx, const char *name, const char *text,
                      size_t len)
{
	if (sli_xml_validate(ctx, name, text, len))
		return NULL;
	/* valid, hence well-formed: parse it again for the tree, quietly */
	xmlStructuredErrorFunc serror = xmlStructuredError;
	void *sctx = xmlStructuredErrorContext;
	xmlSetStructuredErrorFunc(NULL, drop_error);
	xmlDocPtr doc = xmlReadMemory(text, (int)len, name, NULL,
	                              XML_PARSE_NONET | XML_PARSE_BIG_LINES);
	xmlSetStructuredErrorFunc(sctx, serror);
	const xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
	if (!root || !is_elem(root, "shardlp-problem")) {
		sl_loc l = {sl_sym_intern(ctx, name, strlen(name)), 1, 1};
		sli_error(ctx, l, "expected a <shardlp-problem> document, found <%s>",
		          root ? (const char *)root->name : "nothing");
		xmlFreeDoc(doc);
		return NULL;
	}
	gen g = {{0}, 1, NULL, 0, 0, text, len, NULL, 0};
	size_t lines = 1;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	g.bol = sli_xmalloc(lines * sizeof *g.bol);
	g.bol[g.nlines++] = 0;
	for (size_t i = 0; i < len; i++)
		if (text[i] == '\n')
			g.bol[g.nlines++] = i + 1;
	collect_ids(&g, root);
	if (g.nids)
		qsort(g.ids, g.nids, sizeof *g.ids, cmp_id);
	at_line(&g, root);
	put(&g, "\"builtin.module\"()");
	if (has_child(root, "property")) {
		put(&g, " <{");
		entries(&g, root, "property", 0);
		put(&g, "}>");
	}
	put(&g, " ({");
	for (const xmlNode *c = root->children; c; c = c->next) {
		if (is_elem(c, "mesh"))
			gen_mesh(&g, c);
		else if (is_elem(c, "op"))
			gen_op(&g, c);
	}
	put(&g, "\n})");
	if (has_child(root, "attribute")) {
		put(&g, " {");
		entries(&g, root, "attribute", 0);
		put(&g, "}");
	}
	put(&g, " : () -> ()\n");
	sl_module *m = sli_mlir_parse_at(ctx, name, g.b.p, g.b.n, 1);
	sli_buf_fini(&g.b);
	free(g.ids);
	free(g.bol);
	xmlFreeDoc(doc);
	return m;
}

int
sl_xml_validate(sl_context *ctx, const char *name, const char *text, size_t len)
{
	return sli_xml_validate(ctx, name, text, len);
}
