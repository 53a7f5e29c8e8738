package shaderisa

// CoverageOutput is the output register in which a pixel program that
// writes SV_Coverage (DXBC's oMask) leaves its coverage mask (x): after
// the eight render targets' o0..o7 and SV_Depth's o8. SET_PROGRAM's bit
// 31 says the program writes it (gpu/isa's layout.go); the output merger
// ANDs it with the pixel's coverage and the sample mask.
const CoverageOutput = 9
