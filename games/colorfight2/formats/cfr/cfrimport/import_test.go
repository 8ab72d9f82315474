package cfrimport_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrimport"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrtest"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

var importCreated = time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)

// importable lists the reference replays import must handle.
func importable(t testing.TB) []string {
	paths, _ := filepath.Glob("../../../../../testdata/conformance/*.cfr")
	return append(paths, testutil.RealWorldOptional(t)...)
}

func importFile(t testing.TB, path string) ([]byte, *cfrimport.ImportResult) {
	t.Helper()
	b := testutil.ReadFile(t, path)
	sum, _ := cfr.SHA256(bytes.NewReader(b))
	var out bytes.Buffer
	res, err := cfrimport.Import(bytes.NewReader(b), &out, cfrimport.ImportOptions{Source: path, SHA256: sum, Created: importCreated, Tool: "rewind test"})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out.Bytes(), res
}

// TestImport: every reference replay imports; the .rwd re-simulates with
// every checkpoint; compared frame by frame with the official replay it is
// equal; its header says the commands are inferred and names the source's
// SHA-256.
func TestImport(t *testing.T) {
	for _, p := range importable(t) {
		t.Run(filepath.Base(p), func(t *testing.T) {
			rwd, res := importFile(t, p)
			if !res.Complete || res.Warning != nil || res.Rounds < 200 {
				t.Fatalf("result %+v", res)
			}
			v, err := replay.VerifySim(bytes.NewReader(rwd), nil)
			if err != nil || v.Err != nil || !v.Complete || v.Rounds != res.Rounds {
				t.Fatalf("verify: %v %+v", err, v)
			}
			cfrData := testutil.ReadFile(t, p)
			want, err := cfrimport.OpenFrames(bytes.NewReader(cfrData))
			if err != nil {
				t.Fatal(err)
			}
			defer want.Close()
			vr, frames, err := cfrimport.VerifyAgainst(bytes.NewReader(rwd), want)
			if err != nil || vr.Err != nil || frames != res.Rounds+1 {
				t.Fatalf("against %s: %v %+v, %d frames", p, err, vr, frames)
			}
			rd, err := replay.NewReader(bytes.NewReader(rwd))
			if err != nil {
				t.Fatal(err)
			}
			h := rd.Header()
			src, _ := os.ReadFile(p)
			sum, _ := cfr.SHA256(bytes.NewReader(src))
			if h.Import == nil || !h.Import.Inferred || h.Import.SHA256 != sum || h.Import.Source != filepath.Base(p) || len(sum) != 64 {
				t.Fatalf("import provenance %+v", h.Import)
			}
		})
	}
}

func user(f *colorfight2.Frame, uid int64) *colorfight2.FrameUser {
	for k := range f.Users {
		if f.Users[k].UID == uid {
			return &f.Users[k]
		}
	}
	return nil
}

// In RuntimeTerrorsVictory.cfr, player 5 builds a GoldMine at (7,19) in
// round 150 -> 151, and player 4 captures (2,3), (3,4) and (4,5) in round
// 106 -> 107.
const (
	buildTurn, buildUID     = 151, 5
	captureTurn, captureUID = 107, 4
)

