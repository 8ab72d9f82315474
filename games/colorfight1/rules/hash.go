package rules

import (
	"hash/fnv"
	"math"
)

// Hash is a platform-independent hash of everything that decides the
// game's future: every column of every row (tokens included), the clock
// and the state of Python's generator (two draws of a copy of it). It
// is FNV-1a (64 bits) over the values' bits in a fixed order.
func (s *State) Hash() uint64 {
	h := fnv.New64a()
	var b [8]byte
	put := func(v uint64) {
		for i := range b {
			b[i] = byte(v >> (8 * i))
		}
		h.Write(b[:])
	}
	f := func(x float64) { put(math.Float64bits(x)) }
	flag := func(v bool) {
		if v {
			put(1)
		} else {
			put(0)
		}
	}
	str := func(v string) {
		put(uint64(len(v)))
		h.Write([]byte(v))
	}
	put(uint64(s.tick))
	f(s.t0)
	f(s.step)
	for i := range s.Cells {
		c := &s.Cells[i]
		f(c.OccupyTime)
		f(c.AttackTime)
		f(c.FinishTime)
		f(c.LastUpdate)
		f(c.BuildTime)
		put(uint64(uint32(c.Owner)) | uint64(uint32(c.Attacker))<<32)
		put(uint64(c.Type))
		flag(c.IsTaking)
		flag(c.Blast)
		flag(c.Base)
		flag(c.BuildFinish)
	}
	put(uint64(len(s.Users)))
	for i := range s.Users {
		u := &s.Users[i]
		put(uint64(u.ID))
		str(u.Name)
		str(u.Token)
		f(u.CDTime)
		f(u.BuildCDTime)
		put(uint64(u.Cells))
		put(uint64(u.Bases))
		put(uint64(u.EnergyCells))
		put(uint64(u.GoldCells))
		flag(u.Dirty)
		f(u.Energy)
		f(u.Gold)
		f(u.DeadTime)
	}
	in := &s.Info
	put(uint64(in.Width))
	put(uint64(in.Height))
	put(uint64(in.MaxID))
	f(in.EndTime)
	f(in.JoinEndTime)
	flag(in.AIOnly)
	f(in.LastUpdate)
	put(uint64(in.GameID))
	f(in.PlanStartTime)
	r := s.random.Clone()
	put(uint64(r.Uint32()) | uint64(r.Uint32())<<32)
	return h.Sum64()
}
