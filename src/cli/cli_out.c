/*
 * cli_out.c - output file arguments ("-" = stdout) written atomically:
 * a temporary beside the target, unnamed where the file system allows
 * (linked at the end) or named (renamed into place at the end).
 */
#include "cli_out.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool
is_stdout(const char *path)
{
	return !path || !strcmp(path, "-");
}

/* The files the program read, by device and inode. */
static struct {
	dev_t dev;
	ino_t ino;
} inputs[64];
static size_t ninputs;

void
cli_out_note_input(int fd)
{
	struct stat st;
	if (ninputs < sizeof inputs / sizeof *inputs && !fstat(fd, &st) &&
	    S_ISREG(st.st_mode)) {
		inputs[ninputs].dev = st.st_dev;
		inputs[ninputs].ino = st.st_ino;
		ninputs++;
	}
}

void
cli_out_note_input_path(const char *path)
{
	int fd = is_stdout(path) ? -1 : open(path, O_RDONLY);
	if (fd >= 0) {
		cli_out_note_input(fd);
		close(fd);
	}
}

/* 0, or -1 after a message when st, path's, is a file the program read. */
static int
check_not_read(const char *prog, const char *path, const struct stat *st)
{
	for (size_t i = 0; i < ninputs; i++) {
		if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino) {
			fprintf(stderr, "%s: cannot write '%s': it is an input file\n",
			        prog, path);
			return -1;
		}
	}
	return 0;
}

/* 0, or -1 after a message when path is a file the program read. */
static int
check_not_input(const char *prog, const char *path)
{
	struct stat st;
	if (is_stdout(path) || stat(path, &st))
		return 0;
	return check_not_read(prog, path, &st);
}

/* 0 when dir is a directory this process may create files in. */
static int
writable_dir(const char *dir)
{
	struct stat st;
	if (stat(dir, &st))
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return access(dir, W_OK | X_OK);
}

int
cli_out_check_dir(const char *prog, const char *dir)
{
	if (writable_dir(dir)) {
		fprintf(stderr, "%s: cannot write into '%s': %s\n", prog, dir,
		        strerror(errno));
		return -1;
	}
	return 0;
}

int
cli_out_check(const char *prog, const char *path)
{
	struct stat st;
	if (is_stdout(path))
		return 0;
	if (check_not_input(prog, path))
		return -1;
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "%s: cannot write '%s': %s\n", prog, path,
		        strerror(EISDIR));
		return -1;
	}
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path))
	                  : strdup(".");
	int rc = dir ? writable_dir(dir) : -1;
	if (rc)
		fprintf(stderr, "%s: cannot write '%s': %s\n", prog, path,
		        strerror(dir ? errno : ENOMEM));
	free(dir);
	return rc;
}

int
cli_out_finish(const char *prog, int status)
{
	bool err = fflush(stdout) != 0 || ferror(stdout);
	err |= fclose(stdout) != 0;
	if (err && status == 0) {
		fprintf(stderr, "%s: cannot write '<stdout>'\n", prog);
		return 1;
	}
	return status;
}

/*
 * The temporaries being written, removed by a terminating signal so that
 * an interrupted run leaves neither a truncated output nor a stray file.
 */
static char *volatile live[8];

void
cli_out_remove_temporaries(void)
{
	for (size_t i = 0; i < sizeof live / sizeof *live; i++)
		if (live[i])
			unlink(live[i]);
}

static void
on_signal(int sig)
{
	cli_out_remove_temporaries();
	signal(sig, SIG_DFL);
	raise(sig);
}

static const int sigs[] = {SIGHUP, SIGINT, SIGTERM, SIGXCPU, SIGXFSZ};

/*
 * Installs on_signal (once) and blocks the signals it catches, so that a
 * temporary is created and tracked in one step: a signal between the two
 * would leave it behind.  unblock_signals ends the step.
 */
