cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_typed_texture2darray (uint,uint,uint,uint) u0
dcl_uav_typed_buffer (uint,uint,uint,uint) u1
dcl_input vThreadID.xy
dcl_temps 2
dcl_thread_group 4, 2, 1
mov r0.xy, vThreadID.xyxx
mov r0.zw, l(0,0,0,0)
ld_uav_typed r1.x, r0.xyzw, u0.xyzw
imad r0.x, vThreadID.y, l(4), vThreadID.x
store_uav_typed u1.xyzw, r0.xxxx, r1.xxxx
ret
