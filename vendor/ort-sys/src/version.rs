const V18: u32 = cfg!(feature = "api-18") as u32;
const V19: u32 = cfg!(feature = "api-19") as u32;
const V20: u32 = cfg!(feature = "api-20") as u32;
const V21: u32 = cfg!(feature = "api-21") as u32;
const V22: u32 = cfg!(feature = "api-22") as u32;
const V23: u32 = cfg!(feature = "api-23") as u32;
const V24: u32 = cfg!(feature = "api-24") as u32;
const V25: u32 = cfg!(feature = "api-25") as u32;
const V26: u32 = cfg!(feature = "api-26") as u32;
const V27: u32 = cfg!(feature = "api-27") as u32;
const V28: u32 = cfg!(feature = "api-28") as u32;
const V29: u32 = cfg!(feature = "api-29") as u32;
const V30: u32 = cfg!(feature = "api-30") as u32;
const V31: u32 = cfg!(feature = "api-31") as u32;

#[rustfmt::skip]
pub const ORT_API_VERSION: u32 = 17 // minimum version
	+ V18 + V19 + V20 + V21 + V22 + V23 + V24 + V25 + V26 + V27 + V28 + V29 + V30 + V31; // We can do this because each API also enables the one before it.
