package read

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"os/exec"
	"strings"
	"testing"

	"reins/internal/filestate"
	"reins/internal/llm"
)

// A plot saved at a high resolution in a notebook reaches the model the
// way an image file does: scaled down to MaxImageSide pixels a side, for
// the API refuses images over 8000 pixels (2000 in requests with many).
func TestQA10NotebookImageOutputsAreScaledDownLikeImageFiles(t *testing.T) {
	e := newEnv(t)
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 6000, 200))); err != nil {
		t.Fatal(err)
	}
	nb := `{"cells":[{"cell_type":"code","execution_count":1,"metadata":{},"source":"plot()","outputs":[
 {"output_type":"display_data","data":{"image/png":"` + base64.StdEncoding.EncodeToString(buf.Bytes()) + `"},"metadata":{}}]}],
 "metadata":{},"nbformat":4,"nbformat_minor":4}`
	p := e.write(t, "plot.ipynb", []byte(nb))
	res, err := e.read(t, map[string]any{"file_path": p})
	if err != nil {
		t.Fatal(err)
	}
	var img *llm.Source
	for _, b := range res.Content {
		if b.Type == llm.BlockImage {
			img = b.Source
		}
	}
	if img == nil {
		t.Fatalf("no image block in %+v", res.Content)
	}
	data, err := base64.StdEncoding.DecodeString(img.Data)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the image sent does not decode: %v", err)
	}
	if cfg.Width > MaxImageSide || cfg.Height > MaxImageSide {
		t.Errorf("the image sent is %d×%d; want at most %d a side", cfg.Width, cfg.Height, MaxImageSide)
	}
}

// Read's description offers PDF reading only where pdftotext is
// installed, as Claude Code declares PDF support only where it has it.
func TestQA10DescriptionMentionsPDFOnlyWithPdftotext(t *testing.T) {
	tl := New(filestate.New())
	tl.LookPath = func(string) (string, error) { return "", exec.ErrNotFound }
	if d := tl.Description(); strings.Contains(d, "PDF") {
		t.Errorf("without pdftotext the description still offers PDFs:\n%s", d)
	}
	tl = New(filestate.New())
	tl.LookPath = func(string) (string, error) { return "/usr/bin/pdftotext", nil }
	if d := tl.Description(); !strings.Contains(d, "PDF files are read") {
		t.Errorf("with pdftotext the description does not offer PDFs:\n%s", d)
	}
}

// A repository cloned without Git LFS holds small pointer files in place
// of its images and PDFs. Read says so and names the fix, instead of
// "not a PNG (it looks like text/plain)" or pdftotext's syntax errors.
func TestQA10ReadNamesGitLFSPointers(t *testing.T) {
	e := newEnv(t)
	pointer := []byte("version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 48213\n")
	for _, name := range []string{"logo.png", "manual.pdf"} {
		p := e.write(t, name, pointer)
		_, err := e.read(t, map[string]any{"file_path": p})
		if err == nil || !strings.Contains(err.Error(), "Git LFS") || !strings.Contains(err.Error(), "git lfs pull") {
			t.Errorf("Read of an LFS pointer named %s: error %v; want one naming Git LFS and git lfs pull", name, err)
		}
	}
}
