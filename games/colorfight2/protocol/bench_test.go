package protocol

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	bot "github.com/rewind-game/rewind/games/colorfight2/bots"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// midGame plays 8 built-in bots for 150 rounds and returns the frame.
func midGame(tb testing.TB) *colorfight2.Frame {
	names := bot.BuiltinNames()
	var seats []bot.Bot
	var players []string
	for i := 0; i < 8; i++ {
		b, _ := bot.Builtin(names[i%len(names)])
		b.Start(i+1, uint64(i))
		seats = append(seats, b)
		players = append(players, fmt.Sprintf("p%d", i+1))
	}
	st, err := colorfight2.NewFromSeed(colorfight2.DefaultConfig(), 42, players)
	if err != nil {
		tb.Fatal(err)
	}
	st.Step(nil)
	var f colorfight2.Frame
	cmds := make([][]colorfight2.Command, 8)
	for st.Turn() < 150 {
		st.Frame(&f)
		for i, b := range seats {
			list, _ := b.Commands(&f)
			cmds[i] = colorfight2.AppendParsed(cmds[i][:0], list)
		}
		st.Step(cmds)
	}
	st.Frame(&f)
	return &f
}

// BenchmarkRoundBroadcast measures the server's work per round: encoding
// the state message of a mid-game 8-player frame and handing it to 8
// players and 8 spectators (16 game_channel sockets). "enqueue" is what
// the round path costs (the writes happen on each socket's goroutine);
// "delivered" waits until all 16 clients have read the message.
func BenchmarkRoundBroadcast(b *testing.B) {
	f := midGame(b)
	for _, mode := range []string{"enqueue", "delivered"} {
		b.Run(mode, func(b *testing.B) {
			ts := newTestServer(b, Options{})
			ts.createRoom("r", lockstep(500))
			r := ts.s.room("r")
			var got atomic.Int64
			var wg sync.WaitGroup
			ctx, cancel := context.WithCancel(context.Background())
			for i := 0; i < 16; i++ {
				c := ts.dial("r", "game_channel")
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						if _, _, err := c.Read(ctx); err != nil {
							return
						}
						got.Add(1)
					}
				}()
			}
			for got.Load() < 16 {
				time.Sleep(time.Millisecond)
			}
			r.mu.Lock()
			g := r.g
			g.frame.CopyFrom(f)
			g.errJSON = []byte(`{"1":[],"2":[],"3":[],"4":[],"5":[],"6":[],"7":[],"8":[]}`)
			r.mu.Unlock()
			times := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				want := got.Load() + 16
				t0 := time.Now()
				r.mu.Lock()
				g.frame.Turn = 150 + i%300
				r.publishLocked(nil)
				n := len(r.msg)
				r.mu.Unlock()
				if mode == "enqueue" {
					times = append(times, time.Since(t0))
				}
				// wait for the 16 clients, as the next round would
				for got.Load() < want {
					time.Sleep(20 * time.Microsecond)
				}
				if mode == "delivered" {
					times = append(times, time.Since(t0))
				}
				if i == 0 {
					b.ReportMetric(float64(n), "msg-bytes")
				}
			}
			b.StopTimer()
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds()), "median-µs/round")
			cancel()
			ts.s.Close()
			wg.Wait()
		})
	}
}

// BenchmarkLockstep8Bots plays lock-step games of 200 rounds between 8
// websocket clients, each running a built-in bot on the frames it reads
// from its game_channel, and reports rounds per second.
func BenchmarkLockstep8Bots(b *testing.B) {
	ts := newTestServer(b, Options{MaxConnsPerIP: 1000})
	rounds := 0
	start := time.Now()
	for i := 0; i < b.N; i++ {
		id := "r" + strconv.Itoa(i)
		ts.createRoom(id, lockstep(200))
		var wg sync.WaitGroup
		ready := make(chan struct{}, 8)
		names := bot.BuiltinNames()
		for k := 0; k < 8; k++ {
			gc := ts.dial(id, "game_channel")
			a := ts.action(id)
			uid := a.register(fmt.Sprintf("bot%d", k), "p")
			bt, _ := bot.Builtin(names[k%len(names)])
			bt.Start(uid, uint64(k))
			wg.Add(1)
			go func() {
				defer wg.Done()
				ready <- struct{}{}
				if err := playClient(gc, a.c, bt); err != nil {
					b.Error(err)
				}
				gc.CloseNow()
				a.c.CloseNow()
			}()
		}
		for k := 0; k < 8; k++ {
			<-ready
		}
		ts.start(id)
		wg.Wait()
		rounds += 200
		ts.mustPost("/deletegameroom", map[string]any{"gameroom_id": id, "admin_password": "pw"})
	}
	b.ReportMetric(float64(rounds)/time.Since(start).Seconds(), "rounds/s")
}

// playClient is an official-style client loop: read the state, answer
// each new turn with the bot's commands, until the last turn.
func playClient(gc, ac *websocket.Conn, bt bot.Bot) error {
	ctx := context.Background()
	last := 0
	for {
		_, msg, err := gc.Read(ctx)
		if err != nil {
			return err
		}
		var head struct {
			Turn int
			Info struct{ MaxTurn int }
		}
		// turn and max_turn lead the message: read them without decoding
		// the whole message twice
		head.Turn, head.Info.MaxTurn = leadingInt(msg, `{"turn":`), leadingInt(msg, `"max_turn":`)
		if head.Turn >= head.Info.MaxTurn && head.Info.MaxTurn > 0 {
			return nil
		}
		if head.Turn == 0 || head.Turn == last {
			continue
		}
		last = head.Turn
		f, err := frameOf(msg, head.Turn)
		if err != nil {
			return err
		}
		cmds, _ := bt.Commands(f)
		if cmds == nil {
			cmds = []string{}
		}
		out, _ := json.Marshal(map[string]any{"action": "command", "cmd_list": cmds})
		if err := ac.Write(ctx, websocket.MessageText, out); err != nil {
			return err
		}
		if _, _, err := ac.Read(ctx); err != nil {
			return err
		}
	}
}

func frameOf(msg []byte, turn int) (*colorfight2.Frame, error) {
	prefix := `{"turn":` + strconv.Itoa(turn) + `,`
	doc := append([]byte(`[{"turn":0,`), msg[len(prefix):]...)
	doc = append(doc, ']')
	d, err := cfr.NewDecoder(bytes.NewReader(doc))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	var f colorfight2.Frame
	if err := d.Next(&f); err != nil {
		return nil, err
	}
	f.Turn = turn
	return &f, nil
}

// leadingInt returns the integer after the first occurrence of key.
func leadingInt(msg []byte, key string) int {
	i := bytes.Index(msg, []byte(key))
	if i < 0 {
		return 0
	}
	n := 0
	for _, c := range msg[i+len(key):] {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}
