package rules

// Handshake checks one handshake attempt as the reference does
// (AIConnection.java:120-138, Util.java:12-23): on success it returns the
// player's name; otherwise the error text the reference sends (empty
// when the line would kill the reader thread, which sends nothing).
func Handshake(line string) (name, errText string, ok bool) {
	var p jparser
	obj := p.parseObject(line)
	switch p.failed {
	case parseSyntax:
		return "", "Invalid packet received: " + string(p.errText), false
	case parseReaderDies:
		return "", "", false
	}
	m := p.get(obj, "message")
	if m < 0 {
		return "", `Invalid or incomplete packet: JSONObject["message"] not found.`, false
	}
	if !p.strEq(m, "connect") {
		return "", "Expected 'connect' handshake, but got '" + string(p.appendJava(nil, m)) + "' key", false
	}
	r := p.get(obj, "revision")
	if r < 0 {
		return "", `Invalid or incomplete packet: JSONObject["revision"] not found.`, false
	}
	rev, ok := p.javaIntValue(r)
	if !ok {
		return "", `Invalid or incomplete packet: JSONObject["revision"] is not an int.`, false
	}
	if rev != 1 {
		return "", "Wrong protocol revision: supporting 1, but got " + itoa(int(rev)), false
	}
	n := p.get(obj, "name")
	if n < 0 {
		return "", `Invalid or incomplete packet: JSONObject["name"] not found.`, false
	}
	if !p.isString(n) {
		return "", `Invalid or incomplete packet: JSONObject["name"] not a string.`, false
	}
	u := p.strUnits(n)
	switch {
	case len(u) < 3:
		return "", "Username too short: needs to be 3 characters or longer.", false
	case len(u) > 16:
		return "", "Username too long: needs to be 16 characters or less.", false
	}
	for _, c := range u {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '+') {
			return "", "Username contains invalid characters. May only contain a-z, A-Z, 0-9, -, _, +.", false
		}
	}
	return string(appendUnits(nil, u)), "", true
}

// ValidName reports whether name passes the reference's username check
// (3 to 16 characters from a-z A-Z 0-9 - _ +).
func ValidName(name string) bool {
	if len(name) < 3 || len(name) > 16 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '+') {
			return false
		}
	}
	return true
}

func itoa(v int) string {
	var b [24]byte
	i := len(b)
	neg := v < 0
	u := uint64(v)
	if neg {
		u = uint64(-v)
	}
	for {
		i--
		b[i] = byte('0' + u%10)
		u /= 10
		if u == 0 {
			break
		}
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// OffTurnLine reads a line player p sent while it was not its turn
// (RULES §4 step 3: it goes to p's inbox, which is emptied when p's turn
// begins): nothing of it is ever performed, but it draws the same errors,
// and a line that kills the reader makes p deaf. It reports whether the
// line was queued; its errors are Log().Errors(0, …). It replaces the
// turn log.
func (s *State) OffTurnLine(p int, line string) (queued bool) {
	s.jp.reset()
	s.log.reset(s.turn, p)
	s.newLine(LineFate{Status: NotQueued, Slot: -1})
	if p < 0 || p >= len(s.players) || s.players[p].Deaf || !s.players[p].Connected {
		s.fate().Status = NotRead
		return false
	}
	if !s.players[p].Loaded {
		return s.loadoutLine(p, line)
	}
	return s.actionLine(p, line) >= 0
}
