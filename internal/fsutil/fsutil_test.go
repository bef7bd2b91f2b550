package fsutil

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRequireAbs(t *testing.T) {
	tests := []struct {
		field, p, cwd string
		wantErr       string
	}{
		{"file_path", "/a/b", "", ""},
		{"file_path", "", "", "file_path is empty"},
		{"file_path", "b.txt", "", `file_path must be an absolute path, but "b.txt" is relative`},
		{"notebook_path", "x/n.ipynb", "/work", `(did you mean "/work/x/n.ipynb"?)`},
	}
	for _, tt := range tests {
		err := RequireAbs(tt.field, tt.p, tt.cwd)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("RequireAbs(%q) = %v, want nil", tt.p, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("RequireAbs(%q) = %v, want error containing %q", tt.p, err, tt.wantErr)
		}
	}
}

func TestResolveFollowsSymlinks(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	must(t, os.Mkdir(real, 0o755))
	must(t, os.WriteFile(filepath.Join(real, "f.txt"), []byte("x"), 0o644))
	must(t, os.Symlink(real, filepath.Join(dir, "link")))
	must(t, os.Symlink(filepath.Join(real, "f.txt"), filepath.Join(dir, "flink")))
	must(t, os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "dangling")))
	must(t, os.Symlink(filepath.Join(dir, "loop2"), filepath.Join(dir, "loop1")))
	must(t, os.Symlink(filepath.Join(dir, "loop1"), filepath.Join(dir, "loop2")))
	realDir, _ := filepath.EvalSymlinks(real)

	tests := []struct {
		in, want string
		wantErr  bool
	}{
		{filepath.Join(dir, "link", "f.txt"), filepath.Join(realDir, "f.txt"), false},
		{filepath.Join(dir, "flink"), filepath.Join(realDir, "f.txt"), false},
		{filepath.Join(dir, "link", "new", "g.txt"), filepath.Join(realDir, "new", "g.txt"), false},
		{filepath.Join(dir, "link", "..", "real", "f.txt"), filepath.Join(realDir, "f.txt"), false},
		{filepath.Join(dir, "dangling"), "", true},
		{filepath.Join(dir, "loop1"), "", true},
		{"relative/x", "", true},
	}
	for _, tt := range tests {
		got, err := Resolve(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestStatFileErrors(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "f")
	must(t, os.WriteFile(f, nil, 0o644))
	tests := []struct {
		p       string
		want    string
		wantIs  error
		wantErr bool
	}{
		{f, "", nil, false},
		{filepath.Join(dir, "missing"), "file_path " + filepath.Join(dir, "missing") + " does not exist", fs.ErrNotExist, true},
		{dir, "is a directory, not a file", nil, true},
		{"/dev/null", "is not a regular file", nil, true},
	}
	for _, tt := range tests {
		_, _, err := StatFile("file_path", tt.p)
		if (err != nil) != tt.wantErr || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("StatFile(%q) = %v, want error containing %q", tt.p, err, tt.want)
		}
		if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
			t.Errorf("StatFile(%q) = %v, want errors.Is %v", tt.p, err, tt.wantIs)
		}
	}
}

func TestStatFilePermissionDenied(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Log("running as root: folder permissions are not enforced, checking the message shape only")
		err := describe("file_path", "/x", &fs.PathError{Op: "stat", Path: "/x", Err: fs.ErrPermission})
		if !strings.Contains(err.Error(), "permission denied") {
			t.Errorf("describe = %v", err)
		}
		return
	}
	dir := t.TempDir()
	sub := filepath.Join(dir, "locked")
	must(t, os.Mkdir(sub, 0o755))
	must(t, os.WriteFile(filepath.Join(sub, "f"), nil, 0o644))
	must(t, os.Chmod(sub, 0))
	defer os.Chmod(sub, 0o755)
	_, _, err := StatFile("file_path", filepath.Join(sub, "f"))
	if err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Errorf("StatFile in unreadable folder = %v, want permission denied", err)
	}
}

func TestWriteFileIsAtomicAndKeepsMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "script.sh")
	must(t, os.WriteFile(p, []byte("old"), 0o751))
	must(t, WriteFile(p, []byte("new"), 0o644))
	assertFile(t, p, "new", 0o751)

	// A new file gets perm.
	n := filepath.Join(dir, "new.txt")
	must(t, WriteFile(n, []byte("x"), 0o640))
	assertFile(t, n, "x", 0o640)

	// Writing through a symlink replaces the target and keeps the link.
	link := filepath.Join(dir, "link")
	must(t, os.Symlink(p, link))
	must(t, WriteFile(link, []byte("via link"), 0o644))
	assertFile(t, p, "via link", 0o751)
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("link replaced by a file: %v %v", fi, err)
	}

	// No temporary files are left behind.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".reins-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

