/*
 * cmd_batch.c - `shardlp batch`: every method on many programs, each
 * program in a worker process of its own (GLPK is not thread-safe, and a
 * crash or a runaway solve takes only its own program down), at most -j
 * at a time.  Each worker writes its program's rows (CSV and JSON lines),
 * its log and the ILP's module into OUT/results/, each atomically; the
 * summary is the concatenation of the rows in input order, so it is the
 * same whatever the order the workers finished in, and a --resume run
 * that redoes only the missing programs ends with the same summary.
 */
#include "cli_solve.h"
#include "cli_out.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char usage_short[] =
	"usage: shardlp batch [-j N] [--out DIR] [--json] [--resume] [--time-limit S]\n"
	"                     [--methods LIST]\n"
	"                     [--shard K/N] [--split-input-file] [cost options]\n"
	"                     [auto-sharding options] FILE|DIR...\n"
	"       shardlp batch --merge [--out DIR] SUMMARY.csv...\n";

/* The summary's header: fixed, documented in shardlp(1). */
static const char *
header_text(void)
{
	static char buf[512];
	if (!buf[0]) {
		size_t n = (size_t)snprintf(buf, sizeof buf, "file,chunk,method,status");
		for (int k = 0; k < CLI_COST_NCOLS; k++)
			n += (size_t)snprintf(buf + n, sizeof buf - n, ",%s", cli_cost_cols[k]);
		snprintf(buf + n, sizeof buf - n, ",bound,gap,ratio,seconds,peak_rss_kb,error");
	}
	return buf;
}

typedef struct input {
	char *path;
	char *id;		/* its name in OUT/results/ */
	pid_t pid;		/* its worker while it runs */
	bool done, skipped, failed;
} input;

typedef struct inputs {
	input *v;
	size_t n, cap;
} inputs;

static void
push_input(inputs *v, char *path)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 64;
		v->v = realloc(v->v, v->cap * sizeof *v->v);
		if (!v->v)
			cli_fatal("out of memory");
	}
	v->v[v->n++] = (input){path, NULL, 0, false, false, false};
}

static volatile sig_atomic_t stop_signal;

static void
on_signal(int sig)
{
	stop_signal = sig;
}

/* {====== inputs ======================================================== */

static bool
is_mlir(const char *name)
{
	size_t n = strlen(name);
	return n > 5 && !strcmp(name + n - 5, ".mlir");
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.mlir files under dir, sorted, appended to v.  -1 after a message. */
static int
add_dir(inputs *v, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "shardlp batch: cannot read '%s': %s\n", dir, strerror(errno));
		return -1;
	}
	struct { char **v; size_t n, cap; } names = {NULL, 0, 0};
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (names.n == names.cap) {
			names.cap = names.cap ? 2 * names.cap : 64;
			names.v = realloc(names.v, names.cap * sizeof *names.v);
			if (!names.v)
				cli_fatal("out of memory");
		}
		names.v[names.n++] = cli_xstrdup(e->d_name);
	}
	closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof *names.v, cmp_str);
	int rc = 0;
	for (size_t i = 0; i < names.n; i++) {
		size_t n = strlen(dir) + strlen(names.v[i]) + 2;
		char *path = malloc(n);
		if (!path)
			cli_fatal("out of memory");
		snprintf(path, n, "%s/%s", dir, names.v[i]);
		struct stat st;
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			rc |= add_dir(v, path);
			free(path);
		} else if (is_mlir(names.v[i])) {
			push_input(v, path);
		} else {
			free(path);
		}
		free(names.v[i]);
	}
	free(names.v);
	return rc;
}

/*
 * A name for path in OUT/results/: its characters outside [A-Za-z0-9._-]
 * as '_', and a hash of the whole path, so that two paths never share it.
 */
