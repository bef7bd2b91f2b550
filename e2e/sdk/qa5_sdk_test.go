package sdk_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"reins/internal/e2etest"
)

// read_file is gated as the Read tool is: with no one to ask, a file
// outside the working folders, directly, by "..", or through a symbolic
// link in the project, is refused; one inside is read.
func TestSDKReadFileRefusesFilesOutsideTheWorkingFolders(t *testing.T) {
	srv := server(t, reply("Done.", 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	outside := filepath.Join(sb.Home, "private.txt")
	if err := os.WriteFile(outside, []byte("private\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(sb.Dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	inside := sb.Write(t, "notes.txt", "notes\n")
	c := start(t, sb, nil)
	c.request("init-1", `{"subtype":"initialize"}`)
	c.expect(initOK("init-1", initResponse("default")))
	c.request("r1", `{"subtype":"read_file","path":`+q(outside)+`}`)
	c.expect(controlErr("r1", "read_file: reading "+outside+" needs permission: it is outside the session's working folders or an ask rule covers it"))
	c.request("r2", `{"subtype":"read_file","path":"../home/private.txt"}`)
	c.expect(controlErr("r2", "read_file: reading ../home/private.txt needs permission: it is outside the session's working folders or an ask rule covers it"))
	c.request("r3", `{"subtype":"read_file","path":"link.txt"}`)
	c.expect(controlErr("r3", "read_file: reading link.txt needs permission: it is outside the session's working folders or an ask rule covers it"))
	c.request("r4", `{"subtype":"read_file","path":"notes.txt"}`)
	c.expect(controlOK("r4", `{"contents":"notes\n","absPath":`+q(inside)+`,"lossy":false}`))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

// A named pipe where a command or agent file is expected (a *.md FIFO in
// .claude/commands or .claude/agents) is skipped: reading it would wait
// forever, at start-up and on reload_skills, and SIGTERM could not end
// the process.
func TestSDKReloadSkillsSkipsANamedPipeAmongTheCommands(t *testing.T) {
	srv := server(t, reply("Done.", 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/skills/good/SKILL.md", "---\nname: good\ndescription: A good skill\n---\nDo good.\n")
	sb.Write(t, ".claude/agents/keep.md", "---\nname: keep\ndescription: An agent\n---\nKeep going.\n")
	for _, p := range []string{".claude/commands/pipe.md", ".claude/agents/pipe.md"} {
		os.MkdirAll(filepath.Dir(filepath.Join(sb.Dir, p)), 0o755)
		if err := syscall.Mkfifo(filepath.Join(sb.Dir, p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := start(t, sb, nil)
	c.request("init-1", `{"subtype":"initialize"}`)
	c.expect(initOK("init-1", initResponse("default")))
	if err := syscall.Mkfifo(filepath.Join(sb.Dir, ".claude/skills/good/extra.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(sb.Dir, ".claude/skills/piped"), 0o755)
	if err := syscall.Mkfifo(filepath.Join(sb.Dir, ".claude/skills/piped/SKILL.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.request("r1", `{"subtype":"reload_skills"}`)
	c.expect(controlOK("r1", `{"skills":[{"name":"good","description":"A good skill","argumentHint":"<any>"}]}`))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

// A user message of several blocks (an image, then the text typed) is
// handled as Claude Code handles it: the last text block is what was
// typed, so the files it mentions are attached, after the blocks before
// it; before, mentions in such a message were sent as plain text.
func TestSDKMessageOfSeveralBlocksAttachesWhatItsTextMentions(t *testing.T) {
	srv := server(t, reply("Seen.", 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "notes.txt", "the notes body\n")
	c := start(t, sb, nil)
	c.send(`{"type":"user","session_id":"","parent_tool_use_id":null,"message":{"role":"user","content":[` +
		`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}},` +
		`{"type":"text","text":"compare with @notes.txt"}]}}`)
	for !kindIn(c.next(), []string{"result/success"}) {
	}
	c.expect(stateLine("idle"))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	msg := reqs[0].Messages[len(reqs[0].Messages)-1]
	var kinds []string
	image, typed, attached := -1, -1, -1
	for i, b := range msg.Content {
		kinds = append(kinds, b.Type)
		switch {
		case b.Type == "image":
			image = i
		case b.Text == "compare with @notes.txt":
			typed = i
		case strings.Contains(b.Text, "the notes body"):
			attached = i
		}
	}
	if image < 0 || typed < image || attached < typed {
		t.Errorf("the message sent has blocks %v (image %d, text %d, notes.txt %d); want the image, the text, then notes.txt's content",
			kinds, image, typed, attached)
	}
}
