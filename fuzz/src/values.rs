//! The values the fuzzer picks from: numbers that break arithmetic (NaN, infinities, denormals,
//! 1e300), ordinary ones, value references (the model's own and any other), integers, strings
//! and counts.

use arbitrary::Arbitrary;
use fmi_export::FmuModel;

/// A Float64 value.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Real {
    Nan,
    NegativeNan,
    Infinity,
    NegativeInfinity,
    Zero,
    NegativeZero,
    SmallestDenormal,
    LargestDenormal,
    /// A denormal chosen by its mantissa.
    Denormal(u32),
    Huge,
    NegativeHuge,
    Max,
    Tiny,
    /// One of [`COMMON`].
    Common(u8),
    /// `n / 1000`: ordinary magnitudes around zero.
    Thousandths(i16),
    /// Any bit pattern.
    Bits(u64),
}

/// Ordinary values: unit-ish numbers, step sizes, depths, stiffnesses.
const COMMON: [f64; 24] = [
    1.0, -1.0, 0.5, 0.1, -0.1, 0.05, 0.099, 0.101, 1e-3, -1e-3, 1e-4, 1e-5, 1e-6, 1e-9, 1e3, 1e6, 1e7, 2.0, 0.3, 10.0, 100.0,
    -0.5, 0.2, 9.81,
];

impl Real {
    pub fn get(self) -> f64 {
        match self {
            Real::Nan => f64::NAN,
            Real::NegativeNan => -f64::NAN,
            Real::Infinity => f64::INFINITY,
            Real::NegativeInfinity => f64::NEG_INFINITY,
            Real::Zero => 0.0,
            Real::NegativeZero => -0.0,
            Real::SmallestDenormal => f64::from_bits(1),
            Real::LargestDenormal => f64::from_bits(0x000f_ffff_ffff_ffff),
            Real::Denormal(m) => f64::from_bits(u64::from(m) | 1),
            Real::Huge => 1e300,
            Real::NegativeHuge => -1e300,
            Real::Max => f64::MAX,
            Real::Tiny => 1e-300,
            Real::Common(i) => COMMON[usize::from(i) % COMMON.len()],
            Real::Thousandths(n) => f64::from(n) / 1000.0,
            Real::Bits(bits) => f64::from_bits(bits),
        }
    }
}

/// An integer value (enumerations, Int32, Int64).
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Int {
    /// Small non-negative numbers: every enumeration item of both models is in 1..=13.
    Item(u8),
    Small(i8),
    I32Min,
    I32Max,
    I64Min,
    I64Max,
    Any(i64),
}

impl Int {
    pub fn get(self) -> i64 {
        match self {
            Int::Item(i) => i64::from(i % 16),
            Int::Small(i) => i64::from(i),
            Int::I32Min => i64::from(i32::MIN),
            Int::I32Max => i64::from(i32::MAX),
            Int::I64Min => i64::MIN,
            Int::I64Max => i64::MAX,
            Int::Any(i) => i,
        }
    }
}

/// A string value (geometry file names, mostly).
#[derive(Arbitrary, Debug, Clone)]
pub enum Text {
    Empty,
    /// The absolute path of a geometry file the input wrote (see [`crate::files`]).
    WrittenFile(u8),
    /// The same file by its name relative to the resources folder.
    WrittenFileRelative(u8),
    MissingAbsolute,
    MissingRelative,
    /// The resources folder itself (a directory, not a file).
    Directory,
    /// Bytes that are not UTF-8.
    NotUtf8,
    /// A null pointer.
    Null,
    Free(String),
}

/// One value of any type; each typed get or set converts it to its own type.
#[derive(Arbitrary, Debug, Clone)]
pub enum Value {
    Real(Real),
    Int(Int),
    Byte(u8),
    Text(Text),
}

impl Value {
    pub fn as_f64(&self) -> f64 {
        match self {
            Value::Real(r) => r.get(),
            Value::Int(i) => i.get() as f64,
            Value::Byte(b) => f64::from(*b),
            Value::Text(_) => 0.0,
        }
    }

    pub fn as_i64(&self) -> i64 {
        match self {
            Value::Real(r) => r.get() as i64,
            Value::Int(i) => i.get(),
            Value::Byte(b) => i64::from(*b),
            Value::Text(_) => 0,
        }
    }

    /// A C boolean as a byte: 0, 1, or any other byte an importer might pass.
    pub fn as_byte(&self) -> u8 {
        match self {
            Value::Real(r) => u8::from(r.get() != 0.0),
            Value::Int(i) => i.get() as u8,
            Value::Byte(b) => *b,
            Value::Text(_) => 1,
        }
    }

    pub fn as_text(&self) -> Text {
        match self {
            Value::Text(t) => t.clone(),
            Value::Byte(b) => Text::WrittenFile(*b),
            Value::Real(_) => Text::MissingAbsolute,
            Value::Int(_) => Text::Empty,
        }
    }
}

/// A value reference.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Vr {
    /// The i-th scalar of the model's table (modulo its length): a valid reference.
    Known(u16),
    /// Any number in the range where both models' references live (gaps included).
    Near(u16),
    /// One past the largest valid reference.
    JustPast,
    Max,
    Any(u32),
}

impl Vr {
    pub fn get<M: FmuModel>(self) -> u32 {
        let scalars = M::table().scalars();
        match self {
            Vr::Known(i) => scalars[usize::from(i) % scalars.len()].vr,
            Vr::Near(n) => u32::from(n % 1200),
            Vr::JustPast => scalars.iter().map(|s| s.vr).max().unwrap_or(0) + 1,
            Vr::Max => u32::MAX,
            Vr::Any(x) => x,
        }
    }
}

/// How many elements an array argument has: the harness allocates exactly that many (so that a
/// read or write past the count is caught by AddressSanitizer) unless the pointer is null.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Count {
    /// As many as the input lists.
    All,
    Exactly(u8),
    Zero,
}

impl Count {
    pub fn get(self, listed: usize) -> usize {
        match self {
            Count::All => listed,
            Count::Exactly(n) => usize::from(n),
            Count::Zero => 0,
        }
    }
}

/// A buffer of exactly `n` elements, filled from `items` (cycled) or with `fill`.
pub fn exact<T: Clone>(n: usize, items: &[T], fill: T) -> Box<[T]> {
    (0..n).map(|i| if items.is_empty() { fill.clone() } else { items[i % items.len()].clone() }).collect::<Vec<T>>().into_boxed_slice()
}

/// A pointer to the buffer, or null when asked (whatever the count).
pub fn ptr<T>(buffer: &[T], null: bool) -> *const T {
    if null {
        std::ptr::null()
    } else {
        buffer.as_ptr()
    }
}

/// A mutable pointer to the buffer, or null when asked.
pub fn ptr_mut<T>(buffer: &mut [T], null: bool) -> *mut T {
    if null {
        std::ptr::null_mut()
    } else {
        buffer.as_mut_ptr()
    }
}
