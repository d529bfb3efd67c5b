//! `tanh` for the friction laws' hot path, inlined: within 2 ulp of `f64::tanh` (glibc's,
//! itself within 1 ulp), with its results for NaN (NaN), ±inf (±1), ±0 (±0) and subnormals.
//!
//! `f64::tanh` is a call into libm (tanh and expm1, about 110 instructions, and the caller's
//! registers saved around the call); this one is about 40 instructions in line.
//!
//! - `|x| < 0.55` (up to where tanh reaches 1/2): `x P(x^2) / Q(x^2)`, the convergent of
//!   Lambert's continued fraction `x / (1 + x^2 / (3 + x^2 / (5 + ...)))` through the term 15,
//!   whose truncation error is below 4e-18 relative there.
//! - `0.55 <= |x| <= 22`: `1 - 2 / (e^(2|x|) + 1)` with the sign of x, `e^y` as `2^k e^r`,
//!   `k = round(y / ln 2)`, `r = y - k ln 2` in two parts (Cody and Waite), `|r| <= ln 2 / 2`,
//!   and `e^r` by its Taylor series through `r^13` (remainder below 5e-18 relative), evaluated
//!   in Estrin's scheme (the chain of dependent operations is what a single call waits for).
//! - `|x| > 22`: ±1 (tanh rounds to 1 from `|x| > 19.1` on).

/// The convergent is `x P(t) / Q(t)` with `t = x^2`; written `x + x t D(t) / Q(t)` with
/// `D = (P - Q) / t` so that the small correction to x, not a ratio of two numbers near 1, is
/// what rounds. Coefficients lowest power first: D = (-1/3, -1/45, -2/6825, -1/2027025),
/// Q = (1, 7/15, 1/39, 2/6435, 1/2027025).
const D: [f64; 4] = [-1.0 / 3.0, -1.0 / 45.0, -2.0 / 6825.0, -1.0 / 2027025.0];
const Q: [f64; 5] = [1.0, 7.0 / 15.0, 1.0 / 39.0, 2.0 / 6435.0, 1.0 / 2027025.0];

/// `1 / n!` for n = 2 ..= 13.
const INVERSE_FACTORIAL: [f64; 12] = [
    0.5,
    0.16666666666666666,
    0.041666666666666664,
    0.008333333333333333,
    0.001388888888888889,
    0.0001984126984126984,
    2.48015873015873e-05,
    2.7557319223985893e-06,
    2.755731922398589e-07,
    2.505210838544172e-08,
    2.08767569878681e-09,
    1.6059043836821613e-10,
];

/// ln 2 in two parts: `LN2_HI` has 32 trailing zero bits, so `k LN2_HI` is exact for |k| < 2^20.
const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
const INVERSE_LN2: f64 = std::f64::consts::LOG2_E;
/// Adding and subtracting 1.5 2^52 rounds a number below 2^51 to an integer (to even).
const ROUNDER: f64 = 6_755_399_441_055_744.0;

/// The hyperbolic tangent of `x`; see the module documentation for the method and accuracy.
#[inline(always)]
pub fn tanh(x: f64) -> f64 {
    let a = x.abs();
    if a < 0.55 {
        let t = x * x;
        let d = D[0] + t * (D[1] + t * (D[2] + t * D[3]));
        let q = Q[0] + t * (Q[1] + t * (Q[2] + t * (Q[3] + t * Q[4])));
        // On |x| and signed after, so that -0 stays -0.
        return (a + a * t * d / q).copysign(x);
    }
    if a > 22.0 {
        // Beyond 22 (and at infinity) tanh is ±1.
        return 1.0_f64.copysign(x);
    }
    if x.is_nan() {
        return x;
    }
    let y = 2.0 * a;
    let k = (y * INVERSE_LN2 + ROUNDER) - ROUNDER;
    let r = (y - k * LN2_HI) - k * LN2_LO;
    // e^r = 1 + r + r^2 p(r), p(r) = sum c_i r^i with c_i = 1 / (i + 2)!, in Estrin's scheme
    // (pairs, then pairs of pairs): a chain of four multiply-adds instead of eleven.
    let c = &INVERSE_FACTORIAL;
    let (r2, r4) = (r * r, (r * r) * (r * r));
    let r8 = r4 * r4;
    let (a0, a1, a2) = (c[0] + c[1] * r, c[2] + c[3] * r, c[4] + c[5] * r);
    let (a3, a4, a5) = (c[6] + c[7] * r, c[8] + c[9] * r, c[10] + c[11] * r);
    let (b0, b1, b2) = (a0 + a1 * r2, a2 + a3 * r2, a4 + a5 * r2);
    let p = (b0 + b1 * r4) + b2 * r8;
    let e_r = 1.0 + (r + r2 * p);
    // 2^k for 2 <= k <= 64, built from its exponent bits.
    let scale = f64::from_bits(((1023 + k as i64) as u64) << 52);
    (1.0 - 2.0 / (e_r * scale + 1.0)).copysign(x)
}

