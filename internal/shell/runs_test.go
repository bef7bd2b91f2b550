package shell

import (
	"reflect"
	"testing"
)

func TestRuns(t *testing.T) {
	tests := []struct {
		cmd  string
		want []Run
	}{
		{"xargs rm -rf", []Run{{Via: "xargs", Args: []string{"rm", "-rf"}, Static: true}}},
		{"xargs -n 1 -I {} /bin/rm {}", []Run{{Via: "xargs", Args: []string{"rm", "{}"}, Static: true}}},
		{"xargs", []Run{{Via: "xargs", Args: []string{"echo"}, Static: true}}},
		{`find . -name '*.o' -exec rm {} \; -o -execdir chmod +x {} +`, []Run{
			{Via: "find", Args: []string{"rm", "{}"}, Static: true},
			{Via: "find", Args: []string{"chmod", "+x", "{}"}, Static: true}}},
		{"find . -name x", nil},
		{"sudo -u root rm -rf /", []Run{{Via: "sudo", Args: []string{"rm", "-rf", "/"}, Static: true}}},
		{"sudo -s", []Run{{Via: "sudo"}}},
		{"doas $CMD", []Run{{Via: "doas", Args: []string{"$CMD"}}}},
		{"watch -n 2 git status", []Run{{Via: "watch", Args: []string{"git", "status"}, Static: true}}},
		{"timeout 5 xargs rm", []Run{{Via: "xargs", Args: []string{"rm"}, Static: true}}},
		{"ls -la", nil},
	}
	for _, tt := range tests {
		s, err := Parse(tt.cmd)
		if err != nil {
			t.Fatalf("%s: %v", tt.cmd, err)
		}
		if got := s.Commands[0].Runs(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Runs(%q) = %+v, want %+v", tt.cmd, got, tt.want)
		}
	}
}

func TestCommandReadOnly(t *testing.T) {
	tests := []struct {
		cmd  string
		want []bool
	}{
		{"git status && rm -rf x", []bool{true, false}},
		{"ls > out.txt; cat a", []bool{false, true}},
		{"PATH=/tmp git status", []bool{false}},
		{"grep -r x . | head -5", []bool{true, true}},
	}
	for _, tt := range tests {
		s, err := Parse(tt.cmd)
		if err != nil {
			t.Fatal(err)
		}
		var got []bool
		for _, c := range s.Commands {
			ok, _ := c.ReadOnly()
			got = append(got, ok)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: read-only per command = %v, want %v", tt.cmd, got, tt.want)
		}
	}
	if !DangerousEnv("LD_PRELOAD") || DangerousEnv("FOO") {
		t.Error("DangerousEnv is wrong")
	}
}
