cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_structured u0, 4
dcl_uav_raw u1
dcl_uav_structured_opc u2, 4
dcl_input vThreadID.x
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_tgsm_raw g0, 64
dcl_thread_group 64, 1, 1
ult r0.x, vThreadIDInGroupFlattened.x, l(16)
if_nz r0.x
  ishl r0.x, vThreadIDInGroupFlattened.x, l(2)
  store_raw g0.x, r0.x, l(0)
endif
sync_g_t
ld_structured r0.x, vThreadID.x, l(0), u0.xxxx
and r0.x, r0.x, l(15)
ishl r0.x, r0.x, l(2)
atomic_iadd g0, r0.x, l(1)
sync_g_t
ult r0.x, vThreadIDInGroupFlattened.x, l(16)
if_nz r0.x
  ishl r0.x, vThreadIDInGroupFlattened.x, l(2)
  ld_raw r0.y, r0.x, g0.xxxx
  atomic_iadd u1, r0.x, r0.y
  imm_atomic_umax r1.x, u1, l(64), r0.y
endif
ld_structured r0.x, vThreadID.x, l(0), u0.xxxx
ult r0.y, r0.x, l(8)
if_nz r0.y
  imm_atomic_alloc r1.x, u2
  store_structured u2.x, r1.x, l(0), vThreadID.x
endif
ret
