package e2e

import (
	"context"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// Models write numbers and booleans as strings often enough that Claude
// Code's tools take "offset": "2" and "replace_all": "true"; reins must
// run such calls instead of refusing them as invalid input.
func TestQA3ToolsTakeNumbersAndBooleansWrittenAsStrings(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	f := sb.Write(t, "notes.txt", "one\ntwo\nthree\ntwo\n")
	srv.Add(
		llmtest.Calls(llmtest.ToolUse("toolu_r", "Read", map[string]any{"file_path": f, "offset": "2", "limit": "1"})),
		llmtest.Calls(llmtest.ToolUse("toolu_e", "Edit", map[string]any{"file_path": f, "old_string": "two", "new_string": "2", "replace_all": "true"})),
		llmtest.Reply("done"))
	r := sb.Run(t, "", "-p", "edit", "--permission-mode", "acceptEdits")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	read := reqs[1].ToolResults()[0]
	if read.IsError || !strings.Contains(read.ResultText(), "2\ttwo") || strings.Contains(read.ResultText(), "three") {
		t.Errorf("Read with offset \"2\", limit \"1\" = %q (error %v)", read.ResultText(), read.IsError)
	}
	if edit := reqs[2].ToolResults()[0]; edit.IsError {
		t.Errorf("Edit with replace_all \"true\" = %q", edit.ResultText())
	}
	if b, _ := os.ReadFile(f); string(b) != "one\n2\nthree\n2\n" {
		t.Errorf("file after the edit = %q", b)
	}
}

// Models trained on older Claude Code stop a background command with
// KillShell and its shell_id; the call must reach TaskStop (which
// declares the alias) instead of failing as an unknown tool.
func TestQA3KillShellStopsABackgroundCommand(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_bg", "Bash", map[string]any{"command": "sleep 60", "run_in_background": true})),
		llmtest.Calls(llmtest.ToolUse("toolu_k", "KillShell", map[string]any{"shell_id": "bash_1"})),
		llmtest.Reply("stopped"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "start and stop", "--permission-mode", "bypassPermissions")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	res := srv.Requests()[2].ToolResults()[0]
	if res.IsError || !strings.Contains(res.ResultText(), "Stopped task bash_1") {
		t.Errorf("KillShell answered %q (error %v)", res.ResultText(), res.IsError)
	}
}

// A command that asks on /dev/tty (ssh's host-key question, a password
// prompt) must fail at once, not sit stopped by the user's terminal until
// its timeout; and nothing a command writes to /dev/tty may land on the
// user's terminal.
func TestQA3BashCommandsCannotReachTheUsersTerminal(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_r", "Bash", map[string]any{"command": "read -r answer < /dev/tty; echo answered", "timeout": 20000})),
		llmtest.Calls(llmtest.ToolUse("toolu_w", "Bash", map[string]any{"command": "echo qa3-scribble > /dev/tty; echo wrote"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	master, slave, err := e2etest.OpenPTY(100, 30)
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	defer master.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := sb.Command(t, ctx, "-p", "ask", "--permission-mode", "bypassPermissions")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		slave.Close()
		t.Fatal(err)
	}
	slave.Close()
	screen, _ := io.ReadAll(master) // ends with an error once reins and its children are gone
	cmd.Wait()
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests; terminal:\n%s", len(reqs), screen)
	}
	read := reqs[1].ToolResults()[0].ResultText()
	if strings.Contains(read, "timed out") || !strings.Contains(read, "/dev/tty") {
		t.Errorf("command reading /dev/tty answered %q; it should fail at once", read)
	}
	if strings.Contains(string(screen), "qa3-scribble") {
		t.Errorf("a command wrote on the user's terminal:\n%s", screen)
	}
}

// A Bash cd out of the project lasts for that command only, as in Claude
// Code: the next command runs in the project again, and the model is told
// "Shell cwd was reset to <project>". A cd into an --add-dir folder stays.
func TestQA3BashCdOutOfTheProjectIsReset(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]any{"command": "cd / && pwd"})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Bash", map[string]any{"command": "pwd"})),
		llmtest.Calls(llmtest.ToolUse("toolu_3", "Bash", map[string]any{"command": "cd \"$EXTRA\""})),
		llmtest.Calls(llmtest.ToolUse("toolu_4", "Bash", map[string]any{"command": "pwd"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	extra := t.TempDir()
	sb.Env = append(sb.Env, "EXTRA="+extra)
	r := sb.Run(t, "", "-p", "wander", "--permission-mode", "bypassPermissions", "--add-dir", extra)
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if got, want := reqs[1].ToolResults()[0].ResultText(), "/\nShell cwd was reset to "+sb.Dir; got != want {
		t.Errorf("cd / && pwd = %q, want %q", got, want)
	}
	if got := reqs[2].ToolResults()[0].ResultText(); got != sb.Dir {
		t.Errorf("pwd after the reset = %q, want %q", got, sb.Dir)
	}
	if got := reqs[4].ToolResults()[0].ResultText(); got != extra {
		t.Errorf("pwd after cd into the added folder = %q, want %q", got, extra)
	}
}

// After a Bash cd into a subfolder, Glob and Grep without a path search
// from there, as in Claude Code, and show paths relative to it; the
// permission check resolves a relative path from the same folder, so
// "../.." from the subfolder is outside the project and is asked about.
func TestQA3GlobAndGrepFollowTheShellsFolder(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_cd", "Bash", map[string]any{"command": "cd web"})),
		llmtest.Calls(llmtest.ToolUse("toolu_g", "Glob", map[string]any{"pattern": "*.ts"})),
		llmtest.Calls(llmtest.ToolUse("toolu_s", "Grep", map[string]any{"pattern": "render"})),
		llmtest.Calls(llmtest.ToolUse("toolu_up", "Grep", map[string]any{"pattern": "render", "path": "../.."})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "web/app.ts", "render()\n")
	sb.Write(t, "top.ts", "render()\n")
	r := sb.Run(t, "", "-p", "look", "--allowedTools", "Bash(cd:*)")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if got := reqs[2].ToolResults()[0].ResultText(); got != "app.ts" {
		t.Errorf("Glob *.ts after cd web = %q, want app.ts", got)
	}
	if got := reqs[3].ToolResults()[0].ResultText(); got != "Found 1 file\napp.ts" {
		t.Errorf("Grep after cd web = %q", got)
	}
	if up := reqs[4].ToolResults()[0]; !up.IsError {
		t.Errorf("Grep of ../.. from web (outside the project) ran without asking: %q", up.ResultText())
	}
}
