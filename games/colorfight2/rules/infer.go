package rules

import (
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"sort"
)

// InferCommands infers, for one round, a command list for every player
// such that playing them from the state of frame prev gives frame next —
// for a replay that records states but not commands (an official .cfr).
// st must be the state of prev (FromFrame, or the state a previous round
// produced); it is not modified. The result is indexed by uid-1.
//
// A frame does not always pin the commands down; the choices are
// canonical (docs/import.md):
//
//   - a building that appears on a cell its owner kept is a build, a level
//     that rises an upgrade per level, Home first, in row-major order;
//   - a captured cell, or an owned cell whose force field is not what the
//     per-round update alone gives, is one attack by its new owner with the
//     smallest energy that yields the observed force field (when the field
//     was capped at 0 or 1000, the smallest that reaches the cap);
//   - the rest of the energy a player spent on attacks (its energy
//     balance: energy before − upgrades + income − tax − energy after) is
//     spent on attacks that capture nothing, on one canonical cell next to
//     its territory that nobody else attacked: a single attack when it is
//     below that cell's attack cost, else two equal attacks and the
//     remainder, whose net is never positive (a player with no such cell
//     hides it beside its own captures, or in another's contested one);
//   - what the frame hides — buildings placed or upgraded on cells lost
//     that round, a captured Home upgraded, a Home rebuilt and taken, the
//     buildings a lost Home took with it — is searched, fewest hidden
//     actions first, within the bounds of docs/import.md (Inferrer.Bounded
//     says when a search stopped at one).
//
// InferCommands does not check the result; play it (Step) and compare the
// frame with next. It fails only when next cannot follow prev at all (other
// size, other players).
func InferCommands(st *State, prev, next *Frame) ([][]Command, error) {
	return new(Inferrer).Infer(st, prev, next)
}

// Inferrer is InferCommands with working storage kept between rounds, for
// inferring a whole game without allocating states every round. Its zero
// value is ready; it is not safe for concurrent use.
type Inferrer struct {
	work, nx, sim State
	got           Frame
	bounded       bool
	tries         int // hypotheses tried this round
	by, at        []int32
}

// Bounded reports whether the last Infer's search for hidden actions
// stopped at one of its bounds (docs/import.md) before it found commands
// that reproduce the frame.
func (in *Inferrer) Bounded() bool { return in.bounded }

// Infer is InferCommands.
func (in *Inferrer) Infer(st *State, prev, next *Frame) ([][]Command, error) {
	in.bounded, in.tries = false, 0
	alts := removedBuilds(st, prev, next)
	var first [][]Command
	// Every reading of the removed buildings played plainly first, then
	// each searched for hidden builds with its share of the round's bound.
	share := max(maxRoundTries/len(alts), maxRoundTries/maxRemovedAlternatives)
	budgets := []int{0, share}
	if len(alts) == 1 {
		budgets = budgets[1:] // the search plays it plainly first
	}
	for _, budget := range budgets {
		for _, removed := range alts {
			cmds, ok, err := in.inferWith(st, prev, next, removed, budget)
			if err != nil {
				return nil, err
			}
			if ok {
				in.bounded = false
				return cmds, nil
			}
			if first == nil {
				first = cmds
			}
		}
	}
	if len(alts) >= maxRemovedAlternatives {
		in.bounded = true // there may be more readings than were tried
	}
	return first, nil
}

