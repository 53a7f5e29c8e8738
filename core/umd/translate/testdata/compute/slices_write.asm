cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_typed_texture2darray (uint,uint,uint,uint) u0
dcl_input vThreadID.xyz
dcl_temps 1
dcl_thread_group 4, 2, 2
imad r0.x, vThreadID.y, l(10), vThreadID.x
imad r0.x, vThreadID.z, l(100), r0.x
iadd r0.x, r0.x, l(1)
store_uav_typed u0.xyzw, vThreadID.xyzz, r0.xxxx
ret
