package settings

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFlagOverlayReplacesKeysOfTheSettingsFlagAndNullRemovesThem(t *testing.T) {
	e := newEnv(t)
	e.write(filepath.Join(e.home, ".claude", "settings.json"), `{"model":"user-model","env":{"A":"user"}}`)
	o := e.opts()
	o.CLISettings = `{"model":"flag-model","env":{"A":"flag"},"permissions":{"deny":["Bash"]}}`
	o.FlagOverlay = map[string]json.RawMessage{"model": json.RawMessage(`null`), "env": json.RawMessage(`{"B":"overlay"}`)}
	s, _ := e.load(o)
	if s.Model != "user-model" {
		t.Errorf("model %q: a null in the overlay removes the flag layer's model", s.Model)
	}
	if s.Env["A"] != "user" || s.Env["B"] != "overlay" {
		t.Errorf("env %v: the overlay's env replaces the flag layer's whole", s.Env)
	}
	if len(s.Rules) != 1 || s.Rules[0].Source != SourceFlag || s.Rules[0].Text != "Bash" {
		t.Errorf("rules %+v: the flag layer's other keys stay", s.Rules)
	}

	// Without --settings the overlay is the flag layer.
	o = e.opts()
	o.FlagOverlay = map[string]json.RawMessage{"permissions": json.RawMessage(`{"allow":["Read"]}`)}
	s, _ = e.load(o)
	if len(s.Rules) != 1 || s.Rules[0].Source != SourceFlag {
		t.Errorf("rules %+v", s.Rules)
	}
}

func TestCheckOverlayRefusesWrongShapesAndMisspeltKeys(t *testing.T) {
	for over, want := range map[string]string{
		`{"model":5}`:                         "setting model: expected a string, found JSON number",
		`{"permisions":{}}`:                   `unknown setting "permisions" (did you mean "permissions"?)`,
		`{"effortLevel":"extreme"}`:           `setting effortLevel: unknown level "extreme"`,
		`{"permissions":{"defaultMode":"x"}}`: `setting permissions.defaultMode: unknown mode "x"`,
		`{"env":{"A":[1]}}`:                   "setting env.A: expected a string, found an array",
	} {
		var m map[string]json.RawMessage
		json.Unmarshal([]byte(over), &m)
		err := CheckOverlay(m)
		if err == nil || !strings.Contains(err.Error(), want) || strings.HasSuffix(err.Error(), "ignored") {
			t.Errorf("CheckOverlay(%s) = %v, want %q", over, err, want)
		}
	}
	for _, over := range []string{`{"model":null,"env":null}`, `{"model":"sonnet","effortLevel":"max","somethingNew":1}`} {
		var m map[string]json.RawMessage
		json.Unmarshal([]byte(over), &m)
		if err := CheckOverlay(m); err != nil {
			t.Errorf("CheckOverlay(%s) = %v, want it accepted", over, err)
		}
	}
}

func TestSetValueMakesTheObjectsOnThePathAndKeepsTheRest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(`{"zeta":"a&b","modelSettings":{"m1":{"autoCompactWindow":"auto"}},"alpha":1}`), 0o644)
	if err := SetValue(path, []string{"modelSettings", "m1", "effortLevel"}, "high"); err != nil {
		t.Fatal(err)
	}
	if err := SetValue(path, []string{"outputStyle"}, "Explanatory"); err != nil {
		t.Fatal(err)
	}
	want := `{
  "zeta": "a&b",
  "modelSettings": {
    "m1": {
      "autoCompactWindow": "auto",
      "effortLevel": "high"
    }
  },
  "alpha": 1,
  "outputStyle": "Explanatory"
}
`
	if data, _ := os.ReadFile(path); string(data) != want {
		t.Errorf("file:\n%s\nwant:\n%s", data, want)
	}
	os.WriteFile(path, []byte(`{"modelSettings":"oops"}`), 0o644)
	if err := SetValue(path, []string{"modelSettings", "m1", "effortLevel"}, "high"); err == nil || !strings.Contains(err.Error(), "modelSettings is not an object, not changed") {
		t.Errorf("SetValue through a string = %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != `{"modelSettings":"oops"}` {
		t.Errorf("the file was changed: %s", data)
	}
}
