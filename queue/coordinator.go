package queue

import (
	"context"
	"fmt"
	"sync"

	"github.com/rewind-game/rewind/engine/match"
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
	waiters map[int]chan Result
	got     map[int]Result
	failed  error
}

// Start watches the tournament's results until ctx ends; call it before
// Game.
func (c *Coordinator) Start(ctx context.Context) {
	c.tid = c.Spec.ID()
	c.waiters = map[int]chan Result{}
	c.got = map[int]Result{}
	go func() {
		err := c.Queue.Watch(ctx, c.tid, func(i int, r Result) bool {
			c.mu.Lock()
			defer c.mu.Unlock()
			if ch, ok := c.waiters[i]; ok {
				delete(c.waiters, i)
				ch <- r
			} else {
				c.got[i] = r
			}
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

// Game publishes game i (unless its result is stored already), waits for
// its result, stores its replay and returns the result.
func (c *Coordinator) Game(ctx context.Context, i int) (match.GameResult, error) {
	ch := make(chan Result, 1)
	c.mu.Lock()
	if c.failed != nil {
		c.mu.Unlock()
		return match.GameResult{}, c.failed
	}
	if r, ok := c.got[i]; ok {
		delete(c.got, i)
		ch <- r
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
	case res, ok := <-ch:
		if !ok {
			return match.GameResult{}, fmt.Errorf("queue: game %d: %w", i, c.failed)
		}
		r = res
	}
	data, err := c.Queue.Replay(ctx, r)
	if err != nil {
		return match.GameResult{}, err
	}
	path, err := c.Store(i, data)
	if err != nil {
		return match.GameResult{}, err
	}
	gr := r.Game
	gr.Game, gr.Path, gr.Skipped = i, path, false
	return gr, nil
}
