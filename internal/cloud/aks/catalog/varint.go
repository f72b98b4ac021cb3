package catalog

import (
	"encoding/binary"
	"errors"
	"math"
)

type writer struct{ buf []byte }

func (w *writer) raw(b []byte)     { w.buf = append(w.buf, b...) }
func (w *writer) uvarint(v uint64) { w.buf = binary.AppendUvarint(w.buf, v) }
func (w *writer) varint(v int64)   { w.buf = binary.AppendVarint(w.buf, v) }
func (w *writer) bool(b bool) {
	if b {
		w.uvarint(1)
	} else {
		w.uvarint(0)
	}
}
func (w *writer) bits(f float64) {
	w.buf = binary.LittleEndian.AppendUint64(w.buf, math.Float64bits(f))
}
func (w *writer) float(f float64) {
	if m, ok := micros(f); ok {
		w.uvarint(m << 1)
		return
	}
	w.uvarint(1)
	w.bits(f)
}

// micros returns f in integer millionths when that representation decodes back
// to exactly f. Division by 1e6 is correctly rounded, so any decimal with at most
// six fractional digits round-trips bit for bit.
func micros(f float64) (uint64, bool) {
	if !(f >= 0) || f > 1<<40 {
		return 0, false
	}
	m := math.Round(f * 1e6)
	if m/1e6 != f {
		return 0, false
	}
	return uint64(m), true
}

var errTruncated = errors.New("truncated data")

// reader keeps the first error and returns zero values afterwards, so decoding
// code reads straight through and checks once at the end.
type reader struct {
	buf []byte
	err error
}

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.buf = nil
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.buf)
	if n <= 0 {
		r.fail(errTruncated)
		return 0
	}
	r.buf = r.buf[n:]
	return v
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.buf)
	if n <= 0 {
		r.fail(errTruncated)
		return 0
	}
	r.buf = r.buf[n:]
	return v
}

func (r *reader) bytes(n uint64) []byte {
	if uint64(len(r.buf)) < n {
		r.fail(errTruncated)
		return nil
	}
	b := r.buf[:n]
	r.buf = r.buf[n:]
	return b
}

func (r *reader) bool() bool { return r.uvarint() != 0 }

func (r *reader) float() float64 {
	v := r.uvarint()
	if v&1 == 0 {
		return float64(v>>1) / 1e6
	}
	b := r.bytes(8)
	if b == nil {
		return 0
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b))
}

// count reads a length and rejects values that cannot fit in what is left, so
// corrupt input cannot make the decoder allocate huge slices.
func (r *reader) count() int {
	n := r.uvarint()
	if n > uint64(len(r.buf)) {
		r.fail(errTruncated)
		return 0
	}
	return int(n)
}
