"""The C signatures of the compiled kernel's entry points, which numba compiles (:mod:`solvers.opt._kernel_jit`) and
ctypes calls by (:mod:`solvers.opt.kernel`): a module of its own, so that neither imports the other."""

__all__ = ["SIGNATURES"]

#: The entry points of :mod:`solvers.opt._kernel_jit` and their C signatures (each returns an int64): ``T*`` a
#: pointer to T, ``i64`` a 64-bit integer. numba compiles them from this table, and ctypes calls them by it.
SIGNATURES = {
    "search": "u64* i64 i64 i64* i64 i32* i64 i32* i64 i32* u64* u64* u64* i64 i64 i32* i32* i64* i32* i64* i64 "
              "i64* i32* i64* i64* u64* i16* i16* i32* i64* i64* i64 i64 u64* i16* i16* i32* i64* i64* i64 i64 i64 "
              "i64 i64 i64 i64* i64 i64 i64 u64* i64 u64* i64 i64 u8* i64 i32* i64*",
    "insert_many": "u64* i64 i64 i16* i16* i32* i64* u64* i16* i16* i32* i64* i64* i64 i64* i64*",
    "rehash": "u64* i16* i16* i32* i64* i64* i64 i64 i64 u64* i16* i16* i32* i64* i64* i64 i64*",
    "orbit_row": "u64* i64 u64* i64 u64* i64 i64 u8* i64 i32* i64* u64* i64",
    "tree": "u64* i64 i64 i64* i64 i32* i64 i32* i64 i32* u64* u64* u64* i64 i64 i32* i32* i64* i32* i64* i64 "
            "i64* i32* i64* i64* u64* i16* i16* i32* i64* i64* i64 i64 u64* i16* i16* i32* i64* i64* i64 i64 i64 "
            "i64 i64 i64 i64* i64 i64 i64 u64* i64 u64* i64 i64 u8* i64 i32* i64* u64* i64* i64 i32* i32* i64* i32* "
            "i64* i32* i64 u64* i32* i64 i64*",
}
