cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
dcl_tgsm_structured g0, 4, 256
dcl_thread_group 256, 1, 1
ishl r0.x, vThreadID.x, l(2)
ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.y, r0.x, u0.xxxx
store_structured g0.x, vThreadIDInGroupFlattened.x, l(0), r0.y
sync_g_t
mov r0.y, l(1)
loop
  uge r0.z, r0.y, l(256)
  breakc_nz r0.z
  ld_structured r0.z, vThreadIDInGroupFlattened.x, l(0), g0.xxxx
  uge r0.w, vThreadIDInGroupFlattened.x, r0.y
  if_nz r0.w
    iadd r0.w, vThreadIDInGroupFlattened.x, -r0.y
    ld_structured r0.w, r0.w, l(0), g0.xxxx
    iadd r0.z, r0.w, r0.z
  endif
  sync_g_t
  store_structured g0.x, vThreadIDInGroupFlattened.x, l(0), r0.z
  sync_g_t
  ishl r0.y, r0.y, l(1)
endloop
ld_structured r0.y, vThreadIDInGroupFlattened.x, l(0), g0.xxxx
store_raw u0.x, r0.x, r0.y
ret
