/*
 * cmd_batch.c - `shardlp batch`: every method on many programs in -j
 * worker processes (GLPK is not thread-safe, and a crash takes only its
 * worker down).  A worker lives for many programs: the parent hands it
 * programs over a pipe (a few ahead when they are short) and it answers
 * with each program's rows over another, so the parent neither forks per program nor reads
 * files back; a worker that dies costs its program (error rows) and is
 * replaced.  Each program's log, ILP module and XML result go to
 * OUT/results/, each atomically, and then its rows, as they come back, to
 * OUT/journal (batch_journal.h) for --resume.  The summary is the rows in
 * input order, so it is the same whatever the order the workers finished
 * in, and a --resume run that redoes only the missing programs ends with
 * the same summary.
 */
#include "batch_journal.h"
#include "cli_solve.h"
#include "cli_out.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <malloc.h>
#include <math.h>
#include <poll.h>
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
	char *csv, *json;	/* its rows, as its worker sent them */
	size_t csvlen, jsonlen;
	char *why;		/* why it has no rows: its worker died */
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
	v->v[v->n++] = (input){path, NULL, NULL, NULL, 0, 0, NULL, false, false, false};
}

static void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);
	if (!p)
		cli_fatal("out of memory");
	return p;
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

/* One row of the CSV and of the JSON lines (json NULL: none). */
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
	for (int k = 0; k < CLI_COST_NCOLS + 5; k++) {
		putc(',', csv);
		num(csv, v[k], false);
	}
	putc(',', csv);
	csv_field(csv, error);
	fputs("\n", csv);
	if (!json)
		return;
	fputs("{\"file\":", json);
	json_string(json, c->file);
	fprintf(json, ",\"chunk\":%u,\"method\":\"%s\",\"status\":\"%s\"", c->chunk,
	        r->method, r->status);
	for (int k = 0; k < CLI_COST_NCOLS + 5; k++) {
		fprintf(json, ",\"%s\":", keys[k]);
		num(json, v[k], true);
	}
	fputs(",\"error\":", json);
	json_string(json, error);
	fputs("}\n", json);
}

typedef struct job {
	sl_solve_opts so;
	cli_cost_opts *co;
	const char *dir;	/* OUT/results */
	bool split;
	bool json;		/* --json: the rows as JSON lines too */
	bool fresh;		/* OUT/results made by this run: no stale ID.log */
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

/* Writes len bytes to path atomically; 0, or -1 after a message. */
static int
write_file(const char *path, const char *text, size_t len)
{
	cli_out o;
	FILE *f = cli_out_open(&o, "shardlp batch", path);
	if (!f)
		return -1;
	bool ok = fwrite(text, 1, len, f) == len;
	return cli_out_close(&o, "shardlp batch", ok) ? -1 : 0;
}

/*
 * The peak resident memory of this worker since peak_reset, in KiB: Linux
 * resets the high-water mark on "5" written to /proc/self/clear_refs, so
 * a worker that ran bigger programs before still reports this one's.
 * Elsewhere, the peak of the worker's whole life.
 */
static void
peak_reset(void)
{
	int fd = open("/proc/self/clear_refs", O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "5", 1) != 1)
			(void)0;	/* no reset: the lifetime peak */
		close(fd);
	}
}

static long
peak_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, "VmHWM:", 6)) {
			kb = strtol(line + 6, NULL, 10);
			break;
		}
	if (f)
		fclose(f);
	if (kb < 0) {
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		kb = ru.ru_maxrss;
	}
	return kb;
}

/*
 * Chunk k's results as a sharding problem in XML (shardlp-xml(5)), ID.xml
 * (ID.K.xml for chunk K > 1): the ILP's module when there is one and a
 * <result-of> per method run.  0, or -1 after a message.
 */
