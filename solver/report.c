/*
 * report.c - a solution report in glpsol's printable layout (what
 * `glpsol -o FILE` writes for a MIP): the problem's size, status and
 * objective, every row's activity and bounds, every column's value and
 * bounds, the integer feasibility conditions, and then what the column
 * and row names mean (names.c), so that each variable reads as a tensor
 * dimension and its mesh axes.  `shardlp solve --solution-report F`.
 */
#include "solver/report.h"

#include <math.h>
#include <string.h>

#include "util.h"

/* A number as glpsol prints one: 13 wide, 6 digits, and a space. */
static void
num(FILE *f, double v)
{
	fprintf(f, "%13.6g ", fabs(v) < 1e-12 ? 0.0 : v);
}

static void
blank(FILE *f, const char *s)
{
	fprintf(f, "%13s ", s);
}

/* Number, name and mark; a name longer than 12 has a line of its own. */
static void
head(FILE *f, size_t no, const char *name, const char *mark)
{
	fprintf(f, "%6zu ", no);
	if (strlen(name) <= 12)
		fprintf(f, "%-12s ", name);
	else
		fprintf(f, "%s\n%20s", name, "");
	fprintf(f, "%s ", mark);
}

static const char *
row_name(const sli_lp *lp, size_t r, char *buf, size_t n)
{
	if (lp->rows.v[r].name)
		return lp->rows.v[r].name;
	snprintf(buf, n, "r_%zu", r + 1);
	return buf;
}

static const char *
col_name(const sli_lp *lp, size_t c, char *buf, size_t n)
{
	if (c < lp->colnames.n && lp->colnames.v[c])
		return lp->colnames.v[c];
	snprintf(buf, n, "x_%zu", c + 1);
	return buf;
}

/* Row r's activity at x. */
static double
activity(const sli_lp *lp, size_t r, const double *x)
{
	const sli_lp_row *w = &lp->rows.v[r];
	double a = 0;
	for (size_t e = 0; e < w->n; e++)
		a += lp->val.v[w->first + e] * x[lp->idx.v[w->first + e]];
	return a;
}

static void
rows(FILE *f, const sli_lp *lp, const double *x, double *pe, size_t *pe_at)
{
	char buf[32];
	fputs("   No.   Row name        Activity     Lower bound   Upper bound\n"
	      "------ ------------    ------------- ------------- -------------\n", f);
	for (size_t r = 0; r < lp->rows.n; r++) {
		const sli_lp_row *w = &lp->rows.v[r];
		double a = activity(lp, r, x);
		head(f, r + 1, row_name(lp, r, buf, sizeof buf), "  ");
		num(f, a);
		if (w->sense == SLI_LP_EQ) {
			num(f, w->rhs);
			blank(f, "=");
		} else if (w->sense == SLI_LP_GE) {
			num(f, w->rhs);
			blank(f, "");
		} else {
			blank(f, "");
			num(f, w->rhs);
		}
		fputc('\n', f);
		double err = w->sense == SLI_LP_EQ ? fabs(a - w->rhs)
		           : w->sense == SLI_LP_GE ? fmax(0, w->rhs - a)
		           : fmax(0, a - w->rhs);
		if (err > *pe) {
			*pe = err;
			*pe_at = r + 1;
		}
	}
}

static void
columns(FILE *f, const sli_lp *lp, const double *x, double *pb, size_t *pb_at)
{
	char buf[32];
	fputs("   No. Column name       Activity     Lower bound   Upper bound\n"
	      "------ ------------    ------------- ------------- -------------\n", f);
	for (size_t c = 0; c < sli_lp_ncols(lp); c++) {
		head(f, c + 1, col_name(lp, c, buf, sizeof buf),
		     lp->binary.v[c] ? "* " : "  ");
		num(f, x[c]);
		num(f, lp->lb.v[c]);
		if (isinf(lp->ub.v[c]))
			blank(f, "");
		else
			num(f, lp->ub.v[c]);
		fputc('\n', f);
		double err = fmax(0, fmax(lp->lb.v[c] - x[c], x[c] - lp->ub.v[c]));
		if (lp->binary.v[c])
			err = fmax(err, fabs(x[c] - round(x[c])));
		if (err > *pb) {
			*pb = err;
			*pb_at = c + 1;
		}
	}
}

static void
kkt(FILE *f, const char *tag, const char *what, double err, size_t at)
{
	fprintf(f, "%s: max.abs.err = %.2e on %s %zu\n", tag, err, what, at);
	fprintf(f, "        %s\n\n", err <= 1e-9 ? "High quality"
	        : err <= 1e-6 ? "Medium quality" : "SOLUTION IS WRONG");
}

int
sli_lp_write_report(const sli_lp *lp, const double *x, const char *status,
                    FILE *f)
{
	size_t nbin = 0;
	for (size_t c = 0; c < sli_lp_ncols(lp); c++)
		nbin += lp->binary.v[c];
	double obj = lp->obj_const;
	for (size_t c = 0; c < sli_lp_ncols(lp); c++)
		obj += lp->obj.v[c] * x[c];
	fprintf(f, "Problem:    %s\n", lp->prob_name ? lp->prob_name : "");
	fprintf(f, "Rows:       %zu\n", lp->rows.n);
	fprintf(f, "Columns:    %zu (%zu integer, %zu binary)\n", sli_lp_ncols(lp),
	        nbin, nbin);
	fprintf(f, "Non-zeros:  %zu\n", lp->idx.n);
	fprintf(f, "Status:     %s\n", status);
	fprintf(f, "Objective:  %s = %.10g (MINimum)\n\n",
	        lp->obj_name ? lp->obj_name : "obj", obj);
	double pe = 0, pb = 0;
	size_t pe_at = 0, pb_at = 0;
	rows(f, lp, x, &pe, &pe_at);
	fputc('\n', f);
	columns(f, lp, x, &pb, &pb_at);
	fputs("\nInteger feasibility conditions:\n\n", f);
	kkt(f, "KKT.PE", "row", pe, pe_at);
	kkt(f, "KKT.PB", "column", pb, pb_at);
	fprintf(f, "Names:\n%s\n", sli_form_name_legend);
	fputs("End of output\n", f);
	return ferror(f) ? -1 : 0;
}
