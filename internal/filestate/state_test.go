package filestate

import (
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"testing"
	"time"
)

type fakeInfo struct {
	size int64
	mod  time.Time
}

func (f fakeInfo) Name() string       { return "f" }
func (f fakeInfo) Size() int64        { return f.size }
func (f fakeInfo) Mode() fs.FileMode  { return 0o644 }
func (f fakeInfo) ModTime() time.Time { return f.mod }
func (f fakeInfo) IsDir() bool        { return false }
func (f fakeInfo) Sys() any           { return nil }

func TestCheck(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	content := []byte("hello\n")
	s := New()
	s.Record(EntryFor("/a", content, fakeInfo{int64(len(content)), t0}))

	var modErr *ModifiedError
	tests := []struct {
		name    string
		path    string
		info    fs.FileInfo
		content []byte
		check   func(error) bool
	}{
		{"unchanged", "/a", fakeInfo{6, t0}, content, func(err error) bool { return err == nil }},
		{"touched but same content", "/a", fakeInfo{6, t0.Add(time.Second)}, content, func(err error) bool { return err == nil }},
		{"changed content", "/a", fakeInfo{7, t0.Add(time.Second)}, []byte("hello!\n"), func(err error) bool { return errors.As(err, &modErr) && modErr.Path == "/a" }},
		{"same mtime, new size", "/a", fakeInfo{9, t0}, []byte("different"), func(err error) bool { return errors.As(err, &modErr) }},
		{"never read", "/b", fakeInfo{1, t0}, []byte("x"), func(err error) bool { return errors.Is(err, ErrNotRead) }},
	}
	for _, tt := range tests {
		if err := s.Check(tt.path, tt.info, tt.content); !tt.check(err) {
			t.Errorf("%s: Check = %v", tt.name, err)
		}
	}
}

func TestRecentIsNewestFirst(t *testing.T) {
	s := New()
	for _, p := range []string{"/1", "/2", "/3", "/4", "/5", "/6"} {
		s.Record(Entry{Path: p})
	}
	s.Record(Entry{Path: "/2"}) // read again: now the newest
	var got []string
	for _, e := range s.Recent(5) {
		got = append(got, e.Path)
	}
	want := []string{"/2", "/6", "/5", "/4", "/3"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Recent(5) = %v, want %v", got, want)
	}
	if n := len(s.Recent(0)); n != 6 {
		t.Errorf("Recent(0) returned %d entries, want all 6", n)
	}
}

func TestRecordStampsTimeAndForgetClear(t *testing.T) {
	now := time.Date(2026, 2, 2, 0, 0, 0, 0, time.UTC)
	s := &State{Now: func() time.Time { return now }}
	s.Record(Entry{Path: "/x", Offset: 10, Limit: 5})
	e, ok := s.Get("/x")
	if !ok || !e.ReadAt.Equal(now) || e.Offset != 10 || e.Limit != 5 || e.Full {
		t.Errorf("Get = %+v, %v", e, ok)
	}
	s.Forget("/x")
	if _, ok := s.Get("/x"); ok {
		t.Error("entry still there after Forget")
	}
	s.Record(Entry{Path: "/y"})
	s.Clear()
	if s.Len() != 0 {
		t.Errorf("Len after Clear = %d", s.Len())
	}
}

func TestZeroStateIsUsable(t *testing.T) {
	var s State
	if err := s.Check("/p", nil, nil); !errors.Is(err, ErrNotRead) {
		t.Errorf("Check on zero State = %v", err)
	}
	s.Record(Entry{Path: "/p"})
	if s.Len() != 1 {
		t.Error("Record on zero State lost the entry")
	}
}

func TestConcurrentUse(t *testing.T) {
	s := New()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 200 {
				p := fmt.Sprintf("/f%d", (i*200+j)%50)
				s.Record(Entry{Path: p, Hash: Hash([]byte(p))})
				s.Get(p)
				s.Recent(5)
				_ = s.Check(p, nil, []byte(p))
			}
		})
	}
	wg.Wait()
	if s.Len() != 50 {
		t.Errorf("Len = %d, want 50", s.Len())
	}
}
