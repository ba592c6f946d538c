//! evoharness patch: ort-sys's `stub::Error::new` builds the message with
//! `CString::new(message).unwrap()`. tract's error for a model it cannot translate quotes the
//! model's own strings (node names, operator types), which may hold NUL bytes: the `unwrap` then
//! panicked inside an `extern "system"` function of the C API, which cannot unwind, and the host
//! process aborted. Every error of this crate is made here, with NULs written as `\0`.

use ort_sys::{OrtErrorCode, OrtStatus, OrtStatusPtr, stub};

pub(crate) struct Error;

impl Error {
	pub fn new(code: OrtErrorCode, message: impl Into<String>) -> stub::Error {
		stub::Error::new(code, message.into().replace('\0', "\\0"))
	}

	pub fn new_sys(code: OrtErrorCode, message: impl Into<String>) -> OrtStatusPtr {
		Self::new(code, message).into_sys()
	}

	pub unsafe fn cast_from_sys<'e>(status: *const OrtStatus) -> &'e stub::Error {
		unsafe { stub::Error::cast_from_sys(status) }
	}

	pub unsafe fn consume_sys(status: *mut OrtStatus) -> Box<stub::Error> {
		unsafe { stub::Error::consume_sys(status) }
	}
}