// inferWith infers the round given the buildings removed by the lost-homes
// step, searching hidden builds (at most budget candidates, and what is
// left of the round's bound) when the plain inference does not reproduce
// next; ok reports that the result does.
func (in *Inferrer) inferWith(st *State, prev, next *Frame, removed map[int]hiddenBuild, budget int) ([][]Command, bool, error) {
	cmds, err := in.infer(st, prev, next, removed)
	if err != nil {
		return nil, false, err
	}
	// A building placed on a cell that is captured in the same round
	// leaves no trace but its gold: its builder paid 200 and got 100 back
	// (TakenValue(1)), and a GoldMine's captor got 100 too. When the
	// replay's gold says so, try the hidden builds that explain it.
	sim := &in.sim
	sim.CopyFrom(st)
	got := &in.got
	sim.Step(cmds)
	sim.Frame(got)
	if diffPlayed(next, got) == nil {
		return cmds, true, nil
	}
	if budget <= 0 {
		return cmds, false, nil
	}
	// Players whose energy comes out wrong: a hidden EnergyWell's bonus
	// (or a hidden Fortress) changed what their captures cost.
	energyOff := make([]bool, len(st.users)+1)
	for i := range next.Users {
		u := &next.Users[i]
		if u.UID >= 1 && u.UID <= int64(len(st.users)) && sim.users[u.UID-1].energy != u.Energy {
			energyOff[u.UID] = true
		}
	}
	// The gold to explain is measured on a play in which every inferred
	// capture happens: a captor whose attacks need more energy than it
	// had (the bonus of a hidden EnergyWell would have saved it) is lent
	// the difference, so its failed captures do not blur everyone's gold.
	sim.CopyFrom(st)
	w := st.cfg.Width
	for k := range cmds {
		// used: the energy of its attacks and of its Home's upgrades.
		var used int64
		homeLevel := map[int]int64{}
		for _, c := range cmds[k] {
			i := c.Y*w + c.X
			switch {
			case c.Kind == CmdAttack:
				used += c.Energy
			case c.Kind == CmdBuild && c.Building == Home:
				homeLevel[i] = 1
			case c.Kind == CmdUpgrade && i >= 0 && i < len(prev.Cells):
				l, ok := homeLevel[i]
				if !ok && prev.Cells[i].Building == Home {
					l, ok = prev.Cells[i].Level, true
				}
				if ok {
					_, e := UpgradeCost(Home, l)
					used += e
					homeLevel[i] = l + 1
				}
			}
		}
		if u := &sim.users[k]; used > u.energy {
			u.energy = used + 1<<20
		}
	}
	sim.Step(cmds)
	// The best assignment reproduces next; when none does (a replay that
	// breaks the rules), the one closest to it.
	tries := 0
	budget = min(budget, maxRoundTries-in.tries)
	if budget <= 0 {
		in.bounded = true
		return cmds, false, nil
	}
	defer func() { in.tries += tries }()
	best, bestScore := cmds, differences(next, got)
	in.hiddenBuilds(st, prev, next, sim, energyOff, func(hidden map[int]hiddenBuild) bool {
		tries++
		all := maps.Clone(removed)
		if all == nil {
			all = map[int]hiddenBuild{}
		}
		maps.Copy(all, hidden)
		c, err := in.infer(st, prev, next, all)
		if err != nil {
			return tries < budget
		}
		sim.CopyFrom(st)
		sim.Step(c)
		sim.Frame(got)
		if score := differences(next, got); score < bestScore {
			best, bestScore = c, score
		}
		return bestScore > 0 && tries < budget
	})
	if bestScore > 0 && tries >= budget {
		in.bounded = true
	}
	return best, bestScore == 0, nil
}

// differences counts the cells and users (matched by uid) in which a
// played frame differs from the replay's, ratings aside.
func differences(want, got *Frame) int {
	n := 0
	if len(want.Cells) != len(got.Cells) {
		return 1 << 30
	}
	for i := range want.Cells {
		if want.Cells[i] != got.Cells[i] {
			n++
		}
	}
	for k := range want.Users {
		w := &want.Users[k]
		var g *FrameUser
		for j := range got.Users {
			if got.Users[j].UID == w.UID {
				g = &got.Users[j]
				break
			}
		}
		if g == nil || g.Gold != w.Gold || g.Energy != w.Energy || g.CellNumber != w.CellNumber || g.Dead != w.Dead ||
			g.GoldSource != w.GoldSource || g.EnergySource != w.EnergySource || g.TechLevel != w.TechLevel ||
			g.TaxAmount != w.TaxAmount || g.TaxLevel != w.TaxLevel || g.Buildings != w.Buildings {
			n++
		}
	}
	return n
}

// maxRoundTries bounds the hypotheses of hidden builds tried per round,
// shared among the readings of the buildings a lost Home took with it.
const maxRoundTries = 16384

// maxHiddenDepth bounds the cells lost with hidden builds in one round.
const maxHiddenDepth = 16

// maxHiddenStates bounds the states the search for hidden builds
// remembers in one round's reading (about 64 bytes each).
const maxHiddenStates = 1 << 18

// hiddenBuild is the building a cell held when it was captured, placed or
// upgraded in the same round by its previous owner.
type hiddenBuild struct {
	b     Building
	level int64
}

