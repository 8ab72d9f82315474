package rules

import "math/bits"

// Dirty flags of one update (UpdateGame's dirtyUserIds).
const (
	markDirty uint8 = 1 << iota
	markBase
	markEnergy
	markGold
)

// Advance moves the clock to the next tick and runs its poll's world
// update (RULES §4, §12.4): timeDiff = now − info.last_update, then, if
// it exceeds the refresh interval, info.last_update = now and
// UpdateGame(now, timeDiff). It reports whether the world was updated
// (always, for a Config New accepted, unless the clock has run past the
// precision of its doubles).
func (s *State) Advance() bool {
	s.tick++
	s.events = s.events[:0]
	now := s.Now()
	timeDiff := now - s.Info.LastUpdate
	if !(timeDiff > RefreshInterval) {
		return false
	}
	s.Info.LastUpdate = now
	s.update(now, timeDiff)
	return true
}

func (s *State) update(now, timeDiff float64) {
	for i := range s.Users {
		s.Users[i].mark = 0
	}
	s.queue = s.queue[:0]
	// 1. Resolve finished attacks, ascending id.
	for w, word := range s.taking {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &^= 1 << b
			id := w<<6 | b
			c := &s.Cells[id]
			if !(c.FinishTime < now) {
				continue
			}
			var m uint8 = markDirty
			finishedBase := c.Base && c.BuildFinish
			if finishedBase {
				m |= markBase
			}
			switch c.Type {
			case Energy:
				m |= markEnergy
			case Gold:
				m |= markGold
			}
			s.mark(c.Attacker, m)
			s.mark(c.Owner, m)
			old, attacker := c.Owner, c.Attacker
			// Refresh
			if c.Base && old != attacker {
				if !c.BuildFinish {
					c.BuildTime = 0
				}
				s.setBase(id, false, true)
			}
			s.setOwner(id, attacker)
			s.setTaking(id, false)
			c.OccupyTime = c.FinishTime
			c.LastUpdate = now
			wasBlast := c.Blast
			c.Blast = false
			s.events = append(s.events, Event{Kind: EventCapture, UID: attacker, Other: old, Cell: id, Blast: wasBlast})
			if finishedBase && old != attacker {
				s.queue = append(s.queue, relocation{owner: old, x: id % Width, y: id / Width})
			}
		}
	}
	// 2. Finish builds.
	if s.building > 0 {
		for id := range s.Cells {
			c := &s.Cells[id]
			if c.Base && !c.BuildFinish && c.BuildTime+buildSeconds <= now {
				s.setBase(id, true, true)
				s.mark(c.Owner, markDirty|markBase)
				s.events = append(s.events, Event{Kind: EventBaseBuilt, UID: c.Owner, Cell: id})
			}
		}
	}
	// 3. Relocate the captured bases, in queue order.
	for _, r := range s.queue {
		d := relocationDirections
		shuffle2(s.random, d[:])
		moved := -1
		for _, dir := range d {
			x, y := r.x+dir.dx, r.y+dir.dy
			if !inMap(x, y) {
				continue
			}
			id := x + Width*y
			if c := &s.Cells[id]; c.Owner == r.owner && !c.Base {
				s.setBase(id, true, true)
				moved = id
				break
			}
		}
		from := r.x + Width*r.y
		if moved >= 0 {
			s.events = append(s.events, Event{Kind: EventBaseMoved, UID: r.owner, Cell: from, To: moved})
		} else {
			s.events = append(s.events, Event{Kind: EventBaseLost, UID: r.owner, Cell: from, To: -1})
		}
	}
	// 4. Users, ascending id: recount, death check, accrual.
	s.dead = s.dead[:0]
	for i := 0; i < len(s.Users); i++ {
		u := &s.Users[i]
		if u.mark != 0 {
			o := s.counts(int32(u.ID))
			if u.mark&markBase != 0 {
				u.Bases = int(o.bases)
			}
			if u.mark&markEnergy != 0 {
				u.EnergyCells = int(o.energy)
			}
			if u.mark&markGold != 0 {
				u.GoldCells = int(o.gold)
			}
			u.Cells = int(o.cells) + 9*u.GoldCells
		}
		if (u.Cells == 0 || u.Bases == 0) && u.DeadTime == 0 {
			s.dead = append(s.dead, u.ID)
			s.events = append(s.events, Event{Kind: EventDeath, UID: int32(u.ID), Cell: -1, Other: int32(u.Cells)})
			if s.Timed() {
				s.kill(u, now)
			} else {
				s.Users = append(s.Users[:i], s.Users[i+1:]...)
				i--
			}
			continue
		}
		if timeDiff > 0 {
			if u.EnergyCells > 0 {
				u.Energy = min(100, u.Energy+float64(float64(timeDiff*float64(u.EnergyCells))*0.5))
			} else {
				u.Energy = max(u.Energy, 0)
			}
			if u.GoldCells > 0 {
				u.Gold = min(100, u.Gold+float64(float64(timeDiff*float64(u.GoldCells))*0.5))
			} else {
				u.Gold = max(u.Gold, 0)
			}
		}
	}
	// 5. Clear the cells of the dead, in the order they died.
	for _, uid := range s.dead {
		s.clearCells(int32(uid))
	}
}

// mark flags uid dirty in this update (uid 0 matches no user).
func (s *State) mark(uid int32, m uint8) {
	if uid == 0 {
		return
	}
	if u := s.User(int(uid)); u != nil {
		u.mark |= m
	}
}

// kill is Dead in a timed game (RULES §9): the row stays, frozen.
func (s *State) kill(u *User, now float64) {
	u.DeadTime = now
	u.Token = ""
	u.Energy, u.Gold = 0, 0
	u.EnergyCells, u.GoldCells, u.Bases = 0, 0, 0
}

// clearCells is ClearCell(uid): its attacks cancelled, its cells freed.
func (s *State) clearCells(uid int32) {
	for id := range s.Cells {
		if c := &s.Cells[id]; c.Attacker == uid {
			s.setTaking(id, false)
			c.Attacker = 0
		}
	}
	for id := range s.Cells {
		if c := &s.Cells[id]; c.Owner == uid {
			s.setOwner(id, 0)
			s.setBase(id, false, true)
			c.BuildTime = 0
		}
	}
}
