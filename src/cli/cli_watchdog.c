/*
 * cli_watchdog.c - ends a run that overshoots its time limit by far:
 * a real-time interval timer and a SIGALRM handler that only uses
 * async-signal-safe calls (write, unlink, _exit).
 */
#include "cli_watchdog.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_out.h"

/* The message, made when armed: the handler cannot format. */
static char message[512];
static size_t message_len;

static void
on_alarm(int sig)
{
	(void)sig;
	if (message_len && write(STDERR_FILENO, message, message_len) < 0)
		message_len = 0;
	cli_out_remove_temporaries();
	_exit(EXIT_SOLVER);
}

void
cli_watchdog_arm(const char *prog, const char *what, double seconds)
{
	struct itimerval it;
	memset(&it, 0, sizeof it);
	if (seconds > 0 && isfinite(seconds)) {
		double grace = fmax(5, seconds), at = fmin(seconds + grace, 1e8);
		/* (on a terminal, over a progress line: cli_progress) */
		int n = snprintf(message, sizeof message, "%s%s: %s: stopped: the "
		                 "time limit of %g s was exceeded by %g s\n",
		                 isatty(STDERR_FILENO) ? "\r\033[K" : "", prog, what,
		                 seconds, grace);
		message_len = n > 0 ? fmin((size_t)n, sizeof message - 1) : 0;
		it.it_value.tv_sec = (time_t)at;
		it.it_value.tv_usec = (suseconds_t)((at - floor(at)) * 1e6);
		signal(SIGALRM, on_alarm);
	}
	setitimer(ITIMER_REAL, &it, NULL);
}