static int
write_xml(const job *j, const input *in, size_t k, sl_module *ilp,
          const cli_method_row *rows)
{
	sl_method_result r[CLI_NMETHODS];
	size_t n = 0;
	for (size_t i = 0; i < CLI_NMETHODS; i++) {
		const cli_method_row *w = &rows[i];
		double nan = NAN;
		if (j->methods && !(j->methods >> i & 1))
			continue;
		r[n++] = (sl_method_result){
			w->method, w->status,
			w->scored ? w->parts.total : nan, w->scored ? w->parts.peak_bytes : nan,
			w->scored ? w->parts.communication : nan,
			w->scored ? w->parts.compute : nan,
			strcmp(w->status, "unavailable") ? w->seconds : nan,
		};
	}
	char ext[32] = "xml";
	if (k)
		snprintf(ext, sizeof ext, "%zu.xml", k + 1);
	char *p = result_path(j->dir, in->id, ext);
	cli_out o;
	FILE *f = cli_out_open(&o, "shardlp batch", p);
	int rc = f ? cli_out_close(&o, "shardlp batch",
	                           !sl_module_write_xml_results(ilp, f, in->path, r, n)) : -1;
	free(p);
	return rc;
}

/* A program's rows, CSV and JSON lines, in memory. */
typedef struct rows_text {
	char *csv, *json;
	size_t csvlen, jsonlen;
} rows_text;

/*
 * A worker's diagnostics go to a scratch file, unlinked as soon as it is
 * open (nothing to clean up whatever becomes of the worker), emptied
 * before each program; a program that said something gets its words as
 * ID.log, one that said nothing no file: on tiny programs each file
 * created is a good part of the time, and most programs say nothing.
 */
static bool
scratch_stderr(const char *dir)
{
	char pid[32];
	snprintf(pid, sizeof pid, "%ld", (long)getpid());
	char *p = result_path(dir, ".worker", pid);	/* DIR/.worker.PID */
	int fd = open(p, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		fprintf(stderr, "shardlp batch: cannot write '%s': %s\n", p, strerror(errno));
	bool ok = fd >= 0 && dup2(fd, STDERR_FILENO) >= 0;
	if (fd >= 0) {
		unlink(p);
		close(fd);
	}
	free(p);
	return ok;
}

/* Empties the scratch log before a program. */
static void
scratch_reset(void)
{
	struct stat st;
	fflush(stderr);
	if (!fstat(STDERR_FILENO, &st) && st.st_size > 0 &&
	    !ftruncate(STDERR_FILENO, 0))
		lseek(STDERR_FILENO, 0, SEEK_SET);
}

/* The scratch log's words, if any, to path (atomically); without any, no
 * file at path (one from an earlier run is stale; in a fresh folder there
 * is none, and unlink would lock the folder for nothing).  0, or -1 after
 * a message. */
static int
scratch_save(const char *path, bool fresh)
{
	struct stat st;
	fflush(stderr);
	if (fstat(STDERR_FILENO, &st) || st.st_size <= 0) {
		if (!fresh && !lstat(path, &st))
			unlink(path);
		return 0;
	}
	size_t n = (size_t)st.st_size;
	char *text = malloc(n);
	if (!text)
		cli_fatal("out of memory");
	ssize_t got = pread(STDERR_FILENO, text, n, 0);
	int rc = write_file(path, text, got > 0 ? (size_t)got : 0);
	free(text);
	return rc;
}

/* work's status when a result file could not be written */
enum { WORK_LOST = 2 };

/*
 * One program in a worker: every method on every chunk of in, its rows
 * into *rt (the caller frees them; JSON lines only with --json), its
 * diagnostics to ID.log (scratch_save), the ILP's exported modules to
 * ID.mlir, each chunk's module and results as XML to ID.xml (write_xml).
 * Returns 0, 1 when some method failed, or WORK_LOST when a file could not
 * be written (its rows are not journaled, so --resume redoes it).
 */

static int
work(const job *j, const input *in, rows_text *rt)
{
	memset(rt, 0, sizeof *rt);
	scratch_reset();
	cli_out om;
	char *mlirp = result_path(j->dir, in->id, "mlir");
	FILE *csv = open_memstream(&rt->csv, &rt->csvlen);
	FILE *json = j->json ? open_memstream(&rt->json, &rt->jsonlen) : NULL;
	FILE *mlir = csv && (json || !j->json) ?
	             cli_out_open(&om, "shardlp batch", mlirp) : NULL;
	if (!csv || (!json && j->json))
		cli_fatal("out of memory");
	if (!mlir) {
		fclose(csv);
		if (json)
			fclose(json);
		free(mlirp);
		return 1;
	}
	int status = EXIT_OK;
	bool lost = false;	/* a result file not written */
	peak_reset();
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
		row_ctx c = {in->path, (unsigned)k + 1, peak_kb(),
		             sink.first_error[0] ? sink.first_error : "failed"};
		for (size_t i = 0; i < CLI_NMETHODS; i++)
			if (!j->methods || (j->methods >> i & 1))
				put_row(csv, json, &c, &o.rows[i], &o.rows[0]);
		if (k && fputs("// -----\n", mlir) == EOF)
			lost = true;
		if (o.ilp && sl_module_print(o.ilp, mlir, NULL))
			lost = true;
		if (write_xml(j, in, k, o.ilp, o.rows))
			lost = true;
		sl_module_free(o.ilp);
	}
	free(chunks);
	free(text);
	cli_sink_fini(&sink);
	sl_context_free(ctx);
	fclose(csv);
	if (json)
		fclose(json);
	lost |= cli_out_close(&om, "shardlp batch", true) != 0;
	free(mlirp);
	char *logp = result_path(j->dir, in->id, "log");
	lost = lost || scratch_save(logp, j->fresh);
	free(logp);
	return lost ? WORK_LOST : status;
}

