/*
 * torture_mutate.c - writes mutants of MLIR programs for tests/cli/torture.sh.
 *
 * usage: torture-mutate SEED COUNT PER-BATCH OUTDIR FILE...
 *
 * Mutant i comes from FILE[i % nfiles] through one to three of: a
 * truncation, byte flips, a duplicated line, a deleted line, a bracket
 * swapped for another, and a number replaced by a huge or odd one (shape
 * dims and sub-axis sizes are numbers).  The same seed gives the same
 * mutants on every machine (a private xorshift generator, not rand()).
 * Output: OUTDIR/bNNNN.mlir, PER-BATCH mutants each, separated by
 * "// -----" lines for shardlp-opt -split-input-file, and OUTDIR/mNNNNN.mlir
 * for every mutant, one per file, for the shardlp subcommands.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct text {
	char *p;
	size_t n, cap;
} text;

static uint64_t state;

static uint64_t
next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

/* 0 <= r < n; n > 0 */
static size_t
below(size_t n)
{
	return (size_t)(next() % n);
}

static void
reserve(text *t, size_t n)
{
	if (t->n + n + 1 <= t->cap)
		return;
	while (t->cap < t->n + n + 1)
		t->cap = t->cap ? 2 * t->cap : 4096;
	t->p = realloc(t->p, t->cap);
	if (!t->p) {
		fputs("torture-mutate: out of memory\n", stderr);
		exit(99);
	}
}

/* Replaces t[at, at+del) by s[0, n). */
static void
splice(text *t, size_t at, size_t del, const char *s, size_t n)
{
	reserve(t, n);
	memmove(t->p + at + n, t->p + at + del, t->n - at - del);
	memcpy(t->p + at, s, n);
	t->n = t->n - del + n;
	t->p[t->n] = 0;
}

/* The line around offset at: [*b, *e), *e after its newline if any. */
static void
line_at(const text *t, size_t at, size_t *b, size_t *e)
{
	*b = at;
	while (*b > 0 && t->p[*b - 1] != '\n')
		(*b)--;
	*e = at;
	while (*e < t->n && t->p[*e] != '\n')
		(*e)++;
	if (*e < t->n)
		(*e)++;
}

static void
truncate_at(text *t)
{
	t->n = below(t->n);
	t->p[t->n] = 0;
}

static void
flip_bytes(text *t)
{
	static const char odd[] = "{}[]()<>\"':,=@%#!?^x0123456789-\n\t \\\x7f\xff";
	for (size_t k = 1 + below(3); k > 0; k--) {
		size_t at = below(t->n);
		t->p[at] = below(4) ? odd[below(sizeof odd - 1)] : (char)below(256);
	}
}

static void
dup_line(text *t)
{
	size_t b, e;
	line_at(t, below(t->n), &b, &e);
	char *copy = malloc(e - b + 1);
	memcpy(copy, t->p + b, e - b);
	splice(t, e, 0, copy, e - b);
	free(copy);
}

static void
del_line(text *t)
{
	size_t b, e;
	line_at(t, below(t->n), &b, &e);
	splice(t, b, e - b, "", 0);
}

static void
swap_bracket(text *t)
{
	static const char br[] = "{}[]()<>";
	for (size_t tries = 0; tries < 64; tries++) {
		size_t at = below(t->n);
		if (strchr(br, t->p[at]) && t->p[at]) {
			t->p[at] = br[below(sizeof br - 1)];
			return;
		}
	}
}

static void
huge_number(text *t)
{
	static const char *const nums[] = {
		"0", "-1", "1", "4294967296", "2147483648", "65536",
		"4611686018427387904", "9223372036854775807",
		"9223372036854775808", "18446744073709551616",
		"99999999999999999999999999", "3037000500", "-9223372036854775808",
	};
	for (size_t tries = 0; tries < 64; tries++) {
		size_t at = below(t->n);
		if (t->p[at] < '0' || t->p[at] > '9')
			continue;
		size_t b = at, e = at;
		while (b > 0 && t->p[b - 1] >= '0' && t->p[b - 1] <= '9')
			b--;
		while (e < t->n && t->p[e] >= '0' && t->p[e] <= '9')
			e++;
		const char *s = nums[below(sizeof nums / sizeof *nums)];
		splice(t, b, e - b, s, strlen(s));
		return;
	}
}

static void
mutate(text *t)
{
	static void (*const ops[])(text *) = {
		truncate_at, flip_bytes, dup_line, del_line, swap_bracket,
		huge_number, huge_number, huge_number,
	};
	for (size_t k = 1 + below(3); k > 0 && t->n > 0; k--)
		ops[below(sizeof ops / sizeof *ops)](t);
}

static text
slurp(const char *path)
{
	text t = {0};
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(99);
	}
	char buf[8192];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
		reserve(&t, n);
		memcpy(t.p + t.n, buf, n);
		t.n += n;
	}
	fclose(f);
	reserve(&t, 1);
	t.p[t.n] = 0;
	return t;
}

static FILE *
create(const char *dir, const char *fmt, size_t i)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/", dir);
	snprintf(path + strlen(path), sizeof path - strlen(path), fmt, i);
	FILE *f = fopen(path, "wb");
	if (!f) {
		perror(path);
		exit(99);
	}
	return f;
}

static void
done(FILE *f)
{
	if (fclose(f)) {
		perror("torture-mutate");
		exit(99);
	}
}

int
main(int argc, char **argv)
{
	if (argc < 6) {
		fputs("usage: torture-mutate SEED COUNT PER-BATCH OUTDIR FILE...\n", stderr);
		return 2;
	}
	state = strtoull(argv[1], NULL, 10) * 2654435761u + 88172645463325252u;
	size_t count = strtoul(argv[2], NULL, 10);
	size_t per = strtoul(argv[3], NULL, 10);
	const char *dir = argv[4];
	size_t nf = (size_t)argc - 5;
	text *base = calloc(nf, sizeof *base);
	for (size_t i = 0; i < nf; i++)
		base[i] = slurp(argv[5 + i]);
	if (!per)
		per = 1;
	FILE *batch = NULL;
	for (size_t i = 0; i < count; i++) {
		const text *b = &base[i % nf];
		text t = {0};
		reserve(&t, b->n);
		memcpy(t.p, b->p, b->n + 1);
		t.n = b->n;
		mutate(&t);
		/* a separator line inside a mutant would split it */
		for (char *s = t.p; (s = strstr(s, "// -----")) != NULL; s++)
			s[3] = '+';
		FILE *one = create(dir, "m%05zu.mlir", i);
		fwrite(t.p, 1, t.n, one);
		done(one);
		if (i % per == 0) {
			if (batch)
				done(batch);
			batch = create(dir, "b%04zu.mlir", i / per);
		} else {
			fputs("\n// -----\n", batch);
		}
		fwrite(t.p, 1, t.n, batch);
		free(t.p);
	}
	if (batch)
		done(batch);
	for (size_t i = 0; i < nf; i++)
		free(base[i].p);
	free(base);
	return 0;
}
