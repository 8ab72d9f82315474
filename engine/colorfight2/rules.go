package colorfight2

// Building economics, indexed by Building and level (1..3).
var (
	buildCost = [NumBuildings]int64{Home: 1000, GoldMine: 200, EnergyWell: 200, Fortress: 200}
	// upgradeGold[b][L] and upgradeEnergy[b][L] are the costs of going from
	// level L to L+1.
	upgradeGold   = [NumBuildings][3]int64{Home: {0, 1000, 2000}, GoldMine: {0, 400, 600}, EnergyWell: {0, 400, 600}, Fortress: {0, 400, 600}}
	upgradeEnergy = [NumBuildings][3]int64{Home: {0, 1000, 2000}}
	// takenValue[L] is the gold a taken GoldMine, EnergyWell or Fortress
	// pays out (and the force field a taken EnergyWell adds).
	takenValue = [4]int64{0, 100, 300, 600}
)

// attackCost returns the energy needed to capture the cell now.
func attackCost(c *cell, l *land) int64 {
	switch c.building {
	case Home:
		return (1000 + l.stored + int64(c.ff)) * int64(c.level)
	case Fortress:
		return (int64(l.nc) + int64(c.ff)) * int64(1+c.level)
	}
	return int64(l.nc) + int64(c.ff)
}

// tax returns T(n): nothing for the first 75, then 1 each for the next 75,
// 2 each for the next 75, and so on.
func tax(n int64) int64 {
	var t int64
	for b := int64(1); n > 75*b; b++ {
		t += b * min(75, n-75*b)
	}
	return t
}

// Step plays one round (turn t -> t+1). commands[i] is the list of player
// uid i+1, applied in order; a nil or short commands slice means those
// players sent nothing. Step on a finished game (Over) still plays a round;
// callers stop at Over. Failed commands are listed by Errors until the next
// Step. Step does not allocate once the error list has grown to its
// working size.
func (s *State) Step(commands [][]Command) {
	s.errs = s.errs[:0]
	for i := range s.users {
		if i >= len(commands) {
			break
		}
		u := &s.users[i]
		for j := range commands[i] {
			if code := s.apply(u, &commands[i][j]); code != ErrNone {
				s.errs = append(s.errs, CommandError{UID: u.uid, Index: j, Code: code})
			}
		}
	}
	s.scan()
	s.loseHomes()
	s.forceFields()
	s.updateUsers()
	s.turn++
}

// apply applies one command for player u and returns why it failed.
func (s *State) apply(u *user, c *Command) ErrCode {
	switch c.Kind {
	case CmdAttack:
		return s.attack(u, c.X, c.Y, c.Energy)
	case CmdBuild:
		return s.build(u, c.X, c.Y, c.Building)
	case CmdUpgrade:
		return s.upgrade(u, c.X, c.Y)
	}
	if c.Err == ErrNone {
		return ErrUnknownCommand
	}
	return c.Err
}

func (s *State) attack(u *user, x, y int, energy int64) ErrCode {
	if !s.onMap(x, y) {
		return ErrOffMap
	}
	if energy < 0 {
		// Deviation: the reference accepts it and credits the energy.
		return ErrNegativeEnergy
	}
	if energy > u.energy {
		return ErrNotEnoughEnergy
	}
	if !s.hasOwnedNeighbour(x, y, int32(u.uid)) {
		return ErrNotAdjacent
	}
	u.energy -= energy
	idx := s.index(x, y)
	p := &s.pend[idx]
	if p.n == 0 {
		s.attacked = append(s.attacked, int32(idx))
	}
	p.n++
	p.total += energy
	if energy > p.max {
		p.max = energy
		p.maxUID = int32(u.uid)
	}
	return ErrNone
}

