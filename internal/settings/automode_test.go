package settings

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestProjectDefaultModeAutoIsIgnored(t *testing.T) {
	e := newEnv(t)
	e.write(filepath.Join(e.claude, "settings.json"), `{"permissions": {"defaultMode": "acceptEdits"}}`)
	e.write(filepath.Join(e.project, ".claude", "settings.json"), `{"permissions": {"defaultMode": "auto"}}`)
	s, w := e.load(e.opts())
	if s.DefaultMode != "acceptEdits" {
		t.Errorf("defaultMode = %q, want the user's acceptEdits", s.DefaultMode)
	}
	if len(w) != 1 || !strings.Contains(w[0].Message, `defaultMode "auto" is ignored in shared project settings`) || !strings.HasSuffix(w[0].File, filepath.Join(".claude", "settings.json")) || w[0].Line == 0 {
		t.Errorf("warnings = %v", w)
	}
	// Local project settings may choose auto; so may managed policy.
	e.write(filepath.Join(e.project, ".claude", "settings.local.json"), `{"permissions": {"defaultMode": "auto"}}`)
	if s, _ := e.load(e.opts()); s.DefaultMode != "auto" {
		t.Errorf("local defaultMode auto: got %q", s.DefaultMode)
	}
}

func TestAutoModeSettingsMergeWithoutTheProject(t *testing.T) {
	e := newEnv(t)
	e.write(filepath.Join(e.claude, "settings.json"), `{"autoMode": {"soft_deny": ["user rule", "$defaults"], "environment": ["user env"]}}`)
	e.write(filepath.Join(e.project, ".claude", "settings.local.json"), `{"autoMode": {"soft_deny": ["local rule"], "classifyAllShell": true}}`)
	e.write(filepath.Join(e.project, ".claude", "settings.json"), `{"autoMode": {"allow": ["everything"]}}`)
	s, w := e.load(e.opts())
	want := AutoMode{SoftDeny: []string{"local rule", "user rule", "$defaults"}, Environment: []string{"user env"}, ClassifyAllShell: true}
	if !reflect.DeepEqual(s.AutoMode, want) {
		t.Errorf("autoMode = %+v, want %+v", s.AutoMode, want)
	}
	if len(w) != 1 || !strings.Contains(w[0].Message, "autoMode is ignored in shared project settings") {
		t.Errorf("warnings = %v", w)
	}
}

func TestDisableAutoModeFromAnySource(t *testing.T) {
	for _, content := range []string{`{"disableAutoMode": "disable"}`, `{"permissions": {"disableAutoMode": "disable"}}`} {
		e := newEnv(t)
		f := e.write(filepath.Join(e.project, ".claude", "settings.json"), content)
		s, w := e.load(e.opts())
		if !s.DisableAutoMode || s.DisableAutoModeFile != f || len(w) != 0 {
			t.Errorf("%s: disabled %v in %q, warnings %v", content, s.DisableAutoMode, s.DisableAutoModeFile, w)
		}
	}
	e := newEnv(t)
	e.write(filepath.Join(e.claude, "settings.json"), `{"disableAutoMode": 1, "autoMode": {"allow": "all"}}`)
	s, w := e.load(e.opts())
	if s.DisableAutoMode || len(w) != 2 {
		t.Errorf("badly typed values: disabled %v, warnings %v", s.DisableAutoMode, w)
	}
}

func TestManualIsAKnownMode(t *testing.T) {
	e := newEnv(t)
	e.write(filepath.Join(e.claude, "settings.json"), `{"permissions": {"defaultMode": "manual"}}`)
	if s, w := e.load(e.opts()); s.DefaultMode != "manual" || len(w) != 0 {
		t.Errorf("defaultMode %q, warnings %v", s.DefaultMode, w)
	}
}
