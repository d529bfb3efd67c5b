//! The law parameters as users set them (`normal.*`, `friction.*`), their documented defaults,
//! and their validation into typed laws, shared by ContactForce and PlanarContact (which name
//! their parameters the same). An error names the parameter, the value and the rule it breaks.

use crate::contact::Laws;
use crate::enums::not_an_item;
use crate::geometry::GeometryPair;
use crate::rigid_motion::MassProperties;
use crate::friction::{AdamsCoulomb, ElasticCone, FrictionLaw, FrictionLawKind, SmoothStickSlip, Stiction, Stribeck, TanhFriction};
use crate::normal::{
    GroundModel, HuntCrossley, Impact, LimitedDamper, LinearSpringDamper, NormalLaw, NormalLawKind, Restitution,
    RestitutionModel, SmoothSpringDamper,
};

/// Normal force law parameters (`normal.*`); which law reads which is in interface.md.
#[derive(Clone, Debug, PartialEq)]
pub struct NormalParameters {
    /// Stable number of a [`NormalLawKind`].
    pub law: i64,
    pub stiffness: f64,
    pub damping: f64,
    pub exponent: f64,
    pub damping_exponent: f64,
    pub velocity_exponent: f64,
    pub transition_width: f64,
    pub full_damping_depth: f64,
    pub restitution: f64,
    /// Stable number of a [`RestitutionModel`].
    pub restitution_model: i64,
    pub max_depth: f64,
}

impl Default for NormalParameters {
    fn default() -> Self {
        NormalParameters {
            law: NormalLawKind::LinearSpringDamper.value(),
            stiffness: 1e6,
            damping: 1e3,
            exponent: 1.5,
            damping_exponent: 1.5,
            velocity_exponent: 1.0,
            transition_width: 1e-4,
            full_damping_depth: 1e-4,
            restitution: 0.5,
            restitution_model: RestitutionModel::HuntCrossley.value(),
            max_depth: 0.0,
        }
    }
}

/// Friction law parameters (`friction.*`).
#[derive(Clone, Debug, PartialEq)]
pub struct FrictionParameters {
    /// Stable number of a [`FrictionLawKind`].
    pub law: i64,
    pub mu_static: f64,
    pub mu_dynamic: f64,
    pub v_stiction: f64,
    pub v_transition: f64,
    pub viscous: f64,
    pub tanh_gain: f64,
    pub stiffness: f64,
    pub damping: f64,
    pub max_deformation: f64,
    pub torque_radius: f64,
    pub rolling: f64,
}

impl Default for FrictionParameters {
    fn default() -> Self {
        FrictionParameters {
            law: FrictionLawKind::Tanh.value(),
            mu_static: 0.5,
            mu_dynamic: 0.3,
            v_stiction: 1e-3,
            v_transition: 1e-2,
            viscous: 0.0,
            tanh_gain: 1e3,
            stiffness: 1e6,
            damping: 1e3,
            max_deformation: 1e-4,
            torque_radius: 0.0,
            rolling: 0.0,
        }
    }
}

/// Mass properties of one body as users set them (`body_a.*` in ContactForce, `body[i].*` in a
/// scene), for StepAverage.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyParameters {
    /// Mass (kg); 0 = immovable.
    pub mass: f64,
    /// Ixx, Iyy, Izz, Ixy, Ixz, Iyz (kg.m2) about the centre of mass, in the body frame.
    pub inertia: [f64; 6],
    /// Centre of mass in the body frame (m).
    pub com: [f64; 3],
}

impl Default for BodyParameters {
    fn default() -> Self {
        BodyParameters { mass: 0.0, inertia: [0.0; 6], com: [0.0; 3] }
    }
}

impl BodyParameters {
    /// The mass properties, checked, the variables named `{prefix}.mass`, ...: a mass >= 0,
    /// finite numbers, and an inertia a rigid body can have.
    pub fn checked(&self, prefix: &str) -> Result<MassProperties, ParameterError> {
        check(&format!("{prefix}.mass"), self.mass, self.mass >= 0.0, "must be >= 0 (0 = immovable)")?;
        for (i, x) in self.inertia.iter().chain(&self.com).enumerate() {
            let name = if i < 6 { format!("{prefix}.inertia[{}]", i + 1) } else { format!("{prefix}.com[{}]", i - 5) };
            check(&name, *x, true, "must be finite")?;
        }
        let m = MassProperties::new(self.mass, &self.inertia, &self.com);
        if self.mass > 0.0 {
            if let Some(problem) = m.inertia_problem() {
                return Err(refuse(&format!("{prefix}.inertia"), format!("{:?}", self.inertia), format!("is not the inertia of a rigid body: {problem}")));
            }
        }
        Ok(m)
    }
}

