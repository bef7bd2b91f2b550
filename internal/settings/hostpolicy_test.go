package settings

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestRestrictHostPolicyKeepsOnlyRestrictiveKeys(t *testing.T) {
	in := `{"permissions":{"deny":["Bash"],"ask":["Edit"],"allow":["Read"],"defaultMode":"bypassPermissions","disableBypassPermissionsMode":"disable"},
		"disableAllHooks":true,"allowedHttpHookUrls":["https://x"],"httpHookAllowedEnvVars":[],
		"model":"opus","env":{"A":"1"},"allowManagedPermissionRulesOnly":true,"deniedMcpServers":[{"serverName":"x"}]}`
	out, dropped, err := restrictHostPolicy([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"permissions":                     map[string]any{"deny": []any{"Bash"}, "ask": []any{"Edit"}, "disableBypassPermissionsMode": "disable"},
		"allowManagedHooksOnly":           true,
		"httpHookAllowedEnvVars":          []any{},
		"allowManagedPermissionRulesOnly": true,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("kept %v\nwant %v", got, want)
	}
	wantDropped := []string{"allowedHttpHookUrls", "deniedMcpServers", "env", "model", "permissions.allow", "permissions.defaultMode"}
	if !reflect.DeepEqual(dropped, wantDropped) {
		t.Errorf("dropped %v, want %v", dropped, wantDropped)
	}
}

func TestRestrictHostPolicyDisableAllHooksFalseBindsNothing(t *testing.T) {
	for _, v := range []string{`false`, `"false"`} {
		out, _, err := restrictHostPolicy([]byte(`{"disableAllHooks":` + v + `}`))
		if err != nil || string(out) != "{}" {
			t.Errorf("disableAllHooks %s: got %s, %v; want {}", v, out, err)
		}
	}
}

func TestRestrictHostPolicyRefusesNonObjects(t *testing.T) {
	if _, _, err := restrictHostPolicy([]byte(`["deny"]`)); err == nil {
		t.Error("a JSON list was accepted as a policy")
	}
}

func FuzzRestrictHostPolicy(f *testing.F) {
	f.Add([]byte(`{"permissions":{"deny":["Bash"]},"disableAllHooks":"yes"}`))
	f.Add([]byte(`{"permissions":[],"allowedHttpHookUrls":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, _, err := restrictHostPolicy(data)
		if err != nil {
			return
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(out, &m) != nil {
			t.Fatalf("output %q is not a JSON object", out)
		}
		for k := range m {
			switch k {
			case "permissions", "allowManagedPermissionRulesOnly", "allowManagedHooksOnly", "disableAutoMode",
				"allowedHttpHookUrls", "httpHookAllowedEnvVars":
			default:
				t.Fatalf("kept key %q", k)
			}
		}
	})
}
