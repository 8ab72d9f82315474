package rules

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

// BuildCost is the gold a new building of type b costs (0 for
// BuildingNone or an unknown type).
func BuildCost(b Building) int64 {
	if int(b) >= len(buildCost) {
		return 0
	}
	return buildCost[b]
}

// UpgradeCost is the gold and energy that upgrading a building of type b
// from level to level+1 costs (zero outside levels 1..2).
func UpgradeCost(b Building, level int64) (gold, energy int64) {
	if int(b) >= len(upgradeGold) || level < 1 || level > 2 {
		return 0, 0
	}
	return upgradeGold[b][level], upgradeEnergy[b][level]
}

// TakenValue is the gold a captured GoldMine, EnergyWell or Fortress of
// this level pays its captor (and the force field a captured EnergyWell
// adds); 0 outside levels 1..3.
func TakenValue(level int64) int64 {
	if level < 1 || level > 3 {
		return 0
	}
	return takenValue[level]
}

// TaxBracket is the bracket k of a count n (of cells, or of buildings)
// under the progressive tax: 0 for n <= 75, and k for 75k < n <= 75(k+1),
// where each unit beyond 75k costs k.
func TaxBracket(n int64) int64 {
	if n <= 75 {
		return 0
	}
	return (n - 1) / 75
}

