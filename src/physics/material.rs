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
