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

// Int32 is atomic.Int32 natively.
type Int32 = atomic.Int32

// Uint64 is atomic.Uint64 natively.
type Uint64 = atomic.Uint64

// Bool is atomic.Bool natively.
type Bool = atomic.Bool
