package shell

import (
	"fmt"
	"strings"
)

// IsReadOnly reports whether cmd is certain to change nothing: no file
// written, no process state left behind, no unknown program run. See
// Script.ReadOnly for the rules. An unparsable command is not read-only.
func IsReadOnly(cmd string) bool {
	s, err := Parse(cmd)
	if err != nil {
		return false
	}
	ok, _ := s.ReadOnly()
	return ok
}

// ChangesState reports whether cmd may change the working folder, the
// environment or other shell state that later commands in the same
// session would see. An unparsable command may.
func ChangesState(cmd string) bool {
	s, err := Parse(cmd)
	if err != nil {
		return true
	}
	return s.ChangesState()
}

// Name is the program name used to judge the command: Program with the
// system folders (/bin, /usr/bin, /usr/local/bin, /sbin, /usr/sbin)
// removed, so /usr/bin/git is git but ./git stays ./git.
func (c *Command) Name() string { return baseProgram(c.Program) }

// ReadOnly reports whether the script is read-only and, when it is not,
// the first reason found. A script is read-only when
//
//   - every simple command is a known reader used without a writing
//     option (see the list in readonly_cmds.go), or a state builtin such
//     as cd or export inside a subshell, where it cannot outlive the call;
//   - no redirection writes to a file (/dev/null and fd duplication are
//     fine);
//   - nothing runs in the background, defines a function, assigns through
//     an expansion or arithmetic, or runs a program named by an expansion;
//   - every command substitution, process substitution and eval or
//     `bash -c` payload holds only read-only commands.
func (s *Script) ReadOnly() (bool, string) {
	if len(s.notRO) > 0 {
		return false, s.notRO[0]
	}
	if s.Features.DynamicPayload {
		return false, "runs a payload that cannot be read statically"
	}
	for _, r := range s.Redirects {
		if r.Writes() {
			return false, fmt.Sprintf("redirects output to %s", r.Target.Raw)
		}
		if (r.Kind == RedirRead || r.Kind == RedirWrite) && !r.Target.Static {
			return false, fmt.Sprintf("redirects to a computed name %s", r.Target.Raw)
		}
		if r.Target.Static && (strings.HasPrefix(r.Target.Value, "/dev/tcp/") || strings.HasPrefix(r.Target.Value, "/dev/udp/")) {
			return false, "opens a network connection through " + r.Target.Value
		}
	}
	for _, c := range s.Commands {
		if ok, why := commandReadOnly(c); !ok {
			return false, why
		}
	}
	return true, ""
}

// ChangesState reports whether the script may change state that outlives
// it in the calling shell: the working folder (cd, pushd, popd), the
// environment and variables (export, unset, declare and friends, bare
// assignments, read, mapfile, printf -v), sourced files, aliases and
// functions. Commands in subshells are ignored, since their changes die
// with the subshell.
func (s *Script) ChangesState() bool {
	if len(s.state) > 0 {
		return true
	}
	for _, c := range s.Commands {
		if c.Subshell {
			continue
		}
		if c.DynamicProgram {
			return true // $cmd could be cd
		}
		if stateBuiltin(c) {
			return true
		}
	}
	return false
}

// stateBuiltin reports whether c is a builtin that changes the shell's
// own state.
func stateBuiltin(c *Command) bool {
	switch c.Program {
	case "cd", "pushd", "popd", "export", "unset", "source", ".", "alias", "unalias",
		"declare", "typeset", "local", "readonly", "nameref", "let", "read", "mapfile",
		"readarray", "getopts", "set", "shopt", "hash", "enable", "trap", "umask", "ulimit":
		return true
	case "printf":
		return hasOption(c.ArgWords[1:], "-v")
	case "exec":
		return true // exec alone rewires the shell's descriptors
	}
	if c.Program == "" && len(c.Wrappers) > 0 && c.Wrappers[len(c.Wrappers)-1] == "exec" {
		return true
	}
	return false
}

