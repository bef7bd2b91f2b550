package e2e

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// An .ipynb file is JSON whose cells are escaped strings: a text
// replacement there misses or corrupts the notebook. Edit and MultiEdit
// refuse it and name NotebookEdit, as Claude Code does, and the file is
// left as it was.
func TestQA10EditRefusesNotebooksAndNamesNotebookEdit(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	nb := `{"cells":[{"cell_type":"code","id":"c1","metadata":{},"execution_count":null,"outputs":[],"source":["print(1)\n"]}],"metadata":{},"nbformat":4,"nbformat_minor":5}`
	path := sb.Write(t, "nb.ipynb", nb)
	srv.Add(
		llmtest.Calls(llmtest.ToolUse("toolu_r", "Read", map[string]any{"file_path": path})),
		llmtest.Calls(llmtest.ToolUse("toolu_e", "Edit", map[string]any{"file_path": path, "old_string": "print(1)", "new_string": "print(2)"})),
		llmtest.Calls(llmtest.ToolUse("toolu_m", "MultiEdit", map[string]any{"file_path": path,
			"edits": []map[string]any{{"old_string": "print(1)", "new_string": "print(3)"}}})),
		llmtest.Reply("done"))
	r := sb.Run(t, "", "-p", "change the cell", "--permission-mode", "bypassPermissions")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	for i, name := range []string{"Edit", "MultiEdit"} {
		got := reqs[2+i].ToolResults()[0]
		if !got.IsError || !strings.Contains(got.ResultText(), "NotebookEdit") {
			t.Errorf("%s on a notebook answered %q (error %v); want an error naming NotebookEdit", name, got.ResultText(), got.IsError)
		}
	}
	if b, _ := os.ReadFile(path); string(b) != nb {
		t.Errorf("the notebook changed:\n%s", b)
	}
}

// The API refuses an image over 8000 pixels a side (over 2000 when a
// request has many), and a refused image stays in the conversation and
// fails every later request. Read scales an image down to 2000 pixels a
// side, as Claude Code does, even when its file is small: a wide PNG of
// one colour compresses to a few kilobytes. It stays a PNG.
func TestQA10ReadScalesDownAnImageWiderThan2000Pixels(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 9000, 300))); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(sb.Dir, "strip.png")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	srv.Add(llmtest.Calls(llmtest.ToolUse("toolu_r", "Read", map[string]any{"file_path": path})), llmtest.Reply("done"))
	r := sb.Run(t, "", "-p", "look at the image", "--permission-mode", "bypassPermissions")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	res := srv.Requests()[1].ToolResults()[0]
	if res.IsError || len(res.Content) != 1 || res.Content[0].Source == nil {
		t.Fatalf("Read of a 9000×300 PNG answered %+v; want one image", res)
	}
	src := res.Content[0].Source
	data, err := base64.StdEncoding.DecodeString(src.Data)
	if err != nil {
		t.Fatal(err)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the image sent does not decode: %v", err)
	}
	if cfg.Width > 2000 || cfg.Height > 2000 || cfg.Width < 1900 {
		t.Errorf("the image sent is %d×%d; want it scaled to 2000 pixels wide", cfg.Width, cfg.Height)
	}
	if format != "png" || src.MediaType != "image/png" {
		t.Errorf("the image sent is %s as %s; want a PNG", format, src.MediaType)
	}
}

