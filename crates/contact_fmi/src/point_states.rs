//! The contact points' states in a serialized FMU state, the same bytes for every contact FMU
//! (ContactForce and PlanarContact): a count (u64), then per point its deflection (3 f64), its
//! onset speed (f64) and its slipping flag (one byte, 0 or 1), little-endian, 33 bytes a point.
#![forbid(unsafe_code)]

use fmi_export::table::Reader;

use contact_physics::contact::PointState;

/// The bytes of one point state.
const POINT_STATE_BYTES: usize = 33;

/// Appends `states` to a serialized FMU state.
pub fn write(states: &[PointState], out: &mut Vec<u8>) {
    out.extend_from_slice(&(states.len() as u64).to_le_bytes());
    for state in states {
        for x in state.tangential.deflection.iter().chain(std::iter::once(&state.onset_speed)) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out.push(u8::from(state.tangential.slipping));
    }
}

/// Reads what [`write()`] wrote; damaged bytes (a count the bytes cannot hold, a flag that is not
/// 0 or 1, a number that is not finite) are refused, not guessed at.
pub fn read(reader: &mut Reader<'_>) -> Result<Vec<PointState>, String> {
    let count = reader.u64()?;
    // A count the bytes cannot hold is damage, not a size.
    if count > (reader.remaining() / POINT_STATE_BYTES) as u64 {
        return Err("the serialized FMU state is truncated".to_string());
    }
    let mut states = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let mut state = PointState::default();
        for x in state.tangential.deflection.iter_mut() {
            *x = reader.f64()?;
        }
        state.onset_speed = reader.f64()?;
        state.tangential.slipping = match reader.take(1)?[0] {
            0 => false,
            1 => true,
            _ => return Err("the serialized FMU state is damaged (slipping flag)".to_string()),
        };
        if !state.onset_speed.is_finite() || state.tangential.deflection.iter().any(|x| !x.is_finite()) {
            return Err("the serialized FMU state holds a non-finite contact state".to_string());
        }
        states.push(state);
    }
    Ok(states)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<PointState> {
        let mut states = vec![PointState::default(); 3];
        states[1].tangential.deflection = [1e-4, -2e-5, 0.5].into();
        states[1].onset_speed = -0.25;
        states[2].tangential.slipping = true;
        states
    }

    #[test]
    fn point_states_read_back_as_written_in_33_bytes_each() {
        let mut out = Vec::new();
        write(&sample(), &mut out);
        assert_eq!(out.len(), 8 + 3 * POINT_STATE_BYTES);
        // The layout: deflection, onset speed, then the flag.
        assert_eq!(&out[8 + POINT_STATE_BYTES..8 + POINT_STATE_BYTES + 8], &1e-4f64.to_le_bytes());
        assert_eq!(&out[8 + POINT_STATE_BYTES + 24..8 + POINT_STATE_BYTES + 32], &(-0.25f64).to_le_bytes());
        assert_eq!(out[8 + 3 * POINT_STATE_BYTES - 1], 1);
        assert_eq!(read(&mut Reader::new(&out)).unwrap(), sample());
    }

    #[test]
    fn damaged_point_states_are_refused() {
        let mut out = Vec::new();
        write(&sample(), &mut out);
        let mut flag = out.clone();
        *flag.last_mut().unwrap() = 2;
        assert!(read(&mut Reader::new(&flag)).unwrap_err().contains("slipping flag"));
        let mut count = out.clone();
        count[..8].copy_from_slice(&4u64.to_le_bytes());
        assert!(read(&mut Reader::new(&count)).unwrap_err().contains("truncated"));
        let mut nan = out;
        nan[8..16].copy_from_slice(&f64::NAN.to_le_bytes());
        assert!(read(&mut Reader::new(&nan)).unwrap_err().contains("non-finite"));
    }
}
