package mcp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"reins/internal/llm"
	"reins/internal/tool"
	"reins/internal/tools/read"
)

// pngOf is a PNG of w×h pixels of one colour: a few kilobytes however
// large, so only its pixel size is over the limit.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{200, 30, 30, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The API refuses an image over 2000 pixels a side in a request with
// many images, and the refused image stays in the conversation: an MCP
// tool's image that is small in bytes but large in pixels is scaled down
// as Read scales an image file, to at most read.MaxImageSide a side (a
// PNG stays a PNG), and a small one goes as it came.
func TestMCPImagesLargeInPixelsAreScaledDown(t *testing.T) {
	big := pngOf(t, 3000, 1500)
	if len(big) > read.MaxImageBytes {
		t.Fatalf("test image is %d bytes; it should be small in bytes", len(big))
	}
	res := MapResult(&sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/png", Data: big}}})
	if len(res.Content) != 1 || res.Content[0].Type != llm.BlockImage {
		t.Fatalf("content %+v; want one image", res.Content)
	}
	src := res.Content[0].Source
	data, err := base64.StdEncoding.DecodeString(src.Data)
	if err != nil {
		t.Fatal(err)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width != read.MaxImageSide || cfg.Height != read.MaxImageSide/2 {
		t.Errorf("image sent is %d×%d; want %d×%d", cfg.Width, cfg.Height, read.MaxImageSide, read.MaxImageSide/2)
	}
	if format != "png" || src.MediaType != "image/png" {
		t.Errorf("image sent is %s said to be %s; want a PNG", format, src.MediaType)
	}

	small := pngOf(t, 40, 20)
	b := imageBlock("image/png", small)
	if b.Type != llm.BlockImage || b.Source.Data != base64.StdEncoding.EncodeToString(small) {
		t.Errorf("a small image was changed: %+v", b)
	}
}

// A server may ask the user for input while it runs a tool
// (elicitation/create). reins declares that it can be asked, as Claude
// Code does; with nobody to ask (print mode: no Elicit) the request is
// declined, so the tool goes on instead of failing; with an Elicit, its
// answer (and the request: server, message, schema) reaches the server.
func TestServersCanAskTheUserForInput(t *testing.T) {
	m := startManager(t, Options{Servers: []Server{selfServer(t, "self")}})
	res, err := callTool(t, findTool(m.Snapshot(), "mcp__self__ask"), `{}`)
	if err != nil {
		t.Fatalf("ask with nobody to ask: %v", err)
	}
	if got := resultText(res); got != "decline null" {
		t.Errorf("with nobody to ask the server heard %q; want a decline", got)
	}

	var got ElicitRequest
	m2 := startManager(t, Options{Servers: []Server{selfServer(t, "self")}, Elicit: func(_ context.Context, req ElicitRequest) (ElicitResponse, error) {
		got = req
		return ElicitResponse{Action: ElicitAccept, Content: map[string]any{"name": "Ada"}}, nil
	}})
	res, err = callTool(t, findTool(m2.Snapshot(), "mcp__self__ask"), `{}`)
	if err != nil {
		t.Fatalf("ask answered: %v", err)
	}
	if text := resultText(res); text != `accept {"name":"Ada"}` {
		t.Errorf("the server heard %q; want the answer", text)
	}
	if got.Server != "self" || got.Message != "Who are you?" || got.Mode != "form" || !strings.Contains(string(got.RequestedSchema), `"required":["name"]`) {
		t.Errorf("request %+v; want the server, message, form mode and schema", got)
	}

	m3 := startManager(t, Options{Servers: []Server{selfServer(t, "self")}, Elicit: func(context.Context, ElicitRequest) (ElicitResponse, error) {
		return ElicitResponse{}, errors.New("the UI closed")
	}})
	res, err = callTool(t, findTool(m3.Snapshot(), "mcp__self__ask"), `{}`)
	if err != nil || resultText(res) != "cancel null" {
		t.Errorf("an unanswered question: %v %q; want a cancel", err, resultText(res))
	}
}

// `mcp list` and `mcp get` print what Claude Code's print, which scripts
// read: "name: target (HTTP) - ✔ Connected", "✘ Failed to connect"; get's
// scope label, Status second, "Name: value" headers, and the "To remove
// this server, run:" line. reins's reason for a failure follows.
func TestListAndGetReadAsClaudeCodes(t *testing.T) {
	cfgDir, proj := t.TempDir(), t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	opts := CommandOptions{Cwd: proj, ConfigDir: cfgDir, Getenv: os.Getenv, HealthTimeout: 20 * time.Second}
	run := func(args ...string) string {
		t.Helper()
		cmd := NewCommand(opts)
		var out bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		cmd.SetArgs(args)
		if err := cmd.ExecuteContext(context.Background()); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out.String())
		}
		return out.String()
	}
	run("add", "-e", "REINS_MCP_TEST_PEER=stdio", "self", "--", exe)
	run("add", "--transport", "http", "-s", "user", "web", "http://127.0.0.1:1/mcp", "-H", "X-Key: k1")
	list := run("list")
	for _, want := range []string{"self: " + exe + " - ✔ Connected\n", "web: http://127.0.0.1:1/mcp (HTTP) - ✘ Failed to connect: "} {
		if !strings.Contains(list, want) {
			t.Errorf("list lacks %q:\n%s", want, list)
		}
	}
	get := run("get", "web")
	want := "web:\n  Scope: User config (available in all your projects)\n  Status: ✘ Failed to connect: "
	if !strings.HasPrefix(get, want) {
		t.Errorf("get starts %q; want %q", get, want)
	}
	for _, w := range []string{"\n  Type: http\n  URL: http://127.0.0.1:1/mcp\n  Headers:\n    X-Key: k1\n", "\nTo remove this server, run: reins mcp remove \"web\" -s user\n"} {
		if !strings.Contains(get, w) {
			t.Errorf("get lacks %q:\n%s", w, get)
		}
	}
	if get := run("get", "self"); !strings.HasPrefix(get, "self:\n  Scope: Local config (private to you in this project)\n  Status: ✔ Connected\n  Type: stdio\n  Command: "+exe+"\n") {
		t.Errorf("get self:\n%s", get)
	}
}

