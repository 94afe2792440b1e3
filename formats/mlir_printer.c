/*
 * mlir_printer.c - writes a module as MLIR's printer would: values
 * renumbered per region tree (SSANameState rules: %N results, %argN entry
 * block arguments, named results such as %c / %cst of constants and
 * %iterArg of while), ops in their custom form when shardlp knows it and
 * in the generic form otherwise, attribute dictionaries sorted.
 */
#include "formats/mlir_printer.h"
#include "formats/mlir_stablehlo_attrs.h"

#include <stdlib.h>
#include <string.h>

enum { FLUSH_AT = 1 << 16 };

/* ==================================================================== */
/* Output                                                                 */
/* ==================================================================== */

void
sli_pr_puts(sli_printer *pr, const char *s)
{
	sli_buf_puts(pr->b, s);
}

void
sli_pr_put(sli_printer *pr, const char *s, size_t n)
{
	sli_buf_put(pr->b, s, n);
}

void
sli_pr_sym(sli_printer *pr, sl_sym s)
{
	sli_buf_put(pr->b, sl_sym_str(pr->ctx, s), sli_sym_len(pr->ctx, s));
}

void
sli_pr_i64(sli_printer *pr, int64_t v)
{
	sli_buf_i64(pr->b, v);
}

void
sli_pr_newline(sli_printer *pr)
{
	sli_buf_reserve(pr->b, (size_t)pr->indent + 1);
	pr->b->p[pr->b->n++] = '\n';
	memset(pr->b->p + pr->b->n, ' ', (size_t)pr->indent);
	pr->b->n += (size_t)pr->indent;
}

void
sli_pr_maybe_flush(sli_printer *pr)
{
	if (!pr->out || pr->b->n < FLUSH_AT)
		return;
	if (fwrite(pr->b->p, 1, pr->b->n, pr->out) != pr->b->n)
		pr->werr = true;
	pr->b->n = 0;
}

/* ==================================================================== */
/* Value names (see the file comment)                                     */
/* ==================================================================== */

#define NAMED 0x80000000u	/* value->id: index into names, else a number */

typedef struct nm_ent {
	const char *p;
	uint32_t n;
	uint32_t next;		/* index+1 of the next entry in the bucket */
	uint64_t hash;
} nm_ent;

struct sli_names_state {
	SL_VEC(char *) names;		/* owned strings of named values */
	SL_VEC(nm_ent) used;		/* used names, scoped LIFO, hashed */
	uint32_t *buckets;
	size_t nb;
	uint32_t next_value, next_arg, next_conflict;
};

static void
used_rehash(struct sli_names_state *ns)
{
	size_t nb = ns->nb ? ns->nb * 2 : 256;
	free(ns->buckets);
	ns->buckets = sli_xcalloc(nb, sizeof *ns->buckets);
	ns->nb = nb;
	for (size_t i = 0; i < ns->used.n; i++) {
		size_t h = ns->used.v[i].hash & (nb - 1);
		ns->used.v[i].next = ns->buckets[h];
		ns->buckets[h] = (uint32_t)i + 1;
	}
}

static bool
name_used(struct sli_names_state *ns, const char *p, size_t n)
{
	if (!ns->nb)
		return false;
	uint64_t h = sli_hash(p, n);
	for (uint32_t i = ns->buckets[h & (ns->nb - 1)]; i; i = ns->used.v[i - 1].next) {
		nm_ent *e = &ns->used.v[i - 1];
		if (e->hash == h && e->n == n && memcmp(e->p, p, n) == 0)
			return true;
	}
	return false;
}

static void
use_name(struct sli_names_state *ns, const char *p, size_t n)
{
	if ((ns->used.n + 1) * 2 > ns->nb)
		used_rehash(ns);
	nm_ent e = {p, (uint32_t)n, 0, sli_hash(p, n)};
	size_t h = e.hash & (ns->nb - 1);
	e.next = ns->buckets[h];
	SL_VEC_PUSH(ns->used, e);
	ns->buckets[h] = (uint32_t)ns->used.n;
}

