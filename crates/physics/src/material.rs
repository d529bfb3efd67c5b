//! Material pairs with friction and restitution from the MSC Adams material table (seed 003).

use super::enums::stable_enum;

stable_enum! {
    /// Material pair preset (`material.pair`); sets mu_s, mu_d and e unless given explicitly.
    pub enum MaterialPair {
        /// No preset: the explicit parameters apply.
        None = 1,
        /// Dry steel on dry steel.
        DrySteel_DrySteel = 2,
        /// Greasy steel on dry steel.
        GreasySteel_DrySteel = 3,
        /// Greasy steel on greasy steel.
        GreasySteel_GreasySteel = 4,
        /// Dry aluminium on dry steel.
        DryAluminium_DrySteel = 5,
        /// Dry aluminium on greasy steel.
        DryAluminium_GreasySteel = 6,
        /// Dry aluminium on dry aluminium.
        DryAluminium_DryAluminium = 7,
        /// Greasy aluminium on dry steel.
        GreasyAluminium_DrySteel = 8,
        /// Greasy aluminium on greasy steel.
        GreasyAluminium_GreasySteel = 9,
        /// Greasy aluminium on dry aluminium.
        GreasyAluminium_DryAluminium = 10,
        /// Greasy aluminium on greasy aluminium.
        GreasyAluminium_GreasyAluminium = 11,
        /// Acrylic on dry steel.
        Acrylic_DrySteel = 12,
        /// Acrylic on greasy steel.
        Acrylic_GreasySteel = 13,
        /// Acrylic on dry aluminium.
        Acrylic_DryAluminium = 14,
        /// Acrylic on greasy aluminium.
        Acrylic_GreasyAluminium = 15,
        /// Acrylic on acrylic.
        Acrylic_Acrylic = 16,
        /// Nylon on dry aluminium.
        Nylon_DryAluminium = 17,
        /// Nylon on greasy aluminium.
        Nylon_GreasyAluminium = 18,
        /// Nylon on acrylic.
        Nylon_Acrylic = 19,
        /// Nylon on nylon.
        Nylon_Nylon = 20,
        /// Dry rubber on dry steel.
        DryRubber_DrySteel = 21,
        /// Dry rubber on greasy steel.
        DryRubber_GreasySteel = 22,
        /// Dry rubber on dry aluminium.
        DryRubber_DryAluminium = 23,
        /// Dry rubber on greasy aluminium.
        DryRubber_GreasyAluminium = 24,
        /// Dry rubber on acrylic.
        DryRubber_Acrylic = 25,
        /// Dry rubber on nylon.
        DryRubber_Nylon = 26,
        /// Dry rubber on dry rubber.
        DryRubber_DryRubber = 27,
        /// Greasy rubber on dry steel.
        GreasyRubber_DrySteel = 28,
        /// Greasy rubber on greasy steel.
        GreasyRubber_GreasySteel = 29,
        /// Greasy rubber on dry aluminium.
        GreasyRubber_DryAluminium = 30,
        /// Greasy rubber on greasy aluminium.
        GreasyRubber_GreasyAluminium = 31,
        /// Greasy rubber on acrylic.
        GreasyRubber_Acrylic = 32,
        /// Greasy rubber on nylon.
        GreasyRubber_Nylon = 33,
        /// Greasy rubber on dry rubber.
        GreasyRubber_DryRubber = 34,
        /// Greasy rubber on greasy rubber.
        GreasyRubber_GreasyRubber = 35,
    }
}

/// Friction and restitution of a material pair: the Adams material table (seed 003).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MaterialProperties {
    pub mu_static: f64,
    pub mu_dynamic: f64,
    pub restitution: f64,
}

impl MaterialPair {
    /// The table's values for this pair; `None` for [`MaterialPair::None`].
    pub fn properties(self) -> Option<MaterialProperties> {
        use MaterialPair::*;
        let (mu_static, mu_dynamic, restitution) = match self {
            None => return Option::None,
            DrySteel_DrySteel => (0.70, 0.57, 0.80),
            GreasySteel_DrySteel | GreasySteel_GreasySteel => (0.23, 0.16, 0.90),
            DryAluminium_DrySteel | DryAluminium_DryAluminium => (0.70, 0.50, 0.85),
            DryAluminium_GreasySteel | GreasyAluminium_GreasySteel => (0.23, 0.16, 0.85),
            GreasyAluminium_DrySteel | GreasyAluminium_DryAluminium | GreasyAluminium_GreasyAluminium => (0.30, 0.20, 0.85),
            Acrylic_DrySteel | Acrylic_GreasySteel | Acrylic_DryAluminium | Acrylic_GreasyAluminium | Acrylic_Acrylic => {
                (0.20, 0.15, 0.70)
            }
            Nylon_DryAluminium | Nylon_GreasyAluminium | Nylon_Nylon => (0.10, 0.06, 0.70),
            Nylon_Acrylic => (0.10, 0.06, 0.65),
            DryRubber_DrySteel | DryRubber_GreasySteel | DryRubber_DryAluminium | DryRubber_GreasyAluminium | DryRubber_Acrylic
            | DryRubber_Nylon | DryRubber_DryRubber => (0.80, 0.76, 0.95),
            GreasyRubber_DrySteel
            | GreasyRubber_GreasySteel
            | GreasyRubber_DryAluminium
            | GreasyRubber_GreasyAluminium
            | GreasyRubber_Acrylic
            | GreasyRubber_Nylon
            | GreasyRubber_DryRubber
            | GreasyRubber_GreasyRubber => (0.63, 0.56, 0.95),
        };
        Some(MaterialProperties { mu_static, mu_dynamic, restitution })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pair_but_none_has_physical_values_from_the_table() {
        assert_eq!(MaterialPair::None.properties(), None);
        for item in MaterialPair::ITEMS.iter().skip(1) {
            let p = MaterialPair::from_value(item.value).unwrap().properties().unwrap();
            assert!(0.0 < p.mu_dynamic && p.mu_dynamic <= p.mu_static && p.restitution <= 1.0, "{}", item.name);
        }
        // Spot checks against seed 003's table.
        let dry_steel = MaterialPair::DrySteel_DrySteel.properties().unwrap();
        assert_eq!((dry_steel.mu_static, dry_steel.mu_dynamic, dry_steel.restitution), (0.70, 0.57, 0.80));
        let nylon_acrylic = MaterialPair::Nylon_Acrylic.properties().unwrap();
        assert_eq!(nylon_acrylic.restitution, 0.65);
    }
}
