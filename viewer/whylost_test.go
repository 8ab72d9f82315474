package viewer

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// TestPackStats: the stats the page charts are the analysis's own values
// (exactly its series columns), frame t holding turn t; the exchanges are
// the game's captures by whom, and they add up to each player's captured
// cells.
func TestPackStats(t *testing.T) {
	rep, err := LoadReader(bytes.NewReader(vectorRWD(t, "c03")))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ReadManifest(rep.Blob)
	if err != nil {
		t.Fatal(err)
	}
	np := len(m.Players)
	fields := map[string]Field{}
	for _, f := range m.Fields {
		fields[f.Name] = f
	}
	for _, s := range m.Stats {
		if _, ok := fields[s.Field]; !ok {
			t.Errorf("stat %q has no field", s.Field)
		}
	}
	nonzero := map[string]int64{}
	for _, name := range statFields {
		f, ok := fields[name]
		if !ok || f.Type != "i32" || f.Kind != "user" || f.Length != m.Frames*np {
			t.Fatalf("field %q: %+v", name, f)
		}
		for s, p := range rep.Analysis.Players {
			for frame := range m.Frames {
				v := int64(int32(binary.LittleEndian.Uint32(rep.Blob[f.Offset+4*(frame*np+s):])))
				want := int64(0)
				if frame > 0 {
					want = rep.Analysis.At(p.UID, frame, name)
				}
				if v != want {
					t.Fatalf("%s of %s at frame %d: %d, want %d", name, p.Username, frame, v, want)
				}
				nonzero[name] += v
			}
		}
	}
	for _, name := range []string{"captured", "lost", "gold_spent", "attack_energy", "commands", "errors"} {
		if nonzero[name] == 0 {
			t.Errorf("c03: %s is 0 for everyone", name)
		}
	}
	if nonzero["faults"] != 0 {
		t.Errorf("c03's bots fault %d times", nonzero["faults"])
	}
	for _, st := range rep.Analysis.Summary.Ranking {
		slot := 0
		for i, p := range m.Players {
			if p.UID == st.UID {
				slot = i + 1
			}
		}
		var sum int64
		for _, n := range m.Exchanges[slot-1] {
			sum += n
		}
		if captured, _ := st.Get("captured"); sum != captured {
			t.Errorf("%s: exchanges add up to %d, captured %d", st.Username, sum, captured)
		}
	}
}
