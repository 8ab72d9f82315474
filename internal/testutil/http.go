package testutil

import (
	"io"
	"net/http"
	"testing"
)

// Get sends a GET request for url and returns the response's status
// code and its whole body. A request or a body that fails fails tb.
func Get(tb testing.TB, url string) (status int, body []byte) {
	tb.Helper()
	res, err := http.Get(url)
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	body, err = io.ReadAll(res.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return res.StatusCode, body
}
