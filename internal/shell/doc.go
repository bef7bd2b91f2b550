// Package shell analyses bash command lines without running them. It owns
// the static view of a command that the Bash tool (is this call read-only,
// may it run beside others, does it change the working folder or the
// environment) and the permission system (does every part of a compound
// command match an allow rule, does any part match a deny rule) both need.
//
// It parses with mvdan.cc/sh/v3/syntax in bash mode. It never executes,
// expands or evaluates anything: variable values, globs and command
// substitutions are reported, not resolved.
//
// # Parsing
//
// Parse returns a *Script. Script.Commands lists every simple command in
// the source, in source order, wherever it sits: in a list joined by ;, &&,
// || or newlines, in a pipeline (| and |&), in the background (&), inside
// ( ) subshells and { } groups, in if/while/until/for/case bodies and
// conditions, in function bodies, inside $( ) and backquote command
// substitutions, inside <( ) and >( ) process substitutions, and inside the
// static payloads of eval and of `bash -c`/`sh -c` (parsed recursively, a
// few levels deep). A permission matcher iterates them:
//
//	s, err := shell.Parse(cmd)
//	if err != nil {
//		return ask // unparsable: never allow
//	}
//	for _, c := range s.Commands {
//		// c.Program is the program after leading VAR=value assignments and
//		// transparent wrappers (timeout, nice, env, nohup, time, stdbuf,
//		// command, builtin, exec) were looked through; c.Args is its argv;
//		// c.Core is its source text from the program on, quoting kept;
//		// c.Text is the whole simple command as written.
//	}
//	if s.Features.Dynamic() {
//		// substitutions, eval or a shell payload could not be proved safe
//	}
//
// Each Command carries its words with a Static flag (no expansion other
// than quote removal), its redirections classified (file read, file
// write, /dev/null, fd duplication, heredoc, here-string), its leading
// assignments, the wrappers that were looked through, where it sits
// (Origin, Depth) and whether it runs in a subshell, so that state changes
// such as `(cd x && ls)` can be told apart from `cd x && ls`.
//
// Script.Features summarises the constructs that make a static reading
// incomplete: command and process substitution, parameter expansion in
// command position, eval and shell payloads, heredocs, background jobs,
// function definitions.
//
// # Judgements
//
// IsReadOnly reports whether a command line is certain to change nothing
// on disk or in the persistent shell state: every simple command must be a
// known reader (ls, cat, grep, git status, find without -exec or -delete,
// …) used without a writing option, with no output redirection to a file,
// no state-changing builtin outside a subshell, and no substitution whose
// content is not itself read-only. Anything it cannot prove is not
// read-only. ChangesState reports whether a command line may change the
// working folder, the environment or shell options for later commands
// (cd, pushd, popd, export, unset, source, declare, bare assignments …).
// An unparsable command is not read-only and may change state.
//
// This package must not run processes, read files, or import any other
// reins package.
package shell
