package gitinfo

import (
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// realIndexes returns index files git wrote, in versions 2, 3 and 4,
// with a cache-tree, or nil when git is missing.
func realIndexes(f *testing.F) [][]byte {
	if _, err := exec.LookPath("git"); err != nil {
		return nil
	}
	r := newStatusRepo(f)
	r.write("a", "a\n")
	r.write("dir/b", "b\n")
	r.write("dir/sub/c", "c\n")
	r.symlink("a", "link")
	r.commit("one")
	read := func() []byte {
		data, err := os.ReadFile(filepath.Join(r.dir, ".git", "index"))
		if err != nil {
			f.Fatal(err)
		}
		return data
	}
	var out [][]byte
	out = append(out, read())
	r.git("update-index", "--index-version", "3")
	out = append(out, read())
	r.git("update-index", "--index-version", "4")
	out = append(out, read())
	return out
}

func TestParseIndexRejectsDamage(t *testing.T) {
	requireGit(t)
	r := newStatusRepo(t)
	r.write("a", "a\n")
	r.write("dir/b", "b\n")
	r.commit("one")
	good, err := os.ReadFile(filepath.Join(r.dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	if ix, err := parseIndex(good); err != nil || len(ix.entries) != 2 || ix.entries[1].path != "dir/b" || ix.cacheTree[""] == (oid{}) {
		t.Fatalf("parseIndex(real index) = %+v, %v", ix, err)
	}
	mutate := func(f func(b []byte) []byte) []byte {
		return f(append([]byte(nil), good...))
	}
	for name, data := range map[string][]byte{
		"truncated header":  good[:10],
		"truncated entries": good[:40],
		"bad signature":     mutate(func(b []byte) []byte { b[0] = 'X'; return b }),
		"version 5":         mutate(func(b []byte) []byte { binary.BigEndian.PutUint32(b[4:], 5); return b }),
		"too many entries":  mutate(func(b []byte) []byte { binary.BigEndian.PutUint32(b[8:], 3); return b }),
		"name length":       mutate(func(b []byte) []byte { b[12+61]++; return b }),
		"stage 2":           mutate(func(b []byte) []byte { b[12+60] |= 0x20; return b }),
	} {
		if _, err := parseIndex(data); err == nil {
			t.Errorf("%s: parseIndex accepted it", name)
		}
	}
	if _, err := parseIndex(mutate(func(b []byte) []byte { b[12+60] |= 0x20; return b })); !errors.Is(err, errUnsupported) {
		t.Errorf("a conflict entry should be errUnsupported, got %v", err)
	}
}

func FuzzParseIndex(f *testing.F) {
	for _, seed := range realIndexes(f) {
		f.Add(seed)
	}
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x00" + strings.Repeat("\x00", 20)))
	f.Fuzz(func(t *testing.T, data []byte) {
		ix, err := parseIndex(data)
		if err != nil {
			return
		}
		for i, e := range ix.entries {
			if !validIndexPath(e.path) {
				t.Fatalf("entry %d has bad path %q", i, e.path)
			}
			if i > 0 && ix.entries[i-1].path >= e.path {
				t.Fatalf("entries %q and %q out of order", ix.entries[i-1].path, e.path)
			}
		}
		if len(ix.entries)*entryFixedLen > len(data) {
			t.Fatalf("%d entries from %d bytes", len(ix.entries), len(data))
		}
	})
}

func FuzzParseCacheTree(f *testing.F) {
	f.Add([]byte("\x003 1\n" + strings.Repeat("a", 20) + "dir\x001 0\n" + strings.Repeat("b", 20)))
	f.Add([]byte("\x00-1 1\ndir\x00-1 0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ct, err := parseCacheTree(data)
		if err != nil {
			return
		}
		if len(ct)*(hashLen+4) > len(data) {
			t.Fatalf("%d nodes from %d bytes", len(ct), len(data))
		}
	})
}

func FuzzParseTree(f *testing.F) {
	id := strings.Repeat("\x01", 20)
	f.Add([]byte("100644 a\x00" + id + "40000 d\x00" + id + "120000 l\x00" + id))
	f.Add([]byte("100664 x\x00" + id))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := parseTree(data)
		if err != nil {
			return
		}
		for _, e := range entries {
			switch e.mode {
			case modeTree, modeRegular, modeExec, modeSymlink, modeGitlink:
			default:
				t.Fatalf("entry %q has mode %o", e.name, e.mode)
			}
			if e.name == "" || strings.Contains(e.name, "/") {
				t.Fatalf("bad name %q", e.name)
			}
		}
	})
}

func FuzzParseIgnore(f *testing.F) {
	f.Add([]byte("*.log\n!keep.log\nbuild/\n/top\n**/x\n\\#a \\ \n# c\n"), "a/b/c.log", true)
	f.Add([]byte("a/**/b\n[a-c]?\n"), "a/x/y/b", false)
	f.Fuzz(func(t *testing.T, data []byte, path string, isDir bool) {
		l, err := parseIgnore(data, "")
		if err != nil {
			return
		}
		name := path[lastSlash(path)+1:]
		// Must terminate and not panic.
		ignoreStack{l}.excluded(path, name, isDir)
	})
}

func FuzzWildmatch(f *testing.F) {
	f.Add("a/**/b", "a/x/y/b", true)
	f.Add("*.[!ch]", "x.o", false)
	f.Add("[[:alpha:]]*", "abc", true)
	f.Add("\\*a", "*a", true)
	f.Fuzz(func(t *testing.T, pattern, text string, pathname bool) {
		if strings.Count(pattern, "*") > maxPatternStars || len(text) > 256 {
			return
		}
		got := wildmatch(pattern, text, pathname)
		// A pattern without special characters matches only itself.
		if !strings.ContainsAny(pattern, "*?[\\") && got != (pattern == text) {
			t.Fatalf("wildmatch(%q, %q) = %v", pattern, text, got)
		}
	})
}

func FuzzParseConfigFile(f *testing.F) {
	f.Add([]byte("[core]\n\tfilemode = true\n\tbare\n[remote \"origin\"]\n\turl = x # c\n[a.b]\nk = \"q \\\" \\\\\" ; c\n"))
	f.Add([]byte("[core] excludesFile = ~/x\\\n continued\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := parseConfigFile(data)
		if err != nil {
			return
		}
		for _, e := range entries {
			if e.section == "" || e.key == "" {
				t.Fatalf("entry without section or key: %+v", e)
			}
		}
	})
}

func TestWildmatchCases(t *testing.T) {
	for _, tc := range []struct {
		pattern, text string
		pathname      bool
		want          bool
	}{
		{"foo", "foo", true, true},
		{"*", "a/b", true, false},
		{"*", "a/b", false, true},
		{"a/*", "a/b", true, true},
		{"a/*", "a/b/c", true, false},
		{"a/**", "a/b/c", true, true},
		{"**/c", "a/b/c", true, true},
		{"**/c", "c", true, true},
		{"a/**/c", "a/c", true, true},
		{"a/**/c", "a/x/y/c", true, true},
		{"a**c", "a/x/c", true, false},
		{"?", "/", true, false},
		{"[a-c]", "b", true, true},
		{"[!a-c]", "b", true, false},
		{"[^a-c]", "d", true, true},
		{"[]]", "]", true, true},
		{"[a-]", "-", true, true},
		{"\\*", "*", true, true},
		{"\\*", "a", true, false},
		{"[\\]]", "]", true, true},
		{"[", "[", true, false},
		{"*.c", "x.c", true, true},
		{"*/x", "a/x", true, true},
		{"*/x", "a/b/x", true, false},
		{"[[:digit:]]", "5", true, true},
		{"[[:bogus:]]", "5", true, false},
	} {
		if got := wildmatch(tc.pattern, tc.text, tc.pathname); got != tc.want {
			t.Errorf("wildmatch(%q, %q, %v) = %v, want %v", tc.pattern, tc.text, tc.pathname, got, tc.want)
		}
	}
}

func TestParseConfigFileValues(t *testing.T) {
	data := []byte("[core]\n\tfileMode = false\n\tbare\n\texcludesFile = \"~/my ignore\" # comment\n[Remote \"Origin\"]\n\turl = a\\\nb\n[status]\nshowUntrackedFiles=normal;c\n")
	got, err := parseConfigFile(data)
	if err != nil {
		t.Fatal(err)
	}
	want := []configEntry{
		{section: "core", key: "filemode", value: "false"},
		{section: "core", key: "bare", noValue: true},
		{section: "core", key: "excludesfile", value: "~/my ignore"},
		{section: "remote", subsection: "Origin", key: "url", value: "ab"},
		{section: "status", key: "showuntrackedfiles", value: "normal"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("entry %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if _, err := parseConfigFile([]byte("[core\nx=1\n")); !errors.Is(err, errUnsupported) {
		t.Errorf("an unclosed header should be errUnsupported, got %v", err)
	}
}
