//! The rows of the normal and friction laws' parameters (value references 300 to 411) and of
//! `solver.max_step` (600), for every model whose parameters hold ContactForce's laws
//! (ContactForce and PlanarContact): names, value references, units, ranges and descriptions
//! stated once.

use fmi_export::table::Variable;

use contact_physics::enums::EnumItem;
use contact_physics::friction::FrictionLawKind;
use contact_physics::normal::{NormalLawKind, RestitutionModel};
use contact_physics::parameters::{FrictionParameters, NormalParameters};
use fmi_export::table::EnumerationType;

/// The items of a stable enumeration as the (value, name, description) rows of an FMI
/// enumeration type, computed at compile time (constant data, no heap).
pub const fn item_rows<const N: usize>(items: &[EnumItem]) -> [(i64, &'static str, &'static str); N] {
    let mut rows = [(0, "", ""); N];
    let mut i = 0;
    while i < N {
        rows[i] = (items[i].value, items[i].name, items[i].description);
        i += 1;
    }
    rows
}

/// An FMI enumeration type of a stable enumeration, as constant data.
#[macro_export]
macro_rules! enumeration_type {
    ($name:literal, $description:literal, $kind:ty) => {{
        const ROWS: [(i64, &str, &str); <$kind>::ITEMS.len()] = $crate::law_rows::item_rows(<$kind>::ITEMS);
        fmi_export::table::EnumerationType { name: $name, description: $description, items: &ROWS }
    }};
}

pub static NORMAL_LAW: EnumerationType = enumeration_type!("NormalLaw", "Normal force law", NormalLawKind);
pub static RESTITUTION_MODEL: EnumerationType =
    enumeration_type!("RestitutionModel", "Damping from the coefficient of restitution", RestitutionModel);
pub static FRICTION_LAW: EnumerationType = enumeration_type!("FrictionLaw", "Friction law", FrictionLawKind);

/// A model whose parameters hold the normal and friction laws' parameters.
pub trait LawParameters: Sized + 'static {
    fn normal_parameters(&mut self) -> &mut NormalParameters;
    fn friction_parameters(&mut self) -> &mut FrictionParameters;
    /// `solver.max_step`: the largest sub-step of the stateful laws.
    fn solver_max_step(&mut self) -> &mut f64;
}

/// Implements [`LawParameters`] for `$model` with the fields `$m` (the model) leads to:
/// `law_parameters!(Model, m => m.parameters.normal, m.parameters.friction, m.parameters.solver_max_step)`.
#[macro_export]
macro_rules! law_parameters {
    ($model:ty, $m:ident => $normal:expr, $friction:expr, $solver:expr) => {
        impl $crate::law_rows::LawParameters for $model {
            fn normal_parameters(&mut self) -> &mut $crate::contact_physics::parameters::NormalParameters {
                let $m = self;
                &mut $normal
            }
            fn friction_parameters(&mut self) -> &mut $crate::contact_physics::parameters::FrictionParameters {
                let $m = self;
                &mut $friction
            }
            fn solver_max_step(&mut self) -> &mut f64 {
                let $m = self;
                &mut $solver
            }
        }
    };
}

/// What the models say differently about the same parameters.
#[derive(Clone, Copy, Debug)]
pub struct LawRowNotes {
    /// The description of `normal.law`.
    pub normal_law: &'static str,
    /// The description of `friction.law`.
    pub friction_law: &'static str,
    /// The description of `friction.rolling`.
    pub rolling: &'static str,
    /// The model has the spin friction torque (`friction.torque_radius`, 410).
    pub spin_torque: bool,
}

