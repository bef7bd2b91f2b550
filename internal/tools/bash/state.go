package bash

import (
	"bytes"
	"os"
	"strings"

	"reins/internal/shell"
)

// exitHook is the name of the shell function the EXIT trap calls.
const exitHook = "__reins_save_state"

// shellQuote quotes s for bash as one word.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// wrapScript prefixes command with an EXIT trap that writes $PWD and,
// after an "ENV" marker, the exported variables (NUL-separated) to
// statePath, keeping the exit status. It uses builtins only, so saving
// costs no extra process: compgen -e writes the exported names to the
// state file, mapfile reads them back, and the file is then rewritten with
// the state. (A $(compgen -e) substitution would fork a subshell, which
// costs more than the rest of the trap; bash 3, without mapfile, still
// takes that path.) The trap and the command share the first line, so line
// numbers in bash's error messages match the command.
//
// A command may set an EXIT trap of its own, which would replace the one
// that saves the state. So the script also defines a trap function that
// keeps the command's EXIT action aside (userTrap) and hands every other
// signal to the builtin: the state is saved first, then the command's
// action runs as bash would run it, with the command's status in $? and
// free to exit with another. trap -p and a bare trap show the command's
// EXIT action in place of the hook. Subshells, whose EXIT traps bash
// keeps apart, use the builtin directly.
func wrapScript(command, statePath string) string {
	f := shellQuote(statePath)
	return exitHook + "() { __reins_rc=$?; local __reins_n __reins_env=1; local -a __reins_names=(); " +
		"if builtin compgen -e > " + f + " 2>/dev/null && builtin mapfile -t __reins_names < " + f + " 2>/dev/null; then :; " +
		"elif __reins_n=$(builtin compgen -e 2>/dev/null); then local IFS=$'\\n'; __reins_names=($__reins_n); builtin unset IFS; " +
		"else __reins_env=; fi; " +
		"{ builtin printf '%s\\0' \"$PWD\"; " +
		"if [[ -n \"$__reins_env\" ]]; then builtin printf 'ENV\\0'; " +
		"for __reins_n in \"${__reins_names[@]}\"; do builtin printf '%s=%s\\0' \"$__reins_n\" \"${!__reins_n}\"; done; fi; " +
		"} > " + f + " 2>/dev/null; " +
		"if [[ -n \"${" + userTrapSet + "-}\" ]]; then " + statusHook + " \"$__reins_rc\" && :; builtin eval \"${" + userTrap + "-}\"; fi; " +
		"exit \"$__reins_rc\"; }; " +
		statusHook + "() { return \"$1\"; }; " +
		trapFunction + "builtin trap " + exitHook + " EXIT; " + command
}

// Names the wrapped script uses for the command's own EXIT trap: the
// action, whether one is set, and a function that sets $? before it runs.
const (
	userTrap    = "__reins_user_exit"
	userTrapSet = "__reins_user_exit_set"
	statusHook  = "__reins_status"
)

// trapFunction is the shell function that stands in for the trap builtin
// in a wrapped script (see wrapScript). It follows the builtin's rules: a
// lone operand, a first operand of digits (a signal number) or "-" resets
// the signals; an empty action ignores them; EXIT may be written 0 or in
// any case. In a subshell ($BASHPID differs from $$) it only passes on.
const trapFunction = `trap() { ` +
	`local __reins_a __reins_act __reins_out __reins_line= __reins_rc=0; local -a __reins_sigs=(); ` +
	`local __reins_hook="trap -- '` + exitHook + `' EXIT" __reins_nl=$'\n'; ` +
	`if [[ "${1-}" == -p || $# -eq 0 ]]; then ` +
	`__reins_out=$(builtin trap "$@"); __reins_rc=$?; ` +
	`if [[ -n "${` + userTrapSet + `-}" ]]; then __reins_line=${` + userTrap + `-}; __reins_line=${__reins_line//\'/\'\\\'\'}; __reins_line="trap -- '$__reins_line' EXIT"; fi; ` +
	`case "$__reins_out" in ` +
	`"$__reins_hook") __reins_out=$__reins_line ;; ` +
	`"$__reins_hook$__reins_nl"*) __reins_out=${__reins_out#"$__reins_hook$__reins_nl"}; __reins_out=${__reins_line:+$__reins_line$__reins_nl}$__reins_out ;; ` +
	`*"$__reins_nl$__reins_hook") __reins_out=${__reins_out%"$__reins_nl$__reins_hook"}${__reins_line:+$__reins_nl$__reins_line} ;; ` +
	`*"$__reins_nl$__reins_hook$__reins_nl"*) __reins_out=${__reins_out/"$__reins_nl$__reins_hook$__reins_nl"/$__reins_nl${__reins_line:+$__reins_line$__reins_nl}} ;; ` +
	`esac; ` +
	`if [[ -n "$__reins_out" ]]; then builtin printf '%s\n' "$__reins_out"; fi; return "$__reins_rc"; fi; ` +
	`if [[ "${1-}" == -* && "${1-}" != - && "${1-}" != -- ]] || [[ -n "${BASHPID-}" && "${BASHPID-}" != "$$" ]]; then builtin trap "$@"; return; fi; ` +
	`if [[ "${1-}" == -- ]]; then shift; fi; ` +
	`if [[ $# -le 1 || "$1" =~ ^[0-9]+$ ]]; then __reins_act=-; else __reins_act=$1; shift; fi; ` +
	`for __reins_a in "$@"; do case "$__reins_a" in ` +
	`0|[Ee][Xx][Ii][Tt]) if [[ "$__reins_act" == - ]]; then ` + userTrapSet + `=; ` + userTrap + `=; else ` + userTrapSet + `=1; ` + userTrap + `=$__reins_act; fi ;; ` +
	`*) __reins_sigs+=("$__reins_a") ;; ` +
	`esac; done; ` +
	`if [[ ${#__reins_sigs[@]} -gt 0 ]]; then builtin trap -- "$__reins_act" "${__reins_sigs[@]}"; fi; }; `

