package vectors

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"

	skyport "github.com/rewind-game/rewind/games/skyport/rules"
)

type probeFile struct {
	Format string `json:"format"`
	Setup  struct {
		Map      string      `json:"map"`
		Players  []string    `json:"players"`
		Spawns   []string    `json:"spawns"`
		Ring     []int       `json:"ring"`
		Loadouts [][2]string `json:"loadouts"`
	} `json:"setup"`
	Probes []struct {
		Kind      string         `json:"kind"`
		What      string         `json:"what"`
		Lines     []string       `json:"lines"`
		Gamestate map[string]any `json:"gamestate"`
		Outcome   string         `json:"outcome"`
		Exception string         `json:"exception"`
		turnRec
		Turns []struct {
			Turn      int       `json:"turn"`
			Actor     int       `json:"actor"`
			Penalties penalties `json:"penalties"`
			After     [][]any   `json:"after"`
		} `json:"turns"`
		Final *struct {
			TurnsPlayed int     `json:"turns_played"`
			Scores      []int   `json:"scores"`
			Ranking     []int   `json:"ranking"`
			WinnerText  string  `json:"winner_text"`
			Players     [][]any `json:"players"`
		} `json:"final"`
		HandshakeLines []string `json:"handshake_lines"`
		Handshake      []struct {
			Accepted bool     `json:"accepted"`
			Errors   []string `json:"errors"`
		} `json:"handshake"`
	} `json:"probes"`
}

// CheckProbes replays every case of dir/probes.json: line probes on a
// fresh two-player game (alice steps off her spawn on turn 1, bob on
// turn 2, alice sends the probe on turn 3), the tie, and the handshake
// quirks. A "crash" probe (mortar coordinates that are not two Java
// integers, which stop the reference's game loop) must be rejected by
// rewind as documented: the line Rejected with LineFate.Crash set and
// nothing else changed; these are listed in Notes.
func CheckProbes(dir string) (*Report, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "probes.json"))
	if err != nil {
		return nil, err
	}
	return checkProbes(raw, func(rel string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, rel)) })
}

// Probes is CheckProbes on probes.json's bytes, for `rewind conform`
// (engine.Vectors.CheckProbes): read gives the map the file names. It
// returns the cases compared, the first divergence ("" when every case
// agrees) and the documented differences (the crash cases).
func Probes(data []byte, read func(rel string) ([]byte, error)) (cases int, divergence string, notes []string, err error) {
	r, err := checkProbes(data, read)
	if err != nil {
		return 0, "", nil, err
	}
	if !r.OK() {
		return r.Turns, r.Divergences[0], r.Notes, nil
	}
	return r.Turns, "", r.Notes, nil
}

