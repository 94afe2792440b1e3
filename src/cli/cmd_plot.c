/*
 * cmd_plot.c - `shardlp plot SUMMARY.csv`: one SVG of three panels from a
 * batch summary (or `compare --csv`): each greedy strategy's cost against
 * the ILP's per program, with the line y = x; the distribution of the
 * ratio greedy / ILP as one curve per strategy (the share of programs at
 * or below each ratio); and each method's cost summed over the programs,
 * split into compute and communication (seconds).  Plain SVG 1.1 written
 * by hand: no plotting library, no new dependency.
 */
#include "cli.h"
#include "cli_out.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char usage_short[] =
	"usage: shardlp plot [-o FILE.svg] [--title TEXT] SUMMARY.csv\n";

enum { NMETHOD = 5, NPART = 2 };
static const char *const methods[NMETHOD] = {
	"ilp", "basic", "aggressive", "op-priority", "user-priority",
};
static const char *const colours[NMETHOD] = {
	"#000000", "#1b9e77", "#d95f02", "#7570b3", "#e7298a",
};

/* One program (a file's chunk): each method's cost and its parts. */
typedef struct prog {
	char *key;		/* file and chunk */
	double cost[NMETHOD], part[NMETHOD][NPART];
	bool has[NMETHOD];
} prog;

typedef struct table {
	prog *v;
	size_t n, cap;
} table;

/* {====== reading the CSV ============================================== */

/*
 * The fields of one CSV record as RFC 4180 writes them (quotes, doubled
 * quotes, line breaks inside quotes), from *p; NULL at the end.  Fields
 * point into buf, a heap copy the caller frees.
 */
static char **
record(const char **p, size_t *nf, char **buf)
{
	const char *s = *p;
	if (!*s)
		return NULL;
	size_t cap = 16, n = 0;
	char **f = malloc(cap * sizeof *f);
	char *out = *buf = malloc(strlen(s) + 1);
	if (!f || !out)
		cli_fatal("out of memory");
	for (;;) {
		if (n == cap) {
			cap *= 2;
			f = realloc(f, cap * sizeof *f);
			if (!f)
				cli_fatal("out of memory");
		}
		f[n++] = out;
		if (*s == '"') {
			for (s++; *s; s++) {
				if (*s == '"' && s[1] == '"')
					*out++ = *s++;
				else if (*s == '"')
					break;
				else
					*out++ = *s;
			}
			if (*s == '"')
				s++;
		}
		while (*s && *s != ',' && *s != '\n' && *s != '\r')
			*out++ = *s++;
		*out++ = 0;
		if (*s == ',') {
			s++;
			continue;
		}
		while (*s == '\r' || *s == '\n')
			s++;
		break;
	}
	*p = s;
	*nf = n;
	return f;
}

static int
column(char **h, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(h[i], name))
			return (int)i;
	return -1;
}

/* A finite number, or NAN: empty, malformed, or out of double's range. */
static double
number(const char *s)
{
	char *end;
	double v = strtod(s, &end);
	return *s && !*end && isfinite(v) ? v : NAN;
}

static prog *
find(table *t, const char *key)
{
	/* rows of one program are adjacent in a summary: look at the last */
	if (t->n && !strcmp(t->v[t->n - 1].key, key))
		return &t->v[t->n - 1];
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].key, key))
			return &t->v[i];
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->v = realloc(t->v, t->cap * sizeof *t->v);
		if (!t->v)
			cli_fatal("out of memory");
	}
	prog *p = &t->v[t->n++];
	memset(p, 0, sizeof *p);
	p->key = cli_xstrdup(key);
	return p;
}

/* The summary at path into t; 0, or -1 after a located message. */
static int
read_summary(const char *path, const char *text, table *t)
{
	const char *p = text;
	size_t nh, nf;
	char *hb, *b;
	char **h = record(&p, &nh, &hb);
	int cf = h ? column(h, nh, "file") : -1, cc = h ? column(h, nh, "chunk") : -1;
	int cm = h ? column(h, nh, "method") : -1, cs = h ? column(h, nh, "status") : -1;
	int ck = h ? column(h, nh, "cost") : -1;
	int cp[NPART] = {h ? column(h, nh, "compute_s") : -1,
	                 h ? column(h, nh, "comm_s") : -1};
	if (cf < 0 || cm < 0 || cs < 0 || ck < 0) {
		fprintf(stderr, "%s:1:1: error: not a summary: the header needs the columns "
		        "file, method, status and cost\n", path);
		if (h) {
			free(h);
			free(hb);
		}
		return -1;
	}
	char **f;
	unsigned line = 1;
	while ((f = record(&p, &nf, &b))) {
		line++;
		if (nf != nh) {
			fprintf(stderr, "%s:%u:1: error: %zu fields, the header has %zu\n", path,
			        line, nf, nh);
			free(f);
			free(b);
			free(h);
			free(hb);
			return -1;
		}
		int m = -1;
		for (int k = 0; k < NMETHOD; k++)
			if (!strcmp(f[cm], methods[k]))
				m = k;
		double cost = number(f[ck]);
		if (m >= 0 && !isnan(cost)) {
			char key[4096];
			snprintf(key, sizeof key, "%s#%s", f[cf], cc >= 0 ? f[cc] : "1");
			prog *pr = find(t, key);
			pr->cost[m] = cost;
			pr->has[m] = true;
			for (int k = 0; k < NPART; k++)
				pr->part[m][k] = cp[k] >= 0 ? number(f[cp[k]]) : NAN;
		}
		free(f);
		free(b);
	}
	free(h);
	free(hb);
	return 0;
}

