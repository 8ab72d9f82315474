package queue

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"

	"github.com/rewind-game/rewind/internal/match"
)

// MaxRefusals is how many results of one game the coordinator refuses
// (each time queueing the game again) before it fails the game.
const MaxRefusals = 5

// Coordinator publishes a tournament's games and collects their results:
// its Game is a match.Tournament's Remote.
//
// A result counts only when it carries its job's token and Check takes
// its replay for the game: the standings are those Check computes from
// the replay, never the ones a result claims. Any other result is
// refused (Log says which game, which worker and why), removed, and the
// game queued again.
type Coordinator struct {
	Queue *Queue
	Spec  Spec
	// Store keeps game i's replay where the tournament's archive keeps it
	// (durably: on disk and synced before it returns) and returns its
	// path.
	Store func(i int, data []byte) (string, error)
	// Check re-simulates data, a result's replay, and returns game i's
	// result computed from it, or an error when it is not game i of the
	// tournament (recording.CheckGame against match.Tournament.GameSpec).
	Check func(i int, data []byte) (match.GameResult, error)
	// Secret keys the jobs' tokens (Job.Token: an HMAC-SHA256 of the
	// game's key), which only a worker that took the job can copy into
	// its result. Keep it where the tournament is kept, so that a
	// coordinator started again accepts the results of the jobs it
	// published before. Empty: a random one of this run's own.
	Secret []byte
	// Log, when set, receives one line per refused result.
	Log func(text string)

	tid     string
	mu      sync.Mutex
	waiters map[int]chan outcome
	got     map[int]outcome
	// handed are the games whose outcome went to Game already: a later
	// update of their result (slim) is not a new outcome.
	handed map[int]bool
	failed error
}

// outcome is a game's result, or why it has none.
type outcome struct {
	r Result
	// rev is the result's revision in the bucket; bad is why it could
	// not be read (the result is then refused).
	rev uint64
	bad error
	err error
}

// Start watches the tournament's results until ctx ends; call it before
// Game.
func (c *Coordinator) Start(ctx context.Context) {
	c.tid = c.Spec.ID()
	if len(c.Secret) == 0 {
		c.Secret = make([]byte, 32)
		rand.Read(c.Secret)
	}
	c.waiters = map[int]chan outcome{}
	c.got = map[int]outcome{}
	c.handed = map[int]bool{}
	stop, err := c.Queue.GaveUp(ctx, func(j Job, deliveries uint64) {
		if j.Tournament == c.tid {
			c.deliver(j.Index, outcome{err: fmt.Errorf("queue: game %d: no worker stored a result after %d deliveries (see the workers' logs)", j.Index, deliveries)})
		}
	})
	if err == nil {
		go func() { <-ctx.Done(); stop() }()
	}
	go func() {
		err := c.Queue.Watch(ctx, c.tid, func(i int, r Result, rev uint64, bad error) bool {
			c.deliver(i, outcome{r: r, rev: rev, bad: bad})
			return true
		})
		if ctx.Err() == nil {
			c.mu.Lock()
			c.failed = err
			for i, ch := range c.waiters {
				close(ch)
				delete(c.waiters, i)
			}
			c.mu.Unlock()
		}
	}()
}

// Token is the token of game i's job.
func (c *Coordinator) Token(i int) string {
	m := hmac.New(sha256.New, c.Secret)
	m.Write([]byte(GameKey(c.tid, i)))
	return hex.EncodeToString(m.Sum(nil)[:16])
}

// deliver hands game i's outcome to its waiter, or keeps it for Game.
func (c *Coordinator) deliver(i int, o outcome) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.handed[i] {
		return
	}
	if ch, ok := c.waiters[i]; ok {
		delete(c.waiters, i)
		c.handed[i] = true
		ch <- o
	} else {
		c.got[i] = o
	}
}

