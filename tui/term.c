// SPDX-License-Identifier: MIT
#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <term.h>		/* ncurses: tputs() */
#include <termios.h>
#include <unistd.h>

#include "../model/util.h"
#include "term.h"

/*
 * What the fatal-signal handler needs, all of it prepared while curses
 * starts: a handler may only make async-signal-safe calls (tcsetattr,
 * write, sigaction, raise) and must not allocate, so the strings that
 * undo curses' changes are copied out of terminfo beforehand.
 */
static int tty_fd = -1;
static struct termios shell_modes;	/* as the shell left the terminal */
static bool has_shell_modes;
/* sgr0 cnorm rmkx rmcup: plain attributes, the cursor shown, the keypad
 * back in normal mode, the normal screen. */
static char undo[512];
static size_t undo_len;
static volatile sig_atomic_t is_owned;	/* curses has the terminal */
static bool is_started;			/* term_start() done, term_end() not */

/* The signals whose default action ends the program, less the ones
 * ncurses handles (SIGINT, SIGTERM) and those nobody can catch. */
static const int fatal_signals[] = {
	SIGHUP, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV, SIGUSR1,
	SIGUSR2, SIGPIPE, SIGALRM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGSYS,
};
static struct sigaction old_actions[ARRAY_SIZE(fatal_signals)];
static bool is_caught[ARRAY_SIZE(fatal_signals)];

/* SIGSEGV from a stack overflow finds no stack to run its handler on. */
static char alt_stack[64 * 1024];

static int add_undo_char(int c)
{
	if (undo_len < sizeof(undo))
		undo[undo_len++] = (char)c;
	return c;
}

/* Append terminfo's string capability CAP, with tputs() doing its padding
 * now rather than in the handler. */
static void add_undo(const char *cap)
{
	char *s = tigetstr(cap);

	if (s && s != (char *)-1)
		tputs(s, 1, add_undo_char);
}

static void write_all(const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(tty_fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;	/* the terminal is gone (SIGHUP): nothing to restore */
		s += w;
		n -= (size_t)w;
	}
}

static bool is_fault(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP;
}

static void on_fatal_signal(int sig, siginfo_t *info, void *context)
{
	int saved_errno = errno;

	(void)context;
	if (is_owned) {
		is_owned = 0;
		if (has_shell_modes)
			tcsetattr(tty_fd, TCSANOW, &shell_modes);
		write_all(undo, undo_len);
	}
	for (size_t i = 0; i < ARRAY_SIZE(fatal_signals); i++)
		if (fatal_signals[i] == sig)
			sigaction(sig, &old_actions[i], NULL);
	/*
	 * Die by the signal itself.  A fault (SIGSEGV, SIGBUS... raised by
	 * the kernel: si_code > 0) comes back by itself when the instruction
	 * runs again, with its own address for the core dump or a sanitizer's
	 * report.  Anything else -- kill(), raise(), the tty's Ctrl-\ -- is
	 * sent again: blocked while this handler runs, it arrives as the
	 * handler returns, to the old action.
	 */
	if (!is_fault(sig) || !info || info->si_code <= 0)
		raise(sig);
	errno = saved_errno;
}

static void catch_fatal_signals(void)
{
	stack_t ss = { .ss_sp = alt_stack, .ss_size = sizeof(alt_stack) };
	struct sigaction sa;

	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fatal_signal;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(fatal_signals); i++) {
		if (sigaction(fatal_signals[i], NULL, &old_actions[i]))
			continue;
		/* Ignored by whoever started us (nohup): leave it so. */
		if (!(old_actions[i].sa_flags & SA_SIGINFO) && old_actions[i].sa_handler == SIG_IGN)
			continue;
		is_caught[i] = sigaction(fatal_signals[i], &sa, NULL) == 0;
	}
}

static void release_fatal_signals(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(fatal_signals); i++) {
		if (is_caught[i])
			sigaction(fatal_signals[i], &old_actions[i], NULL);
		is_caught[i] = false;
	}
}

/*
 * C-s and C-q are keys (the emacs keymap's filter), not XOFF and XON.
 * def_prog_mode() makes the change part of the modes ncurses puts back
 * after Ctrl-Z and fg; endwin() puts back the shell's, flow control and
 * all.
 */
static void no_flow_control(void)
{
	struct termios t;

	if (tcgetattr(tty_fd, &t))
		return;
	t.c_iflag &= ~(tcflag_t)IXON;
	if (tcsetattr(tty_fd, TCSANOW, &t) == 0)
		def_prog_mode();
}

int term_start(void)
{
	tty_fd = fileno(stdout);
	has_shell_modes = tcgetattr(tty_fd, &shell_modes) == 0;
	if (!newterm(NULL, stdout, stdin))
		return -1;
	is_started = true;
	undo_len = 0;
	add_undo("sgr0");
	add_undo("cnorm");
	add_undo("rmkx");
	add_undo("rmcup");
	is_owned = 1;
	catch_fatal_signals();
	die_hook = term_end;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	no_flow_control();
	return 0;
}

void term_end(void)
{
	if (!is_started)
		return;
	is_started = false;
	is_owned = 0;
	if (!isendwin())
		endwin();
	release_fatal_signals();
	die_hook = NULL;
}
