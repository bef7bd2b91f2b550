package mcp

import (
	"context"
	"reflect"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"reins/internal/tool"
)

func TestParseResourceMentionNeedsAServerAndAURIWithAScheme(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want ResourceMention
		ok   bool
	}{
		{"github:issue://123", ResourceMention{"github", "issue://123"}, true},
		{"docs:file://api/authentication", ResourceMention{"docs", "file://api/authentication"}, true},
		{"my-db.v2:urn:isbn:123", ResourceMention{"my-db.v2", "urn:isbn:123"}, true},
		{"src/main.go:12", ResourceMention{}, false},
		{"C:/Users/x", ResourceMention{}, false},
		{"notes.txt", ResourceMention{}, false},
		{":file://x", ResourceMention{}, false},
		{"docs:1x://y", ResourceMention{}, false},
		{"docs:file:", ResourceMention{}, false},
	} {
		got, ok := ParseResourceMention(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ParseResourceMention(%q) = %+v, %v; want %+v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestResourceMentionsFindsWordsStartingWithAt(t *testing.T) {
	text := "Compare @postgres:schema://users with (@docs:file://database/user-model). Mail me@x:y://z, see @src/a.go and @postgres:schema://users again"
	want := []ResourceMention{{"postgres", "schema://users"}, {"docs", "file://database/user-model"}}
	if got := ResourceMentions(text); !reflect.DeepEqual(got, want) {
		t.Errorf("ResourceMentions = %+v, want %+v", got, want)
	}
}

func TestAttachResourcesWithoutTheServerGivesANote(t *testing.T) {
	var m *Manager // no servers configured at all
	got := m.AttachResources(context.Background(), []ResourceMention{{"github", "issue://123"}, {"notes", "v1:draft"}})
	if len(got) != 1 || got[0].Text != "<mcp-resource server=\"github\" uri=\"issue://123\">\n[not attached: no MCP server is named \"github\"]\n</mcp-resource>" {
		t.Errorf("blocks = %+v", got)
	}
}

func TestAttachResourcesOfAServerWithoutResourcesSaysWhy(t *testing.T) {
	m := startManager(t, Options{Servers: []Server{selfServer(t, "self")}})
	got := m.AttachResources(context.Background(), []ResourceMention{{"self", "docs://x"}})
	if len(got) != 1 || !strings.Contains(got[0].Text, `[not attached: MCP server "self" has no resources available (connected)]`) {
		t.Errorf("blocks = %+v", got)
	}
}

func TestMaxOutputTokensFollowsTheEnvironment(t *testing.T) {
	for env, want := range map[string]int{"": DefaultMaxOutputTokens, "5000": 5000, "lots": DefaultMaxOutputTokens, "-3": DefaultMaxOutputTokens} {
		m := NewManager(Options{Getenv: func(k string) string {
			if k == "MAX_MCP_OUTPUT_TOKENS" {
				return env
			}
			return ""
		}})
		if got := m.MaxOutputTokens(); got != want {
			t.Errorf("MAX_MCP_OUTPUT_TOKENS=%q: limit %d, want %d", env, got, want)
		}
		m.Close()
	}
}

func TestServerToolResultLimitDefaultsToTheOrdinaryLimit(t *testing.T) {
	m := NewManager(Options{Getenv: func(string) string { return "" }})
	defer m.Close()
	srv := &server{m: m, name: "s"}
	plain := newTool(srv, &sdk.Tool{Name: "plain"})
	if got := tool.Threshold(plain); got != tool.DefaultMaxResultChars {
		t.Errorf("threshold %d, want %d", got, tool.DefaultMaxResultChars)
	}
	if note := plain.OverLimitNote(60_000); !strings.Contains(note, "about 15000 tokens, over the limit of about 12500 tokens on one tool result (MAX_MCP_OUTPUT_TOKENS changes it)") {
		t.Errorf("note = %q", note)
	}
	big := newTool(srv, &sdk.Tool{Name: "big", Meta: sdk.Meta{MetaMaxResultSizeChars: 200_000.0}})
	if got := tool.Threshold(big); got != 200_000 {
		t.Errorf("annotated threshold %d, want 200000", got)
	}
	huge := newTool(srv, &sdk.Tool{Name: "huge", Meta: sdk.Meta{MetaMaxResultSizeChars: 9e9}})
	if got := tool.Threshold(huge); got != MaxResultSizeCharsCap {
		t.Errorf("over-cap threshold %d, want %d", got, MaxResultSizeCharsCap)
	}
}

func TestServerToolResultLimitIsTheTokenLimitInCharacters(t *testing.T) {
	m := startManager(t, Options{Servers: []Server{selfServer(t, "self")}, MaxOutputTokens: 30_000})
	tl := findTool(m.Snapshot(), "mcp__self__echo")
	if tl == nil {
		t.Fatal("no echo tool")
	}
	if got := tool.Threshold(tl); got != 120_000 {
		t.Errorf("threshold %d, want 120000 (30,000 tokens at 4 characters)", got)
	}
}

func TestLargeToolResultWarnsTheUser(t *testing.T) {
	var notes []string
	m := startManager(t, Options{Servers: []Server{selfServer(t, "self")}, MaxOutputTokens: 12_000,
		Notify: func(level, text string) { notes = append(notes, level+": "+text) }})
	if _, err := callTool(t, findTool(m.Snapshot(), "mcp__self__echo"), `{"text":"short"}`); err != nil {
		t.Fatal(err)
	}
	if len(notes) != 0 {
		t.Fatalf("a short result warned: %q", notes)
	}
	if _, err := callTool(t, findTool(m.Snapshot(), "mcp__self__echo"), `{"text":"`+strings.Repeat("x", 44_000)+`"}`); err != nil {
		t.Fatal(err)
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "warning: mcp__self__echo returned about 11002 tokens of output (more than 10000)") {
		t.Errorf("notes = %q", notes)
	}
}

// FuzzResourceMentions: any prompt parses without panicking, and every
// mention found reads back the same from its written form.
func FuzzResourceMentions(f *testing.F) {
	for _, s := range []string{"see @github:issue://123.", "(@a:b:c) @x", "@:", "@a:1:", "@é:x:y", "mail me@x:y://z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, r := range ResourceMentions(text) {
			back, ok := ParseResourceMention(r.String())
			if !ok || back != r {
				t.Fatalf("%q: mention %+v reads back as %+v, %v", text, r, back, ok)
			}
		}
	})
}

// A mention in a prompt sent while its server is still connecting for the
// first time waits for the connection rather than failing at once.
func TestAttachResourcesWaitsForAServerStillConnecting(t *testing.T) {
	m := NewManager(Options{Servers: []Server{selfServer(t, "self")}})
	defer m.Close()
	m.Start()
	got := m.AttachResources(context.Background(), []ResourceMention{{"self", "docs://x"}})
	if len(got) != 1 || !strings.Contains(got[0].Text, "(connected)") {
		t.Errorf("blocks = %+v", got)
	}
}
