package bash

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"reins/internal/shell"
	"reins/internal/task"
	"reins/internal/tool"
)

func newTool(t *testing.T, cfg Config) *Tool {
	t.Helper()
	if cfg.Cwd == "" {
		cfg.Cwd = t.TempDir()
	}
	if cfg.Env == nil {
		cfg.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + cfg.Cwd, "LC_ALL=C"}
	}
	if cfg.StateDir == "" {
		cfg.StateDir = t.TempDir()
	}
	return New(cfg)
}

func input(t *testing.T, v map[string]any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func run(t *testing.T, b *Tool, cmd string, extra ...any) (*tool.Result, error) {
	t.Helper()
	in := map[string]any{"command": cmd}
	for i := 0; i+1 < len(extra); i += 2 {
		in[extra[i].(string)] = extra[i+1]
	}
	return b.Call(context.Background(), &tool.Call{ID: "t"}, input(t, in), nil)
}

func text(r *tool.Result) string {
	if r == nil || len(r.Content) == 0 {
		return ""
	}
	return r.Content[0].Text
}

func TestCallResults(t *testing.T) {
	b := newTool(t, Config{})
	tests := []struct {
		name    string
		cmd     string
		text    string
		isErr   bool
		data    Data
		contain bool
	}{
		{"stdout", "echo hello", "hello", false, Data{Stdout: "hello\n"}, false},
		{"stderr joins stdout", "echo out; echo err >&2", "out\nerr", false, Data{Stdout: "out\nerr\n"}, false},
		{"exit code reported", "echo partial; exit 3", "Exit code 3\npartial", true, Data{Stdout: "partial\n"}, false},
		{"failure without output", "false", "Exit code 1", true, Data{}, false},
		{"grep without match is not an error", "printf 'a\\n' | grep zzz", "No matches found", false, Data{ReturnCodeInterpretation: "No matches found"}, false},
		{"diff that differs", "printf 'a\\n' > x; printf 'b\\n' > y; diff x y", "1c1", false, Data{ReturnCodeInterpretation: "Files differ"}, true},
		{"no output", "true", "", false, Data{NoOutputExpected: true}, false},
		{"silent command", "mkdir -p a/b", "", false, Data{NoOutputExpected: true}, false},
		{"syntax error", "echo 'open", "unexpected EOF", true, Data{}, true},
		{"stdin is empty", "cat", "", false, Data{}, false},
		{"killed by a signal", "kill -9 $$", "Exit code 137", true, Data{NoOutputExpected: true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := run(t, b, tt.cmd)
			if err != nil {
				t.Fatalf("Call: %v", err)
			}
			got := text(res)
			if tt.contain && !strings.Contains(got, tt.text) || !tt.contain && got != tt.text {
				t.Errorf("text = %q, want %q", got, tt.text)
			}
			if res.IsError != tt.isErr {
				t.Errorf("IsError = %v, want %v", res.IsError, tt.isErr)
			}
			d := res.Data.(*Data)
			if !tt.contain && (d.Stdout != tt.data.Stdout || d.Stderr != tt.data.Stderr) {
				t.Errorf("stdout/stderr = %q/%q, want %q/%q", d.Stdout, d.Stderr, tt.data.Stdout, tt.data.Stderr)
			}
			if d.NoOutputExpected != tt.data.NoOutputExpected || d.ReturnCodeInterpretation != tt.data.ReturnCodeInterpretation || d.Interrupted {
				t.Errorf("data = %+v, want %+v", *d, tt.data)
			}
		})
	}
}

func TestValidateErrorsNameTheField(t *testing.T) {
	b := newTool(t, Config{})
	tests := []struct {
		in   map[string]any
		want string
	}{
		{map[string]any{"command": "  "}, "command is empty"},
		{map[string]any{"command": "ls", "timeout": 600001}, "timeout must be between 1 and 600000"},
		{map[string]any{"command": "ls", "timeout": 0}, "timeout must be"},
		{map[string]any{"command": "ls", "timeout": -5}, "timeout must be"},
		{map[string]any{"command": "ls", "run_in_background": true}, "run_in_background is not available"},
	}
	for _, tt := range tests {
		err := b.Validate(context.Background(), &tool.Call{}, input(t, tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Validate(%v) = %v, want %q", tt.in, err, tt.want)
		}
		if _, err := b.Call(context.Background(), &tool.Call{}, input(t, tt.in), nil); err == nil {
			t.Errorf("Call(%v) ran despite invalid input", tt.in)
		}
	}
	if err := b.Validate(context.Background(), &tool.Call{}, input(t, map[string]any{"command": "ls", "timeout": 600000})); err != nil {
		t.Errorf("timeout at the maximum rejected: %v", err)
	}
}

func TestSchemaHasClaudeCodeFields(t *testing.T) {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(New(Config{}).InputSchema(), &s); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"command", "timeout", "description", "run_in_background", "dangerouslyDisableSandbox"} {
		if _, ok := s.Properties[f]; !ok {
			t.Errorf("schema lacks %q", f)
		}
	}
	if len(s.Required) != 1 || s.Required[0] != "command" {
		t.Errorf("required = %v", s.Required)
	}
	var sch tool.Schemas
	if err := sch.Validate(New(Config{}).InputSchema(), json.RawMessage(`{"command":"ls","timeout":1000}`)); err != nil {
		t.Errorf("valid input rejected by the schema: %v", err)
	}
}

func TestFolderAndEnvironmentPersist(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "sub dir")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	var seen []string
	var mu sync.Mutex
	b := newTool(t, Config{Cwd: root, OnCwd: func(_ context.Context, d string) { mu.Lock(); seen = append(seen, d); mu.Unlock() }})
	steps := []struct {
		cmd, want string
	}{
		{`cd "sub dir"`, ""},
		{"pwd", sub},
		{"export GREETING='hi there' && NOT_EXPORTED=1", ""},
		{`echo "$GREETING/${NOT_EXPORTED:-unset}"`, "hi there/unset"},
		{"unset GREETING", ""},
		{`echo "${GREETING:-gone}"`, "gone"},
		{"(cd /; export SUBSHELL=1)", ""},
		{`pwd; echo "${SUBSHELL:-none}"`, sub + "\nnone"},
		{"cd .. && exit 4", "Exit code 4"},
		{"pwd", root},
		{"cd -", sub},
		{"echo $SHLVL", "1"},
		{`export MULTI=$'line1\nline2=x\tend'`, ""},
		{`printf '%s' "$MULTI"`, "line1\nline2=x\tend"},
		{"IFS=:; set -u; export AFTER_IFS=ok", ""},
		{"echo $AFTER_IFS $MULTI | wc -l", "1"},
		// Without mapfile (bash 3) the trap lists names through a subshell.
		{"enable -n mapfile; export NO_MAPFILE='still saved'", ""},
		{`echo "$NO_MAPFILE"`, "still saved"},
		{"echo 'unbalanced", "…bash: -c: line 1: unexpected EOF while looking for matching `''"},
		{"pwd", sub},
	}
	for _, s := range steps {
		res, err := run(t, b, s.cmd)
		if err != nil {
			t.Fatalf("%s: %v", s.cmd, err)
		}
		got := text(res)
		if suffix, ok := strings.CutPrefix(s.want, "…"); ok && strings.HasSuffix(got, suffix) {
			continue
		}
		if got != s.want {
			t.Errorf("%s: output %q, want %q", s.cmd, got, s.want)
		}
	}
	if b.Cwd() != sub {
		t.Errorf("Cwd() = %q, want %q", b.Cwd(), sub)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 3 || seen[0] != sub || seen[1] != root || seen[2] != sub {
		t.Errorf("OnCwd calls = %q", seen)
	}
}

func TestRemovedFolderFallsBack(t *testing.T) {
	root := t.TempDir()
	b := newTool(t, Config{Cwd: root})
	gone := filepath.Join(root, "gone")
	os.Mkdir(gone, 0o755)
	run(t, b, "cd gone")
	os.Remove(gone)
	res, _ := run(t, b, "pwd")
	if got := text(res); !strings.HasPrefix(got, root+"\n") || !strings.Contains(got, "no longer exists") {
		t.Errorf("output = %q, want the fallback folder and a note", got)
	}
}

// pgidFrom reads the process group id a test command printed first.
func pgidFrom(t *testing.T, out string) int {
	t.Helper()
	line, _, _ := strings.Cut(out, "\n")
	n, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("no pid in output %q", out)
	}
	return n
}

