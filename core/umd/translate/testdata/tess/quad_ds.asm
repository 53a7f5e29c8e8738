//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// POSITION                 0   xyzw        0     NONE   float   xyzw
// TEXCOORD                 0   xy          1     NONE   float
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// TEXCOORD                 0   xy          1     NONE   float   xy
//
ds_5_0
dcl_input_control_point_count 4
dcl_tessellator_domain domain_quad
dcl_input vDomain.xy
dcl_input vicp[4][0].xyzw
dcl_output_siv o0.xyzw, position
dcl_output o1.xy
dcl_temps 2
add r0.xyzw, -vicp[0][0].xyzw, vicp[1][0].xyzw
mad r0.xyzw, vDomain.xxxx, r0.xyzw, vicp[0][0].xyzw
add r1.xyzw, -vicp[3][0].xyzw, vicp[2][0].xyzw
mad r1.xyzw, vDomain.xxxx, r1.xyzw, vicp[3][0].xyzw
add r1.xyzw, -r0.xyzw, r1.xyzw
mad o0.xyzw, vDomain.yyyy, r1.xyzw, r0.xyzw
mov o1.xy, vDomain.xyxx
ret
