package skill

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"reins/internal/command"
	"reins/internal/tool"
)

func setup(t *testing.T) *Tool {
	t.Helper()
	dir := t.TempDir()
	skillDir := filepath.Join(dir, ".claude", "skills", "pdf-tools")
	if err := os.MkdirAll(skillDir, 0o755); err != nil {
		t.Fatal(err)
	}
	md := "---\ndescription: Read PDFs\nallowed-tools: Read, Bash(pdftotext:*)\nmodel: haiku\n---\nExtract $ARGUMENTS with ${CLAUDE_SKILL_DIR}/run.sh\n"
	if err := os.WriteFile(filepath.Join(skillDir, "SKILL.md"), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	cmds, errs := command.Load(command.Roots{Project: []string{filepath.Join(dir, ".claude")}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	reg := command.NewRegistry(
		&command.Command{Name: "clear", Kind: command.Local, Source: command.SourceBuiltin},
		&command.Command{Name: "init", Kind: command.Prompt, Source: command.SourceBuiltin},
		&command.Command{Name: "deploy", Kind: command.Prompt, Source: command.SourceProject, DisableModelInvocation: true, Body: "deploy"},
		&command.Command{Name: "status", Kind: command.Prompt, Source: command.SourceProject, Body: "State: !`git status`"},
	)
	reg.Add(cmds...)
	return New(reg, &command.Expander{Dir: dir})
}

func call(t *testing.T, tl *Tool, input string) (*tool.Result, error) {
	t.Helper()
	if err := (&tool.Schemas{}).Validate(tl.InputSchema(), json.RawMessage(input)); err != nil {
		t.Fatalf("input %s does not match the schema: %v", input, err)
	}
	if err := tl.Validate(context.Background(), &tool.Call{}, json.RawMessage(input)); err != nil {
		return nil, err
	}
	return tl.Call(context.Background(), &tool.Call{}, json.RawMessage(input), nil)
}

func TestCallLoadsTheSkillAsMessages(t *testing.T) {
	tl := setup(t)
	for _, input := range []string{`{"skill":"pdf-tools","args":"report.pdf"}`, `{"skill":"/pdf-tools","args":" report.pdf "}`} {
		res, err := call(t, tl, input)
		if err != nil {
			t.Fatalf("Call(%s): %v", input, err)
		}
		if got := res.Content[0].Text; got != "Loaded skill pdf-tools. Its instructions follow; carry them out." {
			t.Errorf("content = %q", got)
		}
		if len(res.Messages) != 2 {
			t.Fatalf("Messages = %d blocks, want header and prompt", len(res.Messages))
		}
		if want := "<command-message>pdf-tools</command-message>\n<command-name>/pdf-tools</command-name>\n<command-args>report.pdf</command-args>"; res.Messages[0].Text != want {
			t.Errorf("header = %q", res.Messages[0].Text)
		}
		p := res.Messages[1].Text
		if !strings.HasPrefix(p, "This skill's folder is ") || !strings.Contains(p, "Extract report.pdf with ") || !strings.HasSuffix(p, filepath.Join("pdf-tools", "run.sh")) {
			t.Errorf("prompt = %q", p)
		}
		want := Data{Success: true, CommandName: "pdf-tools", AllowedTools: []string{"Read", "Bash(pdftotext:*)"}, Model: "haiku"}
		if diff := cmp.Diff(want, res.Data); diff != "" {
			t.Errorf("Data (-want +got):\n%s", diff)
		}
	}
}

func TestCallRefusesWhatTheModelMayNotLoad(t *testing.T) {
	tl := setup(t)
	tests := []struct{ input, want string }{
		{`{"skill":"nope"}`, "Unknown skill: nope. Use a name from the skill listing"},
		{`{"skill":"  "}`, "skill is empty: give the name of a listed skill"},
		{`{"skill":"clear"}`, "/clear is a built-in command, not a skill; only the user can run it"},
		{`{"skill":"init"}`, "/init is a built-in command, not a skill; only the user can run it"},
		{`{"skill":"deploy"}`, "skill deploy can only be run by the user (it sets disable-model-invocation)"},
	}
	for _, tt := range tests {
		_, err := call(t, tl, tt.input)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Call(%s) error = %v, want %q", tt.input, err, tt.want)
		}
	}
}

func TestReadOnlyUnlessTheSkillRunsCommands(t *testing.T) {
	tl := setup(t)
	tests := map[string]bool{
		`{"skill":"pdf-tools"}`: true,
		`{"skill":"status"}`:    false,
		`{"skill":"nope"}`:      false,
		`not json`:              false,
	}
	for input, want := range tests {
		if got := tl.IsReadOnly(json.RawMessage(input)); got != want {
			t.Errorf("IsReadOnly(%s) = %v, want %v", input, got, want)
		}
		if got := tl.IsConcurrencySafe(json.RawMessage(input)); got != want {
			t.Errorf("IsConcurrencySafe(%s) = %v, want %v", input, got, want)
		}
	}
}

func TestSchemaAndDescriptionAreStatic(t *testing.T) {
	tl := setup(t)
	if err := (&tool.Schemas{}).Validate(tl.InputSchema(), json.RawMessage(`{"skill":"x","extra":1}`)); err == nil {
		t.Errorf("schema accepted an unknown property")
	}
	if err := (&tool.Schemas{}).Validate(tl.InputSchema(), json.RawMessage(`{"args":"x"}`)); err == nil {
		t.Errorf("schema accepted an input without skill")
	}
	d := tl.Description()
	if strings.Contains(d, "pdf-tools") || !strings.Contains(d, "<command-name>") {
		t.Errorf("description must not list skills and must explain the <command-name> rule:\n%s", d)
	}
}
