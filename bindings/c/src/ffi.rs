//! The boundary itself: every cast from a C pointer, the panic boundary, and the per-thread last
//! error. Public (but hidden) so that `libevoharness_train` guards its functions the same way.
//!
//! Exported functions do three things here and nothing else unsafe: turn their pointer
//! arguments into references with the typed helpers below (which check for NULL and alignment
//! and know whether the object behind a handle is owned by a `Box` or borrowed), run their body
//! inside [`guard`] (which catches panics and records the error message), and write outputs
//! through [`Out`] only once the body has succeeded.

use std::cell::{Cell, RefCell, UnsafeCell};
use std::ffi::{CStr, CString, c_char};
use std::marker::PhantomData;
use std::mem::MaybeUninit;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use crate::status::evoharness_status;

/// A failed call: the status returned to C and the message kept for
/// `evoharness_last_error_message`.
#[derive(Debug)]
pub struct Error {
    /// What C gets back.
    pub status: evoharness_status,
    /// What `evoharness_last_error_message` then says.
    pub message: String,
}

impl Error {
    pub fn new(status: evoharness_status, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
        }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(evoharness_status::InvalidArgument, message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(evoharness_status::NotFound, message)
    }
}

impl From<evoharness_runtime::Error> for Error {
    fn from(e: evoharness_runtime::Error) -> Self {
        use evoharness_runtime::ErrorKind as K;
        let status = match e.kind() {
            K::Backend => evoharness_status::Backend,
            K::Device => evoharness_status::Device,
            K::Policy => evoharness_status::Policy,
            K::Inference => evoharness_status::Inference,
            K::Workspace => evoharness_status::Workspace,
            K::Io => evoharness_status::Io,
            K::Checkpoint => evoharness_status::Checkpoint,
            K::Config => evoharness_status::Config,
            K::World => evoharness_status::World,
            K::Experience => evoharness_status::ExperienceStore,
            _ => evoharness_status::Other,
        };
        // The whole chain: the runtime's Display adds its direct cause; deeper causes follow.
        let mut message = e.to_string();
        let mut cause = std::error::Error::source(&e).and_then(std::error::Error::source);
        while let Some(c) = cause {
            message.push_str(": ");
            message.push_str(&c.to_string());
            cause = c.source();
        }
        Self::new(status, message)
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

thread_local! {
    /// The message of the last call on this thread that failed (empty before any).
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Records `message` as this thread's last error. Interior NULs (which C cannot see past) are
/// replaced by spaces.
pub fn set_last_error(message: &str) {
    let bytes: Vec<u8> = message
        .bytes()
        .map(|b| if b == 0 { b' ' } else { b })
        .collect();
    let c = CString::new(bytes).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

/// Calls `f` with this thread's last error.
pub fn with_last_error<R>(f: impl FnOnce(&CStr) -> R) -> R {
    LAST_ERROR.with(|e| f(e.borrow().as_c_str()))
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let what = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)");
    format!(
        "a panic inside evoharness (a bug: please report it); the objects this call used are \
         in an unspecified but safe state and should be freed: {what}"
    )
}

/// The panic boundary of a function that returns a status: runs `f`, turns its error into a
/// status and this thread's last error, and a panic into [`evoharness_status::Panic`].
pub fn guard(f: impl FnOnce() -> Result<()>) -> evoharness_status {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => evoharness_status::Ok,
        Ok(Err(e)) => {
            set_last_error(&e.message);
            e.status
        }
        Err(payload) => {
            set_last_error(&panic_message(&*payload));
            evoharness_status::Panic
        }
    }
}

/// The panic boundary of a function that returns a value: `fallback` on a panic (with the last
/// error set).
pub fn guard_value<T>(fallback: T, f: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(payload) => {
            set_last_error(&panic_message(&*payload));
            fallback
        }
    }
}

/// A C handle type and the Rust type behind it. Handles are opaque to C: a pointer to one
/// points at the Rust type, owned by a `Box` made by [`to_owned_ptr`] or borrowed from another
/// handle.
pub trait Castable {
    /// What a pointer to the handle really points at.
    type Rust;
}

/// What a handle's object sits in when C calls may run *inside* it: an agent, a fleet, an
/// environment whose callbacks (host tools, worlds) can call back into the same handle. A call
/// [`enter`](Guarded::enter)s it for its whole length; a second entry from the same thread (a
/// callback calling back in) is refused with `INVALID_ARGUMENT` and `busy` as its message,
/// instead of aliasing the object mutably. The host uses a handle from one thread at a time
/// (the header's contract), so the flag needs no atomics. The one re-entrancy guard of the C
/// handles (`evoharness_agent`, `evoharness_fleet`, `evoharness_vec_env`).
pub struct Guarded<T> {
    busy: Cell<bool>,
    value: UnsafeCell<T>,
}

impl<T> Guarded<T> {
    pub fn new(value: T) -> Self {
        Self {
            busy: Cell::new(false),
            value: UnsafeCell::new(value),
        }
    }

