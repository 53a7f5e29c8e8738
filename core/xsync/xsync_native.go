//go:build !wasm

package xsync

import (
	"sync"
	"sync/atomic"
)

// Mutex is sync.Mutex natively.
type Mutex = sync.Mutex

// Int64 is atomic.Int64 natively.
type Int64 = atomic.Int64

// Pointer is atomic.Pointer natively.
type Pointer[T any] = atomic.Pointer[T]