// A failing command's result starts with "Exit code N", as Claude
// Code's does; placed after the output, the code was lost when a long
// output was saved to a file and the model got only its first part.
func TestQA10BashExitCodeLeadsTheResultAndSurvivesALongOutput(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_s", "Bash", map[string]any{"command": "echo compiling; echo 'main.go:3: undefined: x' >&2; exit 2"})),
		llmtest.Calls(llmtest.ToolUse("toolu_l", "Bash", map[string]any{"command": "seq 1 20000; exit 3"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "build it", "--permission-mode", "bypassPermissions")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	short := reqs[1].ToolResults()[0]
	if want := "Exit code 2\ncompiling\nmain.go:3: undefined: x"; !short.IsError || short.ResultText() != want {
		t.Errorf("short failing command: result %q (error %v), want %q", short.ResultText(), short.IsError, want)
	}
	long := reqs[2].ToolResults()[0]
	if !long.IsError || !strings.Contains(long.ResultText(), "Exit code 3") {
		t.Errorf("long failing command: result (error %v) does not name its exit code:\n%.600s", long.IsError, long.ResultText())
	}
}

// Read shows a byte that is not UTF-8 (a Latin-1 "é") as "�", and the
// model copies that into old_string. The edit must replace just those
// bytes: it took two more bytes per "�" before the match, eating the
// newline and the next letter. An edit whose new_string keeps the "�"
// keeps the file's own byte there, not a "�".
func TestQA10EditOfALatin1FileReplacesExactlyWhatReadShowed(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	path := filepath.Join(sb.Dir, "menu.txt")
	if err := os.WriteFile(path, []byte("caf\xe9\nna\xefve\nend\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv.Add(
		llmtest.Calls(llmtest.ToolUse("toolu_r", "Read", map[string]any{"file_path": path})),
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Edit", map[string]any{"file_path": path, "old_string": "caf\uFFFD", "new_string": "coffee"})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Edit", map[string]any{"file_path": path, "old_string": "na\uFFFDve", "new_string": "na\uFFFDve!"})),
		llmtest.Reply("done"))
	r := sb.Run(t, "", "-p", "fix the menu", "--permission-mode", "bypassPermissions")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	for i, req := range srv.Requests()[2:4] {
		if res := req.ToolResults()[0]; res.IsError {
			t.Errorf("edit %d failed: %s", i+1, res.ResultText())
		}
	}
	got, _ := os.ReadFile(path)
	if want := "coffee\nna\xefve!\nend\n"; string(got) != want {
		t.Errorf("file = %q, want %q", got, want)
	}
}

// Exported variables carry over to the next Bash call. One too long for
// a program's environment (over 128 KB: export DATA=$(cat big.json))
// made every later command fail to start ("argument list too long") for
// the rest of the session. It is left out, and the model is told.
func TestQA10BashSurvivesAnExportTooLongForTheEnvironment(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]any{"command": "export SMALL=kept BIG=$(head -c 200000 /dev/zero | tr '\\0' a); echo set"})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Bash", map[string]any{"command": "echo next $SMALL ${#BIG}"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "load the data", "--permission-mode", "bypassPermissions")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if got := reqs[1].ToolResults()[0].ResultText(); !strings.Contains(got, "set") || !strings.Contains(got, "BIG") {
		t.Errorf("the export's result %q does not say BIG was not kept", got)
	}
	if got := reqs[2].ToolResults()[0]; got.IsError || got.ResultText() != "next kept 0" {
		t.Errorf("the next command answered %q (error %v), want \"next kept 0\"", got.ResultText(), got.IsError)
	}
}

// A command over 128 KB (a large file written through a heredoc) could
// not start: it went to bash as one argument, which Linux refuses
// ("argument list too long"). It runs.
func TestQA10BashRunsACommandLongerThanAnArgumentMayBe(t *testing.T) {
	body := strings.Repeat("0123456789abcdef\n", 10000) // 170 KB
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]any{"command": "cat > data.txt <<'EOF'\n" + body + "EOF\nwc -l < data.txt"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "write the data", "--permission-mode", "bypassPermissions")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if got := srv.Requests()[1].ToolResults()[0]; got.IsError || strings.TrimSpace(got.ResultText()) != "10000" {
		t.Errorf("the long command answered %q (error %v), want 10000", got.ResultText(), got.IsError)
	}
	if b, _ := os.ReadFile(filepath.Join(sb.Dir, "data.txt")); string(b) != body {
		t.Errorf("data.txt has %d bytes, want %d", len(b), len(body))
	}
}

// In a Latin-1 file (old sources often are), text the model writes goes
// in as Latin-1: "é" typed in old_string finds the file's é, and the
// accented letters of new_string are written as the file writes them,
// not as UTF-8 bytes that an editor reading the file as Latin-1 shows as
// "Ã©".
func TestQA10EditOfALatin1FileWritesLatin1(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	path := filepath.Join(sb.Dir, "menu.txt")
	if err := os.WriteFile(path, []byte("// caf\xe9\nint x;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv.Add(
		llmtest.Calls(llmtest.ToolUse("toolu_r", "Read", map[string]any{"file_path": path})),
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Edit", map[string]any{"file_path": path, "old_string": "// café", "new_string": "// crème brûlée"})),
		llmtest.Reply("done"))
	r := sb.Run(t, "", "-p", "fix the menu", "--permission-mode", "bypassPermissions")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if res := srv.Requests()[2].ToolResults()[0]; res.IsError {
		t.Errorf("the edit failed: %s", res.ResultText())
	}
	got, _ := os.ReadFile(path)
	if want := "// cr\xe8me br\xfbl\xe9e\nint x;\n"; string(got) != want {
		t.Errorf("file = %q, want %q", got, want)
	}
}
