/*
 * cli_out.c - output file arguments ("-" = stdout) written atomically:
 * a temporary beside the target, renamed into place at the end.
 */
#include "cli_out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool
is_stdout(const char *path)
{
	return !path || !strcmp(path, "-");
}

/* mkstemp beside path (same file system, so rename is atomic), or in
 * $TMPDIR for stdout; *fd is the open descriptor. */
static char *
make_tmp(const char *prog, const char *path, int *fd)
{
	const char *dir = getenv("TMPDIR");
	size_t n = is_stdout(path) ? strlen(dir && *dir ? dir : "/tmp") + 32
	                           : strlen(path) + 16;
	char *tmp = malloc(n);
	if (!tmp) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return NULL;
	}
	if (is_stdout(path))
		snprintf(tmp, n, "%s/shardlp-out.XXXXXX", dir && *dir ? dir : "/tmp");
	else
		snprintf(tmp, n, "%s.XXXXXX", path);
	*fd = mkstemp(tmp);
	if (*fd < 0) {
		fprintf(stderr, "%s: cannot open '%s' for writing: %s\n", prog,
		        is_stdout(path) ? tmp : path, strerror(errno));
		free(tmp);
		return NULL;
	}
	return tmp;
}

FILE *
cli_out_open(cli_out *o, const char *prog, const char *path)
{
	int fd;
	o->path = path;
	o->tmp = NULL;
	o->f = stdout;
	if (is_stdout(path))
		return o->f;
	if (!(o->tmp = make_tmp(prog, path, &fd)))
		return o->f = NULL;
	if (!(o->f = fdopen(fd, "w"))) {
		fprintf(stderr, "%s: cannot open '%s' for writing: %s\n", prog,
		        path, strerror(errno));
		close(fd);
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
	return o->f;
}

int
cli_out_close(cli_out *o, const char *prog, bool ok)
{
	bool werr = fflush(o->f) != 0 || ferror(o->f);
	if (o->tmp) {
		/* mkstemp makes the file 0600; give it the mode fopen would */
		mode_t mask = umask(0);
		umask(mask);
		fchmod(fileno(o->f), 0666 & ~mask);
		werr |= fclose(o->f) != 0;
		if (ok && !werr && rename(o->tmp, o->path)) {
			fprintf(stderr, "%s: cannot write '%s': %s\n", prog, o->path,
			        strerror(errno));
			ok = false;
		}
		if (!ok || werr)
			unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
	if (werr)
		fprintf(stderr, "%s: cannot write '%s'\n", prog,
		        is_stdout(o->path) ? "<stdout>" : o->path);
	return werr || !ok ? -1 : 0;
}

char *
cli_out_tmpname(const char *prog, const char *path)
{
	int fd;
	char *tmp = make_tmp(prog, path, &fd);
	if (tmp)
		close(fd);
	return tmp;
}

/* Copies the file tmp to stdout. */
static int
copy_out(const char *prog, const char *tmp)
{
	FILE *f = fopen(tmp, "rb");
	char buf[1 << 14];
	size_t n;
	if (!f) {
		fprintf(stderr, "%s: cannot read '%s': %s\n", prog, tmp, strerror(errno));
		return -1;
	}
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		if (fwrite(buf, 1, n, stdout) != n)
			break;
	int err = ferror(f) || ferror(stdout) || fflush(stdout);
	fclose(f);
	if (err)
		fprintf(stderr, "%s: cannot write '<stdout>'\n", prog);
	return err ? -1 : 0;
}

int
cli_out_commit(const char *prog, char *tmp, const char *path, bool ok)
{
	int rc = 0;
	if (ok && is_stdout(path)) {
		rc = copy_out(prog, tmp);
	} else if (ok) {
		cli_out o = {path, tmp, fopen(tmp, "r+")};
		if (!o.f) {
			fprintf(stderr, "%s: cannot write '%s': %s\n", prog, path,
			        strerror(errno));
			unlink(tmp);
			free(tmp);
			return -1;
		}
		return cli_out_close(&o, prog, true);
	}
	unlink(tmp);
	free(tmp);
	return rc;
}