static char *
result_id(const char *path)
{
	uint64_t h = 14695981039346656037u;
	for (const char *p = path; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211u;
	size_t n = strlen(path);
	const char *base = n > 80 ? path + n - 80 : path;
	char *id = malloc(strlen(base) + 18);
	if (!id)
		cli_fatal("out of memory");
	char *q = id;
	for (const char *p = base; *p; p++)
		*q++ = (isalnum((unsigned char)*p) || strchr("._-", *p)) ? *p : '_';
	snprintf(q, 18, "-%016llx", (unsigned long long)h);
	return id;
}

/* }===================================================================== */

/* {====== one program: the worker ====================================== */

/* A CSV field as RFC 4180 quotes it: in quotes when it holds , " or a
 * line break, each " doubled. */
static void
csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	putc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', f);
		putc(*s, f);
	}
	putc('"', f);
}

static void
json_string(FILE *f, const char *s)
{
	putc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			putc(c, f);
	}
	putc('"', f);
}

/* A number, or nothing (CSV) / null (JSON) when there is none. */
static void
num(FILE *f, double v, bool json)
{
	if (isnan(v) || isinf(v))
		fputs(json ? "null" : "", f);
	else
		fprintf(f, "%.9g", v);
}

/* Every method's row an error (the program could not be read). */
static void
error_rows(cli_method_row *rows)
{
	memset(rows, 0, CLI_NMETHODS * sizeof *rows);
	for (size_t i = 0; i < CLI_NMETHODS; i++) {
		rows[i].method = i ? cli_greedy[i - 1].method : "ilp";
		rows[i].status = "error";
		rows[i].bound = rows[i].gap = rows[i].seconds = NAN;
		rows[i].differ = -1;
	}
}

typedef struct row_ctx {
	const char *file;
	unsigned chunk;
	long rss_kb;
	const char *error;
} row_ctx;

/* One row of the CSV and of the JSON lines. */
static void
put_row(FILE *csv, FILE *json, const row_ctx *c, const cli_method_row *r,
        const cli_method_row *ilp)
{
	double nan = NAN;
	double v[CLI_COST_NCOLS + 5];
	const char *keys[CLI_COST_NCOLS + 5];
	cli_cost_values(r, v);
	for (int k = 0; k < CLI_COST_NCOLS; k++)
		keys[k] = cli_cost_cols[k];
	double tail[5] = {
		r->bound, r->gap,
		r->scored && ilp->scored && ilp->parts.total > 0 ? r->parts.total /
		ilp->parts.total : nan,
		strcmp(r->status, "unavailable") ? r->seconds : nan, (double)c->rss_kb,
	};
	static const char *const tail_keys[5] = {
		"bound", "gap", "ratio", "seconds", "peak_rss_kb",
	};
	for (int k = 0; k < 5; k++) {
		v[CLI_COST_NCOLS + k] = tail[k];
		keys[CLI_COST_NCOLS + k] = tail_keys[k];
	}
	const char *error = strcmp(r->status, "error") ? "" : c->error;
	csv_field(csv, c->file);
	fprintf(csv, ",%u,%s,%s", c->chunk, r->method, r->status);
	fputs("{\"file\":", json);
	json_string(json, c->file);
	fprintf(json, ",\"chunk\":%u,\"method\":\"%s\",\"status\":\"%s\"", c->chunk,
	        r->method, r->status);
	for (int k = 0; k < CLI_COST_NCOLS + 5; k++) {
		putc(',', csv);
		num(csv, v[k], false);
		fprintf(json, ",\"%s\":", keys[k]);
		num(json, v[k], true);
	}
	putc(',', csv);
	csv_field(csv, error);
	fputs(",\"error\":", json);
	json_string(json, error);
	fputs("\n", csv);
	fputs("}\n", json);
}

typedef struct job {
	sl_solve_opts so;
	cli_cost_opts *co;
	const char *dir;	/* OUT/results */
	bool split;
	unsigned methods;	/* --methods: rows run and written; 0: all */
} job;

/* OUT/results/ID.EXT, in a heap string. */
static char *
result_path(const char *dir, const char *id, const char *ext)
{
	size_t n = strlen(dir) + strlen(id) + strlen(ext) + 3;
	char *p = malloc(n);
	if (!p)
		cli_fatal("out of memory");
	snprintf(p, n, "%s/%s.%s", dir, id, ext);
	return p;
}

