package sdk

import (
	"strings"
	"testing"
)

// An update_environment_variables line is read into its variables; a
// name that cannot be in an environment, or variables that are not
// strings, make the line an error that says why.
func TestDecodeUpdateEnvironmentVariables(t *testing.T) {
	m, err := Decode([]byte(`{"type":"update_environment_variables","variables":{"A":"1","B_2":""}}`), 3)
	if err != nil || m.Type != KindUpdateEnv || len(m.Variables) != 2 || m.Variables["A"] != "1" {
		t.Fatalf("Decode = %+v, %v", m, err)
	}
	for line, want := range map[string]string{
		`{"type":"update_environment_variables","variables":{"A=B":"x"}}`: `"A=B" is not a variable name`,
		`{"type":"update_environment_variables","variables":{"A":1}}`:     `"variables" is not an object of names to string values`,
		`{"type":"update_environment_variables"}`:                         `"variables" is not an object`,
	} {
		_, err := Decode([]byte(line), 4)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "line 4") {
			t.Errorf("Decode(%s) error = %v, want %q", line, err, want)
		}
	}
}
