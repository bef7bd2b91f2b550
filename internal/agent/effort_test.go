package agent

import (
	"strings"
	"testing"
)

func TestFrontmatterEffortAndIsolation(t *testing.T) {
	d, problems, err := parseDefinition([]byte("---\nname: w\ndescription: works\neffort: High\nisolation: worktree\n---\nDo it.\n"), "w.md", SourceProject)
	if err != nil || len(problems) != 0 {
		t.Fatalf("err %v problems %v", err, problems)
	}
	if d.Effort != "high" || d.Isolation != IsolationWorktree {
		t.Errorf("effort %q isolation %q", d.Effort, d.Isolation)
	}
	d, problems, err = parseDefinition([]byte("---\nname: w\ndescription: works\neffort: extreme\nisolation: remote\n---\nDo it.\n"), "w.md", SourceProject)
	if err != nil || d.Effort != "" || d.Isolation != "" || len(problems) != 2 {
		t.Fatalf("bad values: err %v, effort %q, isolation %q, problems %v", err, d.Effort, d.Isolation, problems)
	}
	all := problems[0].Error() + "\n" + problems[1].Error()
	for _, want := range []string{"line 4", "effort", "low, medium, high, xhigh, max", "line 5", `"remote"`} {
		if !strings.Contains(all, want) {
			t.Errorf("problems %q lack %q", all, want)
		}
	}
	d, _, _ = parseDefinition([]byte("---\nname: w\ndescription: works\neffort: auto\n---\nDo it.\n"), "w.md", SourceProject)
	if d.Effort != "" {
		t.Errorf("auto: effort %q, want none of its own", d.Effort)
	}
}

func TestJSONAgentEffortAndIsolation(t *testing.T) {
	defs, err := ParseJSON([]byte(`{"a":{"description":"d","prompt":"p","effort":"xhigh","isolation":"worktree"},"b":{"description":"d","prompt":"p","effort":3}}`), SourceSDK)
	if err != nil {
		t.Fatal(err)
	}
	if defs[0].Effort != "xhigh" || defs[0].Isolation != IsolationWorktree || defs[1].Effort != "" {
		t.Errorf("a: %q %q; b (a number, ignored): %q", defs[0].Effort, defs[0].Isolation, defs[1].Effort)
	}
	for in, want := range map[string]string{
		`{"a":{"description":"d","prompt":"p","effort":"huge"}}`:      `agents JSON: agent "a": effort: effort level "huge" is not one of`,
		`{"a":{"description":"d","prompt":"p","isolation":"remote"}}`: `agents JSON: agent "a": isolation: "remote" is not supported`,
	} {
		if _, err := ParseJSON([]byte(in), SourceSDK); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: err %v, want prefix %q", in, err, want)
		}
	}
}