    /// Exclusive use of the value for the length of one call; `busy` is the refusal's message
    /// when a call is already inside it.
    pub fn enter(&self, busy: &str) -> Result<Entered<'_, T>> {
        if self.busy.replace(true) {
            return Err(Error::invalid(busy));
        }
        Ok(Entered { g: self })
    }
}

/// Exclusive use of a [`Guarded`] value until dropped.
pub struct Entered<'a, T> {
    g: &'a Guarded<T>,
}

impl<T> Entered<'_, T> {
    /// The value.
    pub fn get(&mut self) -> &mut T {
        // SAFETY: `busy` was false and is now true (see `Guarded::enter`), so no other
        // `Entered` for this value exists on this thread, and the host uses a handle from one
        // thread at a time: this is the only reference to the value.
        unsafe { &mut *self.g.value.get() }
    }
}

impl<T> Drop for Entered<'_, T> {
    fn drop(&mut self) {
        self.g.busy.set(false);
    }
}

/// Moves `value` to the heap and hands its ownership to C as a handle pointer.
pub fn to_owned_ptr<C: Castable>(value: C::Rust) -> *mut C {
    Box::into_raw(Box::new(value)).cast()
}

/// Frees a handle made by [`to_owned_ptr`]; NULL is a no-op.
///
/// # Safety
/// `p` is NULL or came from [`to_owned_ptr`] for the same `C` and was not freed yet.
pub unsafe fn free_owned<C: Castable>(p: *mut C) {
    if !p.is_null() {
        // SAFETY: the caller's contract: `p` is a live `Box<C::Rust>` given to C.
        drop(unsafe { Box::from_raw(p.cast::<C::Rust>()) });
    }
}

fn check_ptr<T>(p: *const T, what: &str) -> Result<()> {
    if p.is_null() {
        return Err(Error::new(
            evoharness_status::NullArgument,
            format!("`{what}` is NULL"),
        ));
    }
    if !p.is_aligned() {
        return Err(Error::invalid(format!(
            "`{what}` is not aligned for its type"
        )));
    }
    Ok(())
}

/// The object behind a handle, shared.
///
/// # Safety
/// `p` is NULL or points at a live `C::Rust` that nothing mutates for `'a`.
pub unsafe fn try_ref<'a, C: Castable>(p: *const C, what: &str) -> Result<&'a C::Rust> {
    check_ptr(p.cast::<C::Rust>(), what)?;
    // SAFETY: non-NULL and aligned (checked), live and unaliased by writers (the caller's
    // contract).
    Ok(unsafe { &*p.cast::<C::Rust>() })
}

/// The object behind a handle, exclusively.
///
/// # Safety
/// `p` is NULL or points at a live `C::Rust` that nothing else uses for `'a`.
pub unsafe fn try_mut<'a, C: Castable>(p: *mut C, what: &str) -> Result<&'a mut C::Rust> {
    check_ptr(p.cast::<C::Rust>(), what)?;
    // SAFETY: non-NULL and aligned (checked), live and not otherwise used (the caller's
    // contract).
    Ok(unsafe { &mut *p.cast::<C::Rust>() })
}

/// An owned handle that C gives away through a `C **` argument (to a constructor that takes
/// it over): checked up front, before anything is taken.
pub struct Given<C> {
    pp: *mut *mut C,
}

impl<C: Castable> Given<C> {
    /// Checks `pp` and `*pp` (NULL, alignment).
    ///
    /// # Safety
    /// `pp` is NULL or points at a readable and writable handle pointer that is NULL or came
    /// from [`to_owned_ptr`] for `C` and was not freed; both stay so until the [`Slot`] of
    /// [`Given::take`] is gone.
    pub unsafe fn new(pp: *mut *mut C, what: &str) -> Result<Self> {
        check_ptr(pp.cast_const(), what)?;
        // SAFETY: `pp` is non-NULL and aligned (checked) and readable (the caller's contract).
        let p = unsafe { *pp };
        check_ptr(p.cast::<C::Rust>().cast_const(), &format!("*{what}"))?;
        Ok(Self { pp })
    }

    /// The object, still C's: to look at before anything is taken.
    pub fn peek(&self) -> *const C::Rust {
        // SAFETY: `pp` is readable (`Given::new`'s contract).
        unsafe { (*self.pp).cast::<C::Rust>() }
    }

    /// Takes the object out of the handle. `*pp` becomes NULL when the [`Slot`] is dropped,
    /// unless [`Slot::refill`] gives the object back first.
    pub fn take(self) -> (Box<C::Rust>, Slot<C>) {
        // SAFETY: `*pp` is a live `Box<C::Rust>` given to C (checked in `new`, the rest its
        // caller's contract); C gives it up here, and the slot clears or refills `*pp` before
        // C can see it again.
        let value = unsafe { Box::from_raw((*self.pp).cast::<C::Rust>()) };
        (value, Slot { pp: self.pp })
    }
}

