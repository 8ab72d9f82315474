package rules

// Hash is a platform-independent hash of everything that decides the
// game's future: FNV-1a (64-bit) over this byte encoding, every integer
// as 8 bytes little-endian two's complement, every bool as one byte 0/1:
//
//	"skyport/1"
//	D, then the D*D current tile codes (one byte each), then the D*D
//	units left (one byte each)
//	number of players, then per player in connection order: the name's
//	length and bytes, health, score, J, K, SpawnJ, SpawnK, primary and
//	secondary weapon (one byte each: 0 none, 1 laser, 2 mortar, 3 droid),
//	their levels, rubidium, explosium, scrap, then the bools
//	HasToPass, NeedsRespawn, Connected, Loaded, Deaf and a pending
//	timeout fault
//	the ring (one byte per player number), the cursor, the turn number,
//	turns played, the turn limit, the next loadout player, and the bool
//	"ring advance pending"
//
// Statistics and the last turn's log are not included.
func (s *State) Hash() uint64 {
	h := fnv{v: 14695981039346656037}
	h.bytes([]byte("skyport/1"))
	h.int(s.d)
	h.bytes(s.tiles)
	h.bytes(s.units)
	h.int(len(s.players))
	for i := range s.players {
		p := &s.players[i]
		h.int(len(p.Name))
		h.str(p.Name)
		for _, v := range [...]int{p.Health, p.Score, p.J, p.K, p.SpawnJ, p.SpawnK} {
			h.int(v)
		}
		h.byte(byte(p.Primary))
		h.byte(byte(p.Secondary))
		for _, v := range [...]int{p.PrimaryLevel, p.SecondaryLevel, p.Rubidium, p.Explosium, p.Scrap} {
			h.int(v)
		}
		for _, b := range [...]bool{p.HasToPass, p.NeedsRespawn, p.Connected, p.Loaded, p.Deaf, s.timedOut[i]} {
			h.bool(b)
		}
	}
	for _, r := range s.ring {
		h.byte(byte(r))
	}
	for _, v := range [...]int{s.cur, s.turn, s.played, s.maxTurns, s.loadout} {
		h.int(v)
	}
	h.bool(s.pending)
	return h.v
}

type fnv struct{ v uint64 }

const fnvPrime = 1099511628211

func (h *fnv) byte(b byte) { h.v = (h.v ^ uint64(b)) * fnvPrime }

func (h *fnv) bytes(b []byte) {
	for _, c := range b {
		h.byte(c)
	}
}

func (h *fnv) str(s string) {
	for i := 0; i < len(s); i++ {
		h.byte(s[i])
	}
}

func (h *fnv) int(v int) {
	u := uint64(int64(v))
	for i := 0; i < 8; i++ {
		h.byte(byte(u >> (8 * i)))
	}
}

func (h *fnv) bool(b bool) {
	if b {
		h.byte(1)
	} else {
		h.byte(0)
	}
}

// TimeOut marks player p as not answering its next turn in time (or its
// next loadout round): the lines of that round are not read, as the
// reference drops lines that arrive after the think time.
func (s *State) TimeOut(p int) {
	if p >= 0 && p < len(s.timedOut) {
		s.timedOut[p] = true
	}
}