// hiddenBuilds calls try with each assignment of hidden builds and
// upgrades that explains the gold the replay shows and sim (the round
// played without them) does not, until try returns false.
//
// A candidate is a cell its owner q held before the round and lost in it.
// q may have built on it (if it was empty) and upgraded it before it was
// taken; it paid for that and got TakenValue of the level reached, and a
// GoldMine's captor got that too (less what the visible building already
// paid in sim). With need[p] the hundreds of gold sim gives player p above
// the replay, an assignment must bring every need to 0. A new building
// that is not a GoldMine is an EnergyWell when the captured cell's force
// field allows its bonus, else a Fortress (their only other trace is the
// captor's energy, which the replay checks).
func (in *Inferrer) hiddenBuilds(st *State, prev, next *Frame, sim *State, energyOff []bool, try func(map[int]hiddenBuild) bool) {
	w, h := st.cfg.Width, st.cfg.Height
	n := len(st.users)
	need := make([]int64, n+1)
	for i := range next.Users {
		u := &next.Users[i]
		if u.UID < 1 || u.UID > int64(n) {
			return
		}
		// Rounded to the nearest hundred: when sim's attack failed for
		// want of the hidden build, the cell's own yield is off too.
		d := sim.users[u.UID-1].gold - u.Gold
		if d >= 0 {
			need[u.UID] = (d + 50) / 100
		} else {
			need[u.UID] = -((-d + 50) / 100)
		}
	}
	nx := &in.nx
	if err := nx.loadFrame(st.cfg, next, false); err != nil {
		return
	}
	type option struct {
		hb          hiddenBuild
		lossQ, gain int64 // hundreds of gold: paid by q, gained by the captor
	}
	type cand struct {
		i    int
		q, a int64
		opts []option
	}
	// A Home's capture moves a third of its owner's gold as it stands then,
	// so hidden spending shows in both players' gold scaled by a third:
	// their needs are not counted in hundreds, and the play decides.
	free := make([]bool, n+1)
	for i := range next.Cells {
		a, b := &prev.Cells[i], &next.Cells[i]
		if a.Building == Home && a.Owner != b.Owner && a.Owner > 0 && a.Owner <= int64(n) && b.Owner > 0 && b.Owner <= int64(n) {
			free[a.Owner], free[b.Owner] = true, true
		}
	}
	// Players involved: those whose gold or energy is off, and, since a
	// hidden GoldMine moves gold from its builder to its captor, everyone
	// linked to them by a capture of this round.
	active := make([]bool, n+1)
	for p := 1; p <= n; p++ {
		active[p] = need[p] != 0 || energyOff[p]
	}
	for changed := true; changed; {
		changed = false
		for i := range next.Cells {
			q, a := prev.Cells[i].Owner, next.Cells[i].Owner
			if q == 0 || a == 0 || q == a || q > int64(n) || a > int64(n) || active[q] == active[a] {
				continue
			}
			active[q], active[a], changed = true, true, true
		}
	}
	var cands []cand
	for x := 0; x < w; x++ {
		for y := 0; y < h; y++ {
			i := y*w + x
			a, b := &prev.Cells[i], &next.Cells[i]
			q := a.Owner
			if q == 0 || b.Owner == q || b.Owner == 0 {
				continue
			}
			uq := &st.users[q-1]
			tech := uq.techLevel
			// A homeless player may rebuild its Home on a cell it loses
			// at once (and upgrade it): a Home's capture, so its gold and
			// its captor's are free.
			homeless := tech == 0 && a.Building == BuildingNone && !uq.buildingHome && uq.gold >= BuildCost(Home)
			if (tech == 0 && !homeless) || (!active[q] && !active[b.Owner]) {
				continue
			}
			if homeless {
				free[q], free[b.Owner] = true, true
			}
			hi := b.ForceField - int64(nx.computeDelta(i))
			if b.ForceField == 1000 {
				hi = 1 << 40
			}
			c := cand{i: i, q: q, a: b.Owner}
			types := []Building{GoldMine, EnergyWell, Fortress}
			from := int64(0)
			top := tech
			switch {
			case homeless:
				types, top = []Building{Home}, 3
			case a.Building == Home:
				types, from, top = []Building{Home}, a.Level, 3 // a Home rises past the tech level
			case a.Building != BuildingNone:
				types, from = []Building{a.Building}, a.Level
			}
			for _, bt := range types {
				var cost int64
				if from == 0 {
					cost = BuildCost(bt)
				}
				for l := max(from, 1); l <= 3; l++ {
					if l > from && l > 1 {
						if l > top {
							break
						}
						g, _ := UpgradeCost(bt, l-1)
						cost += g
					}
					if l == from {
						continue // that is sim's own assumption
					}
					hb := hiddenBuild{b: bt, level: l}
					if from == 0 && (bt == EnergyWell || bt == Fortress) {
						// EnergyWell or Fortress: the same gold for all. An
						// EnergyWell when the captured field allows its
						// bonus (its captor needs the least energy, and
						// spends the rest elsewhere), else a Fortress.
						if (bt == EnergyWell) != (TakenValue(l) <= hi) {
							continue
						}
					}
					refund := TakenValue(l)
					if bt == Home {
						refund = 0
					} else if from > 0 {
						refund -= TakenValue(from)
					}
					o := option{hb: hb, lossQ: (cost - refund) / 100}
					if bt == GoldMine {
						o.gain = refund / 100
					}
					c.opts = append(c.opts, o)
				}
			}
			if len(c.opts) > 0 {
				cands = append(cands, c)
			}
		}
	}
	if len(cands) == 0 {
		return
	}
	// dec[k][p] and inc[k][p] bound how far candidates k.. can still lower
	// and raise need[p]: a branch that cannot bring every need to 0 is cut.
	dec := make([][]int64, len(cands)+1)
	inc := make([][]int64, len(cands)+1)
	dec[len(cands)], inc[len(cands)] = make([]int64, n+1), make([]int64, n+1)
	for k := len(cands) - 1; k >= 0; k-- {
		dec[k] = append([]int64(nil), dec[k+1]...)
		inc[k] = append([]int64(nil), inc[k+1]...)
		var ml, mg int64
		for _, o := range cands[k].opts {
			ml, mg = max(ml, o.lossQ), max(mg, o.gain)
		}
		dec[k][cands[k].q] += ml
		inc[k][cands[k].a] += mg
	}
	// A need no candidate can meet is not a hidden build's doing (a replay
	// that breaks the rules): leave that player free, so the others are
	// still explained.
	for p := 1; p <= n; p++ {
		if need[p]-dec[0][p] > 0 || need[p]+inc[0][p] < 0 {
			free[p] = true
		}
	}
	// Fewest hidden builds first: one, then two, … . feasible(k, left)
	// says whether candidates k.. can bring every counted need to 0 with
	// exactly left more hidden builds; it is remembered by the needs, so
	// the enumeration only enters branches that lead to an assignment,
	// and its cost grows with the assignments, not with the candidates'
	// combinations.
	var counted []int
	for p := 1; p <= n; p++ {
		if !free[p] {
			counted = append(counted, p)
		}
	}
	memo := map[string]bool{}
	keyBuf := make([]byte, 0, 16+8*len(counted))
	var feasible func(k, left int) bool
	feasible = func(k, left int) bool {
		for _, p := range counted {
			if need[p]-dec[k][p] > 0 || need[p]+inc[k][p] < 0 {
				return false
			}
		}
		if left == 0 {
			for _, p := range counted {
				if need[p] != 0 {
					return false
				}
			}
			return true
		}
		if len(cands)-k < left {
			return false
		}
		keyBuf = binary.AppendUvarint(binary.AppendUvarint(keyBuf[:0], uint64(k)), uint64(left))
		for _, p := range counted {
			keyBuf = binary.AppendVarint(keyBuf, need[p])
		}
		key := string(keyBuf)
		if v, ok := memo[key]; ok {
			return v
		}
		if len(memo) >= maxHiddenStates {
			in.bounded = true
			return false
		}
		c := cands[k]
		ok := feasible(k+1, left)
		for j := 0; !ok && j < len(c.opts); j++ {
			o := c.opts[j]
			need[c.q] -= o.lossQ
			need[c.a] += o.gain
			ok = feasible(k+1, left-1)
			need[c.q] += o.lossQ
			need[c.a] -= o.gain
		}
		memo[key] = ok
		return ok
	}
	hidden := map[int]hiddenBuild{}
	var walk func(k, left int) bool
	walk = func(k, left int) bool {
		if !feasible(k, left) {
			return true
		}
		if left == 0 {
			return try(hidden)
		}
		c := cands[k]
		if !walk(k+1, left) {
			return false
		}
		for _, o := range c.opts {
			need[c.q] -= o.lossQ
			need[c.a] += o.gain
			hidden[c.i] = o.hb
			ok := walk(k+1, left-1)
			need[c.q] += o.lossQ
			need[c.a] -= o.gain
			delete(hidden, c.i)
			if !ok {
				return false
			}
		}
		return true
	}
	for depth := 1; depth <= len(cands) && depth <= maxHiddenDepth; depth++ {
		if !walk(0, depth) {
			return
		}
	}
	if len(cands) > maxHiddenDepth {
		in.bounded = true
	}
}