/* }===================================================================== */

/* {====== drawing ======================================================= */

/* A panel: its box on the page and the data range of each axis. */
typedef struct panel {
	double x, y, w, h;	/* the plot area, in SVG units */
	double x0, x1, y0, y1;	/* data range */
	bool logx, logy;
} panel;

static double
tx(const panel *p, double v)
{
	double a = p->logx ? log10(v) : v, lo = p->logx ? log10(p->x0) : p->x0;
	double hi = p->logx ? log10(p->x1) : p->x1;
	return p->x + (hi > lo ? (a - lo) / (hi - lo) : 0.5) * p->w;
}

static double
ty(const panel *p, double v)
{
	double a = p->logy ? log10(v) : v, lo = p->logy ? log10(p->y0) : p->y0;
	double hi = p->logy ? log10(p->y1) : p->y1;
	return p->y + p->h - (hi > lo ? (a - lo) / (hi - lo) : 0.5) * p->h;
}

static void
text(FILE *o, double x, double y, const char *anchor, double size, const char *s)
{
	fprintf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%.0f\">", x, y,
	        anchor, size);
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", o);
		else if (*s == '&')
			fputs("&amp;", o);
		else if (*s == '>')
			fputs("&gt;", o);
		else
			putc(*s, o);
	}
	fputs("</text>\n", o);
}

/* Tick values of [lo, hi]: powers of ten on a log axis, else 5 steps. */
static size_t
ticks(double lo, double hi, bool lg, double *v, size_t cap)
{
	size_t n = 0;
	if (lg) {
		for (double e = floor(log10(lo)); e <= ceil(log10(hi)) && n < cap; e++)
			if (pow(10, e) >= lo * 0.999 && pow(10, e) <= hi * 1.001)
				v[n++] = pow(10, e);
		if (n > 7) {
			/* every second or third power of ten: labels that fit */
			size_t step = (n + 6) / 7, k = 0;
			for (size_t i = 0; i < n; i += step)
				v[k++] = v[i];
			n = k;
		}
		if (n >= 2)
			return n;
		n = 0;
	}
	for (int i = 0; i <= 4 && n < cap; i++)
		v[n++] = lo + (hi - lo) * i / 4;
	return n;
}

static void
axes(FILE *o, const panel *p, const char *xlabel, const char *ylabel, const char *title)
{
	double v[32];
	char buf[64];
	fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
	        "fill=\"none\" stroke=\"#444\"/>\n", p->x, p->y, p->w, p->h);
	/* no x ticks on a panel of bars: their names label them */
	size_t n = xlabel[0] ? ticks(p->x0, p->x1, p->logx, v, 32) : 0;
	for (size_t i = 0; i < n; i++) {
		double x = tx(p, v[i]);
		fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
		        x, p->y, x, p->y + p->h);
		snprintf(buf, sizeof buf, "%.3g", v[i]);
		text(o, x, p->y + p->h + 16, "middle", 11, buf);
	}
	n = ticks(p->y0, p->y1, p->logy, v, 32);
	for (size_t i = 0; i < n; i++) {
		double y = ty(p, v[i]);
		fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
		        p->x, y, p->x + p->w, y);
		/* short labels: 6142 rather than 6.14e+03 */
		snprintf(buf, sizeof buf, fabs(v[i]) >= 1e3 && fabs(v[i]) < 1e7 ? "%.0f" :
		         fabs(v[i]) >= 1e-3 && fabs(v[i]) < 1e3 ? "%.4g" : "%.2g", v[i]);
		text(o, p->x - 6, y + 4, "end", 11, buf);
	}
	text(o, p->x + p->w / 2, p->y + p->h + 36, "middle", 13, xlabel);
	fprintf(o, "<g transform=\"translate(%.1f,%.1f) rotate(-90)\">", p->x - 62,
	        p->y + p->h / 2);
	text(o, 0, 0, "middle", 13, ylabel);
	fputs("</g>\n", o);
	text(o, p->x + p->w / 2, p->y - 12, "middle", 15, title);
}

