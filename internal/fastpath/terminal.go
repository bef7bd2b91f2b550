package fastpath

import "os"

// linkedMain is "true" in the reins binary that scripts/build.sh links
// (-X), whose main calls RestoreEnv before anything else; elsewhere
// (tests, a plain go build) init leaves the environment alone.
var linkedMain string

// hidden holds what init took out of the environment until RestoreEnv
// puts it back: written by init, then by RestoreEnv in main. The
// goroutines init starts (git, the prefault) take their environment
// before TMUX goes, or never read it.
var hidden struct {
	tmux string
	set  bool
}

// hideTMUX takes TMUX out of the environment while the packages
// initialise. lipgloss works out the terminal's colours when it
// initialises, and inside tmux that runs `tmux info`: 10 to 20 ms on every
// start of reins from a tmux pane whose output is the terminal, print
// runs included, for a result reins never uses (the terminal UI works
// its colours out itself, with TMUX back). Without TMUX lipgloss skips
// that step.
func hideTMUX() {
	if linkedMain != "true" {
		return
	}
	if v, ok := os.LookupEnv("TMUX"); ok {
		hidden.tmux, hidden.set = v, true
		os.Unsetenv("TMUX")
	}
}

// RestoreEnv puts back what init took out of the environment (see
// hideTMUX). The reins main calls it before anything else; it does
// nothing when nothing was taken.
func RestoreEnv() {
	if hidden.set {
		os.Setenv("TMUX", hidden.tmux)
		hidden.set = false
	}
}
