//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// POSITION                 0   xyzw        0     NONE   float   xyzw
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// COLOR                    0   xyzw        1     NONE   float   xyzw
//
ds_5_0
dcl_input_control_point_count 4
dcl_tessellator_domain domain_quad
dcl_constantbuffer CB0[4], immediateIndexed
dcl_input vDomain.xy
dcl_input vicp[4][0].xyzw
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_temps 3
add r0.xyzw, -vicp[0][0].xyzw, vicp[1][0].xyzw
mad r0.xyzw, vDomain.xxxx, r0.xyzw, vicp[0][0].xyzw
add r1.xyzw, -vicp[3][0].xyzw, vicp[2][0].xyzw
mad r1.xyzw, vDomain.xxxx, r1.xyzw, vicp[3][0].xyzw
add r1.xyzw, -r0.xyzw, r1.xyzw
mad r0.xyzw, vDomain.yyyy, r1.xyzw, r0.xyzw
mul r1.xy, r0.xzxx, l(3.000000, 2.500000, 0.000000, 0.000000)
sincos r1.xy, null, r1.xyxx
mul r1.x, r1.y, r1.x
mul r0.y, r1.x, l(0.300000)
dp4 o0.x, r0.xyzw, cb0[0].xyzw
dp4 o0.y, r0.xyzw, cb0[1].xyzw
dp4 o0.z, r0.xyzw, cb0[2].xyzw
dp4 o0.w, r0.xyzw, cb0[3].xyzw
mad o1.xyz, r1.xxxx, l(0.350000, 0.300000, 0.400000, 0.000000), l(0.450000, 0.600000, 0.350000, 0.000000)
mov o1.w, l(1.000000)
ret
