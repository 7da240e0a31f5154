KERNEL_C += mm/memmap.c

HOST_TESTS += memmap
HOST_SRCS_memmap := mm/memmap.c
KERNEL_C += mm/pool.c
HOST_TESTS += pool
HOST_SRCS_pool := mm/pool.c
HOST_TESTS += pool_policy
HOST_SRCS_pool_policy := mm/pool.c
KERNEL_C += mm/mm.c mm/vm.c
KERNEL_C += mm/demand.c
KERNEL_C += mm/frames.c mm/frames_layout.c mm/mtrr.c
HOST_TESTS += frames paging mtrr
HOST_SRCS_frames := mm/frames.c mm/frames_layout.c mm/memmap.c kernel/fmt.c
HOST_TESTS += frames_layout
HOST_SRCS_frames_layout := mm/frames.c mm/frames_layout.c mm/memmap.c kernel/fmt.c
HOST_SRCS_paging :=
HOST_SRCS_mtrr := mm/mtrr.c kernel/fmt.c