func (s *State) hasOwnedNeighbour(x, y int, uid int32) bool {
	w := s.cfg.Width
	i := s.index(x, y)
	return (y > 0 && s.cells[i-w].owner == uid) ||
		(y < s.cfg.Height-1 && s.cells[i+w].owner == uid) ||
		(x > 0 && s.cells[i-1].owner == uid) ||
		(x < w-1 && s.cells[i+1].owner == uid)
}

func (s *State) build(u *user, x, y int, b Building) ErrCode {
	if !s.onMap(x, y) {
		return ErrOffMap
	}
	i := s.index(x, y)
	c := &s.cells[i]
	if c.owner != int32(u.uid) {
		return ErrNotOwnCell
	}
	if c.building != BuildingNone {
		return ErrCellHasBuilding
	}
	if b == BuildingNone || b >= NumBuildings {
		return ErrBadBuildingLetter
	}
	if u.gold < buildCost[b] {
		return ErrNotEnoughGold
	}
	if b == Home {
		if u.techLevel != 0 || u.buildingHome {
			return ErrHomeExists
		}
		u.buildingHome = true
	} else if u.techLevel == 0 {
		return ErrNoHome
	}
	s.setBuilding(i, b, 1)
	s.land[i].stored = 0
	u.gold -= buildCost[b]
	return ErrNone
}

func (s *State) upgrade(u *user, x, y int) ErrCode {
	if !s.onMap(x, y) {
		return ErrOffMap
	}
	i := s.index(x, y)
	c := &s.cells[i]
	if c.owner != int32(u.uid) {
		return ErrNotOwnCell
	}
	if c.building == BuildingNone {
		return ErrNoBuilding
	}
	if c.level >= 3 {
		return ErrMaxLevel
	}
	if c.building != Home && int64(c.level) >= u.techLevel {
		return ErrUpgradeHomeFirst
	}
	ge, gg := upgradeEnergy[c.building][c.level], upgradeGold[c.building][c.level]
	if u.energy < ge {
		return ErrNotEnoughEnergy
	}
	if u.gold < gg {
		return ErrNotEnoughGold
	}
	u.energy -= ge
	u.gold -= gg
	s.setBuilding(i, c.building, c.level+1)
	return ErrNone
}

// scan is step 2, the column-major cell scan. Its only order-dependent
// effects are the captures (a Home capture steals a third of the loser's
// gold as it stands at that moment) and the order in which each player's
// building types are first met (the key order of building_number), so it
// is computed as: resolve the attacked cells in column-major order, then
// one row-major pass for stored energy and the aggregates, recording for
// each player and building type the first column-major position.
func (s *State) scan() {
	w, h := s.cfg.Width, s.cfg.Height
	// Attacked cells in column-major order (index i -> key (i%w)*h + i/w).
	at := s.attacked
	for i := 1; i < len(at); i++ {
		for j := i; j > 0 && colKey(at[j], w, h) < colKey(at[j-1], w, h); j-- {
			at[j], at[j-1] = at[j-1], at[j]
		}
	}
	for _, i := range at {
		if c := &s.cells[i]; c.building == Home {
			s.land[i].stored = s.users[c.owner-1].energy
		}
		s.resolve(int(i))
	}
	s.attacked = at[:0]

	for i := range s.users {
		u := &s.users[i]
		u.cells, u.goldSource, u.energySource, u.techLevel = 0, 0, 0, 0
		u.buildings = [NumBuildings]int64{}
		u.first = [NumBuildings]int32{-1, -1, -1, -1, -1}
	}
	users := s.users
	for i := range s.cells {
		c := &s.cells[i]
		if c.owner == 0 {
			continue
		}
		u := &users[c.owner-1]
		u.cells++
		u.goldSource += int64(c.gold)
		u.energySource += int64(c.energy)
		if b := c.building; b != BuildingNone {
			if b == Home {
				s.land[i].stored = u.energy
				if int64(c.level) > u.techLevel {
					u.techLevel = int64(c.level)
				}
			}
			if u.buildings[b] == 0 {
				u.first[b] = colKey(int32(i), w, h)
			}
			u.buildings[b]++
		}
	}
	for i := range users {
		users[i].setOrder()
	}
}

