package rules

import "strconv"

// Endpoint is one of the reference's request handlers.
type Endpoint uint8

// Endpoints (RULES §2–§10).
const (
	JoinGame Endpoint = iota + 1
	Attack
	BuildBase
	Blast
	MultiAttack
	CheckToken
	StartGame
)

var endpointPaths = [...]string{"", "/joingame", "/attack", "/buildbase", "/blast", "/multiattack", "/checktoken", "/startgame"}

// String is the endpoint's path.
func (e Endpoint) String() string {
	if int(e) < len(endpointPaths) && e > 0 {
		return endpointPaths[e]
	}
	return "endpoint(" + strconv.Itoa(int(e)) + ")"
}

// EndpointOf returns the endpoint whose path is path.
func EndpointOf(path string) (Endpoint, bool) {
	for e, p := range endpointPaths {
		if e > 0 && p == path {
			return Endpoint(e), true
		}
	}
	return 0, false
}

// required are the fields each endpoint's require decorator checks, in
// its order.
var required = [...][]Field{
	JoinGame:    {FieldName},
	Attack:      {FieldCellX, FieldCellY, FieldToken},
	BuildBase:   {FieldCellX, FieldCellY, FieldToken},
	Blast:       {FieldCellX, FieldCellY, FieldToken, FieldDirection},
	MultiAttack: {FieldCellX, FieldCellY, FieldToken},
	CheckToken:  {FieldToken},
	StartGame:   {FieldAdminPassword, FieldLastTime, FieldJoinTime},
}

// Shape is the form of an answer.
type Shape uint8

// Answer shapes.
const (
	// ShapeErr is {"err_code": Code} (Code 0) or {"err_code", "err_msg"}.
	ShapeErr Shape = iota
	// ShapeMsg is {"msg": Msg}.
	ShapeMsg
	// ShapeArgs is {"code": 400, "msg": Msg}.
	ShapeArgs
	// ShapeToken is a join's {"token": Token, "uid": UID}.
	ShapeToken
	// ShapeName is /checktoken's {"name": Name, "uid": UID}.
	ShapeName
	// ShapeBadJSON is Flask's HTML page for a JSON body that does not
	// parse (not JSON; Msg says what).
	ShapeBadJSON
)

// Response is what the reference answers a request: its HTTP status and
// its JSON object.
type Response struct {
	Status int
	Shape  Shape
	Code   int
	Msg    string
	Token  string
	Name   string
	UID    int
}

// Error texts (RULES §10).
const (
	msgInvalidPosition = "Invalid cell position"
	msgNotAdjacent     = "Cell position invalid or it's not adjacent to your cell."
	msgInvalidCell     = "Invalid cell"
	msgInvalidDir      = "Invalid direction"
	msgBeingTaken      = "This cell is being taken."
	msgCD              = "You are in CD time!"
	msgEnded           = "Game is ended"
	msgJoinEnded       = "Join time is ended"
	msgBoostEnergy     = "You don't have enough energy"
	msgBlastEnergy     = "Not enough energy!"
	msgGold            = "Not enough gold!"
	msgAlreadyBase     = "This cell is already a base."
	msgBuildCD         = "You are in building cd"
	msgBaseLimit       = "You have reached the base number limit"
	msgNoCell          = "No cell available to start"
	msgPassword        = "You need password to enter the room"
	msgInvalidPlayer   = "Invalid player"
)

func errResp(code int, msg string) Response {
	return Response{Status: 200, Shape: ShapeErr, Code: code, Msg: msg}
}

var ok = Response{Status: 200, Shape: ShapeErr}