/// The normal law's rows (300 to 310).
pub fn normal_rows<M: LawParameters>(notes: &LawRowNotes) -> Vec<Variable<M>> {
    type V<M> = Variable<M>;
    macro_rules! normal {
        ($field:ident) => {
            |m: &mut M| std::slice::from_mut(&mut m.normal_parameters().$field)
        };
    }
    vec![
        V::enumeration("normal.law", 300, &NORMAL_LAW, notes.normal_law, |m: &mut M| &mut m.normal_parameters().law),
        // The stiffness and damping mean different quantities under different laws (k d, k d^n,
        // K sqrt(d) d), and FMI gives a variable one unit whose BaseUnit exponents are integers, so
        // they declare units by name only (no BaseUnit: an importer must not convert them) and the
        // description says the unit under each law (docs/src/units.md).
        V::parameter(
            "normal.stiffness",
            301,
            "N/m^n",
            "Contact stiffness k: N/m for LinearSpringDamper, LimitedDamper, SmoothSpringDamper; N/m^n with n = normal.exponent for HuntCrossley, Impact, Restitution; N/m^1.5 for GroundModel",
            normal!(stiffness),
        )
        .min(0.0),
        V::parameter(
            "normal.damping",
            302,
            "N.s^q/m^(p+q)",
            "Contact damping b: N.s/m for LinearSpringDamper, LimitedDamper, SmoothSpringDamper, Impact (maximum damping cmax); N.s^q/m^(p+q) with p = normal.damping_exponent, q = normal.velocity_exponent for HuntCrossley; N.s/m^1.5 for GroundModel; unused by Restitution",
            normal!(damping),
        )
        .min(0.0),
        V::parameter("normal.exponent", 303, "1", "Stiffness exponent n (HuntCrossley, Restitution; Impact: e)", normal!(exponent)).min(0.0),
        V::parameter("normal.damping_exponent", 304, "1", "Depth exponent p of the damping term (HuntCrossley)", normal!(damping_exponent)).min(0.0),
        V::parameter("normal.velocity_exponent", 305, "1", "Velocity exponent q of the damping term (HuntCrossley)", normal!(velocity_exponent))
            .min(0.0),
        V::parameter("normal.transition_width", 306, "m", "Transition region width w (SmoothSpringDamper)", normal!(transition_width)).min(0.0),
        V::parameter("normal.full_damping_depth", 307, "m", "Depth dmax of full damping (Impact)", normal!(full_damping_depth)).min(0.0),
        V::parameter("normal.restitution", 308, "1", "Coefficient of restitution e (Restitution)", normal!(restitution)).min(0.0).max(1.0),
        V::enumeration("normal.restitution_model", 309, &RESTITUTION_MODEL, "Damping model of the Restitution law", |m: &mut M| {
            &mut m.normal_parameters().restitution_model
        }),
        V::parameter("normal.max_depth", 310, "m", "Depth beyond which a point counts as passed through (0 = off)", normal!(max_depth)).min(0.0),
    ]
}

/// The friction law's rows (400 to 411).
pub fn friction_rows<M: LawParameters>(notes: &LawRowNotes) -> Vec<Variable<M>> {
    type V<M> = Variable<M>;
    macro_rules! friction {
        ($field:ident) => {
            |m: &mut M| std::slice::from_mut(&mut m.friction_parameters().$field)
        };
    }
    let mut rows = vec![
        V::enumeration("friction.law", 400, &FRICTION_LAW, notes.friction_law, |m: &mut M| &mut m.friction_parameters().law),
        V::parameter("friction.mu_static", 401, "1", "Static friction coefficient mu_s", friction!(mu_static)).min(0.0),
        V::parameter("friction.mu_dynamic", 402, "1", "Dynamic (kinetic) friction coefficient mu_d", friction!(mu_dynamic)).min(0.0),
        V::parameter("friction.v_stiction", 403, "m/s", "Stiction (critical) velocity vs, vc or ve1", friction!(v_stiction)).min(0.0),
        V::parameter("friction.v_transition", 404, "m/s", "Friction transition velocity vd or ve2", friction!(v_transition)).min(0.0),
        V::parameter("friction.viscous", 405, "s/m", "Viscous friction coefficient kv (Stribeck)", friction!(viscous)).min(0.0),
        V::parameter("friction.tanh_gain", 406, "s/m", "Gain k_mu of the Tanh law", friction!(tanh_gain)).min(0.0),
        V::parameter("friction.stiffness", 407, "N/m1.5", "Tangential stiffness Kt of the ElasticCone law (N/m^1.5)", friction!(stiffness)).min(0.0),
        V::parameter("friction.damping", 408, "N.s/m1.5", "Tangential damping Dt of the ElasticCone law (N.s/m^1.5)", friction!(damping)).min(0.0),
        V::parameter("friction.max_deformation", 409, "m", "Tangential deformation at which stiction breaks (Stiction)", friction!(max_deformation))
            .min(0.0),
    ];
    if notes.spin_torque {
        rows.push(V::parameter("friction.torque_radius", 410, "m", "Radius R of the spin friction torque (0 = off)", friction!(torque_radius)).min(0.0));
    }
    rows.push(V::parameter("friction.rolling", 411, "1", notes.rolling, friction!(rolling)).min(0.0));
    rows
}

/// `solver.max_step` (600).
pub fn solver_row<M: LawParameters>() -> Variable<M> {
    Variable::parameter("solver.max_step", 600, "s", "Largest internal sub-step of stateful laws within a communication step", |m: &mut M| {
        std::slice::from_mut(m.solver_max_step())
    })
    .min(0.0)
}