// TestAuditTampered: each tampering of a real replay is caught at its turn
// and field, the untampered replay audits clean, and import refuses every
// tampered file with the same report.
func TestAuditTampered(t *testing.T) {
	for _, p := range importable(t) {
		clean := testutil.ReadFile(t, p)
		if res, err := cfr.Audit(bytes.NewReader(clean), 0); err != nil || len(res.Violations) != 0 || res.Rounds < 200 {
			t.Fatalf("%s: %v %+v", p, err, res)
		}
	}
	// The tamperings below name turns and players of this real replay.
	rt := testutil.RealWorld(t, "RuntimeTerrorsVictory.cfr")
	cases := []struct {
		name  string
		turn  int
		where string // prefix of Violation.Where
		field string
		edit  func(f *colorfight2.Frame)
	}{
		{"gold raised by 1", 300, "user 5", "gold", func(f *colorfight2.Frame) {
			if f.Turn == 300 {
				user(f, 5).Gold++
			}
		}},
		{"owner flipped", 200, "cell (", "owner", func(f *colorfight2.Frame) {
			if f.Turn == 200 {
				// An empty cell turns to a player that owns none of its
				// neighbours, so no attack could have taken it.
				for i := range f.Cells {
					c := &f.Cells[i]
					if c.Owner == 0 || c.Building != colorfight2.BuildingNone {
						continue
					}
					for q := int64(1); q <= int64(len(f.Users)); q++ {
						if q != c.Owner && !ownsNeighbour(f, c, q) {
							c.Owner = q
							return
						}
					}
				}
			}
		}},
		{"building without its cost paid", buildTurn, fmt.Sprintf("user %d", buildUID), "gold", func(f *colorfight2.Frame) {
			if f.Turn >= buildTurn {
				user(f, buildUID).Gold += colorfight2.BuildCost(colorfight2.GoldMine)
			}
		}},
		{"captured with too little energy", captureTurn, fmt.Sprintf("user %d", captureUID), "energy", func(f *colorfight2.Frame) {
			if f.Turn == captureTurn {
				user(f, captureUID).Energy += 5000
			}
		}},
		{"force field out of its rule", 150, "cell (", "force_field", func(f *colorfight2.Frame) {
			if f.Turn == 150 {
				for i := range f.Cells {
					if c := &f.Cells[i]; c.Owner != 0 && c.Building == colorfight2.BuildingNone && c.ForceField > 10 && c.ForceField < 900 {
						c.ForceField += 7
						c.AttackCost += 7
						return
					}
				}
			}
		}},
		{"cell count disagrees with the map", 100, "user 2", "cell_number", func(f *colorfight2.Frame) {
			if f.Turn == 100 {
				user(f, 2).CellNumber++
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := cfrtest.Rewrite(t, rt, tc.edit)
			res, err := cfr.Audit(bytes.NewReader(b), 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Violations) == 0 {
				t.Fatal("not caught")
			}
			v := res.Violations[0]
			if v.Turn != tc.turn || !strings.HasPrefix(v.Where, tc.where) || v.Field != tc.field {
				t.Fatalf("first violation %v, want turn %d %s %s; all: %v", v, tc.turn, tc.where, tc.field, res.Violations)
			}
			for _, o := range res.Violations {
				if o.Turn != tc.turn {
					t.Errorf("violation at another turn: %v", o)
				}
			}
			_, err = cfrimport.Import(bytes.NewReader(b), io.Discard, cfrimport.ImportOptions{})
			var ae *cfr.AuditError
			if !errors.As(err, &ae) || ae.Violations[0] != v {
				t.Fatalf("import: %v", err)
			}
		})
	}
}

// BenchmarkImport imports c03 (8 players, 500 rounds) into memory: one op
// is one game.
func BenchmarkImport(b *testing.B) {
	data := testutil.ReadFile(b, "../../../../../testdata/conformance/c03.cfr")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cfrimport.Import(bytes.NewReader(data), io.Discard, cfrimport.ImportOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAudit audits c03 (8 players, 500 rounds): one op is one game.
func BenchmarkAudit(b *testing.B) {
	data := testutil.ReadFile(b, "../../../../../testdata/conformance/c03.cfr")
	b.ReportAllocs()
	for b.Loop() {
		res, err := cfr.Audit(bytes.NewReader(data), 0)
		if err != nil || len(res.Violations) != 0 {
			b.Fatal(err, res.Violations)
		}
	}
}

func ownsNeighbour(f *colorfight2.Frame, c *colorfight2.FrameCell, q int64) bool {
	for _, d := range [][2]int64{{0, -1}, {0, 1}, {-1, 0}, {1, 0}} {
		x, y := c.X+d[0], c.Y+d[1]
		if x >= 0 && y >= 0 && x < int64(f.Width) && y < int64(f.Height) && f.Cell(int(x), int(y)).Owner == q {
			return true
		}
	}
	return false
}
