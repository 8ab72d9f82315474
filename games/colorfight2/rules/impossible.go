package rules

// Impossible looks for a proof that no commands the rules accept take the
// state st to the frame next: a condition that every legal round meets
// and next does not. It returns the first one found as a *Divergence
// whose Got is the frame's value and Want what the rules allow (a value,
// a bound, or a condition, with how the rules arrive at it), or nil when
// it finds none. nil does not say that commands exist — InferCommands
// looks for them; a frame the inference cannot explain and Impossible
// cannot refute is unexplained, not illegal (docs/import.md).
//
// Every condition is necessary, so Impossible never refutes a legal
// round: it reasons only with bounds that hold whatever the commands were
// (hidden builds, upgrades, Homes and attacks included):
//
//   - cells: terrain and position never change; an owned cell is never
//     lost to nobody; a capture needs a neighbour of the captor's, and
//     leaves the cell empty; buildings on kept cells appear, rise and
//     vanish only as commands and the lost-homes step allow; an unowned
//     cell nobody took is unchanged; a Home's attack_cost stores its
//     owner's energy at the scan;
//   - force fields: a field that is not the per-round update of the last
//     one was set by a successful attack, to an even value in 0..1000
//     before the update;
//   - energy: what a player spent in step 1 (its energy before, less its
//     energy at the scan, read back from next) is at least its visible
//     Home upgrades plus, for every cell it captured or reinforced, the
//     smallest attack that gives the observed force field (the cheapest
//     building the cell can have held, the largest EnergyWell bonus);
//     a player with negative energy can spend none;
//   - gold: for a player in no capture that can involve a Home (which
//     moves a third of a player's gold), every change in step 1 and the
//     scan is a multiple of 100, and the gold at the scan lies between
//     what nothing but visible refunds gives and what visible spending
//     with every possible gain (taken values at the highest level the
//     rules allow) gives;
//   - tax: tax_amount and tax_level follow from the reported counts.
//
// next's users must be the game's players (any order); otherwise nil.
func Impossible(st *State, next *Frame) *Divergence {
	w, h := st.cfg.Width, st.cfg.Height
	n := len(st.users)
	if next.Width != w || next.Height != h || len(next.Cells) != w*h || len(next.Users) != n {
		return nil
	}
	nu := make([]*FrameUser, n+1)
	for k := range next.Users {
		u := &next.Users[k]
		if u.UID < 1 || u.UID > int64(n) || nu[u.UID] != nil {
			return nil
		}
		nu[u.UID] = u
	}
	turn := next.Turn
	cellDiv := func(i int, field, want string, got int64) *Divergence {
		return &Divergence{Turn: turn, Where: "cell (" + itoa(int64(i%w)) + "," + itoa(int64(i/w)) + ")", Field: field, Want: want, Got: itoa(got)}
	}
	userDiv := func(uid int, field, want string, got int64) *Divergence {
		return &Divergence{Turn: turn, Where: "user " + itoa(int64(uid)), Field: field, Want: want, Got: itoa(got)}
	}
	// scanE[p]: p's energy at the scan (after step 1), which is also what
	// its Homes store; scanG[p]: its gold after the scan.
	scanE := make([]int64, n+1)
	scanG := make([]int64, n+1)
	for p := 1; p <= n; p++ {
		u := nu[p]
		scanE[p] = u.Energy - u.EnergySource + u.TaxAmount
		scanG[p] = u.Gold - u.GoldSource + u.TaxAmount
	}
	var nx State
	if err := nx.loadFrame(st.cfg, next, false); err != nil {
		return nil
	}
	homeCost := func(owner int64, ff, level int64) int64 {
		return (1000 + scanE[owner] + ff) * level
	}
	// Per player: the least energy its attacks took, the energy its
	// visible Home upgrades took, its visible gold spending, the gold it
	// can gain at most and gets at least in the scan, whether a Home
	// capture can move its gold, and the Homes it built.
	minAttack := make([]int64, n+1)
	upEnergy := make([]int64, n+1)
	spend := make([]int64, n+1)
	gainMax := make([]int64, n+1)
	gainMin := make([]int64, n+1)
	homeMoved := make([]bool, n+1)
	newHomes := make([]int, n+1)
	cells := make([]int64, n+1)
	// Owners first: what a round decides before the rest.
	for i := range next.Cells {
		o, q := int64(st.cells[i].owner), next.Cells[i].Owner
		if q < 0 || q > int64(n) {
			return nil // the frame's own checks report it
		}
		if o != 0 && q == 0 {
			return cellDiv(i, "owner", itoa(o)+" (an owned cell is only ever taken by a player)", q)
		}
		if q != 0 && q != o && !st.hasOwnedNeighbour(i%w, i/w, int32(q)) {
			return cellDiv(i, "owner", itoa(o)+" (player "+itoa(q)+" owned no neighbour to attack from)", q)
		}
	}
	for i := range next.Cells {
		b := &next.Cells[i]
		c, l := &st.cells[i], &st.land[i]
		if b.NaturalGold != int64(l.ng) {
			return cellDiv(i, "natural_gold", itoa(int64(l.ng))+" (terrain never changes)", b.NaturalGold)
		}
		if b.NaturalEnergy != int64(l.ne) {
			return cellDiv(i, "natural_energy", itoa(int64(l.ne))+" (terrain never changes)", b.NaturalEnergy)
		}
		if b.NaturalCost != int64(l.nc) {
			return cellDiv(i, "natural_cost", itoa(int64(l.nc))+" (terrain never changes)", b.NaturalCost)
		}
		if b.X != int64(i%w) || b.Y != int64(i/w) {
			return cellDiv(i, "position", "its own position", b.Y*int64(w)+b.X)
		}
		if b.Owner < 0 || b.Owner > int64(n) || b.Building >= NumBuildings {
			return nil // the frame's own checks report it
		}
		o, q := int64(c.owner), b.Owner
		cells[q]++
		ffA := int64(c.ff)
		nc := int64(l.nc)
		lvA := int64(c.level)
		delta := int64(nx.computeDelta(i))
		if o == 0 && q == 0 {
			if b.Building != BuildingNone {
				return cellDiv(i, "building", "none (nobody owns the cell)", int64(b.Building))
			}
			if b.ForceField != ffA {
				return cellDiv(i, "force_field", itoa(ffA)+" (an unowned cell keeps its force field)", b.ForceField)
			}
			continue
		}
		// v: the force field after the attacks, before the update, when an
		// attack set it: even, in 0..1000.
		attackedFF := o != q || b.ForceField != max(0, min(1000, ffA+delta))
		var vLo int64
		if attackedFF {
			switch {
			case b.ForceField == 0:
				if delta > 0 {
					return cellDiv(i, "force_field", "at least "+itoa(delta)+" (the per-round change after an attack)", b.ForceField)
				}
			case b.ForceField == 1000:
				if delta < 0 {
					return cellDiv(i, "force_field", "at most "+itoa(1000+delta)+" (the per-round change after an attack)", b.ForceField)
				}
				vLo = 1000 - delta
			default:
				v := b.ForceField - delta
				if v < 0 || v > 1000 || v%2 != 0 {
					return cellDiv(i, "force_field", "an even value in 0..1000 plus the per-round change "+itoa(delta)+", or "+itoa(max(0, min(1000, ffA+delta)))+" without an attack", b.ForceField)
				}
				vLo = v
			}
		}
		uq := &st.users[q-1]
		if o != q {
			// A capture by q.
			if b.Building != BuildingNone {
				return cellDiv(i, "building", "none (a captured cell loses its building)", int64(b.Building))
			}
			// The cheapest building the cell can hold at the scan, the
			// largest EnergyWell bonus and GoldMine payout.
			cost := nc + ffA
			var bonus, pay, refundMin, payMin int64
			if o != 0 {
				uo := &st.users[o-1]
				top := min(3, max(lvA, uo.techLevel))
				switch c.building {
				case Home:
					cost = homeCost(o, ffA, lvA)
					for L := lvA + 1; L <= 3; L++ {
						cost = min(cost, homeCost(o, ffA, L))
					}
					homeMoved[o], homeMoved[q] = true, true
				case Fortress:
					cost = (nc + ffA) * (1 + lvA)
					refundMin = TakenValue(lvA)
				case EnergyWell:
					bonus = TakenValue(top)
					refundMin = TakenValue(lvA)
				case GoldMine:
					pay = TakenValue(top)
					refundMin, payMin = TakenValue(lvA), TakenValue(lvA)
				case BuildingNone:
					if uo.techLevel >= 1 {
						bonus, pay = TakenValue(min(3, uo.techLevel)), TakenValue(min(3, uo.techLevel))
					} else if !uo.buildingHome && uo.gold >= BuildCost(Home) {
						// A Home built and taken at once.
						for L := int64(1); L <= 3; L++ {
							cost = min(cost, homeCost(o, ffA, L))
						}
						homeMoved[o], homeMoved[q] = true, true
					}
				}
				gainMax[o] += refundMin // upgrades before the loss cost more than they pay back
				gainMin[o] += refundMin
			}
			gainMax[q] += pay
			gainMin[q] += payMin
			minAttack[q] += max(0, cost+max(0, (vLo-bonus+1)/2))
			continue
		}
		// q kept the cell.
		a := c.building
		lost := nu[q].TechLevel == 0
		switch {
		case a == BuildingNone && b.Building == Home:
			if uq.techLevel != 0 || uq.buildingHome {
				return cellDiv(i, "building", "none (a Home is built only by a player without one, once a round)", int64(b.Building))
			}
			newHomes[q]++
			if newHomes[q] > 1 {
				return cellDiv(i, "building", "none (one Home a round)", int64(b.Building))
			}
		case a == BuildingNone && b.Building != BuildingNone:
			if uq.techLevel == 0 {
				return cellDiv(i, "building", "none (no building without a Home)", int64(b.Building))
			}
		case a != BuildingNone && b.Building == BuildingNone:
			if a == Home || !lost {
				return cellDiv(i, "building", a.Key()+" (a building stays on a kept cell unless its owner lost its last Home)", int64(b.Building))
			}
		case a != BuildingNone && b.Building != a:
			return cellDiv(i, "building", a.Key()+" (a building never changes type)", int64(b.Building))
		case a != BuildingNone && b.Level < lvA:
			return cellDiv(i, "building level", "at least "+itoa(lvA)+" (levels never fall)", b.Level)
		}
		from := lvA
		if a == BuildingNone && b.Building != BuildingNone {
			spend[q] += BuildCost(b.Building)
			from = 1
		}
		if b.Building != BuildingNone && b.Building != Home && b.Level > max(from, min(3, uq.techLevel)) {
			return cellDiv(i, "building level", "at most "+itoa(max(from, min(3, uq.techLevel)))+" (no upgrade past the Home's level)", b.Level)
		}
		if b.Building != BuildingNone {
			for L := from; L < b.Level; L++ {
				g, e := UpgradeCost(b.Building, L)
				spend[q] += g
				upEnergy[q] += e
			}
		}
		if attackedFF {
			cost := nc + ffA
			switch b.Building {
			case Home:
				cost = homeCost(q, ffA, b.Level)
			case Fortress:
				cost = (nc + ffA) * (1 + b.Level)
			}
			minAttack[q] += max(0, cost+(vLo+1)/2)
		}
	}
	for p := 1; p <= n; p++ {
		u, fu := &st.users[p-1], nu[p]
		if fu.CellNumber != cells[p] {
			return userDiv(p, "cell_number", itoa(cells[p])+" (the cells it owns on the map)", fu.CellNumber)
		}
		// Energy: step 1 takes spent = energy − scanE; commands never take
		// a non-negative reserve below 0, and a negative one allows none.
		least := upEnergy[p] + minAttack[p]
		inc := fu.EnergySource - fu.TaxAmount
		how := " (energy " + itoa(u.energy) + " at turn " + itoa(int64(st.turn)) + ", income " + itoa(fu.EnergySource) + ", tax " + itoa(fu.TaxAmount)
		if u.energy < 0 {
			if least > 0 || scanE[p] != u.energy {
				return userDiv(p, "energy", itoa(u.energy+inc)+how+": a negative reserve pays for no attack or upgrade)", fu.Energy)
			}
		} else if scanE[p] < 0 {
			return userDiv(p, "energy", "at least "+itoa(inc)+how+": commands never spend below 0)", fu.Energy)
		} else if u.energy-scanE[p] < least {
			return userDiv(p, "energy", "at most "+itoa(u.energy-least+inc)+how+", attacks and upgrades the frame shows at least "+itoa(least)+")", fu.Energy)
		}
		if homeMoved[p] {
			continue // a third of someone's gold moved: no bound in hundreds
		}
		d := scanG[p] - u.gold
		inc = fu.GoldSource - fu.TaxAmount
		how = " (gold " + itoa(u.gold) + " at turn " + itoa(int64(st.turn)) + ", income " + itoa(fu.GoldSource) + ", tax " + itoa(fu.TaxAmount)
		if d%100 != 0 {
			return userDiv(p, "gold", itoa(u.gold+inc)+" plus a multiple of 100"+how+"; builds, upgrades and taken buildings move whole hundreds)", fu.Gold)
		}
		if hi := u.gold - spend[p] + gainMax[p]; scanG[p] > hi {
			return userDiv(p, "gold", "at most "+itoa(hi+inc)+how+", builds and upgrades the frame shows "+itoa(spend[p])+", gains at most "+itoa(gainMax[p])+")", fu.Gold)
		}
		lo := gainMin[p]
		if u.gold < 0 {
			lo += u.gold
		}
		if scanG[p] < lo {
			return userDiv(p, "gold", "at least "+itoa(lo+inc)+how+": commands never spend below 0, gains at least "+itoa(gainMin[p])+")", fu.Gold)
		}
	}
	for i := range next.Cells {
		if b := &next.Cells[i]; b.Building == Home && b.AttackCost != homeCost(b.Owner, b.ForceField, b.Level) {
			return cellDiv(i, "attack_cost", itoa(homeCost(b.Owner, b.ForceField, b.Level))+" (the Home stores its owner's energy at the scan)", b.AttackCost)
		}
	}
	for p := 1; p <= n; p++ {
		u := nu[p]
		if want := tax(u.CellNumber) + tax(u.Buildings[GoldMine]+u.Buildings[EnergyWell]); u.TaxAmount != want {
			return userDiv(p, "tax_amount", itoa(want)+" (the tax of its cell_number and building_number)", u.TaxAmount)
		}
		if want := u.CellNumber / 100; u.TaxLevel != want {
			return userDiv(p, "tax_level", itoa(want)+" (cell_number / 100)", u.TaxLevel)
		}
	}
	return nil
}
