package rooms

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rewind-game/rewind/replay"
)

// Recover recovers every recording of d that a crash left being written
// (NAME.rwd.partial with Own(NAME.rwd)), oldest name first, and returns
// the recovered games, to be listed (Live.List): each is rewritten as
// the NAME.rwd it would have become, up to its last whole round, with a
// footer there (LiveGame.Recovered: it ends before its turn limit),
// verified before it replaces the .partial. A .partial without a
// readable header or any whole round holds no game and is removed; one
// damaged rather than cut is left as it is. A recovered recording is
// listed in the manifest, as a committed one. Recover also reads the
// manifest, as a server does once when it starts. split names a
// recovered game's room and id from NAME (nil: no room, NAME the id).
func (d *Recordings) Recover(split func(name string) (room, id string)) []LiveGame {
	d.mu.Lock()
	if err := d.loadManifest(); err != nil {
		d.logf("%v", err)
	}
	d.mu.Unlock()
	names, err := filepath.Glob(filepath.Join(d.Dir, "*.rwd"+PartialSuffix))
	if err != nil {
		return nil
	}
	sort.Strings(names)
	var out []LiveGame
	for _, p := range names {
		if own, finished := d.ownFile(filepath.Base(p)); !own || finished {
			continue
		}
		info, err := recoverPartial(p, split)
		if errors.Is(err, errNoGame) {
			d.logf("%s: no whole round, removed", filepath.Base(p))
			continue
		}
		if err != nil {
			d.logf("%s: not recovered: %v", filepath.Base(p), err)
			continue
		}
		d.logf("%s: recovered up to turn %d of %d as %s", filepath.Base(p), info.Turn, info.MaxTurn, filepath.Base(info.File))
		d.mu.Lock()
		if err := d.own(info.File); err != nil {
			d.logf("%s: not rotated: %v", filepath.Base(info.File), err)
		}
		d.mu.Unlock()
		out = append(out, info)
	}
	return out
}

// recoverPartial rewrites one .partial (Recover); errNoGame when it held
// no game and was removed.
func recoverPartial(partial string, split func(string) (string, string)) (LiveGame, error) {
	final := strings.TrimSuffix(partial, PartialSuffix)
	base := strings.TrimSuffix(filepath.Base(final), ".rwd")
	info := LiveGame{Done: true, Recovered: true, File: final, ID: base}
	if split != nil {
		info.Room, info.ID = split(base)
	}
	noGame := func(in *os.File) (LiveGame, error) {
		in.Close()
		if err := os.Remove(partial); err != nil {
			return info, err
		}
		return info, errNoGame
	}
	in, err := os.Open(partial)
	if err != nil {
		return info, err
	}
	defer in.Close()
	sim, err := replay.OpenSim(in)
	if err != nil {
		if fi, serr := in.Stat(); (serr == nil && fi.Size() == 0) || errors.Is(err, replay.ErrTruncated) {
			return noGame(in)
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
		return noGame(in)
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
