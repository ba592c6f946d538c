// The shape of tract's `OptMatMul::output_facts` check
// `self.mmm.iter().map(|mmm| mmm.internal_type()).all_equal()`, without tract.
#[derive(Copy, Clone, PartialEq)]
pub enum QParams {
    MinMax { min: f32, max: f32 },
    ZpScale { zero_point: i32, scale: f32 },
}

#[derive(Copy, Clone, PartialEq)]
pub enum DatumType {
    Bool, U8, U16, U32, U64, I8, I16, I32, I64, F16, F32, F64, TDim, Blob, String,
    QI8(QParams), QU8(QParams), QI32(QParams),
}

pub trait Kernel {
    fn internal_type(&self) -> DatumType;
}

struct F32Kernel;
impl Kernel for F32Kernel {
    // Writes only the tag of its 16-byte result: the payload bytes stay uninitialised.
    fn internal_type(&self) -> DatumType {
        DatumType::F32
    }
}

// itertools 0.14's `Itertools::all_equal`.
fn all_equal<I: Iterator>(mut it: I) -> bool
where
    I::Item: PartialEq,
{
    match it.next() {
        None => true,
        Some(a) => it.all(|x| a == x),
    }
}

#[inline(never)]
fn check(kernels: &[Box<dyn Kernel>]) -> bool {
    all_equal(kernels.iter().map(|k| k.internal_type()))
}

fn main() {
    let n = std::hint::black_box(3);
    let kernels: Vec<Box<dyn Kernel>> = (0..n).map(|_| Box::new(F32Kernel) as Box<dyn Kernel>).collect();
    let kernels = std::hint::black_box(kernels);
    println!("all equal: {}", check(&kernels));
}
