package agent

import (
	"context"
	"strings"
	"testing"
	"time"

	agentdef "reins/internal/agent"
	"reins/internal/task"
	"reins/internal/tool"
)

func TestMovedForegroundAgentAnswersAtOnceAndFinishesAsTask(t *testing.T) {
	started := make(chan struct{})
	release := make(chan struct{})
	sp := &fakeSpawner{run: func(ctx context.Context, spec agentdef.Spec, emit func(any)) (*agentdef.Result, error) {
		emit("first event")
		close(started)
		<-release
		emit(agentdef.Progress{ToolUses: 3, LastTool: "Read"})
		return &agentdef.Result{Text: "the answer", Reason: "completed"}, nil
	}}
	reg := &task.Registry{Dir: t.TempDir()}
	defer reg.Close(context.Background())
	tl := newTool(t, sp, Config{Tasks: reg})
	var events []any
	type answer struct {
		res *tool.Result
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := call(t, tl, `{"description":"long review","prompt":"review it"}`, func(p tool.Progress) { events = append(events, p.Data) })
		done <- answer{res, err}
	}()
	<-started
	for deadline := time.Now().Add(20 * time.Second); !reg.CanBackground("toolu_1"); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the running agent call never became movable")
		}
	}
	if !reg.Background("toolu_1") {
		t.Fatal("the running agent call did not move")
	}
	a := <-done // answered while the agent still works
	if a.err != nil {
		t.Fatalf("Call: %v", a.err)
	}
	ld, ok := a.res.Data.(*LaunchData)
	if !ok || ld.Status != "async_launched" || ld.AgentID == "" {
		t.Fatalf("Data = %#v, want an async launch", a.res.Data)
	}
	if txt := a.res.Content[0].Text; !strings.Contains(txt, "background") || !strings.Contains(txt, ld.AgentID) {
		t.Fatalf("result = %q", txt)
	}
	if len(events) != 1 {
		t.Fatalf("progress before the move = %v, want the one event", events)
	}
	tk, ok := reg.Get(ld.AgentID)
	if !ok || tk.Info().Status != task.Running || tk.Info().Kind != task.KindAgent {
		t.Fatalf("no running agent task %s", ld.AgentID)
	}
	if sp.closes(ld.AgentID) != 0 {
		t.Fatal("the moved agent was closed while it ran")
	}
	close(release)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := tk.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	info := tk.Info()
	if out, _ := tk.Output(); info.Status != task.Completed || out != "the answer" {
		t.Fatalf("task = %+v output %q, want completed with the answer", info, out)
	}
	if info.Progress == nil || info.Progress.ToolUses != 3 {
		t.Fatalf("progress after the move = %+v, want it on the task", info.Progress)
	}
	if len(events) != 1 {
		t.Fatalf("the call got progress after it answered: %v", events)
	}
	if got := reg.TakeFinished(); len(got) != 1 || got[0].ID != ld.AgentID {
		t.Fatalf("finished = %+v", got)
	}
	if sp.closes(ld.AgentID) != 1 {
		t.Fatalf("agent closed %d times, want once", sp.closes(ld.AgentID))
	}
}

func TestFinishedForegroundAgentDoesNotMove(t *testing.T) {
	reg := &task.Registry{}
	defer reg.Close(context.Background())
	tl := newTool(t, &fakeSpawner{}, Config{Tasks: reg})
	res, err := call(t, tl, `{"description":"quick","prompt":"hi"}`, nil)
	if err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}
	if reg.CanBackground("") || reg.Background("") || len(reg.List()) != 0 {
		t.Fatal("a finished agent call moved")
	}
}
