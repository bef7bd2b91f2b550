// Package notebook is the NotebookEdit tool: it replaces, inserts or
// deletes one cell of a Jupyter notebook (.ipynb).
//
// The notebook is edited as ordered JSON, so everything the edit does not
// touch keeps its bytes: key order, the indentation the file uses,
// escaped or raw non-ASCII text, the final newline. A replaced code cell
// loses its outputs and execution count, as Jupyter does when a cell's
// source changes. Cells are found by their id, or as "cell-N" (N from 0)
// in notebooks without ids, the names the Read tool shows. The
// read-before-write rule and the atomic, mode-keeping write come from
// package edit.
//
// This package must not import the engine or any front end.
package notebook
