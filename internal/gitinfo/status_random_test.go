package gitinfo

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNativeStatusRandomWalk applies seeded random changes to a
// repository (writes, deletions, mode changes, links, staging, commits,
// ignore rules) and compares nativeStatus with git after every step. A
// decline is allowed, but most steps must be answered.
func TestNativeStatusRandomWalk(t *testing.T) {
	for seed := range uint64(3) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			t.Parallel()
			randomWalk(t, seed, 40)
		})
	}
}

var (
	walkPaths    = []string{"a", "b", "c.log", "d/e", "d/f.log", "d/g/h", "d/g/i", "x/y", "x/z/w", "tmp/t"}
	walkContents = []string{"", "one\n", "two\n", "ONE\n", "three lines\nof\ntext\n"}
	walkRules    = []string{"*.log", "!d/f.log", "tmp/", "/a", "d/g/", "**/w", "x/*", "!x/y", "h", "#c"}
)

func randomWalk(t *testing.T, seed uint64, steps int) {
	rng := rand.New(rand.NewPCG(seed, 42))
	r := newStatusRepo(t)
	declines := 0
	pick := func(list []string) string { return list[rng.IntN(len(list))] }
	for step := range steps {
		path := pick(walkPaths)
		full := filepath.Join(r.dir, filepath.FromSlash(path))
		var op string
		switch k := rng.IntN(11); k {
		case 0, 1, 2:
			op = "write " + path
			os.Remove(full) // not through a link
			r.write(path, pick(walkContents))
		case 3:
			op = "delete " + path
			r.remove(path)
		case 4:
			op = "chmod " + path
			if fi, err := os.Lstat(full); err == nil && fi.Mode().IsRegular() {
				r.chmod(path, fi.Mode().Perm()^0o100)
			}
		case 5:
			op = "symlink " + path
			os.MkdirAll(filepath.Dir(full), 0o755)
			r.symlink(pick(walkPaths), path)
		case 6, 7:
			op = "add " + path
			r.gitMayFail("add", "-A", "--", path)
		case 8:
			op = "commit"
			r.gitMayFail("add", "-A")
			r.gitMayFail("commit", "-q", "-m", fmt.Sprint("step ", step))
		case 9:
			var rules []string
			for range rng.IntN(4) {
				rules = append(rules, pick(walkRules))
			}
			where := pick([]string{".gitignore", "d/.gitignore", ".git/info/exclude"})
			op = "ignore " + where + ": " + strings.Join(rules, ",")
			r.write(where, strings.Join(rules, "\n")+"\n")
		case 10:
			op = "touch " + path
			when := time.Now()
			if rng.IntN(2) == 0 {
				when = when.Add(-time.Hour)
			}
			os.Chtimes(full, when, when)
		}
		got, err := r.native()
		want := r.gitStatus()
		switch {
		case errors.Is(err, errUnsupported):
			declines++
		case err != nil:
			t.Fatalf("step %d (%s): nativeStatus: %v", step, op, err)
		case got != want:
			t.Fatalf("step %d (%s): nativeStatus printed\n%s\ngit printed\n%s\nwork tree:\n%s", step, op, got, want, listTree(r.dir))
		}
	}
	if declines > steps/2 {
		t.Errorf("nativeStatus declined %d of %d steps", declines, steps)
	}
	t.Logf("seed %d: %d of %d steps declined", seed, declines, steps)
}

// listTree lists a work tree for failure messages.
func listTree(dir string) string {
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		fmt.Fprintf(&b, "%s %v\n", rel, d.Type())
		return nil
	})
	cmd := exec.Command("git", "ls-files", "-s", "--debug")
	cmd.Dir = dir
	out, _ := cmd.Output()
	return b.String() + "index:\n" + string(out)
}