/* Forgets the names used since mark (leaving a region's scope). */
static void
used_pop(struct sli_names_state *ns, size_t mark)
{
	while (ns->used.n > mark) {
		nm_ent *e = &ns->used.v[ns->used.n - 1];
		ns->buckets[e->hash & (ns->nb - 1)] = e->next;
		ns->used.n--;
	}
}

static void
set_name(struct sli_names_state *ns, sl_value *v, const char *base)
{
	sli_buf b;
	sli_buf_init(&b);
	sli_buf_puts(&b, base);
	if (name_used(ns, b.p, b.n)) {
		size_t len = b.n;
		for (;;) {
			b.n = len;
			sli_buf_putc(&b, '_');
			sli_buf_i64(&b, ns->next_conflict++);
			if (!name_used(ns, b.p, b.n))
				break;
		}
	}
	char *s = (char *)sli_buf_cstr(&b);
	SL_VEC_PUSH(ns->names, s);
	use_name(ns, s, b.n);
	v->id = NAMED | (uint32_t)(ns->names.n - 1);
}

static const char *
result_name_hint(const sl_context *ctx, const sl_op *op, uint32_t i, char *buf, size_t buflen)
{
	switch (op->kind) {
	case SL_OP_CONSTANT: {
		const sl_type *t = op->results[0].type;
		const sl_type *e = t->kind == SL_TYPE_TENSOR ? t->elem : t;
		const char *s = sl_sym_str(ctx, e->text);
		bool isint = (s[0] == 'i' && s[1] >= '0' && s[1] <= '9') ||
		             ((s[0] == 'u' || s[0] == 's') && s[1] == 'i');
		return isint ? "c" : "cst";
	}
	case SL_OP_ARITH_CONSTANT: {
		/* arith: %true/%false, %c<value>_<type> (%c<value> for index), %cst */
		const sl_attr *v = sli_op_get(op, SLS_value);
		if (v && v->kind == SL_ATTR_BOOL)
			return v->u.b ? "true" : "false";
		if (v && v->kind == SL_ATTR_INT && !v->u.i.big && v->u.i.type) {
			const char *t = sl_sym_str(ctx, v->u.i.type->text);
			if (!strcmp(t, "index"))
				snprintf(buf, buflen, "c%lld", (long long)v->u.i.v);
			else
				snprintf(buf, buflen, "c%lld_%s", (long long)v->u.i.v, t);
			return buf;
		}
		return "cst";
	}
	case SL_OP_RNG_BIT_GENERATOR:
		return i == 0 ? "output_state" : "output";
	case SL_OP_CHLO_TOP_K:
		return i == 0 ? "values" : "indices";
	default:
		return NULL;
	}
}

static void number_region(struct sli_names_state *ns, const sl_context *ctx,
                          sl_region *r, uint32_t vid, uint32_t aid, uint32_t cid);

static void
number_op(struct sli_names_state *ns, const sl_context *ctx, sl_op *op)
{
	if (!op->nresults)
		return;
	char buf[64];
	if (result_name_hint(ctx, op, 0, buf, sizeof buf)) {
		for (uint32_t i = 0; i < op->nresults; i++)
			set_name(ns, &op->results[i], result_name_hint(ctx, op, i, buf, sizeof buf));
		return;
	}
	uint32_t id = ns->next_value++;
	for (uint32_t i = 0; i < op->nresults; i++)
		op->results[i].id = id;
}

static void
number_region(struct sli_names_state *ns, const sl_context *ctx, sl_region *r,
              uint32_t vid, uint32_t aid, uint32_t cid)
{
	size_t mark = ns->used.n;
	ns->next_value = vid;
	ns->next_arg = aid;
	ns->next_conflict = cid;
	sl_op *parent = r->parent;
	bool iter = parent && parent->kind == SL_OP_WHILE;
	for (sl_block *b = r->first; b; b = b->next) {
		for (uint32_t i = 0; i < b->nargs; i++) {
			if (iter && b == r->first) {
				set_name(ns, &b->args[i], "iterArg");
			} else if (b == r->first) {
				char tmp[24];
				snprintf(tmp, sizeof tmp, "arg%u", ns->next_arg++);
				set_name(ns, &b->args[i], tmp);
			} else {
				b->args[i].id = ns->next_value++;
			}
		}
		for (sl_op *op = b->first; op; op = op->next)
			number_op(ns, ctx, op);
	}
	uint32_t v = ns->next_value, a = ns->next_arg, c = ns->next_conflict;
	for (sl_block *b = r->first; b; b = b->next)
		for (sl_op *op = b->first; op; op = op->next)
			for (uint32_t i = 0; i < op->nregions; i++)
				number_region(ns, ctx, &op->regions[i], v, a, c);
	used_pop(ns, mark);
}

