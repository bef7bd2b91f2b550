package sdk_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

func TestTypeScriptSDKApplyFlagSettingsChangesModelRulesAndEnvOrRefusesWholly(t *testing.T) {
	srv := server(t, reply("One.", 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	extra := filepath.Join(sb.Home, "extra")
	os.MkdirAll(extra, 0o755)
	os.WriteFile(filepath.Join(extra, "note.txt"), []byte("outside note\n"), 0o644)
	srv.Add(llmtest.Calls(
		llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "echo $FLAG_VAR"}),
		llmtest.ToolUse("toolu_2", "Read", map[string]string{"file_path": filepath.Join(extra, "note.txt")})),
		reply("Echoed.", 120, 10),
		reply("Three.", 130, 10))
	_, summary := runScript(t, sb, "sdkctl.mjs", "flag-settings", "EXTRA_DIR="+extra)

	for key, want := range map[string]string{
		"badType":  "setting model: expected a string",
		"misspelt": `unknown setting "permisions" (did you mean "permissions"?)`,
		"badRule":  `"Bash(unclosed"`,
	} {
		if got, _ := summary[key].(string); !strings.HasPrefix(got, "rejected: ") || !strings.Contains(got, want) {
			t.Errorf("%s: applyFlagSettings = %q, want a refusal saying %q", key, got, want)
		}
	}
	if got := js(summary["effectiveEnv"]); got != `{"FLAG_VAR":"from-flag"}` {
		t.Errorf("getSettings effective env = %s", got)
	}
	if got := js(summary["flagSource"]); !strings.Contains(got, `"model":"sonnet"`) || !strings.Contains(got, `"source":"flagSettings"`) {
		t.Errorf("getSettings flag source = %s", got)
	}
	if got := js(summary["flagRules"]); got != `[{"behavior":"allow","editability":"readonly","rule":"Bash(echo:*)","source":"flagSettings"}]` {
		t.Errorf("listPermissionRules flag rules = %s", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d model requests, want 4", len(reqs))
	}
	if reqs[0].Model != opus || reqs[1].Model != sonnet || reqs[2].Model != sonnet || reqs[3].Model != opus {
		t.Errorf("models %s %s %s %s: the overlay's model applies from the next turn, a null model goes back to the default",
			reqs[0].Model, reqs[1].Model, reqs[2].Model, reqs[3].Model)
	}
	res := reqs[2].ToolResults()
	if len(res) != 2 || res[0].IsError || strings.TrimSpace(res[0].ResultText()) != "from-flag" {
		t.Errorf("the Bash call gave %+v: the flag layer's allow rule and env must apply", res)
	}
	if len(res) != 2 || res[1].IsError || !strings.Contains(res[1].ResultText(), "outside note") {
		t.Errorf("the Read call gave %+v: the flag layer's additionalDirectories must apply", res)
	}
}

func TestTypeScriptSDKUpdateSettingsWritesAllowedKeysKeepingTheFile(t *testing.T) {
	srv := server(t, reply("One.", 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	local := sb.Write(t, ".claude/settings.local.json", "{\n  \"permissions\": {\"allow\": [\"Read\"]},\n  \"zeta\": \"a&b\"\n}\n")
	_, summary := runScript(t, sb, "sdkctl.mjs", "update-settings")

	if got, _ := summary["refused"].(string); !strings.Contains(got, `"model" cannot be written to localSettings; only outputStyle can`) {
		t.Errorf("updateSettings(model) = %q, want a refusal", got)
	}
	data, err := os.ReadFile(local)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"permissions\": {\n    \"allow\": [\n      \"Read\"\n    ]\n  },\n  \"zeta\": \"a&b\",\n  \"outputStyle\": \"Explanatory\"\n}\n"
	if string(data) != want {
		t.Errorf("local settings:\n%s\nwant:\n%s", data, want)
	}
	user, err := os.ReadFile(filepath.Join(sb.ConfigDir, "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(user), `"modelSettings": {`) || !strings.Contains(string(user), `"`+opus+`": {`) ||
		!strings.Contains(string(user), `"effortLevel": "high"`) {
		t.Errorf("user settings:\n%s\nwant effortLevel under modelSettings.%s", user, opus)
	}
}

func TestTypeScriptSDKReadFileAndSeedReadState(t *testing.T) {
	srv := server(t, reply("One.", 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	notes := sb.Write(t, "notes.txt", "hello world\n")
	sb.Write(t, "secret.txt", "top secret\n")
	seeded := sb.Write(t, "seeded.txt", "seed me\n")
	stale := sb.Write(t, "stale.txt", "stale me\n")
	sb.Write(t, ".claude/settings.json", `{"permissions":{"deny":["Read(./secret.txt)"]}}`)
	srv.Add(llmtest.Calls(
		llmtest.ToolUse("toolu_1", "Edit", map[string]string{"file_path": seeded, "old_string": "seed me", "new_string": "seeded"}),
		llmtest.ToolUse("toolu_2", "Edit", map[string]string{"file_path": stale, "old_string": "stale me", "new_string": "changed"})),
		reply("Edited.", 120, 10))
	_, summary := runScript(t, sb, "sdkctl.mjs", "files")

	for key, want := range map[string]string{
		"whole": `{"absPath":` + q(notes) + `,"contents":"hello world\n","lossy":false}`,
		"cut":   `{"absPath":` + q(notes) + `,"contents":"hello","lossy":false,"truncated":true}`,
		"b64":   `{"absPath":` + q(notes) + `,"contents":"aGVsbG8gd29ybGQK","encoding":"base64"}`,
		// The SDK gives null for a refusal (a deny rule, a missing file).
		"denied":  `null`,
		"missing": `null`,
	} {
		if got := js(summary[key]); got != want {
			t.Errorf("readFile %s = %s, want %s", key, got, want)
		}
	}
	if data, _ := os.ReadFile(seeded); string(data) != "seeded\n" {
		t.Errorf("seeded.txt = %q: a file seeded at its current mtime must take an Edit without a Read", data)
	}
	if data, _ := os.ReadFile(stale); string(data) != "stale me\n" {
		t.Errorf("stale.txt = %q: a seed with an older mtime must be ignored", data)
	}
	reqs := srv.Requests()
	res := reqs[len(reqs)-1].ToolResults()
	if len(res) != 2 || res[0].IsError || !res[1].IsError {
		t.Errorf("tool results %+v: want the seeded Edit to succeed and the stale one to fail", res)
	}
}

func TestTypeScriptSDKSetMcpServersReplacesTheSessionsServers(t *testing.T) {
	srv := server(t,
		reply("One.", 100, 10),
		call("toolu_1", "mcp__reverser__reverse", `{"text":"abc"}`, 110, 10),
		reply("Reversed.", 120, 10),
		call("toolu_2", "mcp__extra__whisper", `{"text":"LOUD"}`, 130, 10),
		reply("Whispered.", 140, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	_, summary := runScript(t, sb, "sdkctl.mjs", "mcp-set", "ENABLE_TOOL_SEARCH=false")

	set, _ := summary["set"].(map[string]any)
	errs, _ := set["errors"].(map[string]any)
	if js(set["added"]) != `["broken","reverser"]` || js(set["removed"]) != `["tools"]` || len(errs) != 1 || errs["broken"] == nil {
		t.Errorf("setMcpServers = %s: want broken and reverser added, the SDK-hosted tools removed, an error for broken", js(set))
	}
	// broken retries in the background: between two attempts it reads
	// failed, during one (a moment) pending.
	if got := js(summary["status"]); got != `[{"name":"broken","status":"failed"},{"name":"reverser","status":"connected"}]` &&
		got != `[{"name":"broken","status":"pending"},{"name":"reverser","status":"connected"}]` {
		t.Errorf("mcpServerStatus after the set = %s", got)
	}
	if got := js(summary["again"]); got != `{"added":["extra"],"errors":{},"removed":["broken"]}` {
		t.Errorf("a second set without broken, with an SDK-hosted server = %s: reverser, unchanged, keeps running", got)
	}
	if got := js(summary["statusAgain"]); got != `[{"name":"extra","status":"connected"},{"name":"reverser","status":"connected"}]` {
		t.Errorf("mcpServerStatus after the second set = %s", got)
	}
	reqs := srv.Requests()
	if names := strings.Join(reqs[1].ToolNames(), ","); !strings.Contains(names, "mcp__reverser__reverse") || strings.Contains(names, "mcp__tools__") {
		t.Errorf("tools after the set: %s", names)
	}
	if res := reqs[2].ToolResults(); len(res) != 1 || res[0].IsError || res[0].ResultText() != "cba" {
		t.Errorf("the reverser's tool gave %+v", res)
	}
	if res := reqs[4].ToolResults(); len(res) != 1 || res[0].IsError || res[0].ResultText() != "loud..." {
		t.Errorf("the run-time SDK server's tool gave %+v", res)
	}
}

func TestTypeScriptSDKReloadSkillsFindsASkillWrittenMidSession(t *testing.T) {
	srv := server(t, reply("One.", 100, 10), reply("Fresh done.", 110, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	_, summary := runScript(t, sb, "sdkctl.mjs", "reload")

	if got := js(summary["before"]); strings.Contains(got, "fresh-skill") {
		t.Errorf("skills before the file was written: %s", got)
	}
	if got := js(summary["after"]); !strings.Contains(got, `{"argumentHint":"","description":"Written while the session runs.","name":"fresh-skill"}`) {
		t.Errorf("reloadSkills = %s, want the new skill", got)
	}
	if got := js(summary["plugins"]); got != `{"errors":0,"hasSkill":true,"plugins":[]}` {
		t.Errorf("reloadPlugins = %s, want no plugins (none were given) and the reloaded commands", got)
	}
	if got := js(summary["styles"]); got != `{"available_output_styles":["default","Explanatory","Learning"]}` {
		t.Errorf("reloadOutputStyles = %s", got)
	}
	if got := js(summary["agents"]); !strings.Contains(got, `"general-purpose"`) {
		t.Errorf("supportedAgents = %s", got)
	}
	if got := js(summary["account"]); got != `{"apiKeySource":"ANTHROPIC_API_KEY","apiProvider":"firstParty","tokenSource":"none"}` {
		t.Errorf("accountInfo = %s", got)
	}
	if got := js(summary["reinit"]); !strings.Contains(got, `"hasSkill":true`) {
		t.Errorf("reinitialize = %s, want a fresh answer listing the new skill", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].LastUserText(), "Do the fresh thing.") {
		t.Errorf("the reloaded skill did not run as a command")
	}
}

func TestSDKRefusedFlagSettingsLeaveTheEarlierOnesAndSettingSourcesGateUpdates(t *testing.T) {
	srv := server(t, reply("Done.", 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil, "--setting-sources", "project")
	c.request("init-1", `{"subtype":"initialize"}`)
	c.expect(initOK("init-1", initResponse("default")))
	c.request("f1", `{"subtype":"apply_flag_settings","settings":{"model":"sonnet"}}`)
	c.expect(controlOK("f1", `{}`))
	c.request("f2", `{"subtype":"apply_flag_settings","settings":{"model":"haiku","permissions":{"deny":["Bash(oops"]}}}`)
	c.expect(controlErr("f2", `apply_flag_settings: permissions.deny: permission rule "Bash(oops": missing closing parenthesis`))
	c.request("u1", `{"subtype":"update_settings","source":"localSettings","settings":{"outputStyle":"Explanatory"}}`)
	c.expect(controlErr("u1", `update_settings: local project settings are not read in this session (--setting-sources "project")`))
	c.user("Hello.")
	for !kindIn(c.next(), []string{"result/success"}) {
	}
	c.expect(stateLine("idle"))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].Model != sonnet {
		t.Errorf("the turn ran on %s, want the model of the overlay that was accepted", reqs[0].Model)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, ".claude", "settings.local.json")); err == nil {
		t.Error("the refused update wrote the local settings file")
	}
}

func TestSDKRenameAndGenerateSessionTitleSaveTheTitleInTheTranscript(t *testing.T) {
	srv := server(t, reply("\"Fix the login bug.\"\n", 50, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil)
	c.request("init-1", `{"subtype":"initialize"}`)
	c.expect(initOK("init-1", initResponse("default")))
	c.request("r1", `{"subtype":"rename_session","title":"My own title","source":"host"}`)
	c.expect(controlOK("r1", `{}`))
	c.request("g1", `{"subtype":"generate_session_title","description":"The login form rejects valid passwords","persist":true}`)
	c.expect(controlOK("g1", `{"title":"Fix the login bug"}`))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Model != haiku || !strings.Contains(reqs[0].SystemText(), "You name coding sessions") ||
		strings.TrimSpace(reqs[0].LastUserText()) != "The login form rejects valid passwords" {
		t.Errorf("the title was asked of %s with %q", reqs[0].Model, reqs[0].LastUserText())
	}
	files := sb.Transcripts(t)
	if len(files) != 1 {
		t.Fatalf("transcripts %v", files)
	}
	data, _ := os.ReadFile(files[0])
	var titles []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var e struct {
			Type, CustomTitle, SessionID string
		}
		json.Unmarshal([]byte(line), &e)
		if e.Type == "custom-title" && e.SessionID == sessionID {
			titles = append(titles, e.CustomTitle)
		}
	}
	if strings.Join(titles, "|") != "My own title|Fix the login bug" {
		t.Errorf("custom-title entries %q", titles)
	}
}

func TestTypeScriptSDKReadMcpResourceReadsUIResourcesOnly(t *testing.T) {
	srv := server(t, reply("One.", 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	_, summary := runScript(t, sb, "sdkctl.mjs", "mcp-resource")

	if got := js(summary["widget"]); got != `{"contents":[{"mimeType":"text/html+skybridge","text":"\u003cdiv\u003ewidget\u003c/div\u003e","uri":"ui://widget/main"}]}` {
		t.Errorf("readMcpResource(ui://widget/main) = %s", got)
	}
	if got, _ := summary["file"].(string); !strings.Contains(got, "only ui:// resources can be read") {
		t.Errorf("readMcpResource(file:///notes.txt) = %q, want a refusal", got)
	}
	if got, _ := summary["unknown"].(string); !strings.Contains(got, `no MCP server is named "nope"`) {
		t.Errorf("readMcpResource of an unknown server = %q", got)
	}
}
