package e2e

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// bashThenDone is a model that runs one Bash command and then answers.
func bashThenDone() []llmtest.Turn {
	return []llmtest.Turn{
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "echo ran"})),
		llmtest.Reply("done"),
	}
}

// The Agent SDK's managedSettings option (--managed-settings) is a policy
// from the host application: its deny rules win over the session's allow
// rules, and keys that do not restrict (model here) are ignored with a
// warning naming them.
func TestHostPolicyDeniesOverAllowRules(t *testing.T) {
	srv := server(t, bashThenDone()...)
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "run it", "--output-format", "json", "--allowedTools", "Bash",
		"--managed-settings", `{"permissions":{"deny":["Bash"],"allow":["Read"]},"model":"haiku"}`)
	decodeAutoResult(t, r)
	// A tool denied outright is not offered at all, and a call to it
	// fails (it runs nothing).
	if slices.Contains(srv.Requests()[0].ToolNames(), "Bash") {
		t.Error("Bash is offered despite the host policy's deny rule")
	}
	if res := srv.Requests()[1].ToolResults(); len(res) != 1 || !res[0].IsError || strings.Contains(resultText(res[0]), "ran") {
		t.Errorf("the Bash call's result %+v, want an error that ran nothing", res)
	}
	if !strings.Contains(r.Stderr, "model") || !strings.Contains(r.Stderr, "permissions.allow") {
		t.Errorf("stderr %q, want the ignored keys named", r.Stderr)
	}
	if m := srv.Requests()[0].Model; strings.Contains(m, "haiku") {
		t.Errorf("the host policy's model %q was used", m)
	}
}

// An installed managed policy is the only policy: the host's is then
// ignored (Claude Code's default, first-wins).
func TestHostPolicyYieldsToAnInstalledPolicy(t *testing.T) {
	srv := server(t, bashThenDone()...)
	sb := e2etest.NewSandbox(t, srv.URL)
	dir := filepath.Join(sb.Home, "policy")
	writeFile(t, filepath.Join(dir, "managed-settings.json"), `{"permissions":{"deny":["WebFetch"]}}`)
	sb.Env = append(sb.Env, "REINS_MANAGED_SETTINGS_DIR="+dir)
	r := sb.Run(t, "", "-p", "run it", "--output-format", "json", "--allowedTools", "Bash",
		"--managed-settings", `{"permissions":{"deny":["Bash"]}}`)
	decodeAutoResult(t, r)
	if res := srv.Requests()[1].ToolResults(); len(res) != 1 || !strings.Contains(resultText(res[0]), "ran") {
		t.Errorf("the Bash call's result %+v, want it run: the installed policy replaces the host's", res)
	}
	if !strings.Contains(r.Stderr, "--managed-settings") {
		t.Errorf("stderr %q, want a warning that the host policy is ignored", r.Stderr)
	}
}
