/*
 * names.c - names for the columns and rows of the ILP when it is written
 * out (--write-lp, --write-mps), so that a reader of the file in another
 * solver can tell what each variable means:
 *
 *   t12.3_L7_d0.x_d1.r      tensor 12 (defined at line 7 of the input),
 *                           option 3: dimension 0 sharded on mesh axis
 *                           "x", dimension 1 replicated
 *   o5.0_L9_dot_general_f0.x_f1.r_f2.y
 *                           op 5 (line 9), option 0: factor 0 on "x",
 *                           factor 1 on no axis, factor 2 on "y"
 *   one_t12, one_o5         exactly one option of the tensor / op
 *   link7_o5_t12            an op's option and a tensor's agree (edges)
 *   agree4                  a refund column of an edge that needs no
 *                           reshard
 *
 * (sli_form_name_legend says the same to the reader of a solution report.)
 * Axes with several on one dimension are listed in mesh order, joined by
 * '.'; a dimension's axis order is not part of the model.  Names hold
 * only letters, digits, '_' and '.', which every LP and MPS reader takes,
 * and are unique: the tensor or op number and the option number come
 * first.  Axis names that hold other characters are written with '_'.
 */
#include "solver/formulate.h"
#include "solver/report.h"

#include <stdio.h>
#include <string.h>

#include "util.h"

/* Appends s to b, its characters outside [A-Za-z0-9_] as '_'. */
static void
put_word(sli_buf *b, const char *s)
{
	for (; *s; s++) {
		char c = *s;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		          (c >= '0' && c <= '9') || c == '_';
		sli_buf_printf(b, "%c", ok ? c : '_');
	}
}

/* "_d0.x.y_d1.r": for each of n slots, the axes q maps to it. */
static void
put_slots(sli_buf *b, const sli_cost_model *cm, const sli_cost_asg *q, uint32_t n,
          char tag)
{
	for (uint32_t d = 0; d < n; d++) {
		sli_buf_printf(b, "_%c%u", tag, d);
		bool any = false;
		for (uint32_t a = 0; a < cm->naxes; a++)
			if (q->a[a] == (int8_t)d) {
				sli_buf_puts(b, ".");
				put_word(b, sl_sym_str(cm->m->ctx, cm->axis_name[a]));
				any = true;
			}
		if (!any)
			sli_buf_puts(b, ".r");
	}
}

/* The short name of an op: "dot_general" for stablehlo.dot_general. */
static const char *
short_name(const sli_cost_model *cm, const sl_op *op)
{
	const char *s = sl_sym_str(cm->m->ctx, op->name);
	const char *dot = strrchr(s, '.');
	return dot ? dot + 1 : s;
}

static void
name_cols(sli_form *f, uint32_t *var_of)
{
	const sli_cost_model *cm = f->cm;
	sli_buf b;
	sli_buf_init(&b);
	for (size_t i = 0; i < f->nt; i++) {
		const sli_form_var *v = &f->t[i];
		const sli_cost_tensor *ct = &cm->tensors.v[i];
		for (size_t j = 0; v->col != UINT32_MAX && j < v->n; j++) {
			b.n = 0;
			sli_buf_printf(&b, "t%zu.%zu_L%u", i, j, sli_value_loc(ct->v).line);
			put_slots(&b, cm, &v->opt[j], ct->rank, 'd');
			sli_lp_name_col(&f->lp, v->col + (uint32_t)j, sli_buf_cstr(&b));
			var_of[v->col + j] = (uint32_t)i;
		}
	}
	for (size_t i = 0; i < f->no; i++) {
		const sli_form_var *v = &f->o[i];
		const sli_cost_op *co = &cm->ops.v[i];
		for (size_t j = 0; j < v->n; j++) {
			b.n = 0;
			sli_buf_printf(&b, "o%zu.%zu_L%u_", i, j, co->op->loc.line);
			put_word(&b, short_name(cm, co->op));
			put_slots(&b, cm, &v->opt[j], co->rule.nfactors, 'f');
			sli_lp_name_col(&f->lp, v->col + (uint32_t)j, sli_buf_cstr(&b));
			var_of[v->col + j] = (uint32_t)(f->nt + i);
		}
	}
	for (size_t i = 0; i < f->refunds.n; i++) {
		b.n = 0;
		sli_buf_printf(&b, "agree%zu", i);
		sli_lp_name_col(&f->lp, f->refunds.v[i], sli_buf_cstr(&b));
	}
	sli_buf_fini(&b);
}

/* "t12" or "o5" for variable index x (tensors first, then ops). */
static void
put_var(sli_buf *b, const sli_form *f, uint32_t x)
{
	if (x < f->nt)
		sli_buf_printf(b, "t%u", x);
	else
		sli_buf_printf(b, "o%zu", (size_t)x - f->nt);
}

static void
name_rows(sli_form *f, const uint32_t *var_of)
{
	sli_lp *lp = &f->lp;
	sli_buf b;
	sli_buf_init(&b);
	for (size_t r = 0; r < lp->rows.n; r++) {
		const sli_lp_row *row = &lp->rows.v[r];
		if (row->name || !row->n)
			continue;
		/* the variables the row touches: the first two distinct */
		uint32_t x = UINT32_MAX, y = UINT32_MAX;
		for (size_t e = 0; e < row->n; e++) {
			uint32_t v = var_of[lp->idx.v[row->first + e]];
			if (v == UINT32_MAX)
				continue;
			if (x == UINT32_MAX)
				x = v;
			else if (v != x && y == UINT32_MAX)
				y = v;
		}
		b.n = 0;
		if (x != UINT32_MAX && y == UINT32_MAX && row->sense == SLI_LP_EQ &&
		    row->rhs == 1) {
			sli_buf_puts(&b, "one_");
			put_var(&b, f, x);
		} else {
			sli_buf_printf(&b, "link%zu", r);
			if (x != UINT32_MAX) {
				sli_buf_puts(&b, "_");
				put_var(&b, f, x);
			}
			if (y != UINT32_MAX) {
				sli_buf_puts(&b, "_");
				put_var(&b, f, y);
			}
		}
		sli_lp_name_row(lp, (uint32_t)r, sli_buf_cstr(&b));
	}
	sli_buf_fini(&b);
}

void
sli_form_name(sli_form *f)
{
	size_t nc = sli_lp_ncols(&f->lp);
	uint32_t *var_of = sli_xmalloc((nc + 1) * sizeof *var_of);
	for (size_t c = 0; c < nc; c++)
		var_of[c] = UINT32_MAX;
	name_cols(f, var_of);
	name_rows(f, var_of);
	free(var_of);
}

const char sli_form_name_legend[] =
	"  tT.K_LN_dD.AXES...  tensor T (defined at line N of the input), its\n"
	"                      option K: dimension D on the mesh axes AXES\n"
	"                      (joined by '.', in mesh order; r: replicated)\n"
	"  oP.K_LN_OP_fF.AXES  op P (line N, kind OP), its option K: factor F\n"
	"                      of its sharding rule on the mesh axes AXES\n"
	"  one_tT, one_oP      exactly one option of tensor T / op P\n"
	"  linkR_oP_tT         row R: op P's option and tensor T's agree\n"
	"  agreeI              edge I needs no reshard (a refund of its cost)\n"
	"  x_C, r_R            column C / row R without a name of its own: a\n"
	"                      tensor's bytes (in units of the memory budget)\n"
	"                      and the rows that define them\n"
	"  memory_budget_R     the tensors live at one point fit the budget\n"
	"  Activity 1 on a binary column: that option is the answer.\n"
	"  Objective: estimated step time in microseconds (shardlp-cost(7)).\n";
