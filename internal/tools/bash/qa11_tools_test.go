package bash

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"reins/internal/task"
)

// A command that sets its own EXIT trap still has its folder and
// environment carried over to the next call, and its trap still runs,
// with the command's exit status in $? and able to change the status.
func TestUserExitTrapRunsAndStateIsStillKept(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	b := newTool(t, Config{Cwd: root})
	steps := []struct{ cmd, want string }{
		{`trap 'echo "bye $?"' EXIT; cd sub; export TRAPPED=yes; false`, "Exit code 1\nbye 1"},
		{`pwd; echo "$TRAPPED"`, sub + "\nyes"},
		{`trap 'echo gone' 0; cd ..; trap - EXIT`, ""},
		{`pwd`, root},
		{`trap 'echo one' exit; trap 'echo two' EXIT INT; export N=2; trap -p EXIT`, "trap -- 'echo two' EXIT\ntwo"},
		{`echo $N`, "2"},
		{`trap 'exit 7' EXIT; cd sub`, "Exit code 7"},
		{`pwd`, sub},
		{`trap "echo it\'s" EXIT; (trap 'echo inner' EXIT; cd /); cd ..`, "inner\nit's"},
		{`pwd`, root},
		{`trap '' EXIT; cd sub; trap`, "trap -- '' EXIT"},
		{`pwd`, sub},
		{`trap 'echo x' BOGUS; cd ..`, "…invalid signal specification"},
		{`pwd`, root},
		{`trap 'echo a' INT; trap 'echo b' EXIT; cd sub; trap`, "trap -- 'echo b' EXIT\ntrap -- 'echo a' SIGINT\nb"},
		{`set -e; trap 'echo "e $?"' EXIT; cd ..; false`, "Exit code 1\ne 1"},
		{`pwd`, root},
		{`set -u; trap 'echo u' EXIT; cd sub; trap -- - EXIT; trap`, ""},
		{`pwd`, sub},
	}
	for _, s := range steps {
		res, err := run(t, b, s.cmd)
		if err != nil {
			t.Fatalf("%s: %v", s.cmd, err)
		}
		got := text(res)
		if part, ok := strings.CutPrefix(s.want, "…"); ok && strings.Contains(got, part) {
			continue
		}
		if got != s.want {
			t.Errorf("%s: output %q, want %q", s.cmd, got, s.want)
		}
	}
}

// A command that prints more than the capture keeps in memory has all of
// its output saved to a file; before, the middle of the output was lost,
// even from the file a long result is saved to. A result too long for the
// model becomes the notice of that file, with a preview of its start and
// the exit code first; one that fits keeps its head and tail, the note on
// the left-out middle naming the file. Output that fits the capture is
// returned as it is and saves nothing.
func TestLongOutputIsSavedWhole(t *testing.T) {
	var want strings.Builder
	for i := 1; i <= 3000; i++ {
		want.WriteString(strconv.Itoa(i) + "\n")
	}
	saved := func(t *testing.T, dir, result string) {
		t.Helper()
		files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
		if len(files) != 1 || !strings.Contains(result, files[0]) {
			t.Fatalf("saved files %v, result %.300q", files, result)
		}
		if b, _ := os.ReadFile(files[0]); string(b) != want.String() {
			t.Errorf("saved file has %d bytes, want all %d bytes of output; starts %.100q", len(b), want.Len(), b)
		}
	}

	outDir := t.TempDir()
	b := newTool(t, Config{CaptureBytes: 1000, MaxResultChars: 500, OutputDir: outDir})
	res, err := run(t, b, "seq 1 3000; exit 3")
	if err != nil {
		t.Fatal(err)
	}
	got := text(res)
	if !strings.HasPrefix(got, "Exit code 3\n<persisted-output>\nOutput too large") || !res.IsError {
		t.Fatalf("result = %.300q, want the exit code, then the saved-output notice", got)
	}
	saved(t, outDir, got)
	if !strings.Contains(got, "Preview (first") || !strings.Contains(got, "\n1\n2\n3\n") || strings.Contains(got, "omitted") {
		t.Errorf("result has no preview of the start of the output: %.300q", got)
	}

	outDir = t.TempDir()
	b = newTool(t, Config{CaptureBytes: 1000, OutputDir: outDir})
	if res, err = run(t, b, "seq 1 3000"); err != nil {
		t.Fatal(err)
	}
	got = text(res)
	if !strings.HasPrefix(got, "1\n2\n") || !strings.HasSuffix(got, "\n3000") || !strings.Contains(got, "bytes of output omitted here; all 13893 bytes are saved in "+outDir) {
		t.Errorf("result = %q, want head and tail and a note naming the saved file", got)
	}
	saved(t, outDir, got)

	if res, err = run(t, b, "seq 1 100"); err != nil {
		t.Fatal(err)
	}
	if got := text(res); !strings.HasPrefix(got, "1\n2\n") || strings.Contains(got, "saved") {
		t.Errorf("short output = %.100q, want it as it is", got)
	}
	if files, _ := filepath.Glob(filepath.Join(outDir, "*.txt")); len(files) != 1 {
		t.Errorf("saved files after a short output: %v", files)
	}
}