func (in *Inferrer) infer(st *State, prev, next *Frame, hidden map[int]hiddenBuild) ([][]Command, error) {
	w, h := st.cfg.Width, st.cfg.Height
	if next.Width != w || next.Height != h || len(next.Cells) != w*h || len(prev.Cells) != w*h {
		return nil, fmt.Errorf("colorfight2: frames are not %dx%d", w, h)
	}
	n := len(st.users)
	nu := make([]*FrameUser, n+1)
	for i := range next.Users {
		u := &next.Users[i]
		if u.UID < 1 || u.UID > int64(n) || nu[u.UID] != nil {
			return nil, fmt.Errorf("colorfight2: turn %d: users are not the game's %d players", next.Turn, n)
		}
		nu[u.UID] = u
	}
	for uid := 1; uid <= n; uid++ {
		if nu[uid] == nil {
			return nil, fmt.Errorf("colorfight2: turn %d: user %d is missing", next.Turn, uid)
		}
	}
	cmds := make([][]Command, n)

	// Builds and upgrades, applied to a scratch copy to learn the
	// buildings at scan time and the energy upgrades cost.
	work := &in.work
	work.CopyFrom(st)
	upEnergy := make([]int64, n+1)
	for _, home := range []bool{true, false} {
		for i := range next.Cells {
			a, b := &prev.Cells[i], &next.Cells[i]
			if a.Owner == 0 || a.Owner != b.Owner || b.Building == BuildingNone || (b.Building == Home) != home {
				continue
			}
			uid := int(b.Owner)
			x, y := i%w, i/w
			from := int64(0)
			switch {
			case a.Building == BuildingNone:
				cmds[uid-1] = append(cmds[uid-1], Command{Kind: CmdBuild, X: x, Y: y, Building: b.Building})
				from = 1
			case a.Building == b.Building:
				from = a.Level
			default:
				continue // cannot happen by the rules; the replay shows it
			}
			for l := from; l < b.Level; l++ {
				cmds[uid-1] = append(cmds[uid-1], Command{Kind: CmdUpgrade, X: x, Y: y})
				_, e := UpgradeCost(b.Building, l)
				upEnergy[uid] += e
			}
		}
	}
	for i := range prev.Cells {
		hb, ok := hidden[i]
		if !ok {
			continue
		}
		a := &prev.Cells[i]
		q := a.Owner
		from := a.Level
		if a.Building == BuildingNone {
			cmds[q-1] = append(cmds[q-1], Command{Kind: CmdBuild, X: i % w, Y: i / w, Building: hb.b})
			from = 1
		}
		for l := from; l < hb.level; l++ {
			cmds[q-1] = append(cmds[q-1], Command{Kind: CmdUpgrade, X: i % w, Y: i / w})
			_, e := UpgradeCost(hb.b, l)
			upEnergy[q] += e
		}
	}
	for k := range cmds {
		sortCommands(cmds[k])
		for j := range cmds[k] {
			work.apply(&work.users[k], &cmds[k][j])
		}
	}

	// Energy spent on attacks, and each player's energy at the scan (what
	// its Homes store).
	spent := make([]int64, n+1)
	for uid := 1; uid <= n; uid++ {
		pu := &st.users[uid-1]
		after := nu[uid].Energy - nu[uid].EnergySource + nu[uid].TaxAmount
		work.users[uid-1].scanEnergy = after
		spent[uid] = pu.energy - upEnergy[uid] - after
	}

	// The force-field change of the round after next's owners and
	// buildings.
	nx := &in.nx
	if err := nx.loadFrame(st.cfg, next, false); err != nil {
		return nil, err
	}
	attacked := make([]bool, w*h)
	// by[i]: the player whose inferred attack takes or reinforces cell i,
	// and at[i] that attack's index in its list.
	in.by = resize(in.by, w*h)
	in.at = resize(in.at, w*h)
	by, at := in.by, in.at
	clear(by)
	used := make([]int64, n+1)
	for i := range next.Cells {
		a, b := &prev.Cells[i], &next.Cells[i]
		if b.Owner == 0 {
			continue
		}
		uid := int(b.Owner)
		delta := int64(nx.computeDelta(i))
		cost := work.attackCost(i)
		bonus := int64(0)
		if a.Owner != b.Owner {
			if a.Owner != 0 && a.Building == EnergyWell {
				bonus = TakenValue(a.Level)
			}
			if hb, ok := hidden[i]; ok && hb.b == EnergyWell {
				bonus = TakenValue(hb.level)
			}
		} else if b.ForceField == max(0, min(1000, a.ForceField+delta)) {
			continue // the update alone explains it: no attack seen
		}
		// v is the force field after the capture, before the update:
		// v = min(1000, 2·(net − cost) + bonus), and the frame shows
		// clamp(v + delta, 0, 1000).
		lo, hi := b.ForceField-delta, b.ForceField-delta
		switch b.ForceField {
		case 0:
			lo = -1 << 40
		case 1000:
			hi = 1 << 40
		}
		v := max(lo, bonus)
		if v < 1000 && (v-bonus)%2 != 0 {
			v++
		}
		v = min(v, 1000)
		if v > hi {
			v = hi // impossible by the rules; the replay shows it
		}
		net := cost + max(0, (v-bonus+1)/2)
		attacked[i] = true
		used[uid] += net
		by[i], at[i] = int32(uid), int32(len(cmds[uid-1]))
		cmds[uid-1] = append(cmds[uid-1], Command{Kind: CmdAttack, X: i % w, Y: i / w, Energy: net})
	}

	// The rest: attacks that capture nothing, on a canonical cell next to
	// the player's territory that nobody else attacked.
	waste := make([]int64, n+1)
	target := make([]int, n+1)
	for uid := 1; uid <= n; uid++ {
		waste[uid] = spent[uid] - used[uid]
		target[uid] = -1
		if waste[uid] <= 0 {
			continue
		}
		cost := int64(-1)
		for i := range st.cells {
			if attacked[i] || !st.hasOwnedNeighbour(i%w, i/w, int32(uid)) {
				continue
			}
			if c := work.attackCost(i); c > cost {
				target[uid], cost = i, c
			}
		}
	}
	// A player with no such cell hides its energy in attacks that change
	// no outcome: on a cell it takes itself, a second attack of s beside
	// its own raised by s (the net is the same), which hides an even
	// amount; the rest as a smaller attack on a cell another player takes
	// while spending more than its captures need, whose attack there rises
	// by as much.
	for uid := 1; uid <= n; uid++ {
		if waste[uid] <= 0 || target[uid] >= 0 {
			continue
		}
		for i := range st.cells {
			if waste[uid] < 2 {
				break
			}
			if int(by[i]) != uid {
				continue
			}
			s := waste[uid] / 2
			c := &cmds[uid-1][at[i]]
			c.Energy += s
			cmds[uid-1] = append(cmds[uid-1], Command{Kind: CmdAttack, X: i % w, Y: i / w, Energy: s})
			waste[uid] -= 2 * s
		}
		for i := range st.cells {
			if waste[uid] <= 0 {
				break
			}
			q := int(by[i])
			if q == 0 || q == uid || !st.hasOwnedNeighbour(i%w, i/w, int32(uid)) {
				continue
			}
			c := &cmds[q-1][at[i]]
			r := min(waste[uid], waste[q])
			if r <= 0 || c.Energy <= 0 {
				continue
			}
			c.Energy += r
			waste[q] -= r
			cmds[uid-1] = append(cmds[uid-1], Command{Kind: CmdAttack, X: i % w, Y: i / w, Energy: r})
			waste[uid] -= r
		}
	}
	for uid := 1; uid <= n; uid++ {
		if waste[uid] <= 0 || target[uid] < 0 {
			continue // nothing left, or no cell to attack: the replay shows the energy
		}
		t := target[uid]
		x, y := t%w, t/w
		if cost := work.attackCost(t); waste[uid] < cost {
			cmds[uid-1] = append(cmds[uid-1], Command{Kind: CmdAttack, X: x, Y: y, Energy: waste[uid]})
			continue
		}
		k := waste[uid] / 2
		cmds[uid-1] = append(cmds[uid-1],
			Command{Kind: CmdAttack, X: x, Y: y, Energy: k},
			Command{Kind: CmdAttack, X: x, Y: y, Energy: k})
		if r := waste[uid] - 2*k; r > 0 {
			cmds[uid-1] = append(cmds[uid-1], Command{Kind: CmdAttack, X: x, Y: y, Energy: r})
		}
	}
	for k := range cmds {
		sortCommands(cmds[k])
		for j := range cmds[k] {
			cmds[k][j].Raw = cmds[k][j].String()
		}
	}
	return cmds, nil
}

