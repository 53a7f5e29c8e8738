// Package texel is the one place where the simulated GPU turns the bytes of
// a surface into the numbers a shader sees, and back: the texture unit's
// loads and samples, the output merger's writes, blends and clears, and the
// vertex fetch all go through it, so a format behaves the same wherever it
// is used.
//
// A texel's value is four 32-bit words, as a shader register holds it:
// float bits for a format whose channels read as floats (UNORM, SNORM,
// SRGB, FLOAT, shared exponent, depth), integer bits for UINT and SINT.
// Channels a format lacks read 0, 0, 0 and 1 (float 1.0, or integer 1).
//
// The conversions are those of "Data Conversion Rules" (Direct3D
// documentation): a UNORM channel of n bits reads c/(2^n-1), and a float
// is written to it clamped to [0, 1], NaN as 0, scaled and rounded to the
// nearest integer; SNORM reads c/(2^(n-1)-1), its most negative code -1 as
// well, and is written clamped to [-1, 1] and rounded to nearest; a float
// is written to a smaller float format rounding towards zero (so a finite
// value too large becomes the largest finite one, and infinities and NaN
// stay), denormals kept; FLOAT11 and FLOAT10 have no sign, so a negative
// value becomes 0; an integer is written to a smaller integer format
// clamped to its range; SRGB channels are decoded to linear on read and
// encoded on write with the sRGB curve (linear below 0.0031308), alpha
// staying linear, so a blend on an sRGB target happens in linear space.
// Every result is computed with deterministic arithmetic (no math.Pow,
// whose assembly differs between platforms), so that native and
// WebAssembly builds read and write the same bits.
//
// Block-compressed formats (BC1 to BC7, "Texture Block Compression in
// Direct3D 11") are decoded a 4x4 block at a time (bc.go, bc6h.go, bc7.go);
// they cannot be written.
package texel
