// Package dxbc reads and writes DXBC, the container Microsoft's HLSL
// compiler (fxc) writes for shader models 4 and 5 and that
// ID3D11Device::CreateVertexShader and CreatePixelShader take.
//
// A container is a "DXBC" header — a checksum, the version, the total size
// and a table of chunk offsets — followed by chunks named by four
// characters: RDEF (reflection: constant buffers and resource bindings),
// ISGN and OSGN (the input and output signatures), SHDR or SHEX (the
// program as a stream of 32-bit tokens) and STAT (statistics, kept opaque).
// Parse checks every offset and size and the checksum, which is MD5 with
// fxc's own final block (see Checksum). Build lays chunks out as fxc does.
//
// The token stream (Program, Instruction, Operand) is decoded and encoded
// word for word: an opcode token with its length, controls (saturate, the
// _z/_nz test, interpolation modes, resource dimensions) and extended
// tokens (sample offsets, the shader model 5 resource dimension and return
// type), then operand tokens with their register type, component
// selection (mask, swizzle or one component), up to three indices each an
// immediate, a register or both, immediate values and the neg/abs
// modifier. Declarations carry their literal words. Every opcode of
// shader models 4.0 to 5.0 and the Direct3D 11.1 additions is in the table
// (opcodes.go), every register type among the operands, for every stage:
// compute, geometry, hull (with its phases) and domain shaders decode and
// list as fxc lists them even where the device cannot run them. An opcode
// the table does not know is an error naming it, never a panic; the fuzz
// targets hold the decoders to that.
//
// Disassemble and Listing print the text fxc's /Fc listing prints, down to
// the signature tables and the Patch Constant signature; the tests
// compare against listings fxc wrote (TestFxcCorpus over a directory of
// fxc's /Fh headers, D3DSIM_FXC_CORPUS, with the float ties of the D3D
// Shader Disassembler allowed). The
// Builder is the encoder a compiler uses: typed operands (Temp(0).Mask(XY),
// Input(1).Swz("xyxx"), CB(0, 3), Imm(1, 0, 0, 1)), Emit, and Build for the
// whole container. Validate is what the runtime runs on bytecode given to a
// Create*Shader call, and Link the check between a vertex shader's output
// signature and a pixel shader's input signature.
//
// Sources, cited by title: Microsoft's "Shader Model 4 Assembly (DirectX
// HLSL)" and "Shader Model 5 Assembly (DirectX HLSL)" reference pages (the
// instructions and declarations and their listing syntax), "Semantics"
// and "Shader Signatures" (signature linkage, SV_Position), the Windows
// Driver Kit header d3d10tokenizedprogramformat.hpp and its shader model 5
// successor d3d11tokenizedprogramformat.hpp (token bit layouts and opcode
// numbers), the D3D11_SIGNATURE_PARAMETER_DESC, D3D11_SHADER_BUFFER_DESC
// and D3D11_SHADER_INPUT_BIND_DESC pages (the fields of ISGN and RDEF),
// and RFC 1321, "The MD5 Message-Digest Algorithm". vkd3d-shader's
// checksum.c (libs/vkd3d-shader) and Wine's d3dcompiler document fxc's
// checksum variant; this package's code is its own. vkd3d-compiler serves
// the tests as an independent reader of what this package writes.
//
// The package uses the standard library only, so every layer may use it.
package dxbc
