// Package hugeheap lets the Go heap grow into memory backed by 2 MiB
// pages on Linux, where a run's first megabytes of heap otherwise cost a
// page fault per 4 KiB (see Prepare).
package hugeheap
