//! Validation of canonical CBOR spans before they are decoded.
//!
//! Smith's canonical CBOR (`docs/session-format.md`, RFC 8949 §4.2.1 "preferred serialization" without key
//! sorting): integers, lengths and tags in their shortest form; definite lengths only; floats
//! in the shortest of half, single and double precision that keeps the value's exact bits
//! (so negative zero and the integer/float distinction survive); map entries in insertion
//! order; no tags; the only simple values are `false`, `true` and `null` (text must be UTF-8;
//! that is checked where it is decoded). The
//! walk allocates nothing and its recursion is bounded by [`MAX_DEPTH`].

/// Deepest nesting of arrays and maps accepted in a record body.
pub const MAX_DEPTH: usize = 64;

/// Check that `bytes` is exactly one canonical CBOR data item nested at most [`MAX_DEPTH`]
/// deep.
///
/// # Errors
/// [`DecodeError`] describing the first problem and its byte offset.
pub fn check(bytes: &[u8]) -> Result<(), DecodeError> {
    check_item(bytes).map_err(DecodeError)
}

fn check_item(bytes: &[u8]) -> Result<(), String> {
    let mut at = 0usize;
    item(bytes, &mut at, 0)?;
    if at != bytes.len() {
        return Err(format!(
            "{} bytes follow its CBOR body, which must fill the frame",
            bytes.len() - at
        ));
    }
    Ok(())
}

use crate::DecodeError;

pub(crate) mod de;

pub(super) fn take<'a>(bytes: &'a [u8], at: &mut usize, n: usize) -> Result<&'a [u8], String> {
    let end = at
        .checked_add(n)
        .filter(|&e| e <= bytes.len())
        .ok_or_else(|| "its CBOR body ends early".to_owned())?;
    let s = &bytes[*at..end];
    *at = end;
    Ok(s)
}

/// Read an argument (the value after the initial byte) and insist on its shortest form.
pub(super) fn argument(
    bytes: &[u8],
    at: &mut usize,
    minor: u8,
    start: usize,
) -> Result<u64, String> {
    let value = match minor {
        0..=23 => return Ok(u64::from(minor)),
        24 => u64::from(take(bytes, at, 1)?[0]),
        25 => u64::from(u16::from_be_bytes(
            take(bytes, at, 2)?.try_into().unwrap_or([0; 2]),
        )),
        26 => u64::from(u32::from_be_bytes(
            take(bytes, at, 4)?.try_into().unwrap_or([0; 4]),
        )),
        27 => u64::from_be_bytes(take(bytes, at, 8)?.try_into().unwrap_or([0; 8])),
        31 => return Err(format!("indefinite length at body byte {start}")),
        _ => return Err(format!("reserved CBOR argument at body byte {start}")),
    };
    let shortest = match value {
        0..=23 => minor < 24,
        24..=0xff => minor == 24,
        0x100..=0xffff => minor == 25,
        0x1_0000..=0xffff_ffff => minor == 26,
        _ => minor == 27,
    };
    if !shortest {
        return Err(format!(
            "non-shortest integer or length at body byte {start}"
        ));
    }
    Ok(value)
}

