package protocol

import (
	"bufio"
	"errors"
	"github.com/rewind-game/rewind/internal/rooms"
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Bounds on what one connection may cost (docs/limits.md, "rewind server
// --game skyport").
const (
	// MaxLine is the longest line read from a client, terminator
	// excluded. A longer line is skipped to its end and answered
	// "Invalid packet received: line longer than 65536 bytes"; it is
	// never buffered whole.
	MaxLine = 64 << 10
	// MaxQueued is how many bytes may wait to be written to one client
	// (some 25 gamestates of the largest map, thousands of the usual
	// ones); a client that reads so slowly that more pile up is
	// disconnected.
	MaxQueued = 1 << 20
	// WriteTimeout bounds one write to a client; a client that does not
	// take a message in that time is disconnected.
	WriteTimeout = 10 * time.Second
	// HandshakeTimeout is how long a connection may stay open without a
	// valid handshake (the reference waits forever; a bot sends its
	// handshake as it connects).
	HandshakeTimeout = 10 * time.Second
	// MaxConns bounds the open connections of both ports together;
	// beyond it the oldest connection without a handshake is closed to
	// make room, and with none a connection is refused.
	MaxConns = 256
)

// conn is one client connection (either port). The hub owns its game
// state; the reader and writer goroutines only move bytes.
type conn struct {
	c        net.Conn
	observer bool // accepted on the observer port
	ip       string
	order    uint64 // accept order, from 1: the oldest silent one makes room first

	// greeted: the connection has handshaken (set by the hub, read by
	// the acceptor choosing a connection to close).
	greeted  atomic.Bool
	released sync.Once // its rooms.Clients count given back

	out    chan []byte
	queued atomic.Int64
	// readTimeout, when non-zero, is the read deadline of each line
	// (HandshakeTimeout before the handshake).
	readTimeout atomic.Int64
	closeOnce   sync.Once
	done        chan struct{}
	finishOnce  sync.Once
	finishing   chan struct{}

	// Owned by the hub goroutine.
	role   role
	name   string
	deaf   bool     // a line killed the reference's reader: nothing more is read
	lobby  []string // lines sent after the handshake, before a game seated it
	seat   int      // player number in the hub's game (roleSeated)
	gone   bool     // the hub has seen it close
	unresp bool     // an observer that missed a ready: not waited for
}

type role uint8

const (
	rolePending    role = iota // player port, no handshake yet
	roleLobby                  // handshook, waiting for a game
	roleSeated                 // playing
	roleObsPending             // observer port, no handshake yet
	roleObserver               // the observer
	roleDone                   // finished or refused: lines are ignored
)

// send queues one message (without its line end) for the client. It never
// blocks: a client with more than MaxQueued bytes waiting is closed.
func (c *conn) send(msg []byte) {
	select {
	case <-c.done:
		return
	default:
	}
	if c.queued.Add(int64(len(msg)+1)) > MaxQueued {
		c.close()
		return
	}
	select {
	case c.out <- msg:
	default:
		c.close()
	}
}

// release gives the connection's count back to clients, once.
func (c *conn) release(clients *rooms.Clients) {
	c.released.Do(func() { clients.Release(c.ip) })
}

// close closes the connection (idempotent); the reader then reports it
// to the hub.
func (c *conn) close() {
	c.closeOnce.Do(func() {
		close(c.done)
		c.c.Close()
	})
}

// finish closes the connection once what is queued for it is written
// (each write still bounded by WriteTimeout).
func (c *conn) finish() {
	c.finishOnce.Do(func() { close(c.finishing) })
}

// writer writes queued messages, each with "\n", under WriteTimeout.
func (c *conn) writer() {
	w := bufio.NewWriterSize(c.c, 32<<10)
	finishing := false
	write := func(msg []byte) bool {
		if !finishing {
			c.c.SetWriteDeadline(time.Now().Add(WriteTimeout))
		}
		w.Write(msg)
		w.WriteByte('\n')
		c.queued.Add(-int64(len(msg) + 1))
		if len(c.out) == 0 {
			if err := w.Flush(); err != nil {
				c.close()
				return false
			}
		}
		return true
	}
	for {
		select {
		case <-c.done:
			return
		case msg := <-c.out:
			if !write(msg) {
				return
			}
		case <-c.finishing:
			// What is left goes out within one WriteTimeout in all.
			finishing = true
			c.c.SetWriteDeadline(time.Now().Add(WriteTimeout))
			for {
				select {
				case msg := <-c.out:
					if !write(msg) {
						return
					}
				default:
					w.Flush()
					c.close()
					return
				}
			}
		}
	}
}

// event is what a reader tells the hub: a line, or the end of the
// connection (closed true).
type event struct {
	c      *conn
	line   string
	tooBig bool
	closed bool
}

var errTooLong = errors.New("line too long")

// lineReader splits a stream into lines as Java's BufferedReader does:
// "\n", "\r\n" and a lone "\r" end a line.
type lineReader struct {
	r      *bufio.Reader
	buf    []byte
	skipLF bool
}

// next returns the next line; a line over MaxLine is read to its end,
// discarded, and reported as errTooLong.
func (lr *lineReader) next() (string, error) {
	lr.buf = lr.buf[:0]
	tooLong := false
	for {
		b, err := lr.r.ReadByte()
		if err != nil {
			if err == io.EOF && (len(lr.buf) > 0 || tooLong) {
				// The last line without a terminator: Java returns it.
				break
			}
			return "", err
		}
		if lr.skipLF {
			lr.skipLF = false
			if b == '\n' {
				continue
			}
		}
		if b == '\n' {
			break
		}
		if b == '\r' {
			lr.skipLF = true
			break
		}
		if len(lr.buf) >= MaxLine {
			tooLong = true
			lr.buf = lr.buf[:0]
		}
		lr.buf = append(lr.buf, b)
	}
	if tooLong {
		return "", errTooLong
	}
	return string(lr.buf), nil
}

// reader reads lines and hands them to the hub until the connection ends
// or ctx's done channel closes; it reports the end once.
func (c *conn) reader(events chan<- event, quit <-chan struct{}) {
	lr := &lineReader{r: bufio.NewReaderSize(c.c, 4096)}
	report := func(e event) bool {
		select {
		case events <- e:
			return true
		case <-quit:
			return false
		}
	}
	defer func() {
		c.close()
		report(event{c: c, closed: true})
	}()
	for {
		if d := c.readTimeout.Load(); d > 0 {
			c.c.SetReadDeadline(time.Now().Add(time.Duration(d)))
		} else {
			c.c.SetReadDeadline(time.Time{})
		}
		line, err := lr.next()
		if err == errTooLong {
			if !report(event{c: c, tooBig: true}) {
				return
			}
			continue
		}
		if err != nil {
			return
		}
		if !report(event{c: c, line: line}) {
			return
		}
	}
}

// tooLongText is the error sent for a line over MaxLine.
var tooLongText = "Invalid packet received: line longer than " + strconv.Itoa(MaxLine) + " bytes"
