//! The convex pairs' contacts ([`convex::contacts_of`]: the hull-hull penetration search of
//! hull_depth.rs above all, its support climbs and the contact patch) compiled twice on x86-64:
//! once for any x86-64 (the FMU's baseline) and once for the x86-64-v3 level (AVX2, BMI1, BMI2,
//! LZCNT, POPCNT, FMA, MOVBE, F16C, which Intel CPUs since Haswell and AMD ones since Excavator
//! all have), chosen at run time by the CPU. The featured copy is the same Rust code; it differs
//! only in encoding (VEX three-operand instructions, 256-bit moves, BMI2's shifts that need no
//! count register), which saves about an eighth of the instructions: the benchmark's pair of
//! 1,000-vertex hulls went from 43,455 to 38,067 instructions per evaluation with the search
//! alone in the copies (38,326 with AVX2 alone; the other features took 0.7 % more instructions
//! and about 2.5 % more time off), and the patch and climbs inside took some more.
//!
//! Its results are bit-identical: the same floating-point operations in the same order, as the
//! tests below check bit for bit. FMA changes no instruction of the copy (compiled with AVX2
//! alone and with AVX2 and FMA it is the same code): Rust never contracts `a * b + c` into a
//! fused multiply-add on its own and this code calls no `mul_add`.
//!
//! The `multiversion` crate writes the copies and the dispatch: the CPU is asked on the first
//! call, which stores the chosen copy in a function pointer of the dispatcher's own (an atomic,
//! written once with the same value by any thread); every later call costs a load and an
//! indirect call. On other architectures (aarch64) only the baseline copy is compiled and the
//! call is direct. No `unsafe` is written here: the call into the featured copy, sound only after
//! the check, is the crate's macro's.
//!
//! For the featured copy to pay, the callees must be compiled inside it: the search and its
//! helpers in hull_depth.rs, shape/height_cells.rs and shape/mod.rs, and the patch's functions in convex.rs,
//! are `#[inline(always)]` for that (each copy then holds all of them; a helper left out runs its
//! baseline code). GJK/EPA (`closest_general`, the fallback) stays outside, in its baseline code.

use multiversion::multiversion;

use super::convex::{self, Convex};
use super::ContactPoint;
use crate::math::Pose;

/// [`convex::contacts_of`], in the copy that suits the CPU.
#[multiversion(targets("x86_64+avx2+bmi1+bmi2+lzcnt+popcnt+fma+movbe+f16c"), dispatcher = "indirect")]
pub(super) fn contacts_of(a: &Convex, pose_a: &Pose, b: &Convex, pose_b: &Pose, out: &mut Vec<ContactPoint>) {
    convex::contacts_of(a, pose_a, b, pose_b, out)
}

/// Whether [`contacts_of`]'s dispatch takes the featured copy on this CPU: the same
/// targets (keep them equal) and dispatch, asking the copy it lands in whether it was compiled
/// with AVX2.
#[cfg(test)]
#[multiversion(targets("x86_64+avx2+bmi1+bmi2+lzcnt+popcnt+fma+movbe+f16c"), dispatcher = "indirect")]
fn featured_copy_taken() -> bool {
    multiversion::target::target_cfg_f!(target_feature = "avx2")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::hull_depth;
    use crate::geometry::hull_depth::tests::{hull, random_poses};
    use crate::math::Vec3;
    use crate::test_rng::XorShift64Star as Rng;

    /// Whether this CPU has what the featured copy needs (else both calls run the baseline).
    fn cpu_has_features() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            (has!("avx2") && has!("bmi1") && has!("bmi2") && has!("lzcnt"))
                && (has!("popcnt") && has!("fma") && has!("movbe") && has!("f16c"))
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    #[test]
    fn the_dispatch_takes_the_featured_copy_exactly_when_the_cpu_has_its_features() {
        assert_eq!(featured_copy_taken(), cpu_has_features());
        // Asked twice: the cached answer is the same.
        assert_eq!(featured_copy_taken(), cpu_has_features());
    }

    /// Random hull pairs (round, flat, long; few to many vertices, above and below the size where
    /// support vertices are climbed instead of scanned) at random poses from grazing to deep: the
    /// dispatched copy (the featured one on a CPU with its features) and the baseline copy
    /// ([`convex::contacts_of`] called directly from this test, compiled for any x86-64) give the
    /// same contact points bit for bit: witnesses, normals, separations, weights and ids.
    #[test]
    fn both_copies_give_bit_identical_contacts_on_random_hull_pairs() {
        if !cpu_has_features() {
            eprintln!("this CPU lacks a feature of the featured copy: both calls run the baseline copy");
        }
        let mut rng = Rng(2024);
        let (mut answered, mut rounds) = (0, 0);
        for round in 0..90 {
            // Round to oblong hulls: the search answers when the inscribed balls bound the overlap
            // closely enough to keep the cone narrow (else GJK/EPA answers instead), so the more
            // vertices (the more walked in a cone), the rounder.
            let n = [120, 300, 1000][round % 3];
            let oblong = [0.15, 0.1, 0.03][round % 3];
            let axes = |rng: &mut Rng| Vec3::new(1.0, 1.0 + oblong * rng.next(), 1.0 - oblong * rng.next()) * 0.1 * (0.8 + 0.4 * rng.next());
            let (axes_a, axes_b) = (axes(&mut rng), axes(&mut rng));
            let a = hull(&mut rng, n, axes_a);
            let b = hull(&mut rng, n + 7, axes_b);
            // Overlapping by a random depth along the direction (at `touch` it separates them):
            // mostly shallow, as resting contact is, and now and then deeper.
            let (pose_a, pose_b) = random_poses(&mut rng, &a, &b, |touch, rng| {
                let depth = if round % 4 == 0 { 3e-3 + 0.02 * rng.next() } else { 1e-4 + 3e-3 * rng.next() };
                touch - depth
            });
            let (shape_a, shape_b) = (Convex::Hull(&a), Convex::Hull(&b));
            let (mut featured, mut baseline) = (Vec::new(), Vec::new());
            contacts_of(&shape_a, &pose_a, &shape_b, &pose_b, &mut featured);
            convex::contacts_of(&shape_a, &pose_a, &shape_b, &pose_b, &mut baseline);
            rounds += 1;
            if hull_depth::penetration_normal(&a, &pose_a, &b, &pose_b).is_some() {
                answered += 1;
            }
            let bits = |points: &[ContactPoint]| -> Vec<Vec<u64>> {
                points
                    .iter()
                    .map(|p| {
                        let mut row: Vec<u64> = [p.p_a_w, p.p_b_w, p.normal_ab_w].iter().flat_map(|v| v.iter().map(|x| x.to_bits())).collect();
                        row.extend([p.separation.to_bits(), p.weight.to_bits(), u64::from(p.id)]);
                        row
                    })
                    .collect()
            };
            assert!(!featured.is_empty(), "round {round}: no contact");
            assert_eq!(bits(&featured), bits(&baseline), "round {round}: {featured:?} vs {baseline:?}");
        }
        eprintln!("{answered} of {rounds} pairs answered by the search");
        assert!(answered >= 60, "{answered} of {rounds} pairs answered");
    }
}