static void
legend(FILE *o, double x, double y, int first, int last, const char *const *labels,
       const char *const *cols)
{
	for (int k = first; k <= last; k++, y += 16) {
		fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>\n",
		        x, y - 9, cols[k]);
		text(o, x + 14, y, "start", 11, labels[k]);
	}
}

/* Greedy cost against the ILP's, per program and strategy. */
static void
scatter(FILE *o, const table *t, panel *p)
{
	double lo = INFINITY, hi = 0;
	size_t n = 0, skipped = 0;
	for (size_t i = 0; i < t->n; i++)
		for (int m = 0; m < NMETHOD; m++)
			if (t->v[i].has[m] && t->v[i].has[0]) {
				if (t->v[i].cost[m] > 0) {
					lo = fmin(lo, t->v[i].cost[m]);
					hi = fmax(hi, t->v[i].cost[m]);
				}
			}
	if (!(hi > 0)) {
		lo = 1e-3;
		hi = 1;
	}
	if (hi <= lo)
		hi = lo * 10;
	p->logx = p->logy = hi / lo > 100;
	p->x0 = p->y0 = p->logx ? lo / 1.2 : 0;
	p->x1 = p->y1 = hi * 1.05;
	axes(o, p, "ILP cost (optimal)", "greedy cost", "greedy against the optimum");
	fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" "
	        "stroke-dasharray=\"4,3\"/>\n", tx(p, p->x0), ty(p, p->y0), tx(p, p->x1),
	        ty(p, p->y1));
	for (int m = 1; m < NMETHOD; m++)
		for (size_t i = 0; i < t->n; i++) {
			const prog *g = &t->v[i];
			if (!g->has[m] || !g->has[0])
				continue;
			if (p->logx && (g->cost[0] <= 0 || g->cost[m] <= 0)) {
				skipped++;
				continue;
			}
			fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\" "
			        "fill-opacity=\"0.6\"/>\n", tx(p, g->cost[0]), ty(p, g->cost[m]),
			        colours[m]);
			n++;
		}
	legend(o, p->x + 8, p->y + 16, 1, NMETHOD - 1, methods, colours);
	char buf[96];
	snprintf(buf, sizeof buf, "%zu points%s", n, skipped ? ", cost 0 not shown" : "");
	text(o, p->x + p->w - 6, p->y + p->h - 8, "end", 11, buf);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The share of programs whose greedy / ILP ratio is at most x. */
static void
ratios(FILE *o, const table *t, panel *p)
{
	double *r = malloc((t->n + 1) * sizeof *r), hi = 1;
	if (!r)
		cli_fatal("out of memory");
	for (int m = 1; m < NMETHOD; m++)
		for (size_t i = 0; i < t->n; i++)
			if (t->v[i].has[m] && t->v[i].has[0] && t->v[i].cost[0] > 0)
				hi = fmax(hi, t->v[i].cost[m] / t->v[i].cost[0]);
	p->logx = hi > 10;
	p->x0 = 1;
	p->x1 = hi > 1 ? hi * 1.05 : 2;
	p->y0 = 0;
	p->y1 = 1;
	p->logy = false;
	axes(o, p, "ratio greedy / ILP cost", "share of programs at or below",
	     "how far from the optimum");
	for (int m = 1; m < NMETHOD; m++) {
		size_t n = 0;
		for (size_t i = 0; i < t->n; i++)
			if (t->v[i].has[m] && t->v[i].has[0] && t->v[i].cost[0] > 0)
				r[n++] = fmax(1, t->v[i].cost[m] / t->v[i].cost[0]);
		if (!n)
			continue;
		qsort(r, n, sizeof *r, cmp_double);
		/* dashes tell apart the curves of strategies that agree */
		static const char *const dash[NMETHOD] = {"", "", "8,4", "3,3", "10,3,2,3"};
		fprintf(o, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
		        "stroke-dasharray=\"%s\" points=\"", colours[m], dash[m][0] ? dash[m] : "none");
		fprintf(o, "%.1f,%.1f ", tx(p, 1), ty(p, 0));
		for (size_t i = 0; i < n; i++) {
			double y0 = (double)i / n, y1 = (double)(i + 1) / n;
			fprintf(o, "%.1f,%.1f %.1f,%.1f ", tx(p, r[i]), ty(p, y0), tx(p, r[i]),
			        ty(p, y1));
		}
		fprintf(o, "%.1f,%.1f\"/>\n", tx(p, p->x1), ty(p, 1));
	}
	legend(o, p->x + p->w - 110, p->y + p->h - 70, 1, NMETHOD - 1, methods, colours);
	free(r);
}

