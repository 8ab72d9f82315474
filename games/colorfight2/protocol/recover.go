package protocol

import (
	"errors"
	"fmt"
	"github.com/rewind-game/rewind/internal/rooms"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rewind-game/rewind/replay"
)

// partialSuffix marks a recording being written; one left in Options.Dir
// when the server starts was cut by a crash.
const partialSuffix = ".partial"

// recoverPartials recovers every ROOM-GAMEID.rwd.partial of dir (oldest
// game first) and returns the recovered games, to be listed.
func (s *Server) recoverPartials(dir string) []rooms.LiveGame {
	names, err := filepath.Glob(filepath.Join(dir, "*.rwd"+partialSuffix))
	if err != nil {
		return nil
	}
	sort.Strings(names)
	var out []rooms.LiveGame
	for _, p := range names {
		info, err := recoverPartial(p)
		if err != nil {
			s.logf("%s: not recovered: %v", filepath.Base(p), err)
			continue
		}
		if info.Turn == 0 {
			s.logf("%s: no whole round, removed", filepath.Base(p))
			continue
		}
		s.logf("%s: recovered up to turn %d of %d as %s", filepath.Base(p), info.Turn, info.MaxTurn, filepath.Base(info.File))
		out = append(out, info)
	}
	return out
}

// recoverPartial rewrites a .rwd.partial cut by a crash as the .rwd it
// would have become, up to its last whole round, with a footer there (the
// game marked Recovered: it ends before max_turn), verified before it
// replaces the .partial. A .partial without a readable header or any
// whole round holds no game: it is removed (Turn 0). A .partial that is
// damaged rather than cut is left as it is, with the error.
func recoverPartial(partial string) (rooms.LiveGame, error) {
	final := strings.TrimSuffix(partial, partialSuffix)
	base := strings.TrimSuffix(filepath.Base(final), ".rwd")
	info := rooms.LiveGame{Done: true, Recovered: true, File: final}
	if i := strings.LastIndexByte(base, '-'); i > 0 {
		info.Room, info.ID = base[:i], base[i+1:]
	} else {
		info.ID = base
	}
	in, err := os.Open(partial)
	if err != nil {
		return info, err
	}
	defer in.Close()
	sim, err := replay.OpenSim(in)
	if err != nil {
		if fi, serr := in.Stat(); (serr == nil && fi.Size() == 0) || errors.Is(err, replay.ErrTruncated) {
			in.Close()
			return info, os.Remove(partial)
		}
		return info, err
	}
	defer sim.Close()
	h, g := sim.Header(), sim.Game()
	info.MaxTurn = g.MaxTurns()
	for _, p := range h.Players {
		info.Players = append(info.Players, p.Name)
	}
	tmp := final + ".recovering"
	out, err := os.Create(tmp)
	if err != nil {
		return info, err
	}
	defer os.Remove(tmp) // after a successful rename, nothing to remove
	w, err := replay.NewGameWriter(out, *h)
	if err != nil {
		out.Close()
		return info, err
	}
	for {
		err := sim.Next()
		if errors.Is(err, io.EOF) {
			break // the footer was written: the crash came before the rename
		}
		if errors.Is(err, replay.ErrTruncated) {
			break
		}
		if err != nil {
			out.Close()
			return info, err
		}
		rd := sim.Round()
		if rd.Logs != nil {
			if err := w.WriteLogs(rd.Logs); err != nil {
				out.Close()
				return info, err
			}
		}
		if err := w.WriteRound(rd, g); err != nil {
			out.Close()
			return info, err
		}
	}
	info.Turn = g.Turn()
	if info.Turn == 0 {
		out.Close()
		in.Close()
		return info, os.Remove(partial)
	}
	if err := w.Close(g); err != nil {
		out.Close()
		return info, err
	}
	if err := out.Close(); err != nil {
		return info, err
	}
	if err := verifyFile(tmp, info.Turn); err != nil {
		return info, err
	}
	if err := os.Rename(tmp, final); err != nil {
		return info, err
	}
	in.Close()
	return info, os.Remove(partial)
}

// verifyFile checks that path re-simulates to its footer at turn.
func verifyFile(path string, turn int) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	res, err := replay.VerifySim(f, nil)
	if err != nil {
		return err
	}
	if res.Err != nil {
		return res.Err
	}
	if !res.Complete || res.Rounds != turn {
		return fmt.Errorf("the recovered recording verifies to turn %d, complete %v; want %d", res.Rounds, res.Complete, turn)
	}
	return nil
}
