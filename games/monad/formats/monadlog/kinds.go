package monadlog

import monad "github.com/rewind-game/rewind/games/monad/rules"

// Kinds returns the kind of every command of entry t (Turns[t].Cmds),
// which the log does not write: the reference logs MOVEs, BUILDs and
// MINEs alike (Logger.add_move, for every command that passed
// verification). It is inferred from what the log does say:
//
//   - each player's commands run in the order MOVEs, BUILDs, MINEs, its
//     implicit mines (direction null) last;
//   - a MOVE's target is on the map (one pointing off it was rejected and
//     not logged), so a command pointing off the map is a BUILD or a MINE;
//   - only MINEs lower a cell's resource, each by its count until the cell
//     is empty: the player's last commands are MINEs as long as they
//     account for the drop in their cells' resource from entry t to t+1;
//   - a hive of the player's that appears in entry t+1 was built by a
//     command from that cell, so it and every command between it and the
//     MINEs is a BUILD.
//
// What remains undecided is taken as a MOVE: a BUILD that built nothing
// (on a hive, or without the resources) before every BUILD that did, and
// a MINE that took nothing (a count of 0 or an empty cell) that came
// before every MINE that took something. On the six conformance games
// this gets most commands right (TestKindsAgainstEngine reports the
// share); a viewer shows the logged counts and directions whatever the
// kind. t must be an entry with a successor, or Kinds returns nil.
func (l *Log) Kinds(t int) []monad.Kind {
	if t < 0 || t+1 >= len(l.Turns) {
		return nil
	}
	prev, next := &l.Turns[t], &l.Turns[t+1]
	cmds := prev.Cmds
	kinds := make([]monad.Kind, len(cmds))
	// need[c] is the drop in c's resource not yet accounted for by MINEs.
	var need [Size * Size]int64
	for i := range need {
		need[i] = int64(prev.Cells[i].Resource) - int64(next.Cells[i].Resource)
	}
	for i, c := range cmds {
		if c.Dir == monad.DirImplicit {
			kinds[i] = monad.KindMine
			need[c.cell(l.W)] -= int64(c.N)
		}
	}
	for p := 0; p < l.Players; p++ {
		var idx []int // p's explicit commands, in order
		for i, c := range cmds {
			if int(c.Player) == p && c.Dir != monad.DirImplicit {
				idx = append(idx, i)
			}
		}
		// MINEs: the longest tail that accounts for resource drops.
		b := len(idx)
		for k := len(idx) - 1; k >= 0; k-- {
			c := cmds[idx[k]]
			cell := c.cell(l.W)
			if c.N == 0 || prev.Cells[cell].Resource == 0 {
				continue // takes nothing: a MINE only if one before it is
			}
			emptied := next.Cells[cell].Resource == 0
			if need[cell] >= int64(c.N) || emptied && need[cell] > 0 {
				need[cell] -= int64(c.N)
				b = k
				continue
			}
			break
		}
		// BUILDs: from the first command that must be one up to b.
		a := b
		for k := 0; k < b; k++ {
			x, y := cmds[idx[k]].XY(l.W)
			if nx, ny := monad.Neighbor(x, y, cmds[idx[k]].Dir); !monad.OnMap(nx, ny) {
				a = min(a, k)
				break
			}
		}
		for cell := range next.Cells {
			if int(next.Cells[cell].Hive) != p || int(prev.Cells[cell].Hive) == p {
				continue
			}
			// A new hive: the last command from its cell before the MINEs
			// built it; failing that, the first among the MINEs did.
			last := -1
			for k := range idx {
				if cmds[idx[k]].cell(l.W) != cell {
					continue
				}
				if k < b {
					last = k
				} else if last < 0 {
					last, b = k, k+1
					break
				}
			}
			if last >= 0 {
				a = min(a, last)
			}
		}
		for k, i := range idx {
			switch {
			case k < a:
				kinds[i] = monad.KindMove
			case k < b:
				kinds[i] = monad.KindBuild
			default:
				kinds[i] = monad.KindMine
			}
		}
	}
	return kinds
}

// cell returns the origin's index in Turn.Cells (y*W + x).
func (c Cmd) cell(w int) int {
	x, y := c.XY(w)
	return y*w + x
}