/* Block labels: ^bbN numbered per region. */
static uint32_t
block_index(const sl_block *b)
{
	uint32_t i = 0;
	for (const sl_block *x = b->parent->first; x && x != b; x = x->next)
		i++;
	return i;
}

void
sli_pr_value(sli_printer *pr, const sl_value *v)
{
	sli_pr_putc(pr, '%');
	if (v->id & NAMED) {
		sli_pr_puts(pr, pr->names->names.v[v->id & ~NAMED]);
		return;
	}
	sli_pr_i64(pr, v->id);
	if (v->def && v->def->nresults > 1) {
		sli_pr_putc(pr, '#');
		sli_pr_i64(pr, v->index);
	}
}

void
sli_pr_operands(sli_printer *pr, const sl_op *op, uint32_t from, uint32_t to)
{
	for (uint32_t i = from; i < to; i++) {
		if (i > from)
			sli_pr_puts(pr, ", ");
		sli_pr_value(pr, op->operands[i]);
	}
}

/* ==================================================================== */
/* Types and attributes                                                   */
/* ==================================================================== */

void
sli_pr_type(sli_printer *pr, const sl_type *t)
{
	sli_pr_sym(pr, t->text);
}

static void
pr_types(sli_printer *pr, sl_value *const *vs, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			sli_pr_puts(pr, ", ");
		sli_pr_type(pr, vs[i]->type);
	}
}

void
sli_pr_operand_types(sli_printer *pr, const sl_op *op)
{
	pr_types(pr, op->operands, op->noperands);
}

void
sli_pr_result_types(sli_printer *pr, const sl_op *op)
{
	for (uint32_t i = 0; i < op->nresults; i++) {
		if (i)
			sli_pr_puts(pr, ", ");
		sli_pr_type(pr, op->results[i].type);
	}
}

void
sli_pr_functional_type(sli_printer *pr, const sl_op *op)
{
	sli_pr_putc(pr, '(');
	sli_pr_operand_types(pr, op);
	sli_pr_puts(pr, ") -> ");
	bool paren = op->nresults != 1 || op->results[0].type->kind == SL_TYPE_FUNC;
	if (paren)
		sli_pr_putc(pr, '(');
	sli_pr_result_types(pr, op);
	if (paren)
		sli_pr_putc(pr, ')');
}

void
sli_print_string(sli_buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	sli_buf_reserve(b, n + 2);
	sli_buf_putc(b, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\\') {
			sli_buf_put(b, "\\\\", 2);
		} else if (c >= 0x20 && c < 0x7f && c != '"') {
			sli_buf_putc(b, (char)c);
		} else {
			char e[3] = {'\\', hex[c >> 4], hex[c & 15]};
			sli_buf_put(b, e, 3);
		}
	}
	sli_buf_putc(b, '"');
}

static bool
is_bare_id(const char *s, size_t n)
{
	if (!n || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
		return false;
	for (size_t i = 1; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '$' || c == '.'))
			return false;
	}
	return true;
}

static bool
elided(const sl_sym *elide, sl_sym name)
{
	if (!elide)
		return false;
	for (; *elide; elide++)
		if (*elide == name)
			return true;
	return false;
}

static void
print_named(sli_buf *b, const sl_context *ctx, const sl_named_attr *na)
{
	const char *s = sl_sym_str(ctx, na->name);
	size_t n = sli_sym_len(ctx, na->name);
	if (is_bare_id(s, n))
		sli_buf_put(b, s, n);
	else
		sli_print_string(b, s, n);
	if (na->attr->kind != SL_ATTR_UNIT) {
		sli_buf_puts(b, " = ");
		sli_print_attr(b, ctx, na->attr);
	}
}

static void
put_type(sli_buf *b, const sl_context *ctx, const sl_type *t)
{
	sli_buf_put(b, sl_sym_str(ctx, t->text), sli_sym_len(ctx, t->text));
}