// sortCommands puts builds first, then upgrades, then attacks (the order
// the inference assumes), keeping the order within each kind.
func sortCommands(c []Command) {
	rank := func(k CommandKind) int {
		switch k {
		case CmdBuild:
			return 0
		case CmdUpgrade:
			return 1
		}
		return 2
	}
	sort.SliceStable(c, func(i, j int) bool { return rank(c[i].Kind) < rank(c[j].Kind) })
}

// maxRemovedAlternatives bounds the assignments removedBuilds returns.
const maxRemovedAlternatives = 64

// removedBuilds returns the possible sets of buildings (new ones, and
// upgrades of standing ones) that players who lost their last Home this
// round placed on cells they kept: the lost-homes step removed them, and
// only the scan's counts and yields in next still show them. The reported
// building counts say how many new buildings of each type; the extra gold
// and energy sources say where (a GoldMine adds its cell's natural gold
// per level, an EnergyWell its natural energy); Fortresses, which yield
// nothing extra, go on the first empty cells left. Assignments come fewest
// upgrades first, at most maxRemovedAlternatives; the first is empty when
// no player lost its Home.
func removedBuilds(st *State, prev, next *Frame) []map[int]hiddenBuild {
	alts := []map[int]hiddenBuild{{}}
	n := len(st.users)
	for k := range next.Users {
		nu := &next.Users[k]
		if nu.UID < 1 || nu.UID > int64(n) {
			continue
		}
		opts := removedFor(st, prev, next, int(nu.UID), nu)
		if len(opts) == 0 {
			continue
		}
		var out []map[int]hiddenBuild
		for _, a := range alts {
			for _, o := range opts {
				m := maps.Clone(a)
				maps.Copy(m, o)
				out = append(out, m)
				if len(out) == maxRemovedAlternatives {
					break
				}
			}
			if len(out) == maxRemovedAlternatives {
				break
			}
		}
		alts = out
	}
	return alts
}

