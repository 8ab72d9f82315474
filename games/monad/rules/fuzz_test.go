package rules

import (
	"encoding/binary"
	"testing"
)

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{
		`{"l": [3, 4], "c": "MOVE", "d": 1, "n": 5}`,
		`{"l": [3, 4, 5], "c": "ATTACK", "d": 7, "n": -1, "x": 1}`,
		`{"l": [1.0, 1], "c": "MINE", "d": 1.0, "n": true}`,
		`{"l": [99999999999999999999999, 0], "c": null, "d": 9, "n": "1"}`,
		`["MOVE"]`, `null`, `{"l": [0, 0], "c": "MO\u0056E", "d": 3, "n": 2147483648}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := ParseCommand(data)
		if fc, ok := parseFast(data); ok {
			if sc := parseSlow(data); sc != fc {
				t.Fatalf("fast path %+v, encoding/json %+v", fc, sc)
			}
		}
		if c.Err != ErrNone {
			if !c.Err.Malformed() {
				t.Fatalf("parse error %v is not a malformed code", c.Err)
			}
			if c != (Command{Err: c.Err}) {
				t.Fatalf("rejected command carries fields: %+v", c)
			}
			return
		}
		if !OnMap(c.X, c.Y) || c.Dir < East || c.Dir > None || c.Count < 0 || c.Count > MaxCount || c.Kind > KindMine {
			t.Fatalf("accepted command out of range: %+v", c)
		}
		for _, r := range [][]Command{ParseReply(append(append([]byte("["), data...), ']'), nil)} {
			if len(r) != 1 || r[0] != c {
				t.Fatalf("ParseReply([%s]) = %+v, want [%+v]", data, r, c)
			}
		}
	})
}

// FuzzTurn plays turns from a 4-player state whose cells the input fills
// (units, hives, resources), with commands decoded from the input, and
// checks the invariants after each turn: no negative count, at most one
// player per cell, resources within bounds, every command accounted for,
// and the turn deterministic (a clone stepped with the same commands has
// the same hash).
func FuzzTurn(f *testing.F) {
	f.Add([]byte("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"), []byte("\x10\x20\x30\x40\x50\x60\x70\x80\x90\xa0\xb0\xc0\xd0\xe0\xf0\xff"))
	f.Add([]byte("\xff\xfe\xfd\xfc"), []byte("\x01\x01\x01\x01\x02\x02\x02\x02\x03\x03\x03\x03"))
	f.Fuzz(func(t *testing.T, setup, commands []byte) {
		s, err := New(Config{Players: 4, MaxTurns: 50, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+3 < len(setup) && i/4 < NumCells; i += 4 {
			c := &s.cells[(int(setup[i])*7+i/4)%NumCells]
			p := int(setup[i+1]) % MaxPlayers
			c.units = [MaxPlayers]int32{}
			c.units[p] = int32(setup[i+2] % 40)
			if setup[i+3]&1 == 1 {
				c.hive, c.counter = int8(setup[i+3]>>1)%MaxPlayers, int32(setup[i+3]>>3)%6
			}
		}
		for turn := 0; turn < 3 && !s.Over(); turn++ {
			cmds := make([][]Command, 4)
			for i := 0; i+5 < len(commands); i += 6 {
				b := commands[i : i+6]
				c := Command{
					X: int(b[0]%22) - 1, Y: int(b[1]%22) - 1,
					Kind: Kind(b[2] % 5), Dir: Dir(b[3] % 9),
					Count: int64(int8(b[4])),
				}
				if b[5] == 0xff {
					c.Count = int64(binary.LittleEndian.Uint32(b[:4]))
				}
				cmds[int(b[5])%4] = append(cmds[int(b[5])%4], c)
			}
			clone := s.Clone()
			s.Step(cmds)
			clone.Step(cmds)
			if s.Hash() != clone.Hash() {
				t.Fatal("the same turn gave two states")
			}
			for i := range s.cells {
				c := &s.cells[i]
				holders := 0
				for p := 0; p < 4; p++ {
					if c.units[p] < 0 {
						t.Fatalf("cell %d: negative units %v", i, c.units)
					}
					if c.units[p] > 0 {
						holders++
					}
				}
				if holders > 1 {
					t.Fatalf("cell %d holds units of %d players: %v", i, holders, c.units)
				}
				if c.resource < 0 || c.resource > MaxResource {
					t.Fatalf("cell %d: resource %d", i, c.resource)
				}
				if c.hive >= 0 && (c.counter < 1 || c.counter > UnitCost) {
					t.Fatalf("cell %d: hive counter %d", i, c.counter)
				}
			}
			for p := 0; p < 4; p++ {
				if st := s.Stats(p); st.Resources < 0 || st.UnitsLost < 0 {
					t.Fatalf("player %d: %+v", p, st)
				}
			}
			for _, e := range s.Errors() {
				if e.Index >= len(cmds[e.Player]) || e.Code == ErrNone {
					t.Fatalf("error %+v does not name a sent command", e)
				}
			}
			for _, e := range s.Executed() {
				if e.Index >= 0 && cmds[e.Player][e.Index].Kind != e.Kind {
					t.Fatalf("executed %+v is not the command sent", e)
				}
			}
		}
	})
}