func assertGroupGone(t *testing.T, pgid int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		err := syscall.Kill(-pgid, 0)
		if errors.Is(err, syscall.ESRCH) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process group %d still has processes (kill -0: %v)", pgid, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestTimeoutStopsTheWholeGroup(t *testing.T) {
	b := newTool(t, Config{Grace: 200 * time.Millisecond})
	start := time.Now()
	res, err := run(t, b, "echo $$; sleep 30 & trap '' TERM; sleep 30", "timeout", 300)
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("timeout took %s", el)
	}
	d := res.Data.(*Data)
	if !res.IsError || !d.Interrupted || !strings.Contains(text(res), "timed out after 300ms") {
		t.Errorf("result = %q (error %v, data %+v)", text(res), res.IsError, d)
	}
	assertGroupGone(t, pgidFrom(t, text(res)))
}

func TestCancelStopsTheWholeGroup(t *testing.T) {
	b := newTool(t, Config{Grace: 200 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	pidc := make(chan int, 1)
	var once sync.Once
	progress := func(p tool.Progress) {
		out := p.Data.(Progress).Output
		if line, _, ok := strings.Cut(out, "\n"); ok {
			if n, err := strconv.Atoi(line); err == nil {
				once.Do(func() { pidc <- n; cancel() })
			}
		}
	}
	b.cfg.ProgressAfter = 50 * time.Millisecond
	done := make(chan *tool.Result, 1)
	go func() {
		res, _ := b.Call(ctx, &tool.Call{}, input(t, map[string]any{"command": "echo $$; (sleep 30; echo never) & sleep 30"}), progress)
		done <- res
	}()
	var pgid int
	select {
	case pgid = <-pidc:
	case <-time.After(10 * time.Second):
		cancel()
		t.Fatal("no progress with the pid")
	}
	select {
	case res := <-done:
		if !res.Data.(*Data).Interrupted || !strings.Contains(text(res), "interrupted") {
			t.Errorf("result after cancel = %q %+v", text(res), res.Data)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Call did not return after cancel")
	}
	assertGroupGone(t, pgid)
}

func TestFinishedCommandLeavesNoProcesses(t *testing.T) {
	b := newTool(t, Config{})
	res, _ := run(t, b, "echo $$; sleep 0.1 | cat")
	assertGroupGone(t, pgidFrom(t, text(res)))
}

func TestProgressAfterThreshold(t *testing.T) {
	b := newTool(t, Config{ProgressAfter: 100 * time.Millisecond})
	var mu sync.Mutex
	var events []tool.Progress
	res, err := b.Call(context.Background(), &tool.Call{}, input(t, map[string]any{"command": "echo first; sleep 1.3; echo second"}), func(p tool.Progress) {
		mu.Lock()
		events = append(events, p)
		mu.Unlock()
	})
	if err != nil || text(res) != "first\nsecond" {
		t.Fatalf("result %q, %v", text(res), err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(events) < 2 {
		t.Fatalf("got %d progress events, want at least 2 (after 100ms, then every second)", len(events))
	}
	if first := events[0].Data.(Progress); first.ElapsedTimeSeconds < 0.1 {
		t.Errorf("first progress after %vs, before the 100ms threshold", first.ElapsedTimeSeconds)
	}
	var sawFirst bool
	for _, e := range events {
		p := e.Data.(Progress)
		if e.Message == "first" && p.TotalLines == 1 && p.Output == "first\n" && p.TotalBytes == 6 {
			sawFirst = true
		}
	}
	if !sawFirst {
		t.Errorf("no progress event showed the line printed so far: %+v", events)
	}
}

func TestNoProgressForQuickCommands(t *testing.T) {
	b := newTool(t, Config{})
	n := 0
	b.Call(context.Background(), &tool.Call{}, input(t, map[string]any{"command": "echo quick"}), func(tool.Progress) { n++ })
	if n != 0 {
		t.Errorf("%d progress events for a quick command", n)
	}
}

func TestLargeOutputKeepsHeadAndTail(t *testing.T) {
	b := newTool(t, Config{CaptureBytes: 1000})
	res, _ := run(t, b, "seq 1 100000")
	got := text(res)
	if !strings.HasPrefix(got, "1\n2\n3\n") || !strings.HasSuffix(got, "\n100000") || !strings.Contains(got, "bytes of output omitted") {
		t.Errorf("large output not cut as head + tail: %d bytes, starts %q ends %q", len(got), got[:20], got[len(got)-20:])
	}
	if len(got) > 2000 {
		t.Errorf("kept %d bytes, want about 1250", len(got))
	}
}

func TestReadOnlyAndConcurrency(t *testing.T) {
	b := New(Config{})
	for cmd, want := range map[string]bool{"git status": true, "ls | wc -l": true, "cd /tmp": false, "rm x": false, "echo x > f": false} {
		in := input(t, map[string]any{"command": cmd})
		if b.IsReadOnly(in) != want || b.IsConcurrencySafe(in) != want {
			t.Errorf("%q: IsReadOnly=%v IsConcurrencySafe=%v, want %v", cmd, b.IsReadOnly(in), b.IsConcurrencySafe(in), want)
		}
	}
	if b.IsReadOnly(json.RawMessage(`{"command":`)) {
		t.Error("broken input judged read-only")
	}
	if b.InterruptBehavior() != tool.Cancel || b.MaxResultChars() != 30000 {
		t.Error("wrong interrupt behaviour or result limit")
	}
}

func TestBackgroundTask(t *testing.T) {
	reg := &task.Registry{Dir: t.TempDir()}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		reg.Close(ctx)
	}()
	root := t.TempDir()
	b := newTool(t, Config{Cwd: root, Tasks: reg, Grace: 200 * time.Millisecond})
	start := time.Now()
	res, err := run(t, b, "echo $$; pwd; echo started; sleep 30", "run_in_background", true, "description", "long sleep")
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 20*time.Second { // the command sleeps 30 s
		t.Error("background call did not return at once")
	}
	id := res.Data.(*Data).BackgroundTaskID
	if id == "" || !strings.Contains(text(res), id) {
		t.Fatalf("result %q has no task id", text(res))
	}
	tk, ok := reg.Get(id)
	if !ok {
		t.Fatalf("task %s not registered", id)
	}
	deadline := time.Now().Add(5 * time.Second)
	var out string
	for !strings.Contains(out, "started") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		out, _ = tk.Output()
	}
	if !strings.Contains(out, root+"\nstarted") {
		t.Fatalf("background output %q", out)
	}
	if info := tk.Info(); info.Status != task.Running || info.Description != "long sleep" {
		t.Errorf("info = %+v", info)
	}
	if err := reg.Stop(id); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := tk.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	if s := tk.Info().Status; s != task.Killed {
		t.Errorf("status after stop = %s", s)
	}
	assertGroupGone(t, pgidFrom(t, out))
}

func TestBackgroundDoesNotChangeState(t *testing.T) {
	reg := &task.Registry{}
	defer reg.Close(context.Background())
	root := t.TempDir()
	b := newTool(t, Config{Cwd: root, Tasks: reg})
	res, _ := run(t, b, "cd /", "run_in_background", true)
	tk, _ := reg.Get(res.Data.(*Data).BackgroundTaskID)
	tk.Wait(context.Background())
	if b.Cwd() != root {
		t.Errorf("background cd changed the folder to %s", b.Cwd())
	}
	if info := tk.Info(); info.Status != task.Completed || info.ExitCode == nil || *info.ExitCode != 0 {
		t.Errorf("info = %+v", info)
	}
}

func TestParallelReadOnlyCalls(t *testing.T) {
	b := newTool(t, Config{})
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Go(func() {
			res, err := run(t, b, "echo "+strconv.Itoa(i)+"; pwd")
			if err != nil || !strings.HasPrefix(text(res), strconv.Itoa(i)+"\n") {
				t.Errorf("parallel call %d: %q %v", i, text(res), err)
			}
		})
	}
	wg.Wait()
}

// TestCloseEndsWhatCommandsLeftRunning: a "sleep 30 &" in a finished
// command keeps running while the session goes on, and Close (reins
// exiting) ends it, the child that ignores SIGTERM included.
func TestCloseEndsWhatCommandsLeftRunning(t *testing.T) {
	b := newTool(t, Config{Grace: 200 * time.Millisecond})
	res, err := run(t, b, "echo $$; sleep 30 >/dev/null 2>&1 & (trap '' TERM; sleep 30) >/dev/null 2>&1 & echo started")
	if err != nil || !strings.Contains(text(res), "started") {
		t.Fatalf("run = %q, %v", text(res), err)
	}
	pgid := pgidFrom(t, text(res))
	if !groupAlive(pgid) {
		t.Fatal("the background sleep did not outlive its command")
	}
	// A later command does not disturb it.
	if _, err := run(t, b, "true"); err != nil || !groupAlive(pgid) {
		t.Fatalf("after another command: alive %v, err %v", groupAlive(pgid), err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	assertGroupGone(t, pgid)
}

// TestNeedsStateKeepsEveryWayToChangeState checks the commands that run
// without the state trap: none of those may change the folder or the
// exported variables, and every command that can keeps the trap.
func TestNeedsStateKeepsEveryWayToChangeState(t *testing.T) {
	for cmd, want := range map[string]bool{
		"git status --short && git log --oneline -1": false,
		"grep -c 'func ' client.go":                  false,
		"go test ./... 2>&1 | tail -5":               false,
		"X=1 make build":                             false, // for one command only
		"(cd /tmp && make)":                          false, // a subshell's cd dies with it
		"cd /tmp | cat":                              false, // so does a pipeline element's
		"bash -c 'cd /tmp'":                          false,
		"cd sub":                                     true,
		"if true; then cd sub; fi":                   true,
		"for d in a; do pushd $d; done":              true,
		"popd":                                       true,
		"export A=1":                                 true,
		"PATH=/opt/bin:$PATH":                        true,
		"declare -x A=1":                             true,
		"unset HOME":                                 true,
		"source venv/bin/activate":                   true,
		". ./env.sh":                                 true,
		"set -a":                                     true,
		"eval 'cd sub'":                              true,
		`eval "$STEP"`:                               true,
		"$CMD sub":                                   true,
		"builtin cd sub":                             true,
		"command cd sub":                             true,
		"f() { cd sub; }; f":                         true,
		"read A":                                     true,
		"exec 3>log":                                 true,
		"echo 'unbalanced":                           true, // does not parse
	} {
		script, _ := shell.Parse(cmd)
		if got := needsState(script); got != want {
			t.Errorf("needsState(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// TestStatelessCommandKeepsState runs commands without the trap between
// ones with it: the folder and variables set before survive them, and
// nothing is left in the state folder.
func TestStatelessCommandKeepsState(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	stateDir := t.TempDir()
	b := newTool(t, Config{Cwd: root, StateDir: stateDir})
	for _, s := range []struct{ cmd, want string }{
		{"cd sub && export KEPT=yes", ""},
		{"(cd / && pwd)", "/"},
		{`echo "$KEPT"; pwd`, "yes\n" + sub},
		{"exit 3", "Exit code 3"},
		{"pwd", sub},
	} {
		res, err := run(t, b, s.cmd)
		if err != nil {
			t.Fatalf("%s: %v", s.cmd, err)
		}
		if got := text(res); got != s.want {
			t.Errorf("%s: output %q, want %q", s.cmd, got, s.want)
		}
	}
	if left, _ := os.ReadDir(stateDir); len(left) != 0 {
		t.Errorf("state folder holds %d files after the calls, want none", len(left))
	}
}
