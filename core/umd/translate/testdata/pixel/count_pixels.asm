//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xy  
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
//
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_raw u1
dcl_uav_typed_texture2d (uint,uint,uint,uint) u2
dcl_uav_structured u3, 4
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_temps 2
ftou r0.xy, v0.xyxx
imm_atomic_iadd r1.x, u1, l(0), l(1)
imad r0.z, r0.x, l(16), r0.y
atomic_umax u1, l(4), r0.z
imad r0.z, r0.y, l(100), r0.x
iadd r0.w, r0.z, l(1)
store_uav_typed u2.xyzw, r0.xyyy, r0.wwww
store_structured u3.x, r1.x, l(0), r0.z
mov o0.xyzw, l(1.000000,0,0,1.000000)
ret
