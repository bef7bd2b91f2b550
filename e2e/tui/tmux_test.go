// Package tui drives the built reins binary's terminal UI in tmux against
// the fake model server, and checks what the screen shows.
package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// requireTmux fails under CI and skips elsewhere when tmux is missing.
func requireTmux(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("tmux")
	if err == nil {
		return path
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("tmux is not installed; scripts/test.sh installs it (apt-get install tmux)")
	}
	t.Skip("tmux is not installed; skipping the terminal UI tests (they fail under CI=true)")
	return ""
}

// term is one reins process in its own tmux server.
type term struct {
	t      *testing.T
	tmux   string
	socket string
	sb     *e2etest.Sandbox
	srv    *llmtest.Server
	n      int // runs started, for distinct window names
}

func newTerm(t *testing.T, turns ...llmtest.Turn) *term {
	t.Helper()
	tm := requireTmux(t)
	srv, err := llmtest.Start(turns...)
	if err != nil {
		t.Fatal(err)
	}
	tt := &term{t: t, tmux: tm, srv: srv, socket: fmt.Sprintf("reins-e2e-%d-%d", os.Getpid(), time.Now().UnixNano())}
	tt.sb = e2etest.NewSandbox(t, srv.URL)
	t.Cleanup(func() {
		tt.stop()
		for _, v := range srv.Violations() {
			t.Errorf("protocol violation: %s", v)
		}
		srv.Close()
	})
	return tt
}

// start runs reins with args in a 100×40 terminal. The pane stays after
// reins exits, showing "[reins exited N]".
func (tt *term) start(args ...string) {
	tt.t.Helper()
	bin := e2etest.Binary(tt.t)
	var b strings.Builder
	b.WriteString("#!/bin/sh\ncd " + shellQuote(tt.sb.Dir) + "\n")
	for _, e := range tt.sb.Env {
		b.WriteString("export " + shellQuote(e) + "\n")
	}
	b.WriteString(shellQuote(bin))
	for _, a := range args {
		b.WriteString(" " + shellQuote(a))
	}
	b.WriteString("\necho \"[reins exited $?]\"\nsleep 600\n")
	tt.n++
	script := filepath.Join(tt.t.TempDir(), fmt.Sprintf("run%d.sh", tt.n))
	if err := os.WriteFile(script, []byte(b.String()), 0o755); err != nil {
		tt.t.Fatal(err)
	}
	tt.stop()
	tt.socket = fmt.Sprintf("reins-e2e-%d-%d-%d", os.Getpid(), time.Now().UnixNano(), tt.n)
	tt.run("new-session", "-d", "-s", "main", "-x", "100", "-y", "40", script)
	tt.run("set-option", "-t", "main", "history-limit", "5000")
}

// stop ends the tmux server of the current run.
func (tt *term) stop() {
	exec.Command(tt.tmux, "-L", tt.socket, "kill-server").Run()
}

func (tt *term) run(args ...string) string {
	tt.t.Helper()
	out, err := exec.Command(tt.tmux, append([]string{"-L", tt.socket}, args...)...).CombinedOutput()
	if err != nil {
		tt.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// screen is the pane with its scrollback, as text.
func (tt *term) screen() string {
	return tt.run("capture-pane", "-p", "-J", "-t", "main", "-S", "-2000")
}

// visible is the pane as it is on screen now.
func (tt *term) visible() string {
	return tt.run("capture-pane", "-p", "-J", "-t", "main")
}

// waitFor waits until the screen holds every one of wants.
func (tt *term) waitFor(wants ...string) string {
	tt.t.Helper()
	return tt.waitUntil(strings.Join(wants, " & "), func(s string) bool {
		for _, w := range wants {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	})
}

func (tt *term) waitUntil(what string, ok func(string) bool) string {
	tt.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := tt.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			tt.t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// typeText types literal text; keys sends tmux key names (Enter, Escape,
// BTab, C-c, Down...).
func (tt *term) typeText(s string) { tt.run("send-keys", "-t", "main", "-l", s) }
func (tt *term) keys(k ...string) {
	tt.run(append([]string{"send-keys", "-t", "main"}, k...)...)
}

// prompt types a line and sends it.
func (tt *term) prompt(s string) {
	tt.typeText(s)
	tt.keys("Enter")
}

// ready waits for the input box, trusting the folder when asked.
func (tt *term) ready() {
	tt.t.Helper()
	s := tt.waitUntil("the trust prompt or the input box", func(s string) bool {
		return strings.Contains(s, "Do you trust the files in this folder?") || strings.Contains(s, `Try "explain this project"`)
	})
	if strings.Contains(s, "Do you trust the files in this folder?") && !strings.Contains(s, `Try "explain this project"`) {
		tt.keys("Enter")
		tt.waitFor(`Try "explain this project"`)
	}
}

// requests waits for n requests to the fake model.
func (tt *term) requests(n int) []*llmtest.Request {
	tt.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		rs := tt.srv.Requests()
		if len(rs) >= n {
			return rs
		}
		if time.Now().After(deadline) {
			tt.t.Fatalf("%d requests, want %d", len(rs), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

var spaces = regexp.MustCompile(`[ \t]+`)

// count counts non-overlapping occurrences of sub in s.
func count(s, sub string) int { return strings.Count(s, sub) }

// messageTexts flattens a request's messages to "role: text" lines.
func messageTexts(r *llmtest.Request) string {
	var b strings.Builder
	for _, m := range r.Messages {
		for _, c := range m.Content {
			switch c.Type {
			case "text":
				fmt.Fprintf(&b, "%s: %s\n", m.Role, c.Text)
			case "tool_result":
				fmt.Fprintf(&b, "%s: [result %s] %s\n", m.Role, c.ToolUseID, c.ResultText())
			case "tool_use":
				fmt.Fprintf(&b, "%s: [call %s %s]\n", m.Role, c.Name, c.Input)
			}
		}
	}
	return b.String()
}
