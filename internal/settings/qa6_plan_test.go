package settings

import (
	"path/filepath"
	"strings"
	"testing"
)

// disableAutoMode: true, which users write as often as the documented
// "disable", disables auto mode too, at the top level and inside
// permissions; false leaves it available without a warning, and another
// string is named in a warning.
func TestDisableAutoModeBoolean(t *testing.T) {
	for _, tc := range []struct {
		content  string
		disabled bool
		warning  string
	}{
		{`{"disableAutoMode": true}`, true, ""},
		{`{"permissions": {"disableAutoMode": true, "allow": ["Read"]}}`, true, ""},
		{`{"disableAutoMode": false}`, false, ""},
		{`{"permissions": {"disableAutoMode": false}}`, false, ""},
		{`{"disableAutoMode": "yes"}`, false, `setting disableAutoMode: unknown value "yes"`},
		{`{"permissions": {"disableAutoMode": 1}}`, false, `setting permissions.disableAutoMode: expected "disable" or a boolean`},
	} {
		e := newEnv(t)
		e.write(filepath.Join(e.claude, "settings.json"), tc.content)
		s, w := e.load(e.opts())
		if s.DisableAutoMode != tc.disabled {
			t.Errorf("%s: disabled = %v, want %v", tc.content, s.DisableAutoMode, tc.disabled)
		}
		switch {
		case tc.warning == "" && len(w) != 0:
			t.Errorf("%s: warnings %v", tc.content, w)
		case tc.warning != "" && (len(w) != 1 || !strings.Contains(w[0].Message, tc.warning)):
			t.Errorf("%s: warnings %v, want one saying %q", tc.content, w, tc.warning)
		}
	}
	// The other permissions in the same object still apply.
	e := newEnv(t)
	e.write(filepath.Join(e.claude, "settings.json"), `{"permissions": {"disableAutoMode": true, "disableBypassPermissionsMode": "disable"}}`)
	if s, _ := e.load(e.opts()); !s.DisableBypassPermissions || !s.DisableAutoMode {
		t.Errorf("bypass disabled %v, auto disabled %v", s.DisableBypassPermissions, s.DisableAutoMode)
	}
}

// permissions.disableBypassPermissionsMode: true disables bypass mode like
// "disable"; false does not, and another string is named in a warning.
func TestDisableBypassPermissionsModeBoolean(t *testing.T) {
	for _, tc := range []struct {
		content  string
		disabled bool
		warning  string
	}{
		{`{"permissions": {"disableBypassPermissionsMode": true, "deny": ["Bash(rm:*)"]}}`, true, ""},
		{`{"permissions": {"disableBypassPermissionsMode": "disable"}}`, true, ""},
		{`{"permissions": {"disableBypassPermissionsMode": false}}`, false, ""},
		{`{"permissions": {"disableBypassPermissionsMode": "off"}}`, false, `setting permissions.disableBypassPermissionsMode: unknown value "off"`},
	} {
		e := newEnv(t)
		e.write(filepath.Join(e.claude, "settings.json"), tc.content)
		s, w := e.load(e.opts())
		if s.DisableBypassPermissions != tc.disabled {
			t.Errorf("%s: disabled = %v, want %v", tc.content, s.DisableBypassPermissions, tc.disabled)
		}
		switch {
		case tc.warning == "" && len(w) != 0:
			t.Errorf("%s: warnings %v", tc.content, w)
		case tc.warning != "" && (len(w) != 1 || !strings.Contains(w[0].Message, tc.warning)):
			t.Errorf("%s: warnings %v, want one saying %q", tc.content, w, tc.warning)
		}
		if strings.Contains(tc.content, "deny") && len(s.Rules) != 1 {
			t.Errorf("%s: rules %v, want the deny rule kept", tc.content, s.Rules)
		}
	}
}