// removedFor lists removedBuilds' assignments for one player: new
// GoldMines and EnergyWells at any level its Home allowed, and upgrades of
// standing ones, whose extra yields sum to what next reports; new
// Fortresses on the first empty cells left; and Fortress upgrades (new or
// standing), which only gold shows, by the gold they cost — fewest
// upgrades first.
func removedFor(st *State, prev, next *Frame, uid int, nu *FrameUser) []map[int]hiddenBuild {
	u := &st.users[uid-1]
	if u.techLevel == 0 || nu.TechLevel != 0 || nu.CellNumber == 0 {
		return nil
	}
	top := min(3, u.techLevel)
	w, h := st.cfg.Width, st.cfg.Height
	var count [NumBuildings]int64
	var gs, es int64
	var empty, mines, wells, forts []int
	for x := 0; x < w; x++ {
		for y := 0; y < h; y++ {
			i := y*w + x
			a, b := &prev.Cells[i], &next.Cells[i]
			if b.Owner != int64(uid) {
				continue
			}
			if a.Owner != int64(uid) {
				gs += b.NaturalGold
				es += b.NaturalEnergy
				continue
			}
			c := &st.cells[i]
			count[c.building]++
			gs += int64(c.gold)
			es += int64(c.energy)
			switch {
			case c.building == BuildingNone:
				empty = append(empty, i)
			case c.building == GoldMine && int64(c.level) < top:
				mines = append(mines, i)
			case c.building == EnergyWell && int64(c.level) < top:
				wells = append(wells, i)
			case c.building == Fortress:
				forts = append(forts, i)
			}
		}
	}
	dGM := nu.Buildings[GoldMine] - count[GoldMine]
	dEW := nu.Buildings[EnergyWell] - count[EnergyWell]
	dF := nu.Buildings[Fortress] - count[Fortress]
	dGS, dES := nu.GoldSource-gs, nu.EnergySource-es
	if dGM < 0 || dEW < 0 || dF < 0 || dGM+dEW+dF > int64(len(empty)) {
		return nil
	}
	// choose lists the ways to place k new buildings of type b on empty
	// cells (not taken) at levels 1..top and upgrade standing ones (ups)
	// so that the extra yield (val per level) sums to want: fewest
	// upgrades first.
	type pick map[int]hiddenBuild
	choose := func(b Building, k, want int64, ups []int, val func(i int) int64, taken map[int]bool) []pick {
		var out []pick
		cur := pick{}
		perCost := map[int64]int{}
		var newCells func(j int, k, want, budget int64)
		var upCells func(j int, want, budget int64)
		upCells = func(j int, want, budget int64) {
			if len(out) >= maxRemovedAlternatives {
				return
			}
			if want == 0 {
				// Assignments that cost the same gold give the same frame
				// (the yields match by construction): a few of each, in
				// case a later type needs the cells one of them took.
				if g := goldOf(st, cur); budget == 0 && perCost[g] < 4 {
					perCost[g]++
					out = append(out, maps.Clone(cur))
				}
				return
			}
			if budget == 0 {
				return
			}
			for ; j < len(ups); j++ {
				i := ups[j]
				l := int64(st.cells[i].level)
				for to := l + 1; to <= top && to-l <= budget; to++ {
					if v := val(i) * (to - l); v <= want {
						cur[i] = hiddenBuild{b: b, level: to}
						upCells(j+1, want-v, budget-(to-l))
						delete(cur, i)
					}
				}
			}
		}
		newCells = func(j int, k, want, budget int64) {
			if len(out) >= maxRemovedAlternatives || want < 0 {
				return
			}
			if k == 0 {
				upCells(0, want, budget)
				return
			}
			for ; j < len(empty); j++ {
				i := empty[j]
				if taken[i] {
					continue
				}
				for l := int64(1); l <= top && l-1 <= budget; l++ {
					cur[i] = hiddenBuild{b: b, level: l}
					newCells(j+1, k-1, want-val(i)*l, budget-(l-1))
					delete(cur, i)
				}
			}
		}
		// budget: the upgrades, exactly; each depth finds new assignments.
		for budget := int64(0); budget <= 4 && len(out) < maxRemovedAlternatives; budget++ {
			newCells(0, k, want, budget)
		}
		return out
	}
	ng := func(i int) int64 { return int64(st.land[i].ng) }
	ne := func(i int) int64 { return int64(st.land[i].ne) }
	// Fortress upgrades: k1 from level 1 to 2 and k2 from 2 to 3, by the
	// gold they cost (fewest first; one assignment per sum).
	var ones, twos []int // standing Fortresses at level 1 and 2
	for _, i := range forts {
		switch st.cells[i].level {
		case 1:
			ones = append(ones, i)
		case 2:
			twos = append(twos, i)
		}
	}
	type fup struct{ k1, k2 int }
	var fups []fup
	seen := map[int64]bool{}
	for steps := 0; steps <= 4; steps++ {
		for k2 := 0; k2 <= steps; k2++ {
			k1 := steps - k2
			if top < 2 && steps > 0 || top < 3 && k2 > 0 {
				continue
			}
			g := int64(k1)*400 + int64(k2)*600
			if seen[g] || k1 > len(ones)+int(dF) || k2 > len(twos)+k1 {
				continue
			}
			seen[g] = true
			fups = append(fups, fup{k1, k2})
		}
	}
	var out []map[int]hiddenBuild
	gms := choose(GoldMine, dGM, dGS, mines, ng, nil)
	for _, f := range fups {
		seenGE := map[int64]bool{} // GoldMines and EnergyWells by their gold
		for _, g := range gms {
			taken := map[int]bool{}
			for i := range g {
				taken[i] = true
			}
			for _, e := range choose(EnergyWell, dEW, dES, wells, ne, taken) {
				m := maps.Clone(map[int]hiddenBuild(g))
				maps.Copy(m, map[int]hiddenBuild(e))
				gold := goldOf(st, m)
				if seenGE[gold] {
					continue // the same frame as one already listed
				}
				seenGE[gold] = true
				// New Fortresses on the first empty cells left, then the
				// upgrades: 1->2 on new ones first, then standing ones;
				// 2->3 on standing level-2 ones first, then raised ones.
				var level1, level2 []int
				left := dF
				for _, i := range empty {
					if left == 0 {
						break
					}
					if _, ok := m[i]; !ok {
						m[i] = hiddenBuild{b: Fortress, level: 1}
						level1 = append(level1, i)
						left--
					}
				}
				if left != 0 {
					continue
				}
				level1 = append(level1, ones...)
				for _, i := range level1[:f.k1] {
					m[i] = hiddenBuild{b: Fortress, level: 2}
				}
				level2 = append(append(level2, twos...), level1[:f.k1]...)
				for _, i := range level2[:f.k2] {
					m[i] = hiddenBuild{b: Fortress, level: 3}
				}
				out = append(out, m)
				if len(out) >= maxRemovedAlternatives {
					return sortByGold(st, out)
				}
			}
		}
	}
	return sortByGold(st, out)
}

