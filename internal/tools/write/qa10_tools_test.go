package write

import (
	"os"
	"path/filepath"
	"testing"
)

// Write over a Latin-1 file keeps its encoding, as Edit does: the "�"
// that Read showed for its letters become the file's bytes again, and
// new accented letters are written as Latin-1, not UTF-8. Before, each
// "�" replaced a letter for good and the new ones made a file of two
// encodings.
func TestQA10WriteKeepsALatin1FilesEncoding(t *testing.T) {
	dir, fs, w := setup(t)
	p := filepath.Join(dir, "menu.txt")
	if err := os.WriteFile(p, []byte("caf\xe9\nna\xefve\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	markRead(t, fs, p)
	if _, err := write(t, w, p, "caf\uFFFD au lait\nna\uFFFDve\ncrème\n"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if want := "caf\xe9 au lait\nna\xefve\ncr\xe8me\n"; string(got) != want {
		t.Errorf("file = %q, want %q", got, want)
	}
}
