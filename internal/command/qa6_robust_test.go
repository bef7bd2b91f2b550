package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A command or skill whose frontmatter is not valid YAML (argument-hint:
// [x without its bracket closed, a common slip) is kept as Claude Code
// keeps it, with the frontmatter ignored, instead of vanishing: typing it
// runs its body, the model may not invoke it (what the frontmatter held
// back is unknown), and the problem is reported with the file and line.
func TestCommandWithBrokenFrontmatterIsKeptForTheUserOnly(t *testing.T) {
	root := filepath.Join(t.TempDir(), ".claude")
	write := func(rel, text string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("commands/review.md", "---\nargument-hint: [file\ndisable-model-invocation: true\n---\nReview $ARGUMENTS carefully.\n")
	write("skills/deploy/SKILL.md", "---\nname: deploy\ndescription: [x\n---\nDeploy the site.\n")
	cmds, errs := Load(Roots{Project: []string{root}})
	byName := map[string]*Command{}
	for _, c := range cmds {
		byName[c.Name] = c
	}
	review, deploy := byName["review"], byName["deploy"]
	if review == nil || deploy == nil {
		t.Fatalf("loaded %v, want review and deploy kept", byName)
	}
	if review.Body != "Review $ARGUMENTS carefully." || deploy.Body != "Deploy the site." {
		t.Errorf("bodies %q and %q, want the text after the frontmatter", review.Body, deploy.Body)
	}
	if !deploy.Skill || review.ModelInvocable() || deploy.ModelInvocable() || !review.UserInvocable() {
		t.Errorf("review model-invocable %v, deploy model-invocable %v; want both typed only", review.ModelInvocable(), deploy.ModelInvocable())
	}
	if review.Description != "Review $ARGUMENTS carefully." {
		t.Errorf("description %q, want the body's first line", review.Description)
	}
	if len(errs) != 2 {
		t.Fatalf("errors = %v, want one per file", errs)
	}
	for i, want := range []string{"review.md: line 2: invalid YAML", "SKILL.md: line "} {
		msg := errs[i].Error()
		if !strings.Contains(msg, want) || !strings.Contains(msg, "the frontmatter is ignored") {
			t.Errorf("error %q does not contain %q and say the frontmatter is ignored", msg, want)
		}
	}
}