#[cfg(test)]
mod tests {
    use super::tanh;

    /// Distance in units in the last place between two finite numbers of one sign.
    fn ulps(a: f64, b: f64) -> u64 {
        (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs()
    }

    /// Dense samples over every range (tiny, subnormal, the polynomial range, its switch, the
    /// exponential range, near 1, the cut at 22, huge), both signs: within 2 ulp of `f64::tanh`,
    /// the same sign, and mostly within 1.
    #[test]
    fn within_two_ulp_of_std_everywhere() {
        let mut xs: Vec<f64> = Vec::new();
        // Log-spaced from 1e-310 to 1e3: 2 million points.
        let n = 2_000_000;
        for i in 0..=n {
            xs.push(10f64.powf(-310.0 + 313.0 * i as f64 / n as f64));
        }
        // Linear over the ranges that matter most: 1 million points on (0, 25).
        for i in 1..1_000_000 {
            xs.push(25.0 * i as f64 / 1e6);
        }
        // Every switch and its neighbours, bit by bit.
        for centre in [0.55, 22.0, 19.06, f64::MIN_POSITIVE, 1.0] {
            let bits = f64::to_bits(centre) as i64;
            for d in -1000..=1000 {
                xs.push(f64::from_bits((bits + d) as u64));
            }
        }
        xs.extend([f64::MAX, f64::MIN_POSITIVE, 5e-324, 1e-300, 0.5493061443340549]);
        let (mut worst, mut beyond_one) = (0, 0);
        for &x in &xs {
            for x in [x, -x] {
                let (ours, std) = (tanh(x), x.tanh());
                assert_eq!(ours.is_sign_negative(), std.is_sign_negative(), "sign at {x:e}");
                let d = ulps(ours, std);
                assert!(d <= 2, "tanh({x:e}) = {ours:e}, std {std:e}: {d} ulp");
                worst = worst.max(d);
                beyond_one += (d > 1) as usize;
            }
        }
        // Two-ulp differences are rare (the two can round to either side of the true value).
        assert!(beyond_one * 1000 < xs.len(), "{beyond_one} of {} points 2 ulp apart", 2 * xs.len());
        eprintln!("worst {worst} ulp, {beyond_one} of {} points beyond 1 ulp", 2 * xs.len());
    }

    #[test]
    fn special_values_are_std_ones() {
        assert!(tanh(f64::NAN).is_nan());
        assert!(tanh(-f64::NAN).is_nan());
        assert_eq!(tanh(f64::INFINITY), 1.0);
        assert_eq!(tanh(f64::NEG_INFINITY), -1.0);
        assert_eq!(tanh(0.0).to_bits(), 0.0_f64.to_bits());
        assert_eq!(tanh(-0.0).to_bits(), (-0.0_f64).to_bits());
        assert_eq!(tanh(1e-320), 1e-320);
        assert_eq!(tanh(-1e-320), -1e-320);
        assert_eq!(tanh(22.5), 1.0);
        assert_eq!(tanh(-1e300), -1.0);
    }
}