/// A parameter value refused, with the rule it breaks.
#[derive(Clone, Debug, PartialEq)]
pub struct ParameterError {
    /// Interface name of the offending variable.
    pub variable: String,
    /// The value as the user gave it.
    pub value: String,
    /// The rule, as a sentence fragment ("must be > 0").
    pub rule: String,
}

impl std::fmt::Display for ParameterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} = {}: {}", self.variable, self.value, self.rule)
    }
}

impl std::error::Error for ParameterError {}

impl ParameterError {
    /// The error of `variable = value` breaking `rule`.
    pub fn new(variable: &str, value: impl std::fmt::Display, rule: impl Into<String>) -> ParameterError {
        refuse(variable, value, rule)
    }
}

/// The error of `variable = value` breaking `rule`.
pub fn refuse(variable: &str, value: impl std::fmt::Display, rule: impl Into<String>) -> ParameterError {
    ParameterError { variable: variable.to_string(), value: value.to_string(), rule: rule.into() }
}

/// Checks `value` against a rule, naming the variable when it fails.
pub fn check(variable: &str, value: f64, ok: bool, rule: &str) -> Result<(), ParameterError> {
    if ok && value.is_finite() {
        Ok(())
    } else {
        Err(refuse(variable, value, rule))
    }
}

/// A block's [`Laws`]: the laws, `max_depth` and the spin friction `torque_radius` as the caller
/// checked them, and the rolling resistance of `f` (`friction.rolling`, `friction.v_stiction`)
/// checked here on a pair whose rolling radius is `rolling_radius`: `friction.rolling` >= 0, and
/// when it is on, a pair that can take it (`cannot_roll` gives the rule the pair breaks, if it
/// breaks one) and `friction.v_stiction` > 0, which sets the speed below which the torque fades.
pub fn laws(
    normal: NormalLaw,
    friction: FrictionLaw,
    max_depth: f64,
    torque_radius: f64,
    f: &FrictionParameters,
    rolling_radius: f64,
    cannot_roll: impl FnOnce() -> Option<String>,
) -> Result<Laws, ParameterError> {
    check("friction.rolling", f.rolling, f.rolling >= 0.0, "must be >= 0 (0 = off)")?;
    if f.rolling > 0.0 {
        if let Some(rule) = cannot_roll() {
            return Err(refuse("friction.rolling", f.rolling, rule));
        }
        check("friction.v_stiction", f.v_stiction, f.v_stiction > 0.0, "must be > 0 (rolling resistance regularisation)")?;
    }
    Ok(Laws {
        normal,
        friction,
        max_depth,
        torque_radius,
        rolling: f.rolling,
        rolling_radius,
        rolling_speed: if rolling_radius > 0.0 { f.v_stiction / rolling_radius } else { 1.0 },
    })
}

/// The rule that rolling resistance on a pair without a rolling radius breaks: it needs `what`
/// (a sphere, a Circle), and `shape_a` - `shape_b` has none.
pub fn no_rolling_radius(what: &str, shape_a: &str, shape_b: &str) -> String {
    format!("rolling resistance needs {what}; {shape_a} - {shape_b} has no rolling radius")
}