// Game publishes game i (unless its result is stored already), waits for
// its result, checks it, stores its replay and returns the result. A
// refused result is removed and the game published again, at most
// MaxRefusals times.
func (c *Coordinator) Game(ctx context.Context, i int) (match.GameResult, error) {
	again := false
	for refused := 0; ; refused++ {
		o, err := c.wait(ctx, i, again)
		if err != nil {
			return match.GameResult{}, err
		}
		gr, data, err := c.accept(ctx, i, o)
		var failed *failure
		if errors.As(err, &failed) {
			// Removed, so that running the tournament again tries again.
			c.Queue.remove(ctx, c.tid, i, o.rev, "")
			return match.GameResult{}, fmt.Errorf("queue: game %d failed on worker %q: %s", i, o.r.Worker, failed.why)
		}
		if err == nil {
			path, err := c.Store(i, data)
			if err != nil {
				return match.GameResult{}, err
			}
			if err := c.Queue.slim(ctx, c.tid, i, o.r); err != nil {
				return match.GameResult{}, err
			}
			gr.Game, gr.Path, gr.Skipped = i, path, false
			return gr, nil
		}
		if ctx.Err() != nil {
			return match.GameResult{}, ctx.Err()
		}
		text := fmt.Sprintf("refused the result of game %d from worker %q: %v", i, o.r.Worker, err)
		if refused+1 >= MaxRefusals {
			return match.GameResult{}, fmt.Errorf("queue: game %d: %d results refused, the last: %s", i, MaxRefusals, text)
		}
		if c.Log != nil {
			c.Log(text + "; the game is queued again")
		}
		if err := c.requeue(ctx, i, o); err != nil {
			return match.GameResult{}, err
		}
		again = true
	}
}

// wait waits for game i's next outcome. Unless one is there already, it
// first publishes the game: again (under a message id of its own) after
// a refused result, else when the bucket holds no result of it.
func (c *Coordinator) wait(ctx context.Context, i int, again bool) (outcome, error) {
	ch := make(chan outcome, 1)
	c.mu.Lock()
	if c.failed != nil {
		c.mu.Unlock()
		return outcome{}, c.failed
	}
	if o, ok := c.got[i]; ok {
		delete(c.got, i)
		c.handed[i] = true
		ch <- o
	} else {
		c.waiters[i] = ch
	}
	c.mu.Unlock()
	if len(ch) == 0 {
		first := !again
		if first {
			ok, err := c.Queue.has(ctx, c.tid, i)
			if err != nil {
				return outcome{}, err
			}
			first = !ok
		}
		if first || again {
			if err := c.Queue.publish(ctx, c.job(i), again); err != nil {
				return outcome{}, err
			}
		}
	}
	select {
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.waiters, i)
		c.mu.Unlock()
		return outcome{}, ctx.Err()
	case o, ok := <-ch:
		if !ok {
			c.mu.Lock()
			err := c.failed
			c.mu.Unlock()
			return outcome{}, fmt.Errorf("queue: game %d: %w", i, err)
		}
		if o.err != nil {
			return outcome{}, o.err
		}
		return o, nil
	}
}

// job is game i's job.
func (c *Coordinator) job(i int) Job {
	return Job{Tournament: c.tid, Spec: c.Spec, Index: i, Token: c.Token(i)}
}

// accept returns the result that counts and the replay of game i's
// outcome, or why it does not count.
func (c *Coordinator) accept(ctx context.Context, i int, o outcome) (match.GameResult, []byte, error) {
	if o.bad != nil {
		return match.GameResult{}, nil, fmt.Errorf("not a result: %w", o.bad)
	}
	if subtle.ConstantTimeCompare([]byte(o.r.Token), []byte(c.Token(i))) != 1 {
		return match.GameResult{}, nil, errors.New("it does not carry its job's token (not written by a worker that took the job)")
	}
	if o.r.Failed != "" {
		return match.GameResult{}, nil, &failure{o.r.Failed}
	}
	data, err := c.Queue.Replay(ctx, o.r)
	if err != nil {
		return match.GameResult{}, nil, err
	}
	gr, err := c.Check(i, data)
	if err != nil {
		return match.GameResult{}, nil, fmt.Errorf("its replay is not the game: %w", err)
	}
	return gr, data, nil
}

// requeue removes game i's refused result (unless it changed since) and
// its replay, and lets the next outcome of the game through.
func (c *Coordinator) requeue(ctx context.Context, i int, o outcome) error {
	c.mu.Lock()
	delete(c.handed, i)
	delete(c.got, i)
	c.mu.Unlock()
	return c.Queue.remove(ctx, c.tid, i, o.rev, o.r.Replay)
}

// failure is a game's result that says it failed (Result.Failed).
type failure struct{ why string }

func (f *failure) Error() string { return f.why }