// needsState reports whether a command may leave its shell in a state
// the next call has to start from: another working folder, or changed
// exported variables. Only such commands run under wrapScript's EXIT
// trap. The rest (git status, go test, grep …, most of what the model
// runs) run exactly as written, which spares the trap's work and lets
// bash exec a lone command in place of forking it: on a slow machine that
// is a process start per call. A script that did not parse (nil) may do
// anything, as may eval of a computed string.
func needsState(script *shell.Script) bool {
	return script == nil || script.ChangesState() || script.Features.DynamicPayload
}

// shellState is what a finished command left behind.
type shellState struct {
	cwd    string
	env    []string
	hasEnv bool
}

// readState reads and removes the state file. ok is false when the trap
// did not run (the shell was killed) or the file is unreadable.
func readState(path string) (shellState, bool) {
	b, err := os.ReadFile(path)
	os.Remove(path)
	if err != nil || len(b) == 0 {
		return shellState{}, false
	}
	parts := bytes.Split(b, []byte{0})
	st := shellState{cwd: string(parts[0])}
	if st.cwd == "" || !strings.HasPrefix(st.cwd, "/") {
		return shellState{}, false
	}
	if len(parts) > 1 && string(parts[1]) == "ENV" {
		st.hasEnv = true
		for _, p := range parts[2:] {
			if kv := string(p); strings.Contains(kv, "=") {
				st.env = append(st.env, kv)
			}
		}
	}
	return st, true
}

// Limits on the environment a command is started with. Linux refuses to
// start a program (E2BIG) when one variable is over 128 KB or all of them
// and the arguments are over ARG_MAX (2 MB at least); one exported
// variable past that would fail every later command of the session.
const (
	maxEnvEntry = 128<<10 - 1 // bytes of one NAME=value
	maxEnvTotal = 1 << 20     // bytes of all of them
)

// nextEnv builds the environment for the next call from the captured one:
// bash's own bookkeeping (_ and an incremented SHLVL) is dropped, the
// previous SHLVL kept, and folders repeated in PATH kept once. Variables too long to pass to a program are left
// out (the longest first, until the rest fit) and named in dropped.
func nextEnv(captured, prev []string) (env, dropped []string) {
	out := make([]string, 0, len(captured))
	total := 0
	for _, kv := range captured {
		name, _, _ := strings.Cut(kv, "=")
		if name == "_" || name == "SHLVL" || name == "PWD" {
			continue
		}
		if len(kv) > maxEnvEntry {
			dropped = append(dropped, name)
			continue
		}
		if name == "PATH" {
			// A script sourced before every command (CLAUDE_ENV_FILE, a
			// virtualenv's activate) prepends its folder each time: keep
			// each folder once, where it first appears, which changes no
			// lookup.
			kv = "PATH=" + dedupeList(kv[len("PATH="):])
		}
		out = append(out, kv)
		total += len(kv) + 1
	}
	for total > maxEnvTotal {
		longest := 0
		for i := range out {
			if len(out[i]) > len(out[longest]) {
				longest = i
			}
		}
		name, _, _ := strings.Cut(out[longest], "=")
		dropped = append(dropped, name)
		total -= len(out[longest]) + 1
		out = append(out[:longest], out[longest+1:]...)
	}
	for _, kv := range prev {
		if strings.HasPrefix(kv, "SHLVL=") {
			out = append(out, kv)
		}
	}
	return out, dropped
}

// withPWD returns env with PWD set to dir.
func withPWD(env []string, dir string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PWD=") {
			out = append(out, kv)
		}
	}
	return append(out, "PWD="+dir)
}

// setDefault adds name=value to env unless name is set.
func setDefault(env []string, name, value string) []string {
	for _, kv := range env {
		if strings.HasPrefix(kv, name+"=") {
			return env
		}
	}
	return append(env, name+"="+value)
}

// dedupeList drops the repeats from a colon-separated list, keeping each
// entry where it first appears.
func dedupeList(list string) string {
	parts := strings.Split(list, ":")
	seen := make(map[string]bool, len(parts))
	out := parts[:0]
	for _, p := range parts {
		if seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	return strings.Join(out, ":")
}