/*
 * The worker: every method on every chunk of in, its rows to ID.csv and
 * ID.jsonl, its diagnostics to ID.log, the ILP's exported modules to
 * ID.mlir; the rows last, so that their presence means done.  Its exit
 * status: 0, or 1 when some method failed.
 */
static int
work(const job *j, const input *in)
{
	char *log = result_path(j->dir, in->id, "log");
	if (!freopen(log, "w", stderr))
		return 1;
	free(log);
	cli_out oc, oj, om;
	char *csvp = result_path(j->dir, in->id, "csv");
	char *jsonp = result_path(j->dir, in->id, "jsonl");
	char *mlirp = result_path(j->dir, in->id, "mlir");
	FILE *csv = cli_out_open(&oc, "shardlp batch", csvp);
	FILE *json = csv ? cli_out_open(&oj, "shardlp batch", jsonp) : NULL;
	FILE *mlir = json ? cli_out_open(&om, "shardlp batch", mlirp) : NULL;
	if (!mlir)
		return 1;
	int status = EXIT_OK;
	sl_context *ctx = sl_context_new();
	cli_sink sink;
	cli_sink_init(&sink, ctx);
	sink.once = true;
	size_t len, n = 0;
	const char *name;
	char *text = cli_source(&sink, in->path, &len, &name);
	cli_src *chunks = text ? cli_split(name, text, len, j->split, &n) : NULL;
	cli_compare_out o;
	for (size_t k = 0; k < (n ? n : 1); k++) {
		memset(&o, 0, sizeof o);
		o.keep_ilp = true;
		o.methods = j->methods;
		sink.first_error[0] = 0;
		int st = n ? cli_compare_run(ctx, &chunks[k], &j->so, j->co, &o) : EXIT_INPUT;
		if (!n) {
			error_rows(o.rows);
			snprintf(sink.first_error, sizeof sink.first_error, "%s: cannot read, "
			         "or empty", in->path);
		}
		if (st != EXIT_OK)
			status = 1;
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		row_ctx c = {in->path, (unsigned)k + 1, ru.ru_maxrss,
		             sink.first_error[0] ? sink.first_error : "failed"};
		for (size_t i = 0; i < CLI_NMETHODS; i++)
			if (!j->methods || (j->methods >> i & 1))
				put_row(csv, json, &c, &o.rows[i], &o.rows[0]);
		if (k && fputs("// -----\n", mlir) == EOF)
			status = 1;
		if (o.ilp && sl_module_print(o.ilp, mlir, NULL))
			status = 1;
		sl_module_free(o.ilp);
	}
	free(chunks);
	free(text);
	cli_sink_fini(&sink);
	sl_context_free(ctx);
	/* the module first, the rows last: rows present = the program done */
	int bad = cli_out_close(&om, "shardlp batch", true);
	bad |= cli_out_close(&oj, "shardlp batch", !bad);
	bad |= cli_out_close(&oc, "shardlp batch", !bad);
	free(csvp);
	free(jsonp);
	free(mlirp);
	return bad ? 1 : status;
}

/* }===================================================================== */

/* {====== the batch: workers, progress, summary ========================= */

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Whether in's rows are present and newer than the input and the options. */
static bool
up_to_date(const char *dir, const input *in, const struct stat *opts)
{
	char *p = result_path(dir, in->id, "csv");
	struct stat r, s;
	bool ok = stat(p, &r) == 0 && stat(in->path, &s) == 0 &&
	          r.st_mtime >= s.st_mtime && r.st_mtime >= opts->st_mtime;
	free(p);
	return ok;
}

static void
progress(size_t done, size_t total, size_t failed, double t0, bool last)
{
	double el = now() - t0;
	fprintf(stderr, "\r%zu/%zu done, %zu failed, %.0f s elapsed", done, total, failed, el);
	if (done && done < total)
		fprintf(stderr, ", about %.0f s left  ", el / done * (total - done));
	else
		fputs("                ", stderr);
	if (last)
		fputc('\n', stderr);
}