/// The normal law of `normal.*`, checked (shared with the PlanarContact FMU, which names its
/// parameters the same).
pub fn normal_law(p: &NormalParameters) -> Result<NormalLaw, ParameterError> {
    let kind = NormalLawKind::from_value(p.law).ok_or_else(|| refuse("normal.law", p.law, not_an_item("normal law", NormalLawKind::ITEMS)))?;
    let non_negative = |name: &str, x: f64| check(name, x, x >= 0.0, "must be >= 0");
    match kind {
        NormalLawKind::LinearSpringDamper => {
            non_negative("normal.stiffness", p.stiffness)?;
            non_negative("normal.damping", p.damping)?;
            Ok(NormalLaw::LinearSpringDamper(LinearSpringDamper { stiffness: p.stiffness, damping: p.damping }))
        }
        NormalLawKind::LimitedDamper => {
            non_negative("normal.stiffness", p.stiffness)?;
            non_negative("normal.damping", p.damping)?;
            Ok(NormalLaw::LimitedDamper(LimitedDamper { stiffness: p.stiffness, damping: p.damping }))
        }
        NormalLawKind::HuntCrossley => {
            non_negative("normal.stiffness", p.stiffness)?;
            non_negative("normal.damping", p.damping)?;
            check("normal.exponent", p.exponent, p.exponent > 0.0, "must be > 0")?;
            non_negative("normal.damping_exponent", p.damping_exponent)?;
            check("normal.velocity_exponent", p.velocity_exponent, p.velocity_exponent > 0.0, "must be > 0")?;
            Ok(NormalLaw::HuntCrossley(HuntCrossley {
                stiffness: p.stiffness,
                damping: p.damping,
                exponent: p.exponent,
                damping_exponent: p.damping_exponent,
                velocity_exponent: p.velocity_exponent,
            }))
        }
        NormalLawKind::SmoothSpringDamper => {
            non_negative("normal.stiffness", p.stiffness)?;
            non_negative("normal.damping", p.damping)?;
            check("normal.transition_width", p.transition_width, p.transition_width > 0.0, "must be > 0 (SmoothSpringDamper)")?;
            Ok(NormalLaw::SmoothSpringDamper(SmoothSpringDamper {
                stiffness: p.stiffness,
                damping: p.damping,
                transition_width: p.transition_width,
            }))
        }
        NormalLawKind::Impact => {
            non_negative("normal.stiffness", p.stiffness)?;
            // Adams: 0 < EXPONENT (1.5 or higher recommended); the law is continuous for every e > 0.
            check("normal.exponent", p.exponent, p.exponent > 0.0, "must be > 0 (Impact: Adams EXPONENT)")?;
            non_negative("normal.damping", p.damping)?;
            check(
                "normal.full_damping_depth",
                p.full_damping_depth,
                p.full_damping_depth > 0.0,
                "must be > 0 (Impact: Adams DMAX)",
            )?;
            Ok(NormalLaw::Impact(Impact {
                stiffness: p.stiffness,
                exponent: p.exponent,
                max_damping: p.damping,
                full_damping_depth: p.full_damping_depth,
            }))
        }
        NormalLawKind::GroundModel => {
            non_negative("normal.stiffness", p.stiffness)?;
            non_negative("normal.damping", p.damping)?;
            Ok(NormalLaw::GroundModel(GroundModel { stiffness: p.stiffness, damping: p.damping }))
        }
        NormalLawKind::Restitution => {
            non_negative("normal.stiffness", p.stiffness)?;
            check("normal.exponent", p.exponent, p.exponent > 0.0, "must be > 0")?;
            let e = p.restitution;
            check("normal.restitution", e, (0.0..=1.0).contains(&e), "must be in [0, 1]")?;
            let model = RestitutionModel::from_value(p.restitution_model)
                .ok_or_else(|| refuse("normal.restitution_model", p.restitution_model, not_an_item("restitution model", RestitutionModel::ITEMS)))?;
            if model == RestitutionModel::Flores {
                check("normal.restitution", e, e > 0.0, "must be > 0 with normal.restitution_model = Flores (chi = 8 (1 - e) / (5 e v0))")?;
            }
            Ok(NormalLaw::Restitution(Restitution { stiffness: p.stiffness, exponent: p.exponent, restitution: e, model }))
        }
        NormalLawKind::ProvidedByInput => Ok(NormalLaw::ProvidedByInput),
    }
}

/// mu_s and mu_d of the laws that use both: finite, >= 0, and `mu_d <= mu_s`.
fn static_and_dynamic(p: &FrictionParameters) -> Result<(f64, f64), ParameterError> {
    check("friction.mu_static", p.mu_static, p.mu_static >= 0.0, "must be >= 0")?;
    check("friction.mu_dynamic", p.mu_dynamic, p.mu_dynamic >= 0.0, "must be >= 0")?;
    if p.mu_dynamic > p.mu_static {
        return Err(refuse("friction.mu_dynamic", p.mu_dynamic, format!("must not exceed friction.mu_static = {}", p.mu_static)));
    }
    Ok((p.mu_static, p.mu_dynamic))
}

/// `0 < friction.v_stiction < friction.v_transition`, as Adams and the Makkar curve require.
fn ordered_speeds(p: &FrictionParameters, law: &str) -> Result<(f64, f64), ParameterError> {
    check("friction.v_stiction", p.v_stiction, p.v_stiction > 0.0, &format!("must be > 0 ({law})"))?;
    let rule = format!("must be > friction.v_stiction = {} ({law}: 0 < v_stiction < v_transition)", p.v_stiction);
    check("friction.v_transition", p.v_transition, p.v_transition > p.v_stiction, &rule)?;
    Ok((p.v_stiction, p.v_transition))
}

