package e2e

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// initializeLine is an initialize control request carrying fields.
func initializeLine(t *testing.T, fields map[string]any) string {
	t.Helper()
	req := map[string]any{"subtype": "initialize"}
	for k, v := range fields {
		req[k] = v
	}
	b, err := json.Marshal(map[string]any{"type": "control_request", "request_id": "init-1", "request": req})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The Agent SDK's settingsViaInitialize, disallowedToolsViaInitialize and
// managedSettingsViaInitialize send settings, disallowed tools and the
// host's policy in the initialize request (--initialize-fields,
// --managed-settings-in-initialize): they apply as their flags would.
func TestInitializeFieldsApplyAsFlags(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "echo from-bash"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	p := startSDK(t, sb, "--await-initialize", "--initialize-fields", "settings,disallowedTools", "--managed-settings-in-initialize")
	p.send(initializeLine(t, map[string]any{
		"settings":        map[string]any{"permissions": map[string]any{"allow": []string{"Bash"}}},
		"disallowedTools": []string{"Write"},
		"managedSettings": map[string]any{"permissions": map[string]any{"deny": []string{"Edit"}}},
	}))
	p.send(sdkUserLine("run it"))
	p.next("result")
	p.finish()
	reqs := srv.Requests()
	tools := reqs[0].ToolNames()
	if slices.Contains(tools, "Write") || slices.Contains(tools, "Edit") || !slices.Contains(tools, "Bash") {
		t.Errorf("tools %v: want Bash, and neither Write (disallowedTools) nor Edit (the host's policy)", tools)
	}
	if res := reqs[1].ToolResults(); len(res) != 1 || !strings.Contains(resultText(res[0]), "from-bash") {
		t.Errorf("Bash result %+v, want it run under the settings' allow rule", res)
	}
}

// A field the command line says is coming and the request lacks stops
// reins: the host meant those rules to apply.
func TestInitializeFieldsMissingStopsTheSession(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	in := initializeLine(t, map[string]any{}) + "\n" + sdkUserLine("hi")
	r := sb.Run(t, in, "--input-format", "stream-json", "--output-format", "stream-json", "--verbose",
		"--await-initialize", "--managed-settings-in-initialize")
	if r.Code == 0 || !strings.Contains(r.Stderr, "managedSettings") {
		t.Errorf("code %d, stderr %q; want a failure naming managedSettings", r.Code, r.Stderr)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests reached the model", n)
	}
}