// goldOf is the gold the builds and upgrades of an assignment cost.
func goldOf[M ~map[int]hiddenBuild](st *State, m M) int64 {
	var g int64
	for _, i := range slices.Sorted(maps.Keys(m)) {
		hb := m[i]
		c := &st.cells[i]
		from := int64(c.level)
		if c.building == BuildingNone {
			g += BuildCost(hb.b)
			from = 1
		}
		for l := from; l < hb.level; l++ {
			u, _ := UpgradeCost(hb.b, l)
			g += u
		}
	}
	return g
}

// sortByGold orders assignments by the gold they cost, cheapest (fewest
// upgrades) first, keeping the order of equals.
func sortByGold(st *State, out []map[int]hiddenBuild) []map[int]hiddenBuild {
	gold := make(map[int]int64, len(out))
	for k, m := range out {
		gold[k] = goldOf(st, m)
	}
	idx := make([]int, len(out))
	for k := range idx {
		idx[k] = k
	}
	sort.SliceStable(idx, func(a, b int) bool { return gold[idx[a]] < gold[idx[b]] })
	sorted := make([]map[int]hiddenBuild, len(out))
	for k, j := range idx {
		sorted[k] = out[j]
	}
	return sorted
}

// diffPlayed compares a played frame with the replay's, leaving out what
// the rules do not produce: the users' verified flag and ranking, which
// the server copies from its accounts.
func diffPlayed(want, got *Frame) *Divergence {
	got.CopyRatings(want)
	return Diff(want, got)
}