/// The friction law of `friction.*` (without the couples, which need the pair), checked; shared
/// with the PlanarContact FMU.
pub fn friction_law(p: &FrictionParameters) -> Result<FrictionLaw, ParameterError> {
    let kind =
        FrictionLawKind::from_value(p.law).ok_or_else(|| refuse("friction.law", p.law, not_an_item("friction law", FrictionLawKind::ITEMS)))?;
    match kind {
        FrictionLawKind::None => Ok(FrictionLaw::None),
        FrictionLawKind::SmoothStickSlip => {
            let (mu_static, mu_dynamic) = static_and_dynamic(p)?;
            check("friction.v_stiction", p.v_stiction, p.v_stiction > 0.0, "must be > 0 (SmoothStickSlip: critical velocity)")?;
            Ok(FrictionLaw::SmoothStickSlip(SmoothStickSlip { mu_static, mu_dynamic, critical_speed: p.v_stiction }))
        }
        FrictionLawKind::AdamsCoulomb => {
            let (mu_static, mu_dynamic) = static_and_dynamic(p)?;
            let (stiction_speed, transition_speed) = ordered_speeds(p, "AdamsCoulomb")?;
            Ok(FrictionLaw::AdamsCoulomb(AdamsCoulomb { mu_static, mu_dynamic, stiction_speed, transition_speed }))
        }
        FrictionLawKind::Tanh => {
            check("friction.mu_dynamic", p.mu_dynamic, p.mu_dynamic >= 0.0, "must be >= 0")?;
            check("friction.tanh_gain", p.tanh_gain, p.tanh_gain > 0.0, "must be > 0")?;
            Ok(FrictionLaw::Tanh(TanhFriction { mu: p.mu_dynamic, gain: p.tanh_gain }))
        }
        FrictionLawKind::Stribeck => {
            let (mu_static, mu_kinetic) = static_and_dynamic(p)?;
            let (ve1, ve2) = ordered_speeds(p, "Stribeck")?;
            check("friction.viscous", p.viscous, p.viscous >= 0.0, "must be >= 0")?;
            let law = Stribeck::new(mu_static, mu_kinetic, ve1, ve2, p.viscous);
            // Friction that pushes along the slip is not physical; refuse rather than clip.
            if let Some((speed, lowest)) = law.negative_mu() {
                return Err(ParameterError {
                    variable: "friction.mu_static, friction.mu_dynamic, friction.v_stiction, friction.v_transition, friction.viscous"
                        .to_string(),
                    value: format!("{mu_static}, {mu_kinetic}, {ve1}, {ve2}, {}", p.viscous),
                    rule: format!(
                        "the Stribeck curve mu(v) must not be negative, but mu({speed:.3e} m/s) = {lowest:.3e} \
                         (make v_transition larger relative to v_stiction, or friction.viscous smaller)"
                    ),
                });
            }
            Ok(FrictionLaw::Stribeck(law))
        }
        FrictionLawKind::ElasticCone => {
            check("friction.mu_static", p.mu_static, p.mu_static >= 0.0, "must be >= 0 (ElasticCone: mu)")?;
            check("friction.stiffness", p.stiffness, p.stiffness > 0.0, "must be > 0 (ElasticCone: Kt)")?;
            check("friction.damping", p.damping, p.damping > 0.0, "must be > 0 (ElasticCone: Dt; the slip rate divides by it)")?;
            Ok(FrictionLaw::ElasticCone(ElasticCone { mu: p.mu_static, stiffness: p.stiffness, damping: p.damping }))
        }
        FrictionLawKind::Stiction => {
            let (mu_static, mu_dynamic) = static_and_dynamic(p)?;
            check("friction.mu_static", mu_static, mu_static > 0.0, "must be > 0 (Stiction: the spring reaches mu_s f_n)")?;
            check("friction.max_deformation", p.max_deformation, p.max_deformation > 0.0, "must be > 0 (Stiction)")?;
            Ok(FrictionLaw::Stiction(Stiction { mu_static, mu_dynamic, max_deformation: p.max_deformation }))
        }
        FrictionLawKind::ProvidedByInput => Ok(FrictionLaw::ProvidedByInput),
    }
}