func TestWriteFileFailureLeavesOldContents(t *testing.T) {
	dir := t.TempDir()
	err := WriteFile(filepath.Join(dir, "missing-dir", "f"), []byte("x"), 0o644)
	if err == nil || !strings.Contains(err.Error(), "missing-dir") {
		t.Errorf("WriteFile into a missing folder = %v, want an error naming it", err)
	}
	err = WriteFile(dir, []byte("x"), 0o644)
	if err == nil {
		t.Errorf("WriteFile over a directory succeeded")
	}
}

func assertFile(t *testing.T, p, content string, mode fs.FileMode) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil || string(b) != content {
		t.Errorf("%s = %q, %v; want %q", p, b, err, content)
	}
	fi, err := os.Stat(p)
	if err != nil || fi.Mode().Perm() != mode {
		t.Errorf("%s mode = %v, want %v", p, fi.Mode().Perm(), mode)
	}
}

func TestTextRoundTrip(t *testing.T) {
	tests := []struct {
		name   string
		raw    []byte
		text   string
		format Format
	}{
		{"utf8 lf", []byte("a\nb\n"), "a\nb\n", Format{UTF8, LF}},
		{"utf8 crlf", []byte("a\r\nb\r\n"), "a\nb\n", Format{UTF8, CRLF}},
		{"mixed endings kept", []byte("a\r\nb\nc\r\n"), "a\r\nb\nc\r\n", Format{UTF8, LF}},
		{"no newline", []byte("abc"), "abc", Format{UTF8, LF}},
		{"utf8 bom", []byte("\xEF\xBB\xBFhé\r\n"), "hé\n", Format{UTF8BOM, CRLF}},
		{"utf16le", []byte{0xFF, 0xFE, 'h', 0, 'i', 0, '\n', 0}, "hi\n", Format{UTF16LE, LF}},
		{"utf16be crlf", []byte{0xFE, 0xFF, 0, 'h', 0, '\r', 0, '\n'}, "h\n", Format{UTF16BE, CRLF}},
		{"utf16le astral", append([]byte{0xFF, 0xFE}, 0x3D, 0xD8, 0x00, 0xDE), "😀", Format{UTF16LE, LF}},
		{"latin1 bytes kept", []byte("caf\xe9\n"), "caf\xe9\n", Format{UTF8, LF}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, f, err := DecodeText(tt.raw)
			if err != nil || text != tt.text || f != tt.format {
				t.Fatalf("DecodeText = %q, %+v, %v; want %q, %+v", text, f, err, tt.text, tt.format)
			}
			if back := EncodeText(text, f); !bytes.Equal(back, tt.raw) {
				t.Errorf("EncodeText = %q, want the original %q", back, tt.raw)
			}
		})
	}
}

func TestEncodeTextAddsCRToNewLines(t *testing.T) {
	got := EncodeText(NormalizeNewlines("a\nnew\r\n"), Format{UTF8, CRLF})
	if string(got) != "a\r\nnew\r\n" {
		t.Errorf("EncodeText = %q", got)
	}
}

func TestDecodeTextRejectsOddUTF16(t *testing.T) {
	if _, _, err := DecodeText([]byte{0xFF, 0xFE, 'a'}); err == nil {
		t.Error("odd-length UTF-16 decoded without error")
	}
}

func TestIsBinary(t *testing.T) {
	tests := []struct {
		name string
		b    []byte
		want bool
	}{
		{"empty", nil, false},
		{"text", []byte("package main\n\nfunc main() {}\n"), false},
		{"utf8", []byte("héllo wörld ✓\n"), false},
		{"ansi colours", []byte("\x1b[31mred\x1b[0m\n"), false},
		{"nul", []byte("ab\x00cd"), true},
		{"utf16 with bom", []byte{0xFF, 0xFE, 'a', 0}, false},
		{"control soup", bytes.Repeat([]byte{1, 2, 3, 'a'}, 100), true},
		{"elf header", []byte("\x7fELF\x02\x01\x01\x00\x00"), true},
	}
	for _, tt := range tests {
		if got := IsBinary(tt.b); got != tt.want {
			t.Errorf("IsBinary(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestBinaryExtension(t *testing.T) {
	for name, want := range map[string]bool{"a.exe": true, "A.ZIP": true, "x.png": true, "main.go": false, "README": false, "notes.txt": false} {
		if got := BinaryExtension(name); got != want {
			t.Errorf("BinaryExtension(%q) = %v, want %v", name, got, want)
		}
	}
}

func FuzzDecodeText(f *testing.F) {
	for _, s := range []string{"a\r\nb", "\xEF\xBB\xBFx", "\xFF\xFEa\x00", "\xFE\xFF\x00a\x00\r\x00\n", "\r\n\n", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		text, format, err := DecodeText(b)
		if err != nil {
			return
		}
		back := EncodeText(text, format)
		if format.Encoding == UTF8 || format.Encoding == UTF8BOM {
			if !bytes.Equal(back, b) {
				t.Fatalf("round trip of %q gave %q", b, back)
			}
		}
		IsBinary(b)
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
