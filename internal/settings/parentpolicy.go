package settings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// parentManagedName names the parent's policy settings in messages: the
// --managed-settings flag, which the Agent SDK's managedSettings option
// sets.
const parentManagedName = "--managed-settings"

// restrictOnly keeps the part of the policy settings a parent program
// gives (--managed-settings) that can only narrow what the session may
// do, as Claude Code filters its parent's tier: deny and ask rules,
// switches that turn modes or other sources' rules and hooks off, a
// sandbox turned on. disableAllHooks binds as allowManagedHooksOnly,
// so the machine's own policy hooks still run. It returns the kept
// settings as JSON and the keys it dropped (dotted, sorted); an error
// when data is not a JSON object.
func restrictOnly(data []byte) ([]byte, []string, error) {
	var top map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&top); err != nil || top == nil {
		return nil, nil, fmt.Errorf("%s must be a JSON object of settings", parentManagedName)
	}
	kept := map[string]any{}
	var dropped []string
	for key, raw := range top {
		switch key {
		case "allowManagedPermissionRulesOnly", "allowManagedHooksOnly", "disableAutoMode":
			if isTrue(raw) {
				kept[key] = true
			} else {
				dropped = append(dropped, key)
			}
		case "disableAllHooks":
			if isFalse(raw) {
				dropped = append(dropped, key)
			} else {
				kept["allowManagedHooksOnly"] = true
			}
		case "sandbox":
			// Turned on it narrows (reins, with no sandbox, then refuses
			// to run commands); anything else is dropped.
			var sb struct {
				Enabled json.RawMessage `json:"enabled"`
			}
			if json.Unmarshal(raw, &sb) == nil && isTrue(sb.Enabled) {
				kept[key] = raw
			} else {
				dropped = append(dropped, key)
			}
		case "permissions":
			var p map[string]json.RawMessage
			if json.Unmarshal(raw, &p) != nil {
				dropped = append(dropped, key)
				continue
			}
			perms := map[string]json.RawMessage{}
			for k, v := range p {
				switch k {
				case "deny", "ask", "disableBypassPermissionsMode", "disableAutoMode":
					perms[k] = v
				default:
					dropped = append(dropped, key+"."+k)
				}
			}
			if len(perms) > 0 {
				kept[key] = perms
			}
		default:
			dropped = append(dropped, key)
		}
	}
	sort.Strings(dropped)
	out, err := json.Marshal(kept)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", parentManagedName, err)
	}
	return out, dropped, nil
}

// isTrue reports whether raw is true or "true".
func isTrue(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s == "true" || s == `"true"`
}

// isFalse reports whether raw is false or "false" (anything else turns
// disableAllHooks on, as an enterprise tool may give a boolean as text).
func isFalse(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s == "false" || s == `"false"`
}