static void
block_signals(sigset_t *old)
{
	static bool installed;
	if (!installed) {
		for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
			if (signal(sigs[i], on_signal) == SIG_IGN)
				signal(sigs[i], SIG_IGN);	/* nohup stays nohup */
		installed = true;
	}
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		sigaddset(&set, sigs[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void
unblock_signals(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

static void
track(char *tmp)
{
	for (size_t i = 0; i < sizeof live / sizeof *live; i++) {
		if (!live[i]) {
			live[i] = tmp;
			return;
		}
	}
}

/* Frees tmp, no longer a temporary to remove on a signal. */
static void
forget(char *tmp)
{
	for (size_t i = 0; i < sizeof live / sizeof *live; i++)
		if (live[i] == tmp)
			live[i] = NULL;
	free(tmp);
}

/*
 * A path that exists and is not a regular file (/dev/null, /dev/stdout, a
 * FIFO, a terminal) is written in place: renaming a file over it would
 * replace the device itself.
 */
static bool
is_special(const char *path)
{
	struct stat st;
	return !is_stdout(path) && !stat(path, &st) && !S_ISREG(st.st_mode) &&
	       !S_ISDIR(st.st_mode);
}

/*
 * A new name beside path (same file system, so rename is atomic), or in
 * $TMPDIR for stdout and special files, tracked for on_signal: a file
 * created there (from < 0; *fd its descriptor) or the unnamed temporary
 * `from` (a /proc/self/fd/N path) linked there.  NULL after a message.
 */
static char *
claim_tmp(const char *prog, const char *path, int *fd, const char *from)
{
	const char *dir = getenv("TMPDIR");
	bool away = is_stdout(path) || is_special(path);
	size_t n = away ? strlen(dir && *dir ? dir : "/tmp") + 48 : strlen(path) + 40;
	char *tmp = malloc(n);
	if (!tmp) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return NULL;
	}
	/* not mkstemp: its 0600 would need an fchmod, a second metadata
	 * change per file that batch runs of tiny programs feel; O_EXCL with
	 * the pid and a counter is as safe, and the umask applies as for fopen */
	static unsigned serial;
	sigset_t old;
	int rc;
	block_signals(&old);
	do {
		if (away)
			snprintf(tmp, n, "%s/shardlp-out.%ld.%u", dir && *dir ? dir : "/tmp",
			         (long)getpid(), serial++);
		else
			snprintf(tmp, n, "%s.%ld.%u~", path, (long)getpid(), serial++);
		if (from)
			rc = linkat(AT_FDCWD, from, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW);
		else
			rc = *fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	} while (rc < 0 && errno == EEXIST);
	if (rc < 0) {
		int err = errno;
		unblock_signals(&old);
		fprintf(stderr, "%s: cannot open '%s' for writing: %s\n", prog,
		        away ? tmp : path, strerror(err));
		free(tmp);
		return NULL;
	}
	track(tmp);
	unblock_signals(&old);
	return tmp;
}

/* A new file beside path, or in $TMPDIR for stdout and special files; *fd
 * is the open descriptor. */
static char *
make_tmp(const char *prog, const char *path, int *fd)
{
	if (check_not_input(prog, path))
		return NULL;
	return claim_tmp(prog, path, fd, NULL);
}

/*
 * An unnamed temporary in path's directory (O_TMPFILE), or -1 where the
 * system or the file system has none or /proc, the way to link it, is
 * missing.  It gets a name only in cli_out_close, so its creation takes
 * no lock on the directory (on ext4 the inode's allocation, slow after
 * many files were deleted, would hold it) and nothing of it is left
 * whatever stops the program, SIGKILL included.
 */
static int
open_unnamed(const char *path)
{
#ifdef O_TMPFILE
	static int proc = -1;	/* whether /proc/self/fd is there; -1 not asked */
	if (proc < 0)
		proc = !access("/proc/self/fd", X_OK);
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path))
	                  : strdup(".");
	int fd = proc && dir ? open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666) : -1;
	free(dir);
	return fd;
#else
	(void)path;
	return -1;
#endif
}

/*
 * Gives the unnamed temporary fd the name path: a link when path does not
 * exist, else a link to a named temporary renamed over path (a link does
 * not replace).  0, or -1 after a message.
 */
