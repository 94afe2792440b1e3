/*
 * cli_watchdog.h - the hard end of a time limit.  The solver stops itself
 * at the deadline, but parsing, greedy propagation and model building do
 * not look at the clock; the watchdog ends the process when a run goes
 * well past its limit, so an unattended batch never hangs on one file.
 */
#ifndef SL_CLI_WATCHDOG_H
#define SL_CLI_WATCHDOG_H

/*
 * Arms (or re-arms, for the next file) the watchdog for a run of what
 * (a file name, kept by pointer) under a limit of seconds; <= 0 disarms
 * it.  At limit + max(5 s, limit) the process says on stderr
 * "PROG: WHAT: stopped: the time limit of S s was exceeded by G s",
 * removes its temporary outputs (the old files stay) and exits with 3
 * (EXIT_SOLVER).
 */
void cli_watchdog_arm(const char *prog, const char *what, double seconds);

#endif
