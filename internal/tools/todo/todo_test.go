package todo

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"reins/internal/tool"
)

func call(t *testing.T, tl *Tool, agent, input string) (*tool.Result, error) {
	t.Helper()
	c := &tool.Call{ID: "toolu_1", Name: Name, AgentID: agent}
	if err := (&tool.Schemas{}).Validate(tl.InputSchema(), json.RawMessage(input)); err != nil {
		return nil, err
	}
	if err := tl.Validate(context.Background(), c, json.RawMessage(input)); err != nil {
		return nil, err
	}
	return tl.Call(context.Background(), c, json.RawMessage(input), nil)
}

func TestTodoWriteReplacesTheList(t *testing.T) {
	store := NewStore()
	tl := New(store)
	steps := []struct {
		name      string
		input     string
		wantOld   []Item
		wantStore []Item
	}{
		{
			name:      "first list",
			input:     `{"todos":[{"content":"Run tests","status":"in_progress","activeForm":"Running tests"},{"content":"Fix bug","status":"pending","activeForm":"Fixing bug"}]}`,
			wantOld:   []Item{},
			wantStore: []Item{{"Run tests", InProgress, "Running tests"}, {"Fix bug", Pending, "Fixing bug"}},
		},
		{
			name:      "progress",
			input:     `{"todos":[{"content":"Run tests","status":"completed","activeForm":"Running tests"},{"content":"Fix bug","status":"in_progress","activeForm":"Fixing bug"}]}`,
			wantOld:   []Item{{"Run tests", InProgress, "Running tests"}, {"Fix bug", Pending, "Fixing bug"}},
			wantStore: []Item{{"Run tests", Completed, "Running tests"}, {"Fix bug", InProgress, "Fixing bug"}},
		},
		{
			name:      "all done clears the list",
			input:     `{"todos":[{"content":"Run tests","status":"completed","activeForm":"Running tests"},{"content":"Fix bug","status":"completed","activeForm":"Fixing bug"}]}`,
			wantOld:   []Item{{"Run tests", Completed, "Running tests"}, {"Fix bug", InProgress, "Fixing bug"}},
			wantStore: nil,
		},
	}
	for _, st := range steps {
		r, err := call(t, tl, "", st.input)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		out := r.Data.(*Output)
		var in Input
		json.Unmarshal([]byte(st.input), &in)
		if diff := cmp.Diff(st.wantOld, out.OldTodos); diff != "" {
			t.Errorf("%s: oldTodos (-want +got):\n%s", st.name, diff)
		}
		if diff := cmp.Diff(in.Todos, out.NewTodos); diff != "" {
			t.Errorf("%s: newTodos (-want +got):\n%s", st.name, diff)
		}
		if diff := cmp.Diff(st.wantStore, store.Items("")); diff != "" {
			t.Errorf("%s: store (-want +got):\n%s", st.name, diff)
		}
		if r.IsError || !strings.Contains(r.Content[0].Text, "todo list is updated") {
			t.Errorf("%s: result %q", st.name, r.Content[0].Text)
		}
	}
}

func TestTodoWriteKeepsOneListPerAgent(t *testing.T) {
	store := NewStore()
	tl := New(store)
	if _, err := call(t, tl, "", `{"todos":[{"content":"Main","status":"pending","activeForm":"Doing main"}]}`); err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, tl, "agent-1", `{"todos":[{"content":"Sub","status":"pending","activeForm":"Doing sub"}]}`); err != nil {
		t.Fatal(err)
	}
	if got := store.Items(""); len(got) != 1 || got[0].Content != "Main" {
		t.Errorf("main list = %+v", got)
	}
	if got := store.Items("agent-1"); len(got) != 1 || got[0].Content != "Sub" {
		t.Errorf("sub-agent list = %+v", got)
	}
}

func TestTodoWriteErrors(t *testing.T) {
	tests := []struct{ name, input, want string }{
		{"two in progress",
			`{"todos":[{"content":"A","status":"in_progress","activeForm":"Doing A"},{"content":"B","status":"in_progress","activeForm":"Doing B"}]}`,
			`2 items are in_progress (0 ("A"), 1 ("B")); exactly one may be in progress`},
		{"unknown status", `{"todos":[{"content":"A","status":"done","activeForm":"Doing A"}]}`, "status"},
		{"blank content", `{"todos":[{"content":"  ","status":"pending","activeForm":"Doing A"}]}`, "todos[0].content: must not be empty"},
		{"missing activeForm", `{"todos":[{"content":"A","status":"pending"}]}`, "activeForm"},
		{"missing todos", `{}`, "todos"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := NewStore()
			_, err := call(t, New(store), "", tt.input)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
			if store.Items("") != nil {
				t.Error("a refused list was stored")
			}
		})
	}
	// The tool's own check, without the schema in front of it.
	tl := New(NewStore())
	err := tl.Validate(context.Background(), &tool.Call{}, json.RawMessage(`{"todos":[{"content":"A","status":"done","activeForm":"x"}]}`))
	if err == nil || !strings.Contains(err.Error(), `todos[0].status: "done" is not one of`) {
		t.Errorf("err = %v", err)
	}
}

func TestStoreWatchers(t *testing.T) {
	store := NewStore()
	var mu sync.Mutex
	var seen []string
	stop := store.Watch(func(agent string, items []Item) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, agent+":"+itemsText(items))
	})
	store.Replace("", []Item{{"A", Pending, "Doing A"}})
	store.Replace("x", nil)
	stop()
	store.Replace("", []Item{{"B", Pending, "Doing B"}})
	if want := []string{":A", "x:"}; !cmp.Equal(seen, want) {
		t.Errorf("watched %q, want %q", seen, want)
	}
}

func itemsText(items []Item) string {
	var s []string
	for _, it := range items {
		s = append(s, it.Content)
	}
	return strings.Join(s, ",")
}

func TestNewPanicsWithoutStore(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	New(nil)
}
