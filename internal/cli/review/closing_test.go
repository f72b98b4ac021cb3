package review

import (
	"strings"
	"testing"
)

// A review that read no file says what it reads; one that read files does not.
func TestClosingLineSaysWhenNoFileWasRead(t *testing.T) {
	if got := closingLine(&Report{}); !strings.Contains(got, "no file read") || !strings.Contains(got, "not Terraform .tf files") {
		t.Errorf("no files: %q", got)
	}
	if got := closingLine(&Report{Files: 2}); strings.Contains(got, "no file read") {
		t.Errorf("two files: %q", got)
	}
}
