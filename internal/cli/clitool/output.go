package clitool

import (
	"io"
	"os"
)

// WriteOutput writes a report to stdout, or to the file output names: a failure to create,
// write or close the file is the error.
func WriteOutput(stdout io.Writer, output string, write func(io.Writer) error) error {
	if output == "" {
		return write(stdout)
	}
	f, err := os.Create(output)
	if err != nil {
		return err
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
