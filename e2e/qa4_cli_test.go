package e2e

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// setEnv returns env with name set to value (dropped when value is "-").
func setEnv(env []string, name, value string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	if value != "-" {
		out = append(out, name+"="+value)
	}
	return out
}

// A relative HOME (or none the user database can fill in) would put the
// user config folders under the working folder: the project's own
// .claude/settings.json read as the user's, and the user's sessions
// written into the project's .reins/. reins refuses to start instead,
// saying what is wrong, and writes nothing.
func TestQA4RelativeHomeIsRefused(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = setEnv(setEnv(setEnv(sb.Env, "HOME", "."), "REINS_CONFIG_DIR", "-"), "CLAUDE_CONFIG_DIR", "-")
	r := sb.Run(t, "", "-p", "hi")
	if r.Code != 1 || !strings.Contains(r.Stderr, "HOME") || strings.Count(strings.TrimSpace(r.Stderr), "\n") != 0 {
		t.Errorf("code %d, stderr %q; want 1 and one line naming HOME", r.Code, r.Stderr)
	}
	for _, d := range []string{".reins", ".claude"} {
		if _, err := os.Stat(filepath.Join(sb.Dir, d)); err == nil {
			t.Errorf("%s was created in the working folder", d)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests reached the model", n)
	}
	r = sb.Run(t, "", "sessions")
	if r.Code != 1 || !strings.Contains(r.Stderr, "HOME") {
		t.Errorf("reins sessions: code %d, stderr %q; want 1 naming HOME", r.Code, r.Stderr)
	}
}

// An answer that cannot be written to stdout (a full disk) fails the run
// with a message saying so, rather than ending with code 0 and the answer
// lost.
func TestQA4AnswerThatCannotBeWrittenFails(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	defer full.Close()
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) {
			srv := server(t, llmtest.Reply("the answer"))
			sb := e2etest.NewSandbox(t, srv.URL)
			e2etest.Binary(t)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := sb.Command(t, ctx, "-p", "hi", "--output-format", format)
			var errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = full, &errb
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 1 {
				t.Fatalf("run: %v, stderr %q; want exit code 1", err, errb.String())
			}
			if !strings.Contains(errb.String(), "write the answer to stdout") || !strings.Contains(errb.String(), "no space left") {
				t.Errorf("stderr %q does not say the answer could not be written", errb.String())
			}
		})
	}
}

// A flag given a value of the wrong kind, or none, is a usage mistake:
// exit code 2, one line naming the flag and what it wants, and the help
// hint, as every other command-line mistake gets; the model is not asked.
func TestQA4BadFlagValueIsAUsageError(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-p", "hi", "--max-turns", "abc"}, `--max-turns wants a whole number, not "abc"`},
		{[]string{"-p", "hi", "--max-budget-usd", "lots"}, `--max-budget-usd wants a number, not "lots"`},
		{[]string{"-p", "hi", "--model"}, "--model needs a value"},
	}
	for _, tc := range cases {
		srv := server(t)
		sb := e2etest.NewSandbox(t, srv.URL)
		r := sb.Run(t, "", tc.args...)
		if r.Code != 2 || !strings.Contains(r.Stderr, tc.want) || !strings.Contains(r.Stderr, "reins --help") {
			t.Errorf("%q: code %d, stderr %q; want 2 with %q and the help hint", tc.args, r.Code, r.Stderr, tc.want)
		}
		if n := len(srv.Requests()); n != 0 {
			t.Errorf("%q: %d requests reached the model", tc.args, n)
		}
	}
}

// An unknown option followed by one word drops the word as its value;
// the warning names that word, so a one-word prompt taken for the value
// is not lost without a word.
func TestQA4UnknownFlagNamesTheValueItDrops(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "--frobnicate", "summarise", "the repo")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stderr, `ignoring unknown option --frobnicate and its value "summarise"`) {
		t.Errorf("stderr %q does not name the dropped value", r.Stderr)
	}
	if got := userPrompt(srv.Requests()[0]); got != "the repo" {
		t.Errorf("prompt = %q, want %q", got, "the repo")
	}
}

// Claude Code's --debug takes an optional category filter (--debug
// api,hooks, --debug=api): reins accepts it, keeps it out of the prompt,
// and writes its debug log.
func TestQA4DebugTakesACategoryFilter(t *testing.T) {
	cases := [][]string{
		{"--debug", "api,hooks", "-p", "hi"},
		{"-p", "hi", "--debug=api"},
		{"-p", "--debug", "!statsig", "hi"},
	}
	for _, args := range cases {
		srv := server(t, llmtest.Reply("ok"))
		sb := e2etest.NewSandbox(t, srv.URL)
		r := sb.Run(t, "", args...)
		if r.Code != 0 {
			t.Errorf("%q: code %d: %s", args, r.Code, r.Stderr)
			continue
		}
		if got := userPrompt(srv.Requests()[0]); got != "hi" {
			t.Errorf("%q: prompt = %q, want %q", args, got, "hi")
		}
		if logs, _ := filepath.Glob(filepath.Join(sb.ConfigDir, "debug", "*")); len(logs) == 0 {
			t.Errorf("%q: no debug log written", args)
		}
	}
}