// dangerousEnv reports whether assigning name for one command can make a
// reader run other code or write elsewhere.
func dangerousEnv(name string) bool {
	switch name {
	case "PATH", "IFS", "ENV", "BASH_ENV", "PAGER", "GIT_PAGER", "MANPAGER", "EDITOR", "VISUAL",
		"GIT_EDITOR", "GIT_EXTERNAL_DIFF", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_EXEC_PATH",
		"GIT_ASKPASS", "SSH_ASKPASS", "GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
		"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "PROMPT_COMMAND", "PS4", "SHELLOPTS",
		"BASHOPTS", "LESSOPEN", "LESSCLOSE", "PYTHONSTARTUP", "NODE_OPTIONS", "PERL5OPT",
		"RUBYOPT", "JQ_LIBRARY_PATH":
		return true
	}
	return strings.HasPrefix(name, "LD_") || strings.HasPrefix(name, "DYLD_") ||
		strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_") ||
		strings.HasPrefix(name, "BASH_FUNC_")
}

func commandReadOnly(c *Command) (bool, string) {
	if c.Program == "" && len(c.Wrappers) == 0 {
		if c.Subshell {
			return true, "" // assignments in a child shell die with it
		}
		return false, "assigns shell variables: " + c.Text
	}
	for _, a := range c.Assigns {
		if dangerousEnv(a.Name) {
			return false, "sets " + a.Name + " for " + c.Program
		}
	}
	if c.DynamicProgram {
		return false, "runs a program named by an expansion: " + c.Program
	}
	if c.Program == "" {
		switch c.Wrappers[len(c.Wrappers)-1] {
		case "env", "nice", "time", "nohup":
			return true, "" // prints the environment or the niceness
		}
		return false, c.Wrappers[len(c.Wrappers)-1] + " without a command"
	}
	if stateBuiltin(c) {
		if c.Subshell {
			return true, ""
		}
		return false, c.Program + " changes the shell's state"
	}
	if c.Payload != "" {
		return true, "" // its commands are judged one by one
	}
	if ok := readOnlyProgram(c.Name(), c.ArgWords[1:]); !ok {
		return false, "not known to be read-only: " + c.Core
	}
	return true, ""
}

// hasOption reports whether a short option letter or long option appears
// before the first operand (or anywhere when operands may precede options).
// opt is "-x" (matched inside clusters like -nx) or "--long" (matched with
// or without =value).
func hasOption(args []Word, opts ...string) bool {
	for _, a := range args {
		v := a.Value
		if !a.Static {
			v = a.Raw
		}
		if v == "--" {
			return false
		}
		for _, o := range opts {
			switch {
			case strings.HasPrefix(o, "--"):
				if v == o || strings.HasPrefix(v, o+"=") {
					return true
				}
			case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.ContainsRune(v[1:], rune(o[1])):
				return true
			}
		}
	}
	return false
}

// strictWords reports whether every word's value is known and cannot turn
// into an option: no expansions, no patterns that may expand to a file
// name starting with a dash.
func strictWords(args []Word) bool {
	for _, a := range args {
		if !a.Static {
			return false
		}
		if a.Pattern && len(a.Value) > 0 && strings.ContainsRune("*?[{", rune(a.Value[0])) {
			return false
		}
	}
	return true
}

// operands returns the non-option words (after a "--" everything is an
// operand). valued lists options taking a separate value, space-separated
// and space-surrounded.
func operands(args []Word, valued string) []Word {
	var out []Word
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "--":
			return append(out, args[i+1:]...)
		case strings.HasPrefix(v, "--"):
			name, _, hasVal := strings.Cut(v, "=")
			if !hasVal && strings.Contains(valued, " "+name+" ") {
				i++
			}
		case strings.HasPrefix(v, "-") && v != "-":
			if len(v) == 2 && strings.Contains(valued, " "+v+" ") {
				i++
			}
		default:
			out = append(out, args[i])
		}
	}
	return out
}
