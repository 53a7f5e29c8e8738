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
dcl_input_siv v[3][0].xyzw, position
dcl_input v[3][1].xyzw
dcl_temps 1
dcl_inputprimitive triangle
dcl_outputtopology linestrip
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_maxout 4
mov r0.x, l(0)
loop
  ige r0.y, r0.x, l(4)
  breakc_nz r0.y
  udiv null, r0.z, r0.x, l(3)
  mov o0.xyzw, v[r0.z + 0][0].xyzw
  mov o1.xyzw, v[r0.z + 0][1].xyzw
  emit
  iadd r0.x, r0.x, l(1)
endloop
ret