// A --settings file that is not valid UTF-8, or not a JSON object, stops
// the run (settings asked for on the command line must apply); the
// message says what is wrong with which file, and does not claim the file
// was skipped, which would contradict the run stopping.
func TestQA4UnusableSettingsFlagDoesNotSaySkipped(t *testing.T) {
	cases := []struct{ content, want string }{
		{"{\"model\":\"so\xffnnet\"}", "not valid UTF-8"},
		{"[1]", "must hold a JSON object"},
	}
	for _, tc := range cases {
		srv := server(t)
		sb := e2etest.NewSandbox(t, srv.URL)
		path := sb.Write(t, "s.json", tc.content)
		r := sb.Run(t, "", "-p", "hi", "--settings", path)
		if r.Code != 1 || !strings.Contains(r.Stderr, "--settings "+path) || !strings.Contains(r.Stderr, tc.want) {
			t.Errorf("code %d, stderr %q; want 1 naming the file and %q", r.Code, r.Stderr, tc.want)
		}
		if strings.Contains(r.Stderr, "skipped") {
			t.Errorf("stderr %q says the file was skipped, but the run stopped", r.Stderr)
		}
	}
}

// An --add-dir that does not exist, or is a file, is warned about by
// name and left out (of the init line's additional_directories too),
// rather than taken without a word; the run goes on.
func TestQA4AddDirThatIsNotAFolderIsWarnedAbout(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	file := sb.Write(t, "notes.txt", "x")
	other := t.TempDir()
	missing := filepath.Join(sb.Dir, "no-such-dir")
	r := sb.Run(t, "", "-p", "hi", "--output-format", "stream-json", "--verbose",
		"--add-dir", missing, "--add-dir", file, "--add-dir", other)
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	for _, want := range []string{"--add-dir " + missing + ": no such folder", "--add-dir " + file + ": not a folder"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr %q lacks %q", r.Stderr, want)
		}
	}
	init := r.Lines()[0]
	if !strings.Contains(init, `"additional_directories":["`+other+`"]`) {
		t.Errorf("init line does not list only the real folder: %s", init)
	}
}

// --system-prompt and --system-prompt-file both replace the system
// prompt; given both, reins says so (as Claude Code does) instead of
// quietly dropping one.
func TestQA4SystemPromptAndItsFileTogetherAreRefused(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	f := sb.Write(t, "sys.txt", "be terse")
	r := sb.Run(t, "", "-p", "hi", "--system-prompt", "be verbose", "--system-prompt-file", f)
	if r.Code != 2 || !strings.Contains(r.Stderr, "--system-prompt and --system-prompt-file") {
		t.Errorf("code %d, stderr %q; want 2 naming both flags", r.Code, r.Stderr)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests reached the model", n)
	}
}

// A subcommand given the wrong arguments, or a name that is not one of
// reins mcp's commands, is a usage error: exit code 2, one line naming
// the command and its usage, and a hint naming that command's help. An
// unknown `reins mcp frob` used to print the help and exit 0.
func TestQA4SubcommandMistakesAreUsageErrors(t *testing.T) {
	cases := []struct {
		args       []string
		want, help string
	}{
		{[]string{"mcp", "add"}, "mcp add: requires at least 2 arg(s)", "reins mcp add --help"},
		{[]string{"mcp", "get"}, "usage: reins mcp get <name>", "reins mcp get --help"},
		{[]string{"mcp", "frob"}, `mcp: unknown command "frob" (want one of: add, add-from-claude-desktop, add-json,`, "reins mcp --help"},
		{[]string{"sessions", "extra"}, `sessions: unknown command "extra"`, "reins sessions --help"},
		{[]string{"completion", "fish2"}, `completion: unknown command "fish2" (want one of: bash, fish,`, "reins completion --help"},
	}
	for _, tc := range cases {
		srv := server(t)
		sb := e2etest.NewSandbox(t, srv.URL)
		r := sb.Run(t, "", tc.args...)
		if r.Code != 2 || !strings.Contains(r.Stderr, tc.want) || !strings.Contains(r.Stderr, "Run '"+tc.help+"'") || r.Stdout != "" {
			t.Errorf("%q: code %d, stdout %q, stderr %q; want 2 with %q and the hint %q", tc.args, r.Code, r.Stdout, r.Stderr, tc.want, tc.help)
		}
	}
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	if r := sb.Run(t, "", "mcp"); r.Code != 0 || !strings.Contains(r.Stdout, "Available Commands") {
		t.Errorf("reins mcp alone: code %d, stdout %q; want its help", r.Code, r.Stdout)
	}
}

