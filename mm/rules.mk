# mm/ - the memory map, the frame allocator (1 GiB / 2 MiB / 4 KiB), page
# tables and the direct map, MTRR/PAT, the demand-fault region and the
# pre-zeroing frame pool, and the NUMA report with its frame self-check.
KERNEL_C += mm/memmap.c mm/pool.c mm/mm.c mm/vm.c mm/demand.c mm/frames.c mm/frames_layout.c \
	mm/mtrr.c mm/numa_report.c

HOST_TESTS += memmap memmap_clamp pool pool_policy frames paging mtrr frames_layout frames_node
HOST_SRCS_memmap := mm/memmap.c
HOST_SRCS_memmap_clamp := mm/memmap.c
HOST_SRCS_pool := mm/pool.c
HOST_SRCS_pool_policy := mm/pool.c
HOST_SRCS_frames := mm/frames.c mm/frames_layout.c mm/memmap.c lib/fmt.c
HOST_SRCS_frames_layout := $(HOST_SRCS_frames)
HOST_SRCS_frames_node := $(HOST_SRCS_frames)
HOST_SRCS_paging :=
HOST_SRCS_mtrr := mm/mtrr.c lib/fmt.c
