//
// Buffer Definitions:
//
// cbuffer C
// {
//
//   float2 size;                       // Offset:    0 Size:     8
//
// }
//
//
// Resource Bindings:
//
// Name                                 Type  Format         Dim      HLSL Bind  Count
// ------------------------------ ---------- ------- ----------- -------------- ------
// C                                 cbuffer      NA          NA            cb0      1
//
//
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// COLOR                    0   xyzw        1     NONE   float   xyzw
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// COLOR                    0   xyzw        1     NONE   float   xyzw
//
gs_4_0
dcl_constantbuffer cb0[1], immediateIndexed
dcl_input_siv v[1][0].xyzw, position
dcl_input v[1][1].xyzw
dcl_input vPrim
dcl_temps 1
dcl_inputprimitive point
dcl_outputtopology trianglestrip
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_maxout 4
and r0.x, vPrim, l(1)
if_nz r0.x
  ret
endif
mov r0.zw, l(0,0,0,0)
mov r0.x, -cb0[0].x
mov r0.y, cb0[0].y
add o0.xyzw, r0.xyzw, v[0][0].xyzw
mov o1.xyzw, v[0][1].xyzw
emit
mov r0.x, cb0[0].x
add o0.xyzw, r0.xyzw, v[0][0].xyzw
mov o1.xyzw, v[0][1].xyzw
emit
mov r0.xy, -cb0[0].xyxx
add o0.xyzw, r0.xyzw, v[0][0].xyzw
mov o1.xyzw, v[0][1].xyzw
emit
mov r0.x, cb0[0].x
add o0.xyzw, r0.xyzw, v[0][0].xyzw
mov o1.xyzw, v[0][1].xyzw
emit
cut
ret
