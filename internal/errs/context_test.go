package errs

import (
	"errors"
	"testing"
)

func TestContextAndKind(t *testing.T) {
	family := errors.New("roce: bad configuration")
	inner := Kind(family, `bad size "12q"`)
	if got, want := inner.Error(), `roce: bad size "12q"`; got != want {
		t.Errorf("Kind: %q, want %q", got, want)
	}
	err := Context("scenario line 2", Context("size", inner))
	if got, want := err.Error(), `roce: scenario line 2: size: bad size "12q"`; got != want {
		t.Errorf("Context: %q, want %q", got, want)
	}
	if !errors.Is(err, family) {
		t.Error("Context(Kind(family)) does not match family")
	}
	if errors.Is(Kind(family, "x"), ErrTruncated) {
		t.Error("Kind matches a sentinel it was not given")
	}
}