pub(super) fn item(bytes: &[u8], at: &mut usize, depth: usize) -> Result<(), String> {
    let start = *at;
    let initial = take(bytes, at, 1)?[0];
    let (major, minor) = (initial >> 5, initial & 0x1f);
    match major {
        0 | 1 => {
            argument(bytes, at, minor, start)?;
        }
        2 | 3 => {
            let len = argument(bytes, at, minor, start)?;
            let len = usize::try_from(len).map_err(|_| "its CBOR body ends early".to_owned())?;
            // Text is checked for UTF-8 when it is decoded, not twice.
            take(bytes, at, len)?;
        }
        4 | 5 => {
            if depth >= MAX_DEPTH {
                return Err(format!(
                    "its CBOR body is nested deeper than {MAX_DEPTH} levels"
                ));
            }
            let len = argument(bytes, at, minor, start)?;
            let items = if major == 5 {
                len.saturating_mul(2)
            } else {
                len
            };
            // Every item takes at least one byte: a count beyond the bytes left is damage,
            // found before looping over it.
            if items > (bytes.len() - *at) as u64 {
                return Err("its CBOR body ends early".to_owned());
            }
            for _ in 0..items {
                item(bytes, at, depth + 1)?;
            }
        }
        6 => return Err(format!("a CBOR tag at body byte {start}")),
        _ => match minor {
            20..=22 => {}
            25 => {
                take(bytes, at, 2)?;
            }
            26 => {
                let b: [u8; 4] = take(bytes, at, 4)?.try_into().unwrap_or([0; 4]);
                let v = f32::from_be_bytes(b);
                if half_exact(f64::from(v)) {
                    return Err(format!("non-shortest float at body byte {start}"));
                }
            }
            27 => {
                let b: [u8; 8] = take(bytes, at, 8)?.try_into().unwrap_or([0; 8]);
                let v = f64::from_be_bytes(b);
                if f64::from(v as f32).to_bits() == v.to_bits() {
                    return Err(format!("non-shortest float at body byte {start}"));
                }
            }
            _ => {
                return Err(format!(
                    "a CBOR simple value other than false, true or null at body byte {start}"
                ));
            }
        },
    }
    Ok(())
}

/// Whether `v` is exactly representable as an IEEE half-precision float.
pub(super) fn half_exact(v: f64) -> bool {
    if v.is_nan() {
        return false;
    }
    if v == 0.0 || v.is_infinite() {
        return true;
    }
    let a = v.abs();
    // Normal halves: 2^-14 ..= 65504 with 11 significant bits; subnormals: multiples of 2^-24.
    if a > 65504.0 {
        return false;
    }
    let scaled = if a < 2f64.powi(-14) {
        a * 2f64.powi(24)
    } else {
        let e = a.log2().floor() as i32;
        a * 2f64.powi(10 - e)
    };
    scaled.fract() == 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc<T: serde::Serialize>(v: &T) -> Vec<u8> {
        let mut out = Vec::new();
        ciborium::into_writer(v, &mut out).unwrap();
        out
    }

    #[test]
    fn what_the_encoder_writes_is_canonical() {
        let v = serde_json::json!({"b": [1, -2, 300, 70000, 5_000_000_000u64], "a": -0.0,
            "c": 1.5, "d": 0.1, "e": 1e300, "f": null, "g": true, "h": "ü"});
        check(&enc(&v)).unwrap();
        check(&enc(&-0.0f64)).unwrap();
        check(&enc(&65504.0f64)).unwrap();
        check(&enc(&(1.0f64 + f64::EPSILON))).unwrap();
        check(&enc(&5.960_464_477_539_063e-8f64)).unwrap();
    }

    #[test]
    fn non_canonical_forms_are_refused() {
        // 1 as a two-byte integer.
        assert!(check(&[0x18, 0x01]).unwrap_err().0.contains("non-shortest"));
        // 1.0 as a double.
        let mut d = vec![0xfb];
        d.extend_from_slice(&1.0f64.to_be_bytes());
        assert!(check(&d).unwrap_err().0.contains("float"));
        // Indefinite-length array.
        assert!(check(&[0x9f, 0xff]).unwrap_err().0.contains("indefinite"));
        // Tag, undefined, trailing bytes, truncation.
        assert!(check(&[0xc1, 0x00]).unwrap_err().0.contains("tag"));
        assert!(check(&[0xf7]).unwrap_err().0.contains("simple"));
        assert!(check(&[0x00, 0x00]).unwrap_err().0.contains("follow"));
        assert!(check(&[0x82, 0x00]).unwrap_err().0.contains("ends early"));
        // A huge claimed array is refused without looping over it.
        assert!(check(&[0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]).is_err());
    }

    #[test]
    fn depth_is_bounded() {
        let mut deep = vec![0x81; MAX_DEPTH];
        deep.push(0x00);
        check(&deep).unwrap();
        let mut deeper = vec![0x81; MAX_DEPTH + 1];
        deeper.push(0x00);
        assert!(check(&deeper).unwrap_err().0.contains("nested"));
    }
}