void
sli_print_attr(sli_buf *b, const sl_context *ctx, const sl_attr *a)
{
	switch (a->kind) {
	case SL_ATTR_UNIT:
		sli_buf_puts(b, "unit");
		break;
	case SL_ATTR_BOOL:
		sli_buf_puts(b, a->u.b ? "true" : "false");
		break;
	case SL_ATTR_INT:
		if (a->u.i.big)
			sli_buf_puts(b, sl_sym_str(ctx, a->u.i.text));
		else if (a->u.i.type && a->u.i.type->bits == 1 &&
		         a->u.i.type->kind == SL_TYPE_ELEM && !strcmp(sl_sym_str(ctx, a->u.i.type->text), "i1")) {
			sli_buf_puts(b, a->u.i.v ? "true" : "false");
			break;
		} else
			sli_buf_i64(b, a->u.i.v);
		if (a->u.i.type) {
			sli_buf_puts(b, " : ");
			put_type(b, ctx, a->u.i.type);
		}
		break;
	case SL_ATTR_FLOAT:
		sli_buf_puts(b, sl_sym_str(ctx, a->u.f.text));
		if (a->u.f.type) {
			sli_buf_puts(b, " : ");
			put_type(b, ctx, a->u.f.type);
		}
		break;
	case SL_ATTR_STRING:
		sli_print_string(b, a->u.s.p, a->u.s.n);
		break;
	case SL_ATTR_ARRAY:
		sli_buf_putc(b, '[');
		for (uint32_t i = 0; i < a->u.arr.n; i++) {
			if (i)
				sli_buf_puts(b, ", ");
			sli_print_attr(b, ctx, a->u.arr.v[i]);
		}
		sli_buf_putc(b, ']');
		break;
	case SL_ATTR_DICT:
		sli_buf_putc(b, '{');
		for (uint32_t i = 0; i < a->u.dict.n; i++) {
			if (i)
				sli_buf_puts(b, ", ");
			print_named(b, ctx, &a->u.dict.v[i]);
		}
		sli_buf_putc(b, '}');
		break;
	case SL_ATTR_DENSE_ARRAY:
		sli_buf_puts(b, "array<");
		put_type(b, ctx, a->u.darr.elem);
		if (a->u.darr.text) {
			if (sli_sym_len(ctx, a->u.darr.text)) {
				sli_buf_puts(b, ": ");
				sli_buf_puts(b, sl_sym_str(ctx, a->u.darr.text));
			}
		} else if (a->u.darr.n) {
			sli_buf_puts(b, ": ");
			for (uint32_t i = 0; i < a->u.darr.n; i++) {
				if (i)
					sli_buf_puts(b, ", ");
				sli_buf_i64(b, a->u.darr.v[i]);
			}
		}
		sli_buf_putc(b, '>');
		break;
	case SL_ATTR_DENSE:
		sli_buf_puts(b, "dense<");
		sli_buf_put(b, a->u.dense.body, a->u.dense.n);
		sli_buf_puts(b, "> : ");
		put_type(b, ctx, a->u.dense.type);
		break;
	case SL_ATTR_TYPE:
		put_type(b, ctx, a->u.type);
		break;
	case SL_ATTR_SYMREF:
		sli_buf_putc(b, '@');
		if (is_bare_id(a->u.text.p, a->u.text.n) || memmem(a->u.text.p, a->u.text.n, "::@", 3))
			sli_buf_put(b, a->u.text.p, a->u.text.n);
		else
			sli_print_string(b, a->u.text.p, a->u.text.n);
		break;
	case SL_ATTR_OPAQUE:
	case SL_ATTR_LOC:
		sli_buf_put(b, a->u.text.p, a->u.text.n);
		break;
	case SL_ATTR_DOT_DIMS:
	case SL_ATTR_CONV_DIMS:
	case SL_ATTR_GATHER_DIMS:
	case SL_ATTR_SCATTER_DIMS:
	case SL_ATTR_STABLEHLO_ENUM:
	case SL_ATTR_REPLICA_MESH_AXES:
		sli_print_stablehlo_attr(b, ctx, a);
		break;
	default:
		sli_print_sdy_attr(b, ctx, a, true);
		break;
	}
}

