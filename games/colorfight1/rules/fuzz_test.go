package rules

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
)

// FuzzParseBody: any body parses or fails with ErrBadJSON, never panics;
// a body encoding/json finds valid (and shallow enough) parses, and one
// it finds invalid fails, except for Python's NaN and Infinity; a parsed
// object's string fields read back as encoding/json reads them.
func FuzzParseBody(f *testing.F) {
	for _, s := range []string{`{"cellx": 1, "celly": 2, "token": "abc", "boost": true}`, `null`, `[1, 2]`, `{}`,
		`{"name": "\u00e9\ud83d\ude00"}`, `{"cellx": 1e400}`, `{"token": {"$join": 3}}`, `{"a": [[[{}]]]}`, `"str"`, `{"cellx":-0.0}`,
		`{"boost": NaN}`, `{"x": -Infinity}`, `{"name": "a", "name": "b"}`, `{`, `{"cellx" 1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		b, err := ParseBody(true, raw)
		python := strings.Contains(string(raw), "NaN") || strings.Contains(string(raw), "Infinity")
		if err != nil {
			if json.Valid(raw) && len(raw) <= MaxBodyBytes && !strings.Contains(err.Error(), "nested deeper") {
				t.Fatalf("%q: valid JSON refused: %v", raw, err)
			}
			return
		}
		if !json.Valid(raw) && !python {
			t.Fatalf("%q: invalid JSON accepted", raw)
		}
		if python {
			return
		}
		var obj map[string]any
		if json.Unmarshal(raw, &obj) != nil || obj == nil {
			return
		}
		for f := range numFields {
			v, present := obj[f.String()]
			if present != b.Has(f) {
				t.Fatalf("%q: field %s present %v, parsed %v", raw, f, present, b.Has(f))
			}
			if s, isStr := v.(string); isStr {
				if got, ok := b.String(f); !ok || got != s && !strings.ContainsRune(s, '\uFFFD') {
					t.Fatalf("%q: field %s = %q, parsed %q %v", raw, f, s, got, ok)
				}
			}
		}
	})
}

// FuzzCommand: any command text, sent by a seat that has joined, draws
// at most an error and leaves a game that plays on.
func FuzzCommand(f *testing.F) {
	for _, s := range []string{`/attack {"cellx":3,"celly":4}`, `/blast {"cellx":3,"celly":4,"direction":"square"}`,
		`/multiattack {"cellx":0,"celly":0}`, `/buildbase {"cellx":29,"celly":29}`, `/joingame {"name":"x"}`, `/startgame {}`,
		`/attack`, `/checktoken {"token":""}`, `/attack {"cellx":1e308,"celly":-1e308,"boost":1}`, ``} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, c string) {
		g, err := Ruleset.New(1, engine.Settings{Players: 2, MaxTurns: 10})
		if err != nil {
			t.Fatal(err)
		}
		g.Round([][]string{{`/joingame {"name":"a"}`}, {`/joingame {"name":"b"}`}})
		for range 3 {
			errs := g.Round([][]string{{c, c}, {c}})
			for _, e := range errs {
				if e.Code == 0 || e.Index < 0 || e.Index > 1 {
					t.Fatalf("%q: error %+v", c, e)
				}
			}
		}
		if g.Turn() != 4 {
			t.Fatalf("%q: turn %d", c, g.Turn())
		}
	})
}