// A server entry's "timeout" (milliseconds, as Claude Code reads it)
// bounds that server's calls in place of MCP_TOOL_TIMEOUT, and the error
// names it; add-json takes such an entry (it refused the field). Without
// either, a call may last as long as in Claude Code (100,000,000 ms).
func TestServerTimeoutSetting(t *testing.T) {
	srv := selfServer(t, "self")
	srv.Config.Timeout = 300
	m := startManager(t, Options{Servers: []Server{srv}, ToolTimeout: time.Hour})
	_, err := callTool(t, findTool(m.Snapshot(), "mcp__self__sleep"), `{}`)
	if err == nil || !strings.Contains(err.Error(), `within 300ms (the server's "timeout" setting)`) {
		t.Errorf("err = %v; want the server's timeout", err)
	}
	if DefaultToolTimeout != 100_000_000*time.Millisecond {
		t.Errorf("DefaultToolTimeout = %s", DefaultToolTimeout)
	}

	cfgDir, proj := t.TempDir(), t.TempDir()
	cmd := NewCommand(CommandOptions{Cwd: proj, ConfigDir: cfgDir, Getenv: os.Getenv})
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs([]string{"add-json", "slow", `{"type":"stdio","command":"x","timeout":600000}`})
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("add-json with a timeout: %v\n%s", err, out.String())
	}
	cfg, err := Load(LoadOptions{Cwd: proj, ConfigDir: cfgDir, Home: t.TempDir()})
	if s, ok := cfg.Get("slow"); err != nil || !ok || s.Config.Timeout != 600000 {
		t.Errorf("stored entry %+v (%v); want timeout 600000", s, err)
	}
}

// A server's progress notifications for a tool call (the call carries a
// progress token) are shown as the call's progress, "1/2: half way", as
// Claude Code shows them under the tool.
func TestToolProgressIsShown(t *testing.T) {
	m := startManager(t, Options{Servers: []Server{selfServer(t, "self")}})
	steps := findTool(m.Snapshot(), "mcp__self__steps")
	if steps == nil {
		t.Fatal("no steps tool")
	}
	var mu sync.Mutex
	var got []string
	// The tool waits to be cancelled: the call is cancelled once both
	// notifications are in.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := steps.Call(ctx, &tool.Call{ID: "toolu_1", Name: steps.Name()}, json.RawMessage(`{}`), func(p tool.Progress) {
		mu.Lock()
		got = append(got, p.Message)
		if len(got) == 2 {
			cancel()
		}
		mu.Unlock()
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("call: %v; want it cancelled once the progress was in", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(got, " | ") != "1/2: half way | 2/2" {
		t.Errorf("progress %q; want the server's two notifications", got)
	}
}
