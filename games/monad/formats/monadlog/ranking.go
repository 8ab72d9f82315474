package monadlog

import (
	"fmt"
	"math/bits"

	monad "github.com/rewind-game/rewind/games/monad/rules"
)

// Stats returns player p's facts in the entry as monad.State.Stats
// defines them, as far as a log shows them: resources, units, hives and
// cells (where p has units or a hive). The counters, TimedOut and Crashed
// are not in a log and are left zero.
func (t *Turn) Stats(p int) monad.PlayerStats {
	var st monad.PlayerStats
	if p >= 0 && p < len(t.Res) {
		st.Resources = t.Res[p]
	}
	for i := range t.Cells {
		c := &t.Cells[i]
		units, hive := int(c.Owner) == p && c.Units > 0, int(c.Hive) == p
		if units {
			st.Units += int64(c.Units)
		}
		if hive {
			st.Hives++
		}
		if units || hive {
			st.Cells++
		}
	}
	return st
}

// RankedPlayers returns the player behind each entry of Ranked
// (players[i] is Ranked[i]'s), which rankedBots does not write: it is
// recovered by ranking the final entry as the reference does
// (monad.RankStats: hives, then units, then id; crashed players last),
// for every choice of crashed players that rankedBots allows. ok is
// false when rankedBots does not name every player once, or when two
// choices order the players differently (crashed players whose identity
// the final board does not tell) or none matches the ranks written.
func (l *Log) RankedPlayers() (players []int, ok bool) {
	n := l.Players
	if len(l.Ranked) != n || n == 0 || n > monad.MaxPlayers {
		return nil, false
	}
	crashed := 0
	for _, r := range l.Ranked {
		if r.Crashed {
			crashed++
		}
	}
	final := &l.Turns[len(l.Turns)-1]
	stats := make([]monad.PlayerStats, n)
	for mask := 0; mask < 1<<n; mask++ {
		if bits.OnesCount(uint(mask)) != crashed {
			continue
		}
		for p := range stats {
			stats[p] = final.Stats(p)
			stats[p].Crashed = mask&(1<<p) != 0
		}
		ranks := monad.RankStats(stats)
		match := len(ranks) == n
		for i := 0; match && i < n; i++ {
			match = l.Ranked[i].Rank == ranks[i].Rank && l.Ranked[i].Crashed == stats[ranks[i].Player].Crashed
		}
		if !match {
			continue
		}
		if players == nil {
			players = make([]int, n)
			for i, r := range ranks {
				players[i] = r.Player
			}
			continue
		}
		for i, r := range ranks {
			if players[i] != r.Player {
				return nil, false
			}
		}
	}
	return players, players != nil
}

// Names returns the players' names: the _id rankedBots gives each when
// RankedPlayers tells which player each entry is (known is true), else
// "player N" for player N (the log names no one otherwise).
func (l *Log) Names() (names []string, known bool) {
	names = make([]string, l.Players)
	players, known := l.RankedPlayers()
	for p := range names {
		names[p] = fmt.Sprintf("player %d", p)
	}
	for i, p := range players {
		names[p] = l.Ranked[i].ID
	}
	return names, known
}