void
sli_pr_attr(sli_printer *pr, const sl_attr *a)
{
	sli_print_attr(pr->b, pr->ctx, a);
}

static void
named_dict(sli_printer *pr, const sl_named_attr *v, uint32_t n, const sl_sym *elide,
           const char *open)
{
	bool first = true;
	for (uint32_t i = 0; i < n; i++) {
		if (elided(elide, v[i].name))
			continue;
		sli_pr_puts(pr, first ? open : ", ");
		first = false;
		print_named(pr->b, pr->ctx, &v[i]);
	}
	if (!first)
		sli_pr_putc(pr, '}');
}

void
sli_pr_named_dict(sli_printer *pr, const sl_named_attr *v, uint32_t n, const sl_sym *elide)
{
	named_dict(pr, v, n, elide, " {");
}

void
sli_pr_attr_dict(sli_printer *pr, const sl_op *op, const sl_sym *elide)
{
	if (!op->nprops) {
		sli_pr_named_dict(pr, op->attrs, op->nattrs, elide);
		return;
	}
	/* merge the two sorted lists */
	uint32_t n = op->nattrs + op->nprops;
	sl_named_attr tmp[32];
	sl_named_attr *v = n <= 32 ? tmp : sli_xmalloc(sizeof *v * n);
	memcpy(v, op->props, sizeof *v * op->nprops);
	if (op->nattrs)
		memcpy(v + op->nprops, op->attrs, sizeof *v * op->nattrs);
	sli_sort_named(pr->ctx, v, n);
	sli_pr_named_dict(pr, v, n, elide);
	if (v != tmp)
		free(v);
}

void
sli_pr_loc(sli_printer *pr, const sl_attr *loc)
{
	if (!pr->debuginfo)
		return;
	sli_pr_putc(pr, ' ');
	if (loc)
		sli_pr_attr(pr, loc);
	else
		sli_pr_puts(pr, "loc(unknown)");
}

/* ==================================================================== */
/* Ops, blocks, regions                                                   */
/* ==================================================================== */

static void print_op(sli_printer *pr, const sl_op *op);

static void
print_block_args(sli_printer *pr, const sl_block *b, bool with_attrs)
{
	for (uint32_t i = 0; i < b->nargs; i++) {
		/* a function of a big program has thousands of arguments: the
		 * buffer would hold megabytes before its first op (issue 17) */
		sli_pr_maybe_flush(pr);
		if (i)
			sli_pr_puts(pr, ", ");
		sli_pr_value(pr, &b->args[i]);
		sli_pr_puts(pr, ": ");
		sli_pr_type(pr, b->args[i].type);
		if (with_attrs) {
			uint32_t n;
			const sl_named_attr *a = sli_arg_attrs(&b->args[i], &n);
			sli_pr_named_dict(pr, a, n, NULL);
		}
		if (pr->debuginfo)
			sli_pr_loc(pr, sli_value_locattr(pr->m, &b->args[i]));
	}
}

void
sli_pr_block_arg_list(sli_printer *pr, const sl_block *b, bool with_attrs)
{
	print_block_args(pr, b, with_attrs);
}

static void
print_block_label(sli_printer *pr, const sl_block *b)
{
	sli_pr_puts(pr, "^bb");
	sli_pr_i64(pr, block_index(b));
	if (b->nargs) {
		sli_pr_putc(pr, '(');
		print_block_args(pr, b, false);
		sli_pr_putc(pr, ')');
	}
	sli_pr_putc(pr, ':');
}

void
sli_pr_region(sli_printer *pr, const sl_region *r, bool print_entry_args)
{
	sli_pr_putc(pr, '{');
	for (const sl_block *b = r->first; b; b = b->next) {
		if (b != r->first || (print_entry_args && b->nargs)) {
			sli_pr_newline(pr);
			print_block_label(pr, b);
		}
		pr->indent += 2;
		for (const sl_op *op = b->first; op; op = op->next) {
			sli_pr_newline(pr);
			print_op(pr, op);
		}
		pr->indent -= 2;
	}
	sli_pr_newline(pr);
	sli_pr_putc(pr, '}');
}

