package rules

import "strconv"

// AppendGamestate appends the gamestate message the reference sends
// every player at the start of the current turn (PROTOCOL-SKYPORT.md
// §5): players in turn order from the actor on, names only on turn 0,
// map.data[j][k] the tile codes. With observer set, each player also has
// "alive" (false once disconnected), as the observer's copy does. Keys
// are in a fixed order (the reference's is Java HashMap order, which
// clients must not depend on).
func (s *State) AppendGamestate(dst []byte, observer bool) []byte {
	dst = append(dst, `{"message":"gamestate","turn":`...)
	dst = strconv.AppendInt(dst, int64(s.turn), 10)
	dst = append(dst, `,"players":[`...)
	n := len(s.ring)
	for i := range n {
		if i > 0 {
			dst = append(dst, ',')
		}
		pl := &s.players[s.ring[(s.cur+i)%n]]
		dst = append(dst, `{"name":`...)
		dst = appendQuotedString(dst, pl.Name)
		if s.turn != 0 {
			dst = append(dst, `,"health":`...)
			dst = strconv.AppendInt(dst, int64(pl.Health), 10)
			dst = append(dst, `,"score":`...)
			dst = strconv.AppendInt(dst, int64(pl.Score), 10)
			dst = append(dst, `,"position":"`...)
			dst = appendPos(dst, pl.J, pl.K)
			dst = append(dst, `","primary-weapon":{"name":"`...)
			dst = append(dst, pl.Primary.String()...)
			dst = append(dst, `","level":`...)
			dst = strconv.AppendInt(dst, int64(pl.PrimaryLevel), 10)
			dst = append(dst, `},"secondary-weapon":{"name":"`...)
			dst = append(dst, pl.Secondary.String()...)
			dst = append(dst, `","level":`...)
			dst = strconv.AppendInt(dst, int64(pl.SecondaryLevel), 10)
			dst = append(dst, '}')
		}
		if observer {
			dst = append(dst, `,"alive":`...)
			dst = strconv.AppendBool(dst, pl.Connected)
		}
		dst = append(dst, '}')
	}
	dst = append(dst, `],"map":{"j-length":`...)
	dst = strconv.AppendInt(dst, int64(s.d), 10)
	dst = append(dst, `,"k-length":`...)
	dst = strconv.AppendInt(dst, int64(s.d), 10)
	dst = append(dst, `,"data":[`...)
	for j := 0; j < s.d; j++ {
		if j > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '[')
		for k := 0; k < s.d; k++ {
			if k > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, '"', s.tiles[j*s.d+k], '"')
		}
		dst = append(dst, ']')
	}
	return append(dst, "]}}"...)
}

// appendPos appends "j, k", the reference's position text.
func appendPos(dst []byte, j, k int) []byte {
	dst = strconv.AppendInt(dst, int64(j), 10)
	dst = append(dst, ", "...)
	return strconv.AppendInt(dst, int64(k), 10)
}

func appendQuotedString(dst []byte, s string) []byte {
	u := make([]uint16, 0, len(s))
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			u = append(u, uint16(0xd800+(r>>10)), uint16(0xdc00+(r&0x3ff)))
		} else {
			u = append(u, uint16(r))
		}
	}
	return appendQuoted(dst, u)
}

// AppendBroadcast appends the message the reference sends everyone for
// line i of the last player-turn if it was accepted (GameThread.java:
// 202-223): the object the actor sent, every member, plus "from" (the
// actor's name, replacing any "from" it sent); a laser also gets "start"
// and "stop" ("j, k"), a droid's "sequence" is cut to the steps taken.
// It returns dst unchanged for a line that was not accepted.
func (s *State) AppendBroadcast(dst []byte, i int) []byte {
	l := &s.log
	if i < 0 || i >= len(l.Lines) || l.Lines[i].Status != Accepted || l.Loadout {
		return dst
	}
	f := &l.Lines[i]
	jp := &s.jp
	obj := f.obj
	t := jp.get(obj, "type")
	laser := jp.strEq(t, "laser")
	droid := jp.strEq(t, "droid")
	dst = append(dst, '{')
	first := true
	sep := func() {
		if !first {
			dst = append(dst, ',')
		}
		first = false
	}
	for c := jp.nodes[obj].first; c >= 0; c = jp.nodes[c].next {
		key := jp.str[jp.nodes[c].ks:jp.nodes[c].ke]
		if unitsEqString(key, "from") || (laser && (unitsEqString(key, "start") || unitsEqString(key, "stop"))) {
			continue
		}
		sep()
		dst = appendQuoted(dst, key)
		dst = append(dst, ':')
		if droid && unitsEqString(key, "sequence") {
			dst = append(dst, '[')
			n := 0
			for e := jp.nodes[c].first; e >= 0 && n < f.droidLen; e = jp.nodes[e].next {
				if n > 0 {
					dst = append(dst, ',')
				}
				dst = jp.appendJSON(dst, e)
				n++
			}
			dst = append(dst, ']')
			continue
		}
		dst = jp.appendJSON(dst, c)
	}
	sep()
	dst = append(dst, `"from":`...)
	dst = appendQuotedString(dst, s.players[l.Actor].Name)
	if laser {
		dst = append(dst, `,"start":"`...)
		dst = appendPos(dst, f.startJ, f.startK)
		dst = append(dst, `","stop":"`...)
		dst = appendPos(dst, f.stopJ, f.stopK)
		dst = append(dst, '"')
	}
	return append(dst, '}')
}