/// The laws of a 3-D geometry `pair` from `normal.*` and `friction.*` (ContactForce's and
/// ContactScene's), with `solver.max_step` (the stateful laws' sub-step) and the spin friction
/// torque checked on the way and the rolling resistance by [`laws`], in the order ContactForce
/// reports them.
pub fn pair_laws(p_normal: &NormalParameters, p_friction: &FrictionParameters, solver_max_step: f64, pair: &GeometryPair) -> Result<Laws, ParameterError> {
    let normal = normal_law(p_normal)?;
    let friction = friction_law(p_friction)?;
    let max_depth = p_normal.max_depth;
    check("normal.max_depth", max_depth, max_depth >= 0.0, "must be >= 0 (0 = off)")?;
    check("solver.max_step", solver_max_step, solver_max_step > 0.0, "must be > 0")?;
    let f = p_friction;
    check("friction.torque_radius", f.torque_radius, f.torque_radius >= 0.0, "must be >= 0 (0 = off)")?;
    if f.torque_radius > 0.0 && friction.mu_over_speed(0.0).is_none() {
        return Err(refuse(
            "friction.torque_radius",
            f.torque_radius,
            format!("the spin friction torque needs a velocity-based friction law (mu(v)); friction.law = {} has none", friction.kind().name()),
        ));
    }
    let rolling_radius = pair.rolling_radius();
    laws(normal, friction, max_depth, f.torque_radius, f, rolling_radius, || {
        if pair.is_compound() {
            Some(
                "rolling resistance takes one rolling radius for the contact, and the parts of a Compound (geometry_X.shape) have \
                 several; set friction.rolling = 0 with a Compound"
                    .to_string(),
            )
        } else {
            let (a, b) = (pair.shape_a().kind().name(), pair.shape_b().kind().name());
            (rolling_radius <= 0.0).then(|| no_rolling_radius("a pair that can roll (a sphere)", a, b))
        }
    })
}

crate::stable_enum! {
    /// How a contact model couples to the importer over a communication step.
    pub enum CouplingMode {
        /// The wrench at the current inputs, held by the importer over the step (the exact
        /// coupling for small steps, omega h << 1).
        Instantaneous = 1,
        /// The wrench averaged over the coming communication step, from the block's own
        /// integration of the bodies over it (needs a body of mass > 0).
        StepAverage = 2,
    }
}

/// How a contact model couples to the importer over a communication step (`coupling.*`).
#[derive(Clone, Debug, PartialEq)]
pub struct CouplingParameters {
    /// Stable number of a [`CouplingMode`].
    pub mode: i64,
    /// The step (s) to average over before the first DoStep (0 = unknown until then).
    pub step: f64,
    /// Largest sub-step (s) of the model's own integration of the bodies (StepAverage).
    pub max_substep: f64,
    /// The acceleration (m/s2, in W) of the other forces on every movable body until the first
    /// step measures them (gravity; StepAverage); all 0 = unknown.
    pub gravity: [f64; 3],
}

impl Default for CouplingParameters {
    fn default() -> Self {
        CouplingParameters { mode: CouplingMode::Instantaneous.value(), step: 0.0, max_substep: 1e-5, gravity: [0.0; 3] }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn laws_of(rolling: f64, v_stiction: f64, rolling_radius: f64, cannot_roll: Option<&str>) -> Result<Laws, ParameterError> {
        let f = FrictionParameters { rolling, v_stiction, ..FrictionParameters::default() };
        let (normal, friction) = (normal_law(&NormalParameters::default()).unwrap(), friction_law(&f).unwrap());
        laws(normal, friction, 0.0, 0.0, &f, rolling_radius, || cannot_roll.map(String::from))
    }

    #[test]
    fn the_rolling_resistance_is_checked_and_sets_the_fade_speed() {
        let on = laws_of(0.01, 2e-3, 0.05, None).unwrap();
        assert_eq!((on.rolling, on.rolling_radius, on.rolling_speed), (0.01, 0.05, 2e-3 / 0.05));
        // Off: the pair is not asked, and the fade speed is unused (1).
        let off = laws_of(0.0, 2e-3, 0.0, Some("never asked")).unwrap();
        assert_eq!((off.rolling, off.rolling_speed), (0.0, 1.0));
        let negative = laws_of(-0.01, 2e-3, 0.05, None).unwrap_err();
        assert_eq!((negative.variable.as_str(), negative.rule.as_str()), ("friction.rolling", "must be >= 0 (0 = off)"));
        let refused = laws_of(0.01, 2e-3, 0.0, Some("no radius")).unwrap_err();
        assert_eq!((refused.variable.as_str(), refused.value.as_str(), refused.rule.as_str()), ("friction.rolling", "0.01", "no radius"));
        let stiction = laws_of(0.01, 0.0, 0.05, None).unwrap_err();
        assert_eq!(stiction.variable, "friction.v_stiction");
        assert_eq!(no_rolling_radius("a sphere", "Box", "Plane"), "rolling resistance needs a sphere; Box - Plane has no rolling radius");
    }
}
