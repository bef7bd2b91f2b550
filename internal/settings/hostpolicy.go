package settings

import (
	"encoding/json"
	"fmt"
	"sort"
)

// HostPolicyName names the policy an Agent SDK host passes (the
// managedSettings option, --managed-settings) in warnings and rule
// origins.
const HostPolicyName = "--managed-settings"

// restrictHostPolicy keeps the keys of a host's policy that can only
// narrow what a session may do, as Claude Code filters the SDK's
// managedSettings: deny and ask rules, the switches that turn modes off,
// and the locks that keep rules, hooks and MCP servers to managed ones.
// disableAllHooks binds as allowManagedHooksOnly (an administrator's own
// hooks keep running), and the HTTP hook allow lists bind only as empty
// lists (they union across sources, so a non-empty one would widen
// them). It returns the filtered JSON and the keys it dropped (among
// them restrictive ones reins does not enforce, such as
// deniedMcpServers).
func restrictHostPolicy(data []byte) ([]byte, []string, error) {
	var in map[string]json.RawMessage
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, nil, fmt.Errorf("%s: not a JSON object: %w", HostPolicyName, err)
	}
	out := map[string]json.RawMessage{}
	var dropped []string
	for k, v := range in {
		switch k {
		case "allowManagedPermissionRulesOnly", "allowManagedHooksOnly", "disableAutoMode":
			out[k] = v
		case "disableAllHooks":
			var off bool
			if json.Unmarshal(v, &off) == nil && !off || string(v) == `"false"` {
				continue
			}
			out["allowManagedHooksOnly"] = json.RawMessage("true")
		case "allowedHttpHookUrls", "httpHookAllowedEnvVars":
			var list []any
			if json.Unmarshal(v, &list) == nil && len(list) == 0 {
				out[k] = v
			} else {
				dropped = append(dropped, k)
			}
		case "permissions":
			var p map[string]json.RawMessage
			if json.Unmarshal(v, &p) != nil {
				dropped = append(dropped, k)
				continue
			}
			kept := map[string]json.RawMessage{}
			for pk, pv := range p {
				switch pk {
				case "deny", "ask", "disableBypassPermissionsMode", "disableAutoMode":
					kept[pk] = pv
				default:
					dropped = append(dropped, "permissions."+pk)
				}
			}
			if len(kept) > 0 {
				b, err := json.Marshal(kept)
				if err != nil {
					return nil, nil, err
				}
				out[k] = b
			}
		default:
			dropped = append(dropped, k)
		}
	}
	sort.Strings(dropped)
	b, err := json.Marshal(out)
	return b, dropped, err
}
