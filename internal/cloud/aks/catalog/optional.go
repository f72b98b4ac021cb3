package catalog

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Tristate is a yes/no fact that may not be known. The zero value is Unknown
// so that a field nobody filled in can never read as a confident "no".
type Tristate uint8

const (
	Unknown Tristate = iota
	No
	Yes
)

// TristateOf turns a known boolean into a Tristate.
func TristateOf(b bool) Tristate {
	if b {
		return Yes
	}
	return No
}

// Get returns the value and whether it is known.
func (t Tristate) Get() (value, known bool) { return t == Yes, t != Unknown }

// Known reports whether the fact is known.
func (t Tristate) Known() bool { return t != Unknown }

// IsYes reports whether the fact is known to be true.
func (t Tristate) IsYes() bool { return t == Yes }

func (t Tristate) String() string {
	switch t {
	case Yes:
		return "true"
	case No:
		return "false"
	default:
		return "unknown"
	}
}

// MarshalJSON writes null for Unknown so that JSON consumers see "absent", not false.
func (t Tristate) MarshalJSON() ([]byte, error) {
	switch t {
	case Yes:
		return []byte("true"), nil
	case No:
		return []byte("false"), nil
	default:
		return []byte("null"), nil
	}
}

func (t *Tristate) UnmarshalJSON(b []byte) error {
	switch strings.TrimSpace(string(b)) {
	case "true":
		*t = Yes
	case "false":
		*t = No
	case "null":
		*t = Unknown
	default:
		return fmt.Errorf("expected true, false or null, got %s", b)
	}
	return nil
}

// OptInt is an integer fact that may not be known.
type OptInt struct {
	Value int64
	Known bool
}

// IntOf wraps a known integer.
func IntOf(v int64) OptInt { return OptInt{Value: v, Known: true} }

// Get returns the value and whether it is known.
func (o OptInt) Get() (int64, bool) { return o.Value, o.Known }

func (o OptInt) MarshalJSON() ([]byte, error) {
	if !o.Known {
		return []byte("null"), nil
	}
	return json.Marshal(o.Value)
}

func (o *OptInt) UnmarshalJSON(b []byte) error {
	if strings.TrimSpace(string(b)) == "null" {
		*o = OptInt{}
		return nil
	}
	var v int64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*o = IntOf(v)
	return nil
}