/* }===================================================================== */

/* {====== workers: a pipe each way ==================================== */

/* A worker's answer: the program, its status, then the rows' bytes. */
typedef struct answer {
	uint32_t index;
	int32_t status;
	uint64_t csvlen, jsonlen;
} answer;

/* Programs handed to a worker ahead of its answers, at most. */
#define DEPTH_MAX 32

typedef struct worker {
	pid_t pid;		/* 0: none */
	int to, from;		/* task pipe (write end), answer pipe (read end) */
	size_t q[DEPTH_MAX];	/* its programs, in the order it answers them */
	int nq;
} worker;

/* Reads or writes all n bytes, through interruptions; 0, or -1 at an
 * error or the end of the pipe. */
static int
transfer(int fd, char *p, size_t n, bool writing)
{
	while (n) {
		ssize_t r = writing ? write(fd, p, n) : read(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

static int
read_full(int fd, void *buf, size_t n)
{
	return transfer(fd, buf, n, false);
}

static int
write_full(int fd, const void *buf, size_t n)
{
	return transfer(fd, (char *)buf, n, true);
}

/* The worker's life: programs by index from `in`, answers to `out`, until
 * the parent closes the task pipe. */
static void
worker_main(const job *j, const inputs *v, int in, int out)
{
	uint32_t i;
	if (!scratch_stderr(j->dir))
		_exit(1);
	/*
	 * A worker allocates and frees the same amounts program after
	 * program: without these, glibc hands the heap's top back to the
	 * kernel after each one (tens of brk calls a program) and takes it
	 * again, zeroed, for the next, which on tiny programs costs more
	 * system time than the work itself.
	 */
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	mallopt(M_TOP_PAD, 16 << 20);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	while (!read_full(in, &i, sizeof i) && i < v->n) {
		rows_text rt;
		answer a = {i, work(j, &v->v[i], &rt), 0, 0};
		a.csvlen = rt.csvlen;
		a.jsonlen = rt.jsonlen;
		if (write_full(out, &a, sizeof a) || write_full(out, rt.csv, rt.csvlen) ||
		    write_full(out, rt.json, rt.jsonlen))
			_exit(1);
		free(rt.csv);
		free(rt.json);
	}
	_exit(0);
}

/* Starts worker w; the child closes the other workers' pipes, so that
 * each sees the end of its task pipe when the parent closes it.  -1 after
 * a message. */
static int
spawn(worker *w, worker *all, size_t nall, const job *j, const inputs *v)
{
	int task[2], ans[2];
	if (pipe(task))
		goto fail;
	if (pipe(ans)) {
		close(task[0]);
		close(task[1]);
		goto fail;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		for (size_t k = 0; k < nall; k++)
			if (all[k].pid) {
				close(all[k].to);
				close(all[k].from);
			}
		close(task[1]);
		close(ans[0]);
		worker_main(j, v, task[0], ans[1]);
	}
	close(task[0]);
	close(ans[1]);
	if (pid < 0) {
		close(task[1]);
		close(ans[0]);
		goto fail;
	}
	*w = (worker){pid, task[1], ans[0], {0}, 0};
	return 0;
fail:
	fprintf(stderr, "shardlp batch: cannot start a worker: %s\n", strerror(errno));
	return -1;
}

/* Ends w: closes its pipes, kills it when sig, reaps it.  Its status. */
static int
retire(worker *w, int sig)
{
	int ws = 0;
	close(w->to);
	close(w->from);
	if (sig)
		kill(w->pid, sig);
	while (waitpid(w->pid, &ws, 0) < 0 && errno == EINTR)
		;
	w->pid = 0;
	w->nq = 0;
	return ws;
}

/* Why a worker that died has no rows, in a heap string. */
static char *
death(int ws)
{
	char buf[128];
	if (WIFSIGNALED(ws))
		snprintf(buf, sizeof buf, "the worker died of signal %d before writing "
		         "its rows", WTERMSIG(ws));
	else
		snprintf(buf, sizeof buf, "the worker died (exit %d) before writing its "
		         "rows", WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
	return cli_xstrdup(buf);
}

/* The programs to hand out again (a worker died before it began them). */
typedef struct again {
	size_t *v;
	size_t n;
} again;

/*
 * Reads one answer of w into its first program; when w died instead,
 * retires it, gives that program the reason and puts w's other programs
 * in *ag.  The program's index, or -1 when w had none; *status, the
 * worker's status of the program (work), when it answered.
 */
static long
collect(worker *w, inputs *v, again *ag, int *status)
{
	long i = w->nq ? (long)w->q[0] : -1;
	answer a;
	input *in = i >= 0 ? &v->v[i] : NULL;
	if (!read_full(w->from, &a, sizeof a) && in && a.index == (uint32_t)i &&
	    a.csvlen < SIZE_MAX / 2 && a.jsonlen < SIZE_MAX / 2) {
		in->csv = malloc((size_t)a.csvlen + 1);
		in->json = malloc((size_t)a.jsonlen + 1);
		if (!in->csv || !in->json)
			cli_fatal("out of memory");
		if (!read_full(w->from, in->csv, (size_t)a.csvlen) &&
		    !read_full(w->from, in->json, (size_t)a.jsonlen)) {
			in->csvlen = (size_t)a.csvlen;
			in->jsonlen = (size_t)a.jsonlen;
			in->failed = a.status != 0;
			*status = a.status;
			memmove(w->q, w->q + 1, (size_t)--w->nq * sizeof *w->q);
			return i;
		}
		free(in->csv);
		free(in->json);
		in->csv = in->json = NULL;
	}
	for (int k = 1; k < w->nq; k++)
		ag->v[ag->n++] = w->q[k];
	int ws = retire(w, 0);
	if (in) {
		in->why = death(ws);
		in->failed = true;
	}
	return i;
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

/*
 * How many programs a worker holds ahead of its answers: enough that a
 * parent the machine wakes late never leaves a worker idle on tiny
 * programs (on a busy machine the parent can wait tens of milliseconds
 * for a processor: 32 programs of a millisecond), and one for long ones,
 * so that the last programs spread over the workers.
 */
static int
queue_depth(double elapsed, size_t finished, long jobs)
{
	if (!finished)
		return 2;
	double per = elapsed * (double)jobs / (double)finished;
	return per < 0.005 ? DEPTH_MAX : per < 0.02 ? 8 : per < 1 ? 2 : 1;
}

/*
 * For --resume: whether the journal has in's rows (JSON lines too, with
 * with_json) written no earlier than the input was; if so they are in's.
 * (Written under other options, they are not in the journal: it is
 * emptied when the options change.)
 */
static bool
up_to_date(batch_journal *jn, input *in, bool with_json)
{
	time_t when;
	struct stat st;
	if (!batch_journal_get(jn, in->id, &when, &in->csv, &in->csvlen, &in->json,
	                       &in->jsonlen))
		return false;
	if (!stat(in->path, &st) && when >= st.st_mtime && (in->jsonlen || !with_json))
		return true;
	free(in->csv);
	free(in->json);
	in->csv = in->json = NULL;
	return false;
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

/* OUT/summary.csv (and .jsonl) from the rows of the inputs done (those
 * skipped by --resume have theirs from the journal). */
static int
summarize(const char *out, const inputs *v, bool with_json, unsigned methods)
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
			if (in->csv) {
				fwrite(in->csv, 1, in->csvlen, csv);
				fwrite(in->json, 1, in->jsonlen, json);
			} else {
				dead_rows(csv, json, in, in->why ? in->why : "the worker "
				          "died before writing its rows", methods);
			}
		}
		rc = cli_out_close(&oc, "shardlp batch", true);
		rc |= with_json ? cli_out_close(&oj, "shardlp batch", rc == 0)
		                : (fclose(json), 0);
	}
	free(csvp);
	free(jsonp);
	return rc ? -1 : 0;
}

/*
 * The options as written, one per line, in OUT/options: --resume redoes
 * every program when they changed.  *same says whether they did not;
 * the caller empties the journal before when_changed writes them, so
 * that a batch stopped between the two never keeps rows of other options.
 */
static int
stamp_options(const char *out, char **argv, int first_input, bool *same,
              bool when_changed)
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
	*same = old && cur && oldlen == curlen && !memcmp(old, cur, curlen);
	if (!*same && when_changed) {
		cli_out o;
		FILE *w = cli_out_open(&o, "shardlp batch", p);
		if (!w || fwrite(cur, 1, curlen, w) != curlen)
			rc = -1;
		if (w && cli_out_close(&o, "shardlp batch", rc == 0))
			rc = -1;
	}
	free(old);
	free(cur);
	free(p);
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
			      "*.mlir under each DIR (sorted) in -j worker processes,\n"
			      "and writes OUT/summary.csv: one row per program, chunk and method,\n"
			      "failed ones included (status error and the message).\n"
			      "  -j N, --jobs N     N workers at a time (default 1)\n"
			      "  --out DIR          the output folder (default batch-out):\n"
			      "                     summary.csv, summary.jsonl with --json,\n"
			      "                     results/ID.{log,mlir,xml} per program, and\n"
			      "                     journal, the rows of the programs done\n"
			      "  --json             the summary as JSON lines too\n"
			      "  --resume           skip the programs whose rows are in the\n"
			      "                     journal, newer than the program\n"
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
			if (!cli_parse_number(optarg, &j.so.time_limit)) {
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
	j.json = with_json;
	j.fresh = access(dir, F_OK) != 0;
	char *jpath = malloc(n);
	if (!jpath)
		cli_fatal("out of memory");
	snprintf(jpath, n, "%s/journal", out);
	bool same;
	batch_journal *jn = NULL;
	if (make_dir(out) || make_dir(dir) || stamp_options(out, argv, optind, &same, false) ||
	    !(jn = batch_journal_open("shardlp batch", jpath, resume && same)) ||
	    stamp_options(out, argv, optind, &same, true)) {
		status = EXIT_INPUT;
		goto done;
	}
	bool jn_ok = true;	/* no append failed yet */

	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);	/* a dead worker's pipe: an error, not death */
	bool tty = isatty(STDERR_FILENO);
	double t0 = now();
	size_t next = 0, finished = 0, failed = 0;
	worker *w = xcalloc((size_t)jobs, sizeof *w);
	struct pollfd *pfd = xcalloc((size_t)jobs, sizeof *pfd);
	again ag = {xcalloc(v.n + 1, sizeof *ag.v), 0};
	int tries = 0;		/* workers that died before taking the next program */
	for (;;) {
		/* each worker (started when needed) gets programs up to the depth */
		int depth = queue_depth(now() - t0, finished, jobs);
		for (long k = 0; k < jobs && !stop_signal; k++) {
			while (w[k].nq < depth) {
				while (!ag.n && next < v.n && resume &&
				       up_to_date(jn, &v.v[next], with_json)) {
					v.v[next].done = v.v[next].skipped = true;
					next++;
					finished++;
				}
				if (!ag.n && next >= v.n)
					break;
				if (!w[k].pid && spawn(&w[k], w, (size_t)jobs, &j, &v)) {
					stop_signal = SIGTERM;
					break;
				}
				size_t p = ag.n ? ag.v[ag.n - 1] : next;
				uint32_t i = (uint32_t)p;
				if (write_full(w[k].to, &i, sizeof i)) {
					if (w[k].nq)
						break;	/* it died working: collect says so */
					/* it died idle: a new one, thrice at most */
					retire(&w[k], SIGKILL);
					if (++tries < 3)
						continue;
					v.v[p].why = cli_xstrdup("no worker would take the program");
					v.v[p].done = v.v[p].failed = true;
					finished++;
					failed++;
				} else {
					w[k].q[w[k].nq++] = p;
				}
				tries = 0;
				if (ag.n)
					ag.n--;
				else
					next++;
			}
		}
		if (tty)
			progress(finished, v.n, failed, t0, false);
		nfds_t n = 0;
		for (long k = 0; k < jobs; k++)
			if (w[k].pid && w[k].nq)
				pfd[n++] = (struct pollfd){w[k].from, POLLIN, 0};
		if (!n || stop_signal)
			break;
		if (poll(pfd, n, -1) < 0)
			continue;	/* a signal: stop_signal says which */
		for (long k = 0; k < jobs; k++) {
			bool ready = false;
			for (nfds_t f = 0; f < n; f++)
				ready |= pfd[f].fd == w[k].from && w[k].pid && pfd[f].revents;
			if (!ready)
				continue;
			int st = 0;
			long i = collect(&w[k], &v, &ag, &st);
			if (i < 0)
				continue;
			input *in = &v.v[i];
			if (in->csv && st != WORK_LOST && jn_ok &&
			    batch_journal_add(jn, in->id, in->csv, in->csvlen, in->json,
			                      with_json ? in->jsonlen : 0)) {
				fprintf(stderr, "shardlp batch: cannot write '%s': %s (--resume "
				        "will redo the programs from here)\n", jpath, strerror(errno));
				jn_ok = false;
				status = EXIT_INPUT;
			}
			in->done = true;
			finished++;
			failed += in->failed;
		}
	}
	/* idle workers end at the end of their task pipe; busy ones, stopped
	 * by a signal, are killed: their programs are not done */
	for (long k = 0; k < jobs; k++)
		if (w[k].pid)
			retire(&w[k], w[k].nq ? SIGTERM : 0);
	free(ag.v);
	free(w);
	free(pfd);
	if (tty)
		progress(finished, v.n, failed, t0, true);
	if (summarize(out, &v, with_json, j.methods))
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
		free(v.v[i].csv);
		free(v.v[i].json);
		free(v.v[i].why);
	}
	free(v.v);
	free(dir);
	free(jpath);
	batch_journal_close(jn);
	cli_cost_opts_fini(&co);
	return status;
usage:
	fputs(usage_short, stderr);
	cli_cost_opts_fini(&co);
	return EXIT_USAGE;
}