// attackCost returns the energy needed to capture cell i now. A Home's
// stored_energy is its owner's energy as of the last cell scan.
func (s *State) attackCost(i int) int64 {
	c, l := &s.cells[i], &s.land[i]
	switch c.building {
	case Home:
		return (1000 + s.users[c.owner-1].scanEnergy + int64(c.ff)) * int64(c.level)
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

// ownCell is the index of cell (x, y) when u owns it; otherwise the
// error that says why a build or an upgrade there fails.
func (s *State) ownCell(u *user, x, y int) (int, ErrCode) {
	if !s.onMap(x, y) {
		return 0, ErrOffMap
	}
	i := s.index(x, y)
	if s.cells[i].owner != int32(u.uid) {
		return 0, ErrNotOwnCell
	}
	return i, ErrNone
}

func (s *State) build(u *user, x, y int, b Building) ErrCode {
	i, e := s.ownCell(u, x, y)
	if e != ErrNone {
		return e
	}
	c := &s.cells[i]
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
	u.gold -= buildCost[b]
	return ErrNone
}

func (s *State) upgrade(u *user, x, y int) ErrCode {
	i, e := s.ownCell(u, x, y)
	if e != ErrNone {
		return e
	}
	c := &s.cells[i]
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
// building types are first met (the key order of building_number, derived
// when a frame is made: see buildingOrders). So it is computed as: note
// every player's energy (which is what each Home stores; nothing in the
// scan changes energy), resolve the attacked cells in column-major order,
// then sum the aggregates in one pass in memory order.
func (s *State) scan() {
	w, h := s.cfg.Width, s.cfg.Height
	for i := range s.users {
		s.users[i].scanEnergy = s.users[i].energy
		s.users[i].orderPinned = false
	}
	// Attacked cells in column-major order (index i -> key (i%w)*h + i/w).
	at := s.attacked
	for i := 1; i < len(at); i++ {
		for j := i; j > 0 && colKey(at[j], w, h) < colKey(at[j-1], w, h); j-- {
			at[j], at[j-1] = at[j-1], at[j]
		}
	}
	for _, i := range at {
		s.resolve(int(i))
	}
	s.attacked = at[:0]

	// agg[uid] sums the cells of player uid; agg[0] collects unowned cells
	// so the loop needs no branch on ownership.
	agg := s.agg[:len(s.users)+1]
	clear(agg)
	for i := range s.cells {
		c := &s.cells[i]
		a := &agg[c.owner]
		a.cells++
		a.gold += int64(c.gold)
		a.energy += int64(c.energy)
		a.buildings[c.building]++
		if c.building == Home {
			a.tech = max(a.tech, int64(c.level))
		}
	}
	for i := range s.users {
		u, a := &s.users[i], &agg[i+1]
		u.cells, u.goldSource, u.energySource, u.techLevel = a.cells, a.gold, a.energy, a.tech
		u.buildings = a.buildings
		u.buildings[BuildingNone] = 0
	}
}

// aggregate is one player's sums over its cells.
type aggregate struct {
	cells, gold, energy, tech int64
	buildings                 [NumBuildings]int64
}

// colKey is cell i's position in the column-major scan.
func colKey(i int32, w, h int) int32 { return (i%int32(w))*int32(h) + i/int32(w) }

// buildingOrders sets every user's order whose order is not pinned
// (orderPinned) to the building types it owns in the order the
// column-major scan first meets them, which is the key order of
// building_number in official replays: one scan for all the users.
func (s *State) buildingOrders() {
	var open [MaxPlayers + 1]bool // by uid: order being computed
	var seen [MaxPlayers + 1][NumBuildings]bool
	some := false
	for i := range s.users {
		if u := &s.users[i]; !u.orderPinned {
			open[u.uid], some = true, true
			u.order, u.norder = [NumBuildings - 1]Building{}, 0
		}
	}
	if !some {
		return
	}
	w, h := s.cfg.Width, s.cfg.Height
	cells := s.cells[:w*h]
	for x := 0; x < w; x++ {
		for i := x; i < len(cells); i += w {
			c := &cells[i]
			if o := c.owner; open[o] && c.building != BuildingNone && !seen[o][c.building] {
				seen[o][c.building] = true
				u := &s.users[o-1]
				u.order[u.norder] = c.building
				u.norder++
			}
		}
	}
}

// resolve settles the attacks on cell i and clears them.
func (s *State) resolve(i int) {
	c, p := &s.cells[i], &s.pend[i]
	net := 2*p.max - p.total
	if cost := s.attackCost(i); net >= cost {
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
			c.owner = p.maxUID
			s.touch(i)
		}
		c.ff = int32(min(1000, ff))
	}
	*p = pending{max: -1}
}

// loseHomes is step 3: players without a Home lose their other buildings.
// Their reported building counts (and building order) stay as the scan
// found them, so the order is pinned before the buildings go.
func (s *State) loseHomes() {
	lost := false
	for i := range s.users {
		if u := &s.users[i]; u.techLevel == 0 && u.cells > 0 {
			lost = true
		}
	}
	if !lost {
		return
	}
	s.buildingOrders()
	for i := range s.users {
		if u := &s.users[i]; u.techLevel == 0 && u.cells > 0 {
			u.orderPinned = true
		}
	}
	for i := range s.cells {
		c := &s.cells[i]
		if c.owner != 0 && c.building != BuildingNone && c.building != Home && s.users[c.owner-1].techLevel == 0 {
			s.setBuilding(i, BuildingNone, 0)
		}
	}
}

// forceFields is step 4. Each owned cell's change, self_incr plus the
// contributions of its neighbours, depends only on the owners and buildings
// around it, so it is cached per cell (delta) and recomputed only for cells
// whose neighbourhood changed since the last round (marked by touch).
func (s *State) forceFields() {
	for _, i := range s.dirty {
		s.delta[i] = s.computeDelta(int(i))
		s.isDirty[i] = false
	}
	s.dirty = s.dirty[:0]
	cells, delta := s.cells, s.delta[:len(s.cells)]
	for i := range cells {
		c := &cells[i]
		if c.owner != 0 {
			c.ff = max(0, min(1000, c.ff+delta[i]))
		}
	}
}

// computeDelta returns the force-field change of cell i for one round:
// self_incr, plus ally_incr of each neighbour with the same owner, minus
// enemy_decr of each neighbour with another owner.
func (s *State) computeDelta(i int) int32 {
	w, h := s.cfg.Width, s.cfg.Height
	x, y := i%w, i/w
	c := &s.cells[i]
	o := c.owner
	d := int32(c.self)
	if y > 0 {
		d += neighbourFF(o, &s.cells[i-w])
	}
	if y < h-1 {
		d += neighbourFF(o, &s.cells[i+w])
	}
	if x > 0 {
		d += neighbourFF(o, &s.cells[i-1])
	}
	if x < w-1 {
		d += neighbourFF(o, &s.cells[i+1])
	}
	return d
}

// touch records that cell i's owner or building changed, so its own and
// its neighbours' force-field deltas must be recomputed.
func (s *State) touch(i int) {
	w, h := s.cfg.Width, s.cfg.Height
	x, y := i%w, i/w
	s.markDirty(i)
	if y > 0 {
		s.markDirty(i - w)
	}
	if y < h-1 {
		s.markDirty(i + w)
	}
	if x > 0 {
		s.markDirty(i - 1)
	}
	if x < w-1 {
		s.markDirty(i + 1)
	}
}

func (s *State) markDirty(i int) {
	if !s.isDirty[i] {
		s.isDirty[i] = true
		s.dirty = append(s.dirty, int32(i))
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
