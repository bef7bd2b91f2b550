package settings

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// The parent program's policy settings (--managed-settings, the Agent
// SDK's managedSettings) apply as the policy tier, restrictive part only:
// deny and ask rules and the switches that narrow stay, what would widen
// (allow rules, a model, a mode) is dropped with a warning naming it, and
// disableAllHooks binds as allowManagedHooksOnly.
func TestQA10ParentManagedSettingsApplyRestrictivelyAsPolicy(t *testing.T) {
	e := newEnv(t)
	e.write(filepath.Join(e.project, ".claude", "settings.json"),
		`{"permissions":{"allow":["Bash(ls:*)"]},"hooks":{"Stop":[{"hooks":[{"type":"command","command":"true"}]}]}}`)
	o := e.opts()
	o.ParentManaged = `{"model":"haiku","disableAllHooks":true,"allowManagedPermissionRulesOnly":true,` +
		`"permissions":{"deny":["Bash(rm:*)"],"ask":["Write"],"allow":["Edit"],"defaultMode":"bypassPermissions","disableBypassPermissionsMode":"disable"}}`
	s, warns := e.load(o)
	var rules []string
	for _, r := range s.Rules {
		rules = append(rules, string(r.Behavior)+" "+r.Text+" "+string(r.Source))
	}
	if got := strings.Join(rules, "|"); got != "deny Bash(rm:*) policySettings|ask Write policySettings" {
		t.Errorf("rules %q, want the parent's deny and ask rules alone (its allow dropped, the project's allow set aside by allowManagedPermissionRulesOnly)", got)
	}
	if !s.DisableBypassPermissions {
		t.Error("disableBypassPermissionsMode from the parent did not apply")
	}
	if s.DefaultMode != "" && s.DefaultMode != "default" {
		t.Errorf("default mode %q: the parent may not choose one", s.DefaultMode)
	}
	if len(s.Hooks) != 0 {
		t.Errorf("hooks %v: disableAllHooks from the parent keeps managed hooks only", s.Hooks)
	}
	var model string
	if _, _ = s.Get("model", &model); model == "haiku" {
		t.Error("the parent's model applied: it widens nothing but is not a restriction either")
	}
	var all []string
	for _, w := range warns {
		all = append(all, w.String())
	}
	want := "--managed-settings (the SDK's managedSettings) may only restrict; ignored: model, permissions.allow, permissions.defaultMode"
	if !strings.Contains(strings.Join(all, "\n"), want) {
		t.Errorf("warnings %q, want %q", all, want)
	}
}

// An installed managed policy wins: the parent's settings are dropped,
// with a warning naming the installed file.
func TestQA10ParentManagedSettingsYieldToAnInstalledPolicy(t *testing.T) {
	e := newEnv(t)
	policy := e.write(filepath.Join(e.managed, "claude.json"), `{"permissions":{"deny":["WebFetch"]}}`)
	o := e.opts()
	o.ParentManaged = `{"permissions":{"deny":["Bash"]}}`
	s, warns := e.load(o)
	for _, r := range s.Rules {
		if r.Text == "Bash" {
			t.Errorf("the parent's rule applied over the installed policy: %+v", r)
		}
	}
	var all []string
	for _, w := range warns {
		all = append(all, w.String())
	}
	if got := strings.Join(all, "\n"); !strings.Contains(got, "a managed policy is installed at "+policy) {
		t.Errorf("warnings %q, want one naming %s", got, policy)
	}
}

// Parent policy settings that are not a JSON object stop the load (policy
// fails closed) with an error naming the flag.
func TestQA10MalformedParentManagedSettingsFailClosed(t *testing.T) {
	e := newEnv(t)
	for _, bad := range []string{`[1]`, `{"permissions":`, `"deny"`} {
		o := e.opts()
		o.ParentManaged = bad
		_, _, err := Load(context.Background(), o)
		if err == nil || !strings.Contains(err.Error(), "--managed-settings") {
			t.Errorf("%s: error %v, want one naming --managed-settings", bad, err)
		}
	}
}

// A sandbox the parent turns on is kept (reins, which has none, then
// refuses to run commands rather than run them unprotected); a sandbox
// object that does not turn it on is dropped with the warning.
func TestQA10ParentManagedSandboxOnlyWhenTurnedOn(t *testing.T) {
	e := newEnv(t)
	o := e.opts()
	o.ParentManaged = `{"sandbox":{"enabled":true}}`
	s, _ := e.load(o)
	if !s.Sandbox.Enabled {
		t.Error("the parent's sandbox.enabled did not apply")
	}
	o.ParentManaged = `{"sandbox":{"enabled":false}}`
	s, warns := e.load(o)
	if s.Sandbox.Enabled {
		t.Error("sandbox enabled from a parent that turned it off")
	}
	var all []string
	for _, w := range warns {
		all = append(all, w.String())
	}
	if !strings.Contains(strings.Join(all, "\n"), "ignored: sandbox") {
		t.Errorf("warnings %q, want the dropped sandbox named", all)
	}
}