static int
name_unnamed(const char *prog, int fd, const char *path)
{
	char from[48];
	snprintf(from, sizeof from, "/proc/self/fd/%d", fd);
	if (!linkat(AT_FDCWD, from, AT_FDCWD, path, AT_SYMLINK_FOLLOW))
		return 0;
	if (errno == EEXIST) {
		char *tmp = claim_tmp(prog, path, &fd, from);
		if (!tmp)
			return -1;
		int rc = rename(tmp, path), err = errno;
		if (rc)
			unlink(tmp);
		forget(tmp);
		if (!rc)
			return 0;
		errno = err;
	}
	fprintf(stderr, "%s: cannot write '%s': %s\n", prog, path, strerror(errno));
	return -1;
}

FILE *
cli_out_open(cli_out *o, const char *prog, const char *path)
{
	int fd;
	o->path = path;
	o->tmp = NULL;
	o->f = stdout;
	o->unnamed = false;
	if (is_stdout(path))
		return o->f;
	/* one stat for both questions: a batch opens thousands of outputs */
	struct stat st;
	bool there = !stat(path, &st);
	if (there && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		/* a special file (is_special), never an input: written in place */
		if (!(o->f = fopen(path, "w")))
			fprintf(stderr, "%s: cannot open '%s' for writing: %s\n", prog,
			        path, strerror(errno));
		return o->f;
	}
	if (there && check_not_read(prog, path, &st))
		return o->f = NULL;
	if ((fd = open_unnamed(path)) >= 0)
		o->unnamed = true;
	else if (!(o->tmp = claim_tmp(prog, path, &fd, NULL)))
		return o->f = NULL;
	if (!(o->f = fdopen(fd, "w"))) {
		fprintf(stderr, "%s: cannot open '%s' for writing: %s\n", prog,
		        path, strerror(errno));
		close(fd);
		if (o->tmp) {
			unlink(o->tmp);
			forget(o->tmp);
			o->tmp = NULL;
		}
	}
	return o->f;
}

int
cli_out_close(cli_out *o, const char *prog, bool ok)
{
	bool werr = fflush(o->f) != 0 || ferror(o->f);
	if (o->unnamed) {
		/* named while still open: the name needs the descriptor; not
		 * named, it goes with its descriptor */
		if (ok && !werr && name_unnamed(prog, fileno(o->f), o->path))
			ok = false;
		bool named = ok && !werr;
		werr |= fclose(o->f) != 0;
		if (named && werr)
			unlink(o->path);
	} else if (o->tmp) {
		werr |= fclose(o->f) != 0;
		if (ok && !werr && rename(o->tmp, o->path)) {
			fprintf(stderr, "%s: cannot write '%s': %s\n", prog, o->path,
			        strerror(errno));
			ok = false;
		}
		if (!ok || werr)
			unlink(o->tmp);
		forget(o->tmp);
		o->tmp = NULL;
	} else if (o->f != stdout) {
		werr |= fclose(o->f) != 0;	/* a special file, written in place */
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

/* Copies the file tmp to path: stdout or a special file. */
static int
copy_out(const char *prog, const char *tmp, const char *path)
{
	FILE *f = fopen(tmp, "rb");
	char buf[1 << 14];
	size_t n;
	if (!f) {
		fprintf(stderr, "%s: cannot read '%s': %s\n", prog, tmp, strerror(errno));
		return -1;
	}
	cli_out o;
	if (!cli_out_open(&o, prog, path)) {
		fclose(f);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		if (fwrite(buf, 1, n, o.f) != n)
			break;
	bool rerr = ferror(f);
	fclose(f);
	if (rerr)
		fprintf(stderr, "%s: cannot read '%s'\n", prog, tmp);
	return cli_out_close(&o, prog, !rerr) || rerr ? -1 : 0;
}

int
cli_out_commit(const char *prog, char *tmp, const char *path, bool ok)
{
	int rc = 0;
	if (ok && (is_stdout(path) || is_special(path))) {
		rc = copy_out(prog, tmp, path);
	} else if (ok) {
		cli_out o = {path, tmp, fopen(tmp, "r+"), false};
		if (!o.f) {
			fprintf(stderr, "%s: cannot write '%s': %s\n", prog, path,
			        strerror(errno));
			unlink(tmp);
			forget(tmp);
			return -1;
		}
		return cli_out_close(&o, prog, true);
	}
	unlink(tmp);
	forget(tmp);
	return rc;
}
