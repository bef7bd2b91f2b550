package bash

import "reins/internal/shell"

// lastCommand returns the top-level command whose status is likely the
// script's exit status: the last simple command outside substitutions.
func lastCommand(s *shell.Script) *shell.Command {
	var last *shell.Command
	for _, c := range s.Commands {
		if c.Depth == 0 && c.Program != "" {
			last = c
		}
	}
	return last
}

// interpretExit explains exit codes that do not mean failure for some
// programs (grep finding nothing, diff finding differences). It returns
// "" when the code should be treated as a failure.
func interpretExit(s *shell.Script, code int) string {
	if s == nil || code != 1 {
		return ""
	}
	c := lastCommand(s)
	if c == nil {
		return ""
	}
	name := c.Name()
	if name == "git" && len(c.Args) > 1 && c.Args[1] == "grep" {
		name = "grep"
	}
	if name == "git" && len(c.Args) > 1 && c.Args[1] == "diff" && hasArg(c.Args, "--exit-code", "--quiet") {
		name = "diff"
	}
	switch name {
	case "grep", "egrep", "fgrep", "rg", "zgrep", "ag", "ack":
		return "No matches found"
	case "diff", "cmp":
		return "Files differ"
	case "test", "[":
		return "Condition is false"
	case "find":
		return "Some folders could not be read"
	}
	return ""
}

func hasArg(args []string, names ...string) bool {
	for _, a := range args {
		for _, n := range names {
			if a == n {
				return true
			}
		}
	}
	return false
}

// noOutputExpected reports whether every top-level command is one that
// prints nothing when it succeeds (mkdir, mv, git add …), so front ends
// can show "done" rather than "no output".
func noOutputExpected(s *shell.Script) bool {
	if s == nil {
		return false
	}
	any := false
	for _, c := range s.Commands {
		if c.Depth != 0 {
			continue
		}
		if c.Program == "" && len(c.Assigns) > 0 {
			any = true
			continue
		}
		if !silentCommand(c) {
			return false
		}
		any = true
	}
	return any
}

func silentCommand(c *shell.Command) bool {
	switch c.Name() {
	case "mkdir", "rmdir", "rm", "mv", "cp", "touch", "chmod", "chown", "chgrp", "ln", "cd",
		"export", "unset", "true", ":", "pushd", "popd", "source", ".", "kill", "sleep", "wait",
		"install", "truncate":
		return true
	case "git":
		if len(c.Args) > 1 {
			switch c.Args[1] {
			case "add", "restore", "rm", "mv":
				return true
			}
		}
	}
	return false
}