void
sli_pr_op_name(sli_printer *pr, const sl_op *op, bool generic)
{
	const char *name = sl_sym_str(pr->ctx, op->name);
	size_t n = sli_sym_len(pr->ctx, op->name);
	bool mhlo = pr->mhlo && sli_mhlo_prints_as(pr->ctx, op, generic);
	if (generic && !mhlo) {
		sli_print_string(pr->b, name, n);
		return;
	}
	if (generic)
		sli_pr_putc(pr, '"');
	if (mhlo) {
		/* stablehlo.X is mhlo.X (sli_mhlo_prints_as checked the prefix) */
		sli_pr_puts(pr, "mhlo.");
		sli_pr_put(pr, name + 10, n - 10);
	} else {
		sli_pr_put(pr, name, n);
	}
	if (generic)
		sli_pr_putc(pr, '"');
}

static void
print_generic(sli_printer *pr, const sl_op *op)
{
	sli_pr_op_name(pr, op, true);
	sli_pr_putc(pr, '(');
	sli_pr_operands(pr, op, 0, op->noperands);
	sli_pr_putc(pr, ')');
	const sl_block *entry = op->kind == SL_OP_FUNC && op->nregions ? op->regions[0].first : NULL;
	bool argattrs = false;
	for (uint32_t i = 0; entry && entry->argattrs && i < entry->nargs; i++)
		argattrs |= entry->argattrs[i].n > 0;
	if (argattrs) {
		/* func.func keeps argument attributes on its arguments; the
		 * generic form spells them as the arg_attrs property */
		sli_pr_puts(pr, " <{arg_attrs = [");
		for (uint32_t i = 0; i < entry->nargs; i++) {
			if (i)
				sli_pr_puts(pr, ", ");
			sl_attr d = {0};
			d.kind = SL_ATTR_DICT;
			d.u.dict.v = sli_arg_attrs(&entry->args[i], &d.u.dict.n);
			sli_pr_attr(pr, &d);
		}
		sli_pr_putc(pr, ']');
		for (uint32_t i = 0; i < op->nprops; i++) {
			sli_pr_puts(pr, ", ");
			print_named(pr->b, pr->ctx, &op->props[i]);
		}
		sli_pr_puts(pr, "}>");
	} else if (op->nprops) {
		named_dict(pr, op->props, op->nprops, NULL, " <{");
		sli_pr_puts(pr, ">");
	}
	if (op->nregions) {
		sli_pr_puts(pr, " (");
		for (uint32_t i = 0; i < op->nregions; i++) {
			if (i)
				sli_pr_puts(pr, ", ");
			sli_pr_region(pr, &op->regions[i], true);
		}
		sli_pr_putc(pr, ')');
	}
	sli_pr_named_dict(pr, op->attrs, op->nattrs, NULL);
	sli_pr_puts(pr, " : ");
	sli_pr_functional_type(pr, op);
}

void
sli_print_fmt_GENERIC(sli_printer *pr, const sl_op *op)
{
	print_generic(pr, op);
}

void
sli_print_fmt_MODULE(sli_printer *pr, const sl_op *op)
{
	sl_attr *name = sli_op_get(op, SLS_sym_name);
	if (name && name->kind == SL_ATTR_STRING) {
		sli_pr_puts(pr, " @");
		sli_pr_put(pr, name->u.s.p, name->u.s.n);
	}
	static sl_sym elide[2];
	elide[0] = SLS_sym_name;
	bool any = op->nattrs > 0;
	for (uint32_t i = 0; i < op->nprops; i++)
		any |= op->props[i].name != SLS_sym_name;
	if (any) {
		sli_pr_puts(pr, " attributes");
		sli_pr_attr_dict(pr, op, elide);
	}
	sli_pr_putc(pr, ' ');
	sli_pr_region(pr, &op->regions[0], false);
}

static void
print_func_result(sli_printer *pr, const sl_type *t, const sl_attr *attrs)
{
	sli_pr_type(pr, t);
	if (attrs && attrs->kind == SL_ATTR_DICT)
		sli_pr_named_dict(pr, attrs->u.dict.v, attrs->u.dict.n, NULL);
}

