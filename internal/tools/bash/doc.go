// Package bash is the Bash tool: it runs a command with bash and returns
// its combined output, exit code and a structured result with Claude
// Code's field names.
//
// # Persistent folder and environment
//
// Each call runs in its own bash process, started in the working folder
// and with the exported environment the previous call ended with. The
// tool appends nothing after the command: it installs an EXIT trap before
// it that writes $PWD and the exported environment, with builtins only, to
// a state file, which the tool reads once the process has exited. So `cd` and
// `export` carry over, while unexported variables, functions, aliases and
// shell options do not, and read-only calls can still run side by side.
// A call that is cancelled or times out leaves the state as it was. With
// Config.WorkDirs set, a cd out of the session's working folders lasts for
// that call only: the shell goes back to the launch folder and the result
// ends "Shell cwd was reset to <folder>", as in Claude Code.
//
// # Processes
//
// The shell runs in a session and process group of its own, without a
// controlling terminal, with stdin from /dev/null. Cancelling the call
// (interrupt, sibling failure) or hitting its timeout sends SIGTERM to
// the whole group, then SIGKILL to whatever is left after a grace period. Progress events start after about two
// seconds. With run_in_background the command becomes a task in the
// task.Registry and the call returns its id at once; TaskOutput and
// TaskStop (package taskoutput) read and stop it. A foreground command
// runs under a context of its own and registers itself as movable
// (task.Registry.AddMovable): moved by the user (Ctrl+B, the SDK's
// background_tasks), the call answers at once with the output so far and
// the process goes on as a task that gets the rest of the output; its
// timeout no longer applies and its folder and environment are not kept.
// Output past what the capture keeps in memory (its head) waits in a
// temporary file in Config.StateDir until the call ends, so that a moved
// command's task gets every byte it printed.
//
// BASH_DEFAULT_TIMEOUT_MS, BASH_MAX_TIMEOUT_MS and BASH_MAX_OUTPUT_LENGTH
// (EnvTimeouts, EnvMaxOutput) set the timeouts and the result limit as in
// Claude Code; the tool's description gives the values in force. As in
// Claude Code too, CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR
// (Config.MaintainProjectDir) sends the shell back to the project folder
// after every command, CLAUDE_CODE_SHELL_PREFIX (Config.ShellPrefix)
// wraps every command, the user's CLAUDE_ENV_FILE (Config.EnvFile) is
// sourced before every command, CLAUDE_CODE_SHELL (EnvShell) names the
// bash to use, and CLAUDE_CODE_DISABLE_BACKGROUND_TASKS
// (Config.NoBackground) turns run_in_background and moving off.
//
// A command may set its own EXIT trap: a trap function stands in for the
// builtin in a wrapped script, so the state is still saved and the
// command's action still runs. Output past what the capture keeps is
// saved whole to a file the result names (Config.OutputDir).
//
// Read-only and concurrency-safe answers come from package shell.
//
// This package must not import the engine or any front end.
package bash
