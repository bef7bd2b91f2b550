package tui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// typeKeys feeds key names (or text with a "text:" prefix) to an editor.
func typeKeys(e *editor, keys ...string) editResult {
	var last editResult
	for _, k := range keys {
		if t, ok := strings.CutPrefix(k, "text:"); ok {
			for _, r := range t {
				last = e.key(keyMsg(string(r)))
			}
			continue
		}
		last = e.key(keyMsg(k))
	}
	return last
}

func TestEditorKeys(t *testing.T) {
	for _, tc := range []struct {
		name   string
		keys   []string
		want   string
		submit bool
	}{
		{"typing", []string{"text:hello"}, "hello", false},
		{"enter submits", []string{"text:hi", "enter"}, "hi", true},
		{"backslash enter is a newline", []string{"text:one\\", "enter", "text:two"}, "one\ntwo", false},
		{"shift+enter is a newline", []string{"text:a", "shift+enter", "text:b"}, "a\nb", false},
		{"ctrl+j is a newline", []string{"text:a", "ctrl+j", "text:b"}, "a\nb", false},
		{"backspace", []string{"text:abc", "backspace"}, "ab", false},
		{"left then insert", []string{"text:ac", "left", "text:b"}, "abc", false},
		{"ctrl+a goes to line start", []string{"text:world", "ctrl+a", "text:hello "}, "hello world", false},
		{"ctrl+w deletes a word", []string{"text:one two", "ctrl+w"}, "one ", false},
		{"ctrl+u deletes to line start", []string{"text:a\\", "enter", "text:bcd", "ctrl+u"}, "a\n", false},
		{"ctrl+k deletes to line end", []string{"text:abcd", "left", "left", "ctrl+k"}, "ab", false},
		{"up moves within lines", []string{"text:ab\\", "enter", "text:cd", "up", "text:X"}, "abX\ncd", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEditor(&history{})
			res := typeKeys(e, tc.keys...)
			if got := e.value(); got != tc.want {
				t.Errorf("value = %q, want %q", got, tc.want)
			}
			if (res == editSubmit) != tc.submit {
				t.Errorf("submit = %v, want %v", res == editSubmit, tc.submit)
			}
		})
	}
}

func TestEditorHistoryBrowsingKeepsTheDraft(t *testing.T) {
	e := newEditor(&history{entries: []string{"first", "second"}})
	typeKeys(e, "text:draft")
	typeKeys(e, "up")
	if e.value() != "second" {
		t.Fatalf("up: %q", e.value())
	}
	typeKeys(e, "up", "up") // stops at the oldest
	if e.value() != "first" {
		t.Fatalf("up up: %q", e.value())
	}
	typeKeys(e, "down", "down")
	if e.value() != "draft" {
		t.Fatalf("down back to the draft: %q", e.value())
	}
}

func TestEditorCtrlRSearchesHistory(t *testing.T) {
	e := newEditor(&history{entries: []string{"make test", "git status", "make lint"}})
	typeKeys(e, "ctrl+r", "text:make")
	if e.search == nil || e.hist.entries[e.search.match] != "make lint" {
		t.Fatalf("first match = %+v", e.search)
	}
	typeKeys(e, "ctrl+r") // older match
	typeKeys(e, "enter")
	if e.search != nil || e.value() != "make test" {
		t.Fatalf("accepted %q (search %v)", e.value(), e.search)
	}
	typeKeys(e, "ctrl+r", "text:nothing", "esc")
	if e.search != nil || e.value() != "make test" {
		t.Fatalf("esc changed the text: %q", e.value())
	}
}

func TestPasteCollapsesLargeTextAndExpandsOnSubmit(t *testing.T) {
	e := newEditor(&history{})
	big := strings.Repeat("line\n", 119) + "last"
	typeKeys(e, "text:see ")
	e.paste(big)
	typeKeys(e, "text: please")
	if got, want := e.value(), "see [Pasted text #1 +119 lines] please"; got != want {
		t.Fatalf("value = %q, want %q", got, want)
	}
	if got := e.expanded(); got != "see "+big+" please" {
		t.Fatalf("expanded text differs (%d bytes)", len(got))
	}
	e.paste("short")
	if !strings.HasSuffix(e.value(), "pleaseshort") {
		t.Fatalf("small paste was collapsed: %q", e.value())
	}
}

func TestPasteDropsControlCharacters(t *testing.T) {
	e := newEditor(&history{})
	e.paste("a\x1b[31mred\x1b[0m\x07b\r\nc\x00d\ttab")
	if got, want := e.value(), "aredb\ncd\ttab"; got != want {
		t.Fatalf("value = %q, want %q", got, want)
	}
}

func TestHistoryPersistsPerFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h", "proj.jsonl")
	h := loadHistory(path)
	for _, s := range []string{"one", "two", "two", "multi\nline"} {
		if err := h.add(s, time.Unix(0, 0)); err != nil {
			t.Fatal(err)
		}
	}
	got := loadHistory(path).entries
	want := []string{"one", "two", "multi\nline"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("entries = %q, want %q", got, want)
	}
}

func TestEditorViewWrapsAndPlacesTheCursor(t *testing.T) {
	st := newStyles(false)
	e := newEditor(&history{})
	e.set("abcdefghij")
	out, row, col := e.view(&st, 8, 5, "")
	// inner width 6: "abcdef" / "ghij", cursor after j.
	if out != "> abcdef\n  ghij" || row != 1 || col != 6 {
		t.Fatalf("view = %q row %d col %d", out, row, col)
	}
}

func TestIsCommand(t *testing.T) {
	for in, want := range map[string]bool{
		"/help": true, "/compact keep the API notes": true, "/frontend:component x": true,
		"/usr/bin/env": false, "/": false, "hello /help": false, "/tmp/x y": false,
	} {
		if got := isCommand(in); got != want {
			t.Errorf("isCommand(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestFuzzyScorePrefersBaseNameAndConsecutive(t *testing.T) {
	files := []string{"internal/tui/model.go", "internal/engine/run.go", "docs/models.md", "cmd/reins/main.go"}
	got := mentionCompletions(files, nil, "model")
	if len(got) < 2 || got[0].label != "internal/tui/model.go" && got[0].label != "docs/models.md" {
		t.Fatalf("completions = %+v", got)
	}
	for _, c := range got {
		if c.label == "cmd/reins/main.go" {
			t.Errorf("%q does not contain the letters of model", c.label)
		}
	}
	if got := mentionCompletions([]string{"a b/c.go"}, nil, "c"); got[0].insert != `@"a b/c.go" ` {
		t.Errorf("a path with a space is quoted: %q", got[0].insert)
	}
}
