//! The pair table of the guide (docs/src/planar.md) says what the code does: a "-" cell is a
//! refused pair, a number the candidate points the pair gives.

use std::sync::Arc;

use planar_contact::curve::Chain;
use planar_contact::geometry::PlanarPair;
use planar_contact::shape::{PlanarShape, PlanarShapeKind};
use planar_contact::{Pose2, Vec2};

/// The shapes of the table's rows and columns, in order, with a chain's point count.
fn shapes() -> Vec<(&'static str, PlanarShape, usize)> {
    let open: Vec<Vec2> = (0..5).map(|i| Vec2::new(0.05 * i as f64 - 0.1, 0.01 * (i % 2) as f64)).collect();
    let closed = vec![Vec2::new(-0.1, -0.1), Vec2::new(0.1, -0.1), Vec2::new(0.1, 0.1), Vec2::new(-0.1, 0.1)];
    let chain = |points: Vec<Vec2>, closed: bool| PlanarShape::Chain { kind: PlanarShapeKind::Polyline, chain: Arc::new(Chain::new(points, closed).unwrap()) };
    vec![
        ("Point", PlanarShape::Point, 0),
        ("Circle", PlanarShape::Circle { radius: 0.1 }, 0),
        ("Arc", PlanarShape::Arc { radius: 0.1, start: -2.0, end: 1.0 }, 0),
        ("Segment", PlanarShape::Segment { half_length: 0.1 }, 2),
        ("Line", PlanarShape::Line, 0),
        ("open chain", chain(open, false), 5),
        ("closed chain", chain(closed, true), 4),
    ]
}

#[test]
fn the_guides_pair_table_is_the_codes() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/src/planar.md")).unwrap();
    let shapes = shapes();
    let rows: Vec<Vec<String>> = text
        .lines()
        .filter(|line| line.starts_with("| **"))
        .map(|line| line.trim_matches('|').split('|').map(|cell| cell.trim().trim_matches('*').to_string()).collect())
        .collect();
    assert_eq!(rows.len(), shapes.len(), "one row per shape");
    let mut checked = 0;
    for (row, (name_a, a, points_a)) in rows.iter().zip(&shapes) {
        assert_eq!(row[0], *name_a);
        for (cell, (name_b, b, points_b)) in row[1..].iter().zip(&shapes) {
            let pair = PlanarPair::new(a.clone(), b.clone());
            let what = format!("{name_a} - {name_b}: the table says {cell:?}");
            if cell == "-" {
                assert!(pair.is_err(), "{what}, the code offers the pair");
                continue;
            }
            let pair = pair.unwrap_or_else(|e| panic!("{what}, the code refuses it: {e}"));
            let mut out = Vec::new();
            pair.contacts(&Pose2::IDENTITY, &Pose2 { r: Vec2::new(0.02, 0.03), phi: 0.4 }, &mut out);
            let closed = |name: &str| name == "closed chain";
            let expected: Vec<usize> = match cell.as_str() {
                "1 or 2" => vec![1, 2],
                // The candidates are the vertices of the chain against a Line, or of each chain
                // that faces a closed one.
                "n" if *name_a == "Line" => vec![*points_b],
                "n" if *name_b == "Line" => vec![*points_a],
                "n" => vec![if closed(name_b) { *points_a } else { 0 } + if closed(name_a) { *points_b } else { 0 }],
                "n + m" => vec![points_a + points_b],
                number => vec![number.parse().unwrap_or_else(|_| panic!("{what}: not a count"))],
            };
            assert!(expected.contains(&out.len()), "{what}, the code gives {} candidates", out.len());
            checked += 1;
        }
    }
    assert_eq!(checked, 32);
}