/* A failed worker's rows, when it left none (it died). */
static void
dead_rows(FILE *csv, FILE *json, const input *in, const char *why, unsigned methods)
{
	row_ctx c = {in->path, 1, 0, why};
	cli_method_row rows[CLI_NMETHODS];
	error_rows(rows);
	for (size_t i = 0; i < CLI_NMETHODS; i++)
		if (!methods || (methods >> i & 1))
			put_row(csv, json, &c, &rows[i], &rows[0]);
}

/* Appends file path to out; false when it cannot be read. */
static bool
append(FILE *out, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		fwrite(buf, 1, n, out);
	fclose(f);
	return true;
}

/* OUT/summary.csv (and .jsonl) from the rows of the inputs done. */
static int
summarize(const char *out, const char *dir, const inputs *v, bool with_json,
          unsigned methods)
{
	size_t n = strlen(out) + 16;
	char *csvp = malloc(n), *jsonp = malloc(n);
	if (!csvp || !jsonp)
		cli_fatal("out of memory");
	snprintf(csvp, n, "%s/summary.csv", out);
	snprintf(jsonp, n, "%s/summary.jsonl", out);
	cli_out oc, oj;
	FILE *csv = cli_out_open(&oc, "shardlp batch", csvp);
	FILE *json = csv ? cli_out_open(&oj, "shardlp batch", with_json ? jsonp : "/dev/null") : NULL;
	int rc = -1;
	if (csv && json) {
		fprintf(csv, "%s\n", header_text());
		for (size_t i = 0; i < v->n; i++) {
			const input *in = &v->v[i];
			if (!in->done)
				continue;
			char *c = result_path(dir, in->id, "csv");
			char *jl = result_path(dir, in->id, "jsonl");
			if (!append(csv, c) || !append(json, jl))
				dead_rows(csv, json, in, "the worker died before writing its rows",
				          methods);
			free(c);
			free(jl);
		}
		rc = cli_out_close(&oc, "shardlp batch", true);
		rc |= with_json ? cli_out_close(&oj, "shardlp batch", rc == 0)
		                : (fclose(json), 0);
	}
	free(csvp);
	free(jsonp);
	return rc ? -1 : 0;
}

/* The options as written, one per line, in OUT/options: --resume redoes
 * every program when they changed. */
static int
stamp_options(const char *out, int argc, char **argv, int first_input, struct stat *st)
{
	size_t n = strlen(out) + 16;
	char *p = malloc(n);
	if (!p)
		cli_fatal("out of memory");
	snprintf(p, n, "%s/options", out);
	char *old = NULL;
	size_t oldlen = 0;
	FILE *f = fopen(p, "r");
	if (f) {
		old = calloc(1, 65537);
		if (old)
			oldlen = fread(old, 1, 65536, f);
		fclose(f);
	}
	char *cur = NULL;
	size_t curlen = 0;
	FILE *m = open_memstream(&cur, &curlen);
	for (int i = 1; m && i < first_input; i++)
		if (strcmp(argv[i], "--resume"))
			fprintf(m, "%s\n", argv[i]);
	if (m)
		fclose(m);
	int rc = 0;
	if (!old || !cur || oldlen != curlen || memcmp(old, cur, curlen)) {
		cli_out o;
		FILE *w = cli_out_open(&o, "shardlp batch", p);
		if (!w || fwrite(cur, 1, curlen, w) != curlen)
			rc = -1;
		if (w && cli_out_close(&o, "shardlp batch", rc == 0))
			rc = -1;
	}
	if (stat(p, st))
		rc = -1;
	free(old);
	free(cur);
	free(p);
	(void)argc;
	return rc;
}

