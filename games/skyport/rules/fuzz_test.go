package rules

import (
	"testing"

	"github.com/rewind-game/rewind/engine"
)

func FuzzParseMap(f *testing.F) {
	f.Add([]byte(tinyMap))
	f.Add(GenerateMap(3, 4).AppendFile(nil))
	f.Add([]byte("players 2\r\nsize 2\r\ndescription \"a b\"\r\nS\r\nG/G\r\nS"))
	f.Add([]byte("players 2\nsize 99\ndescription \"\"\n"))
	f.Add([]byte("players 2\nsize 2\ndescription \"a\u2028b\"\u2029S\u0085GG\nS\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseMap(data)
		if err != nil {
			if m != nil {
				t.Fatal("map and error")
			}
			return
		}
		if len(m.Tiles) != m.Size*m.Size {
			t.Fatalf("%d tiles for size %d", len(m.Tiles), m.Size)
		}
		for _, c := range m.Tiles {
			if TileIndex(c) < 0 {
				t.Fatalf("tile %q", c)
			}
		}
		back, err := ParseMap(m.AppendFile(nil))
		if err != nil || string(back.Tiles) != string(m.Tiles) || back.Size != m.Size {
			t.Fatalf("round trip: %v", err)
		}
	})
}

// FuzzParseLine feeds arbitrary lines to the line reader and to a
// player-turn: nothing panics, every line gets a fate, and the game
// stays consistent.
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{
		`{"message":"action","type":"move","direction":"up"}`,
		`{message:action,type:mortar,coordinates:"1,0"}`,
		`{"message":"action","type":"droid","sequence":["up",1,null,[]]}`,
		`{'message'=>'action';'type':'laser','direction':'down',}`,
		`{"a":"\u12`, `{"a":"\u-1ab"}`, `[[[[`, `{}}`, "{\"a\":1}\r\n{\"b\"", "\x00{", `{"a":1e400}`,
		`{"message":"action","type":"upgrade","weapon":"laser"}`,
	} {
		f.Add(s)
	}
	m := GenerateMap(5, 2)
	spawns, ring, _ := Draw(m, 2, 5)
	f.Fuzz(func(t *testing.T, line string) {
		var p jparser
		obj := p.parseObject(line)
		if p.failed == parseOK {
			_ = p.appendJSON(nil, obj)
			_ = p.appendJava(nil, obj)
		}
		Handshake(line)
		st, err := New(Setup{Map: m, Names: []string{"aaa", "bbb"}, Spawns: spawns, Ring: ring, MaxTurns: 5})
		if err != nil {
			t.Fatal(err)
		}
		st.Loadout([]string{line})
		st.Loadout([]string{`{"message":"loadout","primary-weapon":"mortar","secondary-weapon":"droid"}`})
		for !st.Over() {
			st.PlayTurn([]string{line, line})
			if len(st.Log().Lines) == 0 {
				t.Fatal("no line record")
			}
			for i := range st.Log().Lines {
				if st.Log().Lines[i].Status == 0 {
					t.Fatal("line without a fate")
				}
				_ = st.AppendBroadcast(nil, i)
			}
		}
		_ = st.AppendGamestate(nil, true)
		_ = st.Hash()
	})
}

// FuzzSetup: NewFromSetup never panics on a bad setup, and a setup it
// accepts starts a game that plays.
func FuzzSetup(f *testing.F) {
	m := GenerateMap(2, 2)
	spawns, ring, _ := Draw(m, 2, 2)
	good, err := MarshalSetup(Setup{Map: m, Names: []string{"aaa", "bbb"}, Spawns: spawns, Ring: ring, MaxTurns: 4})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"map":"players 1\nsize 1\ndescription \"x\"\nS\n","names":["a"],"spawns":["0, 0"],"ring":[0]}`))
	f.Add([]byte(`{"map":"","names":[],"spawns":[],"ring":[]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := Ruleset.(interface {
			NewFromSetup([]byte, engine.Settings) (engine.Game, error)
		}).NewFromSetup(b, engine.Settings{MaxTurns: 5})
		if err != nil {
			return
		}
		for i := 0; i < 30 && !g.Over(); i++ {
			cmds := make([][]string, g.Players())
			if p := g.Active(); p >= 0 {
				cmds[p] = []string{`{"message":"action","type":"move","direction":"up"}`}
			}
			g.Round(cmds)
		}
		var bd engine.Board
		g.Board(&bd)
	})
}