/// Where a [`Given`] handle was: cleared (NULL) when dropped, so C no longer owns it.
pub struct Slot<C: Castable> {
    pp: *mut *mut C,
}

impl<C: Castable> Slot<C> {
    /// Gives the object back to C: `*pp` points at it again (the same allocation when it is
    /// the box that [`Given::take`] returned).
    pub fn refill(self, value: Box<C::Rust>) {
        // SAFETY: `pp` is writable (`Given::new`'s contract).
        unsafe { *self.pp = Box::into_raw(value).cast() };
        std::mem::forget(self);
    }
}

impl<C: Castable> Drop for Slot<C> {
    fn drop(&mut self) {
        // SAFETY: `pp` is writable (`Given::new`'s contract).
        unsafe { *self.pp = std::ptr::null_mut() };
    }
}

/// A plain-data input struct.
///
/// # Safety
/// `p` is NULL or points at a readable, valid `T` that nothing mutates for `'a`. Input structs
/// hold no Rust enums and no references (enum-like fields are integers checked by their user),
/// so a `T` that C wrote is valid as long as its `bool`s are C bools (0 or 1).
pub unsafe fn input<'a, T>(p: *const T, what: &str) -> Result<&'a T> {
    check_ptr(p, what)?;
    // SAFETY: non-NULL and aligned (checked), readable (the caller's contract).
    Ok(unsafe { &*p })
}

/// `len` elements at `p`; NULL is accepted when `len` is 0.
///
/// # Safety
/// `p` is NULL or valid for reads of `len` elements for `'a`, which nothing mutates then.
pub unsafe fn slice<'a, T>(p: *const T, len: usize, what: &str) -> Result<&'a [T]> {
    if len == 0 {
        return Ok(&[]);
    }
    check_ptr(p, what)?;
    // SAFETY: non-NULL and aligned (checked), valid for `len` reads (the caller's contract).
    Ok(unsafe { std::slice::from_raw_parts(p, len) })
}

/// `len` writable elements at `p`; NULL is accepted when `len` is 0.
///
/// # Safety
/// `p` is NULL or valid for reads and writes of `len` initialised elements for `'a`, which
/// nothing else uses then.
pub unsafe fn slice_mut<'a, T>(p: *mut T, len: usize, what: &str) -> Result<&'a mut [T]> {
    if len == 0 {
        return Ok(&mut []);
    }
    check_ptr(p.cast_const(), what)?;
    // SAFETY: non-NULL and aligned (checked), valid for `len` reads and writes and unaliased
    // (the caller's contract).
    Ok(unsafe { std::slice::from_raw_parts_mut(p, len) })
}

/// `len` writable elements at `p` that may be uninitialised (an output array); NULL is accepted
/// when `len` is 0.
///
/// # Safety
/// `p` is NULL or valid for writes of `len` elements for `'a`, which nothing else uses then.
pub unsafe fn out_slice<'a, T>(
    p: *mut T,
    len: usize,
    what: &str,
) -> Result<&'a mut [MaybeUninit<T>]> {
    if len == 0 {
        return Ok(&mut []);
    }
    check_ptr(p.cast_const(), what)?;
    // SAFETY: non-NULL and aligned (checked), valid for `len` writes and unaliased (the
    // caller's contract); `MaybeUninit` needs no initialised contents.
    Ok(unsafe { std::slice::from_raw_parts_mut(p.cast::<MaybeUninit<T>>(), len) })
}

/// A NUL-terminated string.
///
/// # Safety
/// `p` is NULL or points at a NUL-terminated string that lives and stays unchanged for `'a`.
pub unsafe fn c_str<'a>(p: *const c_char, what: &str) -> Result<&'a CStr> {
    check_ptr(p, what)?;
    // SAFETY: non-NULL, NUL-terminated and live (the caller's contract).
    Ok(unsafe { CStr::from_ptr(p) })
}

/// A NUL-terminated UTF-8 string.
///
/// # Safety
/// As [`c_str`].
pub unsafe fn text<'a>(p: *const c_char, what: &str) -> Result<&'a str> {
    // SAFETY: the caller's contract is `c_str`'s.
    unsafe { c_str(p, what) }?
        .to_str()
        .map_err(|_| Error::invalid(format!("`{what}` is not valid UTF-8")))
}