// reins sessions prints each recorded first prompt on one line with no
// control characters (a pasted prompt's colour codes would recolour the
// terminal, its newlines break the table), and --all says which folder
// each session belongs to, which --resume from elsewhere needs.
func TestQA4SessionsListIsPrintableAndAllNamesTheFolder(t *testing.T) {
	srv := server(t, llmtest.Reply("one"), llmtest.Reply("two"))
	sb := e2etest.NewSandbox(t, srv.URL)
	if r := sb.Run(t, "", "-p", "first line\nsecond \x1b[31mred\x1b[0m \xff"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	other := filepath.Join(sb.Dir, "other")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := sb.Command(t, context.Background(), "-p", "elsewhere")
	cmd.Dir = other
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("run in %s: %v\n%s", other, err, out)
	}
	r := sb.Run(t, "", "sessions")
	if r.Code != 0 || strings.ContainsAny(r.Stdout, "\x1b\t") || !strings.Contains(r.Stdout, "first line second  [31mred [0m \uFFFD") {
		t.Errorf("reins sessions: code %d, stdout %q; want the prompt on one printable line", r.Code, r.Stdout)
	}
	if strings.Contains(r.Stdout, "elsewhere") {
		t.Errorf("reins sessions lists another folder's session:\n%s", r.Stdout)
	}
	r = sb.Run(t, "", "sessions", "--all")
	lines := r.Lines()
	if r.Code != 0 || len(lines) != 3 || !strings.Contains(lines[0], "FOLDER") {
		t.Fatalf("reins sessions --all: code %d, stdout:\n%s", r.Code, r.Stdout)
	}
	for _, l := range lines[1:] {
		switch {
		case strings.Contains(l, "elsewhere") && !strings.Contains(l, " "+other+" "):
			t.Errorf("line %q does not name the folder %s", l, other)
		case strings.Contains(l, "first line") && !strings.Contains(l, " "+sb.Dir+" "):
			t.Errorf("line %q does not name the folder %s", l, sb.Dir)
		}
	}
}

// --resume with an id that matches no session says where reins looked
// (its own and Claude Code's project folders) and how to list what is
// there, in one line, without asking the model.
func TestQA4ResumeOfAnUnknownSessionSaysWhereItLooked(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "-r", "abc123", "go on")
	want := "looked in " + filepath.Join(sb.ConfigDir, "projects") + " and " + filepath.Join(sb.Home, ".claude", "projects")
	if r.Code != 1 || !strings.Contains(r.Stderr, "no such session") || !strings.Contains(r.Stderr, want) ||
		!strings.Contains(r.Stderr, "reins sessions --all") || strings.Count(strings.TrimSpace(r.Stderr), "\n") != 0 {
		t.Errorf("code %d, stderr %q; want 1 and one line with %q", r.Code, r.Stderr, want)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests reached the model", n)
	}
}

// A prompt that starts with a dash ("-1 is negative, why?") is a prompt:
// no option has spaces in its name. It used to be warned about as an
// unknown option and dropped, leaving the run without a prompt.
func TestQA4PromptStartingWithADashIsKept(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "-1 is negative, why?", "--append-system-prompt", "- be brief")
	if r.Code != 0 || strings.Contains(r.Stderr, "unknown option") {
		t.Fatalf("code %d, stderr %q", r.Code, r.Stderr)
	}
	req := srv.Requests()[0]
	if got := userPrompt(req); got != "-1 is negative, why?" {
		t.Errorf("prompt = %q", got)
	}
	if !strings.Contains(req.SystemText(), "- be brief") {
		t.Errorf("the appended system prompt is missing")
	}
}

// --continue in a folder with no recorded session says so once, in one
// line, naming the folder and where to find other folders' sessions.
func TestQA4ContinueWithNothingToContinueSaysSoOnce(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-c", "-p", "go on")
	want := "reins: --continue: no earlier session in " + sb.Dir + " to continue (reins sessions --all lists those of other folders)\n"
	if r.Code != 1 || r.Stderr != want {
		t.Errorf("code %d, stderr %q; want 1 and %q", r.Code, r.Stderr, want)
	}
}

// A run with a prompt argument whose stdin is a pipe left open with
// nothing written to it (a script's child process, ssh) does not wait for
// stdin forever: after a short wait it warns and goes on with the
// argument. Input that does come is still put before the argument.
func TestQA4OpenEmptyStdinDoesNotHangAPromptArgument(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"), llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	e2etest.Binary(t)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close() // open, and silent, until the run is over
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := sb.Command(t, ctx, "-p", "hi")
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pr, &out, &errb
	err = cmd.Run()
	pr.Close()
	if err != nil || out.String() != "ok\n" {
		t.Fatalf("run: %v, stdout %q, stderr %q", err, out.String(), errb.String())
	}
	if !strings.Contains(errb.String(), "nothing on stdin") {
		t.Errorf("stderr %q does not say stdin was not waited for", errb.String())
	}
	if got := userPrompt(srv.Requests()[0]); got != "hi" {
		t.Errorf("prompt = %q, want %q", got, "hi")
	}
	r := sb.Run(t, "the log says x\n", "-p", "why?")
	if r.Code != 0 || strings.Contains(r.Stderr, "nothing on stdin") {
		t.Fatalf("code %d, stderr %q", r.Code, r.Stderr)
	}
	if got := userPrompt(srv.Requests()[1]); got != "the log says x\n\nwhy?" {
		t.Errorf("prompt with stdin = %q", got)
	}
}