void
sli_print_fmt_FUNC(sli_printer *pr, const sl_op *op)
{
	sl_attr *vis = sli_op_get(op, SLS_sym_visibility);
	sl_attr *name = sli_op_get(op, SLS_sym_name);
	sl_attr *ft = sli_op_get(op, SLS_function_type);
	sl_attr *ra = sli_op_get(op, SLS_res_attrs);
	sl_attr *aa = sli_op_get(op, SLS_arg_attrs);
	if (vis && vis->kind == SL_ATTR_STRING) {
		sli_pr_putc(pr, ' ');
		sli_pr_put(pr, vis->u.s.p, vis->u.s.n);
	}
	sli_pr_puts(pr, " @");
	if (name && name->kind == SL_ATTR_STRING) {
		if (is_bare_id(name->u.s.p, name->u.s.n))
			sli_pr_put(pr, name->u.s.p, name->u.s.n);
		else
			sli_print_string(pr->b, name->u.s.p, name->u.s.n);
	}
	sli_pr_putc(pr, '(');
	const sl_type *fty = ft && ft->kind == SL_ATTR_TYPE ? ft->u.type : NULL;
	const sl_block *entry = op->nregions ? op->regions[0].first : NULL;
	if (entry) {
		print_block_args(pr, entry, true);
	} else if (fty) {
		for (uint32_t i = 0; i < fty->rank; i++) {
			if (i)
				sli_pr_puts(pr, ", ");
			const sl_attr *d = aa && aa->kind == SL_ATTR_ARRAY && i < aa->u.arr.n ? aa->u.arr.v[i] : NULL;
			print_func_result(pr, fty->types[i], d);
		}
	}
	sli_pr_putc(pr, ')');
	if (fty && fty->nres) {
		sli_pr_puts(pr, " -> ");
		bool anyattr = false;
		for (uint32_t i = 0; ra && ra->kind == SL_ATTR_ARRAY && i < ra->u.arr.n; i++)
			anyattr |= ra->u.arr.v[i]->kind == SL_ATTR_DICT && ra->u.arr.v[i]->u.dict.n;
		bool paren = fty->nres > 1 || anyattr || fty->types[fty->rank]->kind == SL_TYPE_FUNC;
		if (paren)
			sli_pr_putc(pr, '(');
		for (uint32_t i = 0; i < fty->nres; i++) {
			if (i)
				sli_pr_puts(pr, ", ");
			const sl_attr *d = ra && ra->kind == SL_ATTR_ARRAY && i < ra->u.arr.n ? ra->u.arr.v[i] : NULL;
			print_func_result(pr, fty->types[fty->rank + i], d);
		}
		if (paren)
			sli_pr_putc(pr, ')');
	}
	sl_sym elide[] = {SLS_sym_name, SLS_sym_visibility, SLS_function_type, SLS_res_attrs,
	                  SLS_arg_attrs, 0};
	bool any = op->nattrs > 0;
	for (uint32_t i = 0; i < op->nprops; i++)
		any |= !elided(elide, op->props[i].name);
	if (any) {
		sli_pr_puts(pr, " attributes");
		sli_pr_attr_dict(pr, op, elide);
	}
	if (entry) {
		sli_pr_putc(pr, ' ');
		sli_pr_region(pr, &op->regions[0], false);
	}
}

void
sli_print_fmt_RETURN(sli_printer *pr, const sl_op *op)
{
	sli_pr_attr_dict(pr, op, NULL);
	if (!op->noperands)
		return;
	sli_pr_putc(pr, ' ');
	sli_pr_operands(pr, op, 0, op->noperands);
	sli_pr_puts(pr, " : ");
	sli_pr_operand_types(pr, op);
}

void
sli_print_fmt_CALL(sli_printer *pr, const sl_op *op)
{
	sl_attr *callee = sli_op_get(op, SLS_callee);
	sli_pr_putc(pr, ' ');
	if (callee)
		sli_pr_attr(pr, callee);
	sli_pr_putc(pr, '(');
	sli_pr_operands(pr, op, 0, op->noperands);
	sli_pr_putc(pr, ')');
	sl_sym elide[] = {SLS_callee, 0};
	sli_pr_attr_dict(pr, op, elide);
	sli_pr_puts(pr, " : ");
	sli_pr_functional_type(pr, op);
}