// AppendJSON appends the answer's JSON object, keys sorted, no spaces
// (the canonical form of the vectors); a ShapeBadJSON answer appends
// {"msg": Msg}.
func (r *Response) AppendJSON(dst []byte) []byte {
	switch r.Shape {
	case ShapeErr:
		dst = append(dst, `{"err_code":`...)
		dst = strconv.AppendInt(dst, int64(r.Code), 10)
		if r.Code != 0 {
			dst = append(dst, `,"err_msg":`...)
			dst = AppendString(dst, r.Msg)
		}
	case ShapeArgs:
		dst = append(dst, `{"code":400,"msg":`...)
		dst = AppendString(dst, r.Msg)
	case ShapeToken:
		dst = append(dst, `{"token":`...)
		dst = AppendString(dst, r.Token)
		dst = append(dst, `,"uid":`...)
		dst = strconv.AppendInt(dst, int64(r.UID), 10)
	case ShapeName:
		dst = append(dst, `{"name":`...)
		dst = AppendString(dst, r.Name)
		dst = append(dst, `,"uid":`...)
		dst = strconv.AppendInt(dst, int64(r.UID), 10)
	default:
		dst = append(dst, `{"msg":`...)
		dst = AppendString(dst, r.Msg)
	}
	return append(dst, '}')
}

// Failed reports whether the request was refused (an error code, a
// status other than 200, or a /startgame or /checktoken "Fail").
func (r *Response) Failed() bool {
	return r.Status != 200 || r.Shape == ShapeErr && r.Code != 0 || r.Shape == ShapeMsg && r.Msg == "Fail"
}

// Request is one request to an endpoint.
type Request struct {
	Endpoint Endpoint
	Body     *Body
	// Token and Spawn are what a successful /joingame gives the new
	// player: its token (the reference's is random; the caller's choice
	// here, never "") and the id of the cell it starts on (the
	// reference's is a random free cell: SpawnCells), −1 when there is
	// none (err 10).
	Token string
	Spawn int
	// BadJSON, when set, is why the body did not parse (ParseBody's
	// error): the request is answered Flask's 400 page.
	BadJSON error
}

// Do applies request r at the current tick and returns the answer.
func (s *State) Do(r Request) Response {
	if r.BadJSON != nil {
		return Response{Status: 400, Shape: ShapeBadJSON, Msg: r.BadJSON.Error()}
	}
	if r.Endpoint == 0 || int(r.Endpoint) >= len(required) {
		return Response{Status: 404, Shape: ShapeMsg, Msg: "Not Found"}
	}
	b := r.Body
	if b == nil {
		b = &Body{}
	}
	if !b.JSON {
		return Response{Status: 400, Shape: ShapeMsg, Msg: "No json!"}
	}
	for _, f := range required[r.Endpoint] {
		if !b.Has(f) {
			return Response{Status: 400, Shape: ShapeArgs, Msg: "wrong args! need " + f.String()}
		}
	}
	switch r.Endpoint {
	case JoinGame:
		return s.join(b, r.Token, r.Spawn)
	case CheckToken:
		if u := s.tokenUser(b); u != nil {
			return Response{Status: 200, Shape: ShapeName, Name: u.Name, UID: u.ID}
		}
		return Response{Status: 400, Shape: ShapeMsg, Msg: "Fail"}
	case StartGame:
		return s.startGame(b)
	}
	// The action decorator: the end of the game, then the map's bounds.
	if s.Ended() {
		return errResp(4, msgEnded)
	}
	x, y, in := b.Cell()
	if !in {
		return errResp(1, msgInvalidPosition)
	}
	u := s.tokenUser(b)
	if u == nil {
		return errResp(21, msgInvalidPlayer)
	}
	switch r.Endpoint {
	case Attack:
		return s.attack(u, x, y, b.IsTrue(FieldBoost))
	case BuildBase:
		return s.buildBase(u, x, y)
	case Blast:
		return s.blast(u, x, y, b)
	default:
		return s.multiattack(u, x, y)
	}
}

// tokenUser is the user the body's token names: the lowest-id row with
// that token; nil for a token that is not a string.
func (s *State) tokenUser(b *Body) *User {
	tok, isStr := b.String(FieldToken)
	if !isStr {
		return nil
	}
	return s.byToken(tok)
}

// startGame is /startgame (RULES §2): a wrong password fails; the right
// one restarts the game at now on the same map.
func (s *State) startGame(b *Body) Response {
	pw, isStr := b.String(FieldAdminPassword)
	if s.admin == nil || !isStr || pw != *s.admin {
		return Response{Status: 200, Shape: ShapeMsg, Msg: "Fail"}
	}
	last, _ := b.Number(FieldLastTime)
	join, _ := b.Number(FieldJoinTime)
	s.start(last, join, b.IsTrue(FieldAIOnly))
	s.recount()
	return Response{Status: 200, Shape: ShapeMsg, Msg: "Success"}
}