/* Each method's cost summed over the programs every method answered. */
static void
breakdown(FILE *o, const table *t, panel *p)
{
	static const char *const parts[NPART] = {"compute", "communication"};
	static const char *const pcol[NPART] = {"#8da0cb", "#fc8d62"};
	double sum[NMETHOD][NPART] = {{0}}, hi = 0;
	size_t used = 0;
	for (size_t i = 0; i < t->n; i++) {
		bool all = true;
		for (int m = 0; m < NMETHOD; m++)
			all &= t->v[i].has[m];
		if (!all)
			continue;
		used++;
		for (int m = 0; m < NMETHOD; m++)
			for (int k = 0; k < NPART; k++)
				if (!isnan(t->v[i].part[m][k]))
					sum[m][k] += t->v[i].part[m][k];
	}
	for (int m = 0; m < NMETHOD; m++) {
		double total = 0;
		for (int k = 0; k < NPART; k++)
			total += sum[m][k];
		hi = fmax(hi, total);
	}
	p->logx = p->logy = false;
	p->x0 = 0;
	p->x1 = NMETHOD;
	p->y0 = 0;
	p->y1 = hi > 0 ? hi * 1.1 : 1;
	char title[96];
	snprintf(title, sizeof title, "step time by part, summed over %zu programs", used);
	axes(o, p, "", "seconds", title);
	double bw = p->w / NMETHOD;
	for (int m = 0; m < NMETHOD; m++) {
		double base = 0;
		for (int k = 0; k < NPART; k++) {
			double y0 = ty(p, base), y1 = ty(p, base + sum[m][k]);
			fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			        "fill=\"%s\"/>\n", p->x + m * bw + bw * 0.15, y1, bw * 0.7, y0 - y1,
			        pcol[k]);
			base += sum[m][k];
		}
		text(o, p->x + m * bw + bw / 2, p->y + p->h + 16, "middle", 11, methods[m]);
	}
	/* the parts' legend in one row under the bars */
	for (int k = 0; k < NPART; k++) {
		double x = p->x + k * p->w / NPART;
		fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" "
		        "fill=\"%s\"/>\n", x, p->y + p->h + 27, pcol[k]);
		text(o, x + 14, p->y + p->h + 36, "start", 11, parts[k]);
	}
}

/* }===================================================================== */

int
cmd_plot(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"output", required_argument, NULL, 'o'},
		{"title", required_argument, NULL, 't'},
		{NULL, 0, NULL, 0},
	};
	const char *out = NULL, *title = NULL;
	int c;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage_short, stdout);
			fputs("\nDraws a batch summary (shardlp batch) or `compare --csv` output as\n"
			      "one SVG of three panels: each greedy strategy's cost against the\n"
			      "ILP's per program (log axes when the costs span more than 100x),\n"
			      "the distribution of the ratio greedy / ILP, and each method's cost\n"
			      "split into compute and communication (seconds).\n"
			      "  -o FILE, --output FILE  write to FILE (default: standard output)\n"
			      "  --title TEXT            a title above the panels\n", stdout);
			return EXIT_OK;
		case 'o':
			out = optarg;
			break;
		case 't':
			title = optarg;
			break;
		case ':':
			return cli_usage_error("shardlp plot", usage_short,
			                       "option '%s' needs an argument", argv[optind - 1]);
		default:
			return cli_usage_error("shardlp plot", usage_short, "unknown option '%s'",
			                       argv[optind - 1]);
		}
	}
	if (optind + 1 != argc)
		return cli_usage_error("shardlp plot", usage_short, "%s", "one SUMMARY.csv");
	size_t len;
	char *csv = cli_read("shardlp", argv[optind], &len);
	if (!csv)
		return EXIT_INPUT;
	table t = {NULL, 0, 0};
	int status = EXIT_OK;
	if (read_summary(argv[optind], csv, &t)) {
		status = EXIT_INPUT;
		goto done;
	}
	cli_out o;
	FILE *f = cli_out_open(&o, "shardlp", out);
	if (!f) {
		status = EXIT_INPUT;
		goto done;
	}
	double top = title ? 40 : 0;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"1500\" "
	        "height=\"%.0f\" font-family=\"sans-serif\">\n"
	        "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", 480 + top);
	if (title)
		text(f, 750, 28, "middle", 18, title);
	panel p1 = {80, 50 + top, 370, 370, 0, 0, 0, 0, false, false};
	panel p2 = {580, 50 + top, 370, 370, 0, 0, 0, 0, false, false};
	panel p3 = {1100, 50 + top, 370, 370, 0, 0, 0, 0, false, false};
	scatter(f, &t, &p1);
	ratios(f, &t, &p2);
	breakdown(f, &t, &p3);
	fputs("</svg>\n", f);
	if (cli_out_close(&o, "shardlp", true))
		status = EXIT_INPUT;
done:
	for (size_t i = 0; i < t.n; i++)
		free(t.v[i].key);
	free(t.v);
	free(csv);
	return status;
}