// colKey is cell i's position in the column-major scan.
func colKey(i int32, w, h int) int32 { return (i%int32(w))*int32(h) + i/int32(w) }

// setOrder sorts the building types present by the scan position where
// they were first met.
func (u *user) setOrder() {
	u.norder = 0
	for b := Home; b < NumBuildings; b++ {
		if u.buildings[b] == 0 {
			continue
		}
		j := u.norder
		for ; j > 0 && u.first[u.order[j-1]] > u.first[b]; j-- {
			u.order[j] = u.order[j-1]
		}
		u.order[j] = b
		u.norder++
	}
}

// resolve settles the attacks on cell i and clears them.
func (s *State) resolve(i int) {
	c, p := &s.cells[i], &s.pend[i]
	net := 2*p.max - p.total
	if cost := attackCost(c, &s.land[i]); net >= cost {
		ff := 2 * (net - cost)
		if p.maxUID != c.owner {
			if c.owner != 0 {
				prev := &s.users[c.owner-1]
				att := &s.users[p.maxUID-1]
				v := takenValue[c.level]
				switch c.building {
				case Home:
					stolen := prev.gold / 3
					prev.gold -= stolen
					att.gold += stolen
				case EnergyWell:
					ff += v
					prev.gold += v
				case GoldMine:
					att.gold += v
					prev.gold += v
				case Fortress:
					prev.gold += v
				}
			}
			s.setBuilding(i, BuildingNone, 0)
			s.land[i].stored = 0
			c.owner = p.maxUID
		}
		c.ff = int32(min(1000, ff))
	}
	*p = pending{max: -1}
}

// loseHomes is step 3: players without a Home lose their other buildings.
func (s *State) loseHomes() {
	lost := false
	for i := range s.users {
		if s.users[i].techLevel == 0 && s.users[i].cells > 0 {
			lost = true
		}
	}
	if !lost {
		return
	}
	for i := range s.cells {
		c := &s.cells[i]
		if c.owner != 0 && c.building != BuildingNone && c.building != Home && s.users[c.owner-1].techLevel == 0 {
			s.setBuilding(i, BuildingNone, 0)
		}
	}
}

// forceFields is step 4.
func (s *State) forceFields() {
	w, h := s.cfg.Width, s.cfg.Height
	cells := s.cells
	for y := 0; y < h; y++ {
		row := cells[y*w : y*w+w]
		var up, down []cell
		if y > 0 {
			up = cells[(y-1)*w : y*w]
		}
		if y < h-1 {
			down = cells[(y+1)*w : (y+2)*w]
		}
		for x := range row {
			c := &row[x]
			o := c.owner
			if o == 0 {
				continue
			}
			ff := c.ff + int32(c.self)
			if up != nil {
				ff += neighbourFF(o, &up[x])
			}
			if down != nil {
				ff += neighbourFF(o, &down[x])
			}
			if x > 0 {
				ff += neighbourFF(o, &row[x-1])
			}
			if x < w-1 {
				ff += neighbourFF(o, &row[x+1])
			}
			c.ff = max(0, min(1000, ff))
		}
	}
}

func neighbourFF(owner int32, nb *cell) int32 {
	switch nb.owner {
	case 0:
		return 0
	case owner:
		return int32(nb.ally)
	}
	return -int32(nb.enemy)
}

// updateUsers is step 5: tax, income and death.
func (s *State) updateUsers() {
	for i := range s.users {
		u := &s.users[i]
		u.buildingHome = false
		u.tax = tax(u.cells) + tax(u.buildings[GoldMine]+u.buildings[EnergyWell])
		u.taxLevel = u.cells / 100
		u.energy += u.energySource - u.tax
		u.gold += u.goldSource - u.tax
		u.dead = u.cells == 0
	}
}