// SpawnCells appends the cells a join may start on (RULES §3 step 5):
// every cell neither owned nor being taken, or, when there is none,
// every cell not being taken; in ascending id.
func (s *State) SpawnCells(dst []int) []int {
	n := len(dst)
	for id := range s.Cells {
		if c := &s.Cells[id]; !c.IsTaking && c.Owner == 0 {
			dst = append(dst, id)
		}
	}
	if len(dst) > n {
		return dst
	}
	for id := range s.Cells {
		if !s.Cells[id].IsTaking {
			dst = append(dst, id)
		}
	}
	return dst
}

// join is /joingame (RULES §3).
func (s *State) join(b *Body, token string, spawn int) Response {
	now := s.Now()
	if s.Info.EndTime != 0 && now > s.Info.EndTime {
		return errResp(4, msgEnded)
	}
	if s.Info.JoinEndTime != 0 && now > s.Info.JoinEndTime {
		return errResp(4, msgJoinEnded)
	}
	name, isStr := b.String(FieldName)
	if !isStr {
		name = string(b.Raw(FieldName))
	}
	uid, at := 1, 0
	for at < len(s.Users) && s.Users[at].ID == uid {
		uid++
		at++
	}
	s.Users = append(s.Users, User{})
	copy(s.Users[at+1:], s.Users[at:])
	s.Users[at] = User{ID: uid, Name: name, Token: token, Gold: 30, Cells: 1, Bases: 1}
	if spawn < 0 || spawn >= NumCells {
		return errResp(10, msgNoCell)
	}
	// Cell.Init(uid, now)
	c := &s.Cells[spawn]
	s.setOwner(spawn, int32(uid))
	c.Attacker = int32(uid)
	s.setTaking(spawn, true)
	c.AttackTime, c.FinishTime = now, now
	if !c.Base || !c.BuildFinish {
		s.setBase(spawn, true, true)
	}
	c.BuildTime = 0
	s.events = append(s.events, Event{Kind: EventJoin, UID: int32(uid), Cell: spawn})
	return Response{Status: 200, Shape: ShapeToken, Token: token, UID: uid}
}

// attack is /attack after the decorator and the token (RULES §5).
func (s *State) attack(u *User, x, y int, boost bool) Response {
	now := s.Now()
	if u.CDTime > now {
		return errResp(3, msgCD)
	}
	id := x + Width*y
	c := &s.Cells[id]
	if c.IsTaking {
		return errResp(2, msgBeingTaken)
	}
	adj := s.adjacency(x, y, int32(u.ID))
	if c.Owner != int32(u.ID) && adj == 0 {
		return errResp(1, msgNotAdjacent)
	}
	if boost && u.Energy < boostEnergy {
		return errResp(5, msgBoostEnergy)
	}
	s.attackCell(u, id, adj, boost, now)
	return ok
}

// attackCell is Cell.Attack's effect once its checks passed.
func (s *State) attackCell(u *User, id, adj int, boost bool, now float64) {
	c := &s.Cells[id]
	t0 := s.TakeTime(c, now)
	f := min(1, 1-float64(0.25*float64(adj-1)))
	take := float64(t0*f) / (1 + u.Energy/200.0)
	if boost {
		u.Energy -= boostEnergy
		take = max(1, float64(take*0.25))
	} else if u.Energy > 0 && c.Owner != 0 && c.Owner != int32(u.ID) {
		u.Energy = float64(u.Energy * 0.95)
	}
	c.Attacker = int32(u.ID)
	c.AttackTime = now
	c.FinishTime = now + take
	s.setTaking(id, true)
	c.LastUpdate = now
	c.Blast = false
	u.CDTime = max(u.CDTime, c.FinishTime)
}

