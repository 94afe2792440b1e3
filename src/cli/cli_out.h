/*
 * cli_out.h - output file arguments: "-" is standard output, any other
 * path is written to a temporary beside it (an unnamed one where the file
 * system has them) and put in place only when the whole output was
 * written, so a failed run never leaves a truncated file where a good one
 * was.
 */
#ifndef SL_CLI_OUT_H
#define SL_CLI_OUT_H

#include <stdbool.h>
#include <stdio.h>

typedef struct cli_out {
	const char *path;	/* as the user gave it; "-" or NULL = stdout */
	char *tmp;		/* the named temporary being written, or NULL */
	FILE *f;
	bool unnamed;		/* f is an unnamed temporary (O_TMPFILE) */
} cli_out;

/*
 * Opens path (NULL or "-" = stdout) for writing; NULL after a message
 * "PROG: cannot open ..." on stderr.
 */
FILE *cli_out_open(cli_out *o, const char *prog, const char *path);
/*
 * Flushes and closes o: puts the temporary in place when ok and every
 * write succeeded, else removes it.  0, or -1 after "PROG: cannot write"
 * on stderr.
 */
int cli_out_close(cli_out *o, const char *prog, bool ok);

/*
 * For the library, which exports LP and MPS by path: a temporary name to
 * give it (beside path, or in $TMPDIR for "-"); the caller frees it.
 * NULL after a message.
 */
char *cli_out_tmpname(const char *prog, const char *path);
/*
 * Moves what the library wrote to tmp to path: renames it, or for "-"
 * copies it to stdout and removes it; with ok false only removes it.
 * Frees tmp.  0, or -1 after a message.
 */
int cli_out_commit(const char *prog, char *tmp, const char *path, bool ok);

/*
 * At the end of a program: flushes and closes standard output.  When that
 * fails (a full disk, a closed pipe) and status is 0, says so on stderr
 * and returns 1 (EXIT_INPUT), so lost output is never reported as success;
 * otherwise returns status.
 */
int cli_out_finish(const char *prog, int status);

/*
 * Before long work: path (NULL or "-" = stdout, always fine) can be
 * written, that is its directory exists and is writable, it is not a
 * directory, and it is not a file the program read.  0, or -1 after
 * "PROG: cannot write ..." on stderr.
 */
int cli_out_check(const char *prog, const char *path);
/* Same for a directory the program will write files into. */
int cli_out_check_dir(const char *prog, const char *dir);
/* Removes the temporaries being written; async-signal-safe. */
void cli_out_remove_temporaries(void);
/* Records a file the program read, so no output replaces it. */
void cli_out_note_input(int fd);
/* The same for a file the library will read by path. */
void cli_out_note_input_path(const char *path);

#endif
