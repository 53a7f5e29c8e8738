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
// m0:SV_Position           0   xyzw        0      POS   float   xyzw
// m0:COLOR                 0   xyzw        1     NONE   float   xyzw
// m1:SV_Position           0   xyzw        0      POS   float   xyzw
// m1:COLOR                 0   xyzw        1     NONE   float   xyzw
//
gs_5_0
dcl_globalFlags refactoringAllowed
dcl_input_siv v[1][0].xyzw, position
dcl_input v[1][1].xyzw
dcl_inputprimitive point
dcl_stream m0
dcl_outputtopology pointlist
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_stream m1
dcl_outputtopology pointlist
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_maxout 2
mov o0.xyzw, v[0][0].xyzw
mov o1.xyzw, v[0][1].xyzw
emit_stream m0
add o0.xyzw, v[0][0].xyzw, l(0.250000, 0.000000, 0.000000, 0.000000)
mov o1.xyzw, l(1.000000, 1.000000, 0.000000, 1.000000)
emit_stream m1
ret
