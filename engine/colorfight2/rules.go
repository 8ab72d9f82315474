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

// cellGold returns the gold the cell yields per round.
func cellGold(c *cell) int64 {
	switch c.building {
	case Home:
		return 10 * int64(c.level)
	case GoldMine:
		return c.ng * int64(1+c.level)
	}
	return c.ng
}

// cellEnergy returns the energy the cell yields per round.
func cellEnergy(c *cell) int64 {
	switch c.building {
	case Home:
		return 10 * int64(c.level)
	case EnergyWell:
		return c.ne * int64(1+c.level)
	}
	return c.ne
}

// attackCost returns the energy needed to capture the cell now.
func attackCost(c *cell) int64 {
	switch c.building {
	case Home:
		return (1000 + c.stored + c.ff) * int64(c.level)
	case Fortress:
		return (c.nc + c.ff) * int64(1+c.level)
	}
	return c.nc + c.ff
}

func allyIncr(c *cell) int64 {
	if c.building == Fortress {
		return 2 + 2*int64(c.level)
	}
	return 2
}

func enemyDecr(c *cell) int64 {
	if c.building == Fortress {
		return 6 + 10*int64(c.level)
	}
	return 5
}

func selfIncr(c *cell) int64 {
	if c.building == Fortress {
		return 4 * int64(c.level)
	}
	return 0
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
	c := &s.cells[idx]
	c.atkN++
	c.atkTotal += energy
	if energy > c.atkMax {
		c.atkMax = energy
		c.atkMaxUID = int32(u.uid)
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
	c := &s.cells[s.index(x, y)]
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
	c.building = b
	c.level = 1
	c.stored = 0
	u.gold -= buildCost[b]
	return ErrNone
}

func (s *State) upgrade(u *user, x, y int) ErrCode {
	if !s.onMap(x, y) {
		return ErrOffMap
	}
	c := &s.cells[s.index(x, y)]
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
	c.level++
	return ErrNone
}

// scan is step 2: the column-major cell scan resolving captures and
// building the owners' aggregates.
func (s *State) scan() {
	for i := range s.users {
		u := &s.users[i]
		u.cells, u.goldSource, u.energySource, u.techLevel = 0, 0, 0, 0
		u.buildings = [NumBuildings]int64{}
		u.norder = 0
	}
	w, h := s.cfg.Width, s.cfg.Height
	for x := 0; x < w; x++ {
		for i := x; i < w*h; i += w {
			c := &s.cells[i]
			if c.building == Home {
				c.stored = s.users[c.owner-1].energy
			}
			if c.atkN > 0 {
				s.resolve(c)
			}
			if c.owner == 0 {
				continue
			}
			u := &s.users[c.owner-1]
			u.cells++
			u.goldSource += cellGold(c)
			u.energySource += cellEnergy(c)
			if c.building != BuildingNone {
				if c.building == Home && int64(c.level) > u.techLevel {
					u.techLevel = int64(c.level)
				}
				if u.buildings[c.building] == 0 {
					u.order[u.norder] = c.building
					u.norder++
				}
				u.buildings[c.building]++
			}
		}
	}
}

// resolve settles the attacks on one cell and clears them.
func (s *State) resolve(c *cell) {
	net := 2*c.atkMax - c.atkTotal
	if cost := attackCost(c); net >= cost {
		ff := 2 * (net - cost)
		if c.atkMaxUID != c.owner {
			if c.owner != 0 {
				prev := &s.users[c.owner-1]
				att := &s.users[c.atkMaxUID-1]
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
			c.building, c.level, c.stored = BuildingNone, 0, 0
			c.owner = c.atkMaxUID
		}
		c.ff = min(1000, ff)
	}
	c.atkN, c.atkMaxUID, c.atkMax, c.atkTotal = 0, 0, -1, 0
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
			c.building, c.level = BuildingNone, 0
		}
	}
}

// forceFields is step 4.
func (s *State) forceFields() {
	w, h := s.cfg.Width, s.cfg.Height
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := y*w + x
			c := &s.cells[i]
			if c.owner == 0 {
				continue
			}
			ff := c.ff
			if y > 0 {
				ff += neighbourFF(c, &s.cells[i-w])
			}
			if y < h-1 {
				ff += neighbourFF(c, &s.cells[i+w])
			}
			if x > 0 {
				ff += neighbourFF(c, &s.cells[i-1])
			}
			if x < w-1 {
				ff += neighbourFF(c, &s.cells[i+1])
			}
			ff += selfIncr(c)
			c.ff = max(0, min(1000, ff))
		}
	}
}

func neighbourFF(c, nb *cell) int64 {
	switch nb.owner {
	case 0:
		return 0
	case c.owner:
		return allyIncr(nb)
	}
	return -enemyDecr(nb)
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
