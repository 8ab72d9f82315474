package queue

import (
	"context"
	"fmt"
	"sync"

	"github.com/rewind-game/rewind/internal/match"
)

// Coordinator publishes a tournament's games and collects their results:
// its Game is a match.Tournament's Remote.
type Coordinator struct {
	Queue *Queue
	Spec  Spec
	// Store keeps game i's replay where the tournament's archive keeps it
	// (durably: on disk and synced before it returns) and returns its
	// path.
	Store func(i int, data []byte) (string, error)

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
	r   Result
	err error
}

// Start watches the tournament's results until ctx ends; call it before
// Game.
func (c *Coordinator) Start(ctx context.Context) {
	c.tid = c.Spec.ID()
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
		err := c.Queue.Watch(ctx, c.tid, func(i int, r Result) bool {
			c.deliver(i, outcome{r: r})
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
// its result, stores its replay and returns the result.
func (c *Coordinator) Game(ctx context.Context, i int) (match.GameResult, error) {
	ch := make(chan outcome, 1)
	c.mu.Lock()
	if c.failed != nil {
		c.mu.Unlock()
		return match.GameResult{}, c.failed
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
		if _, ok, err := c.Queue.Result(ctx, c.tid, i); err != nil {
			return match.GameResult{}, err
		} else if !ok {
			if err := c.Queue.Publish(ctx, c.Spec, i); err != nil {
				return match.GameResult{}, err
			}
		}
	}
	var r Result
	select {
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.waiters, i)
		c.mu.Unlock()
		return match.GameResult{}, ctx.Err()
	case o, ok := <-ch:
		if !ok {
			c.mu.Lock()
			err := c.failed
			c.mu.Unlock()
			return match.GameResult{}, fmt.Errorf("queue: game %d: %w", i, err)
		}
		if o.err != nil {
			return match.GameResult{}, o.err
		}
		r = o.r
	}
	data, err := c.Queue.Replay(ctx, r)
	if err != nil {
		return match.GameResult{}, err
	}
	path, err := c.Store(i, data)
	if err != nil {
		return match.GameResult{}, err
	}
	if err := c.Queue.slim(ctx, c.tid, i, r); err != nil {
		return match.GameResult{}, err
	}
	gr := r.Game
	gr.Game, gr.Path, gr.Skipped = i, path, false
	return gr, nil
}
