/*
 * dot.c - a Graphviz graph of one program as several methods shard it
 * (shardlp compare --dot): a node per op of the first function (nested
 * regions flattened) and per function argument, an edge per use labelled
 * with the tensor's sharding in the first module; an edge whose tensor
 * another module shards otherwise is drawn red and thick, labelled with
 * every method's sharding.  The modules come from one program through
 * the same steps, so their ops correspond in walk order; a module whose
 * walk differs in length is left out of the comparison.
 */
#include "shardlp.h"

#include <stdlib.h>
#include <string.h>

#include "formats/mlir_printer.h"
#include "ir/access.h"

typedef SL_VEC(sl_op *) opvec;

static void
collect(opvec *v, sl_op *op)
{
	for (uint32_t r = 0; r < op->nregions; r++)
		for (sl_block *b = op->regions[r].first; b; b = b->next)
			for (sl_op *o = b->first; o; o = o->next) {
				o->id = (uint32_t)v->n;
				SL_VEC_PUSH(*v, o);
				collect(v, o);
			}
}

static sl_op *
first_func(sl_module *m)
{
	for (sl_op *o = m->top->regions[0].first->first; o; o = o->next)
		if (o->kind == SL_OP_FUNC && o->nregions && o->regions[0].first)
			return o;
	return NULL;
}

/* The same value in module i: by its defining op's walk index, or as
 * the function argument of the same number. */
static sl_value *
same_value(const sl_value *v, sl_op *func, const opvec *ops)
{
	if (v->def)
		return v->index < ops->v[v->def->id]->nresults ?
		       &ops->v[v->def->id]->results[v->index] : NULL;
	sl_block *entry = func->regions[0].first;
	return v->block && v->block->parent && v->block->parent->parent &&
	       v->block->parent->parent->kind == SL_OP_FUNC && v->index < entry->nargs ?
	       &entry->args[v->index] : NULL;
}

/* The value's sharding, stripped, quoted for a DOT label. */
static void
sharding_label(sli_buf *b, const sl_context *ctx, const sl_value *v)
{
	sli_buf tmp = {0};
	const sl_sharding *s = v ? sli_value_sharding(v) : NULL;
	if (s)
		sli_print_sharding(&tmp, ctx, s, false);
	else
		sli_buf_puts(&tmp, v ? "-" : "?");
	for (size_t i = 0; i < tmp.n; i++) {
		if (tmp.p[i] == '"' || tmp.p[i] == '\\')
			sli_buf_putc(b, '\\');
		sli_buf_putc(b, tmp.p[i]);
	}
	sli_buf_fini(&tmp);
}

static void
node_name(FILE *out, const sl_value *v)
{
	if (v->def)
		fprintf(out, "n%u", v->def->id);
	else
		fprintf(out, "a%u", v->index);
}

int
sl_modules_write_dot(FILE *out, sl_module *const *mods, const char *const *names,
                     size_t n)
{
	if (!n)
		return -1;
	opvec *ops = sli_xcalloc(n, sizeof *ops);
	sl_op **funcs = sli_xcalloc(n, sizeof *funcs);
	/* module 0 last, so that its ops hold their walk index in id */
	for (size_t i = n; i-- > 0;)
		if ((funcs[i] = first_func(mods[i])))
			collect(&ops[i], funcs[i]);
	const sl_context *ctx = mods[0]->ctx;
	fputs("digraph shardlp {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\", "
	      "fontsize=10];\n  edge [fontname=\"monospace\", fontsize=9];\n", out);
	if (!funcs[0]) {
		fputs("}\n", out);
		goto done;
	}
	sl_block *entry = funcs[0]->regions[0].first;
	for (uint32_t a = 0; a < entry->nargs; a++)
		fprintf(out, "  a%u [label=\"%%arg%u\", shape=ellipse];\n", a, a);
	for (size_t k = 0; k < ops[0].n; k++) {
		const char *name = sl_sym_str(ctx, ops[0].v[k]->name);
		const char *dot = strchr(name, '.');
		fprintf(out, "  n%zu [label=\"%s\"];\n", k, dot && !strncmp(name, "stablehlo.", 10)
		        ? dot + 1 : name);
	}
	sli_buf b = {0};
	for (size_t k = 0; k < ops[0].n; k++) {
		const sl_op *op = ops[0].v[k];
		for (uint32_t j = 0; j < op->noperands; j++) {
			const sl_value *v = op->operands[j];
			if (!v->def && !(v->block && v->block == entry))
				continue;	/* a block argument of a nested region */
			b.n = 0;
			sharding_label(&b, ctx, v);
			const char *base = sli_buf_cstr(&b);
			bool differ = false;
			for (size_t i = 1; i < n; i++) {
				if (!funcs[i] || ops[i].n != ops[0].n)
					continue;
				sli_buf o = {0};
				sharding_label(&o, ctx, same_value(v, funcs[i], &ops[i]));
				differ |= strcmp(sli_buf_cstr(&o), base) != 0;
				sli_buf_fini(&o);
			}
			fputs("  ", out);
			node_name(out, v);
			fprintf(out, " -> n%zu [label=\"", k);
			if (!differ) {
				fprintf(out, "%s\"];\n", base);
				continue;
			}
			for (size_t i = 0; i < n; i++) {
				sli_buf o = {0};
				const sl_value *w = i ? (funcs[i] && ops[i].n == ops[0].n ?
				                    same_value(v, funcs[i], &ops[i]) : NULL) : v;
				sharding_label(&o, ctx, w);
				fprintf(out, "%s%s: %s", i ? "\\n" : "", names[i], sli_buf_cstr(&o));
				sli_buf_fini(&o);
			}
			fputs("\", color=red, fontcolor=red, penwidth=2];\n", out);
		}
	}
	sli_buf_fini(&b);
	fputs("}\n", out);
done:
	for (size_t i = 0; i < n; i++)
		SL_VEC_FREE(ops[i]);
	free(ops);
	free(funcs);
	return ferror(out) ? -1 : 0;
}