// With CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR set, the shell goes back
// to the project folder after every command, without a note, while
// exported variables still carry over; the description says so.
func TestMaintainProjectDirSendsTheShellBackAfterEachCommand(t *testing.T) {
	if !EnvMaintainProjectDir(envMap{MaintainProjectDirEnv: "1"}.get) || !EnvMaintainProjectDir(envMap{MaintainProjectDirEnv: "True"}.get) ||
		EnvMaintainProjectDir(envMap{MaintainProjectDirEnv: "0"}.get) || EnvMaintainProjectDir(envMap{}.get) {
		t.Fatal("EnvMaintainProjectDir does not read 1/true as on and 0/unset as off")
	}
	root := t.TempDir()
	sub := filepath.Join(root, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	moved := 0
	b := newTool(t, Config{Cwd: root, MaintainProjectDir: true, WorkDirs: func() []string { return []string{root} },
		OnCwd: func(context.Context, string) { moved++ }})
	for _, s := range []struct{ cmd, want string }{
		{"cd sub && export KEPT=yes && pwd", sub},
		{`pwd; echo "$KEPT"`, root + "\nyes"},
		{"cd / && pwd", "/"},
		{"pwd", root},
	} {
		res, err := run(t, b, s.cmd)
		if err != nil {
			t.Fatalf("%s: %v", s.cmd, err)
		}
		if got := text(res); got != s.want {
			t.Errorf("%s: output %q, want %q", s.cmd, got, s.want)
		}
	}
	if moved != 0 || b.Cwd() != root {
		t.Errorf("OnCwd called %d times, Cwd() = %q; want the shell kept in %s", moved, b.Cwd(), root)
	}
	if d := b.Description(); !strings.Contains(d, "`cd` does not") || !strings.Contains(d, root) || strings.Contains(d, "{state}") {
		t.Errorf("description does not say cd is undone:\n%s", d)
	}
	if d := newTool(t, Config{}).Description(); !strings.Contains(d, "`cd` and `export` carry over") {
		t.Errorf("default description lost the state line:\n%s", d)
	}
}

// CLAUDE_CODE_SHELL_PREFIX wraps every command, foreground and
// background: the wrapper gets the whole script as $1 and runs it with
// bash -c, and cd and export still carry over through it.
func TestShellPrefixWrapsEveryCommand(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	logf := filepath.Join(t.TempDir(), "audit.log")
	wrapper := filepath.Join(t.TempDir(), "audit.sh")
	if err := os.WriteFile(wrapper, []byte("#!/bin/bash\nprintf '%s\\n---\\n' \"$1\" >> "+shellQuote(logf)+"\nexec bash -c \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	reg := &task.Registry{Dir: t.TempDir()}
	defer closeTasks(t, reg)
	b := newTool(t, Config{Cwd: root, ShellPrefix: wrapper, Tasks: reg})
	for _, s := range []struct{ cmd, want string }{
		{"cd sub && export VIA=wrapper", ""},
		{`pwd; echo "$VIA"; echo 'quoted $HOME'`, sub + "\nwrapper\nquoted $HOME"},
		{"exit 5", "Exit code 5"},
	} {
		res, err := run(t, b, s.cmd)
		if err != nil {
			t.Fatalf("%s: %v", s.cmd, err)
		}
		if got := text(res); got != s.want {
			t.Errorf("%s: output %q, want %q", s.cmd, got, s.want)
		}
	}
	res, err := run(t, b, "echo from-background", "run_in_background", true)
	if err != nil {
		t.Fatal(err)
	}
	tk, _ := reg.Get(res.Data.(*Data).BackgroundTaskID)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := tk.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	log, _ := os.ReadFile(logf)
	for _, want := range []string{"cd sub && export VIA=wrapper", "echo 'quoted $HOME'", "exit 5", "echo from-background"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("the wrapper did not see %q; its log:\n%s", want, log)
		}
	}
}

// CLAUDE_ENV_FILE, a script of the user's, is sourced before every
// command, its output discarded: its exports reach each command, a folder
// it prepends to PATH each time does not pile up however many commands
// carry the environment over, and bash's line numbers still match the
// command. A missing file is skipped.
func TestEnvFileIsSourcedBeforeEveryCommand(t *testing.T) {
	envFile := filepath.Join(t.TempDir(), "env.sh")
	if err := os.WriteFile(envFile, []byte("export VENV_ON=1\nexport PATH=/opt/venv/bin:$PATH\necho noisy\necho noisier >&2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := newTool(t, Config{EnvFile: envFile})
	for _, s := range []struct{ cmd, want string }{
		{`echo "$VENV_ON"`, "1"},
		{"export A=1", ""},
		{"export B=2", ""},
		// Once in the PATH carried over, once more from this command's
		// sourcing: not once per command that carried PATH over.
		{`echo "$PATH" | tr : '\n' | grep -c '^/opt/venv/bin$'; echo "$A$B"`, "2\n12"},
		{"echo $LINENO; fi", "…line 1: syntax error near unexpected token `fi'"},
	} {
		res, err := run(t, b, s.cmd)
		if err != nil {
			t.Fatalf("%s: %v", s.cmd, err)
		}
		got := text(res)
		if part, ok := strings.CutPrefix(s.want, "…"); ok && strings.Contains(got, part) {
			continue
		}
		if got != s.want {
			t.Errorf("%s: output %q, want %q", s.cmd, got, s.want)
		}
	}
	res, err := run(t, newTool(t, Config{EnvFile: filepath.Join(t.TempDir(), "missing.sh")}), "echo ok")
	if err != nil || text(res) != "ok" {
		t.Errorf("with a missing env file: %v, %q", err, text(res))
	}
}

// CLAUDE_CODE_SHELL names the bash to run commands with; a zsh (which
// Claude Code also takes) or a path that is no executable is ignored with
// a warning, and commands run with the usual bash.
func TestEnvShellTakesABashPath(t *testing.T) {
	dir := t.TempDir()
	myBash := filepath.Join(dir, "bash-5")
	if err := os.WriteFile(myBash, []byte("#!/bin/sh\necho custom-shell\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	zsh := filepath.Join(dir, "zsh")
	if err := os.WriteFile(zsh, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if p, w := EnvShell(envMap{}.get); p != "" || len(w) != 0 {
		t.Errorf("unset: %q, %v", p, w)
	}
	if p, w := EnvShell(envMap{ShellEnv: myBash}.get); p != myBash || len(w) != 0 {
		t.Errorf("a bash path: %q, %v", p, w)
	}
	for _, bad := range []string{zsh, filepath.Join(dir, "missing"), dir} {
		if p, w := EnvShell(envMap{ShellEnv: bad}.get); p != "" || len(w) != 1 || !strings.Contains(w[0], bad) {
			t.Errorf("%s: %q, %v; want it ignored with a warning naming it", bad, p, w)
		}
	}
	p, _ := EnvShell(envMap{ShellEnv: myBash}.get)
	res, err := run(t, newTool(t, Config{Shell: p}), "echo ignored")
	if err != nil || text(res) != "custom-shell" {
		t.Errorf("command run with the named shell: %v, %q", err, text(res))
	}
}

// CLAUDE_CODE_DISABLE_BACKGROUND_TASKS turns background tasks off: the
// schema has no run_in_background, a call that asks for it is refused,
// the description says commands run in the foreground, and a running
// command cannot be moved to the background.
func TestNoBackgroundTurnsBackgroundTasksOff(t *testing.T) {
	if !EnvNoBackground(envMap{NoBackgroundEnv: "1"}.get) || EnvNoBackground(envMap{NoBackgroundEnv: "0"}.get) || EnvNoBackground(envMap{}.get) {
		t.Fatal("EnvNoBackground does not read 1 as on and 0/unset as off")
	}
	reg := &task.Registry{Dir: t.TempDir()}
	defer closeTasks(t, reg)
	b := newTool(t, Config{Tasks: reg, NoBackground: true})
	if strings.Contains(string(b.InputSchema()), "run_in_background") || !strings.Contains(string(b.InputSchema()), `"command"`) {
		t.Errorf("schema = %s", b.InputSchema())
	}
	if strings.Contains(b.Description(), "set run_in_background") || !strings.Contains(b.Description(), "Background tasks are turned off") {
		t.Errorf("description still offers run_in_background:\n%s", b.Description())
	}
	if _, err := run(t, b, "echo x", "run_in_background", true); err == nil || !strings.Contains(err.Error(), "turned off") {
		t.Errorf("run_in_background: %v, want it refused", err)
	}
	dir := b.Cwd()
	done := startCall(t, b, "toolu_fg", "touch started; while [ ! -e go ]; do sleep 0.02; done; echo finished")
	waitFor(t, "the command to start", exists(filepath.Join(dir, "started")))
	if reg.CanBackground("toolu_fg") || reg.Background("toolu_fg") {
		t.Error("a running command could be moved to the background")
	}
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if d := <-done; d.err != nil || text(d.res) != "finished" {
		t.Errorf("foreground command: %v, %q", d.err, text(d.res))
	}
	if n := len(reg.List()); n != 0 {
		t.Errorf("%d tasks with background tasks turned off", n)
	}
	if s := string(newTool(t, Config{}).InputSchema()); !strings.Contains(s, "run_in_background") {
		t.Errorf("default schema lost run_in_background: %s", s)
	}
}