func checkProbes(raw []byte, read func(rel string) ([]byte, error)) (*Report, error) {
	var pf probeFile
	if err := json.Unmarshal(raw, &pf); err != nil {
		return nil, fmt.Errorf("probes.json: %w", err)
	}
	data, err := read(pf.Setup.Map)
	if err != nil {
		return nil, fmt.Errorf("probes.json: map: %w", err)
	}
	m, err := parseMap(data, pf.Setup.Map, "")
	if err != nil {
		return nil, err
	}
	setup := skyport.Setup{Map: m, Names: pf.Setup.Players, Ring: pf.Setup.Ring}
	for _, s := range pf.Setup.Spawns {
		j, k, err := ParsePos(s)
		if err != nil {
			return nil, fmt.Errorf("probes.json: %w", err)
		}
		setup.Spawns = append(setup.Spawns, j*m.Size+k)
	}
	start := func(maxTurns int) (*skyport.State, error) {
		s := setup
		s.MaxTurns = maxTurns
		st, err := skyport.New(s)
		if err != nil {
			return nil, err
		}
		for p, lo := range pf.Setup.Loadouts {
			line := fmt.Sprintf(`{"message":"loadout","primary-weapon":%q,"secondary-weapon":%q}`, lo[0], lo[1])
			if !st.LoadoutLine(p, line) {
				return nil, fmt.Errorf("probes.json: loadout %v refused", lo)
			}
		}
		st.FinishLoadout()
		return st, nil
	}
	r := &Report{Name: "probes"}
	for i, pr := range pf.Probes {
		r.Turns++
		where := fmt.Sprintf("probe %d (%s: %s)", i, pr.Kind, pr.What)
		switch {
		case pr.HandshakeLines != nil:
			fresh, err := skyport.New(setup)
			if err != nil {
				return nil, err
			}
			accepted := false
			for li, line := range pr.HandshakeLines {
				var ok bool
				var errs []string
				if !accepted {
					_, e, hok := skyport.Handshake(line)
					ok = hok
					if e != "" {
						errs = append(errs, e)
					}
					accepted = ok
				} else {
					ok = fresh.LoadoutLine(0, line)
					errs = fresh.Log().Errors(0, nil)
				}
				if li >= len(pr.Handshake) {
					r.addf("%s: line %d not in the probe", where, li)
					continue
				}
				w := pr.Handshake[li]
				if ok != w.Accepted || !sameErrors(errs, w.Errors) {
					r.addf("%s: line %d: got accepted=%v errors=%q, want accepted=%v errors=%q", where, li, ok, errs, w.Accepted, w.Errors)
				}
			}
		case pr.Kind == "tie":
			st, err := start(len(pr.Turns))
			if err != nil {
				return nil, err
			}
			for _, tw := range pr.Turns {
				st.Begin()
				if st.Actor() != tw.Actor {
					r.addf("%s: turn %d: actor %d, want %d", where, tw.Turn, st.Actor(), tw.Actor)
				}
				st.PlayTurn(nil)
				l := st.Log()
				if l.NoValidAction != tw.Penalties.NoValidAction || l.OnSpawn != tw.Penalties.OnSpawn {
					r.addf("%s: turn %d: penalties %v %v, want %+v", where, tw.Turn, l.NoValidAction, l.OnSpawn, tw.Penalties)
				}
				comparePlayers(r, fmt.Sprintf("%s: turn %d", where, tw.Turn), st, tw.After)
			}
			if f := pr.Final; f != nil {
				var scores []int
				for p := 0; p < st.Players(); p++ {
					scores = append(scores, st.Player(p).Score)
				}
				if st.Played() != f.TurnsPlayed || !reflect.DeepEqual(scores, f.Scores) || st.Winner() != f.WinnerText || !reflect.DeepEqual(st.Ranking(), f.Ranking) {
					r.addf("%s: final: played %d scores %v winner %q ranking %v, want %d %v %q %v", where, st.Played(), scores, st.Winner(), st.Ranking(), f.TurnsPlayed, f.Scores, f.WinnerText, f.Ranking)
				}
				comparePlayers(r, where+": final", st, f.Players)
			}
		default:
			st, err := start(10)
			if err != nil {
				return nil, err
			}
			st.PlayTurn([]string{`{"message":"action","type":"move","direction":"right-down"}`})
			st.PlayTurn([]string{`{"message":"action","type":"move","direction":"left-down"}`})
			st.Begin()
			compareGamestate(r, where+": turn 3", st, pr.Gamestate)
			before := [2]skyport.Player{st.Player(0), st.Player(1)}
			st.PlayTurn(pr.Lines)
			if pr.Outcome == "crash" {
				l := st.Log()
				if len(l.Lines) != 1 || l.Lines[0].Status != skyport.Rejected || !l.Lines[0].Crash || len(l.Hits) != 0 {
					r.addf("%s: the reference crashes (%s); want the documented rejection, got %+v", where, pr.Exception, l.Lines)
				} else if a, b := st.Player(0), st.Player(1); a.Health != before[0].Health || b != before[1] || a.J != before[0].J || a.K != before[0].K {
					r.addf("%s: a rejected crash line changed the state", where)
				} else {
					r.Notes = append(r.Notes, fmt.Sprintf("%s: reference crashes (%s); rewind rejects the action: %q", where, pr.Exception, l.Errors(0, nil)))
				}
				continue
			}
			pr.turnRec.Actions = pr.Actions
			compareTurn(r, where, st, pr.turnRec, true)
		}
	}
	return r, nil
}
