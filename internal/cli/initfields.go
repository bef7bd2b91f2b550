package cli

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"reins/internal/sdk"
)

// takeInitFields moves the settings, disallowed tools and host policy an
// SDK host sent in the initialize request into o, as if they had been
// given as --settings, --disallowedTools and --managed-settings. Each one
// the command line says is coming must be there and must not also be
// given as its flag; otherwise the session does not start, because it
// would run without rules or a policy the host meant it to have.
func takeInitFields(req *sdk.InitializeRequest, o *Options) error {
	var fields []string
	for _, f := range strings.FieldsFunc(o.InitFields, func(r rune) bool { return r == ',' || r == ' ' }) {
		switch f {
		case "settings", "disallowedTools":
			fields = append(fields, f)
		default:
			return fmt.Errorf("--initialize-fields: reins cannot take %q from the initialize request (it takes settings and disallowedTools)", f)
		}
	}
	if len(fields) == 0 && !o.HostPolicyInInit {
		return nil
	}
	if req == nil {
		return fmt.Errorf("the initialize request, which was to carry %s, did not arrive or could not be read", initFieldNames(fields, o.HostPolicyInInit))
	}
	present := func(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }
	if slices.Contains(fields, "settings") {
		if !present(req.Settings) {
			return fmt.Errorf("--initialize-fields names settings, and the initialize request has none")
		}
		if o.Settings != "" {
			return fmt.Errorf("settings come in the initialize request (--initialize-fields); --settings must not be given too")
		}
		var path string
		if json.Unmarshal(req.Settings, &path) == nil {
			o.Settings = path // a settings file, as the SDK's settings option may name one
		} else {
			o.Settings = string(req.Settings)
		}
	}
	if slices.Contains(fields, "disallowedTools") {
		var tools []string
		if !present(req.DisallowedTools) || json.Unmarshal(req.DisallowedTools, &tools) != nil {
			return fmt.Errorf("--initialize-fields names disallowedTools, and the initialize request has no list of them")
		}
		if len(o.DisallowedTool) > 0 {
			return fmt.Errorf("disallowedTools come in the initialize request (--initialize-fields); --disallowedTools must not be given too")
		}
		o.DisallowedTool = tools
	}
	if o.HostPolicyInInit {
		var obj map[string]json.RawMessage
		if !present(req.ManagedSettings) || json.Unmarshal(req.ManagedSettings, &obj) != nil {
			return fmt.Errorf("--managed-settings-in-initialize: the initialize request has no managedSettings object")
		}
		if o.HostPolicy != "" {
			return fmt.Errorf("managedSettings come in the initialize request; --managed-settings must not be given too")
		}
		o.HostPolicy = string(req.ManagedSettings)
	}
	return nil
}

// initFieldNames lists what the initialize request was to carry.
func initFieldNames(fields []string, policy bool) string {
	if policy {
		fields = append(slices.Clone(fields), "managedSettings")
	}
	return strings.Join(fields, " and ")
}
