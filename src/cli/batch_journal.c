/*
 * batch_journal.c - OUT/journal of `shardlp batch` (batch_journal.h): an
 * append-only file of records, read back into a table by program id.
 */
#include "batch_journal.h"
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

/* A record read back: where its rows are in the file. */
typedef struct record {
	char *id;		/* NULL: a free slot of the table */
	off_t at;		/* its CSV rows, then its JSON lines */
	size_t csvlen, jsonlen;
	time_t when;
} record;

struct batch_journal {
	int fd;			/* appending; read back with pread */
	bool broken;		/* an append failed: no more (they would follow
				 * a cut record, which ends the reading) */
	record *v;		/* open addressing, a power of two long */
	size_t n, cap;
};

static uint64_t
hash(const char *s)
{
	uint64_t h = 14695981039346656037u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

/* The slot of id: its record, or the free slot where it would go. */
static record *
slot(const batch_journal *jn, const char *id)
{
	size_t i = (size_t)hash(id) & (jn->cap - 1);
	while (jn->v[i].id && strcmp(jn->v[i].id, id))
		i = (i + 1) & (jn->cap - 1);
	return &jn->v[i];
}

/* Keeps r (its id taken over) as the latest record of its program. */
static void
put(batch_journal *jn, record r)
{
	if (2 * (jn->n + 1) > jn->cap) {
		record *old = jn->v;
		size_t oldcap = jn->cap;
		jn->cap = jn->cap ? 2 * jn->cap : 256;
		jn->v = calloc(jn->cap, sizeof *jn->v);
		if (!jn->v)
			cli_fatal("out of memory");
		for (size_t i = 0; i < oldcap; i++)
			if (old[i].id)
				*slot(jn, old[i].id) = old[i];
		free(old);
	}
	record *s = slot(jn, r.id);
	if (s->id) {
		free(s->id);
		jn->n--;
	}
	*s = r;
	jn->n++;
}

/*
 * Reads the records of f into jn; the offset where the records end (the
 * first one cut short or malformed, if any).
 */
static off_t
scan(batch_journal *jn, FILE *f, off_t size)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	off_t end = 0;
	while ((len = getline(&line, &cap, f)) > 0) {
		record r = {malloc((size_t)len + 1), 0, 0, 0, 0};
		long long when;
		int used = 0;
		if (!r.id)
			cli_fatal("out of memory");
		if (sscanf(line, "%s %lld %zu %zu%n", r.id, &when, &r.csvlen, &r.jsonlen,
		           &used) != 4 || line[used] != '\n' ||
		    (r.at = ftello(f)) < 0 || r.csvlen > (size_t)(size - r.at) ||
		    r.jsonlen > (size_t)(size - r.at) - r.csvlen ||
		    fseeko(f, (off_t)(r.csvlen + r.jsonlen), SEEK_CUR)) {
			free(r.id);
			break;
		}
		r.when = (time_t)when;
		put(jn, r);
		end = r.at + (off_t)(r.csvlen + r.jsonlen);
	}
	free(line);
	return end;
}

batch_journal *
batch_journal_open(const char *prog, const char *path, bool keep)
{
	batch_journal *jn = calloc(1, sizeof *jn);
	if (!jn)
		cli_fatal("out of memory");
	jn->fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | (keep ? 0 : O_TRUNC),
	              0666);
	struct stat st;
	if (jn->fd < 0 || fstat(jn->fd, &st)) {
		fprintf(stderr, "%s: cannot open '%s' for writing: %s\n", prog, path,
		        strerror(errno));
		batch_journal_close(jn);
		return NULL;
	}
	if (keep && st.st_size > 0) {
		FILE *f = fopen(path, "r");
		off_t end = f ? scan(jn, f, st.st_size) : 0;
		if (f)
			fclose(f);
		/* what follows the last whole record goes: a record appended
		 * after it would never be read */
		if (end < st.st_size && ftruncate(jn->fd, end)) {
			fprintf(stderr, "%s: cannot write '%s': %s\n", prog, path,
			        strerror(errno));
			batch_journal_close(jn);
			return NULL;
		}
	}
	return jn;
}

int
batch_journal_add(batch_journal *jn, const char *id, const char *csv,
                  size_t csvlen, const char *json, size_t jsonlen)
{
	char head[512];
	int n = snprintf(head, sizeof head, "%s %lld %zu %zu\n", id,
	                 (long long)time(NULL), csvlen, jsonlen);
	if (jn->broken || n < 0 || (size_t)n >= sizeof head) {
		errno = jn->broken ? EIO : ENAMETOOLONG;
		return -1;
	}
	/* one write, so that a record is never split by another's */
	struct iovec iov[3] = {
		{head, (size_t)n}, {(void *)csv, csvlen}, {(void *)json, jsonlen},
	};
	ssize_t w;
	while ((w = writev(jn->fd, iov, 3)) < 0 && errno == EINTR)
		;
	if (w == (ssize_t)((size_t)n + csvlen + jsonlen))
		return 0;
	if (w >= 0)
		errno = ENOSPC;	/* a short write: the disk is full */
	jn->broken = true;
	return -1;
}

/* len bytes at `at` of the journal in a heap string; NULL when cut. */
static char *
read_at(const batch_journal *jn, off_t at, size_t len)
{
	char *s = malloc(len + 1);
	if (!s)
		cli_fatal("out of memory");
	size_t got = 0;
	while (got < len) {
		ssize_t r = pread(jn->fd, s + got, len - got, at + (off_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			free(s);
			return NULL;
		}
		got += (size_t)r;
	}
	s[len] = 0;
	return s;
}

bool
batch_journal_get(batch_journal *jn, const char *id, time_t *when,
                  char **csv, size_t *csvlen, char **json, size_t *jsonlen)
{
	record *r = jn->cap ? slot(jn, id) : NULL;
	if (!r || !r->id)
		return false;
	*csv = read_at(jn, r->at, r->csvlen);
	*json = *csv ? read_at(jn, r->at + (off_t)r->csvlen, r->jsonlen) : NULL;
	if (!*json) {
		free(*csv);
		*csv = NULL;
		return false;
	}
	*when = r->when;
	*csvlen = r->csvlen;
	*jsonlen = r->jsonlen;
	return true;
}

void
batch_journal_close(batch_journal *jn)
{
	if (!jn)
		return;
	if (jn->fd >= 0)
		close(jn->fd);
	for (size_t i = 0; i < jn->cap; i++)
		free(jn->v[i].id);
	free(jn->v);
	free(jn);
}
