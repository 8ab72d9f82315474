package rules

import (
	"errors"
	"strings"
	"testing"
)

// TestBodyBounds: a body longer than MaxBodyBytes or nested deeper than
// MaxBodyDepth is refused with ErrBadJSON, saying which; one at the
// bounds parses.
func TestBodyBounds(t *testing.T) {
	deep := func(n int) []byte {
		return []byte(`{"a":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`)
	}
	if _, err := ParseBody(true, deep(MaxBodyDepth)); err != nil {
		t.Fatalf("depth %d: %v", MaxBodyDepth, err)
	}
	if _, err := ParseBody(true, deep(MaxBodyDepth+1)); !errors.Is(err, ErrBadJSON) || !strings.Contains(err.Error(), "nested deeper than 64") {
		t.Fatalf("depth %d: %v", MaxBodyDepth+1, err)
	}
	long := []byte(`{"name":"` + strings.Repeat("x", MaxBodyBytes-11) + `"}`)
	if _, err := ParseBody(true, long); err != nil {
		t.Fatalf("%d bytes: %v", len(long), err)
	}
	long = append(long[:len(long)-2], `x"}`...)
	if _, err := ParseBody(true, long); !errors.Is(err, ErrBadJSON) || !strings.Contains(err.Error(), "more than 65536") {
		t.Fatalf("%d bytes: %v", len(long), err)
	}
}

// TestFieldValues: the body's values as the reference's Python reads
// them, beyond what the vectors send: boost is `== True` (1.0 too),
// booleans are the integers 0 and 1, a coordinate that is not an integer
// or off the map (huge, NaN, a string) is no cell.
func TestFieldValues(t *testing.T) {
	for body, want := range map[string]bool{`{"boost":true}`: true, `{"boost":1}`: true, `{"boost":1.0}`: true, `{"boost":1e0}`: true,
		`{"boost":"true"}`: false, `{"boost":2}`: false, `{"boost":null}`: false, `{}`: false, `{"boost":false}`: false} {
		b, err := ParseBody(true, []byte(body))
		if err != nil || b.IsTrue(FieldBoost) != want {
			t.Errorf("%s: boost %v (%v), want %v", body, b.IsTrue(FieldBoost), err, want)
		}
	}
	for body, want := range map[string]int{`{"cellx":3,"celly":4}`: 123, `{"cellx":3.0,"celly":4}`: 123, `{"cellx":true,"celly":false}`: 1,
		`{"cellx":3.5,"celly":4}`: -1, `{"cellx":30,"celly":4}`: -1, `{"cellx":-1,"celly":4}`: -1, `{"cellx":1e400,"celly":4}`: -1,
		`{"cellx":NaN,"celly":4}`: -1, `{"cellx":"3","celly":4}`: -1, `{"cellx":null,"celly":4}`: -1, `{"cellx":99999999999999999999,"celly":0}`: -1} {
		b, err := ParseBody(true, []byte(body))
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		got := -1
		if x, y, ok := b.Cell(); ok {
			got = x + Width*y
		}
		if got != want {
			t.Errorf("%s: cell %d, want %d", body, got, want)
		}
	}
	b, _ := ParseBody(true, []byte(`{"token":"a\"b\u00e9","name":5}`))
	if s, ok := b.String(FieldToken); !ok || s != "a\"bé" {
		t.Errorf("token %q %v", s, ok)
	}
	if _, ok := b.String(FieldName); ok || !b.Has(FieldName) {
		t.Error("a number read as a string")
	}
	if b, _ := ParseBody(false, []byte(`{"cellx":1}`)); b.JSON {
		t.Error("a body of another content type read as JSON")
	}
	if b, _ := ParseBody(true, []byte(` null `)); b.JSON {
		t.Error("null read as JSON")
	}
	if b, _ := ParseBody(true, []byte(`[1, 2]`)); !b.JSON || b.Object || b.Has(FieldCellX) {
		t.Error("an array is JSON lacking every field")
	}
}
