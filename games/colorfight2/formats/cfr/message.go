package cfr

import (
	"encoding/json"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// AppendStateMessage appends to b the official server's full-state
// message for frame f — what its game_channel websocket sends:
//
//	{"turn":T,"info":INFO,"chat":CHAT,"error":ERROR,
//	 "game_map":{"data":[[cell,...] per row],"headers":[...]},
//	 "users":{"<uid>":{...,"cell_number":N,"cells":[[x,y],...]},...}}
//
// It is element 0's layout of a .cfr (the same cell and user writers,
// key order and string escaping) with the frame's turn, and every user's
// "cells" list computed from the frame's owners in the reference's scan
// order (x outer, y inner). Users come in the frame's order. info, chat
// and errs are written verbatim (nil meaning {}, [] and {}); the caller
// must pass valid JSON. Separators are compact: clients parse the message
// as JSON, and it is about a fifth smaller than json.dumps's spaced form.
// f must be a frame WriteFrame would accept.
func AppendStateMessage(b []byte, f *colorfight2.Frame, info, chat, errs json.RawMessage) []byte {
	raw := func(v json.RawMessage, def string) []byte {
		if v == nil {
			return []byte(def)
		}
		return v
	}
	e := Encoder{cells: make(map[int64][][2]int64, len(f.Users))}
	for i := range f.Users {
		e.cells[f.Users[i].UID] = [][2]int64{}
	}
	for x := 0; x < f.Width; x++ {
		for y := 0; y < f.Height; y++ {
			o := f.Cells[y*f.Width+x].Owner
			if o == 0 {
				continue
			}
			if l, ok := e.cells[o]; ok {
				e.cells[o] = append(l, [2]int64{int64(x), int64(y)})
			}
		}
	}
	return e.appendFull(b, f, f.Turn, raw(info, "{}"), raw(chat, "[]"), raw(errs, "{}"))
}