static int
make_dir(const char *path)
{
	if (mkdir(path, 0777) && errno != EEXIST) {
		fprintf(stderr, "shardlp batch: cannot create '%s': %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* }===================================================================== */

/* {====== --merge ====================================================== */

/* A summary's row: its line, and the file field it sorts by. */
typedef struct line {
	char *text;
	char *file;
	size_t seq;		/* its place among the lines read: a stable sort */
} line;

/* The first field of a CSV line as RFC 4180 quotes it, unquoted. */
static char *
first_field(const char *s)
{
	size_t n = strlen(s);
	char *f = malloc(n + 1), *q = f;
	if (!f)
		cli_fatal("out of memory");
	if (*s == '"') {
		for (s++; *s && !(*s == '"' && s[1] != '"'); s++) {
			if (*s == '"')
				s++;
			*q++ = *s;
		}
	} else {
		while (*s && *s != ',' && *s != '\n')
			*q++ = *s++;
	}
	*q = 0;
	return f;
}

static int
cmp_line(const void *a, const void *b)
{
	const line *x = a, *y = b;
	int c = strcmp(x->file, y->file);
	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * Merges the summaries of the slices of a batch (--shard) into one:
 * their rows by file name, each file's rows in the order written.  The
 * same rows as one run over all inputs gives, sorted likewise.
 */
static int
merge(const char *out, int n, char **paths)
{
	line *v = NULL;
	size_t nv = 0, cap = 0;
	int rc = EXIT_OK;
	for (int i = 0; i < n; i++) {
		FILE *f = fopen(paths[i], "r");
		if (!f) {
			fprintf(stderr, "shardlp batch: cannot read '%s': %s\n", paths[i],
			        strerror(errno));
			rc = EXIT_INPUT;
			continue;
		}
		char *buf = NULL;
		size_t bcap = 0;
		ssize_t len;
		bool first = true;
		if (getc(f) == EOF) {
			fprintf(stderr, "%s:1:1: error: not a batch summary (empty)\n", paths[i]);
			rc = EXIT_INPUT;
			fclose(f);
			continue;
		}
		rewind(f);
		while ((len = getline(&buf, &bcap, f)) > 0) {
			if (first) {
				first = false;
				if (strncmp(buf, header_text(), strlen(header_text()))) {
					fprintf(stderr, "%s:1:1: error: not a batch summary (its "
					        "header differs)\n", paths[i]);
					rc = EXIT_INPUT;
					break;
				}
				continue;
			}
			if (nv == cap) {
				cap = cap ? 2 * cap : 1024;
				v = realloc(v, cap * sizeof *v);
				if (!v)
					cli_fatal("out of memory");
			}
			v[nv] = (line){cli_xstrdup(buf), first_field(buf), nv};
			nv++;
		}
		free(buf);
		fclose(f);
	}
	if (nv)
		qsort(v, nv, sizeof *v, cmp_line);
	size_t m = strlen(out) + 16;
	char *path = malloc(m);
	if (!path)
		cli_fatal("out of memory");
	snprintf(path, m, "%s/summary.csv", out);
	cli_out o;
	FILE *w = rc == EXIT_OK && !make_dir(out) ? cli_out_open(&o, "shardlp batch", path) : NULL;
	if (w) {
		fprintf(w, "%s\n", header_text());
		for (size_t i = 0; i < nv; i++)
			fputs(v[i].text, w);
		if (cli_out_close(&o, "shardlp batch", true))
			rc = EXIT_INPUT;
	} else if (rc == EXIT_OK) {
		rc = EXIT_INPUT;
	}
	for (size_t i = 0; i < nv; i++) {
		free(v[i].text);
		free(v[i].file);
	}
	free(v);
	free(path);
	return rc;
}

/* }===================================================================== */

enum {
	OPT_OUT = 1000, OPT_JSON, OPT_RESUME, OPT_TIME, OPT_SPLIT, OPT_NO_DECOMPOSE,
	OPT_SHARD, OPT_MERGE, OPT_METHODS
};

int
cmd_batch(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"jobs", required_argument, NULL, 'j'},
		{"out", required_argument, NULL, OPT_OUT},
		{"json", no_argument, NULL, OPT_JSON},
		{"resume", no_argument, NULL, OPT_RESUME},
		{"time-limit", required_argument, NULL, OPT_TIME},
		{"split-input-file", no_argument, NULL, OPT_SPLIT},
		{"no-decompose", no_argument, NULL, OPT_NO_DECOMPOSE},
		{"shard", required_argument, NULL, OPT_SHARD},
		{"merge", no_argument, NULL, OPT_MERGE},
		{"methods", required_argument, NULL, OPT_METHODS},
		CLI_COST_LONGOPTS,
		{NULL, 0, NULL, 0},
	};
	const char *out = "batch-out";
	bool with_json = false, resume = false, merging = false;
	long jobs = 1, shard_k = 0, shard_n = 1;
	job j;
	cli_cost_opts co;
	int c;

	memset(&j, 0, sizeof j);
	sl_solve_opts_init(&j.so);
	cli_cost_opts_init(&co);
	while ((c = cli_cost_getopt(&co, argc, argv, "hj:", longopts)) != -1) {
		char *end;
		switch (c) {
		case 'h':
			fputs(usage_short, stdout);
			fputs("\nRuns every method of `shardlp compare` on each FILE and on each\n"
			      "*.mlir under each DIR (sorted), one worker process per program,\n"
			      "and writes OUT/summary.csv: one row per program, chunk and method,\n"
			      "failed ones included (status error and the message).\n"
			      "  -j N, --jobs N     N workers at a time (default 1)\n"
			      "  --out DIR          the output folder (default batch-out):\n"
			      "                     summary.csv, summary.jsonl with --json, and\n"
			      "                     results/ID.{csv,jsonl,log,mlir} per program\n"
			      "  --json             the summary as JSON lines too\n"
			      "  --resume           skip the programs whose rows are newer than\n"
			      "                     the program and the options\n"
			      "  --time-limit S     time limit of each ILP solve\n"
			      "  --methods LIST     only these methods (as for compare)\n"
			      "  --split-input-file each '// -----' chunk a program of its own\n"
			      "  --shard K/N        only the inputs whose place in the sorted list\n"
			      "                     is K modulo N (0 <= K < N): one slice of N\n"
			      "  --merge            merge the summary.csv of slices into\n"
			      "                     OUT/summary.csv (rows by file name)\n"
			      "  --no-decompose     as for solve\n\n", stdout);
			fputs(cli_cost_help, stdout);
			fputs(cli_mesh_help, stdout);
			cli_cost_opts_fini(&co);
			return EXIT_OK;
		case 'j':
			jobs = strtol(optarg, &end, 10);
			if (*end || jobs < 1 || jobs > 1024) {
				fprintf(stderr, "shardlp batch: -j wants a number from 1 to 1024, "
				        "not '%s'\n", optarg);
				goto usage;
			}
			break;
		case OPT_OUT:
			out = optarg;
			break;
		case OPT_JSON:
			with_json = true;
			break;
		case OPT_RESUME:
			resume = true;
			break;
		case OPT_TIME:
			j.so.time_limit = strtod(optarg, &end);
			if (*end || end == optarg || !(j.so.time_limit >= 0)) {
				fprintf(stderr, "shardlp batch: invalid number '%s'\n", optarg);
				goto usage;
			}
			break;
		case OPT_SPLIT:
			j.split = true;
			break;
		case OPT_NO_DECOMPOSE:
			j.so.no_decompose = true;
			break;
		case OPT_SHARD:
			shard_k = strtol(optarg, &end, 10);
			if (*end == '/')
				shard_n = strtol(end + 1, &end, 10);
			if (*end || shard_n < 1 || shard_k < 0 || shard_k >= shard_n) {
				fprintf(stderr, "shardlp batch: --shard wants K/N with 0 <= K < N, "
				        "not '%s'\n", optarg);
				goto usage;
			}
			break;
		case OPT_MERGE:
			merging = true;
			break;
		case OPT_METHODS:
			if (!(j.methods = cli_methods_parse("shardlp batch", optarg)))
				goto usage;
			break;
		default:
			goto usage;
		}
	}
	if (optind >= argc)
		goto usage;
	if (merging) {
		int rc = merge(out, argc - optind, argv + optind);
		cli_cost_opts_fini(&co);
		return rc;
	}
	j.so.cost = co.params;
	j.co = &co;

	inputs v = {0};
	int status = EXIT_OK;
	for (int i = optind; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			if (add_dir(&v, argv[i]))
				status = EXIT_INPUT;
		} else {
			push_input(&v, cli_xstrdup(argv[i]));
		}
	}
	/* --shard K/N: the inputs whose place in the list is K modulo N */
	if (shard_n > 1) {
		size_t kept = 0;
		for (size_t i = 0; i < v.n; i++) {
			if (i % (size_t)shard_n == (size_t)shard_k)
				v.v[kept++] = v.v[i];
			else
				free(v.v[i].path);
		}
		v.n = kept;
	}
	for (size_t i = 0; i < v.n; i++)
		v.v[i].id = result_id(v.v[i].path);

	size_t n = strlen(out) + 16;
	char *dir = malloc(n);
	if (!dir)
		cli_fatal("out of memory");
	snprintf(dir, n, "%s/results", out);
	j.dir = dir;
	struct stat ost;
	if (make_dir(out) || make_dir(dir) || stamp_options(out, argc, argv, optind, &ost)) {
		status = EXIT_INPUT;
		goto done;
	}

	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	bool tty = isatty(STDERR_FILENO);
	double t0 = now();
	size_t next = 0, running = 0, finished = 0, failed = 0;
	fflush(NULL);
	for (;;) {
		while (!stop_signal && running < (size_t)jobs && next < v.n) {
			input *in = &v.v[next++];
			if (resume && up_to_date(dir, in, &ost)) {
				in->done = in->skipped = true;
				finished++;
				continue;
			}
			pid_t pid = fork();
			if (pid == 0) {
				signal(SIGINT, SIG_DFL);
				signal(SIGTERM, SIG_DFL);
				_exit(work(&j, in));
			}
			if (pid < 0) {
				fprintf(stderr, "shardlp batch: cannot start a worker: %s\n",
				        strerror(errno));
				stop_signal = SIGTERM;
				break;
			}
			in->pid = pid;
			running++;
		}
		if (tty)
			progress(finished, v.n, failed, t0, false);
		if (!running)
			break;
		int ws;
		pid_t pid = waitpid(-1, &ws, 0);
		if (pid < 0) {
			if (errno == EINTR && stop_signal) {
				/* stop the workers; their programs are not done */
				for (size_t i = 0; i < v.n; i++)
					if (v.v[i].pid)
						kill(v.v[i].pid, SIGTERM);
			}
			continue;
		}
		for (size_t i = 0; i < v.n; i++) {
			input *in = &v.v[i];
			if (in->pid != pid)
				continue;
			in->pid = 0;
			running--;
			if (stop_signal && WIFSIGNALED(ws))
				break;	/* stopped, not done */
			in->done = true;
			finished++;
			if (!WIFEXITED(ws) || WEXITSTATUS(ws)) {
				in->failed = true;
				failed++;
			}
		}
	}
	if (tty)
		progress(finished, v.n, failed, t0, true);
	if (summarize(out, dir, &v, with_json, j.methods))
		status = EXIT_INPUT;
	else if (failed && status == EXIT_OK)
		status = EXIT_INPUT;
	if (failed)
		fprintf(stderr, "shardlp batch: %zu of %zu programs failed: their rows in "
		        "%s/summary.csv hold the first error, results/ID.log all of them\n",
		        failed, v.n, out);
	if (stop_signal) {
		fprintf(stderr, "shardlp batch: stopped: %zu of %zu programs done "
		        "(--resume completes the batch)\n", finished, v.n);
		status = 128 + stop_signal;
	}
done:
	for (size_t i = 0; i < v.n; i++) {
		free(v.v[i].path);
		free(v.v[i].id);
	}
	free(v.v);
	free(dir);
	cli_cost_opts_fini(&co);
	return status;
usage:
	fputs(usage_short, stderr);
	cli_cost_opts_fini(&co);
	return EXIT_USAGE;
}
