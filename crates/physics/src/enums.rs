//! Enumerations with stable numbers.
//!
//! Users store these numbers in their models (FMI enumerations, SSP files), so an item's number
//! never changes and no item is ever gated by a feature. Each enumeration carries its items with
//! names and descriptions so that interface descriptions are generated from the same place.

/// One item of an enumeration: its stable number, its name and a one-sentence description.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnumItem {
    pub value: i64,
    pub name: &'static str,
    pub description: &'static str,
}

/// The rule a number that is no item of an enumeration breaks, with every item by number and name
/// (`is not a normal law number (1 = LinearSpringDamper, 2 = LimitedDamper, ...)`), so that a user
/// of an importer that sets enumerations as Integers sees what each number means.
pub fn not_an_item(what: &str, items: &[EnumItem]) -> String {
    let list: Vec<String> = items.iter().map(|item| format!("{} = {}", item.value, item.name)).collect();
    format!("is not a {what} number ({})", list.join(", "))
}

/// Declares an enumeration with stable numbers, its item table `ITEMS`, `from_value` and `name`
/// (exported for ContactForce's `CouplingMode`; use it as `contact_physics::enums::stable_enum`).
#[doc(hidden)]
#[macro_export]
macro_rules! stable_enum {
    (
        $(#[doc = $doc:literal])*
        pub enum $name:ident {
            $( $(#[doc = $idoc:literal])+ $item:ident = $value:literal, )+
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[allow(non_camel_case_types)]
        pub enum $name {
            $( $(#[doc = $idoc])+ $item = $value, )+
        }

        impl $name {
            /// Every item, in the order of its stable number.
            pub const ITEMS: &'static [$crate::enums::EnumItem] = &[
                $( $crate::enums::EnumItem {
                    value: $value,
                    name: stringify!($item),
                    description: concat!($($idoc),+),
                }, )+
            ];

            /// The item with this stable number, if there is one.
            pub fn from_value(value: i64) -> Option<Self> {
                match value {
                    $( $value => Some(Self::$item), )+
                    _ => None,
                }
            }

            /// The item's stable number.
            pub fn value(self) -> i64 {
                self as i64
            }

            /// The item's name as users see it.
            pub fn name(self) -> &'static str {
                match self {
                    $( Self::$item => stringify!($item), )+
                }
            }
        }
    };
}

pub use crate::stable_enum;
