package task

import (
	"context"
	"io"
	"testing"
)

func TestBackgroundMovesTheNamedOrEveryMovableCallOnce(t *testing.T) {
	r := &Registry{}
	moves := map[string]int{}
	refuse := true
	removeA := r.AddMovable("a", func() bool { moves["a"]++; return true })
	r.AddMovable("b", func() bool { moves["b"]++; return !refuse })
	if !r.CanBackground("") || !r.CanBackground("b") || r.CanBackground("c") {
		t.Fatal("CanBackground does not see the registered calls")
	}
	if r.Background("c") {
		t.Fatal("Background of an unknown id reported a move")
	}
	if !r.Background("a") || moves["a"] != 1 || moves["b"] != 0 {
		t.Fatalf("Background(a) moved %v, want only a", moves)
	}
	if r.CanBackground("a") || r.Background("a") {
		t.Fatal("a moved call can move again")
	}
	removeA() // after the move: harmless
	if r.Background("") {
		t.Fatal("a refused move was reported")
	}
	if !r.CanBackground("b") {
		t.Fatal("a call that refused to move is no longer movable")
	}
	refuse = false
	if !r.Background("") || moves["b"] != 2 || r.CanBackground("") {
		t.Fatalf("Background(\"\") = moves %v, want b moved on its second try and nothing left", moves)
	}
}

func TestRemovedOrClosedCallsDoNotMove(t *testing.T) {
	r := &Registry{}
	remove := r.AddMovable("a", func() bool { t.Error("a removed call was moved"); return true })
	remove()
	if r.CanBackground("a") || r.Background("") {
		t.Fatal("a removed call can move")
	}
	r.AddMovable("b", func() bool { t.Error("a call was moved after Close"); return true })
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if r.CanBackground("") || r.Background("b") {
		t.Fatal("calls move after Close")
	}
}

func TestMarkReadStartsReadNewAfterTheOutputSoFar(t *testing.T) {
	r := &Registry{}
	defer closeRegistry(t, r)
	release := make(chan struct{})
	tk, err := r.Start(Spec{Run: func(ctx context.Context, _ io.Writer) (int, error) { <-release; return 0, nil }})
	if err != nil {
		t.Fatal(err)
	}
	tk.Write([]byte("shown already\n"))
	tk.MarkRead()
	tk.Write([]byte("new\n"))
	if got, _ := tk.ReadNew(); got != "new\n" {
		t.Errorf("ReadNew = %q, want only what came after MarkRead", got)
	}
	if all, _ := tk.Output(); all != "shown already\nnew\n" {
		t.Errorf("Output = %q, want all of it", all)
	}
	close(release)
}