// buildBase is /buildbase after the decorator and the token (RULES §6).
func (s *State) buildBase(u *User, x, y int) Response {
	now := s.Now()
	if u.Gold < baseGold {
		return errResp(5, msgGold)
	}
	if u.BuildCDTime > now {
		return errResp(7, msgBuildCD)
	}
	if s.counts(int32(u.ID)).allBases >= maxBases {
		return errResp(8, msgBaseLimit)
	}
	id := x + Width*y
	c := &s.Cells[id]
	if c.Owner != int32(u.ID) {
		return errResp(1, msgInvalidCell)
	}
	if c.IsTaking {
		return errResp(2, msgBeingTaken)
	}
	if c.Base {
		return errResp(6, msgAlreadyBase)
	}
	u.Gold -= baseGold
	u.BuildCDTime = now + buildSeconds
	s.setBase(id, true, false)
	c.BuildTime = now
	s.events = append(s.events, Event{Kind: EventBuild, UID: int32(u.ID), Cell: id})
	return ok
}

// blast is /blast after the decorator and the token (RULES §7).
func (s *State) blast(u *User, x, y int, b *Body) Response {
	now := s.Now()
	uid := int32(u.ID)
	if s.Cells[x+Width*y].Owner != uid {
		return errResp(1, msgInvalidCell)
	}
	dir, _ := b.String(FieldDirection)
	var area []direction
	switch dir {
	case "square":
		area = squareArea[:]
	case "vertical":
		area = verticalArea[:]
	case "horizontal":
		area = horizontalArea[:]
	default:
		return errResp(1, msgInvalidDir)
	}
	if u.CDTime > now {
		return errResp(3, msgCD)
	}
	if u.Energy < blastEnergy {
		return errResp(5, msgBlastEnergy)
	}
	u.Energy -= blastEnergy
	hit := 0
	for _, d := range area {
		cx, cy := x+d.dx, y+d.dy
		if !inMap(cx, cy) {
			continue
		}
		id := cx + Width*cy
		c := &s.Cells[id]
		if c.Owner != uid || c.IsTaking && c.Attacker != uid {
			c.Attacker = 0
			c.AttackTime = now
			c.FinishTime = now + 1
			c.Blast = true
			s.setTaking(id, true)
			hit++
		}
	}
	u.CDTime = now + 1
	s.events = append(s.events, Event{Kind: EventBlast, UID: uid, Cell: x + Width*y, Other: int32(hit)})
	return ok
}

// The blast areas without their centre.
var squareArea, verticalArea, horizontalArea = func() (sq [8]direction, v, h [8]direction) {
	i := 0
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			if dx != 0 || dy != 0 {
				sq[i] = direction{dx, dy}
				i++
			}
		}
	}
	i = 0
	for d := -4; d <= 4; d++ {
		if d != 0 {
			v[i], h[i] = direction{0, d}, direction{d, 0}
			i++
		}
	}
	return sq, v, h
}()

// multiattackOrder is the neighbours in ascending id: up, left, right,
// down.
var multiattackOrder = [4]direction{{0, -1}, {-1, 0}, {1, 0}, {0, 1}}

// multiattack is /multiattack after the decorator and the token (RULES
// §8).
func (s *State) multiattack(u *User, x, y int) Response {
	now := s.Now()
	if u.CDTime > now {
		return errResp(3, msgCD)
	}
	if u.Gold < multiattackGold {
		return errResp(5, msgGold)
	}
	uid := int32(u.ID)
	var adj [4]int
	for i, d := range multiattackOrder {
		if nx, ny := x+d.dx, y+d.dy; inMap(nx, ny) {
			adj[i] = s.adjacency(nx, ny, uid)
		}
	}
	attacked := 0
	for i, d := range multiattackOrder {
		nx, ny := x+d.dx, y+d.dy
		if !inMap(nx, ny) {
			continue
		}
		id := nx + Width*ny
		c := &s.Cells[id]
		if c.IsTaking || c.Owner != uid && adj[i] == 0 {
			continue
		}
		s.attackCell(u, id, adj[i], false, now)
		attacked++
	}
	u.Gold -= multiattackGold
	s.events = append(s.events, Event{Kind: EventMultiattack, UID: uid, Cell: x + Width*y, Other: int32(attacked)})
	return ok
}
