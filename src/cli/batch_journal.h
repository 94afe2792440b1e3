/*
 * batch_journal.h - OUT/journal of `shardlp batch`: the rows of each
 * program done, appended by the batch as its worker answers, so that
 * --resume knows which programs are done and has their rows.  One file
 * for the whole batch: on a disk, a file created per program costs more
 * than the program when programs are tiny.
 *
 * A record is a line "ID TIME CSVLEN JSONLEN" (TIME in seconds since the
 * epoch) and then that many bytes of CSV rows and of JSON lines, written
 * in one append; a record cut short (the batch killed while writing it)
 * is dropped when the journal is read back, and a later record of a
 * program replaces an earlier one.
 */
#ifndef SL_BATCH_JOURNAL_H
#define SL_BATCH_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

typedef struct batch_journal batch_journal;

/*
 * Opens the journal at path for appending: with keep, after reading its
 * records (a cut one removed), else emptied.  NULL after a message
 * "PROG: cannot ..." on stderr.
 */
batch_journal *batch_journal_open(const char *prog, const char *path, bool keep);
/* Appends the record of the program id; 0, or -1 (errno says why). */
int batch_journal_add(batch_journal *jn, const char *id, const char *csv,
                      size_t csvlen, const char *json, size_t jsonlen);
/*
 * The latest record of id read back: its time in *when and its rows in
 * heap strings (the caller frees them).  false when it has none or it
 * cannot be read.
 */
bool batch_journal_get(batch_journal *jn, const char *id, time_t *when,
                       char **csv, size_t *csvlen, char **json, size_t *jsonlen);
void batch_journal_close(batch_journal *jn);

#endif
