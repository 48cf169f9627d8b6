/* SPDX-License-Identifier: MIT */
/*
 * term: proftui's hold on the terminal, and giving it back whatever ends
 * the program.  term_start() hands the terminal to curses, and term_end()
 * (also die()'s hook) gives it back as the shell had it.  Between them:
 *
 *   - SIGINT, SIGTERM, SIGTSTP/SIGCONT and SIGWINCH stay with ncurses,
 *     which restores the terminal on the first two, and suspends,
 *     resumes and resizes on the others;
 *   - every other signal that ends a program (SIGHUP when the SSH link
 *     drops, SIGQUIT from Ctrl-\, SIGSEGV, SIGABRT...) first puts the
 *     terminal back -- its modes, the normal screen, the cursor -- then
 *     ends the program by the same signal, so exit statuses and core
 *     dumps are what they would have been.  Signals the caller ignores
 *     (nohup's SIGHUP) stay ignored;
 *   - flow control (IXON) is off, so C-s and C-q reach the keymap instead
 *     of freezing the screen; it stays off across Ctrl-Z and fg.
 */
#ifndef TUI_TERM_H
#define TUI_TERM_H

/* Start curses on stdin/stdout in the modes the UI wants.  Returns 0, or
 * -1 when curses cannot use this terminal (nothing changed then). */
int term_start(void);
/* Give the terminal back (endwin(): the shell's modes, the normal screen)
 * and the signals to their old handlers.  Does nothing if not started;
 * safe to call twice. */
void term_end(void);

#endif