/// A NUL-terminated path (any bytes but NUL, as on Unix).
///
/// # Safety
/// As [`c_str`].
pub unsafe fn path<'a>(p: *const c_char, what: &str) -> Result<&'a Path> {
    // SAFETY: the caller's contract is `c_str`'s.
    let s = unsafe { c_str(p, what) }?;
    if s.is_empty() {
        return Err(Error::invalid(format!("`{what}` is an empty path")));
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Ok(Path::new(std::ffi::OsStr::from_bytes(s.to_bytes())))
    }
    #[cfg(not(unix))]
    {
        s.to_str()
            .map(Path::new)
            .map_err(|_| Error::invalid(format!("`{what}` is not valid UTF-8")))
    }
}

/// An output parameter, checked for NULL up front and written only on success.
pub struct Out<'a, T> {
    p: *mut T,
    _life: PhantomData<&'a mut MaybeUninit<T>>,
}

impl<T> Out<'_, T> {
    /// Writes the value (without reading or dropping what was there: C memory).
    pub fn write(self, value: T) {
        // SAFETY: `p` is non-NULL, aligned and writable (checked in `out`, the rest the
        // caller's contract); `write` does not read the old, possibly uninitialised, value.
        unsafe { self.p.write(value) }
    }
}

/// An output parameter.
///
/// # Safety
/// `p` is NULL or valid for writes of one `T` for `'a`.
pub unsafe fn out<'a, T>(p: *mut T, what: &str) -> Result<Out<'a, T>> {
    check_ptr(p.cast_const(), what)?;
    Ok(Out {
        p,
        _life: PhantomData,
    })
}

/// Copies `s` and a NUL into `buf` (of `cap` bytes) and its length (without the NUL) to
/// `out_len`; [`evoharness_status::BufferTooSmall`] if it does not fit, writing nothing.
///
/// # Safety
/// `buf` is NULL or valid for `cap` bytes of writes; `out_len` NULL or valid for a write.
pub unsafe fn write_str(s: &str, buf: *mut c_char, cap: usize, out_len: *mut usize) -> Result<()> {
    // SAFETY: the caller's contract.
    let len_out = unsafe { out(out_len, "out_len") }?;
    check_ptr(buf.cast_const(), "buf")?;
    if cap <= s.len() {
        return Err(Error::new(
            evoharness_status::BufferTooSmall,
            format!(
                "the buffer holds {cap} bytes; this string needs {} (with its NUL)",
                s.len() + 1
            ),
        ));
    }
    // SAFETY: `buf` is valid for `cap` > `s.len()` bytes (checked and the caller's contract),
    // and cannot overlap `s`, which Rust owns.
    unsafe {
        std::ptr::copy_nonoverlapping(s.as_ptr(), buf.cast::<u8>(), s.len());
        *buf.add(s.len()) = 0;
    }
    len_out.write(s.len());
    Ok(())
}

/// Copies `s` into a fixed C char array, NUL-terminated (`s` is at most `N - 1` bytes: the
/// core's bounds are what size these arrays).
pub fn fixed_str<const N: usize>(s: &str) -> [c_char; N] {
    let mut a = [0 as c_char; N];
    for (d, &b) in a.iter_mut().zip(s.as_bytes().iter().take(N - 1)) {
        *d = b as c_char;
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guard_turns_a_panic_into_a_status_and_a_message() {
        let s = guard(|| panic!("boom {}", 7));
        assert_eq!(s, evoharness_status::Panic);
        with_last_error(|m| {
            let m = m.to_str().unwrap();
            assert!(m.contains("a panic inside evoharness"), "{m}");
            assert!(m.ends_with("boom 7"), "{m}");
        });
        assert_eq!(guard_value(5, || -> i32 { panic!("x") }), 5);
        assert_eq!(guard(|| Ok(())), evoharness_status::Ok);
    }

    #[test]
    fn errors_set_the_last_message_and_nuls_do_not_cut_it() {
        let s = guard(|| Err(Error::invalid("a\0b")));
        assert_eq!(s, evoharness_status::InvalidArgument);
        with_last_error(|m| assert_eq!(m.to_bytes(), b"a b"));
        // The last error is per thread.
        std::thread::spawn(|| with_last_error(|m| assert!(m.is_empty())))
            .join()
            .unwrap();
    }

    #[test]
    fn strings_fit_or_nothing_is_written() {
        let mut buf = [b'x' as c_char; 4];
        let mut len = 99usize;
        // SAFETY: `buf` has 4 bytes and `len` is a valid usize.
        let r = unsafe { write_str("abcd", buf.as_mut_ptr(), 4, &mut len) };
        assert_eq!(r.unwrap_err().status, evoharness_status::BufferTooSmall);
        assert_eq!((buf[0], len), (b'x' as c_char, 99));
        // SAFETY: as above.
        unsafe { write_str("abc", buf.as_mut_ptr(), 4, &mut len) }.unwrap();
        assert_eq!((buf[3], len), (0, 3));
        assert_eq!(fixed_str::<3>("abc"), [b'a' as c_char, b'b' as c_char, 0]);
    }
}