static sli_op_print_fn *const printers[SL_FMT__COUNT] = {
#define X(f) [SL_FMT_##f] = sli_print_fmt_##f,
	FMTS(X)
#undef X
};

static void
print_results(sli_printer *pr, const sl_op *op)
{
	if (!op->nresults)
		return;
	if (op->results[0].id & NAMED) {
		for (uint32_t i = 0; i < op->nresults; i++) {
			if (i)
				sli_pr_puts(pr, ", ");
			sli_pr_putc(pr, '%');
			sli_pr_puts(pr, pr->names->names.v[op->results[i].id & ~NAMED]);
		}
	} else {
		sli_pr_putc(pr, '%');
		sli_pr_i64(pr, op->results[0].id);
		if (op->nresults > 1) {
			sli_pr_putc(pr, ':');
			sli_pr_i64(pr, op->nresults);
		}
	}
	sli_pr_puts(pr, " = ");
}

static void
print_op(sli_printer *pr, const sl_op *op)
{
	sli_pr_maybe_flush(pr);
	print_results(pr, op);
	sl_op_format f = sli_op_info[op->kind].format;
	if (pr->generic && op->kind != SL_OP_MODULE)
		f = SL_FMT_GENERIC;
	/* an op read from generic text may lack what its custom form needs */
	if (f != SL_FMT_GENERIC && !strncmp(sl_sym_str(pr->ctx, op->name), "stablehlo.", 10) &&
	    !sli_stablehlo_has_custom_form(pr->ctx, op))
		f = SL_FMT_GENERIC;
	if (f == SL_FMT_GENERIC) {
		print_generic(pr, op);
	} else {
		const char *name = sl_sym_str(pr->ctx, op->name);
		const sl_op *parent = sli_op_parent(op);
		if (op->kind == SL_OP_MODULE)
			sli_pr_puts(pr, "module");
		else if (parent && parent->kind == SL_OP_FUNC && !strncmp(name, "func.", 5))
			sli_pr_puts(pr, name + 5);
		else
			sli_pr_op_name(pr, op, false);
		printers[f](pr, op);
	}
	if (!pr->debuginfo)
		return;
	sl_attr *locattr = sli_op_locattr(pr->m, op);
	if (!locattr && op->loc.line) {
		sli_pr_puts(pr, " loc(");
		const char *f = sl_sym_str(pr->ctx, op->loc.file);
		sli_print_string(pr->b, f, strlen(f));
		sli_pr_putc(pr, ':');
		sli_pr_i64(pr, op->loc.line);
		sli_pr_putc(pr, ':');
		sli_pr_i64(pr, op->loc.col);
		sli_pr_putc(pr, ')');
	} else {
		sli_pr_loc(pr, locattr);
	}
}

int
sl_module_print(const sl_module *m, FILE *out, const sl_print_opts *opts)
{
	struct sli_names_state ns = {0};
	sli_buf b;
	sli_buf_init(&b);
	sli_printer pr = {0};
	pr.m = m;
	pr.ctx = m->ctx;
	pr.b = &b;
	pr.out = out;
	pr.names = &ns;
	if (opts) {
		pr.debuginfo = opts->debuginfo;
		pr.generic = opts->generic;
		pr.mhlo = opts->mhlo;
	}
	number_region(&ns, m->ctx, &m->top->regions[0], 0, 0, 0);
	print_op(&pr, m->top);
	sli_pr_putc(&pr, '\n');
	if (pr.debuginfo)
		for (size_t i = 0; i < m->loc_aliases.n; i++) {
			sli_pr_sym(&pr, m->loc_aliases.v[i].name);
			sli_pr_puts(&pr, " = ");
			sli_pr_attr(&pr, m->loc_aliases.v[i].attr);
			sli_pr_putc(&pr, '\n');
		}
	if (out && b.n && fwrite(b.p, 1, b.n, out) != b.n)
		pr.werr = true;
	if (out && fflush(out))
		pr.werr = true;
	for (size_t i = 0; i < ns.names.n; i++)
		free(ns.names.v[i]);
	SL_VEC_FREE(ns.names);
	SL_VEC_FREE(ns.used);
	free(ns.buckets);
	sli_buf_fini(&b);
	return pr.werr ? -1 : 0;
}
