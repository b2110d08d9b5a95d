package mad

import (
	"sync"

	"github.com/roce-go/roce/internal/errs"
)

// The errors the decoders return, made once so that decoding allocates
// nothing, malformed MADs included. A layer cut short gets the error of
// its table for the bytes it has; the tables are made at the first cut
// of each layer (the layers and their sizes are this package's own, so
// there are a few dozen at most, whatever the input).
var (
	cutMu   sync.RWMutex
	cutErrs = map[cutKey][]error{}
	errHops = errs.New("SMPDirected", offClassSpecific+1, 0, 0, errs.ErrBadLength)
)

// cutKey names a table of cutErrs: the layer, its size and, for a class
// that is not the layout's, -1.
type cutKey struct {
	layer string
	size  int
}

// truncated is errs.Truncated(layer, 0, size, have) for have below size,
// made once.
func truncated(layer string, size, have int) error {
	return cutTable(cutKey{layer, size})[have]
}

// unsupportedClass is the error of a MAD of another class than layer's.
func unsupportedClass(layer string) error { return cutTable(cutKey{layer, -1})[0] }

func cutTable(k cutKey) []error {
	cutMu.RLock()
	t, ok := cutErrs[k]
	cutMu.RUnlock()
	if ok {
		return t
	}
	if k.size < 0 {
		t = []error{errs.New(k.layer, offMgmtClass, 0, 0, errs.ErrUnsupported)}
	} else {
		t = errs.TruncatedTable(k.layer, 0, k.size)
	}
	cutMu.Lock()
	defer cutMu.Unlock()
	if old, ok := cutErrs[k]; ok {
		return old
	}
	cutErrs[k] = t
	return t
}
