// Package clitool is what the review and simulate commands share: their exit codes, the flags
// both take, flag parsing that lets flags follow paths and answers a mistake with one line,
// --version and --list-codes, and writing a report to standard output or a file.
package clitool
