package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
	"reins/internal/prompt"
)

// firstSystemBlock is the text of the request's first system block (the
// static prefix).
func firstSystemBlock(t *testing.T, r *llmtest.Request) string {
	t.Helper()
	if len(r.System) == 0 {
		t.Fatal("the request has no system prompt")
	}
	var b struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(r.System[0], &b); err != nil {
		t.Fatal(err)
	}
	return b.Text
}

// initStyle reads output_style from the stream-json init line of out.
func initStyle(t *testing.T, out string) string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		var m struct {
			Type, Subtype string
			OutputStyle   *string `json:"output_style"`
		}
		if json.Unmarshal([]byte(line), &m) == nil && m.Type == "system" && m.Subtype == "init" && m.OutputStyle != nil {
			return *m.OutputStyle
		}
	}
	t.Fatalf("no init line with output_style in %q", out)
	return ""
}

// Without an outputStyle, and with "default" named in any case, the
// request is the one reins always sent: the default static prefix, and
// the same system prompt byte for byte.
func TestQA8OutputStyleDefaultChangesNothing(t *testing.T) {
	srv := server(t, llmtest.Reply("a"), llmtest.Reply("b"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "hi", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d, stderr %q", r.Code, r.Stderr)
	}
	if got := initStyle(t, r.Stdout); got != "default" {
		t.Errorf("init output_style = %q", got)
	}
	sb.Write(t, ".claude/settings.json", `{"outputStyle": "Default"}`)
	r = sb.Run(t, "", "-p", "hi")
	if r.Code != 0 || r.Stderr != "" {
		t.Fatalf("code %d, stderr %q", r.Code, r.Stderr)
	}
	rs := srv.Requests()
	if firstSystemBlock(t, rs[0]) != prompt.Static() {
		t.Error("without a style the static prefix is not reins's default one")
	}
	if string(rs[0].System[0]) != string(rs[1].System[0]) || rs[0].SystemText() != rs[1].SystemText() {
		t.Error(`outputStyle "Default" changed the system prompt`)
	}
	for i, r := range rs {
		if u := r.LastUserText(); strings.Contains(u, "output style") {
			t.Errorf("request %d: the default style added a reminder: %q", i+1, u)
		}
	}
}

// outputStyle names a built-in style in any case: its text is in the
// system prompt, the brevity rules are not, the task-conduct section
// stays (built-ins keep the coding instructions), and the init line says
// which style is active.
func TestQA8OutputStyleBuiltinFromSettings(t *testing.T) {
	srv := server(t, llmtest.Reply("a"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"outputStyle": "explanatory"}`)
	r := sb.Run(t, "", "-p", "hi", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 || r.Stderr != "" {
		t.Fatalf("code %d, stderr %q", r.Code, r.Stderr)
	}
	if got := initStyle(t, r.Stdout); got != "Explanatory" {
		t.Errorf("init output_style = %q", got)
	}
	sys := srv.Requests()[0].SystemText()
	for _, want := range []string{"# Output style: Explanatory", "★ Insight", "# Doing tasks", "# Acting with care"} {
		if !strings.Contains(sys, want) {
			t.Errorf("system prompt lacks %q", want)
		}
	}
	if strings.Contains(sys, "Keep it short and direct") {
		t.Error("a non-default style kept the brevity rules")
	}
	if u := srv.Requests()[0].LastUserText(); !strings.Contains(u, "The Explanatory output style is active") {
		t.Errorf("the prompt carries no reminder of the style: %q", u)
	}
}

// Custom styles: the project's file overrides the user's of the same
// name (the user's is under CLAUDE_CONFIG_DIR), the file name is the name
// when the frontmatter has none, and without keep-coding-instructions the
// task-conduct section is left out. --settings selects it too.
func TestQA8OutputStyleCustomProjectOverridesUser(t *testing.T) {
	srv := server(t, llmtest.Reply("a"), llmtest.Reply("b"))
	sb := e2etest.NewSandbox(t, srv.URL)
	claudeDir := filepath.Join(sb.Home, "elsewhere")
	for i, e := range sb.Env {
		if strings.HasPrefix(e, "CLAUDE_CONFIG_DIR=") {
			sb.Env[i] = "CLAUDE_CONFIG_DIR=" + claudeDir
		}
	}
	writeFile(t, filepath.Join(claudeDir, "output-styles", "pirate.md"), "---\ndescription: user pirate\n---\nUSER PIRATE TEXT\n")
	writeFile(t, filepath.Join(claudeDir, "output-styles", "poet.md"), "---\nname: Poet\nkeep-coding-instructions: true\n---\nWrite in verse.\n")
	sb.Write(t, ".claude/output-styles/pirate.md", "---\ndescription: project pirate\n---\nPROJECT PIRATE TEXT\n")
	r := sb.Run(t, "", "-p", "hi", "--settings", `{"outputStyle":"pirate"}`)
	if r.Code != 0 || r.Stderr != "" {
		t.Fatalf("code %d, stderr %q", r.Code, r.Stderr)
	}
	sys := srv.Requests()[0].SystemText()
	if !strings.Contains(sys, "# Output style: pirate\n\nPROJECT PIRATE TEXT") || strings.Contains(sys, "USER PIRATE") {
		t.Errorf("the project's pirate style is not the one used:\n%s", sys)
	}
	if strings.Contains(sys, "# Doing tasks") || !strings.Contains(sys, "# Using tools") {
		t.Error("without keep-coding-instructions the task section must go and the rest stay")
	}
	sb.Write(t, ".claude/settings.local.json", `{"outputStyle": "poet"}`)
	r = sb.Run(t, "", "-p", "hi")
	if sys := srv.Requests()[1].SystemText(); r.Code != 0 || !strings.Contains(sys, "Write in verse.") || !strings.Contains(sys, "# Doing tasks") {
		t.Errorf("the user's Poet style (keep-coding-instructions) was not applied: code %d, stderr %q", r.Code, r.Stderr)
	}
}

// A loaded plugin's output-styles/ folder gives styles named
// plugin:style.
func TestQA8OutputStyleFromPlugin(t *testing.T) {
	srv := server(t, llmtest.Reply("a"))
	sb := e2etest.NewSandbox(t, srv.URL)
	root := filepath.Join(sb.Home, "plug")
	writeFile(t, filepath.Join(root, ".claude-plugin", "plugin.json"), `{"name": "verse"}`)
	writeFile(t, filepath.Join(root, "output-styles", "haiku.md"), "---\ndescription: five seven five\n---\nAnswer in haiku.\n")
	r := sb.Run(t, "", "-p", "hi", "--plugin-dir", root, "--settings", `{"outputStyle":"verse:haiku"}`,
		"--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d, stderr %q", r.Code, r.Stderr)
	}
	if got := initStyle(t, r.Stdout); got != "verse:haiku" {
		t.Errorf("init output_style = %q", got)
	}
	if sys := srv.Requests()[0].SystemText(); !strings.Contains(sys, "# Output style: verse:haiku\n\nAnswer in haiku.") {
		t.Errorf("the plugin's style is not in the prompt:\n%s", sys)
	}
}

// A name no style has falls back to the default with a warning that names
// it and the styles there are.
func TestQA8OutputStyleUnknownFallsBackWithAWarning(t *testing.T) {
	srv := server(t, llmtest.Reply("a"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"outputStyle": "Shakespeare"}`)
	r := sb.Run(t, "", "-p", "hi", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d, stderr %q", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stderr, `outputStyle "Shakespeare"`) || !strings.Contains(r.Stderr, "using the default style") ||
		!strings.Contains(r.Stderr, "Explanatory") {
		t.Errorf("stderr %q", r.Stderr)
	}
	if got := initStyle(t, r.Stdout); got != "default" {
		t.Errorf("init output_style = %q", got)
	}
	if firstSystemBlock(t, srv.Requests()[0]) != prompt.Static() {
		t.Error("an unknown style changed the prompt")
	}
}

// /output-style lists the styles, and with a name saves the choice in
// .claude/settings.local.json (other keys kept) for the next session,
// without asking the model.
func TestQA8OutputStyleCommandSavesTheChoice(t *testing.T) {
	srv := server(t, llmtest.Reply("a"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.local.json", `{"model": "sonnet"}`)
	sb.Write(t, ".claude/output-styles/terse.md", "---\ndescription: Very few words\n---\nUse very few words.\n")
	r := sb.Run(t, "", "-p", "/output-style")
	for _, want := range []string{"* default", "Explanatory", "Learning", "terse (project): Very few words"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("the list lacks %q:\n%s", want, r.Stdout)
		}
	}
	r = sb.Run(t, "", "-p", "/output-style learning")
	if r.Code != 0 || !strings.Contains(r.Stdout, "Output style set to Learning") {
		t.Fatalf("code %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	data, err := os.ReadFile(filepath.Join(sb.Dir, ".claude", "settings.local.json"))
	var saved map[string]string
	if err != nil || json.Unmarshal(data, &saved) != nil || saved["outputStyle"] != "Learning" || saved["model"] != "sonnet" {
		t.Errorf("settings.local.json = %s (%v)", data, err)
	}
	r = sb.Run(t, "", "-p", "/output-style nope")
	if r.Code == 0 || !strings.Contains(r.Stderr+r.Stdout, `no output style named "nope"`) {
		t.Errorf("an unknown name: code %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests reached the model", n)
	}
	r = sb.Run(t, "", "-p", "hi")
	if sys := srv.Requests()[0].SystemText(); r.Code != 0 || !strings.Contains(sys, "TODO(human)") {
		t.Errorf("the saved Learning style is not used by the next session (code %d)", r.Code)
	}
}

// The SDK's initialize answer and reload_output_styles give the active
// style and the real list, custom styles included.
func TestQA8OutputStyleSDKReportsTheStyles(t *testing.T) {
	srv := server(t, llmtest.Reply("a"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"outputStyle": "Learning"}`)
	sb.Write(t, ".claude/output-styles/terse.md", "Use very few words.\n")
	in := `{"type":"control_request","request_id":"i1","request":{"subtype":"initialize"}}` + "\n" +
		`{"type":"control_request","request_id":"r1","request":{"subtype":"reload_output_styles"}}` + "\n" +
		`{"type":"user","session_id":"","message":{"role":"user","content":"hi"},"parent_tool_use_id":null}` + "\n"
	r := sb.Run(t, in, "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d, stderr %q", r.Code, r.Stderr)
	}
	answers := map[string]map[string]any{}
	for _, line := range strings.Split(r.Stdout, "\n") {
		var m struct {
			Type     string
			Response struct {
				RequestID string         `json:"request_id"`
				Response  map[string]any `json:"response"`
			}
		}
		if json.Unmarshal([]byte(line), &m) == nil && m.Type == "control_response" {
			answers[m.Response.RequestID] = m.Response.Response
		}
	}
	want := `["default","Explanatory","Learning","terse"]`
	list := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	if a := answers["i1"]; a == nil || a["output_style"] != "Learning" || list(a["available_output_styles"]) != want ||
		a["user_output_styles_dir"] != filepath.Join(sb.Home, ".claude", "output-styles") {
		t.Errorf("initialize answered %v", a)
	}
	if a := answers["r1"]; a == nil || list(a["available_output_styles"]) != want {
		t.Errorf("reload_output_styles answered %v", a)
	}
	if got := initStyle(t, r.Stdout); got != "Learning" {
		t.Errorf("init output_style = %q", got)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The SDK's apply_flag_settings with an outputStyle switches the style
// from the next request on; a name no style has is refused and changes
// nothing; null goes back to the style the settings files name.
func TestQA8OutputStyleSDKApplyFlagSettings(t *testing.T) {
	srv := server(t, llmtest.Reply("first"), llmtest.Reply("second"), llmtest.Reply("third"))
	sb := e2etest.NewSandbox(t, srv.URL)
	p := startSDK(t, sb)
	p.send(sdkUserLine("one"))
	p.next("result")
	var answers []string
	for _, req := range []string{
		`{"type":"control_request","request_id":"r1","request":{"subtype":"apply_flag_settings","settings":{"outputStyle":"nope"}}}`,
		`{"type":"control_request","request_id":"r2","request":{"subtype":"apply_flag_settings","settings":{"outputStyle":"learning"}}}`,
	} {
		p.send(req)
		resp := p.next("control_response")["response"].(map[string]any)
		answers = append(answers, resp["request_id"].(string)+" "+resp["subtype"].(string))
		if resp["request_id"] == "r1" && !strings.Contains(fmt.Sprint(resp["error"]), `no output style named "nope"`) {
			t.Errorf("r1 error %v", resp["error"])
		}
	}
	if strings.Join(answers, ",") != "r1 error,r2 success" {
		t.Errorf("control responses %v", answers)
	}
	p.send(sdkUserLine("two"))
	p.next("result")
	p.send(`{"type":"control_request","request_id":"r3","request":{"subtype":"apply_flag_settings","settings":{"outputStyle":null}}}`)
	p.next("control_response")
	p.send(sdkUserLine("three"))
	p.next("result")
	p.finish()
	rs := srv.Requests()
	if len(rs) != 3 {
		t.Fatalf("%d requests", len(rs))
	}
	for i, want := range []bool{false, true, false} {
		if got := strings.Contains(rs[i].SystemText(), "# Output style: Learning"); got != want {
			t.Errorf("request %d: Learning style %v, want %v", i+1, got, want)
		}
	}
	if firstSystemBlock(t, rs[2]) != prompt.Static() {
		t.Error("null did not bring back the default prompt")
	}
}

// The SDK's update_settings with an outputStyle for localSettings saves
// it and switches the running session from the next request on; a name no
// style has is refused and nothing is written.
func TestQA8OutputStyleSDKUpdateSettings(t *testing.T) {
	srv := server(t, llmtest.Reply("first"), llmtest.Reply("second"))
	sb := e2etest.NewSandbox(t, srv.URL)
	p := startSDK(t, sb)
	local := filepath.Join(sb.Dir, ".claude", "settings.local.json")
	p.send(sdkUserLine("one"))
	p.next("result")
	p.send(`{"type":"control_request","request_id":"u1","request":{"subtype":"update_settings","source":"localSettings","settings":{"outputStyle":"nope"}}}`)
	resp := p.next("control_response")["response"].(map[string]any)
	if resp["subtype"] != "error" || !strings.Contains(fmt.Sprint(resp["error"]), `no output style named "nope"`) {
		t.Errorf("u1 answered %v", resp)
	}
	if _, err := os.Stat(local); err == nil {
		t.Error("an unknown style was written")
	}
	p.send(`{"type":"control_request","request_id":"u2","request":{"subtype":"update_settings","source":"localSettings","settings":{"outputStyle":"Explanatory"}}}`)
	if resp := p.next("control_response")["response"].(map[string]any); resp["subtype"] != "success" {
		t.Errorf("u2 answered %v", resp)
	}
	p.send(sdkUserLine("two"))
	p.next("result")
	p.finish()
	rs := srv.Requests()
	if len(rs) != 2 || strings.Contains(rs[0].SystemText(), "# Output style") || !strings.Contains(rs[1].SystemText(), "# Output style: Explanatory") {
		t.Errorf("%d requests; the second does not carry the saved style", len(rs))
	}
	if data, err := os.ReadFile(local); err != nil || !strings.Contains(string(data), `"outputStyle": "Explanatory"`) {
		t.Errorf("settings.local.json = %s (%v)", data, err)
	}
}

// In an SDK session, /output-style switches the style for the next
// turns and keeps the client's appendSystemPrompt; a prompt the client
// replaced is left alone (the style is not part of it), and said so.
func TestQA8OutputStyleSDKSwitchKeepsTheClientsPrompt(t *testing.T) {
	cases := []struct {
		name, init string
		styled     bool
		want       string
	}{
		{"appended text kept", `{"subtype":"initialize","appendSystemPrompt":"CLIENT APPENDIX"}`, true, "CLIENT APPENDIX"},
		{"replaced prompt left alone", `{"subtype":"initialize","systemPrompt":"CLIENT PROMPT"}`, false, "CLIENT PROMPT"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := server(t, llmtest.Reply("first"), llmtest.Reply("second"))
			sb := e2etest.NewSandbox(t, srv.URL)
			in := `{"type":"control_request","request_id":"i1","request":` + c.init + "}\n" +
				sdkUserLine("one") + sdkUserLine("/output-style Learning") + sdkUserLine("two")
			r := sb.Run(t, in, "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose")
			if r.Code != 0 {
				t.Fatalf("code %d, stderr %q", r.Code, r.Stderr)
			}
			rs := srv.Requests()
			if len(rs) != 2 {
				t.Fatalf("%d requests", len(rs))
			}
			for i, req := range rs {
				if !strings.Contains(req.SystemText(), c.want) {
					t.Errorf("request %d lost %q", i+1, c.want)
				}
			}
			if got := strings.Contains(rs[1].SystemText(), "# Output style: Learning"); got != c.styled {
				t.Errorf("the request after the switch has the style: %v, want %v", got, c.styled)
			}
			if !c.styled && !strings.Contains(r.Stdout, "system prompt is replaced") {
				t.Errorf("the switch did not say the prompt is replaced: %s", r.Stdout)
			}
		})
	}
}
