// Package read is the Read tool: it shows a file to the model. Text comes
// back with line numbers (cat -n style: the number, a tab, the line), 2000
// lines from the offset by default, each line cut at 2000 characters;
// images (PNG, JPEG, GIF, WebP) come back as image blocks, scaled down
// when too large; Jupyter notebooks as their cells with outputs; PDF pages
// as text through pdftotext when it is installed. Binary files, files
// over 256 KB read without a range, and results over about 25,000 tokens
// are refused with a hint to read a part.
//
// Every successful read is recorded in the session's filestate.State,
// which the Write, Edit and NotebookEdit guards consult.
//
// This package must not import the engine or any front end.
package read
